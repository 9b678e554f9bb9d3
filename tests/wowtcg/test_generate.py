"""The seeded generator writes legal matches: 200 of them, under the default ruleset and under
each flag's other reading, break no rule through the replay loop."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.wowtcg.logs import judged
from vwlog.games.wowtcg.generate import generate, records
from vwlog.games.wowtcg.ruleset import WowRuleset

READINGS: list[dict[str, Any]] = [
    {},
    {"chain_resolution": "WHOLE_CHAIN"},
    {"chain_resolution": "TOP_LINK_THEN_CONTROLLER"},
    {"priority_after_link": "NEXT_PLAYER"},
    {"extra_turn_order": "CREATED_LAST_FIRST"},
    {"skip_consumes_extra_turn": "NO"},
    {"first_turn_draw_step": "DRAW_ONLY"},
    {"final_step_triggers_added": "AT_READY_STEP_START"},
    {"start_triggers_wait_for": "NEVER_ADDED"},
    {"main_actions_need_priority": "NO"},
    {"resources_per_turn": None},
    {"combat_model": "TWO_WINDOWS"},
    {"empty_deck_draw": "LOSES"},
    {"inspire_source": "ALLY_ONLY"},
]


@pytest.mark.parametrize("block", range(4))
def test_200_generated_matches_break_no_rule(block: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(block * 50, block * 50 + 50):
        flags = READINGS[seed % len(READINGS)]
        events = generate(seed, ruleset=WowRuleset(**flags))
        assert judged(events) == [], (seed, flags)
        seen.update(e.type for e in events)
    for kind in ("turn_skipped", "extra_turn_created", "trigger_added", "link_resolved"):
        assert seen[kind] > 0, kind


def test_the_generator_is_seeded() -> None:
    assert records(generate(7)) == records(generate(7))
    assert records(generate(7)) != records(generate(8))


def test_generated_matches_reach_the_hand_limit_and_inspire() -> None:
    seen: Counter[str] = Counter()
    for seed in range(60):
        seen.update(e.type for e in generate(seed, turns=8))
    assert seen["hand_limit_discarded"] > 0
    assert seen["inspire_readied"] > 0
    assert seen["combat_declared"] > 0
    assert seen["resource_placed"] > 0
