"""Rules fidelity, round two: each defect broken on purpose (exact rule id) beside a clean twin.

Issue 15 found verdicts the seeds (``shared/seeds/``) contradict; every test here plays the
position through the scenario builder and asserts what the seed's sentence says.
"""

from __future__ import annotations

import pytest

from tests.rules.harness import (
    CARDS,
    RULESET,
    Scenario,
    active,
    board,
    deck,
    fight,
    follower,
    honor,
    records,
)
from vwlog.engine.replay import validate_records
from vwlog.events import (
    Allocation,
    AnyEvent,
    CardInstance,
    CardSummoned,
    Conceded,
    CostPaid,
    FollowerDamageAssigned,
    MatchStarted,
    MatchWon,
    ObjectResulted,
    PriorityPassed,
    Seat,
    SkillRegistered,
    StepStarted,
    TerritoriesDestroyed,
)
from vwlog.model.cards import Ruleset
from vwlog.model.types import Keyword, MatchFormat, Phase, Restriction, Step, Victory
from vwlog.projections import INITIAL
from vwlog.rules import check

P1 = "p1"
P2 = "p2"
LAIR_BEAST = follower("lair-beast", atk=3, vit=3, cost=2, keywords=(Keyword.LAIR,))
POOL = (*CARDS, LAIR_BEAST)


def _opponents_main_phase(players: int = 2, ruleset=RULESET) -> Scenario:
    """p1 holds priority in p2's Main Phase I with a Lair Follower and a soldier in hand."""
    decks = [deck("keep", "lair-beast", "soldier")] + [deck()] * (players - 1)
    s = Scenario.start(decks, players=players, cards=POOL, ruleset=ruleset)
    s.to(Phase.MAIN1, turn=1)
    s.summon(s.inst("p1", "keep"))
    s.to(Phase.MAIN1, turn=2)
    assert s.holder == "p2"
    while s.holder != "p1":  # priority goes around in turn order (R-REG-6)
        s.do(PriorityPassed(player=s.holder))
    return s


# -- Followers with Lair are summoned at any time (R-CARD-2) ------------------------------------


def test_a_lair_follower_may_be_summoned_in_an_opponents_turn() -> None:
    s = _opponents_main_phase()
    beast = s.inst("p1", "lair-beast")
    assert s.violations_of(CostPaid(player="p1", card=beast, gold=2)) == set()


def test_a_follower_without_lair_waits_for_its_controllers_main_phase() -> None:
    s = _opponents_main_phase()
    soldier = s.inst("p1", "soldier")
    assert s.violations_of(CostPaid(player="p1", card=soldier, gold=1)) == {"R-MAIN-4"}


def test_a_lair_follower_summoned_in_an_opponents_turn_attacks_in_its_own() -> None:
    s = _opponents_main_phase(players=3)
    beast = s.inst("p1", "lair-beast")
    s.summon(beast, territory=s.inst("p1", "keep"))
    assert s.state.permanents[beast].fatigued
    s.to(Phase.MAIN1, turn=4)
    assert s.state.active == "p1"
    assert not s.state.permanents[beast].fatigued


# -- the match format fits the seats (R-GEN-7) --------------------------------------------------


def _start(fmt: MatchFormat, teams: list[str | None]) -> MatchStarted:
    seats = tuple(
        Seat(
            player=f"p{i + 1}",
            team=team,
            deck=tuple(CardInstance(id=f"p{i + 1}-{n:03d}", card="soldier") for n in range(20)),
        )
        for i, team in enumerate(teams)
    )
    return MatchStarted(format=fmt, seats=seats, first_player="p1", ruleset=RULESET, cards=CARDS)


@pytest.mark.parametrize(
    ("fmt", "teams"),
    [
        (MatchFormat.DUEL, [None, None, None, None]),
        (MatchFormat.TAG, ["a", "b", "c"]),
        (MatchFormat.TAG, ["a", "a", "b"]),
        (MatchFormat.THREE_V_THREE, [None, None]),
        (MatchFormat.THREE_V_THREE, ["a", "a", "b", "b"]),
        (MatchFormat.BATTLE_ROYAL, [None, None]),
        (MatchFormat.BATTLE_ROYAL, ["a", "a", "b", "b"]),
    ],
)
def test_a_format_its_seats_do_not_fit_is_refused(
    fmt: MatchFormat, teams: list[str | None]
) -> None:
    assert {v.rule for v in check(RULESET, INITIAL, _start(fmt, teams))} == {"R-GEN-7"}


@pytest.mark.parametrize(
    ("fmt", "teams"),
    [
        (MatchFormat.DUEL, [None, None]),
        (MatchFormat.TAG, ["a", "a", "b", "b"]),
        (MatchFormat.THREE_V_THREE, ["a", "a", "a", "b", "b", "b"]),
        (MatchFormat.BATTLE_ROYAL, [None, None, None]),
        (MatchFormat.BATTLE_ROYAL, [None, None, None, None]),
    ],
)
def test_a_format_its_seats_fit_is_clean(fmt: MatchFormat, teams: list[str | None]) -> None:
    assert check(RULESET, INITIAL, _start(fmt, teams)) == ()


# -- restriction records as the seed keeps them (R-SKL-6..10) -----------------------------------


def _two_necromancers() -> Scenario:
    return board(p1=(("citadel", ("necromancer", "necromancer")),), hand1=("recaller",))


def test_a_second_copy_that_never_used_the_skill_may_use_it() -> None:
    # "mutlak ... asalkan property itu di permainan": the record is the property's own
    s = _two_necromancers()
    first, second = s.inst(P1, "necromancer"), s.inst(P1, "necromancer", 1)
    s.use(first)
    assert s.violations_of(CostPaid(player=P1, card=second, skill="s1", gold=1)) == set()


@pytest.mark.parametrize("key", ["NAME", "CARD"])
def test_neither_record_key_changes_the_seeds_verdicts(key: str) -> None:
    s = board(
        p1=(("citadel", ("necromancer", "necromancer")),),
        ruleset=RULESET.model_copy(update={"restriction_key": key}),
    )
    first, second = s.inst(P1, "necromancer"), s.inst(P1, "necromancer", 1)
    s.use(first)
    assert s.violations_of(CostPaid(player=P1, card=first, skill="s1", gold=1)) == {"R-SKL-6"}
    assert s.violations_of(CostPaid(player=P1, card=second, skill="s1", gold=1)) == set()


def test_once_per_match_twice_by_the_same_card_cites_r_skl_6() -> None:
    # a used-up allowance is R-SKL-6 whatever the restriction; R-SKL-7 guards the record
    s = _two_necromancers()
    first = s.inst(P1, "necromancer")
    s.use(first)
    s.to(Phase.MAIN1, turn=5)
    assert s.violations_of(CostPaid(player=P1, card=first, skill="s1", gold=1)) == {"R-SKL-6"}


def test_a_copy_back_from_hand_inherits_the_record_and_cites_r_skl_8() -> None:
    # the digest's R-SKL-8 example: the first copy used it, went back to hand; a new copy
    s = board(
        p1=(("citadel", ("necromancer", "recaller")),),
        hand1=("necromancer",),
    )
    first, again = s.inst(P1, "necromancer"), s.inst(P1, "necromancer", 1)
    s.use(first)
    s.use(s.inst(P1, "recaller"), target=first)
    assert first in s.state.player(P1).hand
    s.summon(again, s.inst(P1, "citadel"))
    assert s.violations_of(CostPaid(player=P1, card=again, skill="s1", gold=1)) == {
        "R-SKL-6",
        "R-SKL-8",
    }


def test_a_copy_after_the_graveyard_is_new_and_may_use_it() -> None:
    # R-SKL-9: Necromancer(Male) went to the Graveyard; the new one may use the skill
    s = board(
        p1=(("citadel", ("necromancer",)),),
        p2=(("keep", ("striker", "striker")),),
        hand1=("necromancer",),
    )
    first, again = s.inst(P1, "necromancer"), s.inst(P1, "necromancer", 1)
    s.use(first)
    s.to(Phase.MAIN1, turn=4)
    s.use(s.inst(P2, "striker"), target=first)
    assert first in s.state.player(P1).graveyard
    s.to(Phase.MAIN1, turn=5)
    s.summon(again, s.inst(P1, "citadel"))
    assert s.violations_of(CostPaid(player=P1, card=again, skill="s1", gold=1)) == set()


def test_a_restriction_may_allow_several_uses() -> None:
    twice = follower(
        "twice",
        skills=(
            active([honor(1)], gold=1, restriction=Restriction.ONCE_PER_TURN).model_copy(
                update={"restriction_uses": 2}
            ),
        ),
    )
    s = Scenario.start([deck("keep", "twice"), deck()], cards=(*CARDS, twice)).to(Phase.MAIN1)
    keep, card = s.inst(P1, "keep"), s.inst(P1, "twice")
    s.summon(keep).summon(card, keep)
    s.use(card).use(card)
    assert s.violations_of(CostPaid(player=P1, card=card, skill="s1", gold=1)) == {"R-SKL-6"}


@pytest.mark.parametrize(
    "kind", [k for k in Restriction if k != Restriction.NONE], ids=lambda k: str(k)
)
def test_reuse_of_every_restriction_kind_cites_r_skl_6(kind: Restriction) -> None:
    # «tidak dapat meregister skillnya bila ia telah menggunakan sejumlah variabel
    # restriksinya» is R-SKL-6's sentence for every restriction; R-SKL-7 only guards the record
    card = follower("limited", skills=(active([honor(1)], gold=1, restriction=kind),))
    s = Scenario.start([deck("keep", "limited"), deck()], cards=(*CARDS, card)).to(Phase.MAIN1)
    keep, limited = s.inst(P1, "keep"), s.inst(P1, "limited")
    s.summon(keep).summon(limited, keep).use(limited)
    found = s.violations(CostPaid(player=P1, card=limited, skill="s1", gold=1))
    assert {v.rule for v in found} == {"R-SKL-6"}
    cycle = kind == Restriction.ONCE_PER_CYCLE  # what a cycle is, is a reading (OQ-27)
    assert [v.flag for v in found] == ["cycle_is_controller_turn" if cycle else None]


# -- Raze remainder when the only blocker is gone (R-CMB-20) -----------------------------------


def _blocker_killed_before_step6(attacker: str) -> Scenario:
    s = board(p1=(("citadel", (attacker, "striker")),))
    att, keep2, guard = s.inst(P1, attacker), s.inst(P2, "keep"), s.inst(P2, "soldier")
    fight(s, {att: keep2}, {guard: att})
    while s.holder != P1:
        s.do(PriorityPassed(player=s.holder))
    s.use(s.inst(P1, "striker"), target=guard)
    assert guard not in s.state.permanents
    return s


def test_raze_sends_all_its_atk_to_the_territory_when_its_blocker_is_gone() -> None:
    s = _blocker_killed_before_step6("brute")
    s.until("damage")
    brute, keep2 = s.inst(P1, "brute"), s.inst(P2, "keep")
    assert s.holder == P1
    whole = FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=brute, recipient=keep2, amount=4),)
    )
    assert s.violations_of(whole) == set()
    assert whole in s.legal()
    short = FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=brute, recipient=keep2, amount=3),)
    )
    assert s.violations_of(short) == {"R-CMB-19"}


def test_without_raze_a_blocked_attacker_deals_nothing_when_its_blocker_is_gone() -> None:
    s = _blocker_killed_before_step6("soldier")
    s.to(Phase.COMBAT, Step.C7)
    assert s.state.combat.allocations == ()
    assert s.state.permanents[s.inst(P2, "keep")].damage == 0


# -- an illegal victory claim never becomes the result (R-VIC-1) -------------------------------


def test_an_illegal_military_claim_is_reported_once_and_not_applied() -> None:
    s = board()
    holder = s.holder
    claim = MatchWon(winner=P1, victory=Victory.MILITARY)
    events = [*s.events, claim, PriorityPassed(player=holder)]
    found = s.validate_with(events)
    assert [v.rule for v in found] == ["R-VIC-1"]
    assert s.state_at(len(events)).winner is None


def test_a_concession_win_is_applied() -> None:
    s = board()
    s.do(Conceded(player=P2))
    assert s.state.winner == P1
    assert s.validate_with() == []


# -- one mistake, one violation: a cost paid after its registration (R-REG-3) ------------------


def _swapped(kind: type[AnyEvent], skill: bool) -> tuple[Scenario, list[AnyEvent]]:
    s = board(p1=(("citadel", ("soldier",)),), hand1=("herald",))
    herald = s.inst(P1, "herald")
    s.summon(herald, s.inst(P1, "citadel")).use(herald).to(Phase.MAIN1, turn=5)
    i = next(
        i
        for i, e in enumerate(s.events)
        if isinstance(e, CostPaid) and e.card == herald and (e.skill is not None) == skill
    )
    events = list(s.events)
    assert isinstance(events[i + 1], kind)
    events[i], events[i + 1] = events[i + 1], events[i]
    return s, events


@pytest.mark.parametrize(("kind", "skill"), [(SkillRegistered, True), (CardSummoned, False)])
def test_a_cost_paid_after_its_registration_is_one_violation(
    kind: type[AnyEvent], skill: bool
) -> None:
    s, events = _swapped(kind, skill)
    found = s.validate_with(events)
    assert [v.rule for v in found] == ["R-REG-3"]


def test_the_same_log_in_order_is_clean() -> None:
    s, _ = _swapped(SkillRegistered, True)
    assert s.validate_with() == []


# -- step 9 in the seed's order (R-CMB-29, R-CMB-30, OQ-39) ------------------------------------


def _doomed_before_step9(ruleset: Ruleset = RULESET) -> tuple[Scenario, int, int]:
    """p1's sapper leaves p2's keep with fatal damage in combat step 1 of turn 3; p1's soldier
    attacks p2's tower unblocked, so step 9 has an ATK-damage object to result. Returns the
    scenario, the index of step 9's result and of the Territories' destruction."""
    sc = board(
        p1=(("keep", ("sapper", "soldier")),),
        p2=(("keep", ("soldier",)), ("tower", ())),
        ruleset=ruleset,
    )
    keep2, tower = sc.inst(P2, "keep"), sc.inst(P2, "tower")
    sc.to(Phase.COMBAT, Step.C1)
    mark = len(sc.events)
    sc.use(sc.inst(P1, "sapper"), target=keep2)
    fight(sc, {sc.inst(P1, "soldier"): tower}).to(Phase.MAIN2)
    step9 = sc.find(StepStarted, lambda e: e.step == Step.C9, start=mark)
    result = sc.find(ObjectResulted, start=step9)
    destroyed = sc.find(TerritoriesDestroyed, lambda e: keep2 in e.cards, start=mark)
    return sc, result, destroyed


def test_step9_results_the_damage_before_territories_go_to_the_graveyard() -> None:
    # «Register yang berisi obyek ATK damage, result.» then «Territory yang ter-didistibusi
    # damage fatal … masuk Graveyard. Proses ini terjadi secara bersamaan.»
    sc, result, destroyed = _doomed_before_step9()
    assert sc.state_at(result).step == Step.C9
    assert result < destroyed
    assert validate_records(records(sc.events), ruleset=RULESET).violations == []


def test_step9_destruction_before_the_damage_results_is_refused_by_default() -> None:
    sc, result, destroyed = _doomed_before_step9()
    events = list(sc.events)
    events[result], events[destroyed] = events[destroyed], events[result]
    found = validate_records(records(events), ruleset=RULESET).violations
    assert found
    # the destruction comes where step 9's ATK-damage object must result first
    assert found[0].rule == "R-CMB-29"
    assert found[0].seq == result + 1


def test_a_territory_a_skill_dooms_in_combat_goes_at_once_only_under_its_flag() -> None:
    default, _, in_step9 = _doomed_before_step9()
    flagged = RULESET.model_copy(update={"territory_fatal_damage_at": "AT_ONCE"})
    at_once, _, at_once_i = _doomed_before_step9(flagged)
    assert default.state_at(in_step9).step == Step.C9
    assert at_once.state_at(at_once_i).step == Step.C1
    found = validate_records(records(at_once.events), ruleset=RULESET).violations
    assert {v.rule for v in found} == {"R-CMB-30"}
    assert {v.flag for v in found} == {"territory_fatal_damage_at"}
