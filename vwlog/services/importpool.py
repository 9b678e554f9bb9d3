"""Importing many logs with ``jobs`` processes validating (`import_logs_parallel`): the
processes check, replay and snapshot each log; this process, the only one that writes to the
store, stores them in the order given.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import TYPE_CHECKING, TypeAlias

from vwlog.io.logfile import file_is_regular
from vwlog.model.errors import LogFormatError
from vwlog.services.importing import (
    Prepared,
    file_sha256,
    import_log,
    prepare,
    recognised,
    store_prepared,
)
from vwlog.services.sharing import ordered_map
from vwlog.services.storing import SNAPSHOT_EVERY, STORE_ERRORS, ImportResult, defect, failed

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from pathlib import Path

    from vwlog.store import MatchStore

    _Task: TypeAlias = tuple[str, str | None, str, bool, int]
    """What `_prepare_in_worker` is given: path, digest, spool file, reject_illegal,
    snapshot_every."""
    _Screened: TypeAlias = tuple[str, "ImportResult | _Task | None", str]
    """A log of the parallel import: its path, its work (``None``: imported here; a result
    already known; or a task for the processes), and the file its snapshots are spooled to."""


def _prepare_in_worker(args: _Task) -> Prepared | ImportResult:
    """`_prepare` in a worker process, its snapshots spooled to the file ``spool``; an
    unreadable or broken log is an ``error`` result (the parent goes on with the others)."""
    path, digest, spool_path, reject_illegal, snapshot_every = args
    try:
        with open(spool_path, "w+b") as spool:
            return prepare(
                path,
                digest,
                spool,
                reject_illegal=reject_illegal,
                snapshot_every=snapshot_every,
            )
    except LogFormatError as err:
        return failed(path, err)
    except Exception as err:  # one log's defect never ends the batch
        return defect(path, err)


def import_logs_parallel(
    store: MatchStore,
    paths: Sequence[str | Path],
    *,
    jobs: int,
    reject_illegal: bool = False,
    snapshot_every: int = SNAPSHOT_EVERY,
    on_result: Callable[[ImportResult], None] | None = None,
) -> list[ImportResult]:
    """`vwlog.services.importing.import_logs` with ``jobs`` processes validating.

    The processes (`vwlog.services.sharing.ordered_map`) check each log's chain, replay it once
    (validation, statistics) and spool its snapshots to a temporary file; this process, the
    only one that writes to the store, then stores each log in one transaction, in the order
    given, and reports the results in that order, so the outcome of every log (``stored``,
    ``unchanged``, ``rejected``, ``error``) is the one a serial import gives. A log already
    stored from the same bytes is ``unchanged`` before any process validates it. Standard
    input, a pipe or a device is imported here, in its turn. At most ``2 * jobs`` logs are
    validated ahead of the one being stored, so the spooled snapshots on disk stay bounded.
    Processes are forked on Linux while this process runs no other thread (they do not pay the
    interpreter's start again, and never touch the store's connection); otherwise, for
    instance when a database driver keeps a thread, they are spawned.
    """
    results: list[ImportResult] = []
    with tempfile.TemporaryDirectory(prefix="vwlog-import-") as spool_dir:
        screened = [
            _screen(store, n, str(raw), spool_dir, reject_illegal, snapshot_every)
            for n, raw in enumerate(paths)
        ]
        tasks = [work for _, work, _ in screened if isinstance(work, tuple)]
        prepared = ordered_map(_prepare_in_worker, tasks, jobs, window=2 * jobs, alone=True)
        for path, work, spool_path in screened:
            result = _finish(
                store, path, work, prepared, spool_path, reject_illegal, snapshot_every
            )
            results.append(result)
            if on_result is not None:
                on_result(result)
    return results


def _screen(
    store: MatchStore,
    n: int,
    path: str,
    spool_dir: str,
    reject_illegal: bool,
    snapshot_every: int,
) -> _Screened:
    """What the parallel import does with a log: import it here in its turn (not a regular
    file), report what is known (stored from the same bytes, or a store error), or prepare it
    in a process (the task, and the file its snapshots are spooled to)."""
    if not file_is_regular(path):
        return path, None, ""
    try:
        digest = file_sha256(path)
        known = recognised(store, path, digest)
    except STORE_ERRORS as err:
        known = failed(path, err)
    if known is not None:
        return path, known, ""
    spool_path = os.path.join(spool_dir, f"{n}.snapshots")
    return path, (path, digest, spool_path, reject_illegal, snapshot_every), spool_path


def _finish(
    store: MatchStore,
    path: str,
    work: ImportResult | _Task | None,
    prepared: Iterator[Prepared | ImportResult],
    spool_path: str,
    reject_illegal: bool,
    snapshot_every: int,
) -> ImportResult:
    """Store one log of the parallel import, in its turn (for a task, the next of ``prepared``),
    and remove its spooled snapshots."""
    try:
        if work is None:  # not a regular file: imported here, in its turn
            return import_log(
                store, path, reject_illegal=reject_illegal, snapshot_every=snapshot_every
            )
        if isinstance(work, ImportResult):
            return work
        ready = next(prepared)
        if isinstance(ready, ImportResult):
            return ready
        with open(spool_path, "rb") as spool:
            return store_prepared(store, ready, spool)
    except STORE_ERRORS as err:
        return failed(path, err)
    except Exception as err:  # one log's defect never ends the batch
        return defect(path, err)
    finally:
        if spool_path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(spool_path)


__all__ = ["import_logs_parallel"]
