"""``vwlog next``, and the store commands' edges: forks left out of the statistics, a listing
that creates no store, a quiet import, Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click
import pytest

from vwlog.cli import VwlogGroup, main

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "full-combat.jsonl"
PRIORITY_SEQ = 40
"""A priority point of the sample (p1 holds priority in combat, with a skill to use)."""


@pytest.fixture
def store(tmp_path: Path, runner: CliRunner) -> str:
    """A store holding the sample and a fork of it at `PRIORITY_SEQ`."""
    url = str(tmp_path / "club.db")
    assert runner.invoke(main, ["--store", url, "import", "-q", str(SAMPLE)]).exit_code == 0
    forked = runner.invoke(main, ["--store", url, "fork", "sample-full-combat", "--at", "40"])
    assert forked.stdout == "sample-full-combat~40\n"
    return url


def test_next_names_the_player_and_the_legal_decisions(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(SAMPLE), "--at", str(PRIORITY_SEQ)])
    assert result.exit_code == 0
    first, *decisions = result.stdout.splitlines()
    assert first.startswith(f"seq {PRIORITY_SEQ} · turn 1 · COMBAT: p1 to decide (priority)")
    assert decisions == ["  pass", "  pay p1-001 s1 (Blackfang Fortress)"]


def test_next_json_and_standard_input_agree(runner: CliRunner) -> None:
    from_file = runner.invoke(main, ["next", str(SAMPLE), "--format", "json"])
    from_stdin = runner.invoke(main, ["next", "-", "--format", "json"], input=SAMPLE.read_bytes())
    assert from_file.exit_code == from_stdin.exit_code == 0
    data = json.loads(from_file.stdout)
    assert data == json.loads(from_stdin.stdout)
    assert (data["player"], data["kind"]) == ("p2", "supply")
    assert data["decisions"] == ["supply CARDS_2", "supply GOLD_2", "supply CARD_1_GOLD_1"]


def test_every_decision_next_lists_can_be_played(runner: CliRunner, store: str) -> None:
    fork = "sample-full-combat~40"
    ask = ["--store", store, "next", fork, "--format", "json"]
    listed = json.loads(runner.invoke(main, ask).stdout)
    assert listed["decisions"][0] == "pass"
    for decision in listed["decisions"][1:]:
        played = runner.invoke(main, ["--store", store, "play", fork, decision])
        assert played.exit_code == 0, played.stderr
        after = json.loads(runner.invoke(main, ask).stdout)
        assert after["kind"] == "registration"
        assert after["decisions"] == ["skill p1-001 s1"]


def test_next_out_of_range_is_one_line(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(SAMPLE), "--at", "9999"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: no event with seq 9999")
    assert result.stderr.count("\n") == 1


def test_stats_leaves_forks_out_unless_asked(runner: CliRunner, store: str) -> None:
    plain = runner.invoke(main, ["--store", store, "stats", "--format", "json"])
    counted = runner.invoke(
        main, ["--store", store, "stats", "--format", "json", "--include-forks"]
    )
    assert json.loads(plain.stdout)["corpus"]["matches"] == 1
    assert json.loads(counted.stdout)["corpus"]["matches"] == 2


def test_list_in_an_empty_folder_creates_no_store(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VWLOG_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the default store's folder
    result = runner.invoke(main, ["list"])
    assert result.exit_code == 0
    assert result.stderr == "0 matches\n"
    assert not (tmp_path / "vwlog.db").exists()
    assert not (tmp_path / "data" / "vwlog" / "vwlog.db").exists()


def test_quiet_import_prints_no_table(runner: CliRunner, tmp_path: Path) -> None:
    url = str(tmp_path / "q.db")
    logs = [str(SAMPLE), str(SAMPLE.with_name("hand-limit.jsonl"))]
    result = runner.invoke(main, ["--store", url, "import", "--quiet", *logs])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == "2 logs: 2 stored, 0 unchanged, 0 rejected, 0 failed\n"


def test_play_without_decisions_says_what_to_type(runner: CliRunner, store: str) -> None:
    result = runner.invoke(main, ["--store", store, "play", "sample-full-combat~40"])
    assert result.exit_code == 2
    assert "no decisions given" in result.stderr
    assert "vwlog next sample-full-combat~40" in result.stderr


def test_ctrl_c_exits_130(runner: CliRunner) -> None:
    @click.group(cls=VwlogGroup)
    def group() -> None:
        pass

    @group.command()
    def slow() -> None:
        raise KeyboardInterrupt

    result = runner.invoke(group, ["slow"])
    assert result.exit_code == 130
    assert result.stderr == "Interrupted.\n"
