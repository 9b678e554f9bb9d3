"""The miniatures game's statistics (`vwlog.games.core.Stats`): what ``vwlog stats`` measures of
a record.

Counted from the events as the replay folds them: rounds and turns, activations and stops,
Reactions, Attacks of Opportunity (and those out of Reach), changed Reactions, rolls, dice and
Hits (and the most Hits of one roll), Wounds, the geometric claims taken as logged, and the
winner the organiser recorded.
"""

from __future__ import annotations

from typing import Any, Final

from vwlog.games.common import Counting
from vwlog.games.core import Figure
from vwlog.games.minis import events as ev

__all__ = ["FIGURES", "measure"]

FIGURES: Final = (
    Figure("rounds", "rounds"),
    Figure("turns", "turns"),
    Figure("activations", "activations"),
    Figure("stops", "Tactical Phases stopped"),
    Figure("reactions", "Reactions"),
    Figure("aoo", "Attacks of Opportunity"),
    Figure("aoo_out_of_reach", "Attacks of Opportunity out of Reach"),
    Figure("reactions_changed", "Reactions changed to Attack"),
    Figure("rolls", "rolls"),
    Figure("dice", "dice rolled"),
    Figure("hits", "Hits"),
    Figure("most_hits", "most Hits of one roll", "most"),
    Figure("wounds", "Wounds"),
    Figure("claims", "geometric claims taken as logged"),
    Figure("winner", "winner", "word"),
)
"""The figures, in the order ``vwlog stats`` shows them."""

_COUNTED: Final[dict[type, str]] = {
    ev.RoundStarted: "rounds",
    ev.TurnStarted: "turns",
    ev.ModelActivated: "activations",
    ev.TacticalStopped: "stops",
    ev.AoODeclared: "aoo",
    ev.ReactionChanged: "reactions_changed",
    ev.Roll: "rolls",
}


class _Measure(Counting):
    """One record's figures, folded event by event."""

    def __init__(self) -> None:
        super().__init__(FIGURES, _COUNTED)

    def tally(self, event: Any, before: Any, after: Any) -> None:
        """Measure ``event`` (the claims from the boards around it)."""
        f = self.figures
        if isinstance(event, ev.ReactionsDeclared):
            f["reactions"] += len(event.reactions)
        elif isinstance(event, ev.AoOChecked):
            f["aoo_out_of_reach"] += int(not event.within_reach)
        elif isinstance(event, ev.Roll):
            f["dice"] += event.dice
            f["hits"] += event.hits
            f["most_hits"] = max(f["most_hits"], event.hits)
        elif isinstance(event, ev.WoundsApplied):
            f["wounds"] += event.wounds
        elif isinstance(event, ev.MatchEnded):
            f["winner"] = event.winner
        claims = len(getattr(after, "claims", ())) - len(getattr(before, "claims", ()))
        f["claims"] += max(claims, 0)


def measure() -> _Measure:
    """A fresh measure of one record."""
    return _Measure()
