"""A small generated corpus and a real Dask LocalCluster (worker processes) for the cluster
tests; skipped, with the reason, where the ``cluster`` extra is not installed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from click.testing import CliRunner
    from distributed import Client

NO_DASK = "the 'cluster' extra (dask distributed) is not installed"

CORPUS_SIZE = 12
QUICK = (
    "--set",
    "victory_vp=1",
    "--set",
    "victory_honor=25",
    "--set",
    "victory_territories=4",
    "--max-turns",
    "24",
)
"""A quick ruleset: matches end within 24 turns, in every victory type (as tests/stats)."""
TIMEOUT = 120
"""Seconds a cluster may take to start or a result to arrive (two cores shared with others)."""


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of generated logs, made with ``vwlog simulate``."""
    from click.testing import CliRunner

    out = tmp_path_factory.mktemp("corpus")
    result = CliRunner().invoke(
        main, ["simulate", "--seed", "19", "-n", str(CORPUS_SIZE), *QUICK, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="package")
def dask_cluster() -> Iterator[str]:
    """The scheduler address of a LocalCluster of two worker processes, one thread each.

    Shared by this package's tests and closed after its last one: its threads in this process
    must not run on beside the rest of the suite (tests there measure this process's memory)."""
    pytest.importorskip("distributed", reason=NO_DASK)
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield str(cluster.scheduler_address)


@pytest.fixture
def client(dask_cluster: str) -> Iterator[Client]:
    """A client of the shared cluster."""
    from distributed import Client

    with Client(dask_cluster, timeout=TIMEOUT) as c:
        c.wait_for_workers(2, timeout=TIMEOUT)
        yield c


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    """``vwlog ARGS`` in this process; its stdout, after checking its exit status."""
    # SOURCE_DATE_EPOCH: reports name a fixed generation time, so two runs compare byte for byte
    env = {"VWLOG_DASK_SCHEDULER": "", "SOURCE_DATE_EPOCH": "0"}
    result = runner.invoke(main, list(args), env=env)
    assert result.exit_code == code, (result.exit_code, result.stderr, result.output)
    return result.stdout


def logs(corpus: Path) -> list[str]:
    """The corpus's files, in order."""
    return sorted(str(p) for p in corpus.glob("*.jsonl"))
