"""Golden replay traces: the text replay of every sample, board included, is compared with a
committed trace file (OpenSpiel's playthroughs, adapted).

A change to the descriptions, the board text or the engine shows up as a diff of these files;
``pytest tests/golden --update-goldens`` rewrites them for review in the commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from vwlog.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.jsonl"))
TRACES = Path(__file__).resolve().parent / "traces"

pytestmark = pytest.mark.golden


def _scripted(path: Path) -> bool:
    return not path.name.startswith("generated-")


@pytest.mark.parametrize("sample", [p for p in SAMPLES if _scripted(p)], ids=lambda p: p.stem)
def test_the_text_replay_of_a_sample_matches_its_trace(
    sample: Path, request: pytest.FixtureRequest
) -> None:
    result = CliRunner().invoke(main, ["replay", str(sample), "--board"])
    assert result.exit_code == 0, result.output
    trace = TRACES / f"{sample.stem}.txt"
    if request.config.getoption("--update-goldens"):
        TRACES.mkdir(exist_ok=True)
        trace.write_text(result.stdout, encoding="utf-8")
    assert trace.exists(), f"no golden trace for {sample.name}; run with --update-goldens"
    assert result.stdout == trace.read_text(encoding="utf-8")


def test_every_trace_belongs_to_a_sample() -> None:
    names = {p.stem for p in SAMPLES if _scripted(p)}
    assert {t.stem for t in TRACES.glob("*.txt")} == names
