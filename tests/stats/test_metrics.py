"""Per-match metrics, checked against figures counted by hand from the events.

The hand counts are deliberately naive loops over the records, independent of the visitor's
fold: if both agree, the fold reads the events the way their definitions say.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest

from tests.stats.conftest import Match, generate, measure
from vwlog.engine.replay import replay
from vwlog.events import (
    AttackDeclared,
    BlocksAssigned,
    CardMoved,
    CardsDrawn,
    CardSummoned,
    CostPaid,
    DamageDealt,
    EventRecord,
    FollowersDestroyed,
    GoldChanged,
    GoldProduced,
    HandLimitDiscarded,
    HonorChanged,
    MatchStarted,
    MatchWon,
    ObjectResulted,
    SkillRegistered,
    SupplyChosen,
    SupplyTaken,
    TerritoriesDestroyed,
    TurnEnded,
    TurnStarted,
    VictoryPointGained,
)
from vwlog.projections.stats import (
    UNFINISHED,
    MatchMetricsVisitor,
    deck_faction,
    deck_identity,
)

if TYPE_CHECKING:
    from vwlog.projections.stats import MatchMetrics


@pytest.fixture(scope="module")
def match(corpus: list[Match]) -> Match:
    """A finished match with combat, draws by effects and discards."""
    for m in corpus:
        kinds = {type(r.event) for r in m.records}
        if m.metrics.finished and {AttackDeclared, HandLimitDiscarded} <= kinds:
            return m
    raise AssertionError("no suitable match in the corpus")


def start_of(m: Match) -> MatchStarted:
    event = m.records[0].event
    assert isinstance(event, MatchStarted)
    return event


def test_match_level_figures_match_the_events(match: Match) -> None:
    events = [r.event for r in match.records]
    won = [e for e in events if isinstance(e, MatchWon)]
    start = start_of(match)
    metrics = match.metrics
    assert metrics.match_id == match.header.match_id
    assert metrics.events == len(match.records)
    assert metrics.decisions == sum(1 for e in events if e.DECISION)
    assert metrics.turns == max(e.turn for e in events if isinstance(e, TurnStarted))
    assert metrics.first_player == start.first_player
    assert [p.player for p in metrics.players] == [s.player for s in start.seats]
    assert metrics.winner == won[0].winner
    assert metrics.victory == str(won[0].victory)
    assert metrics.ruleset == "quick"
    assert metrics.ruleset_version == 2
    assert metrics.violations == 0


def test_resources_match_the_events(match: Match) -> None:
    events = [r.event for r in match.records]
    effects = [f for e in events if isinstance(e, ObjectResulted) for f in e.effects]
    for p in match.metrics.players:
        me = p.player
        supply = Counter(
            e.option.value for e in events if isinstance(e, SupplyChosen) and e.player == me
        )
        assert {k: v for k, v in p.supply.items() if v} == dict(supply)
        assert p.gold_produced == sum(
            e.amount for e in events if isinstance(e, GoldProduced) and e.player == me
        )
        assert p.gold_spent == sum(
            e.gold for e in events if isinstance(e, CostPaid) and e.player == me
        )
        taken = [e for e in events if isinstance(e, SupplyTaken) and e.player == me]
        assert p.gold_from_supply == sum(e.gold for e in taken)
        assert p.cards_drawn_supply == sum(len(e.cards) for e in taken)
        assert p.cards_drawn_effects == sum(
            len(f.cards) for f in effects if isinstance(f, CardsDrawn) and f.player == me
        )
        assert p.gold_from_effects == sum(
            f.delta for f in effects if isinstance(f, GoldChanged) and f.player == me
        )
        # Gold is conserved: start + income - spending = what is left (no effect took gold).
        income = p.gold_produced + p.gold_from_supply + p.gold_from_effects
        assert p.final_gold == QUICK_START_GOLD + income - p.gold_spent
        # Honor: effects only, never below zero.
        honor = 0
        for f in effects:
            if isinstance(f, HonorChanged) and f.player == me:
                honor = max(0, honor + f.delta)
        assert p.final_honor == honor
        assert p.final_vp == sum(
            1 for e in events if isinstance(e, VictoryPointGained) and e.player == me
        )


QUICK_START_GOLD = 6


def test_card_flow_matches_the_events(match: Match) -> None:
    start = start_of(match)
    defs = {c.id: c for c in start.cards}
    kind = {i.id: defs[i.card].type for s in start.seats for i in (*s.deck, *s.subdeck)}
    definition = {i.id: i.card for s in start.seats for i in (*s.deck, *s.subdeck)}
    owner = {i.id: s.player for s in start.seats for i in (*s.deck, *s.subdeck)}
    events = [r.event for r in match.records]
    for p in match.metrics.players:
        me = p.player
        summoned = [e.card for e in events if isinstance(e, CardSummoned) and e.player == me]
        assert p.cards_played == len(summoned)
        assert p.played == dict(Counter(definition[c] for c in summoned))
        assert p.territories_summoned == sum(1 for c in summoned if kind[c] == "TERRITORY")
        assert p.followers_summoned == sum(1 for c in summoned if kind[c] == "FOLLOWER")
        assert p.cards_discarded == sum(
            len(e.cards) for e in events if isinstance(e, HandLimitDiscarded) and e.player == me
        )
        declared = [e for e in events if isinstance(e, AttackDeclared) and e.player == me]
        assert p.attacks_declared == sum(1 for e in declared if e.attacks)
        assert p.attackers_declared == sum(len(e.attacks) for e in declared)
        assert p.blocks == sum(
            len(e.blocks) for e in events if isinstance(e, BlocksAssigned) and e.player == me
        )
        assert p.skills_registered == dict(
            Counter(
                definition[e.card]
                for e in events
                if isinstance(e, SkillRegistered) and e.player == me
            )
        )
    # Losses: a naive in-play set, fed by summons and emptied by destructions and moves.
    in_play: set[str] = set()
    lost: Counter[tuple[str, str]] = Counter()
    damage: Counter[tuple[str, str]] = Counter()
    for e in events:
        gone: list[str] = []
        if isinstance(e, CardSummoned):
            in_play.add(e.card)
        elif isinstance(e, FollowersDestroyed | TerritoriesDestroyed):
            gone = list(e.cards)
        elif isinstance(e, ObjectResulted):
            for f in e.effects:
                if isinstance(f, CardMoved):
                    gone.append(f.card)
                elif isinstance(f, DamageDealt) and f.recipient in in_play:
                    damage[owner[f.source], str(kind[f.recipient])] += f.amount
        for c in gone:
            if c in in_play:
                in_play.discard(c)
                lost[owner[c], str(kind[c])] += 1
    for p in match.metrics.players:
        assert p.territories_lost == lost[p.player, "TERRITORY"]
        assert p.followers_lost == lost[p.player, "FOLLOWER"]
        assert p.damage_to_territories == damage[p.player, "TERRITORY"]
        assert p.damage_to_followers == damage[p.player, "FOLLOWER"]
    assert sum(p.damage_to_territories + p.damage_to_followers for p in match.metrics.players)


def test_tempo_has_one_point_per_turn(match: Match) -> None:
    ended = [r.event.turn for r in match.records if isinstance(r.event, TurnEnded)]
    metrics = match.metrics
    for p in metrics.players:
        turns = [t.turn for t in p.tempo]
        # every ended turn, then the turn the match was won in
        assert turns == [*ended, metrics.turns] if ended[-1] < metrics.turns else ended
        assert p.tempo[-1].honor == p.final_honor
        assert p.tempo[-1].vp == p.final_vp
        assert all(a.vp <= b.vp for a, b in zip(p.tempo, p.tempo[1:], strict=False))


def test_deck_identity_and_faction_come_from_the_deck(match: Match) -> None:
    start = start_of(match)
    defs = {c.id: c for c in start.cards}
    for seat, p in zip(start.seats, match.metrics.players, strict=True):
        cards = [i.card for i in seat.deck]
        assert p.deck_id == deck_identity(reversed(cards))
        assert p.deck == dict(Counter(cards))
        assert p.deck_size == len(cards)
        factions = Counter(str(defs[c].faction) for c in cards if defs[c].faction)
        top = max(factions.values())
        assert p.faction == min(f for f, n in factions.items() if n == top)
        assert p.faction == deck_faction(
            str(defs[c].faction) if defs[c].faction else None for c in cards
        )


def test_winner_and_seats(corpus: list[Match]) -> None:
    for m in corpus:
        metrics = m.metrics
        assert sorted(p.seat for p in metrics.players) == [1, 2]
        assert sorted(p.order for p in metrics.players) == [1, 2]
        assert metrics.player(metrics.first_player).order == 1
        winners = [p.player for p in metrics.players if p.won]
        assert winners == ([metrics.winner] if metrics.finished else [])
        assert (metrics.victory == UNFINISHED) == (not metrics.finished)


def test_a_team_win_counts_for_every_member(team_corpus: list[Match]) -> None:
    finished = [m.metrics for m in team_corpus if m.metrics.finished]
    assert finished, "no Tag Team match finished"
    for metrics in finished:
        team = metrics.player(metrics.winner or "").team
        assert team is not None
        assert {p.player for p in metrics.players if p.won} == {
            p.player for p in metrics.players if p.team == team
        }


def test_decision_time_is_absent_without_timestamps(match: Match) -> None:
    assert all(p.decision_time is None for p in match.metrics.players)


def stamped(m: Match) -> tuple[EventRecord, ...]:
    """The match's records with an ``at`` stamp: record ``seq`` happens at second ``seq**1.5``."""
    base = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    return tuple(
        r.model_copy(update={"at": (base + timedelta(seconds=r.seq**1.5)).isoformat()})
        for r in m.records
    )


def test_decision_time_is_the_gap_between_a_players_decisions(match: Match) -> None:
    records = stamped(match)
    metrics = measure(match.header, records)
    last: dict[str, float] = {}
    gaps: dict[str, list[float]] = {}
    for r in records:
        player = getattr(r.event, "player", None)
        if not r.event.DECISION or not isinstance(player, str):
            continue
        t = r.seq**1.5
        if player in last:
            gaps.setdefault(player, []).append(t - last[player])
        last[player] = t
    for p in metrics.players:
        timing = p.decision_time
        assert timing is not None
        mine = sorted(gaps[p.player])
        assert timing.n == len(mine)
        assert timing.total == pytest.approx(sum(mine), abs=1e-3)
        assert timing.max == pytest.approx(mine[-1], abs=1e-3)
        assert timing.mean == pytest.approx(sum(mine) / len(mine), abs=1e-3)
    # the rest of the metrics do not depend on the clock
    assert (
        metrics.model_copy(
            update={
                "players": tuple(
                    p.model_copy(update={"decision_time": None}) for p in metrics.players
                )
            }
        )
        == match.metrics
    )


def test_metrics_round_trip_through_json(match: Match) -> None:
    metrics = match.metrics
    assert type(metrics).model_validate_json(metrics.model_dump_json()) == metrics


def test_a_replay_without_a_match_has_no_metrics() -> None:
    with pytest.raises(ValueError, match="no match_started"):
        replay((), MatchMetricsVisitor())


def test_an_unfinished_match_is_marked_unfinished() -> None:
    (m,) = generate(5, 1, max_turns=3)
    metrics: MatchMetrics = m.metrics
    assert not metrics.finished
    assert metrics.victory == UNFINISHED
    assert not any(p.won for p in metrics.players)
    assert metrics.turns == 4  # the turn after the limit started, then play stopped
