"""The PostgreSQL server of the store tests, and what to do when it cannot be used.

The server is ``VWLOG_TEST_POSTGRES_DSN`` (default ``postgresql://postgres@127.0.0.1:5432/test``).
When it does not answer (or the ``postgres`` extra is missing) the tests skip, saying why —
except under CI (the ``CI`` environment variable is set), where they fail with the same
reason: CI starts a server, so a PostgreSQL test that does not run there is a failure.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

from vwlog.store.settings import redact

DSN = os.environ.get("VWLOG_TEST_POSTGRES_DSN", "postgresql://postgres@127.0.0.1:5432/test")


def in_ci() -> bool:
    """Whether the tests run under CI (``CI`` set to anything but the empty string)."""
    return bool(os.environ.get("CI"))


def unusable(reason: str) -> NoReturn:
    """Skip the test, or fail it under CI, because PostgreSQL cannot be used."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set: PostgreSQL tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


def postgres_server() -> str:
    """The test server's DSN; a skip (a failure under CI) with the reason it is unusable."""
    try:
        import psycopg
    except ImportError:
        unusable("the postgres extra is not installed")
    try:
        psycopg.connect(DSN, connect_timeout=3).close()
    except psycopg.Error as err:
        unusable(f"no PostgreSQL server at {redact(DSN)}: {' '.join(str(err).split())}")
    return DSN
