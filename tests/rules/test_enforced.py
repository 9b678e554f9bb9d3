"""Every enforced rule id, broken on purpose.

Each test builds a legal position by play (`harness.Scenario`), then offers an event that breaks
one rule and asserts the rule id is reported — alone where the engine reports one. Decisions
are judged with `check` at the decision point; consequences, which play mode applies by itself,
are judged by validating the log with the consequence omitted, added or altered. The registry
test at the end fails when an enforced id has no test here.
"""

from __future__ import annotations

import pytest
from harness import (
    BROKEN,
    RULESET,
    Scenario,
    assert_breaks,
    board,
    breaks,
    deck,
    dropped,
    fight,
    replaced,
    rule_ids,
)

from vwlog.events import (
    Allocation,
    AnyEvent,
    Attack,
    AttackDeclared,
    AttackersEnteredBattle,
    BecameReturnHome,
    BecameStray,
    Block,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardInstance,
    CardsDrawn,
    CardSummoned,
    CombatDamageRegistered,
    Conceded,
    CostPaid,
    DeploymentFinished,
    FollowerDamageAssigned,
    FollowersDestroyed,
    GoldChanged,
    GoldProduced,
    HandLimitDiscarded,
    JudgeRulingIssued,
    MatchForked,
    MatchWon,
    ObjectResulted,
    OpeningHandDrawn,
    PhaseStarted,
    PriorityPassed,
    PropertyPlaced,
    SkillRegistered,
    SkillTriggered,
    StatChanged,
    StepStarted,
    SupplyChosen,
    SupplyTaken,
    TerritoriesDestroyed,
    TurnCleanedUp,
    TurnEnded,
    TurnStarted,
    Unslid,
    VictoryPointGained,
)
from vwlog.model.cards import Ruleset
from vwlog.model.types import (
    ObjectKind,
    Phase,
    PlacementReason,
    RulingKind,
    Stat,
    Step,
    SupplyOption,
    Victory,
)
from vwlog.projections import INITIAL
from vwlog.rules import check
from vwlog.rules.catalog import RULES, status

P1, P2 = "p1", "p2"


def rs(**changes: object) -> Ruleset:
    """The test ruleset with some fields changed."""
    return RULESET.model_copy(update=changes)


def omitted(sc: Scenario, index: int) -> set[str]:
    """Rule ids the validator reports when event ``index`` is left out of the log (never the
    last event: a log may stop anywhere)."""
    assert index < len(sc.events) - 1, "omitting the last event only shortens the log"
    return rule_ids(sc.validate_with(dropped(sc.events, index)))


def altered(sc: Scenario, index: int, new: AnyEvent) -> set[str]:
    """Rule ids the validator reports when event ``index`` is replaced by ``new``."""
    return rule_ids(sc.validate_with(replaced(sc.events, index, new)))


def added(sc: Scenario, event: AnyEvent) -> set[str]:
    """Rule ids the validator reports when ``event`` is appended to the log so far."""
    return rule_ids(sc.validate_with([*sc.events, event]))


def in_turn(sc: Scenario, event_type: type[AnyEvent], turn: int = 3, **fields: object) -> int:
    """Index of the first event of ``event_type`` in ``turn`` whose fields match."""
    start = sc.find(TurnStarted, lambda e: e.turn == turn)
    return sc.find(event_type, lambda e: all(getattr(e, k) == v for k, v in fields.items()), start)


def main1(turn: int = 1, **kwargs: object) -> Scenario:
    """A fresh duel at the first decision of Main Phase I of ``turn``."""
    decks = kwargs.pop("decks", None)
    sc = Scenario.start(decks, **kwargs)  # type: ignore[arg-type]
    return sc.to(Phase.MAIN1, turn=turn)


# -- §1 general ------------------------------------------------------------------------------


@breaks("R-GEN-4")
def test_a_skill_target_must_fit_the_card_text() -> None:
    sc = board(p1=(("keep", ("soldier", "striker")),))
    striker = sc.inst(P1, "striker")
    sc.do(CostPaid(player=P1, card=striker, skill="s1", gold=1))
    own = sc.inst(P1, "soldier")
    theirs = sc.inst(P2, "soldier")
    wrong = SkillRegistered(
        player=P1, card=striker, skill="s1", object_id=sc.next_object(), target=own
    )
    assert_breaks("R-GEN-4", sc.violations_of(wrong))
    assert not sc.violations_of(wrong.model_copy(update={"target": theirs}))


@breaks("R-GEN-6")
def test_requirements_are_rechecked_on_use_when_continuous() -> None:
    ruleset = rs(starting_honor=5, requirements_continuous=True)
    sc = main1(decks=[deck("keep", "noble"), deck()], ruleset=ruleset)
    keep, noble = sc.inst(P1, "keep"), sc.inst(P1, "noble")
    sc.summon(keep).summon(noble, keep)
    use = CostPaid(player=P1, card=noble, skill="s1")
    assert not sc.violations_of(use)  # 5 honor meets the requirement of 5
    sc.use(noble)  # loses 3 honor
    assert_breaks("R-GEN-6", sc.violations_of(use))


@breaks("R-GEN-7")
def test_only_seated_players_act() -> None:
    sc = main1()
    assert_breaks("R-GEN-7", sc.violations_of(Conceded(player="p9")))
    twice = sc.start_event.model_copy(
        update={"seats": (sc.start_event.seats[0], sc.start_event.seats[0])}
    )
    assert_breaks("R-GEN-7", check(RULESET, INITIAL, twice), only=False)


@breaks("R-GEN-8")
def test_a_back_up_ruling_returns_only_to_a_priority_point() -> None:
    sc = main1(turn=2)
    passed = sc.find(PriorityPassed)
    ruling = JudgeRulingIssued(judge="j", kind=RulingKind.BACK_UP, reason="misplay", back_to=passed)
    assert not sc.validate_with([*sc.events, ruling])  # the position before a pass
    supply = sc.find(SupplyTaken)
    bad = ruling.model_copy(update={"back_to": supply + 1})
    assert_breaks("R-GEN-8", sc.validate_with([*sc.events, bad]))


@breaks("R-GEN-10")
def test_no_phase_may_be_skipped() -> None:
    sc = main1()
    i = sc.find(PhaseStarted, lambda e: e.phase == Phase.MAIN1)
    assert_breaks("R-GEN-10", sc.check_at(i, PhaseStarted(phase=Phase.COMBAT)))
    assert_breaks("R-GEN-10", altered(sc, i, PhaseStarted(phase=Phase.COMBAT)), only=False)


# -- §2 cards --------------------------------------------------------------------------------


@breaks("R-CARD-2")
def test_property_needs_remaining_capacity() -> None:
    sc = board(p1=(("keep", ("soldier", "brute")), ("tower", ())), hand1=("rider",))
    keep, tower, rider = sc.inst(P1, "keep"), sc.inst(P1, "tower"), sc.inst(P1, "rider")
    sc.do(CostPaid(player=P1, card=rider, gold=1))
    into = CardSummoned(player=P1, card=rider, object_id=sc.next_object(), territory=keep)
    assert_breaks("R-CARD-2", sc.violations_of(into))
    assert not sc.violations_of(into.model_copy(update={"territory": tower}))
    full = board(hand1=("rider",))  # the only Territory is full
    assert_breaks("R-CARD-2", full.violations_of(CostPaid(player=P1, card=rider, gold=1)))


@breaks("R-CARD-8")
def test_an_action_goes_into_no_territory() -> None:
    sc = board(hand1=("tax",))
    tax = sc.inst(P1, "tax")
    sc.do(CostPaid(player=P1, card=tax, gold=1))
    into = CardSummoned(
        player=P1, card=tax, object_id=sc.next_object(), territory=sc.inst(P1, "keep")
    )
    assert_breaks("R-CARD-8", sc.violations_of(into))
    assert not sc.violations_of(into.model_copy(update={"territory": None}))


@breaks("R-CARD-9")
def test_property_is_summoned_into_a_territory() -> None:
    sc = board(p1=(("keep", ("soldier",)),), hand1=("rider",))
    rider = sc.inst(P1, "rider")
    sc.do(CostPaid(player=P1, card=rider, gold=1))
    nowhere = CardSummoned(player=P1, card=rider, object_id=sc.next_object())
    assert_breaks("R-CARD-9", sc.violations_of(nowhere))
    theirs = nowhere.model_copy(update={"territory": sc.inst(P2, "keep")})
    assert_breaks("R-CARD-9", sc.violations_of(theirs))


@breaks("R-CARD-10")
def test_the_honor_requirement_is_a_threshold() -> None:
    sc = main1(decks=[deck("keep", "noble"), deck()])
    sc.summon(sc.inst(P1, "keep"))
    noble = sc.inst(P1, "noble")
    assert_breaks("R-CARD-10", sc.violations_of(CostPaid(player=P1, card=noble, gold=1)))
    rich = main1(decks=[deck("keep", "noble"), deck()], ruleset=rs(starting_honor=5))
    rich.summon(rich.inst(P1, "keep"))
    assert not rich.violations_of(CostPaid(player=P1, card=noble, gold=1))


@breaks("R-CARD-11")
def test_a_summon_costs_its_printed_gold() -> None:
    sc = main1(decks=[deck("keep"), deck()])
    keep = sc.inst(P1, "keep")
    assert_breaks("R-CARD-11", sc.violations_of(CostPaid(player=P1, card=keep, gold=2)))
    assert not sc.violations_of(CostPaid(player=P1, card=keep, gold=3))


# -- §3 zones --------------------------------------------------------------------------------


@breaks("R-ZONE-1")
def test_cards_are_summoned_from_hand() -> None:
    sc = main1(decks=[deck("keep"), deck()])
    in_deck = sc.inst(P1, "soldier", 10)
    assert in_deck in sc.state.player(P1).deck
    assert_breaks("R-ZONE-1", sc.violations_of(CostPaid(player=P1, card=in_deck, gold=1)))


@breaks("R-ZONE-2")
def test_a_trusted_draw_takes_the_top_of_the_fate_deck() -> None:
    sc = main1(decks=[deck("keep", "scribe"), deck()])
    keep, scribe = sc.inst(P1, "keep"), sc.inst(P1, "scribe")
    sc.summon(keep).summon(scribe, keep).use(scribe)
    i = sc.find(ObjectResulted, lambda e: e.object_id == "o3")
    top = sc.state_at(i).player(P1).deck
    drew = sc.events[i].model_copy(update={"effects": (CardsDrawn(player=P1, cards=top[:1]),)})
    assert not altered(sc, i, drew)  # a text-only skill: its logged draw is trusted
    wrong = drew.model_copy(update={"effects": (CardsDrawn(player=P1, cards=top[1:2]),)})
    assert_breaks("R-ZONE-2", altered(sc, i, wrong))


@breaks("R-ZONE-3")
def test_the_subdeck_is_not_a_place_to_summon_from() -> None:
    sc = Scenario.start([deck("keep"), deck()], subdecks=[("soldier",), ()])
    sc.to(Phase.MAIN1, turn=1).summon(sc.inst(P1, "keep"))
    from_sub = CostPaid(player=P1, card="p1-s01", gold=1)
    assert_breaks("R-ZONE-3", sc.violations_of(from_sub))


@breaks("R-ZONE-5")
def test_costs_and_trusted_effects_name_cards_in_play() -> None:
    sc = main1(decks=[deck("keep", "scribe"), deck()])
    assert_breaks("R-ZONE-5", sc.violations_of(CostPaid(player=P1, card="nope", gold=0)))
    keep, scribe = sc.inst(P1, "keep"), sc.inst(P1, "scribe")
    sc.summon(keep).summon(scribe, keep).use(scribe)
    i = sc.find(ObjectResulted, lambda e: e.object_id == "o3")
    ghost = StatChanged(card=sc.inst(P1, "soldier", 3), stat=Stat.ATK, delta=1)
    assert_breaks("R-ZONE-5", altered(sc, i, ObjectResulted(object_id="o3", effects=(ghost,))))


@breaks("R-ZONE-7")
def test_only_followers_in_battle_block() -> None:
    sc = board()
    soldier, brute = sc.inst(P1, "soldier"), sc.inst(P1, "brute")
    keep2 = sc.inst(P2, "keep")
    fight(sc, {soldier: keep2, brute: keep2})
    sc.until("blockers")
    guard, rider = sc.inst(P2, "soldier"), sc.inst(P2, "rider")
    sc.do(BlockersEnteredBattle(player=P2, followers=(guard,)))
    sc.until("blocks")
    outside = BlocksAssigned(player=P2, blocks=(Block(blocker=rider, attacker=brute),))
    assert_breaks("R-ZONE-7", sc.violations_of(outside))
    assert not sc.violations_of(
        BlocksAssigned(player=P2, blocks=(Block(blocker=guard, attacker=brute),))
    )


# -- §4 setup --------------------------------------------------------------------------------


@breaks("R-SET-1")
def test_the_match_starts_once_with_a_seated_first_player() -> None:
    sc = main1()
    assert_breaks("R-SET-1", check(RULESET, INITIAL, PhaseStarted(phase=Phase.PREP)))
    assert_breaks("R-SET-1", sc.violations_of(sc.start_event))
    nobody = sc.start_event.model_copy(update={"first_player": "p7"})
    assert_breaks("R-SET-1", check(RULESET, INITIAL, nobody))
    assert not check(RULESET, INITIAL, sc.start_event)


@breaks("R-SET-2")
def test_only_the_first_player_gets_a_reduced_supply() -> None:
    sc = Scenario.start().to(Phase.PREP, Step.SUPPLY, turn=2)
    assert sc.holder == P2
    reduced = SupplyChosen(player=P2, option=SupplyOption.FIRST_TURN_GOLD_1)
    assert_breaks("R-SET-2", sc.violations_of(reduced))
    assert not sc.violations_of(SupplyChosen(player=P2, option=SupplyOption.GOLD_2))


@breaks("R-SET-4")
def test_decks_and_opening_hands_follow_the_setup() -> None:
    sc = Scenario.start()
    seat = sc.start_event.seats[0]
    twice = seat.model_copy(update={"deck": (*seat.deck, seat.deck[0])})
    dup = sc.start_event.model_copy(update={"seats": (twice, sc.start_event.seats[1])})
    assert_breaks("R-SET-4", check(RULESET, INITIAL, dup))
    unknown = seat.model_copy(update={"deck": (CardInstance(id="p1-999", card="dragon"),)})
    bad_card = sc.start_event.model_copy(update={"seats": (unknown, sc.start_event.seats[1])})
    assert_breaks("R-SET-4", check(RULESET, INITIAL, bad_card))
    i = sc.find(OpeningHandDrawn)
    drawn = sc.events[i]
    assert isinstance(drawn, OpeningHandDrawn)
    short = drawn.model_copy(update={"cards": drawn.cards[:-1]})
    assert_breaks("R-SET-4", sc.check_at(i, short))


# -- §5 resources ----------------------------------------------------------------------------


@breaks("R-GOLD-1")
def test_only_the_active_player_produces() -> None:
    sc = main1()
    i = sc.find(GoldProduced)
    assert_breaks("R-GOLD-1", sc.check_at(i, GoldProduced(player=P2, amount=0)))


@breaks("R-GOLD-3")
def test_gold_paid_must_be_owned() -> None:
    sc = main1(decks=[deck("keep"), deck()], ruleset=rs(starting_gold=0))
    assert sc.state.player(P1).gold == 1
    assert_breaks(
        "R-GOLD-3", sc.violations_of(CostPaid(player=P1, card=sc.inst(P1, "keep"), gold=3))
    )


@breaks("R-HON-1")
def test_a_political_victory_needs_the_honor() -> None:
    sc = main1()
    won = MatchWon(winner=P1, victory=Victory.POLITICAL)
    assert_breaks("R-HON-1", sc.violations_of(won))
    assert_breaks("R-HON-1", added(sc, won))


@breaks("R-VP-1")
def test_a_victory_point_is_owed_for_an_opponents_last_territory() -> None:
    sc = board(p1=(("keep", ("sapper",)),))
    sc.use(sc.inst(P1, "sapper"), target=sc.inst(P2, "keep")).to(Phase.COMBAT)
    i = sc.find(VictoryPointGained)
    assert sc.events[i - 1] == TerritoriesDestroyed(cards=(sc.inst(P2, "keep"),))
    assert_breaks("R-VP-1", omitted(sc, i))
    assert_breaks("R-VP-1", altered(sc, i, VictoryPointGained(player=P2, opponent=P1)))


@breaks("R-VP-2")
def test_no_victory_point_without_a_wipe() -> None:
    sc = board()
    assert_breaks("R-VP-2", sc.violations_of(VictoryPointGained(player=P1, opponent=P2)))


# -- §6 turn structure -----------------------------------------------------------------------


def at_unslide(turn: int = 1, **kwargs: object) -> Scenario:
    sc = Scenario.start(**kwargs)  # type: ignore[arg-type]
    return sc.to(Phase.PREP, Step.UNSLIDE, turn=turn)


@breaks("R-PREP-1")
def test_the_active_player_deploys_in_preparation() -> None:
    sc = at_unslide()
    assert_breaks("R-PREP-1", sc.violations_of(DeploymentFinished(player=P2)))
    assert not sc.violations_of(DeploymentFinished(player=P1))


@breaks("R-PREP-2")
def test_nothing_is_summoned_or_used_in_preparation() -> None:
    sc = at_unslide()
    keep = sc.start_event.seats[0].deck[0].id
    assert_breaks("R-PREP-2", sc.violations_of(CostPaid(player=P1, card=keep, gold=2)))


@breaks("R-PRO-1")
def test_produce_is_the_sum_of_territory_produce() -> None:
    sc = board(p1=(("keep", ()), ("tower", ())))
    i = sc.find(
        GoldProduced, lambda e: e.player == P1, start=sc.find(TurnStarted, lambda e: e.turn == 3)
    )
    assert sc.events[i] == GoldProduced(player=P1, amount=2)
    assert_breaks("R-PRO-1", altered(sc, i, GoldProduced(player=P1, amount=3)))
    assert_breaks("R-PRO-1", omitted(sc, i))


@breaks("R-SUP-1")
def test_one_full_package_once_in_the_supply_step() -> None:
    sc = Scenario.start().to(Phase.PREP, Step.SUPPLY, turn=3)
    reduced = SupplyChosen(player=P1, option=SupplyOption.FIRST_TURN_CARD_1)
    assert_breaks("R-SUP-1", sc.violations_of(reduced))
    sc.to(Phase.MAIN1)
    assert_breaks("R-SUP-1", sc.violations_of(SupplyChosen(player=P1, option=SupplyOption.GOLD_2)))


@breaks("R-SUP-2")
def test_the_package_taken_is_the_one_declared() -> None:
    sc = Scenario.start().to(Phase.MAIN1, turn=3)
    i = sc.find(SupplyTaken, lambda e: e.gold == 2)
    assert_breaks("R-SUP-2", altered(sc, i, SupplyTaken(player=P1, gold=1)))
    assert_breaks("R-SUP-2", omitted(sc, i))


@breaks("R-SUP-3")
def test_the_first_turn_supply_is_reduced() -> None:
    sc = Scenario.start()
    assert sc.expected.kind == "supply"
    assert_breaks("R-SUP-3", sc.violations_of(SupplyChosen(player=P1, option=SupplyOption.GOLD_2)))
    assert not sc.violations_of(SupplyChosen(player=P1, option=SupplyOption.FIRST_TURN_CARD_1))


@breaks("R-UNS-1")
def test_every_slid_card_is_unslid() -> None:
    sc = board(p1=(("keep", ("herald",)),))
    herald = sc.inst(P1, "herald")
    sc.use(herald)
    sc.to(Phase.MAIN1, turn=5)
    i = sc.find(Unslid, lambda e: e.player == P1 and bool(e.cards))
    assert sc.events[i] == Unslid(player=P1, cards=(herald,))
    assert_breaks("R-UNS-1", altered(sc, i, Unslid(player=P1, cards=())))


@breaks("R-UNS-2")
def test_unslide_placements_respect_capacity() -> None:
    sc = board(p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))), phase=Phase.PREP)
    sc.to(Phase.PREP, Step.UNSLIDE)
    rider, keep = sc.inst(P1, "rider"), sc.inst(P1, "keep")
    move = PropertyPlaced(
        player=P1, card=rider, territory=keep, reason=PlacementReason.UNSLIDE_STEP
    )
    assert_breaks("R-UNS-2", sc.violations_of(move))
    back = move.model_copy(
        update={"card": sc.inst(P1, "soldier"), "territory": sc.inst(P1, "tower")}
    )
    assert_breaks("R-UNS-2", sc.violations_of(back))  # the tower is full too


def test_return_home_followers_are_put_back_while_there_is_room() -> None:
    sc = battle().to(Phase.PREP, Step.UNSLIDE, turn=5)
    assert {c.where for c in sc.state.permanents.values() if c.controller == P1} >= {"RETURN_HOME"}
    assert "R-UNS-2" in sc.violations_of(DeploymentFinished(player=P1))


@breaks("R-UNS-3")
def test_unslide_placements_are_marked_and_owed() -> None:
    sc = board(p1=(("keep", ("soldier",)), ("tower", ())), phase=Phase.PREP)
    sc.to(Phase.PREP, Step.UNSLIDE)
    soldier, tower = sc.inst(P1, "soldier"), sc.inst(P1, "tower")
    move = PropertyPlaced(
        player=P1, card=soldier, territory=tower, reason=PlacementReason.DEPLOY_PHASE
    )
    assert_breaks("R-UNS-3", sc.violations_of(move))
    assert not sc.violations_of(move.model_copy(update={"reason": PlacementReason.UNSLIDE_STEP}))
    # the digest's reason EFFECT parses, but no skill places Property
    by_effect = move.model_copy(update={"reason": PlacementReason.EFFECT})
    assert PropertyPlaced.model_validate(by_effect.model_dump()) == by_effect
    assert_breaks("R-UNS-3", sc.violations_of(by_effect))
    assert_breaks("R-UNS-3", sc.violations_of(PhaseStarted(phase=Phase.MAIN1)))


@breaks("R-MAIN-2")
def test_main_phase_one_ends_only_when_all_pass() -> None:
    sc = main1()
    assert_breaks("R-MAIN-2", sc.violations_of(PhaseStarted(phase=Phase.COMBAT)))


@breaks("R-MAIN-3")
def test_first_main_phase_triggers_go_on_the_register() -> None:
    sc = board(p1=(("shrine", ()),), phase=Phase.COMBAT)
    i = sc.find(SkillTriggered, start=sc.find(TurnStarted, lambda e: e.turn == 3))
    assert_breaks("R-MAIN-3", omitted(sc, i))


@breaks("R-MAIN-4")
def test_property_is_summoned_in_ones_own_main_phase_with_an_empty_register() -> None:
    sc = board(p1=(("citadel", ("soldier",)),), hand1=("soldier",), phase=Phase.COMBAT)
    extra = sc.inst(P1, "soldier", 1)
    assert sc.state.step == Step.C1
    assert_breaks("R-MAIN-4", sc.violations_of(CostPaid(player=P1, card=extra, gold=1)))
    sc = board(p2=(("citadel", ("soldier", "rider")),), hand2=("rider",))
    sc.do(PriorityPassed(player=P1))
    rider = sc.inst(P2, "rider", 1)
    assert rider in sc.state.player(P2).hand
    assert_breaks("R-MAIN-4", sc.violations_of(CostPaid(player=P2, card=rider, gold=1)))
    sc = board(p1=(("keep", ("soldier",)),), hand1=("tax", "rider"))
    sc.summon(sc.inst(P1, "tax"), resolve=False)
    assert sc.state.register
    assert_breaks(
        "R-MAIN-4", sc.violations_of(CostPaid(player=P1, card=sc.inst(P1, "rider"), gold=1))
    )


@breaks("R-MAIN-5")
def test_the_active_player_has_first_priority_in_a_main_phase() -> None:
    sc = main1()
    assert_breaks("R-MAIN-5", sc.violations_of(PriorityPassed(player=P2)))


@breaks("R-MAIN-6")
def test_no_redeploy_in_a_main_phase() -> None:
    sc = board(p1=(("keep", ("soldier",)), ("tower", ())))
    move = PropertyPlaced(
        player=P1,
        card=sc.inst(P1, "soldier"),
        territory=sc.inst(P1, "tower"),
        reason=PlacementReason.DEPLOY_PHASE,
    )
    assert_breaks("R-MAIN-6", sc.violations_of(move))


@breaks("R-MAIN-6")
def test_stray_property_must_go_into_the_new_territory() -> None:
    sc = stray_board(hand1=("tower",))
    tower, keep = sc.inst(P1, "tower", 1), sc.inst(P1, "keep")
    stray = sc.inst(P1, "rider")
    sc.summon(tower)
    assert sc.expected.kind == "stray"
    wrong = PropertyPlaced(
        player=P1, card=stray, territory=keep, reason=PlacementReason.NEW_TERRITORY_STRAY
    )
    assert_breaks("R-MAIN-6", sc.violations_of(wrong))
    right = wrong.model_copy(update={"territory": tower})
    assert not sc.violations_of(right)
    assert_breaks(
        "R-MAIN-6",
        sc.violations_of(right.model_copy(update={"reason": PlacementReason.DEPLOY_PHASE})),
    )
    assert_breaks(
        "R-MAIN-6", sc.violations_of(right.model_copy(update={"reason": PlacementReason.EFFECT}))
    )


def stray_board(**kwargs: object) -> Scenario:
    """Turn 3, p1's Main Phase I: p2's skill destroyed p1's tower in turn 2, so its rider is
    Stray; p1 still has a keep, full (a soldier and a brute), so the rider stays Stray through
    the Unslide step (R-UNS-2 would otherwise put it there)."""
    sc = board(
        p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))),
        p2=(("keep", ("sapper",)),),
        turn=2,
        **kwargs,  # type: ignore[arg-type]
    )
    sc.use(sc.inst(P2, "sapper"), target=sc.inst(P1, "tower"))
    assert sc.state.permanents[sc.inst(P1, "rider")].where == "STRAY"
    return sc.to(Phase.MAIN1, turn=3)


@breaks("R-MAIN-8")
def test_territories_are_summoned_in_a_main_phase() -> None:
    sc = board(hand1=("tower", "lair"), phase=Phase.COMBAT)
    assert_breaks(
        "R-MAIN-8", sc.violations_of(CostPaid(player=P1, card=sc.inst(P1, "tower"), gold=2))
    )
    assert not sc.violations_of(CostPaid(player=P1, card=sc.inst(P1, "lair"), gold=2))  # Lair


@breaks("R-MAIN-9")
def test_main_phase_two_ends_only_when_all_pass_and_has_no_first_main_triggers() -> None:
    sc = board(p1=(("shrine", ()),), phase=Phase.MAIN2)
    assert_breaks("R-MAIN-9", sc.violations_of(PhaseStarted(phase=Phase.DEPLOY)))
    shrine = sc.inst(P1, "shrine")
    again = SkillTriggered(player=P1, card=shrine, skill="s1", object_id=sc.next_object())
    assert_breaks("R-MAIN-9", sc.violations_of(again))


@breaks("R-DEP-1")
def test_deploy_phase_moves_between_own_territories() -> None:
    sc = board(p1=(("keep", ("soldier",)), ("tower", ())), phase=Phase.DEPLOY)
    soldier, tower = sc.inst(P1, "soldier"), sc.inst(P1, "tower")
    move = PropertyPlaced(
        player=P1, card=soldier, territory=tower, reason=PlacementReason.DEPLOY_PHASE
    )
    assert not sc.violations_of(move)
    assert_breaks(
        "R-DEP-1",
        sc.violations_of(move.model_copy(update={"reason": PlacementReason.UNSLIDE_STEP})),
    )
    assert_breaks(
        "R-DEP-1", sc.violations_of(move.model_copy(update={"territory": sc.inst(P2, "keep")}))
    )
    sc.to(Phase.COMBAT, turn=5)
    assert_breaks("R-DEP-1", sc.violations_of(move))


@breaks("R-DEP-2")
def test_deploy_phase_respects_capacity_and_its_window() -> None:
    sc = board(p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))), phase=Phase.DEPLOY)
    move = PropertyPlaced(
        player=P1,
        card=sc.inst(P1, "rider"),
        territory=sc.inst(P1, "keep"),
        reason=PlacementReason.DEPLOY_PHASE,
    )
    assert_breaks("R-DEP-2", sc.violations_of(move))
    sc.do(DeploymentFinished(player=P1))
    assert sc.expected.is_priority
    assert_breaks("R-DEP-2", sc.violations_of(PhaseStarted(phase=Phase.END)))


# -- §7 register, priority -------------------------------------------------------------------


@breaks("R-REG-1")
def test_register_objects_are_numbered_in_order() -> None:
    sc = main1(decks=[deck("keep"), deck()])
    keep = sc.inst(P1, "keep")
    sc.do(CostPaid(player=P1, card=keep, gold=3))
    assert_breaks("R-REG-1", sc.violations_of(CardSummoned(player=P1, card=keep, object_id="o9")))


@breaks("R-REG-3")
def test_costs_are_paid_before_registering() -> None:
    sc = main1(decks=[deck("keep", "tower"), deck()])
    keep = sc.inst(P1, "keep")
    unpaid = CardSummoned(player=P1, card=keep, object_id=sc.next_object())
    assert_breaks("R-REG-3", sc.violations_of(unpaid))
    sc.do(CostPaid(player=P1, card=sc.inst(P1, "tower"), gold=2))
    assert_breaks("R-REG-3", sc.violations_of(unpaid))  # paid for another card


@breaks("R-REG-3")
def test_a_slide_cost_needs_an_unslid_card() -> None:
    sc = board(p1=(("keep", ("herald",)),))
    herald = sc.inst(P1, "herald")
    sc.use(herald)
    again = CostPaid(player=P1, card=herald, skill="s1", slid=(herald,))
    assert_breaks("R-REG-3", sc.violations_of(again))


@breaks("R-REG-4")
def test_a_triggered_skill_goes_on_the_register() -> None:
    sc = main1(decks=[deck("fort"), deck()])
    sc.summon(sc.inst(P1, "fort"))
    i = sc.find(SkillTriggered)
    assert_breaks("R-REG-4", omitted(sc, i))
    assert_breaks("R-REG-4", sc.violations_of(sc.events[i]))  # once only


@breaks("R-REG-5")
def test_the_active_player_gets_priority_after_a_registration() -> None:
    sc = main1(decks=[deck("keep"), deck()])
    sc.summon(sc.inst(P1, "keep"), resolve=False)
    assert_breaks("R-REG-5", sc.violations_of(PriorityPassed(player=P2)))


@breaks("R-REG-5")
def test_a_fork_starts_only_at_a_priority_point() -> None:
    sc = Scenario.start()
    assert sc.expected.kind == "supply"
    assert_breaks("R-REG-5", sc.violations_of(MatchForked(parent="m", at=5)))
    sc.to(Phase.MAIN1)
    assert not sc.violations_of(MatchForked(parent="m", at=5))


@breaks("R-REG-6")
def test_priority_passes_in_turn_order() -> None:
    sc = main1(players=3)
    sc.do(PriorityPassed(player=P1))
    assert_breaks("R-REG-6", sc.violations_of(PriorityPassed(player="p3")))
    assert not sc.violations_of(PriorityPassed(player=P2))


def test_a_player_who_concedes_holding_priority_passes_it_on() -> None:
    sc = main1(players=3)
    sc.do(PriorityPassed(player=P1), Conceded(player=P2))
    assert sc.holder == "p3"


@breaks("R-REG-7")
def test_a_window_closes_only_after_all_players_passed() -> None:
    sc = main1(players=3)
    sc.do(PriorityPassed(player=P1), PriorityPassed(player=P2))
    assert_breaks("R-REG-7", sc.violations_of(PhaseStarted(phase=Phase.COMBAT)))


@breaks("R-REG-8")
def test_the_last_registered_object_results_first() -> None:
    sc = main1(decks=[deck("keep", "tax"), deck()])
    sc.summon(sc.inst(P1, "keep"), resolve=False)
    sc.summon(sc.inst(P1, "tax"), resolve=False)
    assert [o.id for o in sc.state.register] == ["o1", "o2"]
    sc.resolve()
    i = sc.find(ObjectResulted)
    assert sc.events[i].object_id == "o2"  # type: ignore[union-attr]
    assert_breaks("R-REG-8", sc.check_at(i, ObjectResulted(object_id="o1")))
    assert_breaks("R-REG-8", sc.check_at(i - 1, sc.events[i]))  # before everybody passed


@breaks("R-REG-9")
def test_a_machine_readable_effect_results_as_derived() -> None:
    sc = main1(decks=[deck("tax"), deck()])
    sc.summon(sc.inst(P1, "tax"))
    i = sc.find(ObjectResulted)
    assert sc.events[i] == ObjectResulted(
        object_id="o1", effects=(GoldChanged(player=P1, delta=2),)
    )
    greedy = ObjectResulted(object_id="o1", effects=(GoldChanged(player=P1, delta=5),))
    assert_breaks("R-REG-9", altered(sc, i, greedy))


@breaks("R-REG-10")
def test_there_is_no_priority_in_preparation() -> None:
    sc = Scenario.start()
    assert_breaks("R-REG-10", sc.violations_of(PriorityPassed(player=P1)))


@breaks("R-REG-12")
def test_the_active_players_triggers_go_first() -> None:
    sc = board(p1=(("keep", ("chronicler",)),), p2=(("keep", ("chronicler",)),))
    sc.to(Phase.END, Step.END_WINDOW)
    i = in_turn(sc, SkillTriggered)
    mine, theirs = sc.events[i], sc.events[i + 1]
    assert isinstance(mine, SkillTriggered)
    assert mine.player == P1
    assert isinstance(theirs, SkillTriggered)
    assert theirs.player == P2
    swapped = theirs.model_copy(update={"object_id": mine.object_id})
    assert_breaks("R-REG-12", sc.check_at(i, swapped))
    second = mine.model_copy(update={"object_id": theirs.object_id})
    log = [*sc.events[:i], swapped, second, *sc.events[i + 2 :]]
    assert_breaks("R-REG-12", rule_ids(sc.validate_with(log)), only=False)


# -- §8 combat -------------------------------------------------------------------------------


def battle(stop: tuple[Phase, Step | None] = (Phase.MAIN2, None), **kwargs: object) -> Scenario:
    """Turn 3: p1's two Brutes (Raze, 4/3) attack p2's only keep (defense 6), guarded by a
    Soldier (2/2) that blocks the first Brute and a Rider that stays home. The Soldier dies
    (step 7), the keep falls to 2 Raze + 4 damage (step 9), p1 scores a Victory Point, both
    Brutes return home and the Rider becomes Stray (step 10). Advanced quietly to ``stop``."""
    sc = board(p1=(("keep", ("brute", "brute")),), p2=(("keep", ("soldier", "rider")),), **kwargs)  # type: ignore[arg-type]
    b0, b1 = sc.inst(P1, "brute"), sc.inst(P1, "brute", 1)
    keep2 = sc.inst(P2, "keep")
    fight(sc, {b0: keep2, b1: keep2}, {sc.inst(P2, "soldier"): b0})
    phase, step = stop
    return sc.to(phase, step, turn=3)


@breaks("R-CMB-0")
def test_each_combat_step_waits_for_all_passes_active_player_first() -> None:
    sc = board(phase=Phase.COMBAT)
    assert sc.state.step == Step.C1
    assert_breaks("R-CMB-0", sc.violations_of(StepStarted(step=Step.C2)))
    assert_breaks("R-CMB-0", sc.violations_of(PriorityPassed(player=P2)))


@breaks("R-CMB-1")
def test_beginning_of_combat_triggers_go_on_the_register() -> None:
    sc = board(p1=(("bastion", ("soldier",)),), phase=Phase.MAIN2)
    assert_breaks("R-CMB-1", omitted(sc, in_turn(sc, SkillTriggered)))


@breaks("R-CMB-2")
def test_attackers_are_the_active_players_followers() -> None:
    sc = board().to(Phase.COMBAT, Step.C2)
    assert sc.expected.kind == "attackers"
    theirs = AttackersEnteredBattle(player=P1, followers=(sc.inst(P2, "soldier"),))
    assert_breaks("R-CMB-2", sc.violations_of(theirs))
    soldier = sc.inst(P1, "soldier")
    twice = AttackersEnteredBattle(player=P1, followers=(soldier, soldier))
    assert_breaks("R-CMB-2", sc.violations_of(twice))
    assert_breaks("R-CMB-2", sc.violations_of(StepStarted(step=Step.C3)))


@breaks("R-CMB-3")
def test_a_fatigued_follower_may_enter_battle_but_not_attack() -> None:
    sc = board(p1=(("keep", ("soldier",)),), hand1=("soldier",))
    old, new = sc.inst(P1, "soldier"), sc.inst(P1, "soldier", 1)
    keep, keep2 = sc.inst(P1, "keep"), sc.inst(P2, "keep")
    sc.summon(new, keep).to(Phase.COMBAT, Step.C2)
    sc.do(AttackersEnteredBattle(player=P1, followers=(old, new)))  # legal
    sc.until("declare")
    both = AttackDeclared(
        player=P1, attacks=(Attack(follower=old, target=keep2), Attack(follower=new, target=keep2))
    )
    assert_breaks("R-CMB-3", sc.violations_of(both))
    assert not sc.violations_of(
        AttackDeclared(player=P1, attacks=(Attack(follower=old, target=keep2),))
    )


def test_declaring_only_a_fatigued_attacker_cites_fatigue() -> None:
    sc = board(p1=(("keep", ()),), hand1=("soldier",))
    new = sc.inst(P1, "soldier")
    sc.summon(new, sc.inst(P1, "keep")).to(Phase.COMBAT, Step.C2)
    sc.do(AttackersEnteredBattle(player=P1, followers=(new,))).to(Phase.COMBAT, Step.C3)
    attack = AttackDeclared(player=P1, attacks=(Attack(follower=new, target=sc.inst(P2, "keep")),))
    assert "R-CMB-3" in sc.violations_of(attack)


def test_attacking_an_unreachable_naval_territory_cites_the_terrain() -> None:
    sc = board(p2=(("harbor", ("giant",)),)).to(Phase.COMBAT, Step.C2)
    soldier = sc.inst(P1, "soldier")
    sc.do(AttackersEnteredBattle(player=P1, followers=(soldier,))).to(Phase.COMBAT, Step.C3)
    target = sc.inst(P2, "harbor")
    attack = AttackDeclared(player=P1, attacks=(Attack(follower=soldier, target=target),))
    assert "R-CMB-10" in sc.violations_of(attack)


@breaks("R-CMB-4")
def test_a_slid_follower_may_not_enter_battle() -> None:
    sc = board(p1=(("keep", ("soldier", "herald")),))
    herald = sc.inst(P1, "herald")
    sc.use(herald).to(Phase.COMBAT, Step.C2)
    entering = AttackersEnteredBattle(player=P1, followers=(sc.inst(P1, "soldier"), herald))
    assert_breaks("R-CMB-4", sc.violations_of(entering))


@breaks("R-CMB-5")
def test_only_guards_enter_battle() -> None:
    sc = stray_board().to(Phase.COMBAT, Step.C2)
    stray = sc.inst(P1, "rider")
    entering = AttackersEnteredBattle(player=P1, followers=(sc.inst(P1, "soldier"), stray))
    assert_breaks("R-CMB-5", sc.violations_of(entering))


@breaks("R-CMB-7")
def test_attackers_enter_battle_only_up_to_step_two() -> None:
    sc = board().to(Phase.COMBAT, Step.C2)
    soldier = sc.inst(P1, "soldier")
    sc.do(AttackersEnteredBattle(player=P1, followers=(soldier,))).until("declare")
    late = AttackersEnteredBattle(player=P1, followers=(sc.inst(P1, "brute"),))
    assert_breaks("R-CMB-7", sc.violations_of(late))


@breaks("R-CMB-8")
def test_every_attacker_able_to_attack_is_declared_once() -> None:
    sc = board().to(Phase.COMBAT, Step.C2)
    soldier, brute, keep2 = sc.inst(P1, "soldier"), sc.inst(P1, "brute"), sc.inst(P2, "keep")
    sc.do(AttackersEnteredBattle(player=P1, followers=(soldier, brute))).until("declare")
    one = AttackDeclared(player=P1, attacks=(Attack(follower=soldier, target=keep2),))
    assert_breaks("R-CMB-8", sc.violations_of(one))
    both = one.model_copy(update={"attacks": (*one.attacks, Attack(follower=brute, target=keep2))})
    assert not sc.violations_of(both)
    outsider = both.model_copy(
        update={
            "attacks": (*both.attacks, Attack(follower=sc.inst(P1, "soldier", 2), target=keep2))
        }
    )
    assert_breaks("R-CMB-8", sc.violations_of(outsider))


@breaks("R-CMB-9")
def test_attack_triggers_go_on_the_register() -> None:
    sc = board(p1=(("keep", ("berserker",)),))
    fight(sc, {sc.inst(P1, "berserker"): sc.inst(P2, "keep")}).to(Phase.MAIN2)
    assert_breaks("R-CMB-9", omitted(sc, in_turn(sc, SkillTriggered)))


@breaks("R-CMB-10")
def test_the_target_is_an_opponents_territory() -> None:
    sc = board().to(Phase.COMBAT, Step.C2)
    soldier = sc.inst(P1, "soldier")
    sc.do(AttackersEnteredBattle(player=P1, followers=(soldier,))).until("declare")
    own = AttackDeclared(player=P1, attacks=(Attack(follower=soldier, target=sc.inst(P1, "keep")),))
    assert_breaks("R-CMB-10", sc.violations_of(own))


@breaks("R-CMB-11")
def test_blockers_are_the_defending_players_followers() -> None:
    sc = board()
    fight(sc, {sc.inst(P1, "soldier"): sc.inst(P2, "keep")}).until("blockers")
    theirs = BlockersEnteredBattle(player=P2, followers=(sc.inst(P1, "brute"),))
    assert_breaks("R-CMB-11", sc.violations_of(theirs))


@breaks("R-CMB-12")
def test_a_slid_follower_may_not_block() -> None:
    sc = board(p2=(("keep", ("soldier", "herald")),), turn=2)
    herald = sc.inst(P2, "herald")
    sc.use(herald).to(Phase.MAIN1, turn=3)
    fight(sc, {sc.inst(P1, "soldier"): sc.inst(P2, "keep")}).until("blockers")
    entering = BlockersEnteredBattle(player=P2, followers=(sc.inst(P2, "soldier"), herald))
    assert_breaks("R-CMB-12", sc.violations_of(entering))


@breaks("R-CMB-13")
def test_only_cavalry_blocks_away_from_its_territory() -> None:
    sc = board(p2=(("keep", ("soldier",)), ("citadel", ("giant", "rider"))))
    fight(sc, {sc.inst(P1, "soldier"): sc.inst(P2, "keep")}).until("blockers")
    far = BlockersEnteredBattle(player=P2, followers=(sc.inst(P2, "giant"),))
    assert_breaks("R-CMB-13", sc.violations_of(far))
    assert not sc.violations_of(far.model_copy(update={"followers": (sc.inst(P2, "rider"),)}))


@breaks("R-CMB-15")
def test_blockers_enter_battle_only_up_to_step_four() -> None:
    sc = board()
    soldier = sc.inst(P1, "soldier")
    fight(sc, {soldier: sc.inst(P2, "keep")}, {sc.inst(P2, "soldier"): soldier})
    assert sc.state.step == Step.C5
    late = BlockersEnteredBattle(player=P2, followers=(sc.inst(P2, "rider"),))
    assert_breaks("R-CMB-15", sc.violations_of(late))


@breaks("R-CMB-16")
def test_blocks_go_to_attacking_followers() -> None:
    sc = board()
    soldier, brute = sc.inst(P1, "soldier"), sc.inst(P1, "brute")
    fight(sc, {soldier: sc.inst(P2, "keep")}).until("blockers")
    guard = sc.inst(P2, "soldier")
    sc.do(BlockersEnteredBattle(player=P2, followers=(guard,))).until("blocks")
    wrong = BlocksAssigned(player=P2, blocks=(Block(blocker=guard, attacker=brute),))
    assert_breaks("R-CMB-16", sc.violations_of(wrong))
    assert_breaks("R-CMB-16", sc.violations_of(StepStarted(step=Step.C6)))


@breaks("R-CMB-17")
def test_block_triggers_go_on_the_register() -> None:
    sc = board(p2=(("keep", ("guardian",)),))
    soldier = sc.inst(P1, "soldier")
    fight(sc, {soldier: sc.inst(P2, "keep")}, {sc.inst(P2, "guardian"): soldier}).to(Phase.MAIN2)
    assert_breaks("R-CMB-17", omitted(sc, in_turn(sc, SkillTriggered)))


@breaks("R-CMB-19")
def test_a_follower_distributes_exactly_its_atk() -> None:
    sc = board()
    soldier, guard = sc.inst(P1, "soldier"), sc.inst(P2, "soldier")
    fight(sc, {soldier: sc.inst(P2, "keep")}, {guard: soldier}).until("damage")
    short = FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=soldier, recipient=guard, amount=1),)
    )
    assert_breaks("R-CMB-19", sc.violations_of(short))
    assert not sc.violations_of(
        short.model_copy(
            update={"allocations": (Allocation(source=soldier, recipient=guard, amount=2),)}
        )
    )


@breaks("R-CMB-20")
def test_raze_assigns_lethal_damage_to_blockers_first() -> None:
    sc = board()
    brute, guard, keep2 = sc.inst(P1, "brute"), sc.inst(P2, "soldier"), sc.inst(P2, "keep")
    fight(sc, {brute: keep2}, {guard: brute}).until("damage")

    def split(to_guard: int) -> FollowerDamageAssigned:
        return FollowerDamageAssigned(
            player=P1,
            allocations=(
                Allocation(source=brute, recipient=guard, amount=to_guard),
                Allocation(source=brute, recipient=keep2, amount=4 - to_guard),
            ),
        )

    assert_breaks("R-CMB-20", sc.violations_of(split(1)))
    assert not sc.violations_of(split(2))


@breaks("R-CMB-21")
def test_follower_damage_is_registered_as_distributed() -> None:
    sc = battle()
    i = in_turn(sc, CombatDamageRegistered, kind=ObjectKind.COMBAT_DAMAGE_FOLLOWERS)
    logged = sc.events[i]
    assert isinstance(logged, CombatDamageRegistered)
    more = tuple(a.model_copy(update={"amount": a.amount + 1}) for a in logged.allocations)
    assert_breaks(
        "R-CMB-21", altered(sc, i, logged.model_copy(update={"allocations": more})), only=False
    )
    assert_breaks("R-CMB-21", omitted(sc, i))


@breaks("R-CMB-23")
def test_objects_above_the_damage_object_result_first() -> None:
    sc = board(p1=(("keep", ("soldier", "herald")),))
    soldier = sc.inst(P1, "soldier")
    fight(sc, {soldier: sc.inst(P2, "keep")}, {sc.inst(P2, "soldier"): soldier})
    sc.until("damage").do(sc.default_decision()).until("damage").do(sc.default_decision())
    assert [o.kind for o in sc.state.register] == [ObjectKind.COMBAT_DAMAGE_FOLLOWERS]
    sc.use(sc.inst(P1, "herald"), resolve=False).resolve(down_to=1).to(Phase.COMBAT, Step.C7)
    i = sc.find(ObjectResulted, start=sc.find(SkillRegistered))
    assert_breaks("R-CMB-23", omitted(sc, i))


@breaks("R-CMB-24")
def test_follower_damage_results_at_the_start_of_step_seven() -> None:
    sc = battle()
    i = in_turn(sc, StepStarted, step=Step.C7) + 1
    assert isinstance(sc.events[i], ObjectResulted)
    assert_breaks("R-CMB-24", omitted(sc, i))


@breaks("R-CMB-25")
def test_combat_damage_results_as_locked() -> None:
    sc = battle()
    i = in_turn(sc, StepStarted, step=Step.C7) + 1
    logged = sc.events[i]
    assert isinstance(logged, ObjectResulted)
    assert_breaks(
        "R-CMB-25", altered(sc, i, logged.model_copy(update={"effects": logged.effects[:-1]}))
    )


@breaks("R-CMB-26")
def test_followers_with_fatal_damage_go_to_the_graveyard() -> None:
    sc = battle()
    i = in_turn(sc, FollowersDestroyed)
    assert sc.events[i] == FollowersDestroyed(cards=(sc.inst(P2, "soldier"),))
    assert_breaks("R-CMB-26", omitted(sc, i))
    assert_breaks(
        "R-CMB-26", altered(sc, i, FollowersDestroyed(cards=(sc.inst(P2, "rider"),))), only=False
    )


@breaks("R-CMB-27")
def test_step_seven_ends_only_when_all_pass() -> None:
    sc = battle(stop=(Phase.COMBAT, Step.C7))
    assert sc.expected.is_priority
    assert_breaks("R-CMB-27", sc.violations_of(StepStarted(step=Step.C8)))


@breaks("R-CMB-28")
def test_unblocked_attackers_damage_the_territory() -> None:
    sc = battle()
    i = in_turn(sc, CombatDamageRegistered, kind=ObjectKind.COMBAT_DAMAGE_TERRITORY)
    b0, b1, keep2 = sc.inst(P1, "brute"), sc.inst(P1, "brute", 1), sc.inst(P2, "keep")
    logged = sc.events[i]
    assert logged == CombatDamageRegistered(
        object_id=logged.object_id,  # type: ignore[union-attr]
        kind=ObjectKind.COMBAT_DAMAGE_TERRITORY,
        allocations=(Allocation(source=b1, recipient=keep2, amount=4),),
    )
    assert isinstance(logged, CombatDamageRegistered)
    blocked_too = logged.model_copy(
        update={
            "allocations": (*logged.allocations, Allocation(source=b0, recipient=keep2, amount=4))
        }
    )
    assert_breaks("R-CMB-28", altered(sc, i, blocked_too), only=False)
    assert_breaks("R-CMB-28", omitted(sc, i))


@breaks("R-CMB-29")
def test_territory_damage_results_at_the_start_of_step_nine() -> None:
    sc = battle()
    i = in_turn(sc, StepStarted, step=Step.C9) + 1
    assert isinstance(sc.events[i], ObjectResulted)
    assert_breaks("R-CMB-29", omitted(sc, i))


@breaks("R-CMB-30")
def test_territories_with_fatal_damage_are_destroyed() -> None:
    sc = battle()
    i = in_turn(sc, TerritoriesDestroyed)
    assert_breaks("R-CMB-30", omitted(sc, i))


@breaks("R-CMB-31")
def test_wiping_out_an_opponent_in_combat_scores_a_victory_point() -> None:
    sc = battle()
    i = in_turn(sc, VictoryPointGained)
    assert sc.events[i] == VictoryPointGained(player=P1, opponent=P2)
    assert_breaks("R-CMB-31", omitted(sc, i))


@breaks("R-CMB-32")
def test_step_nine_ends_only_when_all_pass() -> None:
    sc = battle(stop=(Phase.COMBAT, Step.C9))
    assert_breaks("R-CMB-32", sc.violations_of(StepStarted(step=Step.C10)))


@breaks("R-CMB-33")
def test_end_of_combat_triggers_go_on_the_register() -> None:
    sc = board(p1=(("keep", ("duelist",)),), phase=Phase.MAIN2)
    assert_breaks("R-CMB-33", omitted(sc, in_turn(sc, SkillTriggered)))


@breaks("R-CMB-34")
def test_surviving_attackers_return_home() -> None:
    sc = battle()
    i = in_turn(sc, BecameReturnHome)
    assert sc.events[i] == BecameReturnHome(cards=(sc.inst(P1, "brute"), sc.inst(P1, "brute", 1)))
    assert_breaks("R-CMB-34", omitted(sc, i))
    assert_breaks(
        "R-CMB-34", altered(sc, i, BecameReturnHome(cards=(sc.inst(P1, "brute"),))), only=False
    )


@breaks("R-CMB-35")
def test_guards_of_a_destroyed_territory_become_stray() -> None:
    sc = battle()
    i = in_turn(sc, BecameStray)
    assert sc.events[i] == BecameStray(cards=(sc.inst(P2, "rider"),))
    assert_breaks("R-CMB-35", omitted(sc, i))


@breaks("R-CMB-36")
def test_the_combat_phase_ends_only_when_all_pass_in_step_ten() -> None:
    sc = battle(stop=(Phase.COMBAT, Step.C10))
    assert_breaks("R-CMB-36", sc.violations_of(PhaseStarted(phase=Phase.MAIN2)))


@breaks("R-CMB-38")
def test_a_blocked_attacker_without_raze_spares_the_territory() -> None:
    sc = board()
    soldier, guard, keep2 = sc.inst(P1, "soldier"), sc.inst(P2, "soldier"), sc.inst(P2, "keep")
    fight(sc, {soldier: keep2}, {guard: soldier}).until("damage")
    trample = FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=soldier, recipient=keep2, amount=2),)
    )
    assert_breaks("R-CMB-38", sc.violations_of(trample))


@breaks("R-CMB-39")
def test_a_blocker_damages_only_the_attacker_it_blocks() -> None:
    sc = battle(stop=(Phase.COMBAT, Step.C6))
    sc.do(sc.default_decision())  # p1 distributes
    assert sc.holder == P2
    guard, other = sc.inst(P2, "soldier"), sc.inst(P1, "brute", 1)
    stray_hit = FollowerDamageAssigned(
        player=P2, allocations=(Allocation(source=guard, recipient=other, amount=2),)
    )
    assert_breaks("R-CMB-39", sc.violations_of(stray_hit))


# -- §9 skills -------------------------------------------------------------------------------


def with_p1(*guards: str, **kwargs: object) -> Scenario:
    """Turn 3, p1's Main Phase I, with these Followers guarding p1's citadel."""
    return board(p1=(("citadel", guards),), **kwargs)  # type: ignore[arg-type]


@breaks("R-SKL-1")
def test_a_static_skill_never_uses_the_register() -> None:
    sc = with_p1("warden")
    assert_breaks(
        "R-SKL-1", sc.violations_of(CostPaid(player=P1, card=sc.inst(P1, "warden"), skill="s1"))
    )


@breaks("R-SKL-2")
def test_an_active_skill_is_paid_as_written_by_a_card_in_play() -> None:
    sc = with_p1("herald", hand1=("herald",))
    herald = sc.inst(P1, "herald")
    assert_breaks("R-SKL-2", sc.violations_of(CostPaid(player=P1, card=herald, skill="s1")))
    assert not sc.violations_of(CostPaid(player=P1, card=herald, skill="s1", slid=(herald,)))
    in_hand = sc.inst(P1, "herald", 1)
    assert_breaks(
        "R-SKL-2", sc.violations_of(CostPaid(player=P1, card=in_hand, skill="s1", slid=(in_hand,)))
    )
    assert_breaks("R-SKL-2", sc.violations_of(CostPaid(player=P1, card=herald, skill="s9")))


@breaks("R-SKL-3")
def test_a_triggered_skill_is_not_registered_by_a_player() -> None:
    sc = with_p1("chronicler")
    assert_breaks(
        "R-SKL-3", sc.violations_of(CostPaid(player=P1, card=sc.inst(P1, "chronicler"), skill="s1"))
    )


@breaks("R-SKL-4")
def test_an_aura_never_uses_the_register() -> None:
    sc = with_p1("captain")
    assert_breaks(
        "R-SKL-4", sc.violations_of(CostPaid(player=P1, card=sc.inst(P1, "captain"), skill="s1"))
    )


@breaks("R-SKL-5")
def test_a_skill_applies_only_while_its_condition_holds() -> None:
    sc = with_p1("mystic")
    use = CostPaid(player=P1, card=sc.inst(P1, "mystic"), skill="s1", gold=1)
    assert_breaks("R-SKL-5", sc.violations_of(use))
    sc = board(p1=(("sanctum", ("mystic",)),))
    assert not sc.violations_of(use)


@breaks("R-SKL-6")
def test_a_restricted_skill_cannot_exceed_its_allowance() -> None:
    sc = with_p1("drill")
    drill = sc.inst(P1, "drill")
    use = CostPaid(player=P1, card=drill, skill="s1", gold=1)
    sc.use(drill)
    assert_breaks("R-SKL-6", sc.violations_of(use))
    sc.to(Phase.MAIN1, turn=4).pass_until(lambda s: s.priority == P1)
    assert not sc.violations_of(use)  # once per turn: the opponent's turn is a new one


@breaks("R-SKL-7")
def test_once_per_match_stays_used_while_in_play() -> None:
    # a same-name copy going to the Graveyard ends its own record (R-SKL-9), not the record of
    # the property that stayed in play; the reuse itself is R-SKL-6
    sc = with_p1("necromancer", "necromancer", p2=(("keep", ("striker",)),))
    necro, other = sc.inst(P1, "necromancer"), sc.inst(P1, "necromancer", 1)
    sc.use(necro).to(Phase.MAIN1, turn=4)
    sc.use(sc.inst(P2, "striker"), target=other)
    assert other in sc.state.player(P1).graveyard
    sc.to(Phase.MAIN1, turn=5)
    found = sc.violations_of(CostPaid(player=P1, card=necro, skill="s1", gold=1))
    assert found == {"R-SKL-6", "R-SKL-7"}
    assert_breaks("R-SKL-7", found, only=False)


@breaks("R-SKL-8")
def test_returning_to_hand_keeps_the_record() -> None:
    sc = with_p1("necromancer", "recaller")
    necro = sc.inst(P1, "necromancer")
    sc.use(necro).use(sc.inst(P1, "recaller"), target=necro)
    assert necro in sc.state.player(P1).hand
    sc.summon(necro, sc.inst(P1, "citadel"))
    found = sc.violations_of(CostPaid(player=P1, card=necro, skill="s1", gold=1))
    assert found == {"R-SKL-6", "R-SKL-8"}
    assert_breaks("R-SKL-8", found, only=False)


def test_the_record_is_kept_per_property_in_play() -> None:
    """R-SKL-10 (descriptive since issue 15): a second copy that never used the skill may."""
    sc = with_p1("necromancer", "necromancer")
    first, second = sc.inst(P1, "necromancer"), sc.inst(P1, "necromancer", 1)
    sc.use(first)
    assert not sc.violations_of(CostPaid(player=P1, card=second, skill="s1", gold=1))


def test_the_graveyard_resets_the_record() -> None:
    """R-SKL-9 (a permission): a new copy after the old one went to the Graveyard may use it."""
    sc = board(
        p1=(("citadel", ("necromancer",)),), p2=(("keep", ("striker",)),), hand1=("necromancer",)
    )
    first, second = sc.inst(P1, "necromancer"), sc.inst(P1, "necromancer", 1)
    sc.use(first).to(Phase.MAIN1, turn=4)
    sc.use(sc.inst(P2, "striker"), target=first)
    assert first in sc.state.player(P1).graveyard
    sc.to(Phase.MAIN1, turn=5).summon(second, sc.inst(P1, "citadel"))
    assert not sc.violations_of(CostPaid(player=P1, card=second, skill="s1", gold=1))


# -- §10 victory -----------------------------------------------------------------------------


def sapped(ruleset: Ruleset = RULESET) -> Scenario:
    """Turn 3: p1's skill destroys p2's only Territory outside combat."""
    sc = board(p1=(("keep", ("sapper",)),), ruleset=ruleset)
    return sc.use(sc.inst(P1, "sapper"), target=sc.inst(P2, "keep"))


@breaks("R-VIC-1")
def test_a_military_victory_needs_the_victory_points() -> None:
    sc = main1()
    assert_breaks("R-VIC-1", sc.violations_of(MatchWon(winner=P1, victory=Victory.MILITARY)))
    won = sapped(rs(starting_vp=2))
    i = won.find(MatchWon)
    assert won.events[i] == MatchWon(winner=P1, victory=Victory.MILITARY)
    assert_breaks("R-VIC-1", altered(won, i, MatchWon(winner=P2, victory=Victory.MILITARY)))


def honored(honor: int = 97) -> Scenario:
    """Turn 3: p1 starts with ``honor`` honor and slides a Herald for 3 more (Political
    Victory at 100)."""
    sc = board(p1=(("keep", ("herald",)),), ruleset=rs(starting_honor=honor))
    return sc.use(sc.inst(P1, "herald"))


@breaks("R-VIC-2")
def test_a_political_victory_is_declared_for_the_right_player() -> None:
    sc = honored()
    assert sc.state.over
    i = sc.find(MatchWon)
    assert sc.events[i] == MatchWon(winner=P1, victory=Victory.POLITICAL)
    assert_breaks("R-VIC-2", altered(sc, i, MatchWon(winner=P2, victory=Victory.POLITICAL)))


def test_starting_at_the_victory_threshold_wins_at_once() -> None:
    sc = Scenario.start(ruleset=rs(starting_honor=100))
    assert sc.find(MatchWon) == sc.find(TurnStarted) + 1


@breaks("R-VIC-3")
def test_an_absolute_victory_needs_the_territories() -> None:
    sc = main1()
    assert_breaks("R-VIC-3", sc.violations_of(MatchWon(winner=P1, victory=Victory.ABSOLUTE)))
    sc = main1(decks=[deck("keep", "tower"), deck()], ruleset=rs(victory_territories=2))
    sc.summon(sc.inst(P1, "keep")).summon(sc.inst(P1, "tower"))
    i = sc.find(MatchWon)
    assert sc.events[i] == MatchWon(winner=P1, victory=Victory.ABSOLUTE)
    assert_breaks("R-VIC-3", altered(sc, i, MatchWon(winner=P2, victory=Victory.ABSOLUTE)))


@breaks("R-VIC-4")
def test_nothing_follows_a_victory() -> None:
    sc = honored()
    assert_breaks("R-VIC-4", sc.violations_of(PriorityPassed(player=P1)))
    assert_breaks("R-VIC-4", added(sc, SupplyChosen(player=P1, option=SupplyOption.GOLD_2)))
    assert not sc.violations_of(
        JudgeRulingIssued(judge="j", kind=RulingKind.WARNING, reason="late")
    )


@breaks("R-VIC-6")
def test_a_team_wins_when_its_opponents_are_out() -> None:
    sc = main1(players=4, teams=("t1", "t2", "t1", "t2"))
    sc.do(Conceded(player=P2), Conceded(player="p4"))
    i = sc.find(MatchWon)
    assert sc.events[i] == MatchWon(winner=P1, team="t1", victory=Victory.CONCESSION)
    assert_breaks(
        "R-VIC-6", altered(sc, i, MatchWon(winner="p3", team="t1", victory=Victory.CONCESSION))
    )


# -- §11 end of turn -------------------------------------------------------------------------


@breaks("R-END-1")
def test_end_of_turn_triggers_go_on_the_register() -> None:
    sc = board(p1=(("keep", ("chronicler",)),), turn=2)
    assert_breaks("R-END-1", omitted(sc, sc.find(SkillTriggered)))


@breaks("R-END-2")
def test_the_end_phase_window_ends_only_when_all_pass() -> None:
    sc = Scenario.start().to(Phase.END, Step.END_WINDOW)
    assert_breaks("R-END-2", sc.violations_of(StepStarted(step=Step.END_DISCARD)))


@breaks("R-END-3")
def test_discard_exactly_down_to_the_hand_limit() -> None:
    sc = Scenario.start(ruleset=rs(opening_hand=9))
    assert_breaks(
        "R-END-3", sc.to(Phase.MAIN1).violations_of(HandLimitDiscarded(player=P1, cards=()))
    )
    sc.until("discard")
    hand = sc.state.player(P1).hand
    assert len(hand) == 9
    assert_breaks("R-END-3", sc.violations_of(HandLimitDiscarded(player=P1, cards=hand[:1])))
    assert_breaks(
        "R-END-3", sc.violations_of(HandLimitDiscarded(player=P1, cards=(hand[0], hand[0])))
    )
    assert not sc.violations_of(HandLimitDiscarded(player=P1, cards=hand[:2]))


@breaks("R-END-4")
def test_the_cleanup_happens() -> None:
    sc = Scenario.start().to(Phase.MAIN1, turn=2)
    assert_breaks("R-END-4", omitted(sc, sc.find(TurnCleanedUp)))


@breaks("R-END-5")
def test_the_turn_passes_to_the_next_player() -> None:
    sc = Scenario.start().to(Phase.MAIN1, turn=2)
    i = sc.find(TurnStarted, lambda e: e.turn == 2)
    assert_breaks("R-END-5", sc.check_at(i, TurnStarted(turn=2, player=P1)))
    assert_breaks("R-END-5", altered(sc, i, TurnStarted(turn=2, player=P1)), only=False)


@breaks("R-END-6")
def test_the_turn_ends_after_the_cleanup() -> None:
    sc = Scenario.start().to(Phase.MAIN1, turn=2)
    assert_breaks("R-END-6", omitted(sc, sc.find(TurnEnded)))
    assert_breaks("R-END-6", altered(sc, sc.find(TurnEnded), TurnEnded(turn=2)))


# -- the legal side --------------------------------------------------------------------------


def test_a_whole_battle_is_clean() -> None:
    assert not battle().validate_with()


def test_a_lair_territory_is_summoned_in_the_opponents_turn() -> None:
    sc = board(hand1=("lair",), turn=4)
    sc.pass_until(lambda s: s.priority == P1)
    lair = sc.inst(P1, "lair")
    sc.summon(lair)
    assert sc.state.permanents[lair].controller == P1
    assert not sc.validate_with()


def test_an_action_is_summoned_during_combat() -> None:
    sc = board(hand1=("tax",), phase=Phase.COMBAT)
    before = sc.state.player(P1).gold
    sc.summon(sc.inst(P1, "tax"))
    assert sc.state.player(P1).gold == before - 1 + 2
    assert not sc.validate_with()


def test_a_follower_with_the_naval_skill_attacks_a_harbor() -> None:
    sc = board(p1=(("keep", ("flyer",)),), p2=(("harbor", ("giant",)),))
    fight(sc, {sc.inst(P1, "flyer"): sc.inst(P2, "harbor")}).to(Phase.MAIN2)
    assert sc.find(CombatDamageRegistered)
    assert not sc.validate_with()


def test_a_consequence_in_its_place_is_clean() -> None:
    sc = battle()
    for i, e in enumerate(sc.events):
        if not e.DECISION:
            assert not sc.check_at(i, e), (i, e)


# -- the registry ----------------------------------------------------------------------------


def test_a_declared_rule_must_be_asserted() -> None:
    @breaks("R-GEN-4")
    def silent() -> None:
        pass

    @breaks("R-GEN-4")
    def another() -> None:
        assert_breaks("R-GEN-7", {"R-GEN-7"})

    with pytest.raises(AssertionError, match="asserted none"):
        silent()
    with pytest.raises(AssertionError, match="undeclared"):
        another()


# -- trust: a log's definitions held to the published ones (tests/trust has the full sweep) --


@breaks("R-TRUST-1")
def test_a_card_that_differs_from_the_published_pool() -> None:
    from vwlog.io.pools import load_pool
    from vwlog.rules.published import compare_cards

    published = {c.id: c for c in load_pool().cards}
    card = published["militia-spearman"]
    assert_breaks("R-TRUST-1", compare_cards(published, [card.model_copy(update={"atk": 9})]))


@breaks("R-TRUST-2")
def test_a_flag_that_differs_from_the_published_ruleset() -> None:
    from vwlog.rules.published import compare_ruleset

    logged = Ruleset(hand_limit=9)
    assert_breaks("R-TRUST-2", compare_ruleset(Ruleset(), logged))


@breaks("R-TRUST-3")
def test_effects_claimed_for_a_text_only_skill() -> None:
    from vwlog.model.verdict import TrustedResult
    from vwlog.rules.published import trusted_effects_violation

    found = trusted_effects_violation(TrustedResult(10, "oracle-of-mists", "s1", 1))
    assert_breaks("R-TRUST-3", [found])


def test_every_enforced_rule_is_broken_by_a_test() -> None:
    enforced = {r for r in RULES if status(r)[0] in ("enforced", "partial")}
    assert len(enforced) == 108  # 105 of the digest (enforced or partly) and R-TRUST-1..3
    assert sorted(enforced - BROKEN) == []
    assert sorted(BROKEN - enforced) == []


@pytest.mark.parametrize("rule", sorted(RULES))
def test_descriptive_and_pending_rules_say_why(rule: str) -> None:
    kind, why = status(rule)
    assert (kind == "enforced") == (why == "")
