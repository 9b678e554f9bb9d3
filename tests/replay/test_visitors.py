"""The replay loop's visitor machinery: `BaseVisitor`'s no-op hooks, `Fanout`, the
`ViolationPolicy`, and that every visitor of the code base stands on `BaseVisitor`."""

from __future__ import annotations

import copy
import importlib
import inspect
import pickle
import pkgutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import vwlog
from vwlog.engine.replay import (
    BaseVisitor,
    Collect,
    Fanout,
    FinalState,
    Step,
    Validator,
    ViolationPolicy,
    replay,
    validate_records,
)
from vwlog.events import TRAILER_TYPES
from vwlog.io.logfile import read_log
from vwlog.model.errors import IllegalEventError
from vwlog.projections import INITIAL
from vwlog.rules.flow import NOTHING

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.events import EventRecord

SAMPLES = Path(__file__).parent.parent.parent / "samples"

VISITORS_BELOW_THE_ENGINE = {"vwlog.projections.stats.visitor.MatchMetricsVisitor"}
"""Visitors in layers below `vwlog.engine`, which cannot import `BaseVisitor`: they satisfy
the `Visitor` protocol by shape."""


def records(name: str) -> list[EventRecord]:
    return read_log(SAMPLES / name)[1]


def with_two_violations() -> list[EventRecord]:
    """An illegal sample with a second, later illegal event: its first priority pass repeated
    at the end."""
    logged = records("invalid/priority-out-of-turn.jsonl")
    last = logged[-1]
    extra = logged[0].model_copy(update={"seq": last.seq + 1, "hash": None})
    return [*logged, extra]


class Count(BaseVisitor[int]):
    def __init__(self) -> None:
        self.n = 0

    def visit(self, step: Step) -> None:
        self.n += 1

    def result(self) -> int:
        return self.n


def test_a_visitor_writes_only_the_hooks_it_needs() -> None:
    duel = records("full-combat.jsonl")
    assert replay(duel, Count()) == len(duel)


def test_a_visitor_must_say_what_it_builds() -> None:
    class NoResult(BaseVisitor[int]):
        pass

    with pytest.raises(TypeError, match="abstract"):
        NoResult()  # type: ignore[abstract]  # the point of the test


def test_fanout_feeds_every_visitor_the_same_pass_and_returns_their_results_in_order() -> None:
    duel = records("full-combat.jsonl")
    count, final, steps = replay(duel, Fanout(Count(), FinalState(), Collect()))
    assert count == len(duel) == len(steps)
    assert final == steps[-1].after
    assert [s.record.seq for s in steps] == [r.seq for r in duel]


def test_collect_policy_reports_every_violation_and_reads_on() -> None:
    log = with_two_violations()
    report = validate_records(log, policy=ViolationPolicy.COLLECT)
    # every game event is read; the seal that closes the record is no game event
    assert report.events == sum(1 for r in log if type(r.event) not in TRAILER_TYPES)
    assert len({v.seq for v in report.violations}) >= 2


def test_a_validator_subclass_that_overrides_visit_is_still_called() -> None:
    """A plain `Validator` hands the loop its compiled bookkeeping; a subclass's own `visit`
    must still run, and reach that bookkeeping through ``super()``."""

    class Watching(Validator):
        def __init__(self) -> None:
            super().__init__()
            self.seen = 0

        def visit(self, step: Step) -> None:
            self.seen += 1
            super().visit(step)

    log = with_two_violations()
    plain = validate_records(log)
    watching = replay(log, Watching())
    assert watching.events == plain.events
    assert watching.violations == plain.violations
    watcher = Watching()
    replay(log, watcher)
    assert watcher.seen == len(log)


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))])
def test_a_validator_survives_a_copy_and_a_pickle(clone: Callable[[Validator], Validator]) -> None:
    log = with_two_violations()
    half = len(log) // 2
    validator = Validator(source="x")
    replay(log[:half], validator)
    copied = clone(validator)
    for record in log[half:]:  # the copy goes on counting into its own report
        copied.visit(Step(record, None, INITIAL, INITIAL, NOTHING, ()))
    assert copied.report is not validator.report
    rest = sum(1 for r in log[half:] if type(r.event) not in TRAILER_TYPES)
    assert copied.report.events == validator.report.events + rest
    assert copied.report.source == "x"


def test_stop_at_first_raises_at_the_first_illegal_event() -> None:
    log = with_two_violations()
    first = validate_records(log).violations[0]
    validator = Validator()
    with pytest.raises(IllegalEventError) as caught:
        replay(log, validator, policy=ViolationPolicy.STOP_AT_FIRST)
    assert caught.value.seq == first.seq
    assert caught.value.violations[0].rule == first.rule
    assert validator.report.events == (first.seq or 0) - 1  # nothing after it was visited


def visitor_classes() -> list[type]:
    """Every class in vwlog that has the four hooks of a replay visitor."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(vwlog.__path__, "vwlog."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or inspect.isabstract(cls):
                continue
            hooks = ("begin_match", "visit", "end_match", "result")
            if all(callable(getattr(cls, h, None)) for h in hooks):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[k] for k in sorted(found)]


def test_every_visitor_stands_on_base_visitor() -> None:
    classes = visitor_classes()
    assert len(classes) >= 10, [c.__qualname__ for c in classes]
    strays = [
        f"{c.__module__}.{c.__qualname__}"
        for c in classes
        if not issubclass(c, BaseVisitor)
        and f"{c.__module__}.{c.__qualname__}" not in VISITORS_BELOW_THE_ENGINE
        and "Protocol" not in [b.__name__ for b in c.__mro__]
    ]
    assert not strays
