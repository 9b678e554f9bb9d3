"""Writes take turns in a worker (`vwlog.api.writers`): at most `WRITER_THREADS` run at once,
the others wait on the event loop without a thread, and every one of them runs."""

from __future__ import annotations

import threading

import anyio
import anyio.to_thread
import pytest

from vwlog.api.writers import WRITER_THREADS, Writers

APPENDS = 6


def test_at_most_writer_threads_run_at_once() -> None:
    lock = threading.Lock()
    running = peak = 0
    started = threading.Semaphore(0)
    release = threading.Event()

    def write(n: int) -> int:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        started.release()
        assert release.wait(timeout=60)
        with lock:
            running -= 1
        return n

    async def main() -> tuple[list[int], int]:
        writers = Writers()
        done: list[int] = []

        async def one(n: int) -> None:
            done.append(await writers.run(lambda: write(n)))

        async with anyio.create_task_group() as tasks:
            for n in range(APPENDS):
                tasks.start_soon(one, n)
            for _ in range(WRITER_THREADS):
                await anyio.to_thread.run_sync(started.acquire)
            waiting = writers.waiting
            release.set()
        return done, waiting

    done, waiting = anyio.run(main)
    assert sorted(done) == list(range(APPENDS))
    assert peak == WRITER_THREADS
    assert waiting == APPENDS - WRITER_THREADS


def test_an_error_reaches_the_caller_and_frees_the_turn() -> None:
    def fail() -> None:
        raise ValueError("refused")

    async def main() -> list[int]:
        writers = Writers(threads=1)
        with pytest.raises(ValueError, match="refused"):
            await writers.run(fail)
        return [await writers.run(lambda: 1), await writers.run(lambda: 2)]

    assert anyio.run(main) == [1, 2]
