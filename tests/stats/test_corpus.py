"""Corpus aggregates: invariants, incremental = rebuild = merge, filters, serialisation."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vwlog.projections.stats import (
    UNFINISHED,
    CorpusStats,
    StatsFilter,
    WinCount,
    summarize,
    wilson_interval,
)

if TYPE_CHECKING:
    from tests.stats.conftest import Match
    from vwlog.projections.stats import MatchMetrics


def metrics_of(corpus: list[Match]) -> list[MatchMetrics]:
    return [m.metrics for m in corpus]


@pytest.fixture(scope="module")
def stats(corpus: list[Match]) -> CorpusStats:
    return CorpusStats.build(metrics_of(corpus))


def test_counts_add_up(corpus: list[Match], stats: CorpusStats) -> None:
    all_metrics = metrics_of(corpus)
    finished = [m for m in all_metrics if m.finished]
    assert stats.matches == len(all_metrics) == 30
    assert stats.finished == len(finished)
    assert stats.sides == 2 * len(all_metrics)
    assert sum(stats.victory_types.values()) == stats.matches
    assert stats.victory_types.get(UNFINISHED, 0) == stats.matches - stats.finished
    assert len(stats.victory_types) >= 3, "the quick ruleset should end matches in several ways"
    # one winner per finished duel, counted once per seat and once per turn position
    assert stats.winners == stats.finished
    assert sum(w.wins for w in stats.seats.values()) == stats.finished
    assert sum(w.wins for w in stats.turn_order.values()) == stats.finished
    assert sum(w.wins for w in stats.factions.values()) == stats.finished
    assert sum(d.wins for d in stats.decks.values()) == stats.finished
    assert all(w.n == stats.finished for w in stats.seats.values())
    assert sum(w.n for w in stats.factions.values()) == 2 * stats.finished
    assert sum(stats.turns.values()) == sum(stats.events.values()) == stats.finished
    for card in stats.cards.values():
        assert card.matches <= stats.matches
        assert card.played.wins <= card.played.n <= 2 * stats.finished
        assert card.played.n <= card.decked.n
        assert card.summons >= card.played.n
    assert sum(stats.supply.values()) == sum(
        sum(p.supply.values()) for m in all_metrics for p in m.players
    )
    first_turn = stats.tempo[1]
    assert first_turn.n == stats.sides


def test_team_wins_count_each_member(team_corpus: list[Match]) -> None:
    stats = CorpusStats.build(metrics_of(team_corpus))
    assert stats.sides == 4 * stats.matches
    assert stats.winners == 2 * stats.finished
    assert sum(w.wins for w in stats.seats.values()) == 2 * stats.finished
    assert sorted(stats.seats) == [1, 2, 3, 4]


def test_adding_one_by_one_equals_building_equals_merging(corpus: list[Match]) -> None:
    all_metrics = metrics_of(corpus)
    built = CorpusStats.build(all_metrics)
    incremental = CorpusStats()
    for m in reversed(all_metrics):
        incremental.add(m)
    first = CorpusStats.build(all_metrics[:13])
    second = CorpusStats.build(all_metrics[13:])
    merged = first.merge(second)
    assert incremental == built
    assert merged == built
    assert merged.canonical().model_dump_json() == built.canonical().model_dump_json()
    assert CorpusStats().merge(built) == built


def test_merging_under_other_filters_is_refused(stats: CorpusStats) -> None:
    with pytest.raises(ValueError, match="different filters"):
        CorpusStats(filters=StatsFilter(player="p1")).merge(stats)


def test_json_round_trip(stats: CorpusStats) -> None:
    text = stats.canonical().model_dump_json()
    again = CorpusStats.model_validate_json(text)
    assert again == stats
    assert again.model_dump_json() == text


def test_player_filter_counts_that_players_side_only(corpus: list[Match]) -> None:
    stats = CorpusStats.build(metrics_of(corpus), StatsFilter(player="p1"))
    assert stats.matches == 30
    assert stats.sides == 30
    p1_wins = sum(1 for m in corpus if m.metrics.winner == "p1")
    assert stats.winners == p1_wins
    assert sum(w.n for w in stats.seats.values()) == stats.finished
    assert list(stats.seats) == [1]


def test_faction_filter_counts_matching_sides(corpus: list[Match]) -> None:
    all_metrics = metrics_of(corpus)
    faction = all_metrics[0].players[0].faction
    stats = CorpusStats.build(all_metrics, StatsFilter(faction=faction.lower()))
    sides = [p for m in all_metrics for p in m.players if p.faction == faction]
    assert stats.sides == len(sides)
    assert set(stats.factions) == {faction}
    assert stats.matches + sum(stats.skipped.values()) == len(all_metrics)


def test_ruleset_and_since_filters_skip_with_a_reason(corpus: list[Match]) -> None:
    all_metrics = metrics_of(corpus)
    other = CorpusStats.build(all_metrics, StatsFilter(ruleset="vw-default"))
    assert other.matches == 0
    assert other.skipped == {"other ruleset": 30}
    same = CorpusStats.build(all_metrics, StatsFilter(ruleset="quick@2"))
    assert same.matches == 30
    undated = CorpusStats.build(all_metrics, StatsFilter(since=date(2024, 1, 1)))
    assert undated.skipped == {"no creation date": 30}
    dated = [
        m.model_copy(update={"created": created})
        for m, created in zip(
            all_metrics[:2], ("2023-12-31T23:00:00+00:00", "2024-01-01T10:00:00Z"), strict=True
        )
    ]
    since = CorpusStats.build(dated, StatsFilter(since=date(2024, 1, 1)))
    assert since.matches == 1
    assert since.skipped == {"created before the date asked for": 1}


def test_length_summary(stats: CorpusStats) -> None:
    turns = stats.length("turns")
    values = sorted(v for v, c in stats.turns.items() for _ in range(c))
    assert turns.n == len(values)
    assert turns.mean == pytest.approx(sum(values) / len(values))
    assert turns.min == values[0]
    assert turns.max == values[-1]
    assert sum(c for _lo, _hi, c in turns.buckets) == turns.n
    assert all(lo <= hi for lo, hi, _c in turns.buckets)


@given(st.lists(st.integers(0, 500), min_size=1, max_size=60), st.integers(1, 20))
def test_summary_median_and_buckets(values: list[int], buckets: int) -> None:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    s = summarize(counts, buckets)
    ordered = sorted(values)
    mid = len(ordered) // 2
    median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    assert s.median == median
    assert sum(c for *_edges, c in s.buckets) == len(values)
    for v in values:
        assert sum(1 for lo, hi, _c in s.buckets if lo <= v <= hi) == 1


def test_summary_of_nothing() -> None:
    s = summarize({})
    assert (s.n, s.mean, s.median, s.buckets) == (0, None, None, ())


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_wilson_interval_brackets_the_rate(a: int, b: int) -> None:
    wins, n = min(a, b), max(a, b)
    lo, hi = wilson_interval(wins, n)
    p = wins / n if n else lo
    assert 0.0 <= lo <= p <= hi <= 1.0


@given(st.integers(1, 500))
def test_wilson_interval_narrows_with_more_evidence(n: int) -> None:
    wins = n // 3
    lo1, hi1 = wilson_interval(wins, n)
    lo2, hi2 = wilson_interval(wins * 4, n * 4)
    assert hi2 - lo2 < hi1 - lo1


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert (round(lo, 4), hi) == (0.7225, 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="0 <= successes <= n"):
        wilson_interval(3, 2)


def test_win_count() -> None:
    assert WinCount().rate is None
    w = WinCount()
    w.record(won=True)
    w.record(won=False)
    assert (w.n, w.wins, w.rate) == (2, 1, 0.5)
    lo, hi = w.interval()
    assert lo < 0.5 < hi
