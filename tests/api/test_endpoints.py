"""The service's endpoints over real HTTP, on SQLite and on PostgreSQL with two workers."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING

import httpx

from tests.api.server import SAMPLES
from vwlog.api.signing import verify

if TYPE_CHECKING:
    from pathlib import Path

    from tests.api.server import Server

NDJSON = {"Content-Type": "application/x-ndjson"}


def new_live_match(server: Server, match_id: str, seed: int = 0) -> dict[str, object]:
    """Start a live match as the organiser."""
    with server.client("organiser") as c:
        r = c.post(
            "/live",
            json={"match_id": match_id, "decks": ["order-aggro", "mystic-reigner"], "seed": seed},
        )
    assert r.status_code == 201, r.text
    meta: dict[str, object] = r.json()
    return meta


def test_health_answers_ok(server: Server) -> None:
    with server.client() as c:
        r = c.get("/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok"


def test_a_finished_match_is_public_and_its_events_page_by_seq(server: Server) -> None:
    match = server.tokens["match:absolute-victory"]
    with server.client() as c:
        meta = c.get(f"/matches/{match}").json()
        first = c.get(f"/matches/{match}/events", params={"limit": 5}).json()
        second = c.get(f"/matches/{match}/events", params={"after": 5, "limit": 5}).json()
    assert meta["winner"] is not None
    assert [e["seq"] for e in first["events"]] == [1, 2, 3, 4, 5]
    assert [e["seq"] for e in second["events"]] == [6, 7, 8, 9, 10]
    assert first["events"][0]["event"]["type"] == "match_started"
    assert first["head_seq"] == meta["events"]


def test_the_list_filters_and_pages(server: Server) -> None:
    with server.client() as c:
        everything = c.get("/matches", params={"limit": 1000}).json()
        page = c.get("/matches", params={"limit": 2, "offset": 1}).json()
        won = c.get("/matches", params={"winner": "p1", "limit": 1000}).json()
    ids = [m["match_id"] for m in everything["matches"]]
    assert server.tokens["match:full-combat"] in ids
    assert "live-1" in ids
    assert page["matches"] == everything["matches"][1:3]
    assert won["total"] >= 1
    assert all(m["winner"] == "p1" for m in won["matches"])


def test_the_board_at_a_seq_is_the_state_after_that_event(server: Server) -> None:
    match = server.tokens["match:full-combat"]
    with server.client("judge") as c:
        early = c.get(f"/matches/{match}/board", params={"seq": 10}).json()
        last = c.get(f"/matches/{match}/board").json()
        tenth = c.get(f"/matches/{match}/events", params={"after": 9, "limit": 1}).json()
        out_of_range = c.get(f"/matches/{match}/board", params={"seq": 10**6})
    event = tenth["events"][0]
    assert event["seq"] == 10
    assert (early["seq"], early["turn"], early["phase"], early["step"]) == (
        10,
        event["turn"],
        event["phase"],
        event["step"],
    )
    assert last["seq"] == tenth["head_seq"]
    assert all(p["hand"] is not None for p in last["players"])
    assert out_of_range.status_code == 400
    assert out_of_range.json()["error"] == "bad_request"


def test_one_players_view_hides_the_other_hands(server: Server) -> None:
    match = server.tokens["match:full-combat"]
    with server.client("judge") as c:
        view = c.get(f"/matches/{match}/board", params={"player": "p1"}).json()
        nobody = c.get(f"/matches/{match}/board", params={"player": "p9"})
    hands = {p["id"]: p["hand"] for p in view["players"]}
    assert view["viewer"] == "p1"
    assert hands["p1"] is not None
    assert hands["p2"] is None
    assert isinstance(view["known"], list)
    assert nobody.status_code == 400


def test_events_as_one_player_knows_them_leave_the_records_out(server: Server) -> None:
    match = server.tokens["match:full-combat"]
    with server.client("judge") as c:
        full = c.get(f"/matches/{match}/events", params={"limit": 20}).json()
        mine = c.get(f"/matches/{match}/events", params={"limit": 20, "player": "p1"}).json()
        nobody = c.get(f"/matches/{match}/events", params={"player": "p9"})
    assert mine["viewer"] == "p1"
    assert [e["seq"] for e in mine["events"]] == [e["seq"] for e in full["events"]]
    assert all(e["event"] is None for e in mine["events"])
    assert all(e["event"] is not None for e in full["events"])
    assert nobody.status_code == 400


def test_validation_and_integrity_reports(server: Server) -> None:
    match = server.tokens["match:full-combat"]
    with server.client("judge") as c:
        report = c.get(f"/matches/{match}/validation").json()
        chain = c.get(f"/matches/{match}/integrity").json()
    assert report["ok"] is True
    assert report["violations"] == []
    assert chain["ok"] is True
    assert chain["broken"] is None


def test_a_flagged_upload_reports_its_violations_with_rule_ids(server: Server) -> None:
    log = (SAMPLES / "invalid" / "damage-over-atk.jsonl").read_bytes()
    expected = json.loads((SAMPLES / "invalid" / "damage-over-atk.expected.json").read_text())
    with server.client("organiser") as c:
        stored = c.post("/matches", content=log, headers=NDJSON)
        again = c.post("/matches", content=log, headers=NDJSON)
        match = stored.json()["match_id"]
        report = c.get(f"/matches/{match}/validation").json()
    assert stored.status_code in (200, 201)
    assert again.status_code == 200
    assert again.json()["outcome"] == "unchanged"
    rules = {v["rule"] for v in report["violations"]}
    wanted = {
        v["rule"] for v in (expected if isinstance(expected, list) else expected["violations"])
    }
    assert wanted <= rules


def test_uploading_a_malformed_log_names_the_line_and_stores_nothing(server: Server) -> None:
    good = (SAMPLES / "register-lifo.jsonl").read_text().splitlines()
    lines = [good[0].replace("sample-register-lifo", "broken-upload"), *good[1:]]
    lines[3] = lines[3].replace('"seq":', '"sequence":', 1)
    with server.client("organiser") as c:
        r = c.post("/matches", content="\n".join(lines) + "\n", headers=NDJSON)
        listed = c.get("/matches", params={"limit": 1000}).json()
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "invalid_log"
    assert body["line"] == 4
    assert body["message"].startswith("upload, line 4")
    assert "broken-upload" not in [m["match_id"] for m in listed["matches"]]


def test_another_log_under_a_stored_id_is_a_conflict(server: Server) -> None:
    lines = (SAMPLES / "register-lifo.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    for r in records:
        r.pop("hash", None)
    records = records[:-1]  # the same match id, other content
    body = "\n".join(json.dumps(r) for r in records) + "\n"
    with server.client("organiser") as c:
        r = c.post("/matches", content=body, headers=NDJSON)
    assert r.status_code == 409
    assert r.json()["error"] == "conflict"


def test_an_upload_over_the_limit_is_refused_with_413(server: Server) -> None:
    big = b'{"format": "vwlog", "version": 1, "match_id": "huge"}\n' + b" " * (3 * 1024 * 1024)

    def chunks() -> object:
        for i in range(0, len(big), 65536):
            yield big[i : i + 65536]

    with server.client("organiser") as c:
        declared = c.post("/matches", content=big, headers=NDJSON)
        streamed = c.post("/matches", content=chunks(), headers=NDJSON)  # type: ignore[arg-type]
    assert declared.status_code == 413
    assert streamed.status_code == 413
    assert streamed.json()["error"] == "too_large"


def test_export_gives_back_the_uploaded_lines(server: Server, tmp_path: Path) -> None:
    match = server.tokens["match:register-lifo"]
    with server.client("judge") as c:
        r = c.get(f"/matches/{match}/export")
    assert r.status_code == 200
    original = (SAMPLES / "register-lifo.jsonl").read_bytes().splitlines()
    exported = r.content.splitlines()
    assert len(exported) == len(original)
    assert json.loads(exported[-1])["seq"] == json.loads(original[-1])["seq"]


def test_diff_of_a_match_and_its_fork_names_the_divergence(server: Server) -> None:
    match = server.tokens["match:full-combat"]
    with server.client("judge") as c:
        events = c.get(f"/matches/{match}/events", params={"limit": 200}).json()["events"]
        at = next(e["seq"] for e in events if e["priority_point"] and e["seq"] > 20)
        fork = c.post(f"/matches/{match}/forks", json={"at": at})
        assert fork.status_code == 201, fork.text
        fork_id = fork.json()["match_id"]
        played = c.post(f"/matches/{fork_id}/decisions", json={"decisions": [], "auto": 3})
        diff = c.get("/diff", params={"a": match, "b": fork_id})
        tree = c.get(f"/matches/{fork_id}/lineage").json()
        not_a_point = c.post(f"/matches/{match}/forks", json={"at": 1})
    assert played.status_code == 200, played.text
    assert diff.status_code == 200, diff.text
    assert tree["match"]["match_id"] == match
    assert fork_id in [f["match"]["match_id"] for f in tree["forks"]]
    assert not_a_point.status_code == 400
    assert "not a priority point" in not_a_point.json()["message"]


def test_an_unknown_match_is_404(server: Server) -> None:
    with server.client("judge") as c:
        r = c.get("/matches/no-such-match/events")
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"


def test_bad_query_parameters_are_422_naming_the_field(server: Server) -> None:
    with server.client() as c:
        r = c.get("/matches", params={"limit": "many"})
    assert r.status_code == 422
    assert r.json()["field"] == "limit"


def test_published_pools_decks_rulesets_and_rules(server: Server) -> None:
    with server.client() as c:
        pools = c.get("/pools").json()
        decks = c.get("/pools/decks").json()
        deck = c.get(f"/pools/decks/{decks[0]}").json()
        rulesets = c.get("/rulesets").json()
        rules = c.get("/rules").json()
        missing = c.get("/pools/decks/no-such-deck")
    assert pools[0]["cards"]
    assert deck["cards"]
    assert rulesets[0]["id"]
    assert any(r["id"] == "R-REG-6" for r in rules)
    assert missing.status_code == 404


def test_statistics_per_match_and_corpus(server: Server) -> None:
    match = server.tokens["match:absolute-victory"]
    with server.client() as c:
        one = c.get(f"/matches/{match}/stats")
    with server.client("judge") as c:
        corpus = c.get("/stats")
    assert one.status_code == 200, one.text
    assert one.json()["match_id"] == match
    assert corpus.status_code == 200
    assert corpus.json()["matches"] >= 4


# -- live recording ------------------------------------------------------------------------


def test_live_appends_answer_with_a_signed_receipt(server: Server) -> None:
    match = "live-receipt"
    new_live_match(server, match)
    with server.client("organiser") as c:
        key = c.get("/service/key").json()["public_key"]
        before = c.get(f"/matches/{match}/awaited").json()
        decision = json.dumps(before["legal"][0], separators=(",", ":"))
        r = c.post(
            f"/matches/{match}/decisions",
            json={"decisions": [decision], "expected_seq": before["seq"]},
        )
        after = c.get(f"/matches/{match}/awaited").json()
    assert r.status_code == 200, r.text
    receipt = r.json()
    assert receipt["first_seq"] == before["seq"] + 1
    assert receipt["head_seq"] == after["seq"]
    assert receipt["head_hash"] == after["head_hash"]
    assert receipt["appended"] >= 1
    assert receipt["events"][0] == before["legal"][0]
    payload = {k: receipt[k] for k in ("match_id", "head_seq", "head_hash")}
    assert verify(key, payload, receipt["signature"])
    assert not verify(key, {**payload, "head_seq": 1}, receipt["signature"])


def test_legal_decisions_come_in_words_and_sentences_like_the_command_line(
    server: Server, tmp_path: Path
) -> None:
    from vwlog.io.logfile import read_log
    from vwlog.services.decisions import awaited_in_log

    match = "live-words"
    new_live_match(server, match)
    with server.client("organiser") as c:
        for _ in range(4):  # a few decisions in, past the first supply choice
            a = c.get(f"/matches/{match}/awaited").json()
            assert len(a["options"]) == len(a["legal"]) > 0
            log = tmp_path / "m.jsonl"
            log.write_bytes(c.get(f"/matches/{match}/export").content)
            # the same words as `vwlog next` gives for the same position
            cli = awaited_in_log(read_log(log)[1])
            assert [o["words"] for o in a["options"]] == list(cli.decisions)
            for o in a["options"]:
                assert o["text"], o
                assert not o["text"].startswith("{"), o
            chosen = a["options"][-1]
            r = c.post(
                f"/matches/{match}/decisions",
                json={"decisions": [chosen["words"]], "expected_seq": a["seq"]},
            )
            assert r.status_code == 200, r.text
            # the words append exactly the legal event they stand for
            assert r.json()["events"][0] == a["legal"][-1]


def test_before_the_first_event_nothing_is_awaited_and_the_start_rule_is_named(
    server: Server,
) -> None:
    match = "live-empty-board"
    new_live_match(server, match)
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match}/awaited", params={"at": 0})
    assert r.status_code == 200, r.text
    body = r.json()
    # the empty board: no ruleset yet, so nobody decides; the rule is VW's for CORE-LOG-1
    assert (body["seq"], body["player"], body["kind"], body["over"]) == (0, None, None, False)
    assert body["rule"] == "R-SET-1"
    assert body["legal"] == []


def test_an_illegal_decision_is_refused_with_its_rule_ids_and_nothing_is_stored(
    server: Server,
) -> None:
    match = "live-illegal"
    new_live_match(server, match)
    with server.client("judge") as c:
        before = c.get(f"/matches/{match}/awaited").json()
        other = "p1" if before["player"] == "p2" else "p2"
        r = c.post(
            f"/matches/{match}/decisions",
            json={"decisions": [json.dumps({"type": "priority_passed", "player": other})]},
        )
        after = c.get(f"/matches/{match}/awaited").json()
        garbled = c.post(f"/matches/{match}/decisions", json={"decisions": ["fly away"]})
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "illegal_decision"
    assert body["rules"]
    assert all(rule.startswith("R-") for rule in body["rules"])
    assert after["seq"] == before["seq"]
    assert after["head_hash"] == before["head_hash"]
    assert garbled.status_code == 400
    # the library's words, about the request's field, with no command-line advice
    assert garbled.json()["field"] == "decisions"
    assert "unknown decision 'fly'" in garbled.json()["message"]
    assert "vwlog" not in garbled.json()["message"]


def test_concurrent_appends_one_wins_the_other_gets_409_with_the_head(server: Server) -> None:
    match = "live-race"
    new_live_match(server, match)
    with server.client("organiser") as c:
        head = c.get(f"/matches/{match}/awaited").json()
    body = {"decisions": [], "auto": 1, "expected_seq": head["seq"]}
    results: list[httpx.Response] = []
    gate = threading.Barrier(4)

    def append() -> None:
        with server.client("organiser") as client:
            gate.wait()
            results.append(client.post(f"/matches/{match}/decisions", json=body))

    threads = [threading.Thread(target=append) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409, 409, 409], [r.text for r in results]
    won = next(r for r in results if r.status_code == 200).json()
    for lost in (r for r in results if r.status_code == 409):
        assert lost.json()["head_seq"] == won["head_seq"]
        assert lost.json()["head_hash"] == won["head_hash"]
    with server.client("organiser") as c:
        events = c.get(f"/matches/{match}/events", params={"limit": 1000}).json()
        chain = c.get(f"/matches/{match}/integrity").json()
    seqs = [e["seq"] for e in events["events"]]
    assert seqs == list(range(1, won["head_seq"] + 1))
    assert chain["ok"] is True


def test_a_judge_records_a_ruling(server: Server) -> None:
    match = "live-ruling"
    new_live_match(server, match)
    with server.client("judge") as c:
        r = c.post(
            f"/matches/{match}/rulings",
            json={"kind": "WARNING", "reason": "slow play <script>"},
        )
        listed = c.get(f"/matches/{match}/rulings").json()
    assert r.status_code == 201, r.text
    assert listed[-1]["kind"] == "WARNING"
    assert listed[-1]["judge"] == "Head Judge"
    assert listed[-1]["seq"] == r.json()["head_seq"]


def test_watchers_follow_a_live_match_over_server_sent_events(server: Server) -> None:
    match = "live-watch"
    new_live_match(server, match)
    seen: list[int] = []
    ended: list[dict[str, object]] = []
    ready = threading.Event()

    def watch() -> None:
        with (
            server.client("judge") as c,
            c.stream("GET", f"/matches/{match}/stream", params={"seconds": 20}) as r,
        ):
            kind = ""
            for line in r.iter_lines():
                if line.startswith("event: "):
                    kind = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    data = json.loads(line.removeprefix("data: "))
                    if kind == "record":
                        seen.append(data["seq"])
                        ready.set()
                    elif kind == "end":
                        ended.append(data)
                        return

    watcher = threading.Thread(target=watch)
    watcher.start()
    assert ready.wait(30)
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match}/decisions", json={"decisions": [], "auto": 5})
        assert r.status_code == 200, r.text
        head = r.json()["head_seq"]
        # a concession ends the match, and the stream with it
        awaited = c.get(f"/matches/{match}/awaited").json()
        conceded = c.post(
            f"/matches/{match}/decisions",
            json={"decisions": [json.dumps({"type": "conceded", "player": awaited["player"]})]},
        )
        assert conceded.status_code == 200, conceded.text
        final = conceded.json()["head_seq"]
    watcher.join(40)
    assert not watcher.is_alive()
    assert seen == list(range(1, final + 1))
    assert head < final
    assert ended
    assert ended[0]["over"] is True


def test_stats_report_and_the_list_filters_its_charts_link_to(server: Server) -> None:
    with server.client("judge") as c:
        report = c.get("/stats/report", params={"min_n": 1}).json()
        everything = c.get("/matches", params={"limit": 1000}).json()["matches"]
        unfinished = c.get("/matches", params={"victory": "UNFINISHED", "limit": 1000}).json()
        done = c.get("/matches", params={"finished": True, "limit": 1000}).json()["matches"]
        short = c.get("/matches", params={"min_turns": 2, "max_turns": 3, "limit": 1000}).json()
        assert c.get("/stats/report", params={"min_n": 0}).status_code == 422
    # the same report as `vwlog stats --format json`, plus the ranked card ids
    assert report["min_n"] == 1
    by_id = {x["card"]: x for x in report["cards"]}
    lows = [by_id[k]["played"]["ci95_low"] for k in report["top_cards"]]
    assert lows == sorted(lows, reverse=True)
    assert all(by_id[k]["played"]["n"] >= 1 for k in report["top_cards"])
    counted = {v["victory"]: v["matches"] for v in report["victory_types"]}
    assert unfinished["total"] == counted.get("UNFINISHED", 0)
    assert unfinished["total"] == sum(1 for m in everything if m["winner"] is None)
    assert all(m["winner"] is not None for m in done)
    assert len(done) + unfinished["total"] == len(everything)
    expected = [
        m["match_id"] for m in everything if m["turns"] is not None and 2 <= m["turns"] <= 3
    ]
    assert 0 < len(expected) < len(everything)
    assert [m["match_id"] for m in short["matches"]] == expected
    assert unfinished["total"] > 0
    assert done
