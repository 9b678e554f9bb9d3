"""Servers for the security tests: a real ``vwlog serve`` attacked over real HTTP, as a cheating
player (or anyone without a token) would, on SQLite with one worker and on PostgreSQL with two.

The servers are this folder's own (not the API tests'), populated the same way: samples, two
live matches ``live-1`` and ``live-2``, and tokens of every role (``organiser``, ``judge``,
``p1`` and ``p2`` for the seats of ``live-1``, ``other`` for ``live-2``). A test that changes a
match creates its own live match (`new_live`), so that tests do not depend on each other.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

import pytest

from tests.api.server import Server, populate, serving
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

pytest.importorskip("fastapi", reason="the api extra is not installed")


@pytest.fixture(scope="session")
def security_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve`` on an SQLite store, one worker."""
    with serving(tmp_path_factory.mktemp("security-sqlite")) as server:
        populate(server)
        yield server


@pytest.fixture(scope="session")
def security_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve --workers 2`` on a fresh PostgreSQL schema, dropped afterwards."""
    with serving(tmp_path_factory.mktemp("security-pg"), postgres=True, workers=2) as server:
        populate(server)
        yield server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest) -> Server:
    """Each test attacks both servers."""
    name = "security_sqlite" if request.param == "sqlite" else "security_postgres"
    found: Server = request.getfixturevalue(name)
    return found


def new_live(
    server: Server, decks: tuple[str, ...] = ("order-aggro", "mystic-reigner")
) -> tuple[str, dict[str, str]]:
    """A new live match (started by the organiser, no seed) and a player token per seat: its
    id and ``{seat: token name}``."""
    match_id = f"sec-{secrets.token_hex(6)}"
    with server.client("organiser") as c:
        r = c.post("/live", json={"match_id": match_id, "decks": list(decks)})
        assert r.status_code == 201, r.text
    seats = {}
    for n in range(1, len(decks) + 1):
        seat = f"p{n}"
        name = f"{match_id}:{seat}"
        server.token(name, Role.PLAYER, match_id=match_id, seat=seat)
        seats[seat] = name
    return match_id, seats


ATTEMPTS = 8
"""Live matches started at most by `live_until`."""


def live_until(
    server: Server, until: Callable[[dict[str, Any], dict[str, Any]], bool]
) -> tuple[str, dict[str, str], dict[str, Any], dict[str, Any]]:
    """A new live match (`new_live`) driven by the organiser's automatic decisions until
    ``until(awaited, board)`` holds: its id, its seats' tokens, the awaited decision and the
    board then. The service's shuffle is unpredictable, so a match may end first (the other
    seat never put a card into play): another is started then, at most `ATTEMPTS`."""
    from tests.security.seatview import reach

    for _ in range(ATTEMPTS):
        match_id, seats = new_live(server)
        reached = reach(server, match_id, until)
        if reached is not None:
            return match_id, seats, *reached
    raise AssertionError(f"{ATTEMPTS} live matches ended before the point the test needs")
