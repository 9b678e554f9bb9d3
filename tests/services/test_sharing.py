"""`ordered_map`: this process and forked ones share the items; results come back in order.

Real forked processes throughout; every wait is bounded, and each test ends its processes.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.services import validate_log, validate_logs
from vwlog.services.sharing import TAIL_PER_PROCESS, claim_order, ordered_map

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
PARENT = os.getpid()
_WAIT = 30.0
"""The longest a test waits for another process (seconds): far beyond a fork's start-up."""


@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """Every test ends the processes it started."""
    yield
    assert multiprocessing.active_children() == []


def _square(n: int) -> int:
    return n * n


@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
def test_results_come_in_item_order(jobs: int) -> None:
    items = list(range(40))
    assert list(ordered_map(_square, items, jobs)) == [n * n for n in items]


def test_the_last_items_are_taken_largest_first_when_costs_are_known() -> None:
    items = [5, 1, 9, 2, 8, 3, 7, 4, 6, 0, 10, 11, 12]
    order = claim_order(items, 2, cost=float)
    tail = len(items) - TAIL_PER_PROCESS * 2
    assert order[:tail] == list(range(tail))
    assert [items[i] for i in order[tail:]] == sorted(items[tail:], reverse=True)
    assert sorted(order) == list(range(len(items)))
    assert claim_order(items, 2) == list(range(len(items)))
    assert claim_order(items[:3], 2, cost=float) == [2, 0, 1]


@pytest.mark.parametrize("jobs", [2, 3])
def test_results_come_in_item_order_whatever_order_they_are_taken_in(jobs: int) -> None:
    items = list(range(30))
    assert list(ordered_map(_square, items, jobs, cost=float)) == [n * n for n in items]


def test_no_items_and_one_item() -> None:
    assert list(ordered_map(_square, [], 2)) == []
    assert list(ordered_map(_square, [7], 2)) == [49]


def _pid_after_the_other(marks: str) -> int:
    """This process's id, once another process has marked an item too (each item waits, so
    neither process can take both)."""
    mine = str(os.getpid())
    Path(marks, mine).touch()
    deadline = time.monotonic() + _WAIT
    while time.monotonic() < deadline:
        if any(p.name != mine for p in Path(marks).iterdir()):
            break
        time.sleep(0.01)
    return os.getpid()


def test_this_process_and_a_forked_one_share_the_items(tmp_path: Path) -> None:
    pids = list(ordered_map(_pid_after_the_other, [str(tmp_path)] * 2, 2))
    assert PARENT in pids
    assert len(set(pids)) == 2


class _RefusedError(ValueError):
    pass


def _refuse_five(n: int) -> int:
    if n == 5:
        raise _RefusedError(f"item {n}")
    return n


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_exception_is_raised_at_its_item_after_those_before_it(jobs: int) -> None:
    results = ordered_map(_refuse_five, list(range(12)), jobs)
    assert [next(results) for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(_RefusedError, match="item 5"):
        next(results)


def _die_in_a_child(n: int) -> int:
    if os.getpid() != PARENT and n % 3 == 0:
        os._exit(3)  # a worker killed mid-item: no result, no exception
    return n


@pytest.mark.parametrize("cost", [None, float])
def test_what_a_dead_process_took_is_done_here(cost: Callable[[int], float] | None) -> None:
    items = list(range(30))
    assert list(ordered_map(_die_in_a_child, items, 3, cost=cost)) == items


def _slow(n: int) -> int:
    time.sleep(0.05)
    return n


def test_closing_early_stops_the_other_processes() -> None:
    results = ordered_map(_slow, list(range(200)), 2)
    assert next(results) == 0
    results.close()  # the fixture checks that no process is left


def test_validate_logs_says_with_two_processes_what_it_says_with_one(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"not": "a header"}\n', encoding="utf-8")
    paths = [*sorted(SAMPLES.glob("*.jsonl")), broken]
    one = list(validate_logs(paths, jobs=1))
    two = list(validate_logs(paths, jobs=2))
    assert [repr(r) for r in two] == [repr(r) for r in one]
    assert repr(two[0]) == repr(validate_log(paths[0]))
