"""A small table of the service's own beside the matches (tokens, idempotency keys): in the
SQLite file of the store, in the store's PostgreSQL schema, or in memory for a store in memory.

`SideTable` opens it from the store's settings, creates it when missing (several workers may
do so at once: on PostgreSQL one waits for the other) and gives each operation a cursor in one
transaction, its driver errors turned into `StoreError`. A subclass names its table, its
columns, the words its errors use and its advisory lock, and holds its own operations.
"""

from __future__ import annotations

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
        """Nothing is kept open between calls; present for symmetry with `MatchStore`."""

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
    def _cursor(self) -> Iterator[Any]:
        """A cursor in one transaction, committed when the block ends; driver errors become
        `StoreError`."""
        if self._module == "eventsourcing.sqlite":
            try:
                conn = sqlite3.connect(self._sqlite_path, timeout=self._timeout)
            except sqlite3.Error as err:
                raise StoreError(f"{self.url}: cannot open the {self.WHAT}: {err}") from err
            try:
                with conn:
                    yield conn.cursor()
            except sqlite3.Error as err:
                raise StoreError(f"{self.url}: {self.WHAT}: {err}") from err
            finally:
                conn.close()
            return
        import psycopg

        try:
            with psycopg.connect(**self._conninfo) as pg, pg.cursor() as cur:
                # several workers may create the table at once: one waits for the other
                cur.execute(f"SELECT pg_advisory_xact_lock({self.LOCK})")
                yield cur
        except psycopg.Error as err:
            raise StoreError(f"{self.url}: {self.WHAT}: {err}") from err


__all__ = ["SideTable"]
