"""The match store: match logs kept as eventsourcing streams, one stream per match.

What is stored where (all in eventsourcing's own tables, so the three backends behave alike):

- **records** — stream ``match_uuid(match_id)`` in the application's events table, version =
  seq, topic ``vwlog:<tag>:v<N>``, state = the record's canonical line, byte for byte;
- **catalog** — stream ``catalog_uuid(match_id)`` in the same table: version 1 holds the header
  and the first `MatchMeta` (topic ``vwlog-store:match_registered:v1``), each later version a
  replacement `MatchMeta` (``vwlog-store:meta_updated:v1``). Being in the same table, the
  registration is written in the same transaction as the records, so a match is either listed
  and whole or absent. Listing reads the catalog topics from the notification log;
- **snapshots** — eventsourcing's snapshot table, stream ``match_uuid(match_id)``, version = the
  seq the snapshot was taken after, state = the caller's bytes. The nearest snapshot at or
  before a seq is one primary-key range lookup (``version <= seq ORDER BY version DESC LIMIT
  1``), however many snapshots a match has.

Table names: SQLite ``stored_events`` and ``stored_snapshots``; PostgreSQL ``vwlog_events`` and
``vwlog_snapshots`` in the URL's ``schema`` (``public`` by default).

Followers (read models) read the catalog entries of the notification log from a position on
(`MatchStore.position`, `MatchStore.catalog_changes`); the statistics read model keeps its
own state apart, in `vwlog.store.statsview` (`MatchStore.stats_view`).

The store knows nothing of rules or game state; it keeps what the services layer gives it.
eventsourcing stays behind this module: its exceptions are translated into `vwlog.model.errors`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, Self
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import EventSourcingError
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    InfrastructureFactoryError,
    IntegrityError,
    Notification,
    StoredEvent,
)
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteApplicationRecorder
from eventsourcing.utils import Environment
from typing_extensions import override

from vwlog.model.errors import (
    MatchExistsError,
    MatchNotFoundError,
    SequenceConflictError,
    StoreConfigError,
    StoreError,
    UsageError,
)
from vwlog.model.types import MatchId
from vwlog.store.catalog import CatalogChange, Head, ImportOutcome, MatchMeta
from vwlog.store.mapping import (
    CATALOG_TOPICS,
    REGISTERED_TOPIC,
    OrjsonTranscoder,
    RecordMapper,
    catalog_uuid,
    match_uuid,
)
from vwlog.store.settings import redact, settings_from_url

if TYPE_CHECKING:
    from types import TracebackType

    from eventsourcing.persistence import Mapper
    from psycopg import Connection as PgConnection

    from vwlog.events import EventRecord, LogHeader
    from vwlog.store.statsview import StatsViewStore

PAGE_SIZE = 1000
"""Stored events read per query when streaming a match or the catalog."""
_PROBE_TIMEOUT = 5
"""Seconds to wait for a first PostgreSQL connection when opening a store."""
_SCHEMA_LOCK_TIMEOUT = 60
"""Seconds to wait for another process that is creating a PostgreSQL store's tables."""
_LOCKED_PAUSE = 0.02
"""Seconds between attempts to put a new SQLite file in WAL mode while another process is."""
_WRITE_ATTEMPTS = 5
"""How often a write is retried when only the catalog (metadata) moved underneath it."""


_APPLICATION = "vwlog"
_BATCHED_SQLITE_RECORDER = "vwlog.store.recorder:BatchedSQLiteApplicationRecorder"
_TABLES = (f"{_APPLICATION}_events", f"{_APPLICATION}_snapshots")
"""The application's PostgreSQL tables (eventsourcing names them after the application)."""


class _VwlogApplication(Application[UUID]):
    """The eventsourcing application behind `MatchStore`; nothing outside this module sees it."""

    name = _APPLICATION
    env: ClassVar[dict[str, str]] = {"IS_SNAPSHOTTING_ENABLED": "y"}
    log_section_size = PAGE_SIZE

    @override
    def construct_env(self, name: str, env: Mapping[str, str] | None = None) -> Environment:
        # Hermetic: the class settings and the store URL's, never os.environ (eventsourcing
        # would read VWLOG_*/POSTGRES_* variables and let them override the URL).
        merged = {**type(self).env, **(env or {})}
        if merged.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
            # a whole match per executemany (vwlog.store.recorder), not one execute per row
            merged.setdefault("APPLICATION_RECORDER_TOPIC", _BATCHED_SQLITE_RECORDER)
        return Environment(name, merged)

    @override
    def construct_mapper(self) -> Mapper[UUID]:
        return RecordMapper(
            transcoder=OrjsonTranscoder(),
            compressor=self.factory.compressor(),
            cipher=self.factory.cipher(),
        )

    @property
    def record_mapper(self) -> RecordMapper:
        assert isinstance(self.mapper, RecordMapper)
        return self.mapper

    @property
    def snapshot_recorder(self) -> AggregateRecorder:
        assert self.snapshots is not None, "IS_SNAPSHOTTING_ENABLED is set in env"
        return self.snapshots.recorder


class MatchStore:
    """Stored matches: records byte for byte, a catalog of metadata, and snapshots.

    Open one with `MatchStore.open` and close it (``with`` does) when done; a PostgreSQL store
    holds a connection pool. A store may be shared by threads; several processes may use one
    SQLite file or PostgreSQL database at once (writers wait for each other).

    Example:
        >>> with MatchStore.open("memory:") as store:
        ...     store.match_ids()
        []
    """

    def __init__(self, env: Mapping[str, str], *, url: str = "") -> None:
        """Open a store from an eventsourcing environment (see `settings_from_url`).

        Raises:
            StoreConfigError: The environment does not describe a usable backend.
            StoreError: The database cannot be reached or its tables cannot be created.
        """
        self.url = redact(url)
        """The store's URL, with any password hidden."""
        self._closed = False
        self._env = dict(env)
        self._view: StatsViewStore | None = None
        _prepare_sqlite(env, self.url)
        try:
            with _prepare_postgres(env, self.url, tables=_TABLES) as app_env:
                self._app = _VwlogApplication(env=app_env)
        except (OSError, InfrastructureFactoryError) as err:
            raise StoreConfigError(self.url, _reason(err)) from err
        except (EventSourcingError, sqlite3.Error) as err:
            # eventsourcing lets sqlite3's errors through while it sets the journal mode.
            raise StoreError(f"cannot open store {self.url!r}: {_reason(err)}") from err
        self._mapper = self._app.record_mapper
        self._recorder: ApplicationRecorder = self._app.recorder
        self._snapshots = self._app.snapshot_recorder

    @classmethod
    def open(cls, url: str) -> Self:
        """Open the store at a URL: a file path, ``sqlite:///…``, ``postgresql://…`` or
        ``memory:``.

        Raises:
            StoreConfigError: The URL is malformed or needs the ``postgres`` extra.
            StoreError: The database cannot be reached or its tables cannot be created.
        """
        return cls(settings_from_url(url), url=url)

    def close(self) -> None:
        """Close the store and its connections (and its statistics view's, if opened); a
        closed store raises `StoreError`."""
        self._closed = True
        if self._view is not None:
            self._view.close()
        self._app.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MatchStore({self.url!r})"

    # Writing

    def import_match(
        self,
        header: LogHeader,
        lines: Sequence[tuple[bytes, EventRecord]],
        meta: MatchMeta,
    ) -> ImportOutcome:
        """Store a whole match in one transaction: all of it, or nothing.

        Importing a match that is already stored (same id, same head hash) writes nothing and
        returns `ImportOutcome.UNCHANGED`, so imports can be repeated safely.

        Args:
            header: The log's header, sealed (its ``hash`` is the root of the chain).
            lines: Every record with its canonical line, seq 1, 2, 3, … in order, each with its
                chain hash. The lines are stored as given.
            meta: What the services layer computed about the match; its ``events`` and
                ``head_hash`` must describe ``lines``.

        Warning:
            The store does not re-serialise or re-hash: it trusts that each line is the
            canonical form of its record and that the hashes chain (``vwlog verify`` checks).

        Raises:
            UsageError: The records are not numbered 1, 2, 3, …, lack hashes, or ``meta`` does
                not describe them.
            MatchExistsError: A match with this id but a different head hash is stored.
            SequenceConflictError: The match's stream already holds records that the catalog
                does not know (a damaged store); nothing was written.
            StoreError: The database failed; nothing was written.
        """
        match_id = MatchId(header.match_id)
        head_hash = _check_lines(match_id, lines, after=0, root=header.hash)
        _check_meta(meta, match_id, events=len(lines), head_hash=head_hash)
        stored = self._stored_head(match_id)
        if stored is not None:
            return _compare(match_id, stored, head_hash)
        oid = match_uuid(match_id)
        mapper = self._mapper
        events = [mapper.stored_registration(match_id, header, meta)]
        events.extend(mapper.stored_record(oid, line, record) for line, record in lines)
        try:
            self._insert(events)
        except IntegrityError as err:
            # Another importer got there first (or the stream is damaged): look again.
            stored = self._stored_head(match_id)
            if stored is None:
                first = self._select(oid, limit=1)
                raise SequenceConflictError(match_id, _first_seq(first)) from err
            if stored.hash != head_hash:
                raise MatchExistsError(match_id, stored.hash, head_hash) from err
            return ImportOutcome.UNCHANGED
        return ImportOutcome.STORED

    def import_stream(
        self,
        header: LogHeader,
        lines: Iterable[tuple[bytes, EventRecord]],
        meta: MatchMeta,
        snapshots: Iterable[tuple[int, bytes]] = (),
    ) -> ImportOutcome:
        """Store a whole match, its registration and its snapshots in one transaction,
        consuming ``lines`` and ``snapshots`` once and holding neither whole: what
        `import_match` does, in memory that does not grow with the match.

        ``meta`` (computed in an earlier pass over the same records) must describe them:
        if the lines end elsewhere, or a snapshot names a seq past them, nothing is stored.
        An exception raised by either iterable also stores nothing. On SQLite the rows are
        written in pages inside one transaction; the other backends receive the rows at once.

        Raises:
            UsageError: As `import_match`, or a snapshot's seq is not a position of the match.
            MatchExistsError: A match with this id but a different head hash is stored.
            SequenceConflictError: The match's stream already holds records that the catalog
                does not know (a damaged store); nothing was written.
            StoreError: The database failed; nothing was written.
        """
        match_id = MatchId(header.match_id)
        if header.hash is None:
            raise UsageError(f"the header of match {match_id!r} has no hash: seal it first")
        stored = self._stored_head(match_id)
        if stored is not None:
            return _compare(match_id, stored, meta.head_hash)
        datastore = getattr(self._recorder, "datastore", None)
        if not isinstance(self._recorder, SQLiteApplicationRecorder) or datastore is None:
            whole = list(lines)
            kept = list(snapshots)
            for seq, _data in kept:
                if not 1 <= seq <= len(whole):
                    raise UsageError(
                        f"match {match_id!r} has records 1 to {len(whole)}: no snapshot after "
                        f"seq {seq}"
                    )
            outcome = self.import_match(header, whole, meta)
            if outcome == ImportOutcome.STORED:
                self.save_snapshots(match_id, kept)
            return outcome
        oid = match_uuid(match_id)
        mapper = self._mapper
        recorder = self._recorder
        snapshot_recorder = self._snapshots
        assert isinstance(snapshot_recorder, SQLiteAggregateRecorder)
        try:
            with self._translated(), datastore.transaction(commit=True) as cursor:
                registration = mapper.stored_registration(match_id, header, meta)
                recorder._insert_events(cursor, [registration])
                page: list[StoredEvent] = []
                head_seq, head_hash = 0, header.hash
                for line, record in lines:
                    head_seq += 1
                    if record.seq != head_seq or record.hash is None:
                        _check_lines(match_id, [(line, record)], after=head_seq - 1, root=None)
                    head_hash = record.hash or ""
                    page.append(mapper.stored_record(oid, line, record))
                    if len(page) == PAGE_SIZE:
                        recorder._insert_events(cursor, page)
                        page = []
                recorder._insert_events(cursor, page)
                _check_meta(meta, match_id, events=head_seq, head_hash=head_hash)
                page = []
                for seq, data in snapshots:
                    if not 1 <= seq <= head_seq:
                        raise UsageError(
                            f"match {match_id!r} has records 1 to {head_seq}: no snapshot "
                            f"after seq {seq}"
                        )
                    page.append(mapper.stored_snapshot(match_id, seq, data))
                    if len(page) == PAGE_SIZE:
                        snapshot_recorder._insert_events(cursor, page)
                        page = []
                snapshot_recorder._insert_events(cursor, page)
        except IntegrityError as err:
            stored = self._stored_head(match_id)
            if stored is None:
                first = self._select(oid, limit=1)
                raise SequenceConflictError(match_id, _first_seq(first)) from err
            return _compare(match_id, stored, meta.head_hash)
        return ImportOutcome.STORED

    def append(
        self,
        match_id: str,
        lines: Sequence[tuple[bytes, EventRecord]],
        *,
        expected_seq: int,
        meta: MatchMeta | None = None,
    ) -> Head:
        """Append records to a stored match, optimistically: only if it still ends at
        ``expected_seq``.

        Of two writers appending at the same position, one wins and the other gets
        `SequenceConflictError`; nothing of the loser is written. With ``meta``, the match's
        metadata is replaced in the same transaction.

        Returns:
            The new head of the match.

        Warning:
            As with `import_match`, the lines are stored as given; the store does not check
            that the first one chains from the current head.

        Raises:
            MatchNotFoundError: No match has this id.
            SequenceConflictError: The match no longer ends at ``expected_seq``: another writer
                appended first. Nothing was written; reload and try again.
            UsageError: ``lines`` is empty, is not numbered ``expected_seq + 1``, …, lacks
                hashes, ``meta`` does not describe the match after the append, or the match
                ends before ``expected_seq``.
            StoreError: The database failed; nothing was written.
        """
        match_id = MatchId(match_id)
        if not lines:
            raise UsageError(f"nothing to append to match {match_id!r}")
        head_hash = _check_lines(match_id, lines, after=expected_seq, root=None)
        new_head = Head(expected_seq + len(lines), head_hash)
        if meta is not None:
            _check_meta(meta, match_id, events=new_head.seq, head_hash=head_hash)
        oid = match_uuid(match_id)
        records = [self._mapper.stored_record(oid, line, record) for line, record in lines]
        for _ in range(_WRITE_ATTEMPTS):
            catalog_version, _meta = self._catalog_head(match_id)
            head_seq = self._head_seq(oid)
            if head_seq > expected_seq:
                raise SequenceConflictError(match_id, expected_seq + 1)
            if head_seq < expected_seq:
                raise UsageError(
                    f"match {match_id!r} ends at seq {head_seq}: cannot append after seq "
                    f"{expected_seq}"
                )
            events = list(records)
            if meta is not None:
                meta = _keep_seal(meta, _meta)
                events.append(self._mapper.stored_meta(match_id, catalog_version + 1, meta))
            try:
                self._insert(events)
            except IntegrityError as err:
                if self._head_seq(oid) != expected_seq:
                    raise SequenceConflictError(match_id, expected_seq + 1) from err
                continue  # only the metadata moved (update_meta meanwhile): try again
            return new_head
        raise StoreError(f"the metadata of match {match_id!r} keeps changing: try again later")

    def update_meta(self, meta: MatchMeta) -> None:
        """Replace the stored metadata of ``meta.match_id`` (for example after re-validation).

        Raises:
            MatchNotFoundError: No match has this id.
            SequenceConflictError: ``meta`` does not describe the stored match as it is now
                (its ``events`` or ``head_hash`` differ from the stored head): another writer
                appended; recompute it.
            StoreError: The database failed.
        """
        match_id = MatchId(meta.match_id)
        oid = match_uuid(match_id)
        for _ in range(_WRITE_ATTEMPTS):
            catalog_version, current = self._catalog_head(match_id)
            head = self._head(match_id, oid)
            if (meta.events, meta.head_hash) != (head.seq, head.hash):
                raise SequenceConflictError(match_id, head.seq)
            meta = _keep_seal(meta, current)
            try:
                self._insert([self._mapper.stored_meta(match_id, catalog_version + 1, meta)])
            except IntegrityError:
                continue  # another update won the race: check against its state and retry
            return
        raise StoreError(f"the metadata of match {match_id!r} keeps changing: try again later")

    def save_snapshot(self, match_id: str, seq: int, data: bytes) -> bool:
        """Keep a snapshot (opaque bytes) of what the caller derived from records 1..``seq``.

        Snapshots are written outside the records' transactions: they are a cache. One seq
        holds one snapshot, never replaced; put a format version inside ``data`` if its
        meaning may change.

        Returns:
            Whether it was stored (``False``: a snapshot at this seq already exists).

        Raises:
            MatchNotFoundError: No match has this id.
            UsageError: ``seq`` is not a position of the match (1 to its head).
            StoreError: The database failed.
        """
        match_id = MatchId(match_id)
        head = self.head(match_id)
        if not 1 <= seq <= head.seq:
            raise UsageError(
                f"match {match_id!r} has records 1 to {head.seq}: no snapshot after seq {seq}"
            )
        try:
            with self._translated():
                self._snapshots.insert_events([self._mapper.stored_snapshot(match_id, seq, data)])
        except IntegrityError:
            return False
        return True

    def save_snapshots(self, match_id: str, snapshots: Sequence[tuple[int, bytes]]) -> int:
        """Keep several snapshots (``(seq, data)`` pairs) of one match in one transaction, as
        `save_snapshot` does one by one; where any of them is already stored, falls back to
        one at a time so that the others are still kept.

        Returns:
            How many were stored.

        Raises:
            MatchNotFoundError: No match has this id.
            UsageError: A seq is not a position of the match (1 to its head).
            StoreError: The database failed.
        """
        if not snapshots:
            return 0
        match_id = MatchId(match_id)
        head = self.head(match_id)
        for seq, _data in snapshots:
            if not 1 <= seq <= head.seq:
                raise UsageError(
                    f"match {match_id!r} has records 1 to {head.seq}: no snapshot after seq {seq}"
                )
        stored = [self._mapper.stored_snapshot(match_id, seq, data) for seq, data in snapshots]
        try:
            with self._translated():
                self._snapshots.insert_events(stored)
        except IntegrityError:
            return sum(self.save_snapshot(match_id, seq, data) for seq, data in snapshots)
        return len(stored)

    # Reading

    def __contains__(self, match_id: object) -> bool:
        return isinstance(match_id, str) and self._catalog_first(match_id) is not None

    def header(self, match_id: str) -> LogHeader:
        """The header the match was imported with.

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed or the catalog entry is unreadable.
        """
        return self._mapper.registration(self._require(match_id))[0]

    def meta(self, match_id: str) -> MatchMeta:
        """The match's current metadata.

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed or the catalog entry is unreadable.
        """
        return self._catalog_head(MatchId(match_id))[1]

    def head(self, match_id: str) -> Head:
        """The last seq of the match and its hash (``(0, header hash)`` without records).

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed or the last record is unreadable.
        """
        return self._head(MatchId(match_id), match_uuid(match_id))

    def raw_lines(self, match_id: str, *, gt: int = 0, lte: int | None = None) -> Iterator[bytes]:
        """The stored lines of records ``gt`` < seq <= ``lte``, byte for byte as imported.

        Raises:
            MatchNotFoundError: No match has this id (raised at once, not when iterating).
            StoreError: The database failed.
        """
        line = self._mapper.line
        return (line(stored) for stored in self._rows(match_id, gt, lte))

    def records(
        self, match_id: str, *, gt: int = 0, lte: int | None = None
    ) -> Iterator[EventRecord]:
        """The records ``gt`` < seq <= ``lte``, upcast to the current event versions.

        Raises:
            MatchNotFoundError: No match has this id (raised at once, not when iterating).
            StoreError: The database failed or a stored record is unreadable.
        """
        record = self._mapper.record
        return (record(stored) for stored in self._rows(match_id, gt, lte))

    def lines(
        self, match_id: str, *, gt: int = 0, lte: int | None = None
    ) -> Iterator[tuple[bytes, EventRecord]]:
        """The stored lines with their parsed records (the shape `import_match` takes).

        Raises:
            MatchNotFoundError: No match has this id (raised at once, not when iterating).
            StoreError: The database failed or a stored record is unreadable.
        """
        mapper = self._mapper
        return ((mapper.line(s), mapper.record(s)) for s in self._rows(match_id, gt, lte))

    def nearest_snapshot(self, match_id: str, seq: int) -> tuple[int, bytes] | None:
        """The newest snapshot taken at or before ``seq``, as ``(its seq, its bytes)``.

        One indexed lookup, however long the match and however many snapshots it has.

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed.
        """
        with self._translated():
            found = self._snapshots.select_events(match_uuid(match_id), lte=seq, desc=True, limit=1)
        if found:
            return found[0].originator_version, self._mapper.snapshot(found[0])
        self._require(match_id)
        return None

    def snapshots(self, match_id: str) -> Iterator[tuple[int, bytes]]:
        """Every snapshot of the match, as ``(the seq it was taken after, its bytes)``, in seq
        order (for checking them against the records).

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed.
        """
        self._require(match_id)
        oid = match_uuid(match_id)
        after: int | None = None
        while True:
            with self._translated():
                page = self._snapshots.select_events(oid, gt=after, limit=PAGE_SIZE)
            for stored in page:
                yield stored.originator_version, self._mapper.snapshot(stored)
            if len(page) < PAGE_SIZE:
                return
            after = page[-1].originator_version

    def match_ids(self) -> list[MatchId]:
        """Ids of every stored match, in the order they were first stored.

        Raises:
            StoreError: The database failed.
        """
        registrations = self._notifications((REGISTERED_TOPIC,))
        return [MatchId(self._mapper.meta(n).match_id) for n in registrations]

    def list_matches(self, *, upto: int | None = None) -> list[MatchMeta]:
        """The current metadata of every stored match, in the order they were first stored.

        One pass over the catalog entries of the notification log. With ``upto``, the catalog
        as it was at that position (see `position`): later matches and later metadata are left
        out.

        Raises:
            StoreError: The database failed or a catalog entry is unreadable.
        """
        latest: dict[str, MatchMeta] = {}
        for notification in self._notifications(CATALOG_TOPICS, upto=upto):
            meta = self._mapper.meta(notification)
            latest[meta.match_id] = meta
        return list(latest.values())

    # Following the store (read models)

    def position(self) -> int:
        """The position of the newest entry of the store's notification log (0 when empty).

        Every stored record and catalog entry takes the next position when it is written, and
        positions become visible in order, so a follower that has processed everything up to a
        position resumes just after it and misses nothing.

        Raises:
            StoreError: The database failed.
        """
        with self._translated():
            return self._recorder.max_notification_id() or 0

    def registrations_after(
        self, position: int, *, upto: int | None = None
    ) -> Iterator[tuple[int, MatchId]]:
        """``(position, match id)`` of every match registered after ``position`` (and at or
        before ``upto``), in the order they were stored.

        Raises:
            StoreError: The database failed or a catalog entry is unreadable.
        """
        for notification in self._notifications((REGISTERED_TOPIC,), after=position, upto=upto):
            yield notification.id, MatchId(self._mapper.meta(notification).match_id)

    def catalog_changes(
        self, after: int = 0, *, upto: int | None = None
    ) -> Iterator[CatalogChange]:
        """Every catalog entry written after position ``after`` (and at or before ``upto``), in
        order: each match's registration, then each replacement of its metadata (an append in
        play mode, `update_meta`) with the metadata it replaced.

        Reads the notification log in pages of `PAGE_SIZE`; a replacement costs one more
        indexed lookup (the entry before it).

        Raises:
            StoreError: The database failed or a catalog entry is unreadable.
        """
        mapper = self._mapper
        for notification in self._notifications(CATALOG_TOPICS, after=after, upto=upto):
            meta = mapper.meta(notification)
            previous = None
            if notification.topic != REGISTERED_TOPIC:
                found = self._select(
                    _uuid(notification.originator_id),
                    lte=notification.originator_version - 1,
                    desc=True,
                    limit=1,
                )
                if not found:
                    raise StoreError(
                        f"{self.url}: catalog entry {notification.originator_version} of match "
                        f"{meta.match_id!r} follows no registration (a damaged store)"
                    )
                previous = mapper.meta(found[0])
            yield CatalogChange(notification.id, MatchId(meta.match_id), meta, previous)

    def fingerprint(self, position: int) -> str | None:
        """What the entry at ``position`` of the notification log is, as a short string
        (stream, version and a digest of its bytes); ``None`` if no entry has that position.

        A follower keeps the fingerprint of the last position it processed: if the store no
        longer has that entry there, the follower is following another store (the file was
        replaced, the schema recreated) and must start again.

        Raises:
            StoreError: The database failed.
        """
        if position < 1:
            return None
        with self._translated():
            found = self._app.notification_log.select(position, 1, stop=position)
        if not found:
            return None
        entry = found[0]
        digest = hashlib.sha256(entry.state).hexdigest()[:16]
        return f"{_uuid(entry.originator_id)}:{entry.originator_version}:{digest}"

    def has_stats_view(self) -> bool:
        """Whether the statistics view may hold something, without creating it: ``False``
        when the store is SQLite and the view's file does not exist yet.

        Raises:
            StoreError: The store is closed.
        """
        if self._closed:
            raise StoreError(f"{self.url}: the store is closed")
        if self._view is not None:
            return True
        from vwlog.store.statsview import view_settings

        env = view_settings(self._env)
        if env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
            return os.path.exists(env.get("SQLITE_DBNAME", ""))
        return True

    def stats_view(self) -> StatsViewStore:
        """The storage of the statistics read model that follows this store.

        Opened on first use and closed with the store. It is kept apart from the store's
        tables: an SQLite file beside the store's (``vwlog.db`` → ``vwlog.stats.db``), the
        PostgreSQL schema named after the store's with ``_stats`` appended, or, for a store
        in memory, memory kept for as long as this store is open.

        Raises:
            StoreError: The store is closed, or the view's storage cannot be opened.
        """
        if self._closed:
            raise StoreError(f"{self.url}: the store is closed")
        if self._view is None:
            from vwlog.store.statsview import StatsViewStore, view_settings

            self._view = StatsViewStore(
                view_settings(self._env), url=self.url, tracked=self._app.name
            )
        return self._view

    # Internals

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """Turn eventsourcing's errors into `StoreError`; `IntegrityError` passes through
        for the caller to interpret."""
        if self._closed:
            raise StoreError(f"{self.url}: the store is closed")
        try:
            yield
        except IntegrityError:
            raise
        except EventSourcingError as err:
            raise StoreError(f"{self.url}: {_reason(err)}") from err

    def _insert(self, events: list[StoredEvent]) -> None:
        # One insert_events call is one transaction on every backend (SQLite: BEGIN …
        # COMMIT around all rows; PostgreSQL: one transaction, table locked; POPO: one lock,
        # uniqueness checked before any row is added).
        with self._translated():
            self._recorder.insert_events(events)

    def _select(
        self,
        oid: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        with self._translated():
            return self._recorder.select_events(oid, gt=gt, lte=lte, desc=desc, limit=limit)

    def _catalog_first(self, match_id: str) -> StoredEvent | None:
        found = self._select(catalog_uuid(match_id), limit=1)
        return found[0] if found else None

    def _require(self, match_id: str) -> StoredEvent:
        """The match's registration, or `MatchNotFoundError`."""
        found = self._catalog_first(match_id)
        if found is None:
            raise MatchNotFoundError(match_id)
        return found

    def _catalog_head(self, match_id: MatchId) -> tuple[int, MatchMeta]:
        """The version of the match's latest catalog entry and the metadata it holds."""
        found = self._select(catalog_uuid(match_id), desc=True, limit=1)
        if not found:
            raise MatchNotFoundError(match_id)
        return found[0].originator_version, self._mapper.meta(found[0])

    def _head_seq(self, oid: UUID) -> int:
        found = self._select(oid, desc=True, limit=1)
        return found[0].originator_version if found else 0

    def _head(self, match_id: MatchId, oid: UUID) -> Head:
        found = self._select(oid, desc=True, limit=1)
        if found:
            return Head(found[0].originator_version, self._mapper.record_hash(found[0]))
        header = self.header(match_id)
        return Head(0, header.hash or "")

    def _stored_head(self, match_id: MatchId) -> Head | None:
        """The head of a stored match, or ``None`` if it is not stored."""
        if self._catalog_first(match_id) is None:
            return None
        return self._head(match_id, match_uuid(match_id))

    def _rows(self, match_id: str, gt: int, lte: int | None) -> Iterator[StoredEvent]:
        """The match's stored records in pages: checks the match exists before iterating."""
        oid = match_uuid(match_id)
        first = self._select(oid, gt=gt, lte=lte, limit=PAGE_SIZE)
        if not first:
            self._require(match_id)
        return self._pages(oid, first, lte)

    def _pages(
        self, oid: UUID, page: Sequence[StoredEvent], lte: int | None
    ) -> Iterator[StoredEvent]:
        while True:
            yield from page
            if len(page) < PAGE_SIZE:
                return
            page = self._select(oid, gt=page[-1].originator_version, lte=lte, limit=PAGE_SIZE)

    def _notifications(
        self, topics: Sequence[str], *, after: int = 0, upto: int | None = None
    ) -> Iterator[Notification]:
        log = self._app.notification_log
        start = after
        while True:
            with self._translated():
                page = log.select(
                    start, PAGE_SIZE, stop=upto, topics=topics, inclusive_of_start=False
                )
            yield from page
            if len(page) < PAGE_SIZE:
                return
            start = page[-1].id


def _prepare_sqlite(env: Mapping[str, str], url: str) -> None:
    """Put a new SQLite file in WAL mode before eventsourcing opens it, waiting for others.

    eventsourcing switches a file to WAL on its first connection, and SQLite answers "database
    is locked" at once, without waiting, when another process is creating or switching the
    same file: two importers starting on a new file would make one of them fail. Switching
    here, retried until the lock timeout, lets them queue instead; WAL mode stays with the
    file, so eventsourcing then finds it set.
    """
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite":
        return
    path = env.get("SQLITE_DBNAME", "")
    timeout = float(env.get("SQLITE_LOCK_TIMEOUT") or 5)
    deadline = time.monotonic() + timeout
    while True:
        try:
            with contextlib.closing(sqlite3.connect(path, timeout=timeout)) as conn:
                if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                    conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as err:
            if "locked" in str(err) and time.monotonic() < deadline:
                time.sleep(_LOCKED_PAUSE)
                continue
            raise StoreError(f"cannot open store {url!r}: {_reason(err)}") from err
        except sqlite3.Error as err:
            raise StoreError(f"cannot open store {url!r}: {_reason(err)}") from err
        return


@contextmanager
def _prepare_postgres(
    env: Mapping[str, str], url: str, *, tables: Sequence[str]
) -> Iterator[dict[str, str]]:
    """Make a PostgreSQL store safe to open while other processes open it; yield the
    environment to construct eventsourcing's recorders with, inside the ``with`` block.

    Fails fast, and says why, when the server cannot be used: eventsourcing's connection pool
    retries for ``POSTGRES_CONNECT_TIMEOUT`` seconds and then reports only that it got no
    connection; one direct attempt names the cause (refused, authentication failed, no such
    database) at once.

    eventsourcing (9.5) creates its tables each time a recorder is constructed: ``CREATE
    TYPE``, ``CREATE TABLE IF NOT EXISTS`` and ``CREATE OR REPLACE FUNCTION``, none of which is
    safe when two processes run them at once ("tuple concurrently updated", a duplicate key in
    ``pg_type``, "relation already exists"), even when everything exists already. So:

    - when ``tables`` (and the stored-event type) exist in the URL's schema, the environment
      says ``CREATE_TABLE=no`` and eventsourcing creates nothing;
    - otherwise a session advisory lock keyed on the schema's name is taken on a short
      connection of its own and held for the whole ``with`` block: the schema is created if
      missing, and the one process that still finds the tables missing lets eventsourcing
      create them while the others wait, then find them and skip creation.

    Outside PostgreSQL the environment is yielded unchanged.
    """
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        yield dict(env)
        return
    import psycopg  # the postgres extra, which settings_from_url found installed

    schema = env.get("POSTGRES_SCHEMA") or "public"
    try:
        conn = psycopg.connect(
            dbname=env.get("POSTGRES_DBNAME", ""),
            host=env.get("POSTGRES_HOST", ""),
            port=env.get("POSTGRES_PORT", ""),
            user=env.get("POSTGRES_USER", ""),
            password=env.get("POSTGRES_PASSWORD", ""),
            connect_timeout=_PROBE_TIMEOUT,
            autocommit=True,
        )
    except psycopg.Error as err:
        raise StoreError(f"cannot open store {url!r}: {_reason(err)}") from err
    with conn:  # closing it releases the advisory lock, whatever happens
        try:
            ready = _pg_tables_exist(conn, schema, tables)
            if not ready:
                _pg_lock_schema(conn, schema)
                _pg_create_schema(conn, schema)
                ready = _pg_tables_exist(conn, schema, tables)
        except psycopg.errors.LockNotAvailable as err:
            raise StoreError(
                f"cannot open store {url!r}: another process has been creating the tables of "
                f"schema {schema!r} for more than {_SCHEMA_LOCK_TIMEOUT} s"
            ) from err
        except psycopg.Error as err:
            raise StoreError(f"cannot open store {url!r}: {_reason(err)}") from err
        if ready:
            conn.close()  # nothing to create: do not hold a connection while opening
        yield {**env, "CREATE_TABLE": "no" if ready else "yes"}


_PG_STORED_EVENT_TYPE = "stored_event_uuid"
"""The composite type eventsourcing creates first (in its own transaction) in the schema."""


def _pg_tables_exist(conn: PgConnection[Any], schema: str, tables: Sequence[str]) -> bool:
    """Whether the stored-event type and every table exist in ``schema``.

    eventsourcing creates the type, then each recorder's table, index and function in one
    transaction: once a table is visible, everything created with it is too.
    """
    row = conn.execute(
        "SELECT to_regtype(%s) IS NOT NULL AND "
        "(SELECT bool_and(to_regclass(name) IS NOT NULL) FROM unnest(%s::text[]) AS name)",
        (
            _pg_qualified(schema, _PG_STORED_EVENT_TYPE),
            [_pg_qualified(schema, table) for table in tables],
        ),
    ).fetchone()
    return bool(row and row[0])


def _pg_lock_schema(conn: PgConnection[Any], schema: str) -> None:
    """Take the session advisory lock that serialises creating ``schema``'s tables (waiting
    at most `_SCHEMA_LOCK_TIMEOUT` seconds: `psycopg.errors.LockNotAvailable` then)."""
    digest = hashlib.blake2b(f"vwlog-schema:{schema}".encode(), digest_size=8).digest()
    key = int.from_bytes(digest, "big", signed=True)
    conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{_SCHEMA_LOCK_TIMEOUT}s",))
    conn.execute("SELECT pg_advisory_lock(%s)", (key,))


def _pg_create_schema(conn: PgConnection[Any], schema: str) -> None:
    """Create ``schema`` if it is missing (eventsourcing creates its tables, not the schema
    they go in); called under the schema's advisory lock, so never by two processes at once."""
    from psycopg import sql

    exists = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
    if exists is None:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))


def _pg_qualified(schema: str, name: str) -> str:
    """``"schema"."name"``, quoted for to_regclass/to_regtype."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in (schema, name))


def _check_lines(
    match_id: str, lines: Sequence[tuple[bytes, EventRecord]], *, after: int, root: str | None
) -> str:
    """Check records are numbered ``after + 1``, … and carry hashes; return the head hash."""
    head = root
    for index, (_line, record) in enumerate(lines, start=after + 1):
        if record.seq != index:
            raise UsageError(
                f"record {index - after} for match {match_id!r} has seq {record.seq}, expected "
                f"{index}: records are stored in order, numbered without gaps"
            )
        head = record.hash
        if head is None:
            raise UsageError(
                f"record {record.seq} for match {match_id!r} has no hash: seal the records "
                "(vwlog.io.codec.seal) before storing them"
            )
    if head is None:
        raise UsageError(f"the header of match {match_id!r} has no hash: seal it first")
    return head


def _check_meta(meta: MatchMeta, match_id: str, *, events: int, head_hash: str) -> None:
    if meta.match_id != match_id:
        raise UsageError(f"metadata of match {meta.match_id!r} given for match {match_id!r}")
    if (meta.events, meta.head_hash) != (events, head_hash):
        raise UsageError(
            f"metadata of match {match_id!r} says {meta.events} events ending in "
            f"{meta.head_hash[:12]}, the records say {events} ending in {head_hash[:12]}"
        )


def _keep_seal(meta: MatchMeta, current: MatchMeta) -> MatchMeta:
    """``meta``, keeping where the chain's seal came from when it does not say: records
    appended later are sealed by vwlog, but the prefix was sealed as it was."""
    if meta.seal is None and current.seal is not None:
        return meta.model_copy(update={"seal": current.seal})
    return meta


def _compare(match_id: MatchId, stored: Head, head_hash: str) -> ImportOutcome:
    if stored.hash != head_hash:
        raise MatchExistsError(match_id, stored.hash, head_hash)
    return ImportOutcome.UNCHANGED


def _first_seq(found: Sequence[StoredEvent]) -> int:
    return found[0].originator_version if found else 1


def _uuid(originator_id: UUID | str) -> UUID:
    return originator_id if isinstance(originator_id, UUID) else UUID(originator_id)


def _reason(err: BaseException) -> str:
    """The error's message on one line (a database error may add ``DETAIL:`` and ``HINT:``
    lines), or its type's name if it has none."""
    return " ".join(str(err).split()) or type(err).__name__


__all__ = ["PAGE_SIZE", "MatchStore"]
