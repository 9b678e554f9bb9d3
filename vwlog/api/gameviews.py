"""A stored match of any game as the service shows it through the game's own rules: its event
pages (`events_of`: each event said by the game's views, or by its type and fields for a game
without views, `vwlog.games.event_text`), and, for a game other than Vandaria Wars, the board
(its views' board, or its fields, `vwlog.games.board_data`) and whose decision is awaited as
the game's rules say (`GameRules.expect`), without legal decisions.

A game without views cannot say what one player may know, so a player's view of it is refused
(400) rather than shown whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import HTTPException

from vwlog.api.schemas import AwaitedOut, EventOut, GameBoardOut
from vwlog.engine.replay import BaseVisitor, Step, replay
from vwlog.games import GameRules, board_data, event_text, rules_for
from vwlog.io.i18n import say
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.text import msg
from vwlog.render.json import step_json
from vwlog.services.hashes import gate_at
from vwlog.services.seek import board_at

if TYPE_CHECKING:
    from vwlog.services.hashes import HashGate
    from vwlog.store import MatchStore


def generic_game(store: MatchStore, match_id: str) -> GameRules | None:
    """The rules of a stored match's game, or ``None`` for a Vandaria Wars match: the service
    shows VW's boards and awaited decisions in shapes of their own (`ShownBoardView`, the legal
    decisions with their notation and sentences), every other game's in the generic ones.

    Raises:
        MatchNotFoundError: no such match.
        GameUnavailableError: its game's rules cannot be loaded.
    """
    game = game_of(store, match_id)
    return game if game.id != DEFAULT_GAME else None


def game_of(store: MatchStore, match_id: str) -> GameRules:
    """The rules of a stored match's game.

    Raises:
        MatchNotFoundError: no such match.
        GameUnavailableError: its game's rules cannot be loaded.
    """
    return rules_for(store.header(match_id).game)


def no_seat_view(game: GameRules, player: str | None) -> None:
    """Refuse (400) a view of one seat of a game without views: it cannot say what that seat
    may know."""
    if player is not None and game.views is None:
        raise HTTPException(
            400,
            msg(
                "{what} is not available for game {game}",
                what=msg("a player's view"),
                game=game.id,
            ),
        )


class _Page(BaseVisitor[list[EventOut]]):
    """Keeps the events of a page of any game as `EventOut`, said by the game's views or by
    their fields, each ``hash`` as the seat's gate shows it."""

    def __init__(
        self, game: GameRules, gate: HashGate | None = None, viewer: str | None = None
    ) -> None:
        self.game = game
        self.gate = gate
        """For a player's token on its match in progress: the chain hashes its seat is shown."""
        self.viewer = viewer
        self.views = game.views() if game.views is not None else None
        self.out: list[EventOut] = []

    def visit(self, step: Step) -> None:
        """Keep the event."""
        game, rec, after = self.game, step.record, step.after
        expected = game.expect(game.ruleset_of(after) or game.default_ruleset, after)
        description = (
            say(self.views.description(rec.event, step.before, viewer=self.viewer))
            if self.views is not None
            else event_text(rec.event)
        )
        # a seat's view leaves the recorded event out: it may name what the seat cannot see
        # (a card placed face down, a card drawn)
        data = step_json(
            step,
            description,
            player=self.viewer,
            priority_point=game.is_fork_point(expected),
            awaited=expected.player,
            record=True,
            translated=True,
        )
        if self.gate is not None:
            data["hash"] = self.gate.shown(step)
        self.out.append(EventOut.model_validate(data))

    def result(self) -> list[EventOut]:
        """The events kept."""
        return self.out


def events_of(
    game: GameRules,
    store: MatchStore,
    match_id: str,
    after: int,
    limit: int,
    gate: HashGate | None = None,
    viewer: str | None = None,
    seat: str | None = None,
) -> tuple[list[EventOut], int]:
    """Up to ``limit`` events after ``after`` of a match of ``game``, and its head seq. For
    ``seat`` (a player's token on its match in progress) a record's ``hash`` is shown only
    where the seat could compute it (`vwlog.services.hashes`), else ``null``."""
    head = store.head(match_id)
    start = min(after, head.seq)
    if seat is not None and gate is None:
        gate = gate_at(store, match_id, start, seat)
    state = board_at(store, match_id, start)
    if viewer is not None and game.views is not None:  # UnknownPlayerError: 400
        game.views().board(board_at(store, match_id, head.seq), player=viewer)
    records = store.records(match_id, gt=start, lte=min(head.seq, start + limit))
    out: list[EventOut] = replay(records, _Page(game, gate, viewer), initial=state, game=game)
    return out, head.seq


def board_body(
    game: GameRules, store: MatchStore, match_id: str, at: int, player: str | None = None
) -> bytes:
    """The board after ``at`` of a match of ``game``, as the JSON bytes of a `GameBoardOut`:
    the game's view as ``player`` may know it, or its fields for a game without views."""
    state = board_at(store, match_id, at)
    views = game.views() if game.views is not None else None
    fields = views.board(state, player=player, seq=at) if views else board_data(state)
    if not isinstance(fields, dict):
        fields = {"board": fields}
    view = GameBoardOut(game=game.id, seq=at, viewer=player, fields=fields)
    return view.model_dump_json().encode()


def awaited_of(
    game: GameRules, store: MatchStore, match_id: str, seq: int, head_hash: str | None
) -> AwaitedOut:
    """Whose decision a match of ``game`` awaits after ``seq``; no legal decisions (a game
    without views is shown without them)."""
    state = board_at(store, match_id, seq)
    summary = game.summary(state)
    rs = game.ruleset_of(state) or game.default_ruleset
    expected = game.expect(rs, state)
    return AwaitedOut(
        match_id=match_id,
        seq=seq,
        head_hash=head_hash,
        player=expected.player,
        kind=None if expected.kind is None else str(expected.kind),
        rule=str(expected.rule or game.rule("CORE-LOG-1")),
        over=summary.winner is not None,
        legal=[],
        truncated=False,
    )


__all__ = [
    "awaited_of",
    "board_body",
    "events_of",
    "game_of",
    "generic_game",
    "no_seat_view",
]
