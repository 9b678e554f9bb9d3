"""``vwlog stats`` on WoW TCG and L5R logs and stores, through the real command line: each
figure checked against what the test counts itself from the logs' records."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from vwlog.cli import main

ROOT = Path(__file__).resolve().parents[2]
WOW = ROOT / "samples" / "wowtcg"
L5R = ROOT / "samples" / "l5r"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--lang", "en", *args])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def _events(path: Path) -> list[dict[str, Any]]:
    lines = path.read_bytes().splitlines()[1:]
    return [orjson.loads(raw)["event"] for raw in lines if raw.strip()]


def _wow_counts(events: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = Counter(e["type"] for e in events)
    turns = [e for e in events if e["type"] == "turn_started"]
    discards = [e for e in events if e["type"] == "hand_limit_discarded"]
    most, run = 0, 0
    for e in events:
        if e["type"] == "priority_window_opened":
            run = 0
        elif e["type"] == "priority_passed":
            run += 1
            most = max(most, run)
    return {
        "turns": len(turns),
        "extra_turns": sum(1 for e in turns if e.get("extra")),
        "turns_skipped": kinds["turn_skipped"],
        "extra_turns_created": kinds["extra_turn_created"],
        "windows": kinds["priority_window_opened"],
        "passes": kinds["priority_passed"],
        "most_passes_in_a_window": most,
        "passes_per_window": (
            round(kinds["priority_passed"] / kinds["priority_window_opened"], 2)
            if kinds["priority_window_opened"]
            else None
        ),
        "links": kinds["link_added"],
        "hand_limit_discards": len(discards),
        "cards_discarded": sum(len(e["cards"]) for e in discards),
        "first_player": turns[0]["player"] if turns else None,
    }


def _l5r_counts(events: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = Counter(e["type"] for e in events)
    resolutions = [e for e in events if e["type"] == "resolution_started"]
    return {
        "battles": kinds["battle_started"],
        "battlefields": len({e["battlefield"] for e in events if e["type"] == "battle_started"}),
        "attacker_force": sum(e["attacker_force"] for e in resolutions),
        "defender_force": sum(e["defender_force"] for e in resolutions),
        "ties": sum(1 for e in resolutions if e["attacker_force"] == e["defender_force"]),
        "provinces_destroyed": kinds["province_destroyed"],
        "honor_gained": sum(e["amount"] for e in events if e["type"] == "honor_gained"),
        "passes": kinds["opportunity_passed"],
    }


@pytest.mark.parametrize(("folder", "counts"), [(WOW, _wow_counts), (L5R, _l5r_counts)])
def test_each_match_and_the_corpus_against_the_records(folder: Path, counts: Any) -> None:
    code, out, err = _run("stats", "--per-match", "--format", "json", str(folder))
    assert code == 0, err
    data = json.loads(out)
    logs = sorted(folder.glob("*.jsonl"))
    assert (data["matches"], data["not_intact"]) == (len(logs), 0)
    by_source = {Path(m["source"]).name: m for m in data["per_match"]}
    expected = {p.name: counts(_events(p)) for p in logs}
    assert set(by_source) == set(expected)
    for name, want in expected.items():
        got = by_source[name]["figures"]
        assert {k: got[k] for k in want} == want, name
        assert by_source[name]["events"] == len(_events(folder / name))
    for key in next(iter(expected.values())):
        values = [want[key] for want in expected.values()]
        if isinstance(values[0], int) and key in data["figures"]:
            figure = data["figures"][key]
            if "total" in figure:
                assert figure["total"] == sum(values), key
            assert figure["most"] == max(values), key


def test_wow_passes_per_window_over_all_matches() -> None:
    code, out, _ = _run("stats", "--format", "json", str(WOW))
    assert code == 0
    kinds = Counter(e["type"] for p in WOW.glob("*.jsonl") for e in _events(p))
    want = round(kinds["priority_passed"] / kinds["priority_window_opened"], 2)
    assert json.loads(out)["figures"]["passes_per_window"] == {"total": want}


def test_wow_words_and_the_text_table() -> None:
    code, out, _ = _run("stats", str(WOW))
    assert code == 0
    logs = sorted(WOW.glob("*.jsonl"))
    firsts = Counter(_wow_counts(_events(p))["first_player"] for p in logs)
    said = ", ".join(f"{p} {n}" for p, n in sorted(firsts.items()))
    assert f"first player: {said}" in out
    assert out.startswith(f"World of Warcraft TCG: {len(logs)} matches")
    total = sum(_wow_counts(_events(p))["hand_limit_discards"] for p in logs)
    row = next(line for line in out.splitlines() if line.startswith("hand-limit discards"))
    assert row.split()[2] == str(total)


def test_l5r_csv_rows() -> None:
    code, out, _ = _run("stats", "--format", "csv", str(L5R))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    honor = next(r for r in rows if r["figure"] == "honor_gained" and r["stat"] == "total")
    logs = sorted(L5R.glob("*.jsonl"))
    assert int(honor["value"]) == sum(_l5r_counts(_events(p))["honor_gained"] for p in logs)


def test_logs_of_several_games_are_refused_in_one_line(tmp_path: Path) -> None:
    shutil.copy(WOW / "extra-turn.jsonl", tmp_path)
    shutil.copy(L5R / "legal_tie.jsonl", tmp_path)
    shutil.copy(L5R / "legal_zero_tie.jsonl", tmp_path)
    code, out, err = _run("stats", str(tmp_path))
    assert code == 2
    assert out == ""
    assert err.strip().splitlines() == [
        "Error: the logs are of several games (l5r 2, wowtcg 1): vwlog stats measures one "
        "game at a time"
    ]


def test_options_of_vandaria_wars_statistics_are_refused_in_one_line(tmp_path: Path) -> None:
    code, _, err = _run("stats", "--html", str(tmp_path / "x.html"), str(L5R))
    assert code == 2
    assert err.strip() == "Error: stats --html is not available for game l5r"
    assert not (tmp_path / "x.html").exists()


def test_a_store_of_one_game_is_measured_as_its_logs(tmp_path: Path) -> None:
    store = str(tmp_path / "store.db")
    logs = sorted(L5R.glob("legal_*.jsonl"))
    code, _, err = _run("--store", store, "import", *map(str, logs))
    assert code == 0, err
    code, out, err = _run("--store", store, "stats", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["game"], data["matches"]) == ("l5r", len(logs))
    battles = sum(_l5r_counts(_events(p))["battles"] for p in logs)
    assert data["figures"]["battles"]["total"] == battles
    code, _, err = _run("--store", store, "import", str(WOW / "extra-turn.jsonl"))
    assert code == 0, err
    code, _, err = _run("--store", store, "stats")
    assert code == 2
    assert "are of several games (l5r" in err


def test_another_games_log_on_standard_input_is_refused_in_one_line() -> None:
    """Standard input is read once, by Vandaria Wars' statistics: another game's log there is
    one line naming it, exit 2, never a traceback."""
    log = ROOT / "samples" / "l5r" / "legal_tie.jsonl"
    result = CliRunner().invoke(main, ["--lang", "en", "stats", "-"], input=log.read_bytes())
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.splitlines() == [
        "Error: <stdin>, line 1, field 'game': a log of game l5r is measured by that game's "
        "statistics from a regular file, not from standard input or a pipe"
    ]
