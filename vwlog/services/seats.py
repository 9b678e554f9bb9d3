"""A player's append held to its seat, for every game: a game that hides cards from some seats
through its seat authority (`vwlog.games.seats.Seats`; Vandaria Wars': its authority table,
`vwlog.games.vw.seats`), another game by one rule.

Another game's decisions are read in its notation (`vwlog.services.decisions.Decisions.parse`)
before the rules see them, and every decision must name the token's seat as its ``player``: a
decision of another seat, or of no seat (a fork marker, a judge's ruling), is refused
(`SeatError`, 403), and a player's token makes one decision per call, never automatic ones.
Whether the decision is the seat's to make now, the game's rules say (a pass out of turn is
refused citing the game's rule, as on any log).

What the rules answer is said through the seat's view. The other games' boards hold no card
a seat cannot see (WoW TCG keeps hands, libraries and resources as counts), so no refusal can
tell a seat whether an id it guessed is one of another seat's cards: the only hidden card ids
are in the records (a card placed face down as a resource, named by the id its owner chose),
and what a seat may read of each record, its views say (the sentence, and the chain hashes,
`vwlog.services.hashes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vwlog.games import game_of_state
from vwlog.games.seats import Authorized, SeatError, SeatView, refuse_other
from vwlog.model.text import msg
from vwlog.services.decisions import decisions_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from vwlog.games import GameRules

__all__ = ["authorize_seat"]


def authorize_seat(
    state: Any,
    seat: str,
    decisions: Sequence[str],
    *,
    auto: int = 0,
    choices: Mapping[str, Sequence[str]] | None = None,
) -> Authorized:
    """Hold a player's append to its seat (see the module).

    Raises:
        SeatError: a decision (or an automatic one, or a choice) is not the seat's to make.
        UnseenError: a decision names an id the seat cannot see (a game with a seat authority).
        UsageError: a decision cannot be read.
        GameUnavailableError: the game has no decisions to play.
    """
    game = game_of_state(state)
    if game.seats is not None:
        return game.seats().authorize(state, seat, decisions, auto=auto, choices=choices)
    return _authorize_in(game, state, seat, decisions, auto=auto, choices=choices)


def _authorize_in(
    game: GameRules,
    state: Any,
    seat: str,
    decisions: Sequence[str],
    *,
    auto: int,
    choices: Mapping[str, Sequence[str]] | None,
) -> Authorized:
    """Another game's append: each decision read in its notation and held to the seat."""
    if auto:
        raise SeatError(msg("a player's token cannot ask for automatic decisions"))
    if len(decisions) > 1:
        raise SeatError(msg("a player's token appends one decision per call"))
    if choices:
        raise SeatError(msg("a player's token chooses only for its own objects on the register"))
    capability = decisions_of(game, "play")
    ruleset = game.ruleset_of(state) or game.default_ruleset
    events: list[Any] = []
    for text in decisions:
        for event in capability.parse(ruleset, state, text):
            if type(event) not in game.decision_types or getattr(event, "player", None) != seat:
                raise refuse_other(seat)
            events.append(event)
    view = SeatView(seat, frozenset(), {}, frozenset(), (), ())
    return Authorized(events, view, frozenset(w for t in decisions for w in t.split()))
