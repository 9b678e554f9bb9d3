"""The board cache and its entity tags never cross seats: each worker keeps the boards it
rendered, keyed by the head and the seat of the view, and access is checked before it looks.

Over real HTTP, on SQLite (one worker) and PostgreSQL (two): the same board read in turn by
both seats of a match in progress shows each its own hand only, however often it is read; a
tag sent back gives 304 only to a reader allowed the board it names; an append moves the tag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.security.conftest import new_live

if TYPE_CHECKING:
    from tests.api.server import Server


def hands(board: dict[str, Any]) -> dict[str, Any]:
    """Each seat's hand as a board shows it (``None``: only its size is shown)."""
    return {p["id"]: p["hand"] for p in board["players"]}


def test_two_seats_reading_the_same_board_each_see_only_their_own_hand(server: Server) -> None:
    match_id, seats = new_live(server)
    with server.client("organiser") as c:
        truth = c.get(f"/matches/{match_id}/board").json()
    seq = truth["seq"]
    assert all(hands(truth).values())  # both hands are dealt: a leak would show
    seen: dict[str, set[str]] = {"p1": set(), "p2": set()}
    for _ in range(3):  # in turn, so that each read after the first may come from a cache
        for seat, token in seats.items():
            with server.client(token) as c:
                r = c.get(f"/matches/{match_id}/board", params={"seq": seq})
            assert r.status_code == 200, r.text
            shown = hands(r.json())
            assert shown[seat] == hands(truth)[seat]
            assert [h for s, h in shown.items() if s != seat] == [None]
            seen[seat].add(r.headers["etag"])
    assert len(seen["p1"]) == len(seen["p2"]) == 1
    assert seen["p1"] != seen["p2"]


def test_a_tag_gives_304_only_to_a_reader_allowed_its_board(server: Server) -> None:
    match_id, seats = new_live(server)
    with server.client(seats["p1"]) as c:
        first = c.get(f"/matches/{match_id}/board")
        assert first.status_code == 200
        tag = first.headers["etag"]
        again = c.get(f"/matches/{match_id}/board", headers={"If-None-Match": tag})
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["etag"] == tag
    # the other seat sending p1's tag gets its own board, not a 304 on p1's
    with server.client(seats["p2"]) as c:
        r = c.get(f"/matches/{match_id}/board", headers={"If-None-Match": tag})
    assert r.status_code == 200
    assert hands(r.json())["p1"] is None
    # access is checked before the tag: no token, another match's token, another seat
    with server.client() as c:
        assert (
            c.get(f"/matches/{match_id}/board", headers={"If-None-Match": tag}).status_code == 401
        )
    with server.client("other") as c:
        assert (
            c.get(f"/matches/{match_id}/board", headers={"If-None-Match": tag}).status_code == 403
        )
    with server.client(seats["p2"]) as c:
        r = c.get(
            f"/matches/{match_id}/board", params={"player": "p1"}, headers={"If-None-Match": tag}
        )
    assert r.status_code == 403
    # an append moves the head: the board after it is another, with another tag
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [], "auto": 1, "seed": 1})
        assert r.status_code == 200, r.text
    with server.client(seats["p1"]) as c:
        after = c.get(f"/matches/{match_id}/board", headers={"If-None-Match": tag})
    assert after.status_code == 200
    assert after.json()["seq"] > first.json()["seq"]
    assert after.headers["etag"] != tag
