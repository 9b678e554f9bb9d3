"""Servers for the API tests: one on SQLite (one worker) and one on PostgreSQL (several)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

import pytest

from tests.api.server import Server, populate, start
from tests.store.pg import postgres_server

if TYPE_CHECKING:
    from collections.abc import Iterator

pytest.importorskip("fastapi", reason="the api extra is not installed")


@pytest.fixture(scope="session")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve`` on an SQLite store, with samples, live matches and tokens."""
    work = tmp_path_factory.mktemp("api-sqlite")
    server = start(str(work / "vwlog.db"), work)
    try:
        populate(server)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server_2w(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve --workers 2`` on a fresh PostgreSQL schema, populated like the SQLite
    one."""
    dsn = postgres_server()
    schema = f"api_{secrets.token_hex(4)}"
    work = tmp_path_factory.mktemp("api-pg")
    server = start(f"{dsn}?schema={schema}", work, workers=2)
    try:
        populate(server)
        yield server
    finally:
        server.stop()
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}_stats" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest) -> Server:
    """Each test runs against both servers."""
    name = "sqlite_server" if request.param == "sqlite" else "postgres_server_2w"
    found: Server = request.getfixturevalue(name)
    return found
