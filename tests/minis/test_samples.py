"""The sample logs of samples/minis through the real command line: validate judges each as
samples/minis/expected.json says; replay, fork, next and import into a real SQLite store work
on them; a sample reads and writes back byte for byte; the files are the tests' scenarios."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.minis.logs import SAMPLES, cited, records
from vwlog.io.logfile import read_log, write_log

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "samples" / "minis"
EXPECTED: dict[str, list[list[object]]] = json.loads((FOLDER / "expected.json").read_text())


def _vwlog(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_there_are_enough_samples() -> None:
    assert sum(1 for n in EXPECTED if n.startswith("legal_")) >= 4
    assert sum(1 for n in EXPECTED if n.startswith("illegal_")) >= 8
    assert sorted(EXPECTED) == sorted(p.name for p in FOLDER.glob("*.jsonl"))


def test_the_command_line_judges_every_sample_as_expected() -> None:
    names = sorted(EXPECTED)
    reports = json.loads(
        _vwlog("validate", "--format", "json", *(str(FOLDER / n) for n in names)).stdout
    )
    assert len(reports) == len(names)
    for name, report in zip(names, reports, strict=True):
        got = [[v["rule"], v["seq"]] for v in report["violations"]]
        assert got == EXPECTED[name], name
        assert report["verdict"] == ("ILLEGAL" if name.startswith("illegal_") else "UNTRUSTED"), (
            name
        )
        if name.startswith("illegal_"):
            assert got, name
            assert str(got[0][0]).startswith("MIN-"), name


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_sample_files_are_the_scenarios_of_the_tests(name: str) -> None:
    _header, read = read_log(FOLDER / f"{name}.jsonl")
    assert [r.event for r in read] == [r.event for r in records(SAMPLES[name])]
    assert [list(c) for c in cited(SAMPLES[name])] == EXPECTED[f"{name}.jsonl"]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_sample_reads_and_writes_back_byte_for_byte(name: str, tmp_path: Path) -> None:
    header, read = read_log(FOLDER / f"{name}.jsonl")
    assert header.game == "minis"
    write_log(tmp_path / "again.jsonl", header, read)
    assert (tmp_path / "again.jsonl").read_bytes() == (FOLDER / f"{name}.jsonl").read_bytes()


def test_replay_next_and_fork_through_the_command_line(tmp_path: Path) -> None:
    sample = str(FOLDER / "legal_one_round.jsonl")
    shown = _vwlog("replay", sample)
    assert shown.returncode == 0
    assert "p1 rolls 2d6 for m1 (confrontation): 5 2, 1 Hits" in shown.stdout
    awaited = _vwlog("next", sample, "--at", "18")
    assert awaited.returncode == 0
    assert "activate m1" in awaited.stdout
    assert "stop" in awaited.stdout
    out = tmp_path / "fork.jsonl"
    assert _vwlog("fork", sample, "--at", "18", "-o", str(out)).returncode == 0
    refused = _vwlog("fork", sample, "--at", "13", "-o", str(tmp_path / "no.jsonl"))
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1


def test_import_into_sqlite(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'club.db'}"
    done = _vwlog(
        "--store",
        store,
        "import",
        "-q",
        str(FOLDER / "legal_one_round.jsonl"),
        str(FOLDER / "illegal_upkeep_ap.jsonl"),
    )
    assert done.returncode == 1, done.stdout + done.stderr  # one log breaks a rule: stored flagged
    listed = _vwlog("--store", store, "list").stdout
    assert "minis-legal-one-round" in listed
    assert "minis-illegal-upkeep-ap" in listed
    shown = _vwlog("--store", store, "replay", "minis-illegal-upkeep-ap")
    assert shown.returncode == 1
    assert "Activation Points: m1 3, m2 1, r1 2, r2 1" in shown.stdout


def test_report_shows_the_geometric_claims_and_the_verdict() -> None:
    done = _vwlog("report", str(FOLDER / "illegal_no_line_of_sight.jsonl"), "--format", "markdown")
    assert done.returncode == 1, done.stderr
    assert "MIN-REA-3 at seq 23" in done.stdout
    assert "seq 22: r1 out of Reach (MIN-REA-4)" in done.stdout
    assert "seq 11: r1 line of sight (MIN-REA-3)" in done.stdout


def test_play_on_a_fork_through_the_command_line(tmp_path: Path) -> None:
    fork = tmp_path / "branch.jsonl"
    assert (
        _vwlog(
            "fork", str(FOLDER / "legal_one_round.jsonl"), "--at", "18", "-o", str(fork)
        ).returncode
        == 0
    )
    lines = ["activate m2", "move m2 normal", "react r1:attack", "act m2 normal attack on r1"]
    lines += ["roll m2 confrontation 6 hits 1 on r1", "roll m2 damage 4", "wounds r1 1", "end"]
    assert _vwlog("play", str(fork), *lines).returncode == 0
    refused = _vwlog("play", str(fork), "activate r1")
    assert refused.returncode == 1
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "MIN-PHS-4" in refused.stderr
    report = json.loads(_vwlog("validate", "--format", "json", str(fork)).stdout)[0]
    assert report["violations"] == []
    assert report["events"] == 19 + len(lines)
