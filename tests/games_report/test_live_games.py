"""Live recording of WoW TCG and L5R matches over real HTTP on loopback: an organiser starts the
match from the game's start event (``POST /live/{game}``), the players append their own
decisions in the game's notation with their tokens and get signed receipts, and the exported
record is judged clean by the command line; a start that cannot be read or breaks a rule is
refused in one line with nothing stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.store.tokens import Role

ROOT = Path(__file__).resolve().parents[2]
WOW = ROOT / "samples" / "wowtcg" / "combat-and-responses.jsonl"
L5R = ROOT / "samples" / "l5r" / "legal_two_battlefields.jsonl"

pytestmark = pytest.mark.slow


def _start_of(path: Path) -> dict[str, Any]:
    for raw in path.read_bytes().splitlines():
        data = orjson.loads(raw)
        if data.get("seq") == 1:
            event: dict[str, Any] = data["event"]
            return event
    raise AssertionError(path)


def _append(c: Any, match: str, line: str) -> Any:
    return c.post(f"/matches/{match}/decisions", json={"decisions": [line]})


def test_a_wow_match_recorded_live_by_its_players(tmp_path: Path) -> None:
    from tests.api.server import serving

    with serving(tmp_path) as server:
        server.token("organiser", Role.ORGANISER)
        with server.client("organiser") as c:
            started = c.post("/live/wowtcg", json={"match_id": "w-1", "start": _start_of(WOW)})
            again = c.post("/live/wowtcg", json={"match_id": "w-1", "start": _start_of(WOW)})
        assert started.status_code == 201, started.text
        assert started.json()["players"] == ["ana", "budi"]
        assert again.status_code == 400, again.text
        server.token("ana", Role.PLAYER, match_id="w-1", seat="ana")
        server.token("budi", Role.PLAYER, match_id="w-1", seat="budi")
        receipts = []
        # the start window of ana's turn, then her action phase: a resource and a pass each
        for seat, line in [
            ("ana", "pass"),
            ("budi", "pass"),
            ("ana", "resource r1"),
            ("ana", "pass"),
            ("budi", "pass"),
        ]:
            with server.client(seat) as c:
                awaited = c.get("/matches/w-1/awaited").json()
                assert awaited["player"] == seat, (line, awaited)
                r = _append(c, "w-1", line)
            assert r.status_code == 200, (seat, line, r.text)
            receipts.append(r.json())
        with server.client("budi") as c:
            out_of_turn = _append(c, "w-1", "budi: pass")
            conceded = _append(c, "w-1", "budi: concede")  # a concession at any time
        with server.client("organiser") as c:
            verdict = c.get("/matches/w-1/validation").json()
            exported = c.get("/matches/w-1/export")
    assert all(r["signature"] and r["events"] == [] for r in receipts)
    assert [r["first_seq"] for r in receipts] == sorted({r["first_seq"] for r in receipts})
    assert out_of_turn.status_code in (403, 422), out_of_turn.text
    assert conceded.status_code == 200, conceded.text
    assert conceded.json()["winner"] == "ana"
    assert verdict["violations"] == [], verdict
    log = tmp_path / "w-1.jsonl"
    log.write_bytes(exported.content)
    assert orjson.loads(exported.content.splitlines()[0])["game"] == "wowtcg"
    result = CliRunner().invoke(main, ["--lang", "en", "validate", str(log)])
    assert result.exit_code == 0, result.output
    assert "1 log: 1 legal, 0 illegal, 0 unreadable" in result.output
    assert "won by ana (concession)" in result.output


def test_an_l5r_battle_recorded_live_and_bad_starts_refused(tmp_path: Path) -> None:
    from tests.api.server import serving

    start = _start_of(L5R)
    with serving(tmp_path) as server:
        server.token("judge", Role.JUDGE)
        with server.client("judge") as c:
            bad_field = c.post(
                "/live/l5r", json={"match_id": "b-0", "start": {**start, "players": "p1"}}
            )
            not_a_start = c.post(
                "/live/l5r", json={"match_id": "b-0", "start": {"type": "opportunity_passed"}}
            )
            vw = c.post("/live/vw", json={"match_id": "b-0", "start": start})
            unknown = c.post("/live/chess", json={"match_id": "b-0", "start": start})
            stored_before = c.get("/matches").json()
            started = c.post("/live/l5r", json={"match_id": "b-1", "start": start})
            between = c.get("/matches/b-1/awaited").json()  # before an Attack phase
            phase = c.post("/matches/b-1/decisions", json={"decisions": ["phase p1"]})
            awaited = c.get("/matches/b-1/awaited").json()
            played = c.post("/matches/b-1/decisions", json={"decisions": [], "auto": 40})
            verdict = c.get("/matches/b-1/validation").json()
    for r in (bad_field, not_a_start, vw, unknown):
        assert r.status_code in (400, 422), r.text
        assert "\n" not in r.json()["message"]
    assert "'players'" in bad_field.json()["message"], bad_field.text
    assert (
        "starts with" in not_a_start.json()["message"]
        or "cannot be read" in (not_a_start.json()["message"])
    )
    assert "packaged decks" in vw.json()["message"]
    assert "chess" in unknown.json()["message"]
    assert stored_before["matches"] == []
    assert started.status_code == 201, started.text
    assert (between["player"], between["kind"]) == (None, "turn")
    assert phase.status_code == 200, phase.text
    assert (awaited["player"], awaited["kind"]) == ("p1", "armies")
    assert played.status_code == 200, played.text
    assert played.json()["decisions"] > 0
    assert verdict["violations"] == [], verdict
