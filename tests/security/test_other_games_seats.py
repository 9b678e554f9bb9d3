"""A player's token on a WoW TCG match, attacking over real HTTP on loopback as a cheating
player would: it makes only its own seat's decisions, one per call, as the rules allow; it
reads the match as its seat may know it (a card the other seat placed face down as a resource
is named in no answer, and no chain hash over that record is shown to it); every answer is a
clear status, never a 500.

The match is a fork of ``samples/wowtcg/combat-and-responses.jsonl`` after seq 11, where ana
holds priority in her action phase (the record goes on with ``resource ana-res-1``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vwlog.store.tokens import Role

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "samples" / "wowtcg" / "combat-and-responses.jsonl"
SECRET = "ana-res-1"

pytestmark = pytest.mark.slow


def _head(c: Any, match_id: str) -> tuple[int, str]:
    meta = c.get(f"/matches/{match_id}").json()
    return meta["events"], meta["head_hash"]


def _reads(c: Any, match_id: str) -> dict[str, Any]:
    """Every answer a seat reads about the match, by path."""
    paths = ["", "/events", "/board", "/awaited", "/integrity", "/events?player=ana"]
    return {p: c.get(f"/matches/{match_id}{p}") for p in paths}


def test_a_player_on_a_wow_match_makes_only_its_seats_decisions(tmp_path: Path) -> None:
    from tests.api.server import serving

    with serving(tmp_path) as server:
        server.token("judge", Role.JUDGE)
        with server.client("judge") as c:
            up = c.post(
                "/matches",
                content=LOG.read_bytes(),
                headers={"Content-Type": "application/x-ndjson"},
            )
            assert up.status_code == 201, up.text
            fork = c.post(f"/matches/{up.json()['match_id']}/forks", json={"at": 11})
            assert fork.status_code == 201, fork.text
        match = fork.json()["match_id"]
        server.token("ana", Role.PLAYER, match_id=match, seat="ana")
        server.token("budi", Role.PLAYER, match_id=match, seat="budi")
        with server.client("budi") as c:
            before = _head(c, match)
            attempts = {
                # ana's pass, written as the awaited decision: another seat's
                "pass": c.post(f"/matches/{match}/decisions", json={"decisions": ["pass"]}),
                "ana: pass": c.post(
                    f"/matches/{match}/decisions", json={"decisions": ["ana: pass"]}
                ),
                "auto": c.post(f"/matches/{match}/decisions", json={"decisions": [], "auto": 3}),
                "two": c.post(
                    f"/matches/{match}/decisions",
                    json={"decisions": ["budi: pass", "budi: pass"]},
                ),
            }
            out_of_turn = c.post(f"/matches/{match}/decisions", json={"decisions": ["budi: pass"]})
            after = _head(c, match)
        for name, r in attempts.items():
            assert r.status_code == 403, (name, r.text)
            assert r.json()["error"] == "forbidden", name
        assert "only its own seat's decisions" in attempts["pass"].json()["message"]
        assert "only its own seat's decisions" in attempts["ana: pass"].json()["message"]
        assert "automatic" in attempts["auto"].json()["message"]
        assert "one decision per call" in attempts["two"].json()["message"]
        # its own decision out of turn: the rules refuse it, citing the game's rule
        assert out_of_turn.status_code == 422, out_of_turn.text
        assert "WOW-PRI-4" in out_of_turn.json()["rules"], out_of_turn.text
        assert after == before  # nothing stored

        with server.client("ana") as c:
            placed = c.post(
                f"/matches/{match}/decisions", json={"decisions": [f"resource {SECRET}"]}
            )
            mine = _reads(c, match)
        assert placed.status_code == 200, placed.text
        receipt = placed.json()
        assert receipt["appended"] >= 1
        assert receipt["events"] == []
        assert receipt["signature"]
        with server.client("budi") as c:
            theirs = _reads(c, match)
            other_seat = c.get(f"/matches/{match}/events", params={"player": "ana"})
    for path, r in [*mine.items(), *theirs.items()]:
        assert r.status_code in (200, 403), (path, r.status_code, r.text)
    assert other_seat.status_code == 403  # budi reads only its own seat's view
    for path, r in theirs.items():
        assert SECRET not in r.text, (path, r.text)
    events = theirs["/events"].json()["events"]
    said = {e["seq"]: e for e in events}
    own = {e["seq"]: e for e in mine["/events"].json()["events"]}
    (at,) = [s for s, e in own.items() if SECRET in e["description"]]
    assert said[at]["description"] == "ana places a card as a resource"
    assert all(e["event"] is None for e in events)
    # budi could read every record before the resource in full (the fork marker too), none
    # from it on
    assert at > 12
    assert all(said[s]["hash"] for s in range(1, at))
    assert all(said[s]["hash"] is None for s in said if s >= at)
    assert theirs[""].json()["head_hash"] is None
    assert theirs["/awaited"].json()["head_hash"] is None
    # ana placed it: she reads it, and every hash
    assert all(own[s]["hash"] for s in own)
    assert mine[""].json()["head_hash"] == receipt["head_hash"]
