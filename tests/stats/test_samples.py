"""Metrics of scripted samples against numbers counted by hand from the log lines.

Every expected number below was derived by reading the sample with grep (e.g.
``grep -v priority_passed samples/full-combat.jsonl``), never by running the code: the comments
give the ``seq`` of each event that contributes. All samples use the ``vw-samples`` ruleset:
20 starting gold, 5 starting honor, 0 VP, and no event in them changes honor. Counts not listed
for a turn are 0 (``counts`` drops zeros).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from vwlog.cli.stats import match_metrics

if TYPE_CHECKING:
    from vwlog.projections.stats import MatchMetrics, TurnPoint

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
START_GOLD = 20
START_HONOR = 5


def counts(point: TurnPoint) -> dict[str, Any]:
    """The non-zero counts of a turn point (resources and the turn number left out)."""
    data = point.model_dump(exclude={"turn", "gold", "honor", "vp"})
    return {k: v for k, v in data.items() if v}


def resources(m: MatchMetrics, player: str) -> list[tuple[int, int, int, int]]:
    return [(t.turn, t.gold, t.honor, t.vp) for t in m.player(player).tempo]


@pytest.fixture(scope="module")
def full_combat() -> MatchMetrics:
    return match_metrics(SAMPLES / "full-combat.jsonl")


@pytest.fixture(scope="module")
def hand_limit() -> MatchMetrics:
    return match_metrics(SAMPLES / "hand-limit.jsonl")


@pytest.fixture(scope="module")
def multiplayer() -> MatchMetrics:
    return match_metrics(SAMPLES / "multiplayer-3.jsonl")


# -- full-combat.jsonl -------------------------------------------------------------------------
# Decks (match_started.seats): p1-001 blackfang-fortress (TERRITORY), p1-002 marauder-captain
# (FOLLOWER, RAZE), p1-003 sellsword-mercenary (FOLLOWER); p2-001 ashen-warcamp (TERRITORY),
# p2-002 militia-spearman (FOLLOWER), p2-003 gold-prospector (FOLLOWER). Turns: 1 p1 (seq 4),
# 2 p2 (seq 79), 3 p1 (seq 159), 4 p2 (seq 233; the log stops at its Supply step, seq 237).


def test_full_combat_match_figures(full_combat: MatchMetrics) -> None:
    m = full_combat
    assert m.turns == 4  # turn_started seq 233 is the last
    assert m.winner is None
    assert m.victory == "UNFINISHED"  # no match_won line
    assert m.violations == 0
    # every object was alone on the register: summons o1..o6, skill o7, combat damage o8, o9
    assert m.max_register_depth == 1


def test_full_combat_p1_totals(full_combat: MatchMetrics) -> None:
    p1 = full_combat.player("p1")
    assert p1.gold_produced == 1  # gold_produced seq 7 (0) + seq 162 (1)
    assert p1.supply == {
        "CARDS_2": 0,
        "GOLD_2": 1,  # seq 164
        "CARD_1_GOLD_1": 0,
        "FIRST_TURN_CARD_1": 0,
        "FIRST_TURN_GOLD_1": 1,  # seq 9
    }
    assert p1.gold_from_supply == 3  # supply_taken seq 10 (1) + seq 165 (2)
    assert p1.gold_spent == 11  # cost_paid seq 15 (5) + seq 20 (3) + seq 25 (3)
    assert p1.gold_from_effects == 0
    assert p1.final_gold == 13  # 20 + 1 + 3 - 11
    assert p1.final_honor == START_HONOR
    assert p1.final_vp == 1  # victory_point_gained seq 210
    assert p1.cards_played == 3  # card_summoned seq 16, 21, 26
    assert p1.territories_summoned == 1  # p1-001
    assert p1.followers_summoned == 2  # p1-002, p1-003
    assert p1.attacks_declared == 1  # attack_declared seq 181
    assert p1.attackers_declared == 2  # its two attacks
    assert p1.blocks == 0
    assert p1.damage_to_followers == 1  # seq 199: p1-002 -> p2-002 (1)
    assert p1.damage_to_territories == 6  # seq 199: p1-002 -> p2-001 (2); seq 208: p1-003 (4)
    assert p1.territories_lost == p1.followers_lost == 0
    assert p1.cards_drawn == 0  # both supply_taken have "cards": []
    assert p1.cards_discarded == 0
    assert p1.skills_registered == {}
    assert p1.max_register_depth == 1


def test_full_combat_p2_totals(full_combat: MatchMetrics) -> None:
    p2 = full_combat.player("p2")
    assert p2.gold_produced == 0  # seq 82 (0) + seq 236 (0)
    assert {k: v for k, v in p2.supply.items() if v} == {"GOLD_2": 1}  # seq 84
    assert p2.gold_from_supply == 2  # seq 85
    assert p2.gold_spent == 4  # cost_paid seq 90 (2) + 95 (1) + 100 (1) + 105 (0, a slide)
    assert p2.gold_from_effects == 1  # gold_changed +1 in object_resulted seq 109
    assert p2.final_gold == 19  # 20 + 0 + 2 + 1 - 4
    assert p2.final_vp == 0
    assert p2.cards_played == 3  # seq 91, 96, 101
    assert p2.territories_summoned == 1  # p2-001
    assert p2.followers_summoned == 2  # p2-002, p2-003
    assert p2.blocks == 1  # blocks_assigned seq 189
    assert p2.damage_to_followers == 2  # seq 199: p2-002 -> p1-002 (2)
    assert p2.damage_to_territories == 0
    assert p2.followers_lost == 1  # followers_destroyed seq 200 (p2-002; p2-003 turns Stray)
    assert p2.territories_lost == 1  # territories_destroyed seq 209 (p2-001)
    assert p2.skills_registered == {"gold-prospector": 1}  # skill_registered seq 106
    assert p2.attacks_declared == 0


def test_full_combat_per_turn(full_combat: MatchMetrics) -> None:
    p1, p2 = full_combat.player("p1"), full_combat.player("p2")
    # (turn, gold, honor, vp) at each turn_ended (seq 78, 158, 232) and at the end of turn 4
    assert resources(full_combat, "p1") == [
        (1, 10, 5, 0),
        (2, 10, 5, 0),
        (3, 13, 5, 1),
        (4, 13, 5, 1),
    ]
    assert resources(full_combat, "p2") == [
        (1, 20, 5, 0),
        (2, 19, 5, 0),
        (3, 19, 5, 0),
        (4, 19, 5, 0),
    ]
    assert [counts(t) for t in p1.tempo] == [
        {  # turn 1: seq 9-10, 15-26
            "supply": {"FIRST_TURN_GOLD_1": 1},
            "gold_from_supply": 1,
            "gold_spent": 11,
            "cards_played": 3,
            "territories_summoned": 1,
            "followers_summoned": 2,
            "max_register_depth": 1,
        },
        {},  # turn 2: p1 only passes priority
        {  # turn 3: seq 162-165, 181, 195-208 (combat damage o8/o9 registered for p1)
            "gold_produced": 1,
            "supply": {"GOLD_2": 1},
            "gold_from_supply": 2,
            "attacks_declared": 1,
            "attackers_declared": 2,
            "damage_to_followers": 1,
            "damage_to_territories": 6,
            "max_register_depth": 1,
        },
        {},  # turn 4: p2's
    ]
    assert [counts(t) for t in p2.tempo] == [
        {},  # turn 1: p1's
        {  # turn 2: seq 82-109
            "supply": {"GOLD_2": 1},
            "gold_from_supply": 2,
            "gold_from_effects": 1,
            "gold_spent": 4,
            "cards_played": 3,
            "territories_summoned": 1,
            "followers_summoned": 2,
            "max_register_depth": 1,
            "skills_registered": 1,
        },
        {  # turn 3: blocks seq 189, damage seq 199, losses seq 200 and 209
            "blocks": 1,
            "damage_to_followers": 2,
            "followers_lost": 1,
            "territories_lost": 1,
        },
        {},  # turn 4: gold_produced seq 236 is 0
    ]


# -- hand-limit.jsonl --------------------------------------------------------------------------
# p1-001 and p1-002 are Supply Caravans (ACTION, cost 2, "Draw 2 cards"). Turn 1 is p1's
# (seq 4), turn 2 p2's (seq 74, the log stops after its gold_produced seq 77, amount 0).


def test_hand_limit(hand_limit: MatchMetrics) -> None:
    m = hand_limit
    assert m.turns == 2
    p1, p2 = m.player("p1"), m.player("p2")
    assert p1.cards_drawn_supply == 1  # supply_taken seq 10: ["p1-007"]
    assert p1.cards_drawn_effects == 4  # cards_drawn in object_resulted seq 19 (2), seq 24 (2)
    assert p1.cards_drawn == 5
    assert p1.cards_played == 2  # card_summoned seq 16, 21 (Actions: no Territory/Follower)
    assert p1.territories_summoned == p1.followers_summoned == 0
    assert p1.cards_discarded == 2  # hand_limit_discarded seq 70: 6 + 1 + 4 - 2 = 9 > 7
    assert p1.gold_spent == 4  # cost_paid seq 15 (2) + seq 20 (2)
    assert p1.final_gold == 16  # 20 - 4; the supply gave no gold, production 0
    assert p1.skills_registered == {}
    assert resources(m, "p1") == [(1, 16, 5, 0), (2, 16, 5, 0)]
    assert [counts(t) for t in p1.tempo] == [
        {
            "supply": {"FIRST_TURN_CARD_1": 1},  # seq 9
            "cards_drawn_supply": 1,
            "cards_drawn_effects": 4,
            "cards_played": 2,
            "cards_discarded": 2,
            "gold_spent": 4,
            "max_register_depth": 1,  # o1 resulted (seq 19) before o2 was summoned
        },
        {},
    ]
    assert [counts(t) for t in p2.tempo] == [{}, {}]
    assert p2.final_gold == START_GOLD


# -- multiplayer-3.jsonl -----------------------------------------------------------------------
# Decks: p1-001 ashen-warcamp, p1-002 militia-spearman; p2-001 ashen-warcamp, p2-002
# ashen-raider (FOLLOWER, RUSH), p2-003 tax-collection (ACTION, "Gain 3 gold"); p3-001
# moonwell-grove (TERRITORY, cost 4), p3-002 knight-lancer (FOLLOWER, cost 3). Turns: 1 p1
# (seq 5), 2 p2 (seq 91), 3 p3 (seq 185), 4 p1 (seq 279; stops after gold_produced seq 282).


def test_multiplayer_per_turn(multiplayer: MatchMetrics) -> None:
    m = multiplayer
    assert m.turns == 4
    assert [p.player for p in m.players] == ["p1", "p2", "p3"]
    # p2's Tax Collection (o8, seq 207) was summoned on top of p3's Knight Lancer (o7, seq 203)
    assert m.max_register_depth == 2
    p1, p2, p3 = m.players
    assert [counts(t) for t in p1.tempo] == [
        {  # seq 10-23: FIRST_TURN_GOLD_1 (+1 gold), costs 2 + 1
            "supply": {"FIRST_TURN_GOLD_1": 1},
            "gold_from_supply": 1,
            "gold_spent": 3,
            "cards_played": 2,
            "territories_summoned": 1,
            "followers_summoned": 1,
            "max_register_depth": 1,
        },
        {  # p2's turn: p1 blocks (seq 138); p1-002 deals 2 (seq 150) and dies (seq 151)
            "blocks": 1,
            "damage_to_followers": 2,
            "followers_lost": 1,
        },
        {},
        {"gold_produced": 1},  # seq 282
    ]
    assert [counts(t) for t in p2.tempo] == [
        {},
        {  # seq 96-151: CARD_1_GOLD_1 (1 card p2-007, 1 gold), costs 2 + 1, one attacker
            "supply": {"CARD_1_GOLD_1": 1},
            "gold_from_supply": 1,
            "cards_drawn_supply": 1,
            "gold_spent": 3,
            "cards_played": 2,
            "territories_summoned": 1,
            "followers_summoned": 1,
            "attacks_declared": 1,
            "attackers_declared": 1,
            "damage_to_followers": 2,
            "followers_lost": 1,
            "max_register_depth": 1,
        },
        {  # p3's turn: Tax Collection, cost 1 (seq 206), +3 gold (seq 211), register depth 2
            "gold_spent": 1,
            "gold_from_effects": 3,
            "cards_played": 1,
            "max_register_depth": 2,
        },
        {},
    ]
    assert [counts(t) for t in p3.tempo] == [
        {},
        {},
        {  # seq 190-203: GOLD_2, costs 4 + 3
            "supply": {"GOLD_2": 1},
            "gold_from_supply": 2,
            "gold_spent": 7,
            "cards_played": 2,
            "territories_summoned": 1,
            "followers_summoned": 1,
            "max_register_depth": 1,
        },
        {},
    ]
    # gold at the end of turns 1-4: p1 20+1-3 = 18, then +1 in turn 4; p2 20+1-3 = 18, then
    # 18-1+3 = 20; p3 20+2-7 = 15 from turn 3
    assert [t.gold for t in p1.tempo] == [18, 18, 18, 19]
    assert [t.gold for t in p2.tempo] == [20, 18, 20, 20]
    assert [t.gold for t in p3.tempo] == [20, 20, 15, 15]
    assert (p1.final_gold, p2.final_gold, p3.final_gold) == (19, 20, 15)
    assert p2.gold_from_effects == 3
    assert p2.max_register_depth == 2
    assert p3.max_register_depth == 1
