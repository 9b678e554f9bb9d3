"""Without Dask installed, ``--jobs`` works as before and ``--cluster`` is a one-line error."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import orjson

from .conftest import CORPUS_SIZE, TIMEOUT

if TYPE_CHECKING:
    from pathlib import Path

WITHOUT_DASK = (
    "import sys\n"
    "sys.modules['dask'] = sys.modules['distributed'] = None  # as if not installed\n"
    "from vwlog.cli import main\n"
    "main()\n"
)


def vwlog_without_dask(*args: str) -> subprocess.CompletedProcess[str]:
    """``vwlog ARGS`` in a new interpreter where ``import dask`` / ``distributed`` fail."""
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_DASK, *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env={"PATH": "/usr/bin:/bin"},
    )


def test_jobs_work_without_dask(corpus: Path) -> None:
    done = vwlog_without_dask(
        "validate", "--trust-log-definitions", "-j", "2", "--format", "json", str(corpus)
    )
    assert done.returncode == 0, done.stderr
    assert len(orjson.loads(done.stdout)) == CORPUS_SIZE


def test_cluster_without_dask_names_the_extra(corpus: Path) -> None:
    done = vwlog_without_dask("stats", "--cluster", "local", str(corpus))
    assert done.returncode == 2
    assert done.stderr == (
        "Error: --cluster needs Dask: install the 'cluster' extra "
        "(pip install 'vwlog[cluster]'), or use --jobs\n"
    )
