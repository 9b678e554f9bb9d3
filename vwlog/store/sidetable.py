"""A small table of the service's own beside the matches (tokens, idempotency keys): in the
SQLite file of the store, in the store's PostgreSQL schema, or in memory for a store in memory.

`SideTable` opens it from the store's settings, creates it when missing (several workers may
do so at once: on PostgreSQL one waits for the other) and gives each operation a cursor in one
transaction, its driver errors turned into `StoreError`. A subclass names its table, its
columns, the words its errors use and its advisory lock, and holds its own operations.

Connections are kept between operations (at most `KEPT` idle ones per table, per process): the
service looks a token up on every request, and opening a connection for each cost more than
the rest of a cached board's answer (a new SQLite connection about 1 ms; a PostgreSQL one,
several). A connection that failed is closed, never kept; one kept by a process that then
forked is left to the parent.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar, Self

from vwlog.model.errors import StoreError
from vwlog.model.resources import Closing
from vwlog.store.settings import redact, settings_from_url


class SideTable(Closing):
    """One side table of one store (see the module)."""

    TABLE: ClassVar[str]
    """The table's name."""
    COLUMNS: ClassVar[str]
    """Its columns and constraints, as ``CREATE TABLE`` lists them."""
    WHAT: ClassVar[str]
    """What it holds, as errors say it (``tokens``)."""
    LOCK: ClassVar[int]
    """The PostgreSQL advisory lock its transactions take (one per table)."""
    _memory: dict[Any, Any]
    """The rows of a store in memory (a subclass says their keys and values)."""
    KEPT: ClassVar[int] = 8
    """How many idle connections a table keeps open for the next operations."""

    def __init__(self, env: Mapping[str, str], *, url: str = "") -> None:
        """Open the table of the store configured by ``env`` (see `settings_from_url`).

        Raises:
            StoreError: the database cannot be reached or the table cannot be created.
        """
        self._memory = {}
        self.url = redact(url)
        self._module = env.get("PERSISTENCE_MODULE", "eventsourcing.popo")
        self._lock = threading.Lock()
        self._conninfo: dict[str, Any] = {}
        self._schema = "public"
        self._sqlite_path = ""
        self._timeout = 30.0
        self._idle: list[Any] = []
        self._pid = os.getpid()
        if self._module == "eventsourcing.sqlite":
            self._sqlite_path = env["SQLITE_DBNAME"]
            self._timeout = float(env.get("SQLITE_LOCK_TIMEOUT", "30"))
        elif self._module == "eventsourcing.postgres":
            self._conninfo = {
                "dbname": env["POSTGRES_DBNAME"],
                "host": env.get("POSTGRES_HOST") or None,
                "port": int(env.get("POSTGRES_PORT") or 5432),
                "user": env.get("POSTGRES_USER") or None,
                "password": env.get("POSTGRES_PASSWORD") or None,
                "connect_timeout": int(env.get("POSTGRES_CONNECT_TIMEOUT") or 10),
            }
            self._schema = env.get("POSTGRES_SCHEMA") or "public"
        self._create_table()

    @classmethod
    def open(cls, url: str) -> Self:
        """Open the table of the store at ``url``.

        Raises:
            StoreConfigError: the URL is malformed or needs the ``postgres`` extra.
            StoreError: the database cannot be reached.
        """
        return cls(settings_from_url(url), url=url)

    def close(self) -> None:
        """Close the connections kept open; the next operation opens another."""
        with self._lock:
            idle, self._idle = self._idle, []
        if self._pid == os.getpid():
            for conn in idle:
                conn.close()

    def _take(self) -> Any | None:
        """An idle connection of this process, or ``None``."""
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's connections are not ours
                self._idle, self._pid = [], os.getpid()
            return self._idle.pop() if self._idle else None

    def _give_back(self, conn: Any) -> None:
        """Keep ``conn`` for a later operation, or close it if enough are kept."""
        with self._lock:
            if len(self._idle) < self.KEPT and self._pid == os.getpid():
                self._idle.append(conn)
                return
        conn.close()

    @property
    def _in_memory(self) -> bool:
        return self._module == "eventsourcing.popo"

    @property
    def _table(self) -> str:
        if self._module == "eventsourcing.postgres":
            return f'"{self._schema}".{self.TABLE}'
        return self.TABLE

    @property
    def _mark(self) -> str:
        return "%s" if self._module == "eventsourcing.postgres" else "?"

    def _marks(self, n: int) -> str:
        return ", ".join([self._mark] * n)

    def _create_table(self) -> None:
        if self._in_memory:
            return
        with self._cursor() as cur:
            if self._module == "eventsourcing.postgres":
                cur.execute(f'CREATE SCHEMA IF NOT EXISTS "{self._schema}"')
            cur.execute(f"CREATE TABLE IF NOT EXISTS {self._table} ({self.COLUMNS})")

    @contextmanager
    def _cursor(self, *, locked: bool = True) -> Iterator[Any]:
        """A cursor in one transaction, committed when the block ends; driver errors become
        `StoreError`. ``locked``: on PostgreSQL the transaction first takes the table's
        advisory lock (writers and the table's creation; a plain read needs none)."""
        if self._module == "eventsourcing.sqlite":
            conn = self._take()
            if conn is None:
                try:
                    conn = sqlite3.connect(
                        self._sqlite_path, timeout=self._timeout, check_same_thread=False
                    )
                except sqlite3.Error as err:
                    raise StoreError(f"{self.url}: cannot open the {self.WHAT}: {err}") from err
            try:
                with conn:
                    yield conn.cursor()
            except sqlite3.Error as err:
                conn.close()
                raise StoreError(f"{self.url}: {self.WHAT}: {err}") from err
            except BaseException:
                conn.close()
                raise
            self._give_back(conn)
            return
        import psycopg

        pg = self._take()
        try:
            if pg is None or pg.closed or pg.broken:
                pg = psycopg.connect(**self._conninfo)
            with pg.transaction(), pg.cursor() as cur:
                if locked:
                    # several workers may create the table at once: one waits for the other
                    cur.execute(f"SELECT pg_advisory_xact_lock({self.LOCK})")
                yield cur
        except psycopg.Error as err:
            if pg is not None:
                pg.close()
            raise StoreError(f"{self.url}: {self.WHAT}: {err}") from err
        except BaseException:
            if pg is not None:
                pg.close()
            raise
        self._give_back(pg)


__all__ = ["SideTable"]
