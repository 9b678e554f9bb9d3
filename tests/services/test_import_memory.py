"""Measuring a match at import takes memory that grows by little per turn.

Import folds a match's statistics in the replay that validates it and keeps them in the
catalog entry, per-turn points included. What that holds and builds grows with the number of
turns however it is done; this bounds by how much, from a generated match and one ten times
longer, so that a long match imports in about the memory that validating it takes
(bench/memory_bench.py measures the 1.4-million-event match). Objects per turn — a counts
object with its Counters, a model and a mapping per point — cost about 10 kB per turn here;
rows of integers and points kept in columns cost about 1.3 kB.
"""

from __future__ import annotations

import tracemalloc
from typing import TYPE_CHECKING

import orjson
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.engine.replay import replay
from vwlog.io.logfile import open_log
from vwlog.projections.stats import MatchMetricsVisitor, visitor
from vwlog.services.matches import Measuring, _metrics

if TYPE_CHECKING:
    from pathlib import Path

NEVER_WON = (
    "--policy",
    "random",
    "--set",
    "victory_vp=1000",
    "--set",
    "victory_honor=1000000",
    "--set",
    "victory_territories=1000",
)
"""A match that goes on until ``--max-turns`` (as bench/corpus.py's ``LONG_MATCH``)."""
BYTES_PER_TURN = 3000
"""The most the statistics of a match may grow by, per turn: held by the visitor after the
replay, plus the peak of making the catalog form and its JSON."""


def _generated(tmp_path: Path, turns: int) -> Path:
    path = tmp_path / f"long-{turns}.jsonl"
    args = ["simulate", "--seed", "5", "--max-turns", str(turns), *NEVER_WON, "-o", str(path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return path


def _cost(path: Path) -> tuple[int, int]:
    """Bytes the statistics visitor holds after folding the match, and the peak bytes of
    making the metrics as the catalog keeps them, with their JSON."""
    with open_log(path) as reader:
        header = reader.header
        records = [line.record for line in reader]
    measure = MatchMetricsVisitor()
    tracemalloc.start()
    try:
        replay(records, Measuring(measure), header=header)
        mine = [tracemalloc.Filter(True, visitor.__file__)]
        held = sum(
            s.size for s in tracemalloc.take_snapshot().filter_traces(mine).statistics("filename")
        )
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        kept = _metrics(measure)
        assert kept is not None
        orjson.dumps(kept)
        made = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    return held, made


def test_the_statistics_of_a_match_grow_by_little_per_turn(tmp_path: Path) -> None:
    short, long = _cost(_generated(tmp_path, 10)), _cost(_generated(tmp_path, 100))
    per_turn = (long[0] - short[0] + long[1] - short[1]) / 90
    assert 0 < per_turn < BYTES_PER_TURN, (short, long)
