"""Verdicts the seeds leave open or state only for one phase, each broken on purpose.

Where a seed sentence decides (R-MAIN-6 is a Main-Phase rule, R-DEP-1 moves Property "ke
Territory lain"), the test asserts the cited rule; where it is silent, the reading is a ruleset
flag and the test plays both readings (the flags' one-log cases are in ``test_flags.py``).
"""

from __future__ import annotations

from harness import (
    RULESET,
    Scenario,
    board,
    deck,
    fight,
    rule_ids,
)

from vwlog.events import (
    AttackersEnteredBattle,
    CostPaid,
    DeploymentFinished,
    ObjectResulted,
    PriorityPassed,
    PropertyPlaced,
)
from vwlog.model.cards import Ruleset
from vwlog.model.types import Phase, PlacementReason, Step
from vwlog.rules.flow import DecisionKind

P1, P2 = "p1", "p2"


def rs(**changes: object) -> Ruleset:
    return RULESET.model_copy(update=changes)


# -- R-MAIN-6 holds in the Main Phases only ------------------------------------------------------


def _stray_rider(hand1: tuple[str, ...] = ("lair",)) -> Scenario:
    """Turn 2, p2's Main Phase I: p2's sapper has destroyed p1's tower, p1's rider is Stray and
    p1's keep is full."""
    sc = board(
        p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))),
        p2=(("keep", ("sapper",)),),
        hand1=hand1,
        turn=2,
    )
    sc.use(sc.inst(P2, "sapper"), target=sc.inst(P1, "tower"))
    assert sc.state.permanents[sc.inst(P1, "rider")].where == "STRAY"
    return sc


def test_a_lair_territory_in_the_end_phase_owes_no_stray_placement() -> None:
    sc = _stray_rider()
    sc.to(Phase.END, Step.END_WINDOW, turn=2).do(PriorityPassed(player=P2))
    lair, rider = sc.inst(P1, "lair"), sc.inst(P1, "rider")
    sc.summon(lair)
    assert lair in sc.state.permanents
    assert sc.expected.kind == DecisionKind.PRIORITY  # no forced placement outside a Main Phase
    placed = PropertyPlaced(
        player=P1, card=rider, territory=lair, reason=PlacementReason.NEW_TERRITORY_STRAY
    )
    assert sc.violations_of(placed) == {"R-DEP-1"}
    # the Stray rider waits for p1's Unslide step and goes into the Lair Territory there
    sc.to(Phase.PREP, Step.UNSLIDE, turn=3)
    assert sc.violations_of(DeploymentFinished(player=P1)) == {"R-UNS-2"}
    unslide = placed.model_copy(update={"reason": PlacementReason.UNSLIDE_STEP})
    assert sc.violations_of(unslide) == set()


def test_a_territory_in_the_main_phase_still_owes_the_stray_placement() -> None:
    sc = _stray_rider()
    sc.to(Phase.MAIN1, turn=2)
    while sc.holder != P1:
        sc.do(PriorityPassed(player=sc.holder))
    lair, rider = sc.inst(P1, "lair"), sc.inst(P1, "rider")
    sc.summon(lair)
    assert sc.expected.kind == DecisionKind.STRAY
    assert sc.violations_of(PriorityPassed(player=P1)) == {"R-MAIN-6"}
    placed = PropertyPlaced(
        player=P1, card=rider, territory=lair, reason=PlacementReason.NEW_TERRITORY_STRAY
    )
    assert sc.violations_of(placed) == set()


def test_the_territory_is_new_only_in_the_main_phase_it_arrived_in() -> None:
    sc = _stray_rider(hand1=("lair", "tower"))
    sc.to(Phase.MAIN1, turn=2)
    while sc.holder != P1:
        sc.do(PriorityPassed(player=sc.holder))
    lair = sc.inst(P1, "lair")
    sc.summon(lair)
    assert sc.state.stray_territory == lair
    sc.do(
        PropertyPlaced(
            player=P1,
            card=sc.inst(P1, "rider"),
            territory=lair,
            reason=PlacementReason.NEW_TERRITORY_STRAY,
        )
    )
    sc.to(Phase.COMBAT, turn=2)
    assert sc.state.stray_territory is None


# -- a placement moves Property to another Territory (R-DEP-1, R-UNS-3) --------------------------


def test_deploying_into_the_territory_it_guards_breaks_r_dep_1() -> None:
    sc = board(p1=(("keep", ("soldier",)), ("tower", ())), turn=3, phase=Phase.DEPLOY)
    soldier = sc.inst(P1, "soldier")
    same = PropertyPlaced(
        player=P1, card=soldier, territory=sc.inst(P1, "keep"), reason=PlacementReason.DEPLOY_PHASE
    )
    assert sc.violations_of(same) == {"R-DEP-1"}
    other = same.model_copy(update={"territory": sc.inst(P1, "tower")})
    assert sc.violations_of(other) == set()


def test_placing_into_the_territory_it_guards_in_the_unslide_step_breaks_r_uns_3() -> None:
    sc = board(p1=(("keep", ("soldier",)), ("tower", ())), turn=3, phase=Phase.PREP)
    sc.to(Phase.PREP, Step.UNSLIDE, turn=3)
    soldier = sc.inst(P1, "soldier")
    same = PropertyPlaced(
        player=P1, card=soldier, territory=sc.inst(P1, "keep"), reason=PlacementReason.UNSLIDE_STEP
    )
    assert sc.violations_of(same) == {"R-UNS-3"}
    other = same.model_copy(update={"territory": sc.inst(P1, "tower")})
    assert sc.violations_of(other) == set()


# -- OQ-37: the Preparation Phase's window admits Actions and Lair cards, never skills ----------


def test_a_preparation_window_admits_an_action_but_no_skill_and_no_territory() -> None:
    sc = board(
        p1=(("keep", ("herald",)),),
        hand1=("tax", "tower"),
        ruleset=rs(preparation_window=True),
        turn=3,
        phase=Phase.PREP,
    )
    sc.to(Phase.PREP, Step.UNSLIDE, turn=3).do(DeploymentFinished(player=P1))
    assert sc.expected.kind == DecisionKind.PRIORITY
    tax, tower, herald = sc.inst(P1, "tax"), sc.inst(P1, "tower"), sc.inst(P1, "herald")
    assert sc.violations_of(CostPaid(player=P1, card=tax, gold=1)) == set()
    assert sc.violations_of(CostPaid(player=P1, card=tower, gold=2)) == {"R-MAIN-8"}
    skill = CostPaid(player=P1, card=herald, skill="s1", slid=(herald,))
    assert sc.violations_of(skill) == {"R-PREP-2"}
    # without the window Main Phase I follows the Unslide step at once (no priority to summon)
    plain = board(p1=(("keep", ("herald",)),), hand1=("tax",), turn=3, phase=Phase.PREP)
    plain.to(Phase.PREP, Step.UNSLIDE, turn=3).do(DeploymentFinished(player=P1))
    assert plain.state.phase == Phase.MAIN1


def test_an_action_summoned_in_the_preparation_window_results_and_play_goes_on() -> None:
    sc = board(hand1=("tax",), ruleset=rs(preparation_window=True), turn=3, phase=Phase.PREP)
    sc.to(Phase.PREP, Step.UNSLIDE, turn=3).do(DeploymentFinished(player=P1))
    gold = sc.state.player(P1).gold
    sc.summon(sc.inst(P1, "tax"))
    assert sc.state.player(P1).gold == gold - 1 + 2
    sc.to(Phase.MAIN1, turn=3)
    assert sc.validate_with() == []
    assert sc.validate_with(ruleset=sc.rs.model_copy(update={"preparation_window": None}))


# -- OQ-36: fatal skill damage in combat, at once or in step 7 -----------------------------------


def test_under_combat_steps_a_follower_killed_by_a_skill_dies_in_step_7() -> None:
    sc = board(p1=(("keep", ("striker",)),), ruleset=rs(fatal_damage_at="COMBAT_STEPS"))
    victim = sc.inst(P2, "soldier")
    sc.to(Phase.COMBAT, Step.C1).use(sc.inst(P1, "striker"), target=victim)
    assert victim in sc.state.permanents  # fatal damage, still in play
    assert victim in sc.state.fatal
    sc.to(Phase.COMBAT, Step.C7)
    assert victim in sc.state.player(P2).graveyard
    sc.to(Phase.MAIN2)
    assert sc.validate_with() == []
    assert rule_ids(sc.validate_with(ruleset=RULESET)) == {"R-CMB-26"}


def test_outside_combat_a_skill_kills_at_once_under_both_readings() -> None:
    for reading in (None, "COMBAT_STEPS"):
        sc = board(p1=(("keep", ("striker",)),), ruleset=rs(fatal_damage_at=reading))
        victim = sc.inst(P2, "soldier")
        sc.use(sc.inst(P1, "striker"), target=victim)
        assert victim in sc.state.player(P2).graveyard


# -- OQ-15: a result whose target is gone does less of itself, not nothing ----------------------


def test_a_result_whose_target_is_gone_still_does_its_other_parts() -> None:
    sc = board(p1=(("citadel", ("zealot", "striker")),))
    zealot, striker, victim = sc.inst(P1, "zealot"), sc.inst(P1, "striker"), sc.inst(P2, "soldier")
    sc.use(zealot, target=victim, resolve=False).use(striker, target=victim, resolve=False)
    sc.resolve()
    zealot_result = [e for e in sc.events if isinstance(e, ObjectResulted)][-1]
    assert [type(e).__name__ for e in zealot_result.effects] == ["HonorChanged"]
    sc.to(Phase.COMBAT)
    assert sc.validate_with() == []
    # the log claiming the whole object void is the WHOLE reading, R-REG-9 under PART
    i = sc.events.index(zealot_result)
    void = [*sc.events[:i], zealot_result.model_copy(update={"effects": ()}), *sc.events[i + 1 :]]
    assert rule_ids(sc.validate_with(void)) == {"R-REG-9"}
    assert sc.validate_with(void, ruleset=rs(target_gone="WHOLE")) == []


# -- OQ-35: priority after a registration --------------------------------------------------------


def test_after_a_registration_the_registrant_or_the_active_player_holds_priority() -> None:
    for reading, holder in ((None, P2), ("REGISTRANT", P2), ("ACTIVE", P1)):
        sc = Scenario.start([deck(), deck("tax")], ruleset=rs(priority_after_registration=reading))
        sc.to(Phase.MAIN1).do(PriorityPassed(player=P1))
        sc.summon(sc.inst(P2, "tax"), resolve=False)
        assert sc.state.priority == holder, reading
        other = P1 if holder == P2 else P2
        assert sc.violations_of(PriorityPassed(player=other)) == {"R-REG-5"}
        assert sc.violations_of(PriorityPassed(player=holder)) == set()


# -- OQ-38: an unplaced Stray Follower in battle -------------------------------------------------


def test_a_stray_follower_enters_battle_only_where_the_ruleset_reads_r_cmb_5_so() -> None:
    for reading, verdict in ((None, {"R-CMB-5"}), ("IN_PLAY", set())):
        sc = board(
            p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))),
            p2=(("keep", ("sapper",)),),
            turn=2,
            ruleset=rs(battle_from=reading),
        )
        rider = sc.inst(P1, "rider")
        sc.use(sc.inst(P2, "sapper"), target=sc.inst(P1, "tower")).to(Phase.COMBAT, Step.C2, turn=3)
        assert sc.violations_of(AttackersEnteredBattle(player=P1, followers=(rider,))) == verdict
        soldier = sc.inst(P1, "soldier")
        assert sc.violations_of(AttackersEnteredBattle(player=P1, followers=(soldier,))) == set()


def test_a_stray_attacker_returns_home_after_combat() -> None:
    sc = board(
        p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))),
        p2=(("keep", ("sapper",)),),
        turn=2,
        ruleset=rs(battle_from="IN_PLAY"),
    )
    rider = sc.inst(P1, "rider")
    sc.use(sc.inst(P2, "sapper"), target=sc.inst(P1, "tower")).to(Phase.MAIN1, turn=3)
    fight(sc, {rider: sc.inst(P2, "keep")}).to(Phase.MAIN2)
    assert sc.state.permanents[rider].where == "RETURN_HOME"


def test_under_combat_steps_skill_and_combat_deaths_are_one_batch_in_step_7() -> None:
    from vwlog.events import FollowersDestroyed

    sc = board(p1=(("keep", ("striker", "brute")),), ruleset=rs(fatal_damage_at="COMBAT_STEPS"))
    victim, guard, brute = sc.inst(P2, "soldier"), sc.inst(P2, "rider"), sc.inst(P1, "brute")
    sc.to(Phase.COMBAT, Step.C1).use(sc.inst(P1, "striker"), target=victim)
    fight(sc, {brute: sc.inst(P2, "keep")}, {guard: brute}).to(Phase.MAIN2)
    batches = [e.cards for e in sc.events if isinstance(e, FollowersDestroyed)]
    assert batches == [tuple(sorted((victim, guard)))]
    assert sc.validate_with() == []
