"""Writes to the store take turns in a worker: a few run at a time, the others wait on the
event loop.

The service answers from a pool of 40 threads. Writes to one store land one after another
whatever the threads do (SQLite keeps one writer per file; PostgreSQL locks the events table
for each insert), and two appends to one match cannot both land: the store keeps the first and
refuses the other (a 409). Run 40 at a time, appends contended for the interpreter and the
database between their queries and played decisions the store then refused, and each cost
nearly twice the server time it cost alone. So every write (an upload, a live match started,
an append of decisions, a ruling, a fork, a rebase) runs through `Writers`: at most
`WRITER_THREADS` of a worker at a time, each in a thread of its own; the others wait for a
turn on the event loop, in order, holding no thread. Reads keep the whole pool.

Only a worker's own writes take turns; another worker's are refused by the store as before.
`bench/api_compare.py` measures the difference (`docs/performance.md`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import anyio
import anyio.to_thread

if TYPE_CHECKING:
    from collections.abc import Callable

    from starlette.requests import Request

T = TypeVar("T")

WRITER_THREADS = 2
"""Writes a worker runs at a time. One or two gave the most appends per second under 50
clients (`bench/api_bench.py --mix append`); with two, one slow write (an upload being
judged) does not hold up the rest."""

__all__ = ["WRITER_THREADS", "Writers", "write"]


class Writers:
    """The turns of a worker's writes (see the module). Used from the event loop only."""

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
        """Writes waiting for a turn."""
        return 0 if self._limiter is None else self._limiter.statistics().tasks_waiting


async def write(request: Request, work: Callable[[], T]) -> T:
    """Run ``work``, a write to the store, in its worker's turn (`Writers.run`)."""
    writers: Writers = request.app.state.writers
    return await writers.run(work)
