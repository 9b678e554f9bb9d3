"""`run_ordered` on real worker processes: order, batches, one retry, failures in place, a killed
worker, a match that kills its workers."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.render.json import validation_json
from vwlog.services import ValidationOptions, validate_logs
from vwlog.services.cluster import (
    MAX_BATCH,
    TaskFailure,
    batch_size,
    measure_log,
    run_ordered,
    stats_task,
    validate_task,
)

from .conftest import NO_DASK, TIMEOUT, logs
from .tasks import deadly, flaky, slow_validate, worker_pid

if TYPE_CHECKING:
    from collections.abc import Iterator

    from distributed import Client


def test_batch_size_follows_the_corpus_and_the_workers() -> None:
    assert batch_size(12, 2) == 1  # fewer matches than 8 batches per thread: one per task
    assert batch_size(100, 2) == 7  # 100 / 16 batches, rounded up
    assert batch_size(2_000, 2) == MAX_BATCH  # 125 would be more than a batch holds
    assert batch_size(2_000, 32) == 8
    assert batch_size(10**6, 32) == MAX_BATCH
    assert batch_size(None, 2) == 1  # a stream of unknown length: one match per task
    assert batch_size(0, 0) == 1


@pytest.mark.parametrize("batch", [1, 7])
def test_results_come_back_in_order_with_a_small_window(client: Client, batch: int) -> None:
    items = list(range(40))
    out = list(run_ordered(client, worker_pid, items, batch=batch, window=3))
    assert [i for i, _ in out] == items  # type: ignore[misc]
    assert len({pid for _, pid in out}) == 2  # type: ignore[misc]  # both workers had some


@pytest.mark.parametrize("batch", [1, 5, 100])
def test_batched_results_equal_one_process(client: Client, corpus: Path, batch: int) -> None:
    files = logs(corpus)
    options = ValidationOptions()
    alone = [validation_json(r) for r in validate_logs(files, options)]
    spread = run_ordered(client, validate_task, files, options, batch=batch)
    assert [validation_json(r) for r in spread] == alone  # type: ignore[arg-type]
    measured = [measure_log(f).model_dump_json() for f in files]
    spread_stats = run_ordered(client, stats_task, files, batch=batch)
    assert [m.model_dump_json() for m in spread_stats] == measured  # type: ignore[union-attr]


@pytest.mark.parametrize("batch", [1, 4])
def test_a_failed_task_is_retried_once_then_reported_in_its_place(
    client: Client, tmp_path: Path, batch: int
) -> None:
    items = ["ok-1", "once-2", "always-3", "ok-4"]  # with batch 4: all in one task
    failed: list[TaskFailure] = []
    out = list(
        run_ordered(client, flaky, items, str(tmp_path), batch=batch, on_failure=failed.append)
    )
    assert out[0] == "OK-1"
    assert out[1] == "ONCE-2"  # failed once, retried, succeeded
    assert out[3] == "OK-4"
    failure = out[2]
    assert isinstance(failure, TaskFailure)
    assert failure.item == "always-3"
    assert failure.error == (
        "task failed after a retry: RuntimeError: always-3 failed on attempt 2"
    )
    assert failed == [failure]
    attempts = sorted(p.name for p in tmp_path.iterdir())
    assert attempts == ["always-3.0", "always-3.1", "ok-1.0", "ok-4.0", "once-2.0", "once-2.1"]


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_no_match(corpus: Path) -> None:
    pytest.importorskip("distributed", reason=NO_DASK)
    from distributed import Client, LocalCluster

    files = logs(corpus) * 2
    expected = list(validate_logs(files, ValidationOptions()))
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster, timeout=TIMEOUT) as c,
    ):
        c.wait_for_workers(2, timeout=TIMEOUT)
        pids: dict[str, int] = c.run(os.getpid)
        victim = next(iter(pids.values()))
        results: Iterator[object] = run_ordered(
            c, slow_validate, files, ValidationOptions(), batch=3
        )
        got = [next(results)]
        os.kill(victim, signal.SIGKILL)  # the other worker (and the restarted one) go on
        got.extend(results)
        after = c.run(os.getpid)
    assert victim not in after.values()  # the killed worker is gone (its nanny started anew)
    assert not any(isinstance(r, TaskFailure) for r in got)
    assert got == expected


@pytest.mark.slow
def test_a_match_that_kills_its_workers_fails_alone(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason=NO_DASK)
    import dask
    from distributed import Client, LocalCluster

    items = [f"ok-{i}" for i in range(6)]
    items[4] = "deadly-4"  # in the second batch, after ok-3
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 1}),
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster, timeout=TIMEOUT) as c,
    ):
        c.wait_for_workers(2, timeout=TIMEOUT)
        # one task at a time: no other task shares the worker that a deadly one kills
        out = list(run_ordered(c, deadly, items, str(tmp_path), batch=3, window=1))
    assert out[:4] == ["OK-0", "OK-1", "OK-2", "OK-3"]
    assert out[5:] == ["OK-5"]  # its batch mates still get their results
    failure = out[4]
    assert isinstance(failure, TaskFailure)
    assert failure.item == "deadly-4"
    assert failure.error.startswith("task failed after a retry: KilledWorker")
    # its batch died twice under it (the scheduler's limit here), then it died twice alone
    tried = sorted(p.name for p in tmp_path.iterdir())
    assert [name for name in tried if name.startswith("deadly-4")] == [
        f"deadly-4.{n}" for n in range(4)
    ]
    assert [name for name in tried if name.startswith("ok-5")] == ["ok-5.0"]  # once, alone
