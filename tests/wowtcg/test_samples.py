"""The WoW TCG samples judged by the real command line: each legal one breaks no rule, each
illegal one is cited for the rule and at the seq its expected.json names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "wowtcg"
EXPECTED: dict[str, list[list[Any]]] = json.loads((SAMPLES / "expected.json").read_text())


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, Any]]:
    files = [str(SAMPLES / name) for name in sorted(EXPECTED)]
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "validate", "--format", "json", *files],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "VWLOG_ENGINE": "pure"},
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    return {Path(r["source"]).name: r for r in json.loads(done.stdout)}


def test_the_samples_are_four_legal_matches_and_eight_illegal_ones_at_least() -> None:
    legal = [name for name, cited in EXPECTED.items() if not cited]
    assert len(legal) >= 4
    assert len(EXPECTED) - len(legal) >= 8
    assert sorted(p.name for p in SAMPLES.glob("*.jsonl")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_sample_is_judged_as_expected(name: str, reports: dict[str, dict[str, Any]]) -> None:
    report = reports[name]
    cited = [[v["rule"], v["seq"]] for v in report["violations"]]
    assert cited == EXPECTED[name]
    assert report["ruleset"] == "wowtcg@1"
    assert report["verdict"] == ("ILLEGAL" if EXPECTED[name] else "UNTRUSTED")


@pytest.mark.parametrize("name", sorted(n for n, c in EXPECTED.items() if not c))
def test_each_legal_sample_plays_several_turns(name: str, reports: dict[str, Any]) -> None:
    assert reports[name]["turns"] >= 2
    assert reports[name]["players"] == ["ana", "budi"]


def test_an_illegal_sample_exits_1_with_its_rule_in_the_text_report() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "validate", str(SAMPLES / "illegal-hand-limit.jsonl")],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "VWLOG_ENGINE": "pure"},
    )
    assert done.returncode == 1
    assert "WOW-END-4" in done.stdout
    assert "(503.2a)" in done.stdout
