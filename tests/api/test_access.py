"""Access: every endpoint for every role, and a player's token against hidden information.

Roles: no token, organiser, judge, a player of the match (``p1``), a player of another match
(``other``) and a revoked token. ``live-1`` is in progress; ``absolute-victory`` is finished
(public).
"""

from __future__ import annotations

import json
from itertools import count
from typing import TYPE_CHECKING

import pytest

from tests.api.server import SAMPLES
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from tests.api.server import Server

ROLES = ("anonymous", "organiser", "judge", "p1", "other", "revoked")
_unique = count(1)


def statuses(server: Server, method: str, path: str, **kwargs: object) -> dict[str, int]:
    """The status of one request for every role."""
    out = {}
    for role in ROLES:
        token = None if role == "anonymous" else role
        with server.client(token) as c:
            body = kwargs.get("json")
            if callable(body):
                body = body(role)
            r = c.request(
                method,
                path,
                json=body,
                content=kwargs.get("content"),  # type: ignore[arg-type]
                headers=kwargs.get("headers"),  # type: ignore[arg-type]
                params=kwargs.get("params"),  # type: ignore[arg-type]
            )
        out[role] = r.status_code
    return out


SEAT_VIEW = {
    "anonymous": 401,
    "organiser": 200,
    "judge": 200,
    "p1": 200,
    "other": 403,
    "revoked": 401,
}
FULL_ONLY = {**SEAT_VIEW, "p1": 403}
PUBLIC = dict.fromkeys(ROLES, 200) | {"revoked": 401}


@pytest.mark.parametrize(
    ("path", "params", "expected"),
    [
        ("", None, SEAT_VIEW),
        ("/events", None, SEAT_VIEW),
        ("/board", None, SEAT_VIEW),
        ("/board", {"player": "p1"}, SEAT_VIEW),
        ("/board", {"player": "p2"}, FULL_ONLY),
        ("/events", {"player": "p1"}, SEAT_VIEW),
        ("/events", {"player": "p2"}, FULL_ONLY),
        ("/awaited", None, SEAT_VIEW),
        ("/integrity", None, SEAT_VIEW),
        ("/lineage", None, SEAT_VIEW),
        ("/rulings", None, SEAT_VIEW),
        ("/stream", {"seconds": 0.5}, SEAT_VIEW),
        ("/validation", None, FULL_ONLY),
        ("/export", None, FULL_ONLY),
        ("/stats", None, FULL_ONLY),
    ],
)
def test_reading_a_match_in_progress(
    server: Server, path: str, params: dict[str, object] | None, expected: dict[str, int]
) -> None:
    assert statuses(server, "GET", f"/matches/live-1{path}", params=params) == expected


@pytest.mark.parametrize(
    "path",
    [
        "",
        "/events",
        "/board",
        "/awaited",
        "/integrity",
        "/lineage",
        "/rulings",
        "/validation",
        "/export",
        "/stats",
    ],
)
def test_reading_a_finished_match_needs_no_token(server: Server, path: str) -> None:
    match = server.tokens["match:absolute-victory"]
    assert statuses(server, "GET", f"/matches/{match}{path}") == PUBLIC


def test_public_catalog_endpoints(server: Server) -> None:
    for path in (
        "/health",
        "/pools",
        "/pools/decks",
        "/rulesets",
        "/rules",
        "/service/key",
        "/matches",
    ):
        assert statuses(server, "GET", path) == PUBLIC, path


def test_statistics_need_an_organiser_or_a_judge(server: Server) -> None:
    # they count live matches in progress: no player, whatever its match, reads them
    for path in ("/stats", "/stats/report"):
        assert statuses(server, "GET", path) == FULL_ONLY, path


def test_whoami_names_the_role(server: Server) -> None:
    with server.client("p1") as c:
        me = c.get("/whoami").json()
    assert me == {"role": "player", "match_id": "live-1", "seat": "p1"}
    with server.client() as c:
        assert c.get("/whoami").status_code == 401
    with server.client("not-a-token") as c:
        assert c.get("/whoami").status_code == 401


def test_uploading_needs_an_organiser_or_a_judge(server: Server) -> None:
    log = (SAMPLES / "register-lifo.jsonl").read_bytes()
    got = statuses(
        server, "POST", "/matches", content=log, headers={"Content-Type": "application/x-ndjson"}
    )
    assert got == {
        "anonymous": 401,
        "organiser": 200,
        "judge": 200,
        "p1": 403,
        "other": 403,
        "revoked": 401,
    }


def test_starting_a_live_match_needs_an_organiser_or_a_judge(server: Server) -> None:
    run = next(_unique)
    got = statuses(
        server,
        "POST",
        "/live",
        json=lambda role: {"match_id": f"acl-live-{run}-{role}", "decks": ["order-aggro"] * 2},
    )
    assert got == {
        "anonymous": 401,
        "organiser": 201,
        "judge": 201,
        "p1": 403,
        "other": 403,
        "revoked": 401,
    }


def test_forking_and_rebasing_need_an_organiser_or_a_judge(server: Server) -> None:
    match = server.tokens["match:absolute-victory"]
    with server.client() as c:
        events = c.get(f"/matches/{match}/events", params={"limit": 100}).json()["events"]
    at = next(e["seq"] for e in events if e["priority_point"])
    got = statuses(
        server,
        "POST",
        f"/matches/{match}/forks",
        json=lambda role: {"at": at, "name": f"acl-{next(_unique)}-{role}"},
    )
    assert got == {
        "anonymous": 401,
        "organiser": 201,
        "judge": 201,
        "p1": 403,
        "other": 403,
        "revoked": 401,
    }
    fork = f"{match}~acl-"
    with server.client("judge") as c:
        listed = c.get("/matches", params={"limit": 1000}).json()["matches"]
    fork_id = next(m["match_id"] for m in listed if m["match_id"].startswith(fork))
    got = statuses(server, "POST", f"/matches/{fork_id}/rebase", params={"dry_run": True})
    assert got == {
        "anonymous": 401,
        "organiser": 200,
        "judge": 200,
        "p1": 403,
        "other": 403,
        "revoked": 401,
    }


def test_only_judges_write_rulings(server: Server) -> None:
    got = statuses(
        server, "POST", "/matches/live-2/rulings", json={"kind": "WARNING", "reason": "noted"}
    )
    assert got == {
        "anonymous": 401,
        "organiser": 403,
        "judge": 201,
        "p1": 403,
        "other": 403,
        "revoked": 401,
    }


def test_appending_decisions(server: Server) -> None:
    got = statuses(server, "POST", "/matches/live-2/decisions", json={"decisions": []})
    # the 'other' player's token is live-2's p1; p1's token is for live-1
    assert got["anonymous"] == 401
    assert got["revoked"] == 401
    assert got["organiser"] == 200
    assert got["judge"] == 200
    assert got["p1"] == 403


def test_no_endpoint_deletes_or_replaces_a_stored_event(server: Server) -> None:
    match = server.tokens["match:absolute-victory"]
    for method in ("DELETE", "PUT", "PATCH"):
        for path in (f"/matches/{match}", f"/matches/{match}/events"):
            with server.client("judge") as c:
                assert c.request(method, path).status_code == 405


# -- hidden information ----------------------------------------------------------------------


def test_a_player_never_reads_the_opponents_hand_or_deck_order(server: Server) -> None:
    match = f"secret-{next(_unique)}"
    with server.client("organiser") as c:
        r = c.post("/live", json={"match_id": match, "decks": ["order-aggro", "mystic-reigner"]})
        assert r.status_code == 201
    me = server.token(f"{match}:p1", Role.PLAYER, match_id=match, seat="p1")
    server.token(f"{match}:p2", Role.PLAYER, match_id=match, seat="p2")
    with server.client("judge") as c:
        truth = c.get(f"/matches/{match}/board").json()
        started = c.get(f"/matches/{match}/events", params={"limit": 1}).json()["events"][0]
    opponent_hand = next(p["hand"] for p in truth["players"] if p["id"] == "p2")
    assert opponent_hand  # the judge sees it: the check below can fail
    deck = [
        c["id"]
        for seat in started["event"]["seats"]
        if seat["player"] == "p2"
        for c in seat["deck"]
    ]
    assert deck

    seen: list[str] = []
    with server.client(me) as c:
        for path, params in (
            ("", None),
            ("/board", None),
            ("/board", {"player": "p1"}),
            ("/events", {"limit": 1000}),
            ("/awaited", None),
            ("/rulings", None),
            ("/lineage", None),
            ("/stream", {"seconds": 0.5}),
        ):
            r = c.get(f"/matches/{match}{path}", params=params)
            assert r.status_code == 200, (path, r.text)
            seen.append(r.text)
        refused = [
            c.get(f"/matches/{match}/board", params={"player": "p2"}),
            c.get(f"/matches/{match}/export"),
            c.get(f"/matches/{match}/validation"),
            c.get("/diff", params={"a": match, "b": match}),
        ]
    assert [r.status_code for r in refused] == [403, 403, 403, 403]
    text = "\n".join(seen)
    leaked = [card for card in deck if card in text]
    assert leaked == []
    own = json.loads(seen[1])
    assert next(p["hand"] for p in own["players"] if p["id"] == "p1")
    assert next(p["hand"] for p in own["players"] if p["id"] == "p2") is None


def test_a_player_appends_only_its_own_decisions(server: Server) -> None:
    match = f"turns-{next(_unique)}"
    with server.client("organiser") as c:
        assert c.post("/live", json={"match_id": match, "decks": ["order-aggro"] * 2}).is_success
    tokens = {
        seat: server.token(f"{match}:{seat}", Role.PLAYER, match_id=match, seat=seat)
        for seat in ("p1", "p2")
    }
    with server.client(tokens["p1"]) as c:
        awaited = c.get(f"/matches/{match}/awaited").json()
    waiting = "p2" if awaited["player"] == "p1" else "p1"
    mover = awaited["player"]
    with server.client(tokens[waiting]) as c:
        assert c.get(f"/matches/{match}/awaited").json()["legal"] == []
        early = c.post(f"/matches/{match}/decisions", json={"decisions": ["pass"]})
    with server.client(tokens[mover]) as c:
        options = c.get(f"/matches/{match}/awaited").json()["legal"]
        assert options
        mine = c.post(
            f"/matches/{match}/decisions",
            json={"decisions": [json.dumps(options[0], separators=(",", ":"))]},
        )
        auto = c.post(f"/matches/{match}/decisions", json={"decisions": [], "auto": 3})
    assert early.status_code == 403
    assert mine.status_code == 200, mine.text
    assert mine.json()["events"] == []  # consequences may name hidden cards
    assert mine.json()["appended"] >= 1
    assert auto.status_code == 403
