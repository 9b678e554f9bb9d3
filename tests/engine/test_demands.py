"""`Expect.demands` answers as ``event in exp.consequences`` does (pydantic's equality), on
every step of every sample, valid and invalid, and on events changed in one field."""

from __future__ import annotations

from pathlib import Path

import pytest

from vwlog.engine.replay import Collect, replay
from vwlog.events import ObjectResulted, TurnStarted
from vwlog.io.logfile import read_log
from vwlog.rules.flow import Expect

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
LOGS = sorted([*SAMPLES.glob("*.jsonl"), *(SAMPLES / "invalid").glob("*.jsonl")])


def _variants(event: object) -> list[object]:
    """The event as logged, a copy of it, and copies with one field changed."""
    assert hasattr(event, "model_copy")
    found = [event, event.model_copy()]
    for name, value in event.__dict__.items():
        if isinstance(value, int) and not isinstance(value, bool):
            found.append(event.model_copy(update={name: value + 1}))
        elif isinstance(value, str) and name != "type":
            found.append(event.model_copy(update={name: value + "x"}))
        elif isinstance(value, tuple) and value:
            found.append(event.model_copy(update={name: value[:-1]}))
    return found


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_demands_agrees_with_pydantic_equality_on_every_step(path: Path) -> None:
    _, records = read_log(path)
    steps = replay(records, Collect())
    compared = 0
    for step in steps:
        exp = step.expected
        for candidate in _variants(step.record.event):
            assert exp.demands(candidate) == (candidate in exp.consequences)  # type: ignore[operator]
            compared += bool(exp.consequences)
    assert compared or not steps


def test_demands_tells_equal_events_from_unequal_ones() -> None:
    started = TurnStarted(turn=3, player="p1")
    exp = Expect(consequences=(TurnStarted(turn=2, player="p2"), TurnStarted(turn=3, player="p1")))
    assert exp.demands(started)
    assert not exp.demands(TurnStarted(turn=3, player="p2"))
    assert not Expect().demands(started)
    resulted = ObjectResulted(object_id="o1", effects=())
    assert not exp.demands(resulted)
    assert Expect(consequences=(resulted,)).demands(ObjectResulted(object_id="o1", effects=()))
