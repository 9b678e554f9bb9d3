"""The take-away game judged by the real command line: nothing in vwlog knows it."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.games.conftest import ROOT, SAMPLES
from vwlog.engine.replay import Validator, replay
from vwlog.io.logfile import read_log


def _vwlog(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=120,
    )


def test_the_reader_reads_a_take_away_log_as_take_away_records() -> None:
    header, records = read_log(SAMPLES / "legal.jsonl")
    assert header.game == "takeaway"
    assert [type(r.event).__name__ for r in records][:2] == ["TakeawayStarted", "CountersTaken"]


def test_a_legal_match_breaks_no_rule_and_has_a_winner() -> None:
    header, records = read_log(SAMPLES / "legal.jsonl")
    report = replay(records, Validator(), header=header)
    assert report.violations == []
    assert (report.winner, report.players, report.ruleset) == (
        "budi",
        ("ana", "budi"),
        "takeaway@1",
    )
    assert (report.events, report.decisions, report.consequences) == (6, 4, 2)


def test_the_command_line_cites_the_games_rules_at_the_breaking_events() -> None:
    done = _vwlog("validate", "--format", "json", str(SAMPLES / "illegal.jsonl"))
    assert done.returncode == 1, done.stderr
    (report,) = json.loads(done.stdout)
    assert report["verdict"] == "ILLEGAL"
    cited = [(v["rule"], v["seq"]) for v in report["violations"]]
    assert cited == [("TAKE-MOVE-2", 4), ("TAKE-WIN-1", 5)]
    assert "Traceback" not in done.stderr


def test_the_text_report_titles_the_games_rules() -> None:
    done = _vwlog("validate", str(SAMPLES / "illegal.jsonl"))
    assert "TAKE-MOVE-2  A move takes at least one counter" in done.stdout
    assert "ILLEGAL" in done.stdout


def test_a_log_that_does_not_begin_with_the_start_cites_the_core_rule() -> None:
    lines = (SAMPLES / "legal.jsonl").read_text().splitlines()
    body = [lines[0], *(_renumber(line, i) for i, line in enumerate(lines[2:], 1))]
    header, records = read_log_text("\n".join(body) + "\n")
    report = replay(records, Validator(), header=header)
    assert [v.rule for v in report.violations] == ["CORE-LOG-1"]


def _renumber(line: str, seq: int) -> str:
    data = json.loads(line)
    data["seq"] = seq
    return json.dumps(data)


def read_log_text(text: str):  # type: ignore[no-untyped-def]
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.jsonl"
        path.write_text(text)
        return read_log(path)


def test_a_header_naming_a_game_nobody_registered_is_one_line_exit_2(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "m.jsonl"
    path.write_text('{"format":"vwlog","version":1,"game":"chess","match_id":"x"}\n')
    done = _vwlog("validate", str(path))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "game" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
