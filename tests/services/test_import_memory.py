"""Measuring a match at import takes memory that grows by little per turn.

Import folds a match's statistics in the replay that validates it and keeps them in the
catalog entry, per-turn points included. What that holds and builds grows with the number of
turns however it is done; this bounds by how much, from a generated match and one ten times
longer, so that a long match imports in about the memory that validating it takes
(bench/memory_bench.py measures the 1.4-million-event match). Objects per turn — a counts
object with its Counters, a model and a mapping per point — cost about 10 kB per turn here;
rows of integers and points kept in columns cost about 1.1 kB.
"""

from __future__ import annotations

import gc
import tracemalloc

import orjson

from vwlog.engine.replay import replay
from vwlog.io.pools import load_pool
from vwlog.model.cards import Ruleset
from vwlog.projections.stats import MatchMetricsVisitor, visitor
from vwlog.services.simulate import SimulationSpec, generate_one
from vwlog.services.storing import Measuring, metrics_of

NEVER_WON = Ruleset(victory_vp=1000, victory_honor=1_000_000, victory_territories=1000)
"""Rules under which a random match goes on until its turn limit."""
BYTES_PER_TURN = 3000
"""The most the statistics of a match may grow by, per turn: held by the visitor after the
replay, plus the peak of making the catalog form and its JSON."""


def _cost(turns: int) -> tuple[int, int]:
    """Bytes the statistics visitor holds after folding a generated match of ``turns`` turns,
    and the peak bytes of making its metrics as the catalog keeps them, with their JSON."""
    spec = SimulationSpec(seed=5, policy="random", max_turns=turns, ruleset=NEVER_WON)
    match, _ = generate_one(load_pool(), spec, 0, None)
    assert match.state.winner is None  # it ran to its turn limit
    measure = MatchMetricsVisitor()
    tracemalloc.start()
    try:
        replay(match.records, Measuring(measure), header=match.header)
        mine = [tracemalloc.Filter(True, visitor.__file__)]
        held = sum(
            s.size for s in tracemalloc.take_snapshot().filter_traces(mine).statistics("filename")
        )
        made = min(_peak_of_keeping(measure) for _ in range(3))
    finally:
        tracemalloc.stop()
    return held, made


def _peak_of_keeping(measure: MatchMetricsVisitor) -> int:
    """The peak bytes of making the catalog form of ``measure`` and its JSON. The peak counts
    every thread of this process, so the least of a few tries is taken: what another thread
    allocates meanwhile only adds."""
    gc.disable()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        kept = metrics_of(measure)
        assert kept is not None
        orjson.dumps(kept)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        gc.enable()


def test_the_statistics_of_a_match_grow_by_little_per_turn() -> None:
    _cost(10)  # once first: what the first measurement allocates once (caches) is not per turn
    short, long = _cost(10), _cost(100)
    per_turn = (long[0] - short[0] + long[1] - short[1]) / 90
    assert 0 < per_turn < BYTES_PER_TURN, (short, long)
