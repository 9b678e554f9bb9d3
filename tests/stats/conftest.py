"""Generated matches for the statistics tests.

The matches are played under a quick ruleset (lower victory thresholds, a turn limit) so a
corpus of thirty takes a few seconds, and still ends in every victory type and sometimes in
no winner at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from vwlog.engine.replay import replay
from vwlog.games.vw.simulate import simulate
from vwlog.io.logfile import write_log
from vwlog.io.pools import load_pool
from vwlog.model.cards import Ruleset
from vwlog.projections.stats import MatchMetrics, MatchMetricsVisitor

if TYPE_CHECKING:
    from pathlib import Path

    from vwlog.events import EventRecord, LogHeader

QUICK = Ruleset(id="quick", version=2, victory_vp=1, victory_honor=25, victory_territories=4)
"""A ruleset whose matches end in 10 to 25 turns."""
CORPUS_SIZE = 30


@dataclass(frozen=True)
class Match:
    """A generated match: its log and its metrics."""

    header: LogHeader
    records: tuple[EventRecord, ...]
    metrics: MatchMetrics


def measure(header: LogHeader | None, records: tuple[EventRecord, ...]) -> MatchMetrics:
    """Fold a match's metrics through the replay loop."""
    return replay(records, MatchMetricsVisitor(), header=header)


def generate(
    seed: int, n: int, *, players: int = 2, teams: int | None = None, max_turns: int = 24
) -> list[Match]:
    pool = load_pool(None)
    out = []
    for index in range(n):
        m = simulate(
            pool,
            seed=seed,
            index=index,
            players=players,
            teams=teams,
            ruleset=QUICK,
            max_turns=max_turns,
        )
        out.append(Match(m.header, m.records, measure(m.header, m.records)))
    return out


@pytest.fixture(scope="session")
def corpus() -> list[Match]:
    """Thirty generated duels with their metrics."""
    return generate(11, CORPUS_SIZE)


@pytest.fixture(scope="session")
def team_corpus() -> list[Match]:
    """Six generated Tag Team matches (four players, two teams)."""
    return generate(12, 6, players=4, teams=2)


@pytest.fixture(scope="session")
def log_dir(tmp_path_factory: pytest.TempPathFactory, corpus: list[Match]) -> Path:
    """The first twelve matches of the corpus written as log files."""
    out = tmp_path_factory.mktemp("logs")
    for m in corpus[:12]:
        write_log(out / f"{m.header.match_id}.jsonl", m.header, m.records)
    return out
