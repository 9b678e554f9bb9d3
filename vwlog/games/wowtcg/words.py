"""A WoW TCG violation as the game words it: the message ends with the seed's section of the
rule it cites (``WOW-STA-9 … (501.2b)``), so a report names both numbers."""

from __future__ import annotations

from typing import cast

from vwlog.games.wowtcg.catalog import CATALOG
from vwlog.model.text import Msg, msg
from vwlog.model.types import RuleId
from vwlog.model.violation import Violation

__all__ = ["wrong"]


def wrong(rule_id: str, template: str, /, **params: object) -> Violation:
    """A violation citing ``rule_id``, saying ``template`` filled from ``params`` and then the
    seed's section of the rule (none for the core's log rules)."""
    found = CATALOG.get(rule_id)
    text: Msg = msg(template, **params)
    if found is not None and found.section:  # the sentence is translated, then the section
        text = msg("{text} ({section})", text=text, section=found.section)
    return Violation(rule=cast("RuleId", rule_id), message=str(text), text=text)
