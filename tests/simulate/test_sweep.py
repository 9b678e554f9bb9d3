"""The false-positive sweep, small: generated matches of every format, every choice drawn,
judged as files; the judge finds nothing (`tests/simulate/sweep.py`; the large run is
``bench/sweep_bench.py``)."""

from __future__ import annotations

import pytest

from tests.simulate.sweep import FORMATS, sweep


@pytest.mark.slow
def test_generated_matches_of_every_format_are_judged_legal() -> None:
    tally, run = sweep(2_000, seed=3, max_turns=40)
    assert tally.findings == []
    assert tally.violations == 0
    assert set(tally.per_format) == set(FORMATS)
    assert all(counts["events"] >= 2_000 for counts in tally.per_format.values())
    assert tally.verdicts == {"OK": tally.matches}
    assert sum(tally.drawn.values()) > 0
    assert run["seed"] == 3
