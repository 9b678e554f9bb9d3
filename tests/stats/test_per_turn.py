"""Per-turn metrics: every player has a point per turn, and the per-turn counts sum to the
per-match totals (over generated matches and every legal sample)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.cli.stats import match_metrics
from vwlog.events import (
    AttackDeclared,
    BlocksAssigned,
    CardSummoned,
    CostPaid,
    GoldProduced,
    SupplyChosen,
    TurnStarted,
)
from vwlog.projections.stats import TurnPoint

if TYPE_CHECKING:
    from tests.stats.conftest import Match
    from vwlog.projections.stats import MatchMetrics

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
LEGAL_SAMPLES = sorted(SAMPLES.glob("*.jsonl"))

SUMMED = (
    "gold_produced",
    "gold_from_supply",
    "gold_from_effects",
    "gold_spent",
    "cards_drawn_supply",
    "cards_drawn_effects",
    "cards_played",
    "cards_discarded",
    "territories_summoned",
    "territories_lost",
    "followers_summoned",
    "followers_lost",
    "attacks_declared",
    "attackers_declared",
    "blocks",
    "damage_to_followers",
    "damage_to_territories",
)
"""Per-turn counts whose sum over the turns is the per-match count of the same name."""


def check_turns_sum_to_totals(metrics: MatchMetrics) -> None:
    per_turn = set(TurnPoint.model_fields) - {"turn", "gold", "honor", "vp"}
    covered = {*SUMMED, "supply", "max_register_depth", "skills_registered", "skills_triggered"}
    assert per_turn == covered, "a new per-turn count needs its invariant here"
    for p in metrics.players:
        points = p.tempo
        assert points, p.player
        turns = [t.turn for t in points]
        assert turns == sorted(set(turns)), "one point per turn, in order"
        assert turns[-1] == metrics.turns
        for name in SUMMED:
            assert sum(getattr(t, name) for t in points) == getattr(p, name), (p.player, name)
        assert sum(t.cards_drawn for t in points) == p.cards_drawn
        supply: Counter[str] = Counter()
        for t in points:
            supply.update(t.supply)
        assert {k: v for k, v in p.supply.items() if v} == dict(supply)
        assert max(t.max_register_depth for t in points) == p.max_register_depth
        assert sum(t.skills_registered for t in points) == sum(p.skills_registered.values())
        assert sum(t.skills_triggered for t in points) == sum(p.skills_triggered.values())
        last = points[-1]
        assert (last.gold, last.honor, last.vp) == (p.final_gold, p.final_honor, p.final_vp)


def test_turns_sum_to_totals_in_generated_duels(corpus: list[Match]) -> None:
    for m in corpus:
        check_turns_sum_to_totals(m.metrics)


def test_turns_sum_to_totals_in_team_matches(team_corpus: list[Match]) -> None:
    for m in team_corpus:
        check_turns_sum_to_totals(m.metrics)


@pytest.mark.parametrize("path", LEGAL_SAMPLES, ids=lambda p: p.name)
def test_turns_sum_to_totals_in_samples(path: Path) -> None:
    check_turns_sum_to_totals(match_metrics(path))


def test_every_sample_is_checked() -> None:
    assert len(LEGAL_SAMPLES) >= 15


def test_counts_land_in_the_turn_they_happen_in(corpus: list[Match]) -> None:
    """Naive per-turn counts (each event in the turn of the last ``turn_started`` before it)
    agree with the points."""
    for m in corpus[:10]:
        turn = 0
        counts: Counter[tuple[str, int, str]] = Counter()
        for r in m.records:
            e = r.event
            match e:
                case TurnStarted():
                    turn = e.turn
                case GoldProduced():
                    counts[e.player, turn, "gold_produced"] += e.amount
                case CostPaid():
                    counts[e.player, turn, "gold_spent"] += e.gold
                case CardSummoned():
                    counts[e.player, turn, "cards_played"] += 1
                case SupplyChosen():
                    counts[e.player, turn, f"supply_{e.option.value}"] += 1
                case AttackDeclared():
                    counts[e.player, turn, "attackers_declared"] += len(e.attacks)
                case BlocksAssigned():
                    counts[e.player, turn, "blocks"] += len(e.blocks)
                case _:
                    pass
        for p in m.metrics.players:
            for t in p.tempo:
                for name in ("gold_produced", "gold_spent", "cards_played"):
                    assert getattr(t, name) == counts[p.player, t.turn, name]
                assert t.attackers_declared == counts[p.player, t.turn, "attackers_declared"]
                assert t.blocks == counts[p.player, t.turn, "blocks"]
                for option, n in t.supply.items():
                    assert n == counts[p.player, t.turn, f"supply_{option}"]


def test_a_player_has_a_point_in_every_turn_of_the_match(corpus: list[Match]) -> None:
    for m in corpus:
        for p in m.metrics.players:
            assert [t.turn for t in p.tempo] == list(range(1, m.metrics.turns + 1))
