"""The SQLite recorder the store uses: eventsourcing's application recorder, with a whole
batch of stored events inserted by one ``executemany`` instead of one ``execute`` per row.

eventsourcing's `SQLiteApplicationRecorder` inserts row by row to read each row's
``lastrowid`` (its notification id). Within one transaction SQLite gives the rows of a table
without ``AUTOINCREMENT`` consecutive rowids (the largest rowid plus one, while that is below
2**63 - 1), and the transaction holds the database's write lock from the first insert on, so
the ids of a batch are the ``len(batch)`` ids ending at ``last_insert_rowid()``. The contract
is unchanged: the same rows, in the same order, in the caller's transaction, returning the
notification ids in order; an integrity error aborts the batch like the row-by-row insert.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor
from typing_extensions import override

_MAX_ROWID = 2**63 - 1


class BatchedSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """`SQLiteApplicationRecorder` inserting each batch with one ``executemany``."""

    @override
    def _insert_events(
        self,
        c: SQLiteCursor,
        stored_events: Sequence[StoredEvent],
        **kwargs: Any,
    ) -> Sequence[int] | None:
        n = len(stored_events)
        if n <= 1:
            return super()._insert_events(c, stored_events, **kwargs)
        params = [
            (
                s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id,
                s.originator_version,
                s.topic,
                s.state,
            )
            for s in stored_events
        ]
        c.executemany(self.insert_events_statement, params)
        c.execute("SELECT last_insert_rowid()")
        last = int(c.fetchone()[0])
        if last < _MAX_ROWID:
            return list(range(last - n + 1, last + 1))
        # past the largest rowid SQLite picks free rowids at random: look each one up
        ids = []
        for oid, version, _topic, _state in params:
            c.execute(
                f"SELECT rowid FROM {self.events_table_name} "
                "WHERE originator_id = ? AND originator_version = ?",
                (oid, version),
            )
            ids.append(int(c.fetchone()[0]))
        return ids


__all__ = ["BatchedSQLiteApplicationRecorder"]
