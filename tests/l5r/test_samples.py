"""The sample logs of samples/l5r through the real command line: each is judged as
samples/l5r/expected.json says (a log without a hash chain is UNTRUSTED, not LEGAL: the
violations decide)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.l5r.logs import SAMPLES, cited, records
from vwlog.io.logfile import read_log, write_log

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "samples" / "l5r"
EXPECTED: dict[str, list[list[object]]] = json.loads((FOLDER / "expected.json").read_text())


def _validate(*paths: Path) -> list[dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "validate", "--format", "json", *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr
    reports: list[dict[str, object]] = json.loads(done.stdout)
    return reports


def test_there_are_enough_samples() -> None:
    assert sum(1 for n in EXPECTED if n.startswith("legal_")) >= 4
    assert sum(1 for n in EXPECTED if n.startswith("illegal_")) >= 8
    assert sorted(EXPECTED) == sorted(p.name for p in FOLDER.glob("*.jsonl"))


def test_the_command_line_judges_every_sample_as_expected() -> None:
    names = sorted(EXPECTED)
    reports = _validate(*(FOLDER / n for n in names))
    assert len(reports) == len(names)
    for name, report in zip(names, reports, strict=True):
        violations = report["violations"]
        assert isinstance(violations, list)
        got = [[v["rule"], v["seq"]] for v in violations]
        assert got == EXPECTED[name], name
        if name.startswith("legal_"):
            assert report["verdict"] == "UNTRUSTED", name
        else:
            assert report["verdict"] == "ILLEGAL", name
            assert got, name


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_sample_files_are_the_scenarios_of_the_tests(name: str) -> None:
    _header, read = read_log(FOLDER / f"{name}.jsonl")
    assert [r.event for r in read] == [r.event for r in records(SAMPLES[name])]
    assert [list(c) for c in cited(SAMPLES[name])] == EXPECTED[f"{name}.jsonl"]


def test_an_illegal_sample_cites_its_rule_first() -> None:
    firsts = {n: v[0][0] for n, v in EXPECTED.items() if v}
    assert firsts["illegal_wrong_force.jsonl"] == "L5R-RES-1"
    assert firsts["illegal_province_fall_omitted.jsonl"] == "L5R-RES-5"
    assert firsts["illegal_province_falsely_destroyed.jsonl"] == "L5R-RES-5"
    assert firsts["illegal_attacker_first.jsonl"] == "L5R-CMB-1"
    assert firsts["illegal_tie_no_destruction.jsonl"] == "L5R-RES-9"


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_sample_reads_and_writes_back_byte_for_byte(name: str, tmp_path: Path) -> None:
    header, read = read_log(FOLDER / f"{name}.jsonl")
    assert header.game == "l5r"
    write_log(tmp_path / "again.jsonl", header, read)
    assert (tmp_path / "again.jsonl").read_bytes() == (FOLDER / f"{name}.jsonl").read_bytes()
