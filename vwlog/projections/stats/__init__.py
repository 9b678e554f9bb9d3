"""Match statistics as read models: per-match metrics folded from one replay, and corpus
aggregates that can be kept current one match at a time.

`MatchMetricsVisitor` is a visitor of the one replay loop (`vwlog.engine.replay.replay`): it sees
every event with the board before and after it and folds them into a frozen `MatchMetrics`.
`CorpusStats` aggregates many `MatchMetrics`; it is mergeable (``add`` one match, ``merge``
another aggregate), so a store can keep it current as matches are imported, and it round-trips
through JSON (``model_dump_json`` / ``model_validate_json``).

The package's parts: `wilson` (the interval and win counts), `metrics` (the frozen
per-match models), `visitor` (the replay visitor), `corpus` (the aggregate); `common` holds
their shared bases. Everything here is pure: no files, no printing, no clock. Rendering lives in
`vwlog.render.statspage`.

Every win rate comes with its sample size and a Wilson 95 % confidence interval, never as a
bare percentage.
"""

from vwlog.projections.stats.common import NEUTRAL, UNFINISHED
from vwlog.projections.stats.corpus import (
    CardRecord,
    CorpusStats,
    DeckRecord,
    StatsFilter,
    Summary,
    TempoSums,
    summarize,
)
from vwlog.projections.stats.metrics import (
    PLAYER_COUNTS,
    CardInfo,
    DecisionTiming,
    MatchMetrics,
    PlayerMetrics,
    TrustedUse,
    TurnPoint,
    deck_archetype,
    deck_faction,
    deck_identity,
)
from vwlog.projections.stats.visitor import MatchMetricsVisitor, ReplayStep
from vwlog.projections.stats.wilson import Z_95, WinCount, wilson_interval

__all__ = [
    "NEUTRAL",
    "PLAYER_COUNTS",
    "UNFINISHED",
    "Z_95",
    "CardInfo",
    "CardRecord",
    "CorpusStats",
    "DecisionTiming",
    "DeckRecord",
    "MatchMetrics",
    "MatchMetricsVisitor",
    "PlayerMetrics",
    "ReplayStep",
    "StatsFilter",
    "Summary",
    "TempoSums",
    "TrustedUse",
    "TurnPoint",
    "WinCount",
    "deck_archetype",
    "deck_faction",
    "deck_identity",
    "summarize",
    "wilson_interval",
]
