"""Share a list of items between processes; the results come back in order.

`ordered_map` is the one way a `--jobs N` run (validate, import, simulate, stats) shares its
items. Where processes can be forked (Linux; a caller that keeps a thread, such as a database
driver's, can ask to fork only while this process runs no other): this process and ``N - 1``
forked ones take the next item from a shared counter until none is left,
so no process waits for items another one was handed in advance. The forked processes send
their results through pipes; this process yields every result in item order as soon as it and
those before it are done. Elsewhere a pool of ``N`` spawned processes computes the items and
this process yields their results in the same order.

This process works too, instead of waiting for a pool: a pool's threads and per-task messages
cost its parent about a millisecond of CPU per item while the workers compete for the same
cores, and one process fewer is forked.

Given the cost of each item (a file's size), the last few items are taken largest first: a
large item taken last would leave the other processes idle until it is done, and only those
few results wait for the ones before them.

Given a window, at most that many items are taken and not yet yielded, so a caller that
keeps something on disk per item until it has used the result keeps a bounded amount.

A forked process that dies before sending a result loses nothing: this process computes the
item it was working on itself. An exception raised for an item is raised again here, at its
place in the order. Closing the iterator early stops the other processes.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

T = TypeVar("T")
R = TypeVar("R")

TAIL_PER_PROCESS: Final = 4
"""How many of the last items, per process, are taken largest first when costs are known."""

_Outcome = tuple[bool, Any]
"""``(True, result)``, or ``(False, exception)`` for an item whose function raised."""


class _Counter:
    """The index of the next item nobody has taken yet, shared by every process."""

    def __init__(self, context: Any) -> None:
        self._lock = context.Lock()
        self._value = context.RawValue("q", 0)

    def take(self, held: Any = None) -> int:
        """The next index, taken (an index at or past the end means there is nothing left),
        and written to ``held`` (a shared value) while the lock is held."""
        with self._lock:
            index: int = self._value.value
            self._value.value = index + 1
            if held is not None:
                held.value = index
        return index


@dataclass
class _Child:
    """A forked process and the reading end of the pipe it sends its results through."""

    process: BaseProcess
    results: Connection
    held: Any
    """The shared value holding the index of the item it took last."""
    open: bool = field(default=True)
    """Whether more may come (the pipe has not reached its end)."""


@dataclass
class _Run(Generic[T, R]):
    """One `ordered_map` call, seen from this process."""

    function: Callable[[T], R]
    items: Sequence[T]
    order: list[int]
    """The item indices in the order they are taken."""
    counter: _Counter
    children: list[_Child]
    window: Any = None
    """A shared semaphore with a permit for every item that may be taken and not yielded."""
    done: dict[int, _Outcome] = field(default_factory=dict)
    """Outcomes not yielded yet, by item index."""
    next_out: int = 0
    """The index of the next result to yield."""

    def results(self) -> Iterator[R]:
        """Take items and yield results in order until every item has its result."""
        while True:
            self._receive(timeout=0)
            yield from self._ready()
            if self.window is not None and not self.window.acquire(block=False):
                if not any(child.open for child in self.children):
                    break  # what is left is this process's alone
                self._receive(timeout=None)  # a permit comes back with the next result
                yield from self._ready()
                continue
            taken = self.counter.take()
            if taken >= len(self.items):
                break
            index = self.order[taken]
            self.done[index] = _outcome(self.function, self.items[index])
            yield from self._ready()
        while self.next_out < len(self.items):
            if not any(child.open for child in self.children):
                # every other process is gone: what is missing died with one of them
                self.done[self.next_out] = _outcome(self.function, self.items[self.next_out])
            else:
                self._receive(timeout=None)
            yield from self._ready()

    def _ready(self) -> Iterator[R]:
        while self.next_out in self.done:
            ok, value = self.done.pop(self.next_out)
            self.next_out += 1
            if self.window is not None:
                self.window.release()
            if not ok:
                raise value
            yield value

    def _receive(self, timeout: float | None) -> None:
        """Take in what the other processes sent (wait for something unless ``timeout`` is 0)."""
        while True:
            pipes = {child.results: child for child in self.children if child.open}
            ready = wait(list(pipes), timeout) if pipes else []
            if not ready:
                return
            for pipe in ready:
                child = pipes[pipe]  # type: ignore[index]  # wait returns what it was given
                try:
                    index, outcome = child.results.recv()
                except (EOFError, OSError):
                    child.open = False
                    self._take_over(child)
                    continue
                self.done[index] = outcome
            timeout = 0

    def _take_over(self, child: _Child) -> None:
        """Compute here the item a process that is gone took and did not send."""
        index = int(child.held.value)
        if 0 <= index < len(self.items):
            item = self.order[index]
            if item >= self.next_out and item not in self.done:
                self.done[item] = _outcome(self.function, self.items[item])


def can_fork(*, alone: bool = False) -> bool:
    """Whether `ordered_map` forks: on Linux; with ``alone``, only while this process runs no
    other thread (a fork copies only the thread that forks, with whatever locks the others
    held: a caller whose database driver keeps a thread asks for ``alone``)."""
    linux = sys.platform.startswith("linux")
    return linux and (not alone or threading.active_count() == 1)


def ordered_map(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    *,
    initializer: Callable[[], None] | None = None,
    cost: Callable[[T], float] | None = None,
    window: int | None = None,
    alone: bool = False,
) -> Iterator[R]:
    """Yield ``function(item)`` for every item, in order, computed in ``jobs`` processes (at
    most one per item): this one and forked ones where `can_fork` (given ``alone``), else a
    pool of spawned ones (``function`` and the items must then be picklable). ``jobs`` 1, or
    one item: here.

    ``initializer`` runs once in each other process before its first item (this process is the
    caller's to prepare). ``cost`` estimates an item's work: the last `TAIL_PER_PROCESS` items
    per process are then taken largest first. ``window``: at most this many items are taken
    and not yet yielded (not with ``cost``).

    Raises:
        Exception: What ``function`` raised for an item, when that item's turn comes.
        ValueError: both ``cost`` and ``window`` are given, or ``window`` is below 1.
    """
    if window is not None and (cost is not None or window < 1):
        raise ValueError("a window needs items taken in order, and at least one of them")
    if jobs <= 1 or len(items) <= 1:
        yield from map(function, items)
    elif can_fork(alone=alone):
        yield from _forked(function, items, jobs, initializer, cost, window)
    else:
        yield from _pooled(function, items, jobs, initializer, window)


def _forked(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    initializer: Callable[[], None] | None,
    cost: Callable[[T], float] | None,
    window: int | None,
) -> Iterator[R]:
    """`ordered_map` in this process and ``jobs - 1`` forked ones."""
    context = multiprocessing.get_context("fork")
    order = claim_order(items, jobs, cost)
    counter = _Counter(context)
    permits = context.Semaphore(window) if window is not None else None
    children: list[_Child] = []
    try:
        for _ in range(min(jobs, len(items)) - 1):
            results, sending = context.Pipe(duplex=False)
            held = context.RawValue("q", -1)
            process = context.Process(
                target=_serve,
                args=(function, items, order, counter, sending, initializer, held, permits),
                daemon=True,
            )
            process.start()
            sending.close()  # the child holds it now: its end of file is the child's end
            children.append(_Child(process, results, held))
        yield from _Run(function, items, order, counter, children, permits).results()
    finally:
        for child in children:
            child.results.close()
            if child.process.is_alive():
                child.process.terminate()
            child.process.join()


def _pooled(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    initializer: Callable[[], None] | None,
    window: int | None,
) -> Iterator[R]:
    """`ordered_map` in a pool of spawned processes; this one only collects."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(items)), initializer=initializer) as pool:
        if window is None:
            chunk = max(1, len(items) // (jobs * 8))
            yield from pool.imap(function, items, chunksize=chunk)
            return
        pending: deque[Any] = deque()
        for item in items:
            pending.append(pool.apply_async(function, (item,)))
            while len(pending) > window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def claim_order(
    items: Sequence[T], jobs: int, cost: Callable[[T], float] | None = None
) -> list[int]:
    """The item indices in the order `ordered_map` takes them: in order, but for the last
    ``TAIL_PER_PROCESS * jobs``, which go largest ``cost`` first (when it is given)."""
    order = list(range(len(items)))
    if cost is not None:
        tail = max(0, len(items) - TAIL_PER_PROCESS * jobs)
        order[tail:] = sorted(order[tail:], key=lambda i: cost(items[i]), reverse=True)
    return order


def _outcome(function: Callable[[T], R], item: T) -> _Outcome:
    try:
        return True, function(item)
    except Exception as err:  # raised again in order, by the caller
        return False, err


def _serve(
    function: Callable[[T], R],
    items: Sequence[T],
    order: list[int],
    counter: _Counter,
    sending: Connection,
    initializer: Callable[[], None] | None,
    held: Any,
    permits: Any,
) -> None:
    """A forked process: take items and send ``(index, outcome)`` until none is left (with
    ``permits``, each item once a permit is free)."""
    # an interrupt is the parent's to handle: it stops this process when it unwinds
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()
    while (permits is None or permits.acquire()) and (taken := counter.take(held)) < len(items):
        index = order[taken]
        outcome = _outcome(function, items[index])
        try:
            sending.send((index, outcome))
        except Exception as err:  # a result or an exception that cannot be pickled
            sending.send((index, (False, RuntimeError(f"item {index}: {err}"))))
    sending.close()


__all__ = ["TAIL_PER_PROCESS", "can_fork", "claim_order", "ordered_map"]
