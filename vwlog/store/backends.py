"""The backends of the match store: the eventsourcing application, and preparing a SQLite file
or a PostgreSQL schema before eventsourcing opens it (shared with `vwlog.store.statsview`)."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import (
    AggregateRecorder,
    ConnectionUnavailableError,
    InfrastructureFactory,
)
from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import Environment
from typing_extensions import override

from vwlog.model.errors import (
    StoreError,
)
from vwlog.store.localkey import local_key
from vwlog.store.mapping import (
    OrjsonTranscoder,
    RecordMapper,
)

if TYPE_CHECKING:
    from eventsourcing.persistence import Mapper
    from psycopg import Connection as PgConnection


PAGE_SIZE = 1000
"""Stored events read per query when streaming a match or the catalog."""
_PROBE_TIMEOUT = 5
"""Seconds to wait for a first PostgreSQL connection when opening a store."""
_SCHEMA_LOCK_TIMEOUT = 60
"""Seconds to wait for another process that is creating a PostgreSQL store's tables."""
_LOCKED_PAUSE = 0.02
"""Seconds between attempts to put a new SQLite file in WAL mode while another process is."""


APPLICATION = "vwlog"
TABLES = (f"{APPLICATION}_events", f"{APPLICATION}_snapshots")
"""The application's PostgreSQL tables (eventsourcing names them after the application)."""


_BATCHED_SQLITE_RECORDER = "vwlog.store.recorder:BatchedSQLiteApplicationRecorder"
"""The recorder that inserts a whole match per ``executemany`` on SQLite."""
SQLITE_CONNECTIONS = 64
"""Most SQLite connections one store opens at once (eventsourcing keeps 5 open plus 10 more).

A connection is used for one statement or transaction at a time; a service answers from a
pool of 40 threads, and in WAL mode readers never wait for each other or for the writer, so
every thread that reads gets a connection of its own instead of queueing for one."""


class VwlogApplication(Application[UUID]):
    """The eventsourcing application behind `MatchStore`; nothing outside this module sees it."""

    name = APPLICATION
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
    def construct_factory(self, env: Environment) -> InfrastructureFactory[Any]:
        factory = super().construct_factory(env)
        if isinstance(factory, SQLiteFactory):
            _sqlite_pool(factory, env)
        return factory

    @override
    def construct_mapper(self) -> Mapper[UUID]:
        mapper = RecordMapper(
            transcoder=OrjsonTranscoder(),
            compressor=self.factory.compressor(),
            cipher=self.factory.cipher(),
        )
        mapper.key = local_key()  # tags catalog entries and snapshots (vwlog.store.localkey)
        return mapper

    @property
    def record_mapper(self) -> RecordMapper:
        assert isinstance(self.mapper, RecordMapper)
        return self.mapper

    @property
    def snapshot_recorder(self) -> AggregateRecorder:
        assert self.snapshots is not None, "IS_SNAPSHOTTING_ENABLED is set in env"
        return self.snapshots.recorder


class _SQLitePool(SQLiteConnectionPool):
    """eventsourcing's SQLite pool, where a writer waits for the process's other writer
    before it joins the pool's queue, for as long as SQLite lets it wait for another process's.

    eventsourcing's pool hands out every connection, readers' included, through one queue, and
    a writer waits in it for the process's one writer: while a write transaction lasts (a long
    upload is one), every reader queues behind the next writer, though in WAL mode readers never
    wait for a writer. And it gives up after a fixed 5 s, whatever ``SQLITE_LOCK_TIMEOUT`` says:
    under concurrent appends on a busy machine the queue alone passed 5 s, and appends and
    reads failed ("Timed out waiting for connection pool semaphore", a 503 from the service).
    """

    def __init__(self, *, db_name: str, lock_timeout: int | None, pool_timeout: float) -> None:
        super().__init__(
            db_name=db_name,
            lock_timeout=lock_timeout,
            max_overflow=SQLITE_CONNECTIONS - 5,
            pool_timeout=pool_timeout,
        )
        self._writer_turn = threading.Lock()

    @override
    def get_connection(
        self, timeout: float | None = None, *, is_writer: bool | None = None
    ) -> SQLiteConnection:
        if is_writer is not True or self.is_sqlite_memory_mode:
            return super().get_connection(timeout, is_writer=is_writer)
        if not self._writer_turn.acquire(timeout=self.pool_timeout if timeout is None else timeout):
            raise ConnectionUnavailableError("Timed out waiting for return of writer")
        try:
            return super().get_connection(timeout, is_writer=True)
        except BaseException:
            self._writer_turn.release()
            raise

    @override
    def put_connection(self, conn: SQLiteConnection) -> None:
        turn = conn.is_writer is True and not self.is_sqlite_memory_mode
        try:
            super().put_connection(conn)
        finally:
            if turn:
                self._writer_turn.release()


def _sqlite_pool(factory: SQLiteFactory, env: Mapping[str, str]) -> None:
    """Give ``factory``'s datastore a `_SQLitePool` (before it opened any connection)."""
    old = factory.datastore.pool
    timeout = float(env.get("SQLITE_LOCK_TIMEOUT") or old.pool_timeout)
    factory.datastore.pool = _SQLitePool(
        db_name=old.db_name, lock_timeout=old.lock_timeout, pool_timeout=timeout
    )
    old.close()


def prepare_sqlite(env: Mapping[str, str], url: str) -> None:
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
            raise StoreError(f"cannot open store {url!r}: {reason(err)}") from err
        except sqlite3.Error as err:
            raise StoreError(f"cannot open store {url!r}: {reason(err)}") from err
        return


@contextmanager
def prepare_postgres(
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
        raise StoreError(f"cannot open store {url!r}: {reason(err)}") from err
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
            raise StoreError(f"cannot open store {url!r}: {reason(err)}") from err
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


def reason(err: BaseException) -> str:
    """The error's message on one line (a database error may add ``DETAIL:`` and ``HINT:``
    lines), or its type's name if it has none."""
    return " ".join(str(err).split()) or type(err).__name__


def as_uuid(originator_id: UUID | str) -> UUID:
    """An originator id as a `UUID` (backends give either)."""
    return originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))


__all__ = [
    "APPLICATION",
    "PAGE_SIZE",
    "SQLITE_CONNECTIONS",
    "TABLES",
    "VwlogApplication",
    "as_uuid",
    "prepare_postgres",
    "prepare_sqlite",
    "reason",
]
