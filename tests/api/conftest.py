"""Servers for the API tests: one on SQLite (one worker) and one on PostgreSQL (several)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.api.server import Server, populate, serving

if TYPE_CHECKING:
    from collections.abc import Iterator

pytest.importorskip("fastapi", reason="the api extra is not installed")


@pytest.fixture(scope="session")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve`` on an SQLite store, with samples, live matches and tokens."""
    with serving(tmp_path_factory.mktemp("api-sqlite")) as server:
        populate(server)
        yield server


@pytest.fixture(scope="session")
def postgres_server_2w(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve --workers 2`` on a fresh PostgreSQL schema, populated like the SQLite
    one."""
    with serving(tmp_path_factory.mktemp("api-pg"), postgres=True, workers=2) as server:
        populate(server)
        yield server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest) -> Server:
    """Each test runs against both servers."""
    name = "sqlite_server" if request.param == "sqlite" else "postgres_server_2w"
    found: Server = request.getfixturevalue(name)
    return found
