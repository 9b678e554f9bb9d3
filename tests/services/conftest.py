"""Stores on every backend for the match-store service tests.

``store_url`` is a fresh, empty store on each backend in turn: an SQLite file in ``tmp_path``, a
new schema on the PostgreSQL test server (skipped with the reason when none answers) and
``memory:``. ``shared_url`` leaves out ``memory:``: its tests open two handles on one database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.store import MatchStore

from .support import fresh_schema, postgres_dsn

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

SQLITE = "sqlite"
POSTGRES = pytest.param("postgres", marks=pytest.mark.postgres)
MEMORY = "memory"


def _url(backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == SQLITE:
        yield f"sqlite:///{tmp_path / 'vwlog.db'}"
    elif backend == MEMORY:
        yield "memory:"
    else:
        with fresh_schema(postgres_dsn()) as url:
            yield url


@pytest.fixture(params=[SQLITE, POSTGRES, MEMORY])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend (``memory:`` is fresh for each `MatchStore.open`)."""
    yield from _url(request.param, tmp_path)


@pytest.fixture(params=[SQLITE, POSTGRES])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend that several handles (or processes) can share."""
    yield from _url(request.param, tmp_path)


@pytest.fixture
def store(store_url: str) -> Iterator[MatchStore]:
    """An open store on ``store_url``, closed after the test."""
    with MatchStore.open(store_url) as store:
        yield store
