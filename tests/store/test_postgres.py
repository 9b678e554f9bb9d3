"""The store contract on PostgreSQL: a real server, one fresh schema per test.

The server is ``VWLOG_TEST_POSTGRES_DSN`` (default ``postgresql://postgres@127.0.0.1:5432/test``);
the tests skip, saying why, when it cannot be reached or the ``postgres`` extra is missing — and
fail with that reason under CI (see `tests.store.pg`).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING
from uuid import uuid4

import pytest

from vwlog.model.errors import StoreError
from vwlog.store import MatchStore

from .contract import StoreContract
from .pg import postgres_server, unusable
from .records import synthetic_match

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def server() -> str:
    """The test server's DSN, or a skip (a failure under CI) with the reason it is unusable."""
    return postgres_server()


@pytest.fixture
def schema(server: str) -> Iterator[str]:
    """A fresh schema, dropped with everything in it afterwards."""
    import psycopg
    from psycopg import sql

    name = f"vwlog_test_{uuid4().hex[:16]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    yield name
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def url(self, server: str, schema: str) -> str:
        return f"{server}?schema={schema}"


def test_tables_are_named_after_the_application_in_the_given_schema(
    server: str, schema: str
) -> None:
    import psycopg

    MatchStore.open(f"{server}?schema={schema}").close()
    with psycopg.connect(server) as conn:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,)
        ).fetchall()
    assert {row[0] for row in rows} == {"vwlog_events", "vwlog_snapshots"}


def test_a_missing_schema_is_created(server: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    missing = f"{schema}_new"
    try:
        with MatchStore.open(f"{server}?schema={missing}") as store:
            synthetic_match("m1", 2).import_into(store)
            assert store.match_ids() == ["m1"]
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(missing))
            )


def test_stores_in_different_schemas_do_not_share_matches(server: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    second = f"{schema}_b"
    try:
        with (
            MatchStore.open(f"{server}?schema={schema}") as one,
            MatchStore.open(f"{server}?schema={second}") as two,
        ):
            synthetic_match("m1", 3).import_into(one)
            assert one.match_ids() == ["m1"]
            assert two.match_ids() == []
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(second)))


def test_an_unreachable_server_is_reported_at_once_with_the_cause() -> None:
    if importlib.util.find_spec("psycopg") is None:
        unusable("the postgres extra is not installed")
    with pytest.raises(StoreError, match=r"cannot open store .*refused"):
        MatchStore.open("postgresql://postgres@127.0.0.1:1/test")


def test_opening_a_new_store_waits_for_another_process_creating_its_tables(
    server: str, schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from vwlog.store import backends

    url = f"{server}?schema={schema}"
    monkeypatch.setattr(backends, "_SCHEMA_LOCK_TIMEOUT", 1)
    with psycopg.connect(server, autocommit=True) as creator:
        backends._pg_lock_schema(creator, schema)  # as a process creating the tables does
        with pytest.raises(StoreError, match=r"another process has been creating the tables"):
            MatchStore.open(url)
    with MatchStore.open(url) as store:  # the lock went with the creator's connection
        synthetic_match("m1", 2).import_into(store)
    with MatchStore.open(url) as store:  # tables exist: nothing is created, nothing waits
        assert store.match_ids() == ["m1"]
