"""Seeking: priority points, the board at a seq, and the checkpointed timeline
(`vwlog.engine.seek`)."""

from __future__ import annotations

import random
from functools import reduce
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.replay.matches import backed_up_copy, illegal_copy, restarted_copy
from vwlog.engine.replay import Collect, Step, replay
from vwlog.engine.seek import Timeline, priority_points, state_at
from vwlog.events import TRAILER_TYPES, EventRecord
from vwlog.io.logfile import read_log
from vwlog.model.errors import UsageError
from vwlog.projections import INITIAL, evolve
from vwlog.rules import DEFAULT_RULESET, expect

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.model.state import MatchState


@pytest.fixture(scope="module")
def duel(duel_log: Path) -> list[EventRecord]:
    """The records of the generated duel."""
    return read_log(duel_log)[1]


@pytest.fixture(scope="module")
def duel_steps(duel: list[EventRecord]) -> list[Step]:
    """Every step of a full replay of the duel."""
    return replay(duel, Collect())


def _fold(records: list[EventRecord]) -> MatchState:
    return reduce(evolve, (r.event for r in records), INITIAL)


# -- state_at --------------------------------------------------------------------------------


def test_state_at_equals_folding_the_prefix(duel: list[EventRecord]) -> None:
    rng = random.Random(11)
    for seq in [1, 2, len(duel), *rng.sample(range(1, len(duel) + 1), 8)]:
        assert state_at(duel, seq) == _fold(duel[:seq])


def test_state_at_equals_the_full_replay_on_an_illegal_log(tmp_path: Path, duel_log: Path) -> None:
    path, bad = illegal_copy(duel_log, tmp_path / "bad.jsonl")
    records = read_log(path)[1]
    steps = replay(records, Collect())
    for seq in (bad - 1, bad, bad + 1, bad + 40, len(records)):
        assert state_at(records, seq) == steps[seq - 1].after


def test_state_at_zero_is_the_empty_board(duel: list[EventRecord]) -> None:
    assert state_at(duel, 0) is INITIAL


def test_state_at_reads_no_further_than_the_seq(duel: list[EventRecord]) -> None:
    read: list[int] = []

    def stream() -> Iterator[EventRecord]:
        for record in duel:
            read.append(record.seq)
            yield record

    state_at(stream(), 100)
    assert read[-1] == 100


def test_state_at_a_seq_past_the_end_names_the_range(duel: list[EventRecord]) -> None:
    with pytest.raises(UsageError) as caught:
        state_at(duel, len(duel) + 1, source="'duel.jsonl'")
    assert str(caught.value) == (
        f"no event with seq {len(duel) + 1} in 'duel.jsonl' (its seqs run 1..{len(duel)})"
    )


def test_state_at_on_no_events_says_so() -> None:
    with pytest.raises(UsageError, match="it has no events"):
        state_at([], 3)


# -- priority points -------------------------------------------------------------------------


def test_priority_points_are_exactly_where_a_player_holds_priority(
    duel: list[EventRecord], duel_steps: list[Step]
) -> None:
    ruleset = duel_steps[-1].after.ruleset or DEFAULT_RULESET
    expected = [s.record.seq for s in duel_steps if expect(ruleset, s.after).is_priority]
    points = priority_points(duel)
    assert [p.seq for p in points] == expected
    assert len(points) > 100


def test_a_priority_point_records_the_holder_and_the_position(
    duel: list[EventRecord], duel_steps: list[Step]
) -> None:
    for point in priority_points(duel)[::50]:
        state = duel_steps[point.seq - 1].after
        assert point.player == state.priority
        assert point.turn == state.turn
        assert point.phase == state.phase
        assert point.step == state.step
        assert point.register_depth == len(state.register)


def test_a_log_cut_in_an_open_window_ends_at_a_priority_point(duel: list[EventRecord]) -> None:
    first = priority_points(duel)[0]
    assert priority_points(duel[: first.seq])[-1] == first


def test_the_seal_of_a_log_cut_in_an_open_window_is_no_priority_point() -> None:
    """A fork there would copy the seal and then follow it with game events."""
    records = read_log(Path(__file__).parents[2] / "samples" / "first-turn-supply.jsonl")[1]
    seal, last_event = records[-1], records[-2]
    assert isinstance(seal.event, TRAILER_TYPES)

    points = priority_points(records)

    assert points[-1].seq == last_event.seq
    assert list(Timeline(records).priority_points) == points


def test_priority_points_of_a_team_match(team_log: Path) -> None:
    records = read_log(team_log)[1]
    steps = replay(records, Collect())
    ruleset = steps[-1].after.ruleset or DEFAULT_RULESET
    expected = [s.record.seq for s in steps if expect(ruleset, s.after).is_priority]
    assert [p.seq for p in priority_points(records)] == expected
    assert {p.player for p in priority_points(records)} == {"p1", "p2", "p3", "p4"}


# -- the timeline ----------------------------------------------------------------------------


def _same(a: Step, b: Step) -> None:
    assert a.record == b.record
    assert a.before == b.before
    assert a.after == b.after
    assert a.expected == b.expected
    assert a.violations == b.violations
    assert a.voids == b.voids


@pytest.mark.parametrize("every", [1, 7, 128, 100_000])
def test_the_timeline_gives_the_full_replay_steps_at_random_seqs(
    duel: list[EventRecord], duel_steps: list[Step], every: int
) -> None:
    timeline = Timeline(duel, every=every)
    rng = random.Random(every)
    for seq in rng.sample(range(1, len(duel) + 1), 40):
        _same(timeline.step_at(seq), duel_steps[seq - 1])
        assert timeline.state_at(seq) == duel_steps[seq - 1].after
    assert timeline.final == duel_steps[-1].after
    assert timeline.state_at(0) is INITIAL


def test_the_timeline_steps_back_and_forth_like_the_full_replay(
    duel: list[EventRecord], duel_steps: list[Step]
) -> None:
    timeline = Timeline(duel, every=16)
    for i in [*range(300, 340), *range(339, 250, -1)]:
        _same(timeline.step(i), duel_steps[i])


def test_the_timeline_keeps_violations_and_catch_ups(tmp_path: Path, duel_log: Path) -> None:
    path, bad = illegal_copy(duel_log, tmp_path / "bad.jsonl")
    records = read_log(path)[1]
    steps = replay(records, Collect())
    timeline = Timeline(records, every=16)
    assert bad in timeline.violations
    assert dict(timeline.violations) == {s.record.seq: s.violations for s in steps if s.violations}
    for i in range(bad - 20, bad + 40):
        _same(timeline.step(i), steps[i])


def test_the_timeline_restores_a_judges_back_up_like_the_full_replay(
    tmp_path: Path, duel: list[EventRecord], duel_log: Path
) -> None:
    points = priority_points(duel)
    point = next(p.seq for p in points if p.seq > 300)
    path = backed_up_copy(duel_log, tmp_path / "backup.jsonl", point=point, at=point + 30)
    records = read_log(path)[1]
    steps = replay(records, Collect())
    ruling = steps[point + 30]
    assert ruling.voids == (point + 1, point + 30)
    assert ruling.after == steps[point - 1].after
    for every in (8, 16, 64):
        timeline = Timeline(records, every=every)
        for i in range(point - 5, point + 80):
            _same(timeline.step(i), steps[i])


def test_the_timeline_judges_a_restarted_match_like_the_full_replay(
    tmp_path: Path, duel_log: Path
) -> None:
    path = restarted_copy(duel_log, tmp_path / "restarted.jsonl", at=200)
    records = read_log(path)[1]
    steps = replay(records, Collect())
    timeline = Timeline(records, every=16)
    for i in range(190, 400):
        _same(timeline.step(i), steps[i])


def test_the_timeline_lists_the_same_priority_points(duel: list[EventRecord]) -> None:
    assert list(Timeline(duel).priority_points) == priority_points(duel)


def test_a_seek_replays_at_most_one_checkpoint_interval(
    duel: list[EventRecord], monkeypatch: pytest.MonkeyPatch
) -> None:
    timeline = Timeline(duel, every=50)
    replayed: list[int] = []
    real = replay

    def counting(records: list[EventRecord], *args: object, **kwargs: object) -> object:
        replayed.append(len(records))
        return real(records, *args, **kwargs)  # type: ignore[arg-type]  # passed through

    monkeypatch.setattr("vwlog.engine.seek.replay", counting)
    for seq in (49, 50, 51, 1234, len(duel)):
        timeline.state_at(seq)
    assert replayed
    assert max(replayed) <= 50
    assert timeline.checkpoints == len(duel) // 50 + 1


def test_the_timeline_marks_every_event(duel: list[EventRecord], duel_steps: list[Step]) -> None:
    timeline = Timeline(duel)
    assert len(timeline) == len(duel)
    for mark, step in zip(timeline.marks, duel_steps, strict=True):
        assert mark.seq == step.record.seq
        assert mark.type == step.record.event.type
        assert mark.decision == step.record.event.DECISION
        assert mark.turn == step.after.turn
        assert mark.priority == step.after.priority


def test_the_timeline_finds_marks_forward_and_back(duel: list[EventRecord]) -> None:
    timeline = Timeline(duel)
    first_turn = timeline.find(-1, lambda m: m.type == "turn_started")
    assert first_turn is not None
    assert timeline.marks[first_turn].turn == 1
    second = timeline.find(first_turn, lambda m: m.type == "turn_started")
    assert second is not None
    assert timeline.marks[second].turn == 2
    assert timeline.find(second, lambda m: m.type == "turn_started", backward=True) == first_turn
    assert timeline.find(len(duel) - 1, lambda m: True) is None


def test_the_timeline_refuses_an_unknown_seq(duel: list[EventRecord]) -> None:
    timeline = Timeline(duel, source="'duel.jsonl'")
    with pytest.raises(UsageError, match=r"no event with seq 999999 in 'duel.jsonl'"):
        timeline.index(999_999)
    with pytest.raises(IndexError):
        timeline.step(len(duel))


def test_the_timeline_refuses_a_checkpoint_interval_below_one(duel: list[EventRecord]) -> None:
    with pytest.raises(UsageError):
        Timeline(duel, every=0)


def test_the_timeline_feeds_another_visitor_in_the_same_pass(duel: list[EventRecord]) -> None:
    collected = Collect()
    Timeline(duel, visitor=collected)
    assert len(collected.steps) == len(duel)


SAMPLES = sorted(Path(__file__).resolve().parents[2].glob("samples/**/*.jsonl"))


@pytest.mark.skipif(not SAMPLES, reason="samples/ holds no logs yet")
def test_the_timeline_replays_every_sample_like_the_full_replay() -> None:
    for path in SAMPLES:
        records = read_log(path)[1]
        steps = replay(records, Collect())
        timeline = Timeline(records, every=5)
        for i, step in enumerate(steps):
            _same(timeline.step(i), step)
