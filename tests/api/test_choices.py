"""Choices for results over HTTP: ``choices`` in an append decides a result whose skill leaves
one; a player's token chooses only for its own objects; a choice never used stores nothing."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from vwlog.events import CardMoved, LogHeader
from vwlog.io import codec
from vwlog.io.logfile import write_log
from vwlog.model.types import Phase, Zone
from vwlog.store.tokens import Role

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from harness import board  # the rules tests' scenario builder

if TYPE_CHECKING:
    from tests.api.server import Server

NDJSON = {"Content-Type": "application/x-ndjson"}
P1 = "p1"


def _digger_log(path: Path, match_id: str) -> tuple[str, str, str, int]:
    """A log stopped with p1's gravedigger skill on the register and two of p1's Followers
    (a soldier, then a rider) in the Graveyard; the object id, the rider, the soldier and the
    number of records."""
    sc = board(
        p1=(("citadel", ("gravedigger", "soldier", "rider")),),
        p2=(("keep", ("striker", "striker")),),
    )
    sc.to(Phase.MAIN1, turn=4)
    sc.use(sc.inst("p2", "striker"), target=sc.inst(P1, "soldier"))
    sc.use(sc.inst("p2", "striker", 1), target=sc.inst(P1, "rider"))
    sc.to(Phase.MAIN1, turn=5)
    sc.use(sc.inst(P1, "gravedigger"), resolve=False)
    header = codec.seal_header(LogHeader(match_id=match_id))
    write_log(path, header, codec.seal(header.hash or "", sc.records()))
    return sc.state.register[-1].id, sc.inst(P1, "rider"), sc.inst(P1, "soldier"), len(sc.events)


def _upload(server: Server, path: Path) -> str:
    with server.client("organiser") as c:
        r = c.post("/matches", content=path.read_bytes(), headers=NDJSON)
    assert r.status_code in (200, 201), r.text
    match_id: str = r.json()["match_id"]
    return match_id


def test_an_organiser_records_the_choice(server: Server, tmp_path: Path) -> None:
    object_id, rider, soldier, count = _digger_log(tmp_path / "a.jsonl", "digger-a")
    match_id = _upload(server, tmp_path / "a.jsonl")
    with server.client("organiser") as c:
        unused = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": ["pass"], "choices": {"o99": [rider]}},
        )
        assert unused.status_code == 400, unused.text
        assert "was not used" in unused.json()["message"]
        wrong = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": ["pass", "pass"], "choices": {object_id: [soldier, rider]}},
        )
        assert wrong.status_code == 400, wrong.text
        assert c.get(f"/matches/{match_id}").json()["events"] == count  # nothing stored
        done = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": ["pass", "pass"], "choices": {object_id: [rider]}},
        )
        assert done.status_code == 200, done.text
        results = [e for e in done.json()["events"] if e["type"] == "object_resulted"]
    moved = CardMoved(card=rider, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND)
    assert results[0]["effects"] == [moved.model_dump(mode="json")]


def test_a_player_chooses_only_for_its_own_objects(server: Server, tmp_path: Path) -> None:
    object_id, rider, _, _ = _digger_log(tmp_path / "b.jsonl", "digger-b")
    match_id = _upload(server, tmp_path / "b.jsonl")
    p1 = server.token(f"{match_id}-p1", Role.PLAYER, match_id=match_id, seat="p1")
    p2 = server.token(f"{match_id}-p2", Role.PLAYER, match_id=match_id, seat="p2")
    with server.client(p1) as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["pass"]})
        assert r.status_code == 200, r.text
    with server.client(p2) as c:
        r = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": ["pass"], "choices": {object_id: [rider]}},
        )
    assert r.status_code == 403, r.text
    assert "its own objects" in r.json()["message"]
