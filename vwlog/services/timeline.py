"""The timeline of a stored match: where its turns and combat steps start, its fork points (for
Vandaria Wars, where a player holds priority: a fork may start there), and where a rule was
broken, from one replay of its records, through the match's game (`vwlog.games.GameRules`).

It is what a scrubber marks and jumps to, without the events themselves: a few integers per
turn instead of one sentence per event, so a client need not read a long match whole to draw
its timeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import BaseVisitor, Step, replay
from vwlog.engine.seek import position
from vwlog.games import GameRules, game_of_state, rules_for
from vwlog.services.matches import state_at

if TYPE_CHECKING:
    from vwlog.store import MatchStore

__all__ = ["Timeline", "extend", "timeline"]


@dataclass(slots=True)
class Timeline:
    """Marks of a match's timeline, each list by increasing seq."""

    head_seq: int = 0
    turns: list[tuple[int, int]] = field(default_factory=list)
    """``(seq, turn)``: the event after which the turn number changed to ``turn``."""
    combat_steps: list[int] = field(default_factory=list)
    """Events after which the match entered a step of the Combat Phase."""
    priority_points: list[int] = field(default_factory=list)
    """Events after which a decision the game forks at is awaited (for Vandaria Wars, a player
    holds priority): where a fork may start."""
    violations: list[tuple[int, str]] = field(default_factory=list)
    """``(seq, rule id)`` of every broken rule, as the validation report names them."""


class _Marks(BaseVisitor[Timeline]):
    def __init__(self, game: GameRules | None = None) -> None:
        self.out = Timeline()
        self.game = game
        self.ruleset: Any = None
        self.turn: int | None = None
        self.step: str | None = None

    def visit(self, step: Step) -> None:
        after, seq = step.after, step.record.seq
        game = self.game
        if game is None:
            game = self.game = game_of_state(step.before)
        self.out.head_seq = seq
        rs = self.ruleset or game.ruleset_of(after)
        self.ruleset = rs
        where = position(after, game)
        if where.turn != self.turn:
            self.turn = where.turn
            self.out.turns.append((seq, where.turn))
        now = where.step
        if now is not None and now != self.step and where.phase == "COMBAT":
            self.out.combat_steps.append(seq)
        self.step = now
        if rs is not None and game.is_fork_point(game.expect(rs, after)):
            self.out.priority_points.append(seq)
        self.out.violations.extend((seq, str(v.rule)) for v in step.violations)

    def result(self) -> Timeline:
        return self.out


def timeline(store: MatchStore, match_id: str, upto: int | None = None) -> Timeline:
    """The timeline of a stored match (up to the event ``upto``; default: all of it), from
    one replay of its records.

    Raises:
        MatchNotFoundError: no such match.
    """
    game = rules_for(store.header(match_id).game)
    records = store.records(match_id) if upto is None else store.records(match_id, lte=upto)
    return replay(records, _Marks(game), game=game)


def extend(known: Timeline, store: MatchStore, match_id: str, upto: int) -> Timeline:
    """``known`` (the timeline up to its ``head_seq``) followed by the events after it up to
    ``upto``, replayed from the board at ``head_seq`` (from the nearest snapshot): what an
    append adds, without replaying the match again. Events are only ever appended, so the
    marks before ``head_seq`` stay as they are.

    Raises:
        MatchNotFoundError: no such match.
    """
    if known.head_seq == 0 or upto <= known.head_seq:
        return timeline(store, match_id, upto)
    game = rules_for(store.header(match_id).game)
    state = state_at(store, match_id, known.head_seq)
    marks = _Marks(game)
    marks.out = Timeline(
        known.head_seq,
        list(known.turns),
        list(known.combat_steps),
        list(known.priority_points),
        list(known.violations),
    )
    where = position(state, game)
    marks.ruleset = game.ruleset_of(state)
    marks.turn = where.turn
    marks.step = where.step
    records = store.records(match_id, gt=known.head_seq, lte=upto)
    return replay(records, marks, initial=state, game=game)
