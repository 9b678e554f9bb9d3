"""``GET /diff`` for the games whose rules serve report and diff (`GameRules.audits`), over real
HTTP on loopback: an L5R record and a fork of it part where the fork begins (its marker against
the action the record took), each side judged by L5R's rules; two games are refused in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vwlog.store.tokens import Role

ROOT = Path(__file__).resolve().parents[2]
L5R = ROOT / "samples" / "l5r" / "legal_two_battlefields.jsonl"
WOW = ROOT / "samples" / "wowtcg" / "extra-turn.jsonl"

pytestmark = pytest.mark.slow


def _upload(c: Any, path: Path) -> str:
    r = c.post(
        "/matches", content=path.read_bytes(), headers={"Content-Type": "application/x-ndjson"}
    )
    assert r.status_code == 201, r.text
    match_id: str = r.json()["match_id"]
    return match_id


def test_a_fork_that_passed_instead_of_acting_is_diffed_by_the_game(tmp_path: Path) -> None:
    from tests.api.server import serving

    with serving(tmp_path) as server:
        server.token("judge", Role.JUDGE)
        with server.client("judge") as c:
            match = _upload(c, L5R)
            wow = _upload(c, WOW)
            fork = c.post(f"/matches/{match}/forks", json={"at": 5})
            assert fork.status_code == 201, fork.text
            fork_id = fork.json()["match_id"]
            played = c.post(f"/matches/{fork_id}/decisions", json={"decisions": ["pass"]})
            assert played.status_code == 200, played.text
            diff = c.get("/diff", params={"a": match, "b": fork_id})
            mixed = c.get("/diff", params={"a": match, "b": wow})
    assert diff.status_code == 200, diff.text
    body = diff.json()
    assert body["outcome"] != "identical", body
    part = body["divergence"]
    assert (part["seq"], body["common"]) == (6, 5), body
    assert (part["a"]["type"], part["b"]["type"]) == ("battle_action_taken", "match_forked")
    assert part["legal"] == {"a": True, "b": True}, part
    assert mixed.status_code == 400, mixed.text
    assert mixed.json()["message"] == (
        f"{match} and {wow} are records of different games (l5r, wowtcg)"
    )
