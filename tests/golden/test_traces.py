"""Golden replay traces: the text replay of every sample, board included, is compared byte for
byte with a committed trace file (OpenSpiel's playthroughs, adapted).

A change to the descriptions, the board text, the priority-point marks or the engine shows up as
a diff of these files. To regenerate them after an intended change, run

    python -m pytest tests/golden/test_traces.py --update-goldens

which writes ``tests/golden/traces/<sample>.txt`` (the output of ``vwlog replay SAMPLE --board``,
or of ``vwlog replay SAMPLE`` for the samples in `WITHOUT_BOARD`), then review
``git diff tests/golden/traces`` and commit the traces with the change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from vwlog.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.jsonl"))
TRACES = Path(__file__).resolve().parent / "traces"

WITHOUT_BOARD = frozenset({"generated-military", "generated-political", "generated-tag-team-4"})
"""Generated samples whose trace with the board after every event would exceed `MAX_TRACE`
(1.1 to 2.5 MB): their trace has the event lines only. generated-absolute keeps its board."""
MAX_TRACE = 1_000_000
"""Largest committed trace, in bytes."""

pytestmark = pytest.mark.golden


def _args(sample: Path) -> list[str]:
    return (
        ["replay", str(sample)]
        if sample.stem in WITHOUT_BOARD
        else ["replay", str(sample), "--board"]
    )


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_the_text_replay_of_a_sample_matches_its_trace(
    sample: Path, request: pytest.FixtureRequest
) -> None:
    result = CliRunner().invoke(main, _args(sample))
    assert result.exit_code == 0, result.output
    trace = TRACES / f"{sample.stem}.txt"
    if request.config.getoption("--update-goldens"):
        TRACES.mkdir(exist_ok=True)
        trace.write_bytes(result.stdout_bytes)
    assert trace.exists(), f"no golden trace for {sample.name}; run with --update-goldens"
    assert result.stdout_bytes == trace.read_bytes()


def test_every_sample_has_a_trace_and_every_trace_a_sample() -> None:
    assert {t.stem for t in TRACES.glob("*.txt")} == {p.stem for p in SAMPLES}
    assert {p.stem for p in SAMPLES} >= WITHOUT_BOARD


def test_the_traces_stay_small() -> None:
    sizes = {t.name: t.stat().st_size for t in TRACES.glob("*.txt")}
    assert max(sizes.values()) <= MAX_TRACE, sizes
