"""The PostgreSQL database of the tests: created for this run, dropped at its end.

The server is ``VWLOG_TEST_POSTGRES_DSN`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``; its database is only where ``CREATE DATABASE``
is said). The tests write to a database of their
own on it: ``VWLOG_TEST_POSTGRES_DB`` if set, else ``vwlog_test_`` and a random suffix, created
the first time a test asks for PostgreSQL and dropped when the run ends (the run's summary names
it once). A database named by ``VWLOG_TEST_POSTGRES_DB`` that already exists is used and kept;
no test writes to any other database of the server. Each test still works in a fresh schema.

When the server does not answer (or the ``postgres`` extra is missing) the tests skip, saying
why — except under CI (the ``CI`` environment variable is set), where they fail with the same
reason: CI starts a server, so a PostgreSQL test that does not run there is a failure.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from typing import NoReturn
from urllib.parse import urlsplit

import pytest

from vwlog.store.settings import redact

SERVER_ENV = "VWLOG_TEST_POSTGRES_DSN"
"""The variable naming the server (a URL; its database is where the test database is made)."""
DATABASE_ENV = "VWLOG_TEST_POSTGRES_DB"
"""The variable naming the test database (default: ``vwlog_test_`` and a random suffix)."""

SERVER = os.environ.get(SERVER_ENV, "postgresql://postgres@127.0.0.1:5432/postgres")
"""The server's URL."""


def with_database(url: str, database: str) -> str:
    """``url`` naming ``database`` instead of its own (its query, if any, kept).

    >>> with_database("postgresql://u@h:5432/postgres?sslmode=disable", "t")
    'postgresql://u@h:5432/t?sslmode=disable'
    """
    return urlsplit(url)._replace(path=f"/{database}").geturl()


def _database_name() -> tuple[str, bool]:
    """The test database's name, and whether ``VWLOG_TEST_POSTGRES_DB`` named it. The name
    chosen is put in the environment, so the processes the tests start use the same one."""
    named = os.environ.get(DATABASE_ENV, "")
    if named:
        return named, os.environ.get("_VWLOG_TEST_POSTGRES_DB_CHOSEN") != named
    chosen = f"vwlog_test_{secrets.token_hex(4)}"
    os.environ[DATABASE_ENV] = os.environ["_VWLOG_TEST_POSTGRES_DB_CHOSEN"] = chosen
    return chosen, False


DATABASE, NAMED = _database_name()
"""The test database, and whether it was named (then it is kept if it existed)."""

DSN = with_database(SERVER, DATABASE)
"""The URL of the test database: what the tests connect to."""


@dataclass
class _State:
    problem: str | None = None
    """Why PostgreSQL cannot be used, once found."""
    ready: bool = False
    """Whether the test database exists (created or found)."""
    created: bool = False
    """Whether this run created it (then it drops it at the end)."""
    dropped: bool = False


STATE = _State()
"""What this run did with the test database."""


def in_ci() -> bool:
    """Whether the tests run under CI (``CI`` set to anything but the empty string)."""
    return bool(os.environ.get("CI"))


def unusable(reason: str) -> NoReturn:
    """Skip the test, or fail it under CI, because PostgreSQL cannot be used."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set: PostgreSQL tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


def _prepare() -> str | None:
    """Create the test database unless it exists; why PostgreSQL cannot be used, or ``None``."""
    try:
        import psycopg
        from psycopg import sql
    except ImportError:
        return "the postgres extra is not installed"
    try:
        with psycopg.connect(SERVER, autocommit=True, connect_timeout=3) as conn:
            found = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)
            ).fetchone()
            if found is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
                STATE.created = True
    except psycopg.errors.DuplicateDatabase:
        pass  # a process started by this run made it first
    except psycopg.Error as err:
        return f"no PostgreSQL server at {redact(SERVER)}: {' '.join(str(err).split())}"
    STATE.ready = True
    return None


def postgres_problem() -> str | None:
    """Why the tests cannot use PostgreSQL, or ``None`` once the test database exists."""
    if not STATE.ready and STATE.problem is None:
        STATE.problem = _prepare()
    return STATE.problem


def postgres_server() -> str:
    """The test database's URL; a skip (a failure under CI) with the reason it is unusable."""
    problem = postgres_problem()
    if problem is not None:
        unusable(problem)
    return DSN


def drop_test_database() -> None:
    """Drop the test database if this run created it (the servers the tests started are gone
    by now; any connection left is closed by the drop)."""
    if not STATE.created or STATE.dropped:
        return
    import psycopg
    from psycopg import sql

    with psycopg.connect(SERVER, autocommit=True, connect_timeout=3) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DATABASE))
        )
    STATE.dropped = True


def summary() -> str | None:
    """The line the run's summary shows about the test database, when one was used."""
    if not STATE.ready:
        return None
    where = f"{DATABASE} on {redact(SERVER).rpartition('/')[0]}"
    if STATE.dropped:
        return (
            f"PostgreSQL: the tests ran in database {where}, created and dropped "
            f"({DATABASE_ENV} names another)"
        )
    if STATE.created:
        return f"PostgreSQL: the tests ran in database {where}, created; it could not be dropped"
    return f"PostgreSQL: the tests ran in the existing database {where}, kept ({DATABASE_ENV})"
