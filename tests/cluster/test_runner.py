"""`run_ordered` on real worker processes: order, one retry, failures in place, a killed
worker."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.services import ValidationOptions, validate_logs
from vwlog.services.cluster import TaskFailure, run_ordered

from .conftest import NO_DASK, TIMEOUT, logs
from .tasks import flaky, slow_validate, worker_pid

if TYPE_CHECKING:
    from collections.abc import Iterator

    from distributed import Client


def test_results_come_back_in_order_with_a_small_window(client: Client) -> None:
    items = list(range(40))
    out = list(run_ordered(client, worker_pid, items, window=3))
    assert [i for i, _ in out] == items  # type: ignore[misc]


def test_a_failed_task_is_retried_once_then_reported_in_its_place(
    client: Client, tmp_path: Path
) -> None:
    items = ["ok-1", "once-2", "always-3", "ok-4"]
    failed: list[str] = []
    out = list(
        run_ordered(client, flaky, items, str(tmp_path), on_failure=lambda i, _e: failed.append(i))
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
    assert failed == ["always-3"]
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
        results: Iterator[object] = run_ordered(c, slow_validate, files, ValidationOptions())
        got = [next(results)]
        os.kill(victim, signal.SIGKILL)  # the other worker (and the restarted one) go on
        got.extend(results)
        after = c.run(os.getpid)
    assert victim not in after.values()  # the killed worker is gone (its nanny started anew)
    assert not any(isinstance(r, TaskFailure) for r in got)
    assert got == expected
