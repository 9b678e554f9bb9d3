"""What the kill tests run in another process (started with multiprocessing "spawn"): a write
killed (SIGKILL) at the moment the store first builds a snapshot row, which is after the
records of that write are built and, if records and snapshots were written in two
transactions, after the first one committed."""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING, NoReturn

from vwlog.services.importing import import_log
from vwlog.services.play import play_decisions
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from pathlib import Path


def _die(*_args: object, **_kwargs: object) -> NoReturn:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("not killed")


def _killed_at_first_snapshot(store: MatchStore) -> MatchStore:
    store._mapper.stored_snapshot = _die  # type: ignore[method-assign]
    return store


def import_killed(url: str, log: Path, every: int) -> None:
    """Import ``log`` with a snapshot every ``every`` records; die at the first snapshot."""
    with _killed_at_first_snapshot(MatchStore.open(url)) as store:
        import_log(store, log, snapshot_every=every)


def play_killed(url: str, match_id: str, auto: int) -> None:
    """Play ``auto`` decisions on a stored match; die at the first snapshot."""
    with _killed_at_first_snapshot(MatchStore.open(url)) as store:
        play_decisions(store, match_id, [], auto=auto)
