"""What a game's rules expect next (`Expect`): the consequences they demand, or whose decision
of which kind they await. A game computes it (`vwlog.games.GameRules.expect`); its checks and
the replay loop read it.

The kinds of decision are the game's own words (Vandaria Wars': ``"priority"``, ``"blocks"``,
…); which of them are fork points, where a match may be forked or backed up to, the game says
(`vwlog.games.GameRules.fork_kinds`).

Part of the compiled engine core (`vwlog.build.COMPILED`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True, init=False)
class Expect:
    """What the rules expect next: consequences, or a decision by ``player`` of ``kind``."""

    consequences: tuple[Any, ...]
    """Consequences (events) demanded now; when several, any of them may come next."""
    player: str | None
    """Whose decision is awaited."""
    kind: str | None
    """The kind of decision awaited, in the game's words."""
    rule: str
    """The rule that demands what is expected."""

    def __init__(
        self,
        consequences: tuple[Any, ...] = (),
        player: str | None = None,
        kind: str | None = None,
        rule: str = "",
    ) -> None:
        # written out: compiled, it sets the fields directly, where the constructor the
        # dataclass would write stays interpreted (ten times slower, once per event)
        object.__setattr__(self, "consequences", consequences)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rule", rule)

    @property
    def is_priority(self) -> bool:
        """Whether the awaited decision is of the kind ``"priority"`` (a player holding
        priority in an open window: a fork point of the games that have priority)."""
        return self.kind == "priority"

    def demands(self, event: Any) -> bool:
        """Whether ``event`` is one of the consequences demanded: ``event in consequences``,
        with events compared as pydantic compares them (same class, same field values), but
        without its generic ``__eq__`` on the hot path."""
        kind = type(event)
        values = event.__dict__
        for c in self.consequences:
            if c is event or (type(c) is kind and c.__dict__ == values):
                return True
        return False


__all__ = ["Expect"]
