"""WoW TCG's statistics (`vwlog.games.core.Stats`): what ``vwlog stats`` measures of a match.

Counted from the events as the replay folds them: turns (regular and extra), turns skipped and
extra turns created, priority windows and the passes in them, links added and resolved and the
longest chain, triggers, resources placed, combats declared, Inspire, cards drawn, hand-limit
discards (and the cards discarded), concessions; and who went first and who won.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from vwlog.games.common import Counting
from vwlog.games.core import Figure
from vwlog.games.wowtcg import events as ev

if TYPE_CHECKING:
    from vwlog.games.wowtcg.board import Board

__all__ = ["FIGURES", "measure"]

FIGURES: Final = (
    Figure("turns", "turns taken"),
    Figure("extra_turns", "extra turns taken"),
    Figure("extra_turns_created", "extra turns created"),
    Figure("turns_skipped", "turns skipped"),
    Figure("windows", "priority windows"),
    Figure("passes", "priority passes"),
    Figure("passes_per_window", "passes per priority window", "ratio", ("passes", "windows")),
    Figure("most_passes_in_a_window", "most passes in one window", "most"),
    Figure("links", "links added to the chain"),
    Figure("links_resolved", "links resolved"),
    Figure("longest_chain", "longest chain (links)", "most"),
    Figure("triggers", "abilities triggered"),
    Figure("resources", "resources placed"),
    Figure("combats", "combats declared"),
    Figure("inspired", "cards readied by Inspire"),
    Figure("cards_drawn", "cards drawn"),
    Figure("hand_limit_discards", "hand-limit discards"),
    Figure("cards_discarded", "cards discarded to the hand limit"),
    Figure("concessions", "concessions"),
    Figure("first_player", "first player", "word"),
    Figure("winner", "winner", "word"),
)
"""WoW TCG's figures, in the order ``vwlog stats`` shows them."""

_COUNTED: Final[dict[type, str]] = {
    ev.TurnSkipped: "turns_skipped",
    ev.ExtraTurnCreated: "extra_turns_created",
    ev.PriorityWindowOpened: "windows",
    ev.PriorityPassed: "passes",
    ev.LinkAdded: "links",
    ev.LinkResolved: "links_resolved",
    ev.AbilityTriggered: "triggers",
    ev.ResourcePlaced: "resources",
    ev.CombatDeclared: "combats",
    ev.CardDrawn: "cards_drawn",
    ev.HandLimitDiscarded: "hand_limit_discards",
    ev.Conceded: "concessions",
}


class _Measure(Counting):
    """One match's figures, folded event by event."""

    def __init__(self) -> None:
        super().__init__(FIGURES, _COUNTED)
        self.window = 0

    def tally(self, event: Any, before: Board, after: Board) -> None:
        """Measure ``event`` (folded from ``before`` to ``after``)."""
        f = self.figures
        if isinstance(event, ev.TurnStarted):
            f["turns"] += 1
            f["extra_turns"] += int(event.extra)
            if f["first_player"] is None:
                f["first_player"] = event.player
        elif isinstance(event, ev.PriorityWindowOpened):
            self.window = 0
        elif isinstance(event, ev.PriorityPassed):
            self.window += 1
            f["most_passes_in_a_window"] = max(f["most_passes_in_a_window"], self.window)
        elif isinstance(event, ev.HandLimitDiscarded):
            f["cards_discarded"] += len(event.cards)
        elif isinstance(event, ev.InspireReadied):
            f["inspired"] += len(event.cards)
        f["longest_chain"] = max(f["longest_chain"], len(after.chain))
        if after.winner is not None:
            f["winner"] = after.winner


def measure() -> _Measure:
    """A fresh measure of one match."""
    return _Measure()
