"""The take-away game stored and served: imported by the real command line into an SQLite file
and into PostgreSQL, judged from the store as its file is judged, and uploaded to a real
``vwlog serve`` that answers its verdict, its events and its boards. Nothing in vwlog knows the
game: the store and the service ask `vwlog.games` for it."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from tests.games.conftest import ROOT, SAMPLES
from vwlog.io import codec
from vwlog.io.logfile import read_log, write_log
from vwlog.store import MatchStore
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tests.api.server import Server

LEGAL_EVENTS = [
    "takeaway_started players=['ana', 'budi'] pile=7 ruleset={'id': 'takeaway', 'version': 1, "
    "'most': 3}",
    "counters_taken player='ana' count=3",
    "move_passed player='budi'",
    "counters_taken player='ana' count=2",
    "counters_taken player='budi' count=2",
    "game_won player='budi'",
]
"""The legal sample's events, each said by its type and fields (the game has no views)."""
ILLEGAL_CITED = [("TAKE-MOVE-2", 4), ("TAKE-WIN-1", 5)]
"""What the illegal sample breaks, and where (as ``vwlog validate`` cites it)."""


def _vwlog(*args: str, store: str | None = None) -> subprocess.CompletedProcess[str]:
    opts = ["--store", store] if store is not None else []
    return subprocess.run(
        [sys.executable, "-m", "vwlog", *opts, *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=180,
    )


def _file_report(path: Path) -> dict[str, Any]:
    done = _vwlog("validate", "--format", "json", str(path))
    assert done.returncode in (0, 1), done.stderr
    (report,) = json.loads(done.stdout)
    return dict(report)


def _chained(name: str, folder: Path) -> Path:
    """The sample ``name`` with its hash chain (as its recorder would write it), so that the
    store keeps its lines byte for byte and judges what the file says."""
    header, records = read_log(SAMPLES / f"{name}.jsonl")
    head = codec.seal_header(header)
    assert head.hash is not None
    out = folder / f"{name}-chained.jsonl"
    write_log(out, head, codec.seal(head.hash, records))
    return out


def _cited(report: dict[str, Any]) -> list[tuple[str, int]]:
    return [(v["rule"], v["seq"]) for v in report["violations"]]


# -- the command line and the store ----------------------------------------------------------


def _import_list_verify(store: str, tmp_path: Path) -> None:
    """Import both samples (as written, without hashes, and chained) into ``store`` with the
    command line, then list them and judge them from the store as their files are judged."""
    files = {name: SAMPLES / f"{name}.jsonl" for name in ("legal", "illegal")}
    done = _vwlog("import", *map(str, files.values()), store=store)
    assert done.returncode == 1, done.stderr  # one log is illegal: stored, flagged
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    for name, match_id in (("legal", "take-1"), ("illegal", "take-2")):
        verdict = _file_report(files[name])["verdict"]
        (said,) = [line for line in lines if f" {match_id} " in line]
        assert said.startswith("stored"), said
        assert f"· {verdict} ·" in said, (said, verdict)
    listed = _vwlog("list", "--format", "json", store=store)
    assert listed.returncode == 0, listed.stderr
    rows = {m["match_id"]: m for m in json.loads(listed.stdout)}
    assert set(rows) == {"take-1", "take-2"}
    assert (rows["take-1"]["winner"], rows["take-1"]["victory"]) == ("budi", "last counter")
    assert rows["take-1"]["players"] == ["ana", "budi"]
    assert (rows["take-1"]["violations"], rows["take-1"]["flagged"]) == (0, False)
    assert rows["take-2"]["violation_summary"] == [f"{r}@{s}" for r, s in ILLEGAL_CITED]
    assert rows["take-2"]["flagged"] is True
    with MatchStore.open(store) as opened:
        # the catalog keeps the verdict its file was given
        assert opened.meta("take-1").verdict == _file_report(files["legal"])["verdict"]
        assert opened.meta("take-2").verdict == "ILLEGAL"
        assert opened.header("take-2").game == "takeaway"
        assert [type(r.event).__name__ for r in opened.records("take-1")][-1] == "GameWon"
    _verify_chained(store, tmp_path)


def _verify_chained(store: str, tmp_path: Path) -> None:
    """The chained samples, stored as they are, get from ``vwlog verify`` the verdict, reason
    and violations ``vwlog validate`` gives their files."""
    for name, match_id in (("legal", "take-1c"), ("illegal", "take-2c")):
        header, records = read_log(_chained(name, tmp_path))
        path = tmp_path / f"{match_id}.jsonl"
        head = codec.seal_header(header.model_copy(update={"match_id": match_id, "hash": None}))
        assert head.hash is not None
        write_log(path, head, codec.seal(head.hash, records))
        done = _vwlog("import", str(path), store=store)
        assert done.returncode == (0 if name == "legal" else 1), done.stderr
        from_file = _file_report(path)
        verified = _vwlog("verify", "--format", "json", match_id, store=store)
        assert "Traceback" not in verified.stderr, verified.stderr
        (stored,) = json.loads(verified.stdout)
        assert stored["chain_ok"] is True
        assert stored["derived"] == []  # the catalog agrees with the records
        assert (stored["verdict"], stored["reason"]) == (from_file["verdict"], from_file["reason"])
        exported = _vwlog("export", match_id, "-o", "-", store=store)
        assert exported.stdout.encode() == path.read_bytes()  # kept byte for byte
    assert _cited(_file_report(tmp_path / "take-2c.jsonl")) == ILLEGAL_CITED


def test_the_command_line_imports_take_away_into_sqlite_and_judges_it_there(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "store.db")
    _import_list_verify(store, tmp_path)
    with sqlite3.connect(store) as db:
        topics = {t for (t,) in db.execute("SELECT DISTINCT topic FROM stored_events")}
    records = {t for t in topics if not t.startswith("vwlog-store:")}
    # a game's records are stored under topics that name it; none is taken for VW's
    assert records == {
        "vwlog:takeaway.takeaway_started:v1",
        "vwlog:takeaway.counters_taken:v1",
        "vwlog:takeaway.move_passed:v1",
        "vwlog:takeaway.game_won:v1",
    }
    assert "vwlog-store:snapshot:v1" not in topics  # the game keeps none: replayed instead


@pytest.mark.postgres
def test_the_command_line_imports_take_away_into_postgresql_and_judges_it_there(
    tmp_path: Path, pg_schema: str
) -> None:
    _import_list_verify(pg_schema, tmp_path)


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A store on a fresh schema of the test PostgreSQL database, dropped afterwards."""
    from tests.store.pg import postgres_server

    server = postgres_server()  # a skip without a server, a failure under CI
    import secrets

    import psycopg

    name = f"take_{secrets.token_hex(4)}"
    try:
        yield f"{server}?schema={name}"
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def test_a_stored_take_away_record_is_read_only_as_its_matchs_game(tmp_path: Path) -> None:
    """A record whose topic names another game than its match's header is refused, not read
    as the header's game."""
    store = str(tmp_path / "store.db")
    done = _vwlog("import", str(SAMPLES / "legal.jsonl"), store=store)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(store) as db:
        db.execute(
            "UPDATE stored_events SET topic = 'vwlog:counters_taken:v1' "
            "WHERE topic = 'vwlog:takeaway.counters_taken:v1'"
        )
    from vwlog.model.errors import StoreError

    with MatchStore.open(store) as opened, pytest.raises(StoreError, match="game vw"):
        list(opened.records("take-1"))


def test_statistics_of_a_store_with_both_games_measure_only_vandaria_wars(tmp_path: Path) -> None:
    """A take-away match beside a VW one: the statistics count the VW match, leave the other
    out (they measure VW's boards), and a stored match still verifies against the view."""
    store = str(tmp_path / "store.db")
    vw = ROOT / "samples" / "full-combat.jsonl"
    done = _vwlog("import", str(vw), str(SAMPLES / "legal.jsonl"), store=store)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(store) as db:
        topics = {t for (t,) in db.execute("SELECT DISTINCT topic FROM stored_events")}
    assert "vwlog:match_started:v1" in topics  # VW's records keep the topics they always had
    assert {t.split(":")[1].split(".")[0] for t in topics if "." in t} == {"takeaway"}
    stats = _vwlog("stats", "--format", "json", store=store)
    assert stats.returncode == 0, stats.stderr
    assert "Traceback" not in stats.stderr
    corpus = json.loads(stats.stdout)["corpus"]
    assert (corpus["matches"], corpus["rulesets"]) == (1, {"vw-samples@1": 1})
    assert sum(corpus["skipped"].values()) == 1  # the take-away match
    for match_id in ("take-1", "sample-full-combat"):
        verified = _vwlog("verify", "--format", "json", match_id, store=store)
        assert "Traceback" not in verified.stderr, verified.stderr
        (report,) = json.loads(verified.stdout)
        assert (report["chain_ok"], report["derived"]) == (True, []), report


# -- the service -----------------------------------------------------------------------------


def _upload(c: Any, path: Path) -> dict[str, Any]:
    r = c.post(
        "/matches", content=path.read_bytes(), headers={"Content-Type": "application/x-ndjson"}
    )
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _served(server: Server) -> None:
    """Upload both samples to ``server`` and read back every answer about them."""
    server.token("organiser", Role.ORGANISER)
    with server.client("organiser") as c:
        assert _upload(c, SAMPLES / "legal.jsonl") == {
            "match_id": "take-1",
            "outcome": "stored",
            "events": 6,
            "violations": 0,
        }
        assert _upload(c, SAMPLES / "illegal.jsonl")["violations"] == 2
        again = c.post(
            "/matches",
            content=(SAMPLES / "legal.jsonl").read_bytes(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert (again.status_code, again.json()["outcome"]) == (200, "unchanged")
        meta = c.get("/matches/take-1").json()
        assert (meta["winner"], meta["victory"], meta["events"]) == ("budi", "last counter", 6)
        _served_verdicts(c)
        _served_events(c)
        _served_boards(c)
        _served_fork_stream_diff(c)


def _served_verdicts(c: Any) -> None:
    illegal = c.get("/matches/take-2/validation")
    assert illegal.status_code == 200, illegal.text
    report = illegal.json()
    assert report["verdict"] == "ILLEGAL"
    assert report["reason"] == "TAKE-MOVE-2 at seq 4: takes 4: 1 to 3"
    assert _cited(report) == ILLEGAL_CITED
    assert report["violations"][0]["title"] == (
        "A move takes at least one counter and at most the ruleset's most."
    )
    legal = c.get("/matches/take-1/validation").json()
    assert (legal["violations"], legal["winner"], legal["ruleset"]) == ([], "budi", "takeaway@1")
    chain = c.get("/matches/take-2/integrity")
    assert chain.status_code == 200, chain.text
    checked = chain.json()
    assert (checked["ok"], checked["records"], checked["broken"], checked["derived"]) == (
        True,
        6,
        None,
        [],
    )
    assert checked["verdict"] == "ILLEGAL"


def _served_events(c: Any) -> None:
    page = c.get("/matches/take-1/events")
    assert page.status_code == 200, page.text
    events = page.json()["events"]
    assert [e["description"] for e in events] == LEGAL_EVENTS
    assert [e["decision"] for e in events] == [False, True, True, True, True, False]
    assert events[1]["event"] == {"type": "counters_taken", "player": "ana", "count": 3}
    assert events[1]["priority"] == "budi"  # whose move it is after it
    assert all(e["violations"] == [] for e in events)
    later = c.get("/matches/take-2/events", params={"after": 3, "limit": 2}).json()
    assert [e["seq"] for e in later["events"]] == [4, 5]
    assert [[v["rule"] for v in e["violations"]] for e in later["events"]] == [
        ["TAKE-MOVE-2"],
        ["TAKE-WIN-1"],
    ]
    assert later["head_seq"] == 6
    marks = c.get("/matches/take-2/timeline").json()
    assert marks["violations"] == [[4, "TAKE-MOVE-2"], [5, "TAKE-WIN-1"]]
    awaited = c.get("/matches/take-1/awaited", params={"at": 2}).json()
    assert (awaited["player"], awaited["kind"], awaited["over"]) == ("budi", "move", False)
    assert c.get("/matches/take-1/awaited").json()["over"] is True


def _served_boards(c: Any) -> None:
    board = c.get("/matches/take-1/board", params={"seq": 3})
    assert board.status_code == 200, board.text
    assert board.json() == {
        "game": "takeaway",
        "seq": 3,
        "viewer": None,
        "fields": {
            "started": True,
            "players": ["ana", "budi"],
            "pile": 4,
            "to_move": "ana",
            "passed": "budi",
            "taker": "ana",
            "winner": None,
            "ruleset": {"id": "takeaway", "version": 1, "most": 3},
        },
    }
    etag = board.headers["ETag"]
    assert (
        c.get(
            "/matches/take-1/board", params={"seq": 3}, headers={"If-None-Match": etag}
        ).status_code
        == 304
    )
    last = c.get("/matches/take-1/board").json()
    assert (last["seq"], last["fields"]["pile"], last["fields"]["winner"]) == (6, 0, "budi")
    assert c.get("/matches/take-1/board", params={"seq": 0}).json()["fields"]["started"] is False
    seat = c.get("/matches/take-1/board", params={"player": "ana"})
    assert seat.status_code == 400
    assert seat.json()["message"] == "a player's view is not available for game takeaway"
    beyond = c.get("/matches/take-1/board", params={"seq": 7})
    assert beyond.status_code == 400, beyond.text
    page = c.get("/m/take-1/3")
    assert page.status_code == 200
    assert "viewer.js" in page.text


def _served_fork_stream_diff(c: Any) -> None:
    streamed = c.get("/matches/take-1/stream", params={"seconds": 2})
    assert streamed.status_code == 200, streamed.text
    records = [line for line in streamed.text.splitlines() if line.startswith("data: {")]
    assert [json.loads(r[6:])["description"] for r in records[:-1]] == LEGAL_EVENTS
    assert json.loads(records[-1][6:]) == {"head_seq": 6, "over": True}
    fork = c.post("/matches/take-1/forks", json={"at": 3})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    assert (forked["parent"], forked["fork_at"], forked["winner"]) == ("take-1", 3, None)
    board = c.get(f"/matches/{forked['match_id']}/board").json()
    assert (board["fields"]["pile"], board["fields"]["to_move"]) == (4, "ana")
    move = '{"type":"counters_taken","player":"ana","count":2}'
    played = c.post(f"/matches/{forked['match_id']}/decisions", json={"decisions": [move]})
    assert played.status_code == 400, played.text
    assert played.json()["message"] == "play is not available for game takeaway"
    rebased = c.post(f"/matches/{forked['match_id']}/rebase")
    assert rebased.status_code == 400, rebased.text
    assert rebased.json()["message"] == "rebase is not available for game takeaway"
    diff = c.get("/diff", params={"a": "take-1", "b": "take-2"})
    assert diff.status_code == 400
    assert diff.json()["message"] == "diff is not available for game takeaway"


def test_a_take_away_log_uploaded_to_the_service_is_served(tmp_path: Path) -> None:
    from tests.api.server import serving

    with serving(tmp_path) as server:
        _served(server)


@pytest.mark.postgres
def test_a_take_away_log_uploaded_to_the_service_on_postgresql_is_served(
    tmp_path: Path,
) -> None:
    from tests.api.server import serving

    with serving(tmp_path, postgres=True) as server:
        _served(server)


@pytest.mark.slow
def test_the_viewer_shows_a_take_away_board_as_its_fields(tmp_path: Path) -> None:
    """The web viewer's board page, in a real headless Chromium: a game without views is
    drawn as its board's fields, with no error on the page."""
    import os

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from tests.api.server import serving
    from tests.viewer.conftest import CHROMIUM, FLAGS

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (.ci/run installs it with apt-get)")
    with serving(tmp_path) as server:
        secret = server.token("judge", Role.JUDGE)
        with server.client("judge") as c:
            _upload(c, SAMPLES / "legal.jsonl")
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            try:
                context = browser.new_context()
                context.add_init_script(f"sessionStorage.setItem('vwlog-token', {secret!r});")
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"{server.url}/m/take-1/3")
                page.wait_for_selector("#board[data-seq='3'] #fields", timeout=30_000)
                fields = page.eval_on_selector_all(
                    "#fields dd", "ds => ds.map(d => [d.dataset.field, d.textContent])"
                )
                game = page.get_attribute("#fields", "data-game")
            finally:
                browser.close()
    assert game == "takeaway"
    assert dict(fields) == {
        "started": "true",
        "players": '["ana","budi"]',
        "pile": "4",
        "to_move": "ana",
        "passed": "budi",
        "taker": "ana",
        "winner": "null",
        "ruleset": '{"id":"takeaway","version":1,"most":3}',
    }
    assert errors == []
