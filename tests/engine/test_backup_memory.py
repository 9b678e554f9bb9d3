"""How far back a judge's back-up reaches: the last `BACKUP_MEMORY` priority points, no further."""

from __future__ import annotations

from functools import cache

from vwlog.engine.replay import BACKUP_MEMORY, Collect, Validator, replay
from vwlog.events import EventRecord, JudgeRulingIssued
from vwlog.games.vw.simulate import simulate
from vwlog.io.pools import load_pool
from vwlog.model.types import RulingKind


@cache
def _long_match() -> tuple[EventRecord, ...]:
    """A generated match with more priority points than the back-up memory holds."""
    match = simulate(load_pool(), seed=5, players=2, max_turns=40)
    return match.records


def _ruling(records: tuple[EventRecord, ...], point: int | None) -> EventRecord:
    """A back-up to ``point``, the record after ``records``."""
    event = JudgeRulingIssued(judge="j", kind=RulingKind.BACK_UP, reason="misplay", back_to=point)
    return EventRecord(seq=records[-1].seq + 1, event=event)


def _priority_points(records: tuple[EventRecord, ...]) -> list[int]:
    """The priority points a ruling after ``records`` may name, oldest first: the seqs after
    which a player held priority (the position after the last record included)."""
    steps = replay([*records, _ruling(records, None)], Collect())
    return [s.record.seq - 1 for s in steps if s.expected.kind == "priority"]


def _back_up_to(records: tuple[EventRecord, ...], point: int) -> list[str]:
    """The rules broken by a back-up to ``point`` after ``records``."""
    report = replay([*records, _ruling(records, point)], Validator())
    return [v.rule for v in report.violations]


def test_a_back_up_reaches_the_oldest_remembered_point_and_no_further() -> None:
    records = _long_match()
    points = _priority_points(records)
    assert len(points) > BACKUP_MEMORY + 1, "the match must outlast the memory"
    records = records[: points[-2]]  # end at a priority point, before its event
    points = _priority_points(records)
    assert points[-1] == records[-1].seq
    assert _back_up_to(records, points[-1]) == []
    assert _back_up_to(records, points[-BACKUP_MEMORY]) == []
    assert _back_up_to(records, points[-BACKUP_MEMORY - 1]) == ["R-GEN-8"]
