"""End Phase: hand limit and cleanup (RULES.md §11)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

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
    damage_removed: tuple[str, ...] | None = Field(default=None, max_length=10_000)
    """The cards whose damage was removed, when the log lists them: exactly the cards in play
    with damage. Absent: not listed."""
    effects_ended: tuple[str, ...] | None = Field(default=None, max_length=10_000)
    """The cards whose until-end-of-turn effects ended, when the log lists them: exactly the
    cards in play with such an effect. Absent: not listed."""


__all__ = [
    "HandLimitDiscarded",
    "TurnCleanedUp",
]
