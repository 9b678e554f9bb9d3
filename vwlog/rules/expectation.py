"""What the rules expect next (`Expect`): the consequences they demand, or whose decision of
which kind (`DecisionKind`) they await. `vwlog.rules.flow` computes it; the checks and the
replay loop read it.

Part of the compiled engine core (`vwlog.build.COMPILED`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vwlog.events import AnyEvent


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


@dataclass(frozen=True, slots=True, init=False)
class Expect:
    """What the rules expect next: consequences, or a decision by ``player`` of ``kind``."""

    consequences: tuple[AnyEvent, ...]
    """Consequences demanded now; when several, any of them may come next (OQ-16)."""
    player: str | None
    """Whose decision is awaited."""
    kind: DecisionKind | None
    """The kind of decision awaited."""
    rule: str
    """The rule that demands what is expected."""

    def __init__(
        self,
        consequences: tuple[AnyEvent, ...] = (),
        player: str | None = None,
        kind: DecisionKind | None = None,
        rule: str = "R-GEN-10",
    ) -> None:
        # written out: compiled, it sets the fields directly, where the constructor the
        # dataclass would write stays interpreted (ten times slower, once per event)
        object.__setattr__(self, "consequences", consequences)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rule", rule)

    @property
    def is_priority(self) -> bool:
        """Whether a player holds priority in an open window (a priority point)."""
        return self.kind == DecisionKind.PRIORITY

    def demands(self, event: AnyEvent) -> bool:
        """Whether ``event`` is one of the consequences demanded: ``event in consequences``,
        with events compared as pydantic compares them (same class, same field values), but
        without its generic ``__eq__`` on the hot path."""
        kind = type(event)
        values = event.__dict__
        for c in self.consequences:
            if c is event or (type(c) is kind and c.__dict__ == values):
                return True
        return False


__all__ = ["DecisionKind", "Expect"]
