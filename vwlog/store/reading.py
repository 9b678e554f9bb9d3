"""The reading half of the match store (`MatchStore` adds writing): opening and closing, reading
matches, catalog entries and snapshots, and following the notification log for read models."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Self
from uuid import UUID

from eventsourcing.domain import EventSourcingError
from eventsourcing.persistence import (
    ApplicationRecorder,
    InfrastructureFactoryError,
    IntegrityError,
    Notification,
    StoredEvent,
)

from vwlog.model.errors import (
    MatchNotFoundError,
    StoreConfigError,
    StoreError,
)
from vwlog.model.ids import MatchId
from vwlog.model.resources import Closing
from vwlog.store.browse import create_views
from vwlog.store.catalog import CatalogChange, Head, MatchMeta
from vwlog.store.mapping import (
    CATALOG_TOPICS,
    REGISTERED_TOPIC,
    catalog_uuid,
    match_uuid,
)
from vwlog.store.settings import redact, settings_from_url

if TYPE_CHECKING:
    from vwlog.events import EventRecord, LogHeader
    from vwlog.store.statsview import StatsViewStore

from vwlog.store.backends import (
    PAGE_SIZE,
    TABLES,
    VwlogApplication,
    as_uuid,
    prepare_postgres,
    prepare_sqlite,
    reason,
)

_VIEW_OPENING = threading.Lock()
"""Held while a store opens its statistics view (`MatchReader.stats_view`)."""


REGISTRATIONS_KEPT = 4096
"""At most this many matches' registrations are kept in a store object (then it starts
afresh)."""


class MatchReader(Closing):
    """The reading half of `MatchStore`: opening and closing a store, reading matches, their
    catalog entries and snapshots, and following the store for read models."""

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
        prepare_sqlite(env, self.url)
        try:
            with prepare_postgres(env, self.url, tables=TABLES) as app_env:
                self._app = VwlogApplication(env=app_env)
        except (OSError, InfrastructureFactoryError) as err:
            raise StoreConfigError(self.url, reason(err)) from err
        except (EventSourcingError, sqlite3.Error) as err:
            # eventsourcing lets sqlite3's errors through while it sets the journal mode.
            raise StoreError(f"cannot open store {self.url!r}: {reason(err)}") from err
        try:
            create_views(env)
        except sqlite3.Error as err:
            self._app.close()
            raise StoreError(f"cannot open store {self.url!r}: {reason(err)}") from err
        self._mapper = self._app.record_mapper
        self._recorder: ApplicationRecorder = self._app.recorder
        self._snapshots = self._app.snapshot_recorder
        self._registrations: dict[str, StoredEvent] = {}
        """Each match's first catalog entry, once read: a stored event never changes (every
        write appends, and a rolled-back import was never visible), so the registration a
        match was imported with is read from the database once per store (the service asks
        for it on every request)."""
        self._headers: dict[str, tuple[StoredEvent, LogHeader]] = {}
        """The header each kept registration holds, read once."""

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

    def __repr__(self) -> str:
        return f"MatchStore({self.url!r})"

    # Reading

    def __contains__(self, match_id: object) -> bool:
        return isinstance(match_id, str) and self._catalog_first(match_id) is not None

    def header(self, match_id: str) -> LogHeader:
        """The header the match was imported with.

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed or the catalog entry is unreadable.
        """
        stored = self._require(match_id)
        kept = self._headers.get(match_id)
        if kept is not None and kept[0] is stored:
            return kept[1]
        header = self._mapper.registration(stored)[0]
        self._headers[match_id] = (stored, header)
        return header

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
        game = self._game(match_id)
        return (record(stored, game) for stored in self._rows(match_id, gt, lte))

    def lines(
        self, match_id: str, *, gt: int = 0, lte: int | None = None
    ) -> Iterator[tuple[bytes, EventRecord]]:
        """The stored lines with their parsed records (the shape `import_match` takes).

        Raises:
            MatchNotFoundError: No match has this id (raised at once, not when iterating).
            StoreError: The database failed or a stored record is unreadable.
        """
        mapper = self._mapper
        game = self._game(match_id)
        return ((mapper.line(s), mapper.record(s, game)) for s in self._rows(match_id, gt, lte))

    def _game(self, match_id: str) -> str | None:
        """The game of a stored match, as its header names it (``None``: Vandaria Wars)."""
        return self.header(match_id).game

    def nearest_snapshot(
        self, match_id: str, seq: int, *, vouched: bool = False
    ) -> tuple[int, bytes] | None:
        """The newest snapshot taken at or before ``seq``, as ``(its seq, its bytes)``.

        One indexed lookup, however long the match and however many snapshots it has. With
        ``vouched``, ``None`` unless that snapshot's tag holds under this installation's key
        (`vwlog.store.localkey`): a snapshot written or altered by anyone else is not given
        to a reader that will show what it holds.

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed.
        """
        with self._translated():
            found = self._snapshots.select_events(match_uuid(match_id), lte=seq, desc=True, limit=1)
        if found:
            data, holds = self._mapper.snapshot_vouched(found[0])
            if vouched and not holds:
                return None
            return found[0].originator_version, data
        self._require(match_id)
        return None

    def next_snapshot(
        self, match_id: str, seq: int, *, vouched: bool = False
    ) -> tuple[int, bytes] | None:
        """The first snapshot taken after ``seq``, as ``(its seq, its bytes)``; with
        ``vouched``, ``None`` unless its tag holds (as `nearest_snapshot`).

        Raises:
            StoreError: The database failed.
        """
        with self._translated():
            found = self._snapshots.select_events(match_uuid(match_id), gt=seq, limit=1)
        if not found:
            return None
        data, holds = self._mapper.snapshot_vouched(found[0])
        if vouched and not holds:
            return None
        return found[0].originator_version, data

    def snapshots(self, match_id: str) -> Iterator[tuple[int, bytes]]:
        """Every snapshot of the match, as ``(the seq it was taken after, its bytes)``, in seq
        order (for checking them against the records).

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed.
        """
        return ((seq, data) for seq, data, _ in self.snapshots_vouched(match_id))

    def snapshots_vouched(self, match_id: str) -> Iterator[tuple[int, bytes, bool]]:
        """`snapshots`, each with whether its tag holds under this installation's key.

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
                data, holds = self._mapper.snapshot_vouched(stored)
                yield stored.originator_version, data, holds
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
        return [meta for meta, _ in self.list_vouched(upto=upto)]

    def list_vouched(self, *, upto: int | None = None) -> list[tuple[MatchMeta, bool]]:
        """`list_matches`, each entry with whether it is vouched for (`vouched`).

        Raises:
            StoreError: The database failed or a catalog entry is unreadable.
        """
        latest: dict[str, tuple[MatchMeta, bool]] = {}
        for notification in self._notifications(CATALOG_TOPICS, upto=upto):
            meta, holds = self._mapper.meta_vouched(notification)
            latest[meta.match_id] = (meta, holds)
        return list(latest.values())

    def vouched(self, match_id: str) -> bool:
        """Whether the match's current catalog entry is as this installation wrote it: its
        tag holds under this installation's key (`vwlog.store.localkey`), so that none of its
        fields — the facts of its import (``seal``, ``source_sha256``, the verdict) included,
        which its records cannot give again — was altered in the database since.

        Raises:
            MatchNotFoundError: No match has this id.
            StoreError: The database failed or the catalog entry is unreadable.
        """
        found = self._select(catalog_uuid(match_id), desc=True, limit=1)
        if not found:
            raise MatchNotFoundError(match_id)
        return self._mapper.meta_vouched(found[0])[1]

    def vouched_facts(self, match_id: str) -> MatchMeta | None:
        """The newest catalog entry of the match whose facts of the import
        (`vwlog.store.catalog.IMPORT_FACTS`) are as this installation wrote them, or ``None``:
        the facts a replacement entry may carry over.

        Raises:
            StoreError: The database failed or a catalog entry is unreadable.
        """
        oid = catalog_uuid(match_id)
        before: int | None = None
        size = 1  # the newest entry first: usually it is the one
        while True:
            page = self._select(oid, lte=before, desc=True, limit=size)
            for stored in page:
                meta = self._mapper.facts_vouched(stored)
                if meta is not None:
                    return meta
            if len(page) < size:
                return None
            before, size = page[-1].originator_version - 1, PAGE_SIZE

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
                    as_uuid(notification.originator_id),
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
        return f"{as_uuid(entry.originator_id)}:{entry.originator_version}:{digest}"

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
        with _VIEW_OPENING:  # two threads opening it at once would both create its tables
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
            raise StoreError(f"{self.url}: {reason(err)}") from err

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
        kept = self._registrations.get(match_id)
        if kept is not None:
            return kept
        found = self._select(catalog_uuid(match_id), limit=1)
        if not found:
            return None
        if len(self._registrations) >= REGISTRATIONS_KEPT:
            self._registrations.clear()
            self._headers.clear()
        self._registrations[match_id] = found[0]
        return found[0]

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


__all__ = ["PAGE_SIZE", "MatchReader"]
