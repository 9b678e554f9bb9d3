"""Judging never raises: generated matches with events inserted, deleted and swapped at
random are judged to the end, each with at least one violation when the change breaks the
script's order."""

from __future__ import annotations

import random
from typing import Any

from tests.wowtcg.logs import judged
from tests.wowtcg.test_generate import READINGS
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.generate import generate
from vwlog.games.wowtcg.ruleset import WowRuleset

POOL: list[Any] = [
    ev.PriorityPassed(player="p2"),
    ev.PriorityWindowOpened(),
    ev.PriorityWindowClosed(),
    ev.PhaseStarted(phase="END"),
    ev.StepStarted(step="FINAL"),
    ev.StepStarted(step="COMBAT"),
    ev.TurnEnded(turn=2),
    ev.TurnStarted(turn=5, player="p3"),
    ev.LinkAdded(player="p2", link="x", card="y", instant=False),
    ev.LinkResolved(link="zz"),
    ev.TriggerAdded(trigger="q"),
    ev.CardDrawn(player="p1"),
    ev.HandLimitDiscarded(player="p1", cards=("a",)),
    ev.ModifiersExpired(modifiers=("m",)),
    ev.CombatStepEnded(),
    ev.Conceded(player="p2"),
    ev.InspireReadied(player="p2", cards=("p2-a0",), sources=("p2-a1",)),
    ev.TurnSkipped(player="p1"),
    ev.PlayerLost(player="p1"),
    ev.AbilityTriggered(trigger="t", player="p1", when="TURN_START"),
    ev.CardsExhausted(cards=("p1-hero",)),
    ev.ExtraTurnCreated(player="p2"),
    ev.ModifierCreated(id="s", kind="SKIP_NEXT_TURN", player="p1"),
    ev.CardsReadied(player="p2"),
    ev.ResourcePlaced(player="p1", card="r"),
    ev.CombatDeclared(player="p1", attacker="a", target="b"),
]


def test_judging_a_scrambled_match_never_raises() -> None:
    rng = random.Random(5)
    for seed in range(80):
        events = generate(seed, ruleset=WowRuleset(**READINGS[seed % len(READINGS)]))
        for _ in range(3):
            scrambled = list(events)
            for _ in range(rng.randint(1, 6)):
                i = rng.randrange(1, len(scrambled))
                roll = rng.random()
                if roll < 0.4:
                    scrambled.insert(i, rng.choice(POOL))
                elif roll < 0.7:
                    del scrambled[i]
                else:
                    scrambled[i], scrambled[i - 1] = scrambled[i - 1], scrambled[i]
            judged(scrambled)


def test_a_window_opened_twice_is_cited_where_it_opens_again() -> None:
    events = generate(3)
    i = next(k for k, e in enumerate(events) if e.type == "priority_window_opened")
    twice = [*events[: i + 1], ev.PriorityWindowOpened(), *events[i + 1 :]]
    assert judged(twice)[0][1] == i + 2
