"""The kinds of decision Vandaria Wars' rules can await (`DecisionKind`, the ``kind`` of an
`Expect`, which `vwlog.rules.flow` computes; `Expect` itself is the core's,
`vwlog.model.expect`, re-exported here).

Part of the compiled engine core (`vwlog.build.COMPILED`).
"""

from __future__ import annotations

from enum import StrEnum

from vwlog.model.expect import Expect


class DecisionKind(StrEnum):
    """The kinds of decision the rules can await (`Expect.kind`)."""

    SETUP = "setup"
    SUPPLY = "supply"
    DEPLOY = "deploy"
    STRAY = "stray"
    REGISTRATION = "registration"
    ATTACKERS = "attackers"
    DECLARE = "declare"
    BLOCKERS = "blockers"
    BLOCKS = "blocks"
    DAMAGE = "damage"
    DISCARD = "discard"
    PRIORITY = "priority"


__all__ = ["DecisionKind", "Expect"]
