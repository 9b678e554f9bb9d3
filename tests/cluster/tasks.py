"""Task functions the cluster tests send to real Dask workers (imported there by name)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from vwlog.engine.replay import ValidationReport
from vwlog.services import InputProblem, ValidationOptions
from vwlog.services.cluster import validate_task


def flaky(item: str, attempts: str) -> str:
    """Note each attempt in ``attempts/ITEM.N``; ``ok-*`` items succeed, ``once-*`` items fail
    on their first attempt only, ``always-*`` items fail every time."""
    directory = Path(attempts)
    tried = len(list(directory.glob(f"{item}.*")))
    (directory / f"{item}.{tried}").write_text(str(os.getpid()), encoding="utf-8")
    if item.startswith("always-") or (item.startswith("once-") and tried == 0):
        msg = f"{item} failed on attempt {tried + 1}"
        raise RuntimeError(msg)
    return item.upper()


def slow_validate(path: str, options: ValidationOptions) -> ValidationReport | InputProblem:
    """`validate_task`, a little slower, so that a worker can be killed while it holds tasks."""
    time.sleep(0.3)
    return validate_task(path, options)


def worker_pid(item: int) -> tuple[int, int]:
    """The process that ran the task."""
    time.sleep(0.05)
    return item, os.getpid()


def deadly(item: str, attempts: str) -> str:
    """Note each attempt in ``attempts/ITEM.N``; a ``deadly-*`` item ends its worker process
    (as a crash in native code would), the others return their upper case."""
    directory = Path(attempts)
    tried = len(list(directory.glob(f"{item}.*")))
    (directory / f"{item}.{tried}").write_text(str(os.getpid()), encoding="utf-8")
    if item.startswith("deadly-"):
        os._exit(1)
    return item.upper()
