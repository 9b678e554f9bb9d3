"""Share a list of items between this process and forked ones; the results come back in order.

`ordered_map` is what a `--jobs N` run uses where processes can be forked: this process and
``N - 1`` forked ones take the next item from a shared counter until none is left, so no
process waits for items another one was handed in advance. The forked processes send
their results through pipes; this process yields every result in item order as soon as it and
those before it are done.

This process works too, instead of waiting for a pool: a pool's threads and per-task messages
cost its parent about a millisecond of CPU per item while the workers compete for the same
cores, and one process fewer is forked.

Given the cost of each item (a file's size), the last few items are taken largest first: a
large item taken last would leave the other processes idle until it is done, and only those
few results wait for the ones before them.

A forked process that dies before sending a result loses nothing: once all of them are gone,
this process computes whatever is missing itself. An exception raised for an item is raised
again here, at its place in the order. Closing the iterator early stops the other processes.
"""

from __future__ import annotations

import multiprocessing
import signal
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

    def take(self) -> int:
        """The next index, taken (an index at or past the end means there is nothing left)."""
        with self._lock:
            index: int = self._value.value
            self._value.value = index + 1
        return index


@dataclass
class _Child:
    """A forked process and the reading end of the pipe it sends its results through."""

    process: BaseProcess
    results: Connection
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
    done: dict[int, _Outcome] = field(default_factory=dict)
    """Outcomes not yielded yet, by item index."""
    next_out: int = 0
    """The index of the next result to yield."""

    def results(self) -> Iterator[R]:
        """Take items and yield results in order until every item has its result."""
        while True:
            self._receive(timeout=0)
            yield from self._ready()
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
                    continue
                self.done[index] = outcome
            timeout = 0


def ordered_map(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    *,
    initializer: Callable[[], None] | None = None,
    cost: Callable[[T], float] | None = None,
) -> Iterator[R]:
    """Yield ``function(item)`` for every item, in order, computed by this process and
    ``jobs - 1`` forked ones (``jobs`` at most the number of items).

    ``initializer`` runs once in each forked process before its first item (this process is
    the caller's to prepare). ``cost`` estimates an item's work: the last `TAIL_PER_PROCESS`
    items per process are then taken largest first. Fork only: where processes cannot be
    forked, use a pool.

    Raises:
        Exception: What ``function`` raised for an item, when that item's turn comes.
    """
    if jobs <= 1 or len(items) <= 1:
        yield from map(function, items)
        return
    context = multiprocessing.get_context("fork")
    order = claim_order(items, jobs, cost)
    counter = _Counter(context)
    children: list[_Child] = []
    try:
        for _ in range(min(jobs, len(items)) - 1):
            results, sending = context.Pipe(duplex=False)
            process = context.Process(
                target=_serve,
                args=(function, items, order, counter, sending, initializer),
                daemon=True,
            )
            process.start()
            sending.close()  # the child holds it now: its end of file is the child's end
            children.append(_Child(process, results))
        yield from _Run(function, items, order, counter, children).results()
    finally:
        for child in children:
            child.results.close()
            if child.process.is_alive():
                child.process.terminate()
            child.process.join()


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
) -> None:
    """A forked process: take items and send ``(index, outcome)`` until none is left."""
    # an interrupt is the parent's to handle: it stops this process when it unwinds
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()
    while (taken := counter.take()) < len(items):
        index = order[taken]
        outcome = _outcome(function, items[index])
        try:
            sending.send((index, outcome))
        except Exception as err:  # a result or an exception that cannot be pickled
            sending.send((index, (False, RuntimeError(f"item {index}: {err}"))))
    sending.close()


__all__ = ["TAIL_PER_PROCESS", "claim_order", "ordered_map"]
