"""The timeline of a stored match: where its turns and combat steps start, where a player holds
priority (a fork may start there), and where a rule was broken, from one replay of its records.

It is what a scrubber marks and jumps to, without the events themselves: a few integers per
turn instead of one sentence per event, so a client need not read a long match whole to draw
its timeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vwlog.engine.replay import BaseVisitor, Step, replay
from vwlog.rules import expect
from vwlog.services.matches import state_at

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
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
    """Events after which a player holds priority (where a fork may start)."""
    violations: list[tuple[int, str]] = field(default_factory=list)
    """``(seq, rule id)`` of every broken rule, as the validation report names them."""


class _Marks(BaseVisitor[Timeline]):
    def __init__(self) -> None:
        self.out = Timeline()
        self.ruleset: Ruleset | None = None
        self.turn: int | None = None
        self.step: str | None = None

    def visit(self, step: Step) -> None:
        after, seq = step.after, step.record.seq
        self.out.head_seq = seq
        rs = self.ruleset or after.ruleset
        self.ruleset = rs
        if after.turn != self.turn:
            self.turn = after.turn
            self.out.turns.append((seq, after.turn))
        now = str(after.step) if after.step else None
        if now is not None and now != self.step and str(after.phase) == "COMBAT":
            self.out.combat_steps.append(seq)
        self.step = now
        if rs is not None and expect(rs, after).kind == "priority":
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
    records = store.records(match_id) if upto is None else store.records(match_id, lte=upto)
    return replay(records, _Marks())


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
    state = state_at(store, match_id, known.head_seq)
    marks = _Marks()
    marks.out = Timeline(
        known.head_seq,
        list(known.turns),
        list(known.combat_steps),
        list(known.priority_points),
        list(known.violations),
    )
    marks.ruleset = state.ruleset
    marks.turn = state.turn
    marks.step = str(state.step) if state.step else None
    records = store.records(match_id, gt=known.head_seq, lte=upto)
    return replay(records, marks, initial=state)
