"""Every ruleset flag of an open question changes a verdict.

For each flag (OQ-1 … OQ-32, except those the catalog lists as pending) one log is built by
legal play under one reading and validated under both: clean under the reading it was played
under, the expected rule id under the other. A flag whose two readings judge alike would be a
setting that does nothing; the coverage test at the end fails when a flag has no case here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from harness import (
    RULESET,
    Scenario,
    board,
    deck,
    fight,
    records,
    rule_ids,
)

from vwlog.engine.replay import validate_records
from vwlog.events import (
    Allocation,
    AnyEvent,
    AttackersEnteredBattle,
    CardSummoned,
    FollowerDamageAssigned,
    MatchStarted,
    ObjectResulted,
    PriorityPassed,
    PropertyPlaced,
    SkillTriggered,
    TurnStarted,
)
from vwlog.model.cards import OPEN_QUESTION_FLAGS, SECOND_FLAGS, Ruleset
from vwlog.model.errors import Violation
from vwlog.model.types import Phase, PlacementReason, Step
from vwlog.projections import INITIAL
from vwlog.rules import check
from vwlog.rules.catalog import PENDING_FLAGS
from vwlog.rules.readings import READINGS

P1, P2 = "p1", "p2"


def rs(**changes: object) -> Ruleset:
    return RULESET.model_copy(update=changes)


@dataclass(frozen=True)
class FlagCase:
    """A log, the ruleset it was played under, and another reading that rejects it."""

    events: list[AnyEvent]
    played_under: Ruleset
    other: Ruleset
    rule: str
    """The rule id the other reading reports."""


def validate(case: FlagCase, ruleset: Ruleset) -> list[Violation]:
    return validate_records(records(case.events), ruleset=ruleset).violations


def played(sc: Scenario, other: Ruleset, rule: str) -> FlagCase:
    return FlagCase(list(sc.events), sc.rs, other, rule)


# -- the cases, one per flag -------------------------------------------------------------------


def opening_hand() -> FlagCase:  # OQ-1
    sc = Scenario.start().to(Phase.MAIN1)
    return played(sc, rs(opening_hand=5), "R-SET-4")


def min_deck_size() -> FlagCase:  # OQ-2
    sc = Scenario.start().to(Phase.MAIN1)
    return played(sc, rs(min_deck_size=30), "R-SET-4")


def def_reduces_damage() -> FlagCase:  # OQ-3
    sc = board(p2=(("keep", ("armored", "rider")),))
    soldier = sc.inst(P1, "soldier")
    fight(sc, {soldier: sc.inst(P2, "keep")}, {sc.inst(P2, "armored"): soldier}).to(Phase.MAIN2)
    return played(sc, rs(def_reduces_damage=True), "R-CMB-25")


def summon_from_subdeck() -> FlagCase:  # OQ-4
    sc = Scenario.start(
        [deck("keep"), deck()], subdecks=[("rider",), ()], ruleset=rs(summon_from_subdeck=True)
    )
    keep = sc.inst(P1, "keep")
    sc.to(Phase.MAIN1).summon(keep).summon("p1-s01", keep).to(Phase.COMBAT)
    return played(sc, RULESET, "R-ZONE-3")


def relics_use_capacity() -> FlagCase:  # OQ-5
    sc = board(
        p1=(("keep", ("soldier", "brute", "banner")),), ruleset=rs(relics_use_capacity=False)
    )
    return played(sc, RULESET, "R-CARD-2")


def summon_needs_empty_register() -> FlagCase:  # OQ-6
    sc = Scenario.start(
        [deck("keep", "tax", "rider"), deck()], ruleset=rs(summon_needs_empty_register=False)
    )
    keep = sc.inst(P1, "keep")
    sc.to(Phase.MAIN1).summon(keep).summon(sc.inst(P1, "tax"), resolve=False)
    sc.summon(sc.inst(P1, "rider"), keep, resolve=False).resolve().to(Phase.COMBAT)
    return played(sc, RULESET, "R-MAIN-4")


def honor_per_territory_destroyed() -> FlagCase:  # OQ-7
    sc = board(
        p1=(("citadel", ("sapper",)),),
        p2=(("keep", ()), ("tower", ())),
        hand1=("noble",),
        ruleset=rs(honor_per_territory_destroyed=10),
    )
    sc.use(sc.inst(P1, "sapper"), target=sc.inst(P2, "tower"))
    assert sc.state.player(P1).honor == 10
    sc.summon(sc.inst(P1, "noble"), sc.inst(P1, "citadel")).to(Phase.COMBAT)
    return played(sc, RULESET, "R-CARD-10")


def requirements_continuous() -> FlagCase:  # OQ-8
    sc = Scenario.start([deck("keep", "noble"), deck()], ruleset=rs(starting_honor=5))
    keep, noble = sc.inst(P1, "keep"), sc.inst(P1, "noble")
    sc.to(Phase.MAIN1).summon(keep).summon(noble, keep).use(noble).use(noble).to(Phase.COMBAT)
    return played(sc, rs(starting_honor=5, requirements_continuous=True), "R-GEN-6")


def vp_outside_combat() -> FlagCase:  # OQ-9
    sc = board(p1=(("keep", ("sapper",)),))
    sc.use(sc.inst(P1, "sapper"), target=sc.inst(P2, "keep")).to(Phase.COMBAT)
    return played(sc, rs(vp_outside_combat=False), "R-VP-2")


def second_player_first_supply_reduced() -> FlagCase:  # OQ-11
    sc = Scenario.start().to(Phase.MAIN1, turn=2)
    return played(sc, rs(second_player_first_supply_reduced=True), "R-SUP-3")


def naval_aerial_need_skill() -> FlagCase:  # OQ-12
    sc = board(p2=(("keep", ("giant",)), ("harbor", ())), ruleset=rs(naval_aerial_need_skill=False))
    fight(sc, {sc.inst(P1, "soldier"): sc.inst(P2, "harbor")}).to(Phase.MAIN2)
    return played(sc, RULESET, "R-CMB-10")


def deploy_phase_window() -> FlagCase:  # OQ-13
    sc = Scenario.start().to(Phase.END)
    return played(sc, rs(deploy_phase_window=False), "R-GEN-10")


def unplaceable_to_graveyard() -> FlagCase:  # OQ-14
    sc = board(
        p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))),
        p2=(("keep", ("sapper",)),),
        hand1=("tower",),
        turn=2,
    )
    sc.use(sc.inst(P2, "sapper"), target=sc.inst(P1, "tower")).to(Phase.MAIN1, turn=3)
    tower, rider = sc.inst(P1, "tower", 1), sc.inst(P1, "rider")
    sc.summon(tower).do(
        PropertyPlaced(
            player=P1, card=rider, territory=tower, reason=PlacementReason.NEW_TERRITORY_STRAY
        )
    )
    sc.to(Phase.COMBAT)
    return played(sc, rs(unplaceable_to_graveyard=True), "R-MAIN-6")


def target_gone() -> FlagCase:  # OQ-15
    sc = board(p1=(("citadel", ("zealot", "striker")),))
    zealot, striker, victim = sc.inst(P1, "zealot"), sc.inst(P1, "striker"), sc.inst(P2, "soldier")
    sc.use(zealot, target=victim, resolve=False).use(
        striker, target=victim, resolve=False
    ).resolve()
    assert victim in sc.state.player(P2).graveyard
    sc.to(Phase.COMBAT)
    # the zealot's damage finds no target; its honor still comes (PART), not under WHOLE
    assert sc.state.player(P1).honor == 1
    return played(sc, rs(target_gone="WHOLE"), "R-REG-9")


def triggers_active_first() -> FlagCase:  # OQ-16
    sc = board(
        p1=(("keep", ("chronicler",)),),
        p2=(("keep", ("chronicler",)),),
        ruleset=rs(triggers_active_first=False),
    )
    sc.to(Phase.END, Step.END_WINDOW).to(Phase.MAIN1, turn=4)
    turn3 = sc.find(TurnStarted, lambda e: e.turn == 3)
    first = sc.events[sc.find(SkillTriggered, start=turn3)]
    assert isinstance(first, SkillTriggered)
    assert first.player == P2  # the other players' triggers first, under this reading
    return played(sc, RULESET, "R-REG-12")


def attack_target_mode() -> FlagCase:  # OQ-17
    sc = board(p2=(("keep", ("soldier",)), ("tower", ())))
    fight(
        sc,
        {sc.inst(P1, "soldier"): sc.inst(P2, "keep"), sc.inst(P1, "brute"): sc.inst(P2, "tower")},
    )
    sc.to(Phase.MAIN2)
    return played(sc, rs(attack_target_mode="SINGLE"), "R-CMB-8")


def cavalry_only_blocks_elsewhere() -> FlagCase:  # OQ-18
    sc = board(
        p2=(("keep", ("soldier",)), ("citadel", ("giant",))),
        ruleset=rs(cavalry_only_blocks_elsewhere=False),
    )
    soldier = sc.inst(P1, "soldier")
    fight(sc, {soldier: sc.inst(P2, "keep")}, {sc.inst(P2, "giant"): soldier}).to(Phase.MAIN2)
    return played(sc, RULESET, "R-CMB-13")


def many_blockers_per_attacker() -> FlagCase:  # OQ-19
    sc = board()
    brute = sc.inst(P1, "brute")
    fight(
        sc,
        {brute: sc.inst(P2, "keep")},
        {sc.inst(P2, "soldier"): brute, sc.inst(P2, "rider"): brute},
    )
    sc.to(Phase.MAIN2)
    return played(sc, rs(many_blockers_per_attacker=False), "R-CMB-16")


def raze_lethal_first() -> FlagCase:  # OQ-20
    sc = board(ruleset=rs(raze_lethal_first=False))
    brute, guard, keep2 = sc.inst(P1, "brute"), sc.inst(P2, "soldier"), sc.inst(P2, "keep")
    fight(sc, {brute: keep2}, {guard: brute}).until("damage")
    sc.do(
        FollowerDamageAssigned(
            player=P1,
            allocations=(
                Allocation(source=brute, recipient=guard, amount=1),
                Allocation(source=brute, recipient=keep2, amount=3),
            ),
        )
    ).to(Phase.MAIN2)
    return played(sc, RULESET, "R-CMB-20")


def relics_become_stray() -> FlagCase:  # OQ-21
    sc = board(p2=(("keep", ("soldier", "rider")), ("tower", ("banner",))))
    fight(sc, {sc.inst(P1, "brute"): sc.inst(P2, "tower")}).to(Phase.MAIN2)
    assert sc.state.permanents[sc.inst(P2, "banner")].where == "STRAY"
    return played(sc, rs(relics_become_stray=False), "R-CMB-35")


def simultaneous_victory_active_first() -> FlagCase:  # OQ-24
    sc = Scenario.start([deck(), deck("pact")], ruleset=rs(starting_honor=95))
    sc.to(Phase.MAIN1, turn=2).summon(sc.inst(P2, "pact"))
    assert sc.state.winner == P2
    return played(sc, rs(starting_honor=95, simultaneous_victory_active_first=False), "R-VIC-2")


def team_wins_together() -> FlagCase:  # OQ-25
    sc = Scenario.start(
        [deck("keep", "herald"), deck(), deck(), deck()],
        teams=("t1", "t2", "t1", "t2"),
        ruleset=rs(starting_honor=97),
    )
    keep, herald = sc.inst(P1, "keep"), sc.inst(P1, "herald")
    sc.to(Phase.MAIN1).summon(keep).summon(herald, keep).use(herald)
    assert sc.state.winner == P1
    return played(sc, rs(starting_honor=97, team_wins_together=False), "R-VIC-2")


def force_is_raze() -> FlagCase:  # OQ-26
    sc = board(p1=(("keep", ("fiend",)),), ruleset=rs(force_is_raze=True))
    fiend, guard, keep2 = sc.inst(P1, "fiend"), sc.inst(P2, "soldier"), sc.inst(P2, "keep")
    fight(sc, {fiend: keep2}, {guard: fiend}).until("damage")
    sc.do(
        FollowerDamageAssigned(
            player=P1,
            allocations=(
                Allocation(source=fiend, recipient=guard, amount=2),
                Allocation(source=fiend, recipient=keep2, amount=2),
            ),
        )
    ).to(Phase.MAIN2)
    return played(sc, RULESET, "R-CMB-38")


def cycle_is_controller_turn() -> FlagCase:  # OQ-27
    sc = board(p1=(("citadel", ("cycler",)),), ruleset=rs(cycle_is_controller_turn=False))
    cycler = sc.inst(P1, "cycler")
    sc.use(cycler).to(Phase.MAIN1, turn=4).pass_until(lambda s: s.priority == P1)
    sc.use(cycler).to(Phase.COMBAT)
    return played(sc, RULESET, "R-SKL-6")


def fatigued_attacker_returns_home() -> FlagCase:  # OQ-29
    sc = board(p1=(("keep", ("soldier",)),), hand1=("soldier",))
    old, new = sc.inst(P1, "soldier"), sc.inst(P1, "soldier", 1)
    sc.summon(new, sc.inst(P1, "keep")).to(Phase.COMBAT, Step.C2)
    sc.do(AttackersEnteredBattle(player=P1, followers=(old, new))).to(Phase.MAIN2)
    return played(sc, rs(fatigued_attacker_returns_home=True), "R-CMB-34")


def raze_destroys_in_step7() -> FlagCase:  # OQ-30
    sc = board(p2=(("keep", ("soldier",)), ("tower", ("raider",))))
    brute, raider = sc.inst(P1, "brute"), sc.inst(P2, "raider")
    fight(sc, {brute: sc.inst(P2, "tower")}, {raider: brute}).to(Phase.MAIN2)
    return played(sc, rs(raze_destroys_in_step7=True), "R-CMB-30")


def hand_limit_all_players() -> FlagCase:  # OQ-31
    sc = Scenario.start(ruleset=rs(opening_hand=9)).to(Phase.MAIN1, turn=2)
    return played(sc, rs(opening_hand=9, hand_limit_all_players=True), "R-END-3")


def destroyed_guards_become_stray() -> FlagCase:  # OQ-32
    sc = board(p1=(("keep", ("brute", "brute")),), p2=(("keep", ("soldier", "rider")),))
    b0, b1, keep2 = sc.inst(P1, "brute"), sc.inst(P1, "brute", 1), sc.inst(P2, "keep")
    fight(sc, {b0: keep2, b1: keep2}, {sc.inst(P2, "soldier"): b0}).to(Phase.MAIN2)
    return played(sc, rs(destroyed_guards_become_stray=False), "R-CMB-35")


def window_closes_after() -> FlagCase:  # OQ-33
    # three players: p1 and p2 pass in Main Phase I and the Combat Phase begins at once
    sc = Scenario.start(players=3, ruleset=rs(window_closes_after="TWO_PASSES")).to(Phase.MAIN1)
    sc.do(PriorityPassed(player=P1), PriorityPassed(player=P2))
    assert sc.state.phase == Phase.COMBAT
    return played(sc, RULESET, "R-REG-7")


def result_order() -> FlagCase:  # OQ-34
    # two Actions on the register; under FIFO the first registered results first
    sc = Scenario.start([deck("tax", "pact"), deck()], ruleset=rs(result_order="FIFO"))
    sc.to(Phase.MAIN1)
    tax, pact = sc.inst(P1, "tax"), sc.inst(P1, "pact")
    sc.summon(tax, resolve=False).summon(pact, resolve=False)
    first = sc.state.register[0].id
    sc.resolve().to(Phase.COMBAT)
    results = [e.object_id for e in sc.events if isinstance(e, ObjectResulted)]
    assert results[0] == first
    return played(sc, RULESET, "R-REG-8")


def priority_after_registration() -> FlagCase:  # OQ-35
    # p2 summons an Action in p1's Main Phase and, holding priority after it, passes first
    sc = Scenario.start([deck(), deck("tax")]).to(Phase.MAIN1)
    sc.do(PriorityPassed(player=P1)).summon(sc.inst(P2, "tax"), resolve=False)
    assert sc.state.priority == P2
    sc.resolve().to(Phase.COMBAT)
    return played(sc, rs(priority_after_registration="ACTIVE"), "R-REG-5")


def fatal_damage_at() -> FlagCase:  # OQ-36
    # skill damage kills a guard in combat step 1: at once, not in step 7
    sc = board(p1=(("keep", ("striker",)),))
    victim = sc.inst(P2, "soldier")
    sc.to(Phase.COMBAT, Step.C1).use(sc.inst(P1, "striker"), target=victim)
    assert victim in sc.state.player(P2).graveyard
    assert sc.state.step == Step.C1
    sc.to(Phase.MAIN2)
    return played(sc, rs(fatal_damage_at="COMBAT_STEPS"), "R-CMB-26")


def preparation_window() -> FlagCase:  # OQ-37
    # no window by default: Main Phase I follows the Unslide step at once
    sc = Scenario.start().to(Phase.MAIN1)
    assert not any(isinstance(e, PriorityPassed) for e in sc.events)
    return played(sc, rs(preparation_window=True), "R-REG-10")


def battle_from() -> FlagCase:  # OQ-38
    # p1's rider is Stray (its Territory destroyed, no room left) and attacks unplaced
    sc = board(
        p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))),
        p2=(("keep", ("sapper",)),),
        turn=2,
        ruleset=rs(battle_from="IN_PLAY"),
    )
    rider = sc.inst(P1, "rider")
    sc.use(sc.inst(P2, "sapper"), target=sc.inst(P1, "tower")).to(Phase.MAIN1, turn=3)
    assert sc.state.permanents[rider].where == "STRAY"
    fight(sc, {rider: sc.inst(P2, "keep")}).to(Phase.MAIN2)
    return played(sc, RULESET, "R-CMB-5")


def territory_fatal_damage_at() -> FlagCase:  # OQ-39
    # skill damage leaves p2's tower with fatal damage in combat step 1: at once, not in step 9
    sc = board(
        p1=(("keep", ("sapper",)),),
        p2=(("keep", ("soldier",)), ("tower", ())),
        ruleset=rs(territory_fatal_damage_at="AT_ONCE"),
    )
    tower = sc.inst(P2, "tower")
    sc.to(Phase.COMBAT, Step.C1).use(sc.inst(P1, "sapper"), target=tower)
    assert tower in sc.state.player(P2).graveyard
    assert sc.state.step == Step.C1
    sc.to(Phase.MAIN2)
    return played(sc, RULESET, "R-CMB-30")


CASES: dict[str, Callable[[], FlagCase]] = {
    f.__name__: f
    for f in (
        opening_hand,
        min_deck_size,
        def_reduces_damage,
        summon_from_subdeck,
        relics_use_capacity,
        summon_needs_empty_register,
        honor_per_territory_destroyed,
        requirements_continuous,
        vp_outside_combat,
        second_player_first_supply_reduced,
        naval_aerial_need_skill,
        deploy_phase_window,
        unplaceable_to_graveyard,
        target_gone,
        triggers_active_first,
        attack_target_mode,
        cavalry_only_blocks_elsewhere,
        many_blockers_per_attacker,
        raze_lethal_first,
        relics_become_stray,
        simultaneous_victory_active_first,
        team_wins_together,
        force_is_raze,
        cycle_is_controller_turn,
        fatigued_attacker_returns_home,
        raze_destroys_in_step7,
        hand_limit_all_players,
        destroyed_guards_become_stray,
        window_closes_after,
        result_order,
        priority_after_registration,
        fatal_damage_at,
        preparation_window,
        battle_from,
        territory_fatal_damage_at,
    )
}


def flag_params() -> list[object]:
    return sorted(CASES)


@pytest.mark.parametrize("flag", flag_params())
def test_the_flag_changes_the_verdict_on_one_log(flag: str) -> None:
    case = CASES[flag]()
    assert getattr(case.played_under, flag) != getattr(case.other, flag)
    differing = {
        name
        for name in Ruleset.model_fields
        if getattr(case.played_under, name) != getattr(case.other, name)
    }
    assert differing == {flag}, "the two readings differ in this flag only"
    assert validate(case, case.played_under) == []
    found = validate(case, case.other)
    assert rule_ids(found) == {case.rule}, f"{flag}: expected {case.rule}, got {found}"


@pytest.mark.parametrize("flag", flag_params())
def test_a_verdict_that_rests_on_the_flag_names_it(flag: str) -> None:
    """Every violation at the first event the other reading rejects names the flag, in its
    ``flag`` field and in its message (what every format and language shows). Later ones
    judge a board the first one already left as played."""
    case = CASES[flag]()
    found = validate(case, case.other)
    first = [v for v in found if v.seq == min(x.seq or 0 for x in found)]
    for v in first:
        assert v.flag is not None, f"{flag}: {v} names no flag"
        assert flag in v.flag.split(", "), f"{flag}: {v} names {v.flag}"
        assert f"ruleset flag {v.flag}" in v.message
        assert v.text is not None
        assert flag in str(v.text)


def test_an_honor_shortfall_names_oq7_only_once_territories_were_destroyed() -> None:
    """R-CARD-10 rests on `honor_per_territory_destroyed` only when the player destroyed
    another player's Territory (another reading would give honor for it); a player who
    destroyed none falls short under every reading, and no flag is named."""
    sc = board(p1=(("citadel", ()),), hand1=("noble",), ruleset=rs(starting_honor=5))
    sc.summon(sc.inst(P1, "noble"), sc.inst(P1, "citadel")).to(Phase.COMBAT)
    case = played(sc, RULESET, "R-CARD-10")  # without the 5 honor it started with
    found = validate(case, case.other)
    assert rule_ids(found) == {"R-CARD-10"}
    assert all(v.flag is None for v in found)
    named = validate(CASES["honor_per_territory_destroyed"](), RULESET)
    assert [v.flag for v in named if v.rule == "R-CARD-10"] == ["honor_per_territory_destroyed"]


def test_an_honor_victory_owed_for_destroyed_territories_names_oq7() -> None:
    """An honor victory the rules demand because the winner's total holds honor for a destroyed
    Territory (R-VIC-2) rests on OQ-7's flag: the missing `match_won` names it."""
    sc = board(
        p1=(("citadel", ("sapper",)),),
        p2=(("keep", ()), ("tower", ())),
        ruleset=rs(victory_honor=10),
    )
    sc.use(sc.inst(P1, "sapper"), target=sc.inst(P2, "tower")).to(Phase.COMBAT)
    case = played(sc, rs(victory_honor=10, honor_per_territory_destroyed=10), "R-VIC-2")
    assert validate(case, case.played_under) == []
    found = validate(case, case.other)
    first = [v for v in found if v.seq == min(x.seq or 0 for x in found)]
    assert [(v.rule, v.flag) for v in first] == [("R-VIC-2", "honor_per_territory_destroyed")]


def test_every_flag_that_is_not_pending_has_a_case() -> None:
    flags = set(OPEN_QUESTION_FLAGS.values())
    assert set(CASES) == flags - set(PENDING_FLAGS)
    assert set(CASES).isdisjoint(PENDING_FLAGS)


PARAMETERS: dict[str, str] = {
    "id": "names the ruleset",
    "version": "names the ruleset's revision",
    "starting_gold": "a number the fold starts from; messages state the gold",
    "starting_honor": "a number the fold starts from; messages state the honor",
    "starting_vp": "a number the fold starts from; messages state the points",
    "max_copies": "named by R-SET-4's message (test_a_minimum_deck_size_…)",
    "hand_limit": "R-END-3's message states it",
    "victory_vp": "a threshold; the victory's own rule cites it",
    "victory_honor": "a threshold; the victory's own rule cites it",
    "victory_territories": "a threshold; the victory's own rule cites it",
    "accept_trusted_effects": "R-TRUST-3 names it (tests/trust)",
}
"""Ruleset fields that are not readings of an open question, and where they show."""


def test_every_ruleset_field_is_a_reading_with_a_case_or_a_parameter() -> None:
    readings = set(OPEN_QUESTION_FLAGS.values()) | set(SECOND_FLAGS)
    assert set(Ruleset.model_fields) == readings | set(PARAMETERS)
    assert readings == set(CASES) | set(PENDING_FLAGS)
    # the readings name_readings tries are derived from the annotations: every flag with
    # a few values, so only number flags need naming where they are read
    assert set(READINGS) >= {f for f in readings if f not in NUMBER_FLAGS}


NUMBER_FLAGS = {"opening_hand", "min_deck_size", "honor_per_territory_destroyed"}
"""Open-question flags that are numbers: named where they are read (R-SET-4), or a total."""


def test_a_minimum_deck_size_in_the_logs_own_ruleset_is_enforced() -> None:
    start = Scenario.start().start_event
    assert not check(RULESET, INITIAL, start)
    strict = start.model_copy(update={"ruleset": rs(min_deck_size=30)})
    # check() judges under the ruleset it is given; validation gives it the log's own
    assert rule_ids(check(strict.ruleset, INITIAL, strict)) == {"R-SET-4"}
    assert "R-SET-4" in rule_ids(validate_records(records([strict])).violations)
    copies = start.model_copy(update={"ruleset": rs(max_copies=3)})
    assert rule_ids(check(copies.ruleset, INITIAL, copies)) == {"R-SET-4"}


def test_starting_gold_of_the_judging_ruleset_applies() -> None:
    sc = Scenario.start([deck("keep"), deck()])
    sc.to(Phase.MAIN1).summon(sc.inst(P1, "keep")).to(Phase.COMBAT)
    poor = rs(starting_gold=0)
    found = rule_ids(
        validate_records(records(sc.events), ruleset=poor).violations  # 1 gold, cost 3
    )
    assert "R-GOLD-3" in found


def test_the_cases_really_play_what_they_say() -> None:
    """Spot checks that the logs contain the decisions the cases are about."""
    subdeck = CASES["summon_from_subdeck"]().events
    assert any(isinstance(e, CardSummoned) and e.card == "p1-s01" for e in subdeck)
    assert isinstance(CASES["opening_hand"]().events[0], MatchStarted)
