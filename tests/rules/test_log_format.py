"""What the log format can now say, so legal play is not flagged: a card leaving the Graveyard,
a reordered Fate Deck, a card put at the bottom of it, the contents of the cleanup and an
explicit empty attack declaration. Each beside the illegal twin it must still catch."""

from __future__ import annotations

from harness import (
    Scenario,
    _fold,
    board,
    rule_ids,
)

from vwlog.events import (
    AnyEvent,
    Attack,
    AttackDeclared,
    AttackersEnteredBattle,
    CardMoved,
    DeckReordered,
    ObjectResulted,
    PriorityPassed,
    SupplyChosen,
    SupplyTaken,
    TurnCleanedUp,
)
from vwlog.model.types import Phase, Step, SupplyOption, Zone

P1, P2 = "p1", "p2"


def with_result(sc: Scenario, *effects: object) -> Scenario:
    """The scenario with its last result claiming ``effects`` (a text-only skill's result is
    taken on the log's word), cut there and played on from it."""
    i = max(sc.find_all(ObjectResulted))
    result = sc.events[i]
    assert isinstance(result, ObjectResulted)
    events: list[AnyEvent] = [*sc.events[:i], result.model_copy(update={"effects": effects})]
    return Scenario(sc.rs, _fold(tuple(events)), events)


def _soldier_in_graveyard() -> tuple[Scenario, str]:
    """Turn 3, p1's Main Phase I: p2's striker killed p1's soldier in turn 2; p1 has a scribe (a
    text-only skill for 1 gold) and room in the citadel."""
    sc = board(p1=(("citadel", ("soldier", "scribe")),), p2=(("keep", ("striker",)),), turn=2)
    soldier = sc.inst(P1, "soldier")
    sc.use(sc.inst(P2, "striker"), target=soldier).to(Phase.MAIN1, turn=3)
    assert soldier in sc.state.player(P1).graveyard
    return sc, soldier


def test_a_follower_returns_from_the_graveyard_to_hand_and_is_summoned_again() -> None:
    sc, soldier = _soldier_in_graveyard()
    sc.use(sc.inst(P1, "scribe"))
    back = with_result(sc, CardMoved(card=soldier, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND))
    assert soldier in back.state.player(P1).hand
    assert soldier not in back.state.player(P1).graveyard
    back.summon(soldier, back.inst(P1, "citadel")).to(Phase.COMBAT, turn=3)
    assert back.validate_with() == []


def test_a_card_that_is_not_in_the_graveyard_cannot_leave_it() -> None:
    sc, _ = _soldier_in_graveyard()
    sc.use(sc.inst(P1, "scribe"))
    rider = sc.inst(P2, "keep")  # in play, not in any Graveyard
    ghost = with_result(sc, CardMoved(card=rider, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND))
    assert rule_ids(ghost.validate_with()) == {"R-ZONE-5"}


def _scribe_in_play() -> Scenario:
    sc = board(p1=(("citadel", ("scribe",)),), turn=3)
    sc.use(sc.inst(P1, "scribe"))
    return sc


def test_a_reordered_fate_deck_is_drawn_in_its_new_order() -> None:
    sc = _scribe_in_play()
    top = sc.state.player(P1).deck[:3]
    new = (top[2], top[0], top[1])
    glimpse = with_result(sc, DeckReordered(player=P1, cards=new))
    assert glimpse.state.player(P1).deck[:3] == new
    glimpse.to(Phase.PREP, Step.SUPPLY, turn=5).do(
        SupplyChosen(player=P1, option=SupplyOption.CARDS_2)
    )
    assert glimpse.validate_with() == []
    drawn = glimpse.events[max(glimpse.find_all(SupplyTaken))]
    assert isinstance(drawn, SupplyTaken)
    assert drawn.cards == new[:2]


def test_a_reorder_puts_back_the_very_top_cards() -> None:
    sc = _scribe_in_play()
    deck_now = sc.state.player(P1).deck
    wrong = (deck_now[3], deck_now[0], deck_now[1])  # the fourth card is not among the top three
    assert rule_ids(with_result(sc, DeckReordered(player=P1, cards=wrong)).validate_with()) == {
        "R-ZONE-2"
    }
    twice = (deck_now[0], deck_now[0], deck_now[1])
    assert rule_ids(with_result(sc, DeckReordered(player=P1, cards=twice)).validate_with()) == {
        "R-ZONE-2"
    }


def test_the_top_card_goes_to_the_bottom_of_the_fate_deck() -> None:
    sc = _scribe_in_play()
    deck_now = sc.state.player(P1).deck
    lantern = with_result(
        sc,
        CardMoved(card=deck_now[0], from_zone=Zone.FATE_DECK, to_zone=Zone.FATE_DECK, bottom=True),
    )
    assert lantern.state.player(P1).deck == (*deck_now[1:], deck_now[0])
    lantern.to(Phase.COMBAT, turn=3)
    assert lantern.validate_with() == []
    staying = with_result(
        _scribe_in_play(),
        CardMoved(card=deck_now[0], from_zone=Zone.FATE_DECK, to_zone=Zone.FATE_DECK),
    )
    assert rule_ids(staying.validate_with()) == {"R-ZONE-5"}


def test_a_cleanup_that_lists_what_it_clears_lists_it_right() -> None:
    sc = board(p1=(("keep", ("striker",)),), p2=(("citadel", ("giant",)),))
    giant = sc.inst(P2, "giant")
    sc.use(sc.inst(P1, "striker"), target=giant).to(Phase.MAIN1, turn=4)
    i = sc.find(TurnCleanedUp, start=sc.find_all(TurnCleanedUp)[-1])
    assert sc.events[i] == TurnCleanedUp()
    listed = TurnCleanedUp(damage_removed=(giant,), effects_ended=())
    assert sc.check_at(i, listed) == set()
    assert sc.check_at(i, TurnCleanedUp(damage_removed=())) == {"R-END-4"}
    assert sc.check_at(i, TurnCleanedUp(effects_ended=(giant,))) == {"R-END-4"}
    events = [*sc.events[:i], listed, *sc.events[i + 1 :]]
    assert sc.validate_with(events) == []


def test_an_explicit_empty_attack_declaration_is_no_violation() -> None:
    sc = board().to(Phase.COMBAT, Step.C2)
    sc.do(AttackersEnteredBattle(player=P1, followers=()))
    sc.to(Phase.COMBAT, Step.C3)
    assert sc.violations_of(AttackDeclared(player=P1, attacks=())) == set()
    assert sc.violations_of(AttackDeclared(player=P2, attacks=())) != set()
    sc.do(AttackDeclared(player=P1, attacks=()))
    sc.to(Phase.MAIN2)
    assert sc.validate_with() == []
    # once a player has passed, the step's action is over
    late = board().to(Phase.COMBAT, Step.C3)
    late.do(PriorityPassed(player=P1))
    assert late.violations_of(AttackDeclared(player=P2, attacks=())) != set()


def test_an_empty_declaration_with_an_attacker_in_battle_leaves_it_undeclared() -> None:
    sc = board()
    soldier = sc.inst(P1, "soldier")
    sc.to(Phase.COMBAT, Step.C2).say(f"attackers {soldier}")
    sc.until("declare")
    assert sc.violations_of(AttackDeclared(player=P1, attacks=())) == {"R-CMB-8"}
    keep2 = sc.inst(P2, "keep")
    assert (
        sc.violations_of(
            AttackDeclared(player=P1, attacks=(Attack(follower=soldier, target=keep2),))
        )
        == set()
    )
