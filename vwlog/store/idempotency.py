"""Idempotency keys of the service's appends, stored beside the matches.

A client that may send an append twice (a retry after a lost answer) names it with a key. The
first request with a key reserves it (`IdempotencyStore.reserve`) with a fingerprint of what it
asks; once the append is stored its answer is kept under the key (`complete`), and a request
that fails gives the key back (`release`). A later request with the same key and the same
fingerprint gets the kept answer and appends nothing; another fingerprint is refused. The keys
live in their own small table (``vwlog_idempotency``) in the store's database, so that every
worker process of the service sees them: the SQLite file of the store, or the store's
PostgreSQL schema; a store in memory keeps them in memory. Knows nothing of HTTP or of the
rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from vwlog.store.sidetable import SideTable

IDEMPOTENCY_TABLE = "vwlog_idempotency"
"""The table that holds the keys."""


class KeyState(StrEnum):
    """What a key holds when a request names it."""

    NEW = "new"
    """Not used before: it is now reserved for this request."""
    DONE = "done"
    """Used by a request with the same fingerprint, whose answer is kept."""
    PENDING = "pending"
    """Reserved by a request with the same fingerprint that has not finished (or never will:
    its process stopped between appending and keeping its answer)."""
    OTHER = "other"
    """Used by a request with another fingerprint."""


@dataclass(frozen=True, slots=True)
class Reservation:
    """The answer of `IdempotencyStore.reserve`."""

    state: KeyState
    answer: str | None = None
    """For `KeyState.DONE`: the answer kept."""
    status: int | None = None
    """For `KeyState.DONE`: its HTTP status."""


class IdempotencyStore(SideTable):
    """The idempotency keys of one store.

    Example:
        >>> with IdempotencyStore.open("memory:") as keys:
        ...     first = keys.reserve("m1", "k1", "f1").state
        ...     keys.complete("m1", "k1", '{"head_seq": 3}', 200)
        ...     again = keys.reserve("m1", "k1", "f1")
        ...     other = keys.reserve("m1", "k1", "f2").state
        >>> str(first), str(again.state), again.answer, str(other)
        ('new', 'done', '{"head_seq": 3}', 'other')
    """

    TABLE = IDEMPOTENCY_TABLE
    COLUMNS = (
        "match_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, "
        "answer TEXT, status INTEGER, created TEXT NOT NULL, "
        "PRIMARY KEY (match_id, key)"
    )
    WHAT = "idempotency keys"
    LOCK = 7315403

    _memory: dict[tuple[str, str], tuple[str, str | None, int | None]]
    """A store in memory's keys: (match id, key) to (fingerprint, answer, status)."""

    # -- operations ---------------------------------------------------------------------------

    def reserve(self, match_id: str, key: str, fingerprint: str) -> Reservation:
        """Reserve ``key`` of ``match_id`` for a request with ``fingerprint``, or say what it
        holds already. Of two requests reserving the same new key at once, one gets
        `KeyState.NEW` and the other `KeyState.PENDING` (or `KeyState.OTHER`).

        Raises:
            StoreError: the database failed.
        """
        if self._in_memory:
            with self._lock:
                found = self._memory.get((match_id, key))
                if found is None:
                    self._memory[(match_id, key)] = (fingerprint, None, None)
                    return Reservation(KeyState.NEW)
            return _reservation(found, fingerprint)
        created = datetime.now(UTC).isoformat(timespec="seconds")
        with self._cursor() as cur:
            cur.execute(
                f"INSERT INTO {self._table} (match_id, key, fingerprint, created) "
                f"VALUES ({self._marks(4)}) ON CONFLICT (match_id, key) DO NOTHING",
                (match_id, key, fingerprint, created),
            )
            if cur.rowcount == 1:
                return Reservation(KeyState.NEW)
            cur.execute(
                f"SELECT fingerprint, answer, status FROM {self._table} "
                f"WHERE match_id = {self._mark} AND key = {self._mark}",
                (match_id, key),
            )
            row = cur.fetchone()
        if row is None:  # released between the two statements: the caller may try again
            return Reservation(KeyState.PENDING)
        return _reservation((row[0], row[1], row[2]), fingerprint)

    def complete(self, match_id: str, key: str, answer: str, status: int) -> None:
        """Keep the answer of the request that reserved ``key``.

        Raises:
            StoreError: the database failed.
        """
        if self._in_memory:
            with self._lock:
                fingerprint = self._memory[(match_id, key)][0]
                self._memory[(match_id, key)] = (fingerprint, answer, status)
            return
        with self._cursor() as cur:
            cur.execute(
                f"UPDATE {self._table} SET answer = {self._mark}, status = {self._mark} "
                f"WHERE match_id = {self._mark} AND key = {self._mark}",
                (answer, status, match_id, key),
            )

    def release(self, match_id: str, key: str) -> None:
        """Give back a key whose request stored nothing (it was refused), so that the same
        request may be sent again.

        Raises:
            StoreError: the database failed.
        """
        if self._in_memory:
            with self._lock:
                self._memory.pop((match_id, key), None)
            return
        with self._cursor() as cur:
            cur.execute(
                f"DELETE FROM {self._table} WHERE match_id = {self._mark} AND key = {self._mark} "
                "AND answer IS NULL",
                (match_id, key),
            )


def _reservation(found: tuple[str, str | None, int | None], fingerprint: str) -> Reservation:
    kept, answer, status = found
    if kept != fingerprint:
        return Reservation(KeyState.OTHER)
    if answer is None:
        return Reservation(KeyState.PENDING)
    return Reservation(KeyState.DONE, answer, status)


__all__ = ["IDEMPOTENCY_TABLE", "IdempotencyStore", "KeyState", "Reservation"]
