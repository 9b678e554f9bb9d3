"""End Phase: hand limit and cleanup (RULES.md §11)."""

from __future__ import annotations

from typing import Literal

from vwlog.events.base import Consequence, Decision


class HandLimitDiscarded(Decision):
    """The active player discarded down to the hand limit (R-END-3, OQ-31).

    A player's decision."""

    type: Literal["hand_limit_discarded"] = "hand_limit_discarded"
    player: str
    """The discarding player."""
    cards: tuple[str, ...]
    """The discarded cards."""


class TurnCleanedUp(Consequence):
    """All damage was removed and end-of-turn effects ended, at once (R-END-4).

    A consequence the rules demand."""

    type: Literal["turn_cleaned_up"] = "turn_cleaned_up"


__all__ = [
    "HandLimitDiscarded",
    "TurnCleanedUp",
]
