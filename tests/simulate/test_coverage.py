"""The generator exercises the whole game: skills of every kind, a deep register, every combat
step, Raze, Cavalry, Rush, Fatigue, Naval/Aerial attacks, Stray and Return Home, the hand
limit, Actions and multiplayer seat order (issue: generated matches exercise the rules)."""

from __future__ import annotations

from collections import Counter

import pytest

from vwlog.engine.replay import validate_records
from vwlog.games.vw.simulate import simulate
from vwlog.io.pools import load_pool
from vwlog.model.types import CardType, Keyword, SkillKind, Terrain
from vwlog.projections import INITIAL, evolve

RUNS = [
    (seed, players, teams, policy)
    for seed in range(200, 203)
    for players, teams in ((2, None), (3, None), (4, 2))
    for policy in ("greedy", "random")
]


@pytest.fixture(scope="module")
def seen() -> Counter[str]:
    pool = load_pool()
    found: Counter[str] = Counter()
    for seed, players, teams, policy in RUNS:
        match = simulate(pool, seed=seed, players=players, teams=teams, policy=policy, max_turns=60)
        assert validate_records(match.records).ok
        found[f"players:{players}"] += 1
        state = INITIAL
        for record in match.records:
            event, before = record.event, state
            state = evolve(state, event)
            found[event.type] += 1
            found[f"register>={min(len(state.register), 3)}"] += 1
            if event.type == "follower_damage_assigned":
                targets = set(before.combat.attacks.values())
                found["raze"] += sum(1 for a in event.allocations if a.recipient in targets)
            elif event.type == "attackers_entered_battle":
                found["fatigued in battle"] += sum(
                    1 for f in event.followers if before.permanents[f].fatigued
                )
            elif event.type == "attack_declared":
                for a in event.attacks:
                    if before.permanents[a.follower].fatigued:
                        found["rush attack"] += 1
                    if before.defn(a.target).terrain in (Terrain.NAVAL, Terrain.AERIAL):
                        found["naval/aerial attack"] += 1
            elif event.type == "blocks_assigned":
                for b in event.blocks:
                    guard = before.permanents[b.blocker].territory
                    if guard != before.combat.attacks.get(b.attacker):
                        assert before.has_keyword(b.blocker, Keyword.CAVALRY)
                        found["cavalry block"] += 1
            elif event.type == "object_resulted":
                obj = next(o for o in before.register if o.id == event.object_id)
                if obj.card and before.defn(obj.card).type == CardType.ACTION:
                    found["action"] += 1
            for c in state.permanents.values():
                kinds = {s.kind for s in state.defn(c.id).skills}
                if SkillKind.AURA in kinds:
                    found["aura in play"] += 1
                if SkillKind.STATIC in kinds:
                    found["static in play"] += 1
    return found


@pytest.mark.parametrize(
    "what",
    [
        "skill_registered",  # active skills
        "skill_triggered",  # trigger skills
        "aura in play",
        "static in play",
        "register>=3",
        "attackers_entered_battle",
        "attack_declared",
        "blockers_entered_battle",
        "blocks_assigned",
        "follower_damage_assigned",
        "combat_damage_registered",
        "followers_destroyed",
        "territories_destroyed",
        "victory_point_gained",
        "raze",
        "cavalry block",
        "rush attack",
        "fatigued in battle",
        "naval/aerial attack",
        "became_stray",
        "became_return_home",
        "property_placed",
        "hand_limit_discarded",
        "action",
        "players:3",
        "players:4",
        "match_won",
    ],
)
def test_generated_matches_exercise(seen: Counter[str], what: str) -> None:
    assert seen[what] > 0, f"no generated match exercised {what!r}"
