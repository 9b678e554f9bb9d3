"""A decision made by a player who may never make it cites the rule that says who makes it.

In multiplayer formats the engine awaits one player's decision or a priority holder's at any
moment; a decision by a player the rules never let decide it (a teammate of the attacked player
choosing blockers, a teammate of the active player choosing attackers) breaks the rule naming
who decides, whatever the moment. The rule of the moment stands beside it only when the moment
is wrong too.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from harness import RULESET, Scenario, deck

from vwlog.events import (
    AnyEvent,
    AttackersEnteredBattle,
    Block,
    BlockersEnteredBattle,
    BlocksAssigned,
    PriorityPassed,
    SupplyChosen,
)
from vwlog.model.types import MatchFormat, Phase, Step, SupplyOption

P1, P2, P3, P4 = "p1", "p2", "p3", "p4"


def _tag_board() -> Scenario:
    """Tag Team (p1 and p3 against p2 and p4), each with a Keep and a Soldier guarding it;
    turn 5, p1's Combat Phase, p1's soldier attacking p2's Keep, just declared."""
    sc = Scenario.start(
        [deck("keep", "soldier") for _ in range(4)],
        teams=("t1", "t2", "t1", "t2"),
        match_format=MatchFormat.TAG,
        ruleset=RULESET,
    )
    for turn, player in enumerate((P1, P2, P3, P4), start=1):
        sc.to(Phase.MAIN1, turn=turn)
        keep = sc.inst(player, "keep")
        sc.summon(keep).summon(sc.inst(player, "soldier"), keep)
    sc.to(Phase.COMBAT, Step.C2, turn=5)
    sc.say(f"attackers {sc.inst(P1, 'soldier')}")
    sc.until("declare")
    sc.say(f"declare {sc.inst(P1, 'soldier')}:{sc.inst(P2, 'keep')}", player=P1)
    return sc


def _in_step3(sc: Scenario) -> Scenario:
    """Step 3, after the declaration: a priority window."""
    assert sc.state.step == Step.C3
    assert sc.expected.kind == "priority"
    return sc


def _awaiting_blockers(sc: Scenario) -> Scenario:
    """Step 4: p2's choice of blockers is awaited."""
    sc.until("blockers")
    assert sc.holder == P2
    return sc


def _in_step5(sc: Scenario) -> Scenario:
    """Step 5: p2 chose its blocker; p2's assignment is awaited."""
    sc.until("blockers")
    sc.say(f"blockers {sc.inst(P2, 'soldier')}", player=P2)
    sc.until("blocks")
    assert sc.state.step == Step.C5
    assert sc.holder == P2
    return sc


TIMINGS: dict[str, Callable[[Scenario], Scenario]] = {
    "step 3 priority": _in_step3,
    "step 4 awaiting the defender": _awaiting_blockers,
    "step 5 awaiting the assignment": _in_step5,
}


def _teammate_blockers(sc: Scenario) -> AnyEvent:
    # p4 chooses blockers for p2's attacked Keep, which p4 does not control
    return BlockersEnteredBattle(player=P4, followers=(sc.inst(P4, "soldier"),))


def _teammate_blocks(sc: Scenario) -> AnyEvent:
    attacker = sc.inst(P1, "soldier")
    return BlocksAssigned(
        player=P4, blocks=(Block(blocker=sc.inst(P4, "soldier"), attacker=attacker),)
    )


def _teammate_attackers(sc: Scenario) -> AnyEvent:
    # p3, p1's teammate, sends Followers into p1's battle
    return AttackersEnteredBattle(player=P3, followers=(sc.inst(P3, "soldier"),))


DECISIONS: dict[str, tuple[Callable[[Scenario], AnyEvent], str]] = {
    "blockers by the attacked player's teammate": (_teammate_blockers, "R-CMB-11"),
    "blocks by the attacked player's teammate": (_teammate_blocks, "R-CMB-16"),
    "attackers by the active player's teammate": (_teammate_attackers, "R-CMB-2"),
}


@pytest.fixture(scope="module")
def positions() -> dict[str, Scenario]:
    built = {}
    for name, go in TIMINGS.items():
        built[name] = go(_tag_board())
    return built


@pytest.mark.parametrize("decision", sorted(DECISIONS))
def test_a_non_deciding_player_cites_who_decides_at_every_timing(
    decision: str, positions: dict[str, Scenario]
) -> None:
    make, rule = DECISIONS[decision]
    firsts = {}
    for timing, sc in positions.items():
        found = sc.violations(make(sc))
        assert found, f"{decision} at {timing}: no violation"
        firsts[timing] = found[0].rule
        # the timing rule only beside it, never instead of it
        assert [v.rule for v in found].count(rule) == 1, (timing, found)
        assert len(found) <= 2, (timing, found)
    assert set(firsts.values()) == {rule}, firsts


def test_the_moment_stands_beside_only_when_it_is_wrong_too(
    positions: dict[str, Scenario],
) -> None:
    awaited = positions["step 4 awaiting the defender"]
    assert [v.rule for v in awaited.violations(_teammate_blockers(awaited))] == ["R-CMB-11"]
    window = positions["step 3 priority"]
    rules = [v.rule for v in window.violations(_teammate_blockers(window))]
    assert rules[0] == "R-CMB-11"
    assert len(rules) == 2


def test_the_deciding_player_at_the_wrong_moment_cites_only_the_moment(
    positions: dict[str, Scenario],
) -> None:
    sc = positions["step 3 priority"]
    found = sc.violations(BlockersEnteredBattle(player=P2, followers=(sc.inst(P2, "soldier"),)))
    assert found
    assert "R-CMB-11" not in {v.rule for v in found}


def test_supply_by_another_player_is_r_sup_1_in_any_phase() -> None:
    sc = Scenario.start(players=3, ruleset=RULESET)
    sc.to(Phase.PREP, Step.SUPPLY, turn=2)
    assert sc.holder == P2
    during_supply = sc.violations(SupplyChosen(player=P3, option=SupplyOption.GOLD_2))
    sc.to(Phase.MAIN1, turn=2)
    during_main = sc.violations(SupplyChosen(player=P3, option=SupplyOption.GOLD_2))
    assert during_supply[0].rule == during_main[0].rule == "R-SUP-1"
    assert not sc.violations(PriorityPassed(player=sc.holder))
