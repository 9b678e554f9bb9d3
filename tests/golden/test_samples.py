"""The committed sample logs: the legal ones are legal, each invalid one shows exactly the
violations its ``.expected.json`` names, and none has drifted from ``samples/build.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from vwlog.services import validate_log

pytestmark = pytest.mark.golden

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
LEGAL = sorted(SAMPLES.glob("*.jsonl"))
INVALID = sorted((SAMPLES / "invalid").glob("*.jsonl"))


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_samples_exist() -> None:
    assert len(LEGAL) >= 10, "samples/*.jsonl is missing; run python samples/build.py"
    assert len(INVALID) >= 12, "samples/invalid/*.jsonl is missing"


@pytest.mark.parametrize("path", LEGAL, ids=_ids(LEGAL))
def test_legal_sample_has_no_violation(path: Path) -> None:
    report = validate_log(path)
    assert report.violations == [], "\n".join(
        f"{v.rule} seq {v.seq}: {v.message}" for v in report.violations
    )
    assert report.events > 0


def test_generated_samples_are_listed() -> None:
    listed = json.loads((SAMPLES / "generated.json").read_text())
    files = {entry["file"] for entry in listed}
    assert files == {p.name for p in LEGAL if p.name.startswith("generated-")}
    for entry in listed:
        assert set(entry) >= {"file", "seed", "players", "teams", "policy", "max_turns"}
        report = validate_log(SAMPLES / entry["file"])
        assert report.complete, f"{entry['file']} does not reach a winner"
        assert report.victory == entry["victory"]
        assert len(report.players) == entry["players"]


@pytest.mark.parametrize("path", INVALID, ids=_ids(INVALID))
def test_invalid_sample_shows_exactly_its_expected_violations(path: Path) -> None:
    expected_file = path.with_name(f"{path.stem}.expected.json")
    expected = Counter((e["rule"], e["seq"]) for e in json.loads(expected_file.read_text()))
    assert expected, f"{expected_file.name} lists no violation"
    report = validate_log(path)
    found = Counter((str(v.rule), v.seq) for v in report.violations)
    assert found == expected, "\n".join(
        f"{v.rule} seq {v.seq}: {v.message}" for v in report.violations
    )


def test_every_expected_file_has_its_log() -> None:
    logs = {p.stem for p in INVALID}
    expected = {p.name.removesuffix(".expected.json") for p in SAMPLES.glob("invalid/*.json")}
    assert logs == expected


@pytest.mark.slow
def test_samples_are_what_the_build_script_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(SAMPLES / "build.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
