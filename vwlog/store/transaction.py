"""Writing records, catalog entries and snapshots of a match in one database transaction, page
by page, so that a whole match is stored (or a snapshot replaced) all at once or not at all
without holding the match in memory.

eventsourcing writes one batch per call, each in its own transaction, and keeps snapshots in
a table of their own: the records of a match and its snapshots would then be committed apart,
and a ``kill -9`` between the two leaves a match without its snapshots. `one_transaction`
opens one transaction on the backend's connection and writes each page with the recorders'
own statements (their table names, schema and locking).

- SQLite: one ``BEGIN`` … ``COMMIT`` on the writer connection;
- PostgreSQL: one transaction on a pooled connection; the events table is locked as
  eventsourcing locks it for an insert, from the first page to the commit; each page is sent
  with ``COPY`` (a 14,000-event import went from about 15,000 to 22,000 events a second,
  validation included: `bench/import_results-copy.json`);
- memory (plain Python objects): the pages are kept until the end and then added under the
  recorders' locks (there is nothing to kill half-way).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    IntegrityError,
    StoredEvent,
)
from eventsourcing.popo import POPOAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder

if TYPE_CHECKING:
    from eventsourcing.sqlite import SQLiteCursor


class Transaction:
    """The pages of one transaction; see `one_transaction`."""

    def records(self, page: Sequence[StoredEvent]) -> None:
        """Insert rows into the events table (records and catalog entries)."""
        raise NotImplementedError

    def snapshots(self, page: Sequence[StoredEvent]) -> None:
        """Insert rows into the snapshots table."""
        raise NotImplementedError

    def drop_snapshots(self, oid: UUID, seqs: Sequence[int]) -> None:
        """Delete a stream's snapshots at these versions (to write them again)."""
        raise NotImplementedError


class _SQLite(Transaction):
    def __init__(
        self, cursor: SQLiteCursor, recorder: ApplicationRecorder, snaps: SQLiteAggregateRecorder
    ) -> None:
        self.cursor = cursor
        self.recorder: Any = recorder
        self.snaps = snaps

    def records(self, page: Sequence[StoredEvent]) -> None:
        if page:
            self.recorder._insert_events(self.cursor, page)

    def snapshots(self, page: Sequence[StoredEvent]) -> None:
        if page:
            self.snaps._insert_events(self.cursor, page)

    def drop_snapshots(self, oid: UUID, seqs: Sequence[int]) -> None:
        self.cursor.executemany(
            f"DELETE FROM {self.snaps.events_table_name} "
            "WHERE originator_id = ? AND originator_version = ?",
            [(oid.hex, seq) for seq in seqs],
        )


class _Postgres(Transaction):
    """Pages sent with ``COPY … FROM STDIN`` in the binary format: one statement per page,
    the rows streamed, where eventsourcing's insert sends an array of a composite type that
    the driver builds row by row in Python and the server unnests."""

    def __init__(self, cursor: Any, recorder: Any, snaps: Any) -> None:
        self.cursor = cursor
        self.recorder = recorder
        self.snaps = snaps
        self.locked = False

    def records(self, page: Sequence[StoredEvent]) -> None:
        if not page:
            return
        if not self.locked:
            # the events table locked (as eventsourcing locks it for every insert, so that
            # notification ids are given in commit order) and listeners told, once
            self.recorder._lock_table(self.cursor)
            self.recorder._notify_channel(self.cursor)
            self.locked = True
        self._copy(self.recorder, page)

    def snapshots(self, page: Sequence[StoredEvent]) -> None:
        if page:
            self._copy(self.snaps, page)

    def _copy(self, recorder: Any, page: Sequence[StoredEvent]) -> None:
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "COPY {}.{} (originator_id, originator_version, topic, state) "
            "FROM STDIN (FORMAT BINARY)"
        ).format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
        with self.cursor.copy(statement) as copy:
            copy.set_types(_COPY_TYPES)
            for stored in page:
                copy.write_row(
                    (stored.originator_id, stored.originator_version, stored.topic, stored.state)
                )

    def drop_snapshots(self, oid: UUID, seqs: Sequence[int]) -> None:
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "DELETE FROM {}.{} WHERE originator_id = %s AND originator_version = ANY(%s)"
        ).format(Identifier(self.snaps.datastore.schema), Identifier(self.snaps.events_table_name))
        self.cursor.execute(statement, (oid, list(seqs)))


_COPY_TYPES = ("uuid", "int8", "text", "bytea")
"""The types of the copied columns, in order (originator_id is a uuid in vwlog's stores)."""


class _Memory(Transaction):
    def __init__(self) -> None:
        self.rows: list[StoredEvent] = []
        self.snaps: list[StoredEvent] = []
        self.dropped: list[tuple[UUID, int]] = []

    def records(self, page: Sequence[StoredEvent]) -> None:
        self.rows.extend(page)

    def snapshots(self, page: Sequence[StoredEvent]) -> None:
        self.snaps.extend(page)

    def drop_snapshots(self, oid: UUID, seqs: Sequence[int]) -> None:
        self.dropped.extend((oid, seq) for seq in seqs)

    def commit(self, recorder: ApplicationRecorder, snaps: POPOAggregateRecorder) -> None:
        """Check that every row is new (or replaces a dropped snapshot), then add them."""
        dropped = {(str(oid), seq) for oid, seq in self.dropped}
        with snaps._database_lock:
            index = snaps._stored_events_index
            for stored in self.snaps:
                key = (str(stored.originator_id), stored.originator_version)
                if key[1] in index[key[0]] and key not in dropped:
                    raise IntegrityError(f"snapshot {key[1]} of {key[0]} is stored already")
            if self.rows:
                recorder.insert_events(self.rows)  # checks all rows before adding any
            for stored in self.snaps:
                at = index[str(stored.originator_id)].get(stored.originator_version)
                if at is None:
                    snaps._update_table([stored])
                else:
                    snaps._stored_events[at] = stored


@contextmanager
def one_transaction(
    recorder: ApplicationRecorder, snapshots: AggregateRecorder
) -> Iterator[Transaction]:
    """A `Transaction` on the store's backend, committed when the block ends without an
    exception and rolled back otherwise (an `eventsourcing.persistence.IntegrityError` for a row
    already stored, nothing written)."""
    datastore: Any = getattr(recorder, "datastore", None)
    if isinstance(snapshots, SQLiteAggregateRecorder):
        with datastore.transaction(commit=True) as cursor:
            yield _SQLite(cursor, recorder, snapshots)
        return
    if isinstance(snapshots, POPOAggregateRecorder):
        memory = _Memory()
        yield memory
        memory.commit(recorder, snapshots)
        return
    from eventsourcing.postgres import PostgresAggregateRecorder

    assert isinstance(snapshots, PostgresAggregateRecorder), type(snapshots)
    assert snapshots.datastore is datastore, "one database holds both tables"
    with datastore.transaction(commit=True) as cursor:
        yield _Postgres(cursor, recorder, snapshots)


__all__ = ["Transaction", "one_transaction"]
