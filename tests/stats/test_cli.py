"""``vwlog stats`` on log files."""

from __future__ import annotations

import csv
import io
import json
import sys
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main
from vwlog.projections.stats import MatchMetrics

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


def test_table_over_a_directory(runner: CliRunner, log_dir: Path) -> None:
    result = runner.invoke(main, ["stats", str(log_dir), "--min-n", "2"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("12 matches (")
    assert "Win rate by seat (finished matches)" in result.stdout
    assert result.stderr == ""


def test_text_is_the_text_format_and_table_its_old_name(runner: CliRunner, log_dir: Path) -> None:
    files = sorted(str(p) for p in log_dir.glob("*.jsonl"))[:3]
    text = runner.invoke(main, ["stats", *files, "--format", "text"])
    old = runner.invoke(main, ["stats", *files, "--format", "table"])
    default = runner.invoke(main, ["stats", *files])
    assert text.exit_code == old.exit_code == default.exit_code == 0
    assert text.stdout == old.stdout == default.stdout
    assert old.stderr == "Warning: --format table is deprecated; it is --format text now\n"
    assert text.stderr == ""
    assert "[text|json|csv]" in runner.invoke(main, ["stats", "--help"]).stdout


def test_json_over_files(runner: CliRunner, log_dir: Path) -> None:
    files = sorted(str(p) for p in log_dir.glob("*.jsonl"))
    result = runner.invoke(main, ["stats", *files[:5], "--format", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["corpus"]["matches"] == 5
    assert data["filters"] == {
        "player": None,
        "faction": None,
        "ruleset": None,
        "since": None,
        "event": None,
    }


def test_csv_with_a_player_filter(runner: CliRunner, log_dir: Path) -> None:
    result = runner.invoke(main, ["stats", str(log_dir), "--format", "csv", "--player", "p2"])
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    sides = next(r for r in rows if r["section"] == "corpus" and r["metric"] == "sides")
    assert sides["value"] == "12"


def test_per_match_json(runner: CliRunner, log_dir: Path) -> None:
    result = runner.invoke(main, ["stats", str(log_dir), "--per-match", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    matches = [MatchMetrics.model_validate(d) for d in json.loads(result.stdout)]
    assert len(matches) == 12
    assert all(m.ruleset == "quick" for m in matches)


def test_per_match_table_and_csv(runner: CliRunner, log_dir: Path) -> None:
    one = str(next(iter(sorted(log_dir.glob("*.jsonl")))))
    table = runner.invoke(main, ["stats", one, "--per-match"])
    assert table.exit_code == 0, table.stderr
    assert "register depth" in table.stdout
    rows = runner.invoke(main, ["stats", one, "--per-match", "--format", "csv"])
    parsed = list(csv.DictReader(io.StringIO(rows.stdout)))
    assert [r["player"] for r in parsed if r["scope"] == "match"] == ["p1", "p2"]
    turns = int(parsed[0]["turns"])
    for player in ("p1", "p2"):
        mine = [r for r in parsed if r["scope"] == "turn" and r["player"] == player]
        assert [int(r["turn"]) for r in mine] == list(range(1, turns + 1))
        total = next(r for r in parsed if r["scope"] == "match" and r["player"] == player)
        for column in ("gold_produced", "gold_spent", "cards_played", "blocks", "supply_GOLD_2"):
            assert sum(int(r[column]) for r in mine) == int(total[column]), column
        assert mine[-1]["final_vp"] == total["final_vp"]


def test_per_match_json_has_the_turns(runner: CliRunner, log_dir: Path) -> None:
    one = str(next(iter(sorted(log_dir.glob("*.jsonl")))))
    result = runner.invoke(main, ["stats", one, "--per-match", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    (match,) = json.loads(result.stdout)
    for p in match["players"]:
        assert [t["turn"] for t in p["tempo"]] == list(range(1, match["turns"] + 1))
        for key in ("gold_spent", "attackers_declared", "damage_to_followers", "blocks"):
            assert sum(t[key] for t in p["tempo"]) == p[key]
        assert {"supply", "skills_registered", "max_register_depth"} <= set(p["tempo"][0])


def test_filters_that_leave_nothing(runner: CliRunner, log_dir: Path) -> None:
    result = runner.invoke(main, ["stats", str(log_dir), "--since", "2024-01-01"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("0 matches")
    assert "skipped: 12 (no creation date)" in result.stdout
    other = runner.invoke(main, ["stats", str(log_dir), "--ruleset-id", "vw-default"])
    assert "skipped: 12 (other ruleset)" in other.stdout


def test_html_report(runner: CliRunner, log_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the HTML page needs the 'stats' extra")
    out = tmp_path / "report.html"
    result = runner.invoke(main, ["stats", str(log_dir), "--html", str(out), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["corpus"]["matches"] == 12
    assert result.stderr == f"wrote {out}\n"
    page = out.read_text(encoding="utf-8")
    assert "<svg" in page
    assert "http" not in page


def test_html_without_matplotlib_is_a_one_line_error(
    runner: CliRunner, log_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "report.html"
    result = runner.invoke(main, ["stats", str(log_dir), "--html", str(out)])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --html needs matplotlib")
    assert "pip install 'vwlog[stats]'" in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""
    assert not out.exists()


def test_an_unreadable_log_is_reported_and_the_rest_counted(
    runner: CliRunner, log_dir: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "vwlog", "version": 1, "match_id": "x"}\n{"seq": 1,\n')
    files = [*sorted(str(p) for p in log_dir.glob("*.jsonl"))[:2], str(bad)]
    result = runner.invoke(main, ["stats", *files])
    assert result.exit_code == 2
    assert result.stdout.startswith("2 matches")
    assert result.stderr.startswith("Error: ")
    assert "bad.jsonl" in result.stderr


def test_a_log_without_a_match_is_an_input_error(runner: CliRunner, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"format": "vwlog", "version": 1, "match_id": "x"}\n')
    result = runner.invoke(main, ["stats", str(empty)])
    assert result.exit_code == 2
    assert "no match_started event" in result.stderr


def test_usage_errors(runner: CliRunner, log_dir: Path, tmp_path: Path) -> None:
    bad_date = runner.invoke(main, ["stats", str(log_dir), "--since", "yesterday"])
    assert bad_date.exit_code == 2
    assert "--since" in bad_date.stderr
    # no LOG and no store at the (here, absent) store location
    assert runner.invoke(main, ["--store", str(tmp_path / "none.db"), "stats"]).exit_code == 2
    empty = tmp_path / "nothing"
    empty.mkdir()
    no_logs = runner.invoke(main, ["stats", str(empty)])
    assert no_logs.exit_code == 2
    assert no_logs.stderr == f"Error: {empty}: directory holds no *.jsonl logs\n"


def test_worker_processes_give_the_same_report(runner: CliRunner, log_dir: Path) -> None:
    one = runner.invoke(main, ["stats", str(log_dir), "--format", "json"])
    two = runner.invoke(main, ["stats", str(log_dir), "--format", "json", "-j", "2"])
    assert two.exit_code == 0, two.stderr
    assert two.stdout == one.stdout
