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

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from time import monotonic
from typing import TYPE_CHECKING
from uuid import UUID, uuid5

from eventsourcing.persistence import (
    IntegrityError,
    StoredEvent,
)

from vwlog.model.errors import (
    MatchExistsError,
    SequenceConflictError,
    StoredSeqOutOfRangeError,
    StoreError,
    UsageError,
)
from vwlog.model.ids import MatchId
from vwlog.model.text import msg
from vwlog.store.catalog import (
    IMPORT_FACTS,
    Head,
    ImportOutcome,
    MatchMeta,
    check_new_match_id,
)
from vwlog.store.mapping import (
    match_uuid,
)

if TYPE_CHECKING:
    from vwlog.events.base import LogHeader, Record

from vwlog.store.backends import PAGE_SIZE
from vwlog.store.checks import appended_head, check_lines, check_meta
from vwlog.store.reading import MatchReader
from vwlog.store.transaction import Transaction, one_transaction

_WRITE_ATTEMPTS = 5
"""How often a write is retried when only the catalog (metadata) moved underneath it."""


_IDLE_WRITE = 0.5
"""Seconds a streamed import may spend reading before it writes what it has: PostgreSQL ends
a transaction that stays idle for longer than its ``idle_in_transaction_session_timeout``
(eventsourcing sets 5 s), which a slow reader (a loaded machine, a slow disk or pipe) could
otherwise reach before a page of `PAGE_SIZE` rows is full."""

_PAGE_BYTES = 1 << 20
"""Bytes of snapshots written per statement by a streamed import. A snapshot is a whole board
(tens of kilobytes late in a long match): a page of `PAGE_SIZE` of them would hold tens of
megabytes, and PostgreSQL's driver builds the statement's parameters as text besides."""

_PUBLISHED_NAMESPACE = UUID("0b0f6c39-8a57-4a8f-9f0e-3c1d7e2b5a61")
"""Namespace of the uuid5 that names a published pool's or ruleset's stream."""


class MatchStore(MatchReader):
    """Stored matches: records byte for byte, a catalog of metadata, and snapshots.

    Open one with `MatchStore.open` and close it (``with`` does) when done; a PostgreSQL store
    holds a connection pool. A store may be shared by threads; several processes may use one
    SQLite file or PostgreSQL database at once (writers wait for each other).

    Example:
        >>> with MatchStore.open("memory:") as store:
        ...     store.match_ids()
        []
    """

    # Writing

    # Published card pools and rulesets (organisers' errata)

    def publish(self, kind: str, item_id: str, data: bytes) -> bool:
        """Keep a published definition (``kind`` ``pool`` or ``ruleset``) under its id, for
        good: an id once published never changes its bytes.

        Returns:
            ``True`` when stored, ``False`` when the same bytes were already stored.

        Raises:
            UsageError: Other bytes are published under that id already (nothing is written).
            StoreError: The database failed; nothing was written.
        """
        oid = uuid5(_PUBLISHED_NAMESPACE, f"{kind}:{item_id}")
        stored = StoredEvent(
            originator_id=oid,
            originator_version=1,
            topic=f"vwlog-store:{kind}_published:v1",
            state=self._mapper._protect(data),
        )
        try:
            self._insert([stored])
        except IntegrityError:
            found = self._select(oid, limit=1)
            if found and self._mapper._unprotect(found[0]) == data:
                return False
            raise UsageError(
                msg(
                    "a {kind} is already published as {item_id} with other content; publish the "
                    "errata under a new id (for example with a new @version)",
                    kind=kind,
                    item_id=repr(item_id),
                )
            ) from None
        return True

    def published(self, kind: str) -> list[bytes]:
        """Every definition of ``kind`` published into this store, in publishing order.

        Raises:
            StoreError: The database failed.
        """
        topic = f"vwlog-store:{kind}_published:v1"
        return [self._mapper._unprotect(n) for n in self._notifications((topic,))]

    def import_match(
        self,
        header: LogHeader,
        lines: Sequence[tuple[bytes, Record]],
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
            LogFormatError: A new match's id is not one a new match may have
                (`check_new_match_id`); nothing was written.
            SequenceConflictError: The match's stream already holds records that the catalog
                does not know (a damaged store); nothing was written.
            StoreError: The database failed; nothing was written.
        """
        match_id = MatchId(header.match_id)
        head_hash = check_lines(match_id, lines, after=0, root=header.hash)
        check_meta(meta, match_id, events=len(lines), head_hash=head_hash)
        stored = self._stored_head(match_id)
        if stored is not None:
            return _compare(match_id, stored, head_hash)
        check_new_match_id(match_id)
        oid = match_uuid(match_id)
        mapper = self._mapper
        events = [mapper.stored_registration(match_id, header, meta)]
        events.extend(
            mapper.stored_record(oid, line, record, header.game) for line, record in lines
        )
        try:
            self._insert(events)
        except IntegrityError as err:
            return self._after_conflict(match_id, oid, head_hash, err)
        return ImportOutcome.STORED

    def import_stream(
        self,
        header: LogHeader,
        lines: Iterable[tuple[bytes, Record]],
        meta: MatchMeta,
        snapshots: Iterable[tuple[int, bytes]] = (),
    ) -> ImportOutcome:
        """Store a whole match, its registration and its snapshots in one transaction,
        consuming ``lines`` and ``snapshots`` once and holding neither whole: what
        `import_match` does, in memory that does not grow with the match.

        ``meta`` (computed in an earlier pass over the same records) must describe them:
        if the lines end elsewhere, or a snapshot names a seq past them, nothing is stored.
        An exception raised by either iterable also stores nothing. On SQLite and PostgreSQL
        the rows are written in pages of `PAGE_SIZE` inside one transaction
        (`vwlog.store.transaction`); a store in memory adds them at the end.

        Raises:
            UsageError: As `import_match`.
            LogFormatError: As `import_match`.
            StoredSeqOutOfRangeError: A snapshot's seq is not a position of the match.
            MatchExistsError: A match with this id but a different head hash is stored.
            SequenceConflictError: The match's stream already holds records that the catalog
                does not know (a damaged store); nothing was written.
            StoreError: The database failed; nothing was written.
        """
        match_id = MatchId(header.match_id)
        if header.hash is None:
            raise UsageError(
                msg(
                    "the header of match {match_id} has no hash: seal it first",
                    match_id=repr(match_id),
                )
            )
        stored = self._stored_head(match_id)
        if stored is not None:
            return _compare(match_id, stored, meta.head_hash)
        check_new_match_id(match_id)
        oid = match_uuid(match_id)
        mapper = self._mapper
        try:
            with self._translated(), self._transaction() as write:
                write.records([mapper.stored_registration(match_id, header, meta)])
                page: list[StoredEvent] = []
                head_seq, head_hash = 0, header.hash
                written = monotonic()
                for line, record in lines:
                    head_seq += 1
                    if record.seq != head_seq or record.hash is None:
                        check_lines(match_id, [(line, record)], after=head_seq - 1, root=None)
                    head_hash = record.hash or ""
                    page.append(mapper.stored_record(oid, line, record, header.game))
                    if len(page) == PAGE_SIZE or monotonic() - written > _IDLE_WRITE:
                        write.records(page)
                        page, written = [], monotonic()
                write.records(page)
                check_meta(meta, match_id, events=head_seq, head_hash=head_hash)
                page, size = [], 0
                for seq, data in snapshots:
                    if not 1 <= seq <= head_seq:
                        raise StoredSeqOutOfRangeError(match_id, seq, head_seq)
                    page.append(mapper.stored_snapshot(match_id, seq, data))
                    size += len(data)
                    if size > _PAGE_BYTES or monotonic() - written > _IDLE_WRITE:
                        write.snapshots(page)
                        page, size, written = [], 0, monotonic()
                write.snapshots(page)
        except IntegrityError as err:
            return self._after_conflict(match_id, oid, meta.head_hash, err)
        return ImportOutcome.STORED

    def _after_conflict(
        self, match_id: MatchId, oid: UUID, head_hash: str, err: IntegrityError
    ) -> ImportOutcome:
        """After an insert conflict: another importer got there first (the same record, or
        another: `MatchExistsError`), or the stream collides with stored rows of no complete
        match (`SequenceConflictError`)."""
        stored = self._stored_head(match_id)
        if stored is None:
            first = self._select(oid, limit=1)
            raise SequenceConflictError(match_id, _first_seq(first)) from err
        if stored.hash != head_hash:
            raise MatchExistsError(match_id, stored.hash, head_hash) from err
        return ImportOutcome.UNCHANGED

    def append(
        self,
        match_id: str,
        lines: Sequence[tuple[bytes, Record]],
        *,
        expected_seq: int,
        meta: MatchMeta | None = None,
        snapshots: Sequence[tuple[int, bytes]] = (),
    ) -> Head:
        """Append records to a stored match, optimistically: only if it still ends at
        ``expected_seq``.

        Of two writers appending at the same position, one wins and the other gets
        `SequenceConflictError`; nothing of the loser is written. With ``meta``, the match's
        metadata is replaced in the same transaction; so are ``snapshots`` (``(seq, data)``
        pairs, each seq one of the appended records') kept.

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
            StoredSeqOutOfRangeError: A snapshot's seq is not one of the appended records'.
            StoreError: The database failed; nothing was written.
        """
        match_id = MatchId(match_id)
        new_head = appended_head(match_id, lines, expected_seq, meta, snapshots)
        oid = match_uuid(match_id)
        game = self._game(match_id)
        records = [self._mapper.stored_record(oid, line, record, game) for line, record in lines]
        snaps = [self._mapper.stored_snapshot(match_id, seq, data) for seq, data in snapshots]
        for _ in range(_WRITE_ATTEMPTS):
            catalog_version, _meta = self._catalog_head(match_id)
            self._check_ends_at(match_id, oid, expected_seq)
            events = list(records)
            if meta is not None:
                meta = _keep_seal(meta, _meta)
                events.append(
                    self._mapper.stored_meta(
                        match_id, catalog_version + 1, meta, vouch=self._may_vouch(match_id, meta)
                    )
                )
            try:
                self._write_appended(events, snaps)
            except IntegrityError as err:
                if self._head_seq(oid) != expected_seq:
                    raise SequenceConflictError(match_id, expected_seq + 1) from err
                continue  # only the metadata moved (update_meta meanwhile): try again
            return new_head
        raise StoreError(f"the metadata of match {match_id!r} keeps changing: try again later")

    def _check_ends_at(self, match_id: MatchId, oid: UUID, expected_seq: int) -> None:
        """That the stored match still ends at ``expected_seq``, as `append` requires: one that
        ends past it was appended to by another writer (`SequenceConflictError`); one that ends
        before it is a caller's mistake (`UsageError`)."""
        head_seq = self._head_seq(oid)
        if head_seq > expected_seq:
            raise SequenceConflictError(match_id, expected_seq + 1)
        if head_seq < expected_seq:
            raise UsageError(
                msg(
                    "match {match_id} ends at seq {head_seq}: cannot append after seq "
                    "{expected_seq}",
                    match_id=repr(match_id),
                    head_seq=head_seq,
                    expected_seq=expected_seq,
                )
            )

    def _write_appended(self, events: list[StoredEvent], snaps: list[StoredEvent]) -> None:
        """Write an append's stored events, with its snapshots if any, in one transaction.

        Raises:
            IntegrityError: another writer took one of the positions first.
        """
        if snaps:
            with self._translated(), self._transaction() as write:
                write.records(events)
                write.snapshots(snaps)
        else:
            self._insert(events)

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
            vouch = self._may_vouch(match_id, meta)
            try:
                self._insert(
                    [self._mapper.stored_meta(match_id, catalog_version + 1, meta, vouch=vouch)]
                )
            except IntegrityError:
                continue  # another update won the race: check against its state and retry
            return
        raise StoreError(f"the metadata of match {match_id!r} keeps changing: try again later")

    def _may_vouch(self, match_id: MatchId, meta: MatchMeta) -> bool:
        """Whether a replacement catalog entry may be tagged as this installation's: the facts
        of the import it carries over (which its records cannot give again) must be those of
        an entry this installation vouched for; otherwise it is stored untagged, and flagged
        wherever it is shown, rather than laundering facts altered in the database."""
        vouched = self.vouched_facts(match_id)
        return vouched is not None and _import_facts(vouched) == _import_facts(meta)

    def _positions(self, match_id: str, seqs: Iterable[int]) -> MatchId:
        """``match_id``, once each of ``seqs`` is found a position of the match (1 to its head).

        Raises:
            MatchNotFoundError: No match has this id.
            StoredSeqOutOfRangeError: A seq is not a position of the match.
        """
        match_id = MatchId(match_id)
        head = self.head(match_id)
        for seq in seqs:
            if not 1 <= seq <= head.seq:
                raise StoredSeqOutOfRangeError(match_id, seq, head.seq)
        return match_id

    def save_snapshot(self, match_id: str, seq: int, data: bytes) -> bool:
        """Keep a snapshot (opaque bytes) of what the caller derived from records 1..``seq``.

        A snapshot saved on its own is a cache written after the records' transaction (an
        import or an append keeps its snapshots in its own transaction instead). One seq
        holds one snapshot, replaced only by `replace_snapshots`; put a format version inside
        ``data`` if its meaning may change.

        Returns:
            Whether it was stored (``False``: a snapshot at this seq already exists).

        Raises:
            MatchNotFoundError: No match has this id.
            StoredSeqOutOfRangeError: ``seq`` is not a position of the match (1 to its head).
            StoreError: The database failed.
        """
        match_id = self._positions(match_id, (seq,))
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
            StoredSeqOutOfRangeError: A seq is not a position of the match (1 to its head).
            StoreError: The database failed.
        """
        if not snapshots:
            return 0
        match_id = self._positions(match_id, (seq for seq, _data in snapshots))
        stored = [self._mapper.stored_snapshot(match_id, seq, data) for seq, data in snapshots]
        try:
            with self._translated():
                self._snapshots.insert_events(stored)
        except IntegrityError:
            return sum(self.save_snapshot(match_id, seq, data) for seq, data in snapshots)
        return len(stored)

    def replace_snapshots(self, match_id: str, snapshots: Sequence[tuple[int, bytes]]) -> int:
        """Write snapshots (``(seq, data)`` pairs) of one match in one transaction, replacing
        any stored at those seqs: for rebuilding snapshots that are missing, unreadable or
        disagree with the records.

        Returns:
            How many were written.

        Raises:
            MatchNotFoundError: No match has this id.
            StoredSeqOutOfRangeError: A seq is not a position of the match (1 to its head).
            StoreError: The database failed; nothing was written.
        """
        if not snapshots:
            return 0
        match_id = self._positions(match_id, (seq for seq, _data in snapshots))
        oid = match_uuid(match_id)
        seqs = sorted({seq for seq, _data in snapshots})
        latest = dict(snapshots)
        stored = [self._mapper.stored_snapshot(match_id, seq, latest[seq]) for seq in seqs]
        try:
            with self._translated(), self._transaction() as write:
                write.drop_snapshots(oid, seqs)
                write.snapshots(stored)
        except IntegrityError as err:  # another writer wrote one of them meanwhile
            raise StoreError(
                f"the snapshots of match {match_id!r} changed while they were rebuilt: try again"
            ) from err
        return len(stored)

    def _transaction(self) -> AbstractContextManager[Transaction]:
        """One transaction over the events and snapshots tables (`vwlog.store.transaction`)."""
        return one_transaction(self._recorder, self._snapshots)


def _import_facts(meta: MatchMeta) -> tuple[object, ...]:
    return tuple(getattr(meta, name) for name in IMPORT_FACTS)


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


__all__ = ["MatchStore"]
