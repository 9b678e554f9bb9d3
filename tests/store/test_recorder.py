"""The batched SQLite recorder keeps eventsourcing's contract: same rows, same order, and the
notification ids it returns are the rows' rowids (real SQLite files)."""

from __future__ import annotations

import sqlite3
import uuid
from typing import TYPE_CHECKING

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from vwlog.store import MatchStore
from vwlog.store.recorder import BatchedSQLiteApplicationRecorder

if TYPE_CHECKING:
    from pathlib import Path


def _recorder(path: Path) -> BatchedSQLiteApplicationRecorder:
    recorder = BatchedSQLiteApplicationRecorder(SQLiteDatastore(str(path)))
    recorder.create_table()
    return recorder


def _events(oid: uuid.UUID, first: int, n: int) -> list[StoredEvent]:
    return [StoredEvent(oid, v, f"t{v}", f"state {v}".encode()) for v in range(first, first + n)]


def _rows(path: Path) -> list[tuple[int, str, int, str, bytes]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT rowid, originator_id, originator_version, topic, state "
            "FROM stored_events ORDER BY rowid"
        ).fetchall()


def test_ids_are_the_rowids_of_the_batch_in_order(tmp_path: Path) -> None:
    recorder = _recorder(tmp_path / "r.db")
    a, b = uuid.uuid4(), uuid.uuid4()
    first = recorder.insert_events(_events(a, 1, 1))
    second = recorder.insert_events(_events(b, 1, 50))
    third = recorder.insert_events(_events(a, 2, 7))
    rows = _rows(tmp_path / "r.db")
    assert [r[0] for r in rows] == [*first, *second, *third]
    assert [(r[1], r[2], r[3]) for r in rows[1:51]] == [(b.hex, v, f"t{v}") for v in range(1, 51)]
    assert [n.id for n in recorder.select_notifications(1, 100)] == [r[0] for r in rows]


def test_ids_match_the_row_by_row_recorder(tmp_path: Path) -> None:
    batched = _recorder(tmp_path / "b.db")
    plain = SQLiteApplicationRecorder(SQLiteDatastore(str(tmp_path / "p.db")))
    plain.create_table()
    oid = uuid.uuid4()
    for recorder in (batched, plain):
        recorder.insert_events(_events(oid, 1, 3))
    assert batched.insert_events(_events(oid, 4, 20)) == plain.insert_events(_events(oid, 4, 20))
    assert [r[1:] for r in _rows(tmp_path / "b.db")] == [r[1:] for r in _rows(tmp_path / "p.db")]


def test_a_conflicting_row_stores_nothing_of_the_batch(tmp_path: Path) -> None:
    recorder = _recorder(tmp_path / "r.db")
    oid = uuid.uuid4()
    recorder.insert_events(_events(oid, 5, 1))
    with pytest.raises(IntegrityError):
        recorder.insert_events(_events(oid, 1, 10))  # version 5 is taken
    assert len(_rows(tmp_path / "r.db")) == 1


def test_the_store_uses_it_on_sqlite(tmp_path: Path) -> None:
    with MatchStore.open(f"sqlite:///{tmp_path / 's.db'}") as store:
        assert isinstance(store._recorder, BatchedSQLiteApplicationRecorder)
