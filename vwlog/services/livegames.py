"""Live recording of a match of another game than Vandaria Wars: the organiser gives the game's
start event (the table as it is set up: players, cards in play, ruleset), the service judges it
by the game's rules and stores it with every consequence up to the first decision; decisions
are then appended in play mode, as for any match (`vwlog.services.play.play_decisions`).

Vandaria Wars' live matches start from published decks, shuffled in secret
(`vwlog.services.live.start_match`); the other games have no published pools, so what they
start with is what the organiser records, judged as any record's start is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
from pydantic import ValidationError

from vwlog.events import LogHeader
from vwlog.games import rules_for
from vwlog.io import codec
from vwlog.model.errors import IllegalEventError, UsageError
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.text import msg
from vwlog.services.decisions import decisions_of
from vwlog.services.storing import store_new_match
from vwlog.store import ImportOutcome

if TYPE_CHECKING:
    from collections.abc import Mapping

    from vwlog.games import GameRules
    from vwlog.store import MatchMeta, MatchStore

__all__ = ["start_game_match"]

CONSEQUENCE_LIMIT = 10_000
"""The most consequences a start may owe before its first decision (a game whose rules owe
more is stopped there: the record is stored as far as it goes)."""


def start_game_match(
    store: MatchStore,
    match_id: str,
    game_id: str,
    start: Mapping[str, Any],
    *,
    created: str | None = None,
) -> MatchMeta:
    """Store a new match of ``game_id`` to be played live: ``start`` (its start event, as
    JSON) and every consequence the rules owe up to the first decision.

    Raises:
        GameUnavailableError: no such game, or it has no decisions to play live.
        UsageError: the game is Vandaria Wars (its matches start from decks), the start event
            cannot be read (one line naming the field), or the id is taken.
        IllegalEventError: the start breaks a rule of the game (nothing is stored).
    """
    game = rules_for(game_id)
    if game.id == DEFAULT_GAME:
        raise UsageError(msg("a Vandaria Wars match starts live from packaged decks, at /live"))
    capability = decisions_of(game, "live recording")
    event = _start_event(game, start)
    ruleset = game.start_ruleset(event) or game.default_ruleset
    expected = game.expect(ruleset, game.initial)
    violations = game.judge(ruleset, game.initial, expected, event)
    if violations:
        raise IllegalEventError(1, getattr(event, "type", "start"), list(violations))
    state, _ = game.fold(game.initial, event, ())
    events = [event, *_owed(game, capability, ruleset, state)]
    header = codec.seal_header(
        LogHeader(match_id=match_id, game=game.id, created=created, generator="vwlog serve (live)")
    )
    assert header.hash is not None
    records = [
        game.record.validate_python({"seq": i + 1, "event": e}) for i, e in enumerate(events)
    ]
    outcome, meta = store_new_match(store, header, list(codec.seal(header.hash, records)))
    if outcome != ImportOutcome.STORED:
        raise UsageError(msg("match {match_id} is already stored", match_id=repr(match_id)))
    return meta


def _start_event(game: GameRules, start: Mapping[str, Any]) -> Any:
    """``start`` read as ``game``'s start event.

    Raises:
        UsageError: it is not one (one line naming the first field at fault).
    """
    try:
        record = game.record.validate_json(orjson.dumps({"seq": 1, "event": dict(start)}))
    except ValidationError as err:
        first = err.errors()[0]
        # the location past the event's own type tag: ('event', 'match_started', 'players')
        loc = first["loc"][2:] if len(first["loc"]) > 2 else first["loc"][1:]
        where = ".".join(str(p) for p in loc) or "type"
        raise UsageError(
            msg(
                "the start event cannot be read: field {field}: {why}",
                field=repr(where),
                why=first["msg"],
            )
        ) from None
    event = record.event
    if not isinstance(event, game.start_type):
        raise UsageError(
            msg(
                "a match of game {game} starts with {kind}, not {found}",
                game=game.id,
                kind=game.start_type.__name__,
                found=getattr(event, "type", type(event).__name__),
            )
        )
    return event


def _owed(game: GameRules, capability: Any, ruleset: Any, state: Any) -> list[Any]:
    """The consequences the rules owe after the start, up to the first decision: the game's
    ``advance`` where its decisions capability has one, else the first consequence the rules
    demand, again and again."""
    advance = getattr(capability, "advance", None)
    if advance is not None:
        _, advanced = advance(ruleset, state)
        return list(advanced)
    events: list[Any] = []
    for _ in range(CONSEQUENCE_LIMIT):
        expected = game.expect(ruleset, state)
        if not expected.consequences:
            break
        owed = expected.consequences[0]
        state, _ = game.fold(state, owed, ())
        events.append(owed)
    return events
