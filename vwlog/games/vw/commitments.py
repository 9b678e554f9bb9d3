"""Opening the deck commitments of a Vandaria Wars match shuffled in secret, once it is over
(`open_commitments`): what VW's record owes at its end, before its seal, by the live service
and by play mode alike (`vwlog.games.GameRules.closing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events import DeckRevealed, MatchStarted
from vwlog.games.vw.play import play

if TYPE_CHECKING:
    from vwlog.events import AnyEvent
    from vwlog.model.state import MatchState


def open_commitments(start: object, state: MatchState) -> tuple[MatchState, list[AnyEvent]]:
    """The openings due once a match is over: a `DeckRevealed` for every seat whose deck
    commitment its ``match_started`` (``start``) holds the salt of and that is not opened yet,
    played after ``state`` (the board at the end). The board after them and the reveals; none
    while the match runs, or for a match shuffled in the open (a salt that does not open its
    commitment is not revealed: validation flags the start itself, R-ZONE-2). Appended before
    the seal, in the append that ends the match, so that every seat can check from then on that
    the deck orders it drew from are the ones committed at the start.
    """
    rs = state.ruleset
    if not state.over or rs is None or not isinstance(start, MatchStarted):
        return state, []
    opened: list[AnyEvent] = []
    for seat in start.seats:
        if seat.salt is None or seat.player in state.revealed or not seat.opens(seat.salt):
            continue  # nothing committed, opened already, or a start validation flags (R-ZONE-2)
        state, events = play(rs, state, DeckRevealed(player=seat.player, salt=seat.salt))
        opened.extend(events)
    return state, opened


__all__ = ["open_commitments"]
