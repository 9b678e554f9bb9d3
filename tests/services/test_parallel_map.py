"""The one parallel map (`ordered_map`) that validate, import, simulate and stats share: the
results of ``jobs=2`` are those of ``jobs=1``, in the same order, with forked processes and
with a pool of spawned ones; an exception is raised at its own item; a window bounds how far
the processes run ahead of what has been yielded.

Real processes throughout; each test ends its processes and has a bounded run time.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.services import sharing
from vwlog.services.sharing import ordered_map

if TYPE_CHECKING:
    from collections.abc import Iterator

PARENT = os.getpid()


@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """Every test ends the processes it started."""
    yield
    assert multiprocessing.active_children() == []


@pytest.fixture(params=["fork", "spawn"])
def start(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs with forked processes (where this platform forks) and with a pool."""
    method = str(request.param)
    if method == "fork" and not sharing.can_fork():
        pytest.skip("this process cannot fork here")
    if method == "spawn":
        monkeypatch.setattr(sharing, "can_fork", lambda **_: False)
    return method


class ItemError(ValueError):
    """Raised for one item."""


def _cube_or_refuse(n: int) -> tuple[int, int]:
    """``(n, n**3)``; item 7 raises `ItemError` naming it."""
    if n == 7:
        raise ItemError(f"item {n} refused")
    return n, n**3


def _cube(n: int) -> tuple[int, int]:
    return n, n**3


@pytest.mark.timeout(120)
def test_two_processes_give_one_process_results_in_the_same_order(start: str) -> None:
    items = list(range(50))
    one = list(ordered_map(_cube, items, 1))
    assert one == [(n, n**3) for n in items]
    assert list(ordered_map(_cube, items, 2)) == one
    assert list(ordered_map(_cube, items, 2, window=3)) == one
    assert list(ordered_map(_cube, items, 2, cost=float)) == one


@pytest.mark.timeout(120)
@pytest.mark.parametrize("jobs", [1, 2])
def test_an_exception_is_raised_for_its_item_after_the_items_before_it(
    start: str, jobs: int
) -> None:
    results = ordered_map(_cube_or_refuse, list(range(20)), jobs)
    assert [next(results) for _ in range(7)] == [(n, n**3) for n in range(7)]
    with pytest.raises(ItemError, match="item 7 refused"):
        next(results)
    assert list(results) == []  # the map ends at the exception: its processes are stopped
    assert multiprocessing.active_children() == []


def _pid(_: str) -> int:
    return os.getpid()


def _mark(args: tuple[str, int]) -> int:
    """Leave a file named after the item: it has been taken."""
    folder, n = args
    Path(folder, str(n)).touch()
    return n


@pytest.mark.timeout(120)
def test_a_window_bounds_the_items_taken_ahead_of_those_yielded(start: str, tmp_path: Path) -> None:
    window = 3
    items = [(str(tmp_path), n) for n in range(40)]
    seen = []
    for n in ordered_map(_mark, items, 2, window=window):
        taken = max(int(p.name) for p in tmp_path.iterdir())
        assert taken <= n + window, f"item {taken} taken while yielding {n}"
        seen.append(n)
    assert seen == list(range(40))


def _die_in_a_child(n: int) -> int:
    if os.getpid() != PARENT and n % 4 == 1:
        os._exit(3)  # a process killed mid-item: no result, no exception
    return n


@pytest.mark.timeout(60)
@pytest.mark.parametrize("window", [None, 1, 2])
def test_what_a_dead_process_took_is_done_here_even_within_a_window(window: int | None) -> None:
    if not sharing.can_fork():
        pytest.skip("this process cannot fork here")
    items = list(range(24))
    assert list(ordered_map(_die_in_a_child, items, 3, window=window)) == items


def test_a_window_takes_items_in_order() -> None:
    with pytest.raises(ValueError, match="window"):
        list(ordered_map(_cube, [1, 2, 3], 2, cost=float, window=2))
    with pytest.raises(ValueError, match="window"):
        list(ordered_map(_cube, [1, 2, 3], 2, window=0))


@pytest.mark.timeout(120)
def test_alone_forks_only_while_no_other_thread_runs(tmp_path: Path) -> None:
    if not sharing.can_fork():
        pytest.skip("this process cannot fork here")
    items = [str(tmp_path)] * 2
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert not sharing.can_fork(alone=True)
        pids = list(ordered_map(_pid, items, 2, alone=True))
        assert PARENT not in pids  # a pool of spawned processes did the work
    finally:
        stop.set()
        other.join()
