"""Appends take turns in a worker: a few run at a time, the others wait on the event loop.

The service answers from a pool of 40 threads. Appends to one store land one after another
whatever the threads do (SQLite keeps one writer per file; PostgreSQL locks a match's rows),
and two appends to one match cannot both land: the store keeps the first and refuses the other
(a 409). Run 40 at a time, appends contended for the interpreter and the database between
their queries, played decisions the store then refused, and cost about twice the server time
each that they cost one at a time. So appends run through `Writers`: at most `WRITER_THREADS`
of a worker at a time, each in a thread of its own; the others wait for a turn on the event
loop, in order, holding no thread. Reads keep the whole pool.

Only a worker's own appends take turns; another worker's are refused by the store as before.
`bench/api_bench.py --mix append` measures the difference (`docs/performance.md`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import anyio
import anyio.to_thread

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")

WRITER_THREADS = 2
"""Appends a worker runs at a time. One or two gave the most appends per second under 50
clients (`bench/api_bench.py --mix append`); two let one slow append (one that ends a match
and opens its deck commitments) not hold up the rest."""

__all__ = ["WRITER_THREADS", "Writers"]


class Writers:
    """The turns of a worker's appends (see the module). Used from the event loop only."""

    def __init__(self, threads: int = WRITER_THREADS) -> None:
        self._threads = threads
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, write: Callable[[], T]) -> T:
        """Run ``write`` in a worker thread once it is its turn."""
        if self._limiter is None:  # made on the event loop, where it is used
            self._limiter = anyio.CapacityLimiter(self._threads)
        return await anyio.to_thread.run_sync(write, limiter=self._limiter)

    @property
    def waiting(self) -> int:
        """Appends waiting for a turn."""
        return 0 if self._limiter is None else self._limiter.statistics().tasks_waiting
