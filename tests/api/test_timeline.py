"""The timeline of a match (what the viewer's scrubber marks and jumps to) agrees with its
events and its validation report, also after appends extend a timeline kept by the service."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from tests.api.server import SAMPLES
from vwlog.api.cache import HeadCache
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from pathlib import Path

    import httpx

    from tests.api.server import Server


def from_events(c: httpx.Client, match_id: str) -> dict[str, Any]:
    """The timeline derived from the match's events, read page by page."""
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = c.get(f"/matches/{match_id}/events", params={"after": after, "limit": 1000})
        assert page.status_code == 200, page.text
        got = page.json()["events"]
        if not got:
            break
        events += got
        after = got[-1]["seq"]
    turns, combat = [], []
    turn, step = None, None
    for e in events:
        if e["turn"] != turn:
            turn = e["turn"]
            turns.append([e["seq"], e["turn"]])
        if e["phase"] == "COMBAT" and e["step"] and e["step"] != step:
            combat.append(e["seq"])
        step = e["step"]
    return {
        "head_seq": events[-1]["seq"] if events else 0,
        "turns": turns,
        "combat_steps": combat,
        "priority_points": [e["seq"] for e in events if e["priority_point"]],
        "violations": [[e["seq"], v["rule"]] for e in events for v in e["violations"]],
    }


def shown(c: httpx.Client, match_id: str) -> dict[str, Any]:
    r = c.get(f"/matches/{match_id}/timeline")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert body.pop("match_id") == match_id
    return body


def test_the_timeline_marks_what_the_events_say(server: Server) -> None:
    with server.client("judge") as c:
        r = c.post(
            "/matches",
            content=(SAMPLES / "invalid" / "fatigued-follower-attacks.jsonl").read_bytes(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert r.status_code in (200, 201), r.text
        flagged = r.json()["match_id"]
        for match_id in (server.tokens["match:full-combat"], flagged):
            t = shown(c, match_id)
            assert t == from_events(c, match_id)
            assert t["priority_points"]
            assert t["combat_steps"]
            assert shown(c, match_id) == t  # kept: the same answer again
        report = c.get(f"/matches/{flagged}/validation").json()
        assert t["violations"] == [[v["seq"], v["rule"]] for v in report["violations"]]
        assert t["violations"]


def test_appends_extend_the_kept_timeline(server: Server) -> None:
    match_id = "timeline-live"
    with server.client("organiser") as c:
        r = c.post("/live", json={"match_id": match_id, "decks": ["order-aggro", "mystic-reigner"]})
        assert r.status_code == 201, r.text
        shown(c, match_id)
        for n in range(6):
            a = c.get(f"/matches/{match_id}/awaited").json()
            words = a["options"][-1]["words"]
            auto = 25 if n % 2 else 0  # some appends cross turns and combat
            r = c.post(
                f"/matches/{match_id}/decisions",
                json={"decisions": [words], "expected_seq": a["seq"], "auto": auto},
            )
            assert r.status_code == 200, r.text
            assert shown(c, match_id) == from_events(c, match_id), f"after append {n}"
        assert len(shown(c, match_id)["turns"]) > 1


def test_a_kept_answer_is_computed_once_per_head(tmp_path: Path) -> None:
    from tests.api.server import vwlog

    db = str(tmp_path / "s.db")
    vwlog(db, "import", str(SAMPLES / "full-combat.jsonl"))
    cache: HeadCache[int] = HeadCache(2)
    calls: list[int] = []
    gate = threading.Event()

    def compute(upto: int) -> int:
        calls.append(upto)
        gate.wait(5)
        return upto

    with MatchStore.open(db) as store:
        match_id = store.list_matches()[0].match_id
        head = store.head(match_id).seq
        out: list[int] = []
        threads = [
            threading.Thread(target=lambda: out.append(cache.get(store, match_id, compute)))
            for _ in range(3)
        ]
        for t in threads:
            t.start()
        gate.set()
        for t in threads:
            t.join(10)
        assert out == [head, head, head]
        assert calls == [head]  # three requests at once computed it once
        assert cache.latest(match_id) == (head, store.head(match_id).hash, head)
        assert cache.latest("no-such-match") is None


def test_extending_a_timeline_gives_the_whole_one(tmp_path: Path) -> None:
    from tests.api.server import vwlog
    from vwlog.services.timeline import extend, timeline

    db = str(tmp_path / "s.db")
    for name in ("full-combat", "judge-backup", "triggers-and-auras"):
        vwlog(db, "import", str(SAMPLES / f"{name}.jsonl"))
    with MatchStore.open(db) as store:
        for meta in store.list_matches():
            whole = timeline(store, meta.match_id)
            assert whole.head_seq == meta.events
            for cut in range(1, whole.head_seq, max(1, whole.head_seq // 9)):
                part = timeline(store, meta.match_id, cut)
                assert part.head_seq == cut
                assert extend(part, store, meta.match_id, whole.head_seq) == whole, cut
