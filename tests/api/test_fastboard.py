"""A kept board answered before the framework (`vwlog.api.fastboard`): the same answer as the
route, byte for byte, and never to a token the route would refuse.

Every board is read twice: the first read renders it (the route), the second finds it kept
(the fast path). Both must agree in status, body and headers, for every role and every form
of the query, on a match in progress and on a finished one.
"""

from __future__ import annotations

from itertools import count
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest

from tests.api.server import SAMPLES
from vwlog.api.cache import BoardCache
from vwlog.api.dependencies import match_access
from vwlog.api.fastboard import kept_board
from vwlog.api.routers.matches import board_answer
from vwlog.services.importing import import_log
from vwlog.store import MatchStore
from vwlog.store.tokens import Role, TokenStore

if TYPE_CHECKING:
    from pathlib import Path

    from tests.api.server import Server

ROLES = ("anonymous", "organiser", "judge", "p1", "p2", "other", "revoked")
QUERIES = (
    "",
    "?seq=3",
    "?seq=003",
    "?player=p1",
    "?player=p2",
    "?seq=2&player=p1",
    "?seq=2&seq=3",
    "?seq=abc",
    "?seq=-1",
    "?player=",
    "?lang=id",
    "?player=" + "x" * 41,
)
HEADERS = ("etag", "cache-control", "vary", "content-type", "content-length", "x-frame-options")
_unique = count(1)


def answer(server: Server, role: str, path: str, **headers: str) -> tuple[object, ...]:
    """Status, body and the headers an answer is read by."""
    with server.client(None if role == "anonymous" else role) as c:
        r = c.get(path, headers=headers)
    return (r.status_code, r.content, tuple(r.headers.get(h) for h in HEADERS))


@pytest.mark.parametrize("match", ["live-1", "match:absolute-victory"])
def test_a_kept_board_is_the_routes_answer_for_every_role_and_query(
    server: Server, match: str
) -> None:
    match_id = server.tokens.get(match, match)
    for role in ROLES:
        for query in QUERIES:
            path = f"/matches/{match_id}/board{query}"
            first = answer(server, role, path)
            second = answer(server, role, path)
            assert second == first, (role, query)
            if first[0] == 200:
                etag = first[2][0]
                assert isinstance(etag, str)
                again = answer(server, role, path, **{"If-None-Match": etag})
                assert again[0] == 304, (role, query)
                assert again == answer(server, role, path, **{"If-None-Match": etag})


def test_a_token_revoked_after_its_board_was_kept_is_refused(server: Server) -> None:
    name = f"fast-revoked-{next(_unique)}"
    server.token(name, Role.JUDGE, label=name)
    path = "/matches/live-1/board?seq=1"
    assert answer(server, name, path)[0] == 200
    assert answer(server, name, path)[0] == 200
    with TokenStore.open(server.store) as tokens:
        tokens.revoke(next(t for t in tokens.list() if t.label == name).id)
    status, body, _ = answer(server, name, path)
    assert status == 401
    assert b"unknown or revoked token" in body
    assert b'"seat"' not in body


def test_another_seats_kept_view_is_not_served_to_a_player(server: Server) -> None:
    path = "/matches/live-1/board?seq=4&player=p2"
    organisers = answer(server, "organiser", path)
    assert organisers[0] == 200
    assert answer(server, "organiser", path) == organisers
    status, body, _ = answer(server, "p1", path)
    assert status == 403
    assert body != organisers[1]
    assert b"this token sees seat 'p1' only" in body
    # the player's own view at the same seq is another answer, under another key
    own = answer(server, "p1", "/matches/live-1/board?seq=4")
    assert own[0] == 200
    assert own[1] != organisers[1]
    status, body, _ = answer(server, "other", path)
    assert status == 403
    assert body != organisers[1]


def test_a_board_is_answered_before_the_route_only_once_kept(tmp_path: Path) -> None:
    store_url = str(tmp_path / "vwlog.db")
    with MatchStore.open(store_url) as store, TokenStore.open(store_url) as tokens:
        match_id = import_log(store, SAMPLES / "absolute-victory.jsonl").match_id
        secret, _ = tokens.create(Role.JUDGE)
        state = SimpleNamespace(store=store, tokens=tokens, boards=BoardCache())
        scope = {
            "type": "http",
            "method": "GET",
            "path": f"/matches/{match_id}/board",
            "query_string": b"seq=5",
            "headers": [(b"authorization", f"Bearer {secret}".encode())],
            "app": SimpleNamespace(state=state),
        }
        assert kept_board(scope, match_id) is None
        access = match_access(match_id, store, tokens.lookup(secret))
        key, render = board_answer(store, access, 5, None)
        shown = state.boards.get(key, render)
        found = kept_board(scope, match_id)
        assert found is not None
        assert found.status_code == 200
        assert found.body == shown.body
        assert scope["state"] == {"role": "judge"}
        # what the route reads another way is left to it
        for query in (b"seq=5&seq=5", b"seq=+5", b"seq=5&x=1"):
            assert kept_board({**scope, "query_string": query}, match_id) is None
        bad = [(b"authorization", b"Bearer vwt_wrong")]
        assert kept_board({**scope, "headers": bad}, match_id) is None
