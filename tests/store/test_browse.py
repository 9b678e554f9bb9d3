"""The store read with plain ``sqlite3`` (as datasette and sqlite-utils read it): the documented
views ``matches``, ``players`` and ``violations`` (docs/store.md), current after an import, a
re-import, a fork and an append in play mode."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main
from vwlog.games.vw.simulate import simulate
from vwlog.io.chain import sealed
from vwlog.io.logfile import write_log
from vwlog.io.pools import load_pool
from vwlog.model.cards import Ruleset
from vwlog.store.browse import MATCH_COLUMNS, PLAYER_COLUMNS

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

QUICK = Ruleset(id="quick", version=2, victory_vp=1, victory_honor=25, victory_territories=4)
SAMPLE = "samples/invalid/damage-over-atk.jsonl"
"""A sample log with a violation."""


def _rows(db: Path, sql: str) -> list[dict[str, object]]:
    with closing(sqlite3.connect(db)) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute(sql)]


def _corpus(tmp_path: Path) -> list[Path]:
    out = []
    for i in range(3):
        m = simulate(load_pool(None), seed=8, index=i, ruleset=QUICK, max_turns=24)
        tags = {"event": "Club night", "round": str(i + 1)} if i < 2 else {}
        header, records = sealed(m.header.model_copy(update=tags), m.records)
        out.append(tmp_path / f"m{i}.jsonl")
        write_log(out[-1], header, records)
    return out


def test_import_gives_documented_tables_to_plain_sqlite(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "vwlog.db"
    logs = [*map(str, _corpus(tmp_path)), SAMPLE]
    result = runner.invoke(main, ["--store", str(db), "import", *logs])
    assert result.exit_code in (0, 1), result.stderr
    listed = json.loads(
        runner.invoke(main, ["--store", str(db), "list", "--format", "json"]).stdout
    )
    matches = {r["match_id"]: r for r in _rows(db, "SELECT * FROM matches")}
    assert list(next(iter(matches.values()))) == [c for c, _p, _m in MATCH_COLUMNS]
    assert set(matches) == {m["match_id"] for m in listed}
    for m in listed:
        row = matches[m["match_id"]]
        assert (row["turns"], row["winner"], row["victory"]) == (
            m["turns"],
            m["winner"],
            m["victory"],
        )
        assert (row["violations"], row["events"], row["head_hash"]) == (
            m["violations"],
            m["events"],
            m["head_hash"],
        )
        assert json.loads(str(row["players"])) == m["players"]
        assert row["flagged"] == int(m["flagged"])
    assert matches["sim-8-00000"]["event"] == "Club night"
    assert matches["sim-8-00001"]["event_round"] == "2"
    assert matches["sim-8-00002"]["event"] is None
    players = _rows(db, "SELECT * FROM players ORDER BY match_id, seat")
    assert list(players[0]) == ["match_id", "player", *(c for c, _p, _m in PLAYER_COLUMNS), "won"]
    for m in listed:
        mine = [p for p in players if p["match_id"] == m["match_id"]]
        assert [p["player"] for p in mine] == m["players"]
        if m["winner"] is not None:
            assert [p["player"] for p in mine if p["won"] == 1] == [m["winner"]]
    violations = _rows(db, "SELECT * FROM violations ORDER BY match_id, seq")
    flagged = next(m for m in listed if m["violations"])
    assert [
        f"{v['rule']}@{v['seq']}" for v in violations if v["match_id"] == flagged["match_id"]
    ] == (flagged["violation_summary"])
    joined = _rows(
        db,
        "SELECT m.event, count(*) AS sides, sum(p.won) AS wins FROM matches m "
        "JOIN players p USING (match_id) WHERE m.event IS NOT NULL GROUP BY m.event",
    )
    assert joined == [{"event": "Club night", "sides": 4, "wins": 2}]
    plan = _rows(db, "EXPLAIN QUERY PLAN SELECT count(*) FROM matches")
    assert any("vwlog_catalog_entries" in str(step["detail"]) for step in plan), plan


def test_tables_follow_reimport_fork_and_play(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "vwlog.db"
    logs = list(map(str, _corpus(tmp_path)))
    assert runner.invoke(main, ["--store", str(db), "import", *logs]).exit_code == 0
    before = _rows(db, "SELECT * FROM matches ORDER BY match_id")
    again = runner.invoke(main, ["--store", str(db), "import", *logs])
    assert again.exit_code == 0, again.stderr
    assert _rows(db, "SELECT * FROM matches ORDER BY match_id") == before
    points = runner.invoke(
        main, ["--store", str(db), "replay", "sim-8-00000", "--priority-points", "--format", "json"]
    )
    at = json.loads(points.stdout)[3]["seq"]
    forked = runner.invoke(main, ["--store", str(db), "fork", "sim-8-00000", "--at", str(at)])
    assert forked.exit_code == 0, forked.stderr
    fork_id = forked.stdout.strip()
    row = _rows(db, f"SELECT * FROM matches WHERE match_id = '{fork_id}'")[0]
    listed = json.loads(
        runner.invoke(main, ["--store", str(db), "list", "--format", "json"]).stdout
    )
    fork_events = next(m["events"] for m in listed if m["match_id"] == fork_id)
    assert (row["parent"], row["fork_at"], row["events"]) == ("sim-8-00000", at, fork_events)
    assert len(_rows(db, f"SELECT * FROM players WHERE match_id = '{fork_id}'")) == 2
    played = runner.invoke(main, ["--store", str(db), "play", fork_id, "--auto", "3"])
    assert played.exit_code == 0, played.stderr
    meta = json.loads(runner.invoke(main, ["--store", str(db), "list", "--format", "json"]).stdout)
    events = next(m["events"] for m in meta if m["match_id"] == fork_id)
    assert events > fork_events
    assert _rows(db, f"SELECT events FROM matches WHERE match_id = '{fork_id}'") == [
        {"events": events}
    ]
    assert len(_rows(db, "SELECT * FROM matches")) == 4


def test_a_store_whose_views_another_process_made_meanwhile_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes opening one new store both find it without views; the one that makes
    them second reads the store again once it has it to itself (BEGIN IMMEDIATE), finds them
    made and changes nothing, where it made them again and failed with "index
    vwlog_catalog_entries already exists" when the two interleaved (the race itself:
    tests/store/test_sqlite.py's two importers)."""
    from vwlog.store import MatchStore, browse

    db = tmp_path / "shared.db"
    with MatchStore.open(f"sqlite:///{db}"):
        pass  # the first process: views and index made
    before = _rows(db, "PRAGMA schema_version")
    monkeypatch.setattr(browse, "_up_to_date", lambda conn, wanted: False)  # read before that
    with MatchStore.open(f"sqlite:///{db}"):
        pass
    monkeypatch.undo()
    assert _rows(db, "PRAGMA schema_version") == before  # nothing dropped, nothing made again
    names = "SELECT name FROM sqlite_master WHERE type IN ('view', 'index') ORDER BY name"
    assert [r["name"] for r in _rows(db, names) if not str(r["name"]).startswith("sqlite_")] == [
        "matches",
        "players",
        "violations",
        "vwlog_catalog_entries",
    ]
