"""The store contract on an SQLite file, and what only a file shared by processes can show."""

from __future__ import annotations

import multiprocessing
import queue
import signal
import sqlite3
import time
from typing import TYPE_CHECKING

import pytest

from vwlog.model.errors import StoreError
from vwlog.model.types import MatchId
from vwlog.store import MatchStore
from vwlog.store.mapping import match_uuid

from .contract import StoreContract
from .records import synthetic_match, verify_chain
from .workers import import_forever, import_matches

if TYPE_CHECKING:
    from collections.abc import Sequence
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Barrier
    from pathlib import Path


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def url(self, tmp_path: Path) -> str:
        return f"sqlite:///{tmp_path / 'vwlog.db'}"


def assert_whole(store: MatchStore) -> list[MatchId]:
    """Assert every listed match is complete and chained, and no stream lacks its catalog."""
    ids = store.match_ids()
    for match_id in ids:
        lines = list(store.lines(match_id))
        assert store.head(match_id).seq == len(lines) == store.meta(match_id).events
        verify_chain(store.header(match_id), lines)
    return ids


def integrity(path: Path) -> str:
    """SQLite's own verdict on a database file."""
    with sqlite3.connect(path) as conn:
        verdict: str = conn.execute("PRAGMA integrity_check").fetchone()[0]
    return verdict


def test_a_plain_path_is_an_sqlite_file_that_keeps_matches(tmp_path: Path) -> None:
    path = tmp_path / "matches.db"
    match = synthetic_match("kept", 5)
    with MatchStore.open(str(path)) as store:
        match.import_into(store)
    with MatchStore.open(f"sqlite:///{path}") as store:
        assert list(store.raw_lines("kept")) == [line for line, _ in match.lines]


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, just notes\n" * 100)
    with pytest.raises(StoreError, match="file is not a database"):
        MatchStore.open(str(path))


def test_tables_are_eventsourcings_events_and_snapshots(tmp_path: Path) -> None:
    path = tmp_path / "vwlog.db"
    MatchStore.open(str(path)).close()
    with sqlite3.connect(path) as conn:
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    assert tables == {"stored_events", "stored_snapshots"}


def test_the_process_environment_does_not_change_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere.db"
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.popo")
    monkeypatch.setenv("VWLOG_SQLITE_DBNAME", str(elsewhere))
    monkeypatch.setenv("SQLITE_DBNAME", str(elsewhere))
    with MatchStore.open(str(tmp_path / "here.db")) as store:
        synthetic_match("m1", 2).import_into(store)
    assert (tmp_path / "here.db").exists()
    assert not elsewhere.exists()


@pytest.mark.slow
def test_two_processes_importing_into_one_new_file_both_succeed(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    url = f"sqlite:///{path}"
    spawn = multiprocessing.get_context("spawn")
    start = spawn.Barrier(2)
    batches = [[f"proc{p}-match{m}" for m in range(3)] for p in range(2)]
    workers = [
        spawn.Process(target=import_matches, args=(url, batch, 3_000, start)) for batch in batches
    ]
    for worker in workers:
        worker.start()
    _join_all(workers, start)
    assert [worker.exitcode for worker in workers] == [0, 0]
    with MatchStore.open(url) as store:
        assert sorted(assert_whole(store)) == sorted(batches[0] + batches[1])
    assert integrity(path) == "ok"


def _join_all(workers: Sequence[BaseProcess], start: Barrier, *, bound: float = 900.0) -> None:
    """Wait for every worker to end. One that fails before the barrier aborts it, so the
    others stop waiting for it; past ``bound`` seconds (a hang, not a slow machine) every
    worker is killed, so the test always ends by itself."""
    deadline = time.monotonic() + bound
    while any(w.is_alive() for w in workers) and time.monotonic() < deadline:
        for worker in workers:
            worker.join(timeout=0.5)
        if any(w.exitcode not in (None, 0) for w in workers):
            start.abort()
    for worker in workers:
        if worker.is_alive():
            worker.kill()
            worker.join()


def next_report(progress: Queue[tuple[str, int, float]], kind: str, k: int) -> float:
    """Wait for the importer's report ``(kind, k, seconds)`` and return its seconds."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            report = progress.get(timeout=1)
        except queue.Empty:
            continue
        if report[:2] == (kind, k):
            return report[2]
    pytest.fail(f"the importer never reported {kind} {k}")


@pytest.mark.slow
def test_killing_an_importer_midway_leaves_only_whole_matches(tmp_path: Path) -> None:
    path = tmp_path / "killed.db"
    url = f"sqlite:///{path}"
    spawn = multiprocessing.get_context("spawn")
    progress: Queue[tuple[str, int, float]] = spawn.Queue()
    importer = spawn.Process(target=import_forever, args=(url, 20_000, progress))
    importer.start()
    try:
        took = next_report(progress, "stored", 0)
        next_report(progress, "importing", 1)
        time.sleep(took / 2)  # about halfway through the transaction of big-1
        importer.kill()
    finally:
        importer.join(timeout=30)
        progress.close()
    assert importer.exitcode == -signal.SIGKILL
    with MatchStore.open(url) as store:
        ids = assert_whole(store)
        assert ids[0] == "big-0"
        for k in range(len(ids), 3):
            assert list(store._recorder.select_events(match_uuid(f"big-{k}"))) == []
    assert integrity(path) == "ok"
