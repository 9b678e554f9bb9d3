"""Functions the SQLite tests run in other processes (started with multiprocessing "spawn")."""

from __future__ import annotations

import time
from itertools import count
from typing import TYPE_CHECKING

from vwlog.store import MatchStore

from .records import synthetic_match

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Barrier


def import_matches(url: str, match_ids: list[str], events: int, start: Barrier) -> None:
    """Build the matches, wait for the other importers, then open the store and import.

    The wait has no timeout (a loaded machine may take long to start a process); the parent
    aborts the barrier if another importer fails before it, which ends the wait at once."""
    matches = [synthetic_match(match_id, events) for match_id in match_ids]
    start.wait()
    with MatchStore.open(url) as store:
        for match in matches:
            match.import_into(store)


def import_forever(url: str, events: int, progress: Queue[tuple[str, int, float]]) -> None:
    """Import match after match (``big-0``, ``big-1``, …) until killed, reporting each step.

    Puts ``("importing", k, 0.0)`` just before each import and ``("stored", k, seconds)`` after.
    """
    with MatchStore.open(url) as store:
        for k in count():
            match = synthetic_match(f"big-{k}", events)
            progress.put(("importing", k, 0.0))
            started = time.perf_counter()
            match.import_into(store)
            progress.put(("stored", k, time.perf_counter() - started))
