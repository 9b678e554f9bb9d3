"""``vwlog validate``, ``vwlog rules`` and ``vwlog simulate`` as a judge or a script runs them:
exit statuses, the three formats, --strict, directories, and logs that are barely logs."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pytest

from vwlog.cli import main
from vwlog.rules.catalog import RULES

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLES = Path(__file__).parents[2] / "samples"
LEGAL = SAMPLES / "full-combat.jsonl"
ILLEGAL = SAMPLES / "invalid" / "damage-over-atk.jsonl"
"""Breaks R-CMB-19 at seq 193 (its ``.expected.json`` says so)."""
EXPECTED = json.loads((SAMPLES / "invalid" / "damage-over-atk.expected.json").read_text())


def test_the_illegal_sample_breaks_what_its_expectation_says() -> None:
    assert EXPECTED == [{"rule": "R-CMB-19", "seq": 193}]


def test_a_legal_log_exits_0_with_ok_and_the_totals(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", str(LEGAL)])
    assert result.exit_code == 0, result.output
    assert "OK · 237 events" in result.stdout
    assert result.stdout.rstrip().endswith("1 log: 1 legal, 0 illegal, 0 unreadable")


def test_an_illegal_log_exits_1_naming_rule_seq_line_and_position(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", str(ILLEGAL), str(LEGAL)])
    assert result.exit_code == 1
    out = result.stdout
    assert "R-CMB-19" in out
    assert "at seq 193, line 194, turn 3 COMBAT/C6, priority p1 (follower_damage_assigned)" in out
    assert "expected: 3" in out
    assert "actual:   4" in out
    assert "2 logs: 1 legal, 1 illegal, 0 unreadable" in out


def test_an_unreadable_log_exits_2_and_the_others_are_still_validated(
    runner: CliRunner, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.jsonl"
    lines = LEGAL.read_text().splitlines()
    broken.write_text("\n".join([*lines[:5], lines[5][:40]]) + "\n")
    result = runner.invoke(main, ["validate", str(broken), str(ILLEGAL), str(LEGAL)])
    assert result.exit_code == 2
    assert result.stderr.count("Error:") == 1
    assert f"{broken}, line 6" in result.stderr
    assert "Traceback" not in result.stderr
    assert "R-CMB-19" in result.stdout
    assert "3 logs: 1 legal, 1 illegal, 1 unreadable" in result.stdout


def test_json_is_one_object_per_log_with_located_violations(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", "--format", "json", str(ILLEGAL), str(LEGAL)])
    assert result.exit_code == 1
    reports = orjson.loads(result.stdout)
    assert [r["ok"] for r in reports] == [False, True]
    bad = reports[0]
    assert bad["source"] == str(ILLEGAL)
    assert bad["players"] == ["p1", "p2"]
    assert bad["stopped_at"] is None
    assert [(v["rule"], v["seq"]) for v in bad["violations"]] == [
        (e["rule"], e["seq"]) for e in EXPECTED
    ]
    (v,) = bad["violations"]
    assert v["title"] == RULES[v["rule"]].title
    assert (v["line"], v["turn"], v["phase"], v["step"], v["priority"]) == (
        194,
        3,
        "COMBAT",
        "C6",
        "p1",
    )
    assert (v["expected"], v["actual"], v["event"]) == ("3", "4", "follower_damage_assigned")
    assert reports[1]["violations"] == []
    assert reports[1]["events"] == 237
    assert result.stderr == ""  # stdout is one JSON document, nothing else is said


def test_markdown_is_a_report_with_a_violation_table(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", "--format", "markdown", str(ILLEGAL)])
    assert result.exit_code == 1
    out = result.stdout
    assert "## Match `invalid-damage-over-atk`" in out
    assert "- Verdict: **illegal**" in out
    assert "| Rule | Title | Seq | Line | Turn | Phase/step | Priority | Message |" in out
    row = next(line for line in out.splitlines() if line.startswith("| R-CMB-19 "))
    assert "| 193 | 194 | 3 | COMBAT/C6 | p1 |" in row


def test_strict_stops_at_the_first_violation_reports_it_and_goes_on(
    runner: CliRunner, tmp_path: Path
) -> None:
    twice = tmp_path / "twice.jsonl"
    # the same illegal match, corrupted again later: without --strict both are reported
    lines = ILLEGAL.read_text().splitlines()
    assert '"seq":193}' in lines[193]
    later = next(i for i in range(200, len(lines)) if '"type":"priority_passed"' in lines[i])
    lines[later] = (
        lines[later]
        .replace('"player":"p1"', '"player":"p9"')
        .replace('"player":"p2"', '"player":"p9"')
    )
    twice.write_text("\n".join(lines) + "\n")
    full = runner.invoke(main, ["validate", "--format", "json", str(twice)])
    assert len(orjson.loads(full.stdout)[0]["violations"]) >= 2

    result = runner.invoke(main, ["validate", "--strict", str(twice), str(LEGAL)])
    assert result.exit_code == 1, result.output
    assert result.stdout.count("R-CMB-19") == 1
    assert "stopped at seq 193, at the first violation" in result.stdout
    assert "1 violation" in result.stdout
    assert "2 logs: 1 legal, 1 illegal, 0 unreadable" in result.stdout
    assert "Traceback" not in result.output

    strict_json = runner.invoke(main, ["validate", "--strict", "--format", "json", str(twice)])
    (report,) = orjson.loads(strict_json.stdout)
    assert report["stopped_at"] == 193
    assert [v["rule"] for v in report["violations"]] == ["R-CMB-19"]


def test_a_directory_stands_for_the_logs_in_it(runner: CliRunner, tmp_path: Path) -> None:
    for path in (LEGAL, ILLEGAL):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "notes.txt").write_text("not a log")
    result = runner.invoke(main, ["validate", "--quiet", str(tmp_path)])
    assert result.exit_code == 1
    assert "2 logs: 1 legal, 1 illegal, 0 unreadable" in result.stdout
    assert "full-combat" not in result.stdout  # --quiet prints only the illegal one
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = runner.invoke(main, ["validate", str(empty)])
    assert refused.exit_code == 2
    assert "holds no *.jsonl logs" in refused.stderr


def test_a_header_alone_is_no_legal_match(runner: CliRunner, tmp_path: Path) -> None:
    header = tmp_path / "header.jsonl"
    header.write_text(LEGAL.read_text().splitlines()[0] + "\n")
    result = runner.invoke(main, ["validate", str(header)])
    assert result.exit_code == 1
    assert "R-SET-1" in result.stdout
    assert "the log holds no events" in result.stdout


def test_a_log_without_match_started_is_reported_once(runner: CliRunner, tmp_path: Path) -> None:
    lines = LEGAL.read_text().splitlines()
    head = orjson.loads(lines[0])
    head.pop("hash", None)
    out = [orjson.dumps(head).decode()]
    for seq, line in enumerate(lines[2:60], 1):
        record = orjson.loads(line)
        record["seq"] = seq
        record.pop("hash", None)
        out.append(orjson.dumps(record).decode())
    log = tmp_path / "nostart.jsonl"
    log.write_text("\n".join(out) + "\n")
    result = runner.invoke(main, ["validate", "--format", "json", str(log)])
    assert result.exit_code == 1
    (report,) = orjson.loads(result.stdout)
    assert report["events"] == 58
    assert [(v["rule"], v["seq"]) for v in report["violations"]] == [("R-SET-1", 1)]
    assert "must be match_started" in report["violations"][0]["message"]


@pytest.mark.parametrize(("token", "shown"), [("NaN", "NaN"), ("-Infinity", "-Infinity")])
def test_a_non_finite_number_is_named_as_such(
    runner: CliRunner, tmp_path: Path, token: str, shown: str
) -> None:
    lines = LEGAL.read_text().splitlines()
    assert '"seq":3' in lines[3]
    lines[3] = lines[3].replace('"seq":3', f'"seq":{token}', 1)
    log = tmp_path / "nan.jsonl"
    log.write_text("\n".join(lines) + "\n")
    result = runner.invoke(main, ["validate", str(log)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"Error: {log}, line 4, field 'seq': input should be a valid integer, found {shown}"
    )


def test_rules_json_lists_every_catalog_rule(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "--format", "json"])
    assert result.exit_code == 0
    rows = orjson.loads(result.stdout)
    assert [r["id"] for r in rows] == list(RULES)
    assert all(
        {"id", "title", "status", "reason", "text", "flags", "events"} <= set(r) for r in rows
    )
    statuses = Counter(r["status"] for r in rows)
    assert set(statuses) == {"enforced", "partial", "descriptive", "pending"}
    assert all(r["reason"] for r in rows if r["status"] in ("pending", "partial"))
    pending = runner.invoke(main, ["rules", "--status", "pending", "--format", "json"])
    assert len(orjson.loads(pending.stdout)) == statuses["pending"]


def test_rules_flags_name_every_open_question(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "--flags", "--format", "json"])
    rows = orjson.loads(result.stdout)
    assert rows
    assert all(r["question"].startswith("OQ-") for r in rows)
    assert {"question", "flag", "default", "note"} <= set(rows[0])


def test_simulate_reaches_all_three_victories_and_the_logs_validate(
    runner: CliRunner, tmp_path: Path
) -> None:
    result = runner.invoke(
        main,
        ["simulate", "--seed", "7", "--matches", "30", "--max-turns", "60", "-o", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 30
    checked = runner.invoke(main, ["validate", "--format", "json", str(tmp_path)])
    assert checked.exit_code == 0, checked.stderr
    reports = orjson.loads(checked.stdout)
    victories = Counter(r["victory"] for r in reports)
    assert {"MILITARY", "POLITICAL", "ABSOLUTE"} <= set(victories), victories


def test_simulate_with_jobs_writes_the_same_bytes(runner: CliRunner, tmp_path: Path) -> None:
    args = ["simulate", "--seed", "3", "--matches", "3", "--max-turns", "40"]
    serial = runner.invoke(main, [*args, "-o", str(tmp_path / "serial")])
    jobs = runner.invoke(main, [*args, "-j", "2", "-o", str(tmp_path / "jobs")])
    assert serial.exit_code == jobs.exit_code == 0, jobs.output
    assert serial.stdout == jobs.stdout
    made = sorted(p.name for p in (tmp_path / "serial").iterdir())
    assert len(made) == 3
    assert sorted(p.name for p in (tmp_path / "jobs").iterdir()) == made
    for name in made:
        assert (tmp_path / "jobs" / name).read_bytes() == (tmp_path / "serial" / name).read_bytes()
