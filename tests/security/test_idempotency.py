"""A retried append is applied once: the ``Idempotency-Key`` header, kept in the store.

Over real HTTP on SQLite and on PostgreSQL with two worker processes (so a retry may reach the
other worker): the same append sent again with the same key stores nothing more and returns the
first receipt; the same key with another body is refused; of the same append sent at once by
several clients with one key, exactly one is applied.
"""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from tests.security.conftest import new_live
from tests.security.seatview import drive, head, priority_of

if TYPE_CHECKING:
    import httpx

    from tests.api.server import Server

RETRIES = 6
"""Times a request is sent again (with two workers, some reach each)."""


def _key() -> dict[str, str]:
    return {"Idempotency-Key": f"k-{secrets.token_hex(8)}"}


def _post(c: httpx.Client, path: str, body: dict[str, Any], key: dict[str, str]) -> httpx.Response:
    return c.post(path, json=body, headers=key)


def test_an_organisers_retried_append_is_applied_once(server: Server) -> None:
    match_id, _ = new_live(server)
    path = f"/matches/{match_id}/decisions"
    body = {"decisions": [], "auto": 2}
    key = _key()
    before = head(server, match_id)
    with server.client("organiser") as c:
        first = _post(c, path, body, key)
        assert first.status_code == 200, first.text
        assert first.json()["appended"] >= 2
        after = head(server, match_id)
        assert after == before + first.json()["appended"]
        for _ in range(RETRIES):
            again = _post(c, path, body, key)
            assert again.status_code == 200, again.text
            assert again.json() == first.json()
        assert head(server, match_id) == after, "a retry was applied again"
        # the same key for another request is refused, and stores nothing
        other = _post(c, path, {"decisions": [], "auto": 1}, key)
        assert other.status_code in (409, 422), other.text
        assert "Idempotency-Key" in other.json()["message"]
        assert head(server, match_id) == after
        # without the key the same body is a new append
        fresh = _post(c, path, body, _key())
        assert fresh.status_code == 200, fresh.text
        assert head(server, match_id) == after + fresh.json()["appended"]


def test_a_players_retried_decision_is_applied_once(server: Server) -> None:
    match_id, seats = new_live(server)
    drive(server, match_id, priority_of("p1"))
    path = f"/matches/{match_id}/decisions"
    key = _key()
    before = head(server, match_id)
    with server.client(seats["p1"]) as c:
        first = _post(c, path, {"decisions": ["pass"]}, key)
        assert first.status_code == 200, first.text
        after = head(server, match_id)
        assert after > before
        for _ in range(RETRIES):
            again = _post(c, path, {"decisions": ["pass"]}, key)
            assert (again.status_code, again.json()) == (200, first.json())
        other = _post(c, path, {"decisions": ["concede"]}, key)
        assert other.status_code in (409, 422), other.text
    # the same key from another token is another request
    with server.client(seats["p2"]) as c:
        theirs = _post(c, path, {"decisions": ["pass"]}, key)
        assert theirs.status_code in (409, 422), theirs.text
    assert head(server, match_id) == after


def test_a_refused_append_keeps_no_key(server: Server) -> None:
    """An append refused by the rules stores nothing, and its key stays free: sent again, it
    is judged again."""
    match_id, _ = new_live(server)
    drive(server, match_id, priority_of("p1"))
    path = f"/matches/{match_id}/decisions"
    key = _key()
    before = head(server, match_id)
    with server.client("organiser") as c:
        for _ in range(3):
            r = _post(c, path, {"decisions": ["p2: pass"]}, key)
            assert r.status_code == 422, r.text
            assert r.json()["rules"]
        assert head(server, match_id) == before
        r = _post(c, path, {"decisions": ["pass"]}, key)
        assert r.status_code == 200, r.text


def test_a_retried_ruling_is_recorded_once(server: Server) -> None:
    match_id, _ = new_live(server)
    drive(server, match_id, priority_of("p1"))
    path = f"/matches/{match_id}/rulings"
    body = {"kind": "WARNING", "reason": "slow play"}
    key = _key()
    before = head(server, match_id)
    with server.client("judge") as c:
        first = _post(c, path, body, key)
        assert first.status_code == 201, first.text
        for _ in range(RETRIES):
            again = _post(c, path, body, key)
            assert (again.status_code, again.json()) == (200, first.json())
        other = _post(c, path, {**body, "reason": "another"}, key)
        assert other.status_code in (409, 422), other.text
    assert head(server, match_id) == before + 1


def test_the_same_append_sent_at_once_is_applied_once(server: Server) -> None:
    """Eight clients send one append with one key at the same moment: one is applied; every
    answer is its receipt or a 409 (the first is still under way); a retry afterwards gets the
    receipt."""
    match_id, _ = new_live(server)
    path = f"/matches/{match_id}/decisions"
    body = {"decisions": [], "auto": 3}
    key = _key()
    before = head(server, match_id)

    def send(_: int) -> httpx.Response:
        with server.client("organiser") as c:
            return _post(c, path, body, key)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    receipts = [r.json() for r in answers if r.status_code == 200]
    assert receipts, [r.text for r in answers]
    assert all(r.status_code in (200, 409) for r in answers), [r.text for r in answers]
    assert all(r == receipts[0] for r in receipts)
    assert head(server, match_id) == before + receipts[0]["appended"]
    with server.client("organiser") as c:
        again = _post(c, path, body, key)
    assert (again.status_code, again.json()) == (200, receipts[0])
    assert head(server, match_id) == before + receipts[0]["appended"]
