"""Effects that leave the controller a choice when the skill results (``return``, ``look``,
``bottom``, ``reorder``): every result the choice allows is legal, anything else is R-REG-9 at
the result itself, and nothing is trusted."""

from __future__ import annotations

from itertools import permutations

from harness import Scenario, board, replaced, rule_ids
from harness import _fold as fold

from vwlog.events import CardMoved, DeckReordered, GoldChanged, ObjectResulted
from vwlog.model.types import Phase, Zone
from vwlog.rules.effects import is_trusted

P1, P2 = "p1", "p2"


def _result(sc: Scenario) -> tuple[int, ObjectResulted]:
    i = sc.find_all(ObjectResulted)[-1]
    event = sc.events[i]
    assert isinstance(event, ObjectResulted)
    return i, event


def _judged(sc: Scenario, i: int, *effects: object) -> set[str]:
    """Rule ids the validator reports when the result at ``i`` claims ``effects``."""
    event = sc.events[i]
    assert isinstance(event, ObjectResulted)
    new = ObjectResulted(object_id=event.object_id, effects=effects)  # type: ignore[arg-type]
    return rule_ids(sc.validate_with(replaced(sc.events, i, new)))


def _with_fallen(*hand: str) -> Scenario:
    """Turn 5, p1's Main Phase I: two of p1's Followers (a soldier, then a rider) were struck
    down by p2 in turn 4 and lie in p1's Graveyard, beside a played Action (tax)."""
    sc = board(
        p1=(("citadel", ("gravedigger", "soldier", "rider")),),
        p2=(("keep", ("striker", "striker")),),
        hand1=("tax", *hand),
    )
    sc.summon(sc.inst(P1, "tax"))
    sc.to(Phase.MAIN1, turn=4)
    sc.use(sc.inst(P2, "striker"), target=sc.inst(P1, "soldier"))
    sc.use(sc.inst(P2, "striker", 1), target=sc.inst(P1, "rider"))
    sc.to(Phase.MAIN1, turn=5)
    graveyard = sc.state.player(P1).graveyard
    assert sc.inst(P1, "soldier") in graveyard
    assert sc.inst(P1, "rider") in graveyard
    assert sc.inst(P1, "tax") in graveyard
    return sc


def test_a_return_may_take_any_card_the_skill_allows() -> None:
    sc = _with_fallen()
    sc.use(sc.inst(P1, "gravedigger"))
    i, result = _result(sc)
    soldier, rider, tax = sc.inst(P1, "soldier"), sc.inst(P1, "rider"), sc.inst(P1, "tax")
    # the engine derives the first choice: the first Follower in the Graveyard
    assert result.effects == (CardMoved(card=soldier, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND),)
    assert not sc.validate_with(sc.events)
    assert not is_trusted(sc.state_at(i), next(o for o in sc.state_at(i).register))
    back = CardMoved(card=rider, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND)
    assert _judged(sc, i, back) == set()
    # an Action is no Follower; one card, not two; not nothing while a Follower lies there
    wrong_type = CardMoved(card=tax, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND)
    assert _judged(sc, i, wrong_type) == {"R-REG-9"}
    assert _judged(sc, i, back, result.effects[0]) == {"R-REG-9"}
    assert _judged(sc, i) == {"R-REG-9"}
    # to the hand, not elsewhere; a card that is not in the Graveyard
    to_deck = CardMoved(card=rider, from_zone=Zone.GRAVEYARD, to_zone=Zone.FATE_DECK)
    assert _judged(sc, i, to_deck) == {"R-REG-9"}
    in_play = CardMoved(
        card=sc.inst(P1, "gravedigger"), from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND
    )
    assert _judged(sc, i, in_play) == {"R-REG-9"}
    assert _judged(sc, i, GoldChanged(player=P1, delta=3)) == {"R-REG-9"}


def test_a_return_with_nothing_to_take_does_nothing() -> None:
    sc = board(p1=(("citadel", ("gravedigger",)),))
    sc.use(sc.inst(P1, "gravedigger"))
    i, result = _result(sc)
    assert result.effects == ()
    assert not sc.validate_with(sc.events)
    other = CardMoved(card=sc.inst(P1, "citadel"), from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND)
    assert _judged(sc, i, other) == {"R-REG-9"}


def test_the_returned_card_is_in_the_hand_after_the_result() -> None:
    sc = _with_fallen()
    rider = sc.inst(P1, "rider")
    sc.use(sc.inst(P1, "gravedigger"))
    i, _ = _result(sc)
    events = replaced(
        sc.events,
        i,
        ObjectResulted(
            object_id=sc.events[i].object_id,  # type: ignore[union-attr]
            effects=(CardMoved(card=rider, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND),),
        ),
    )
    after = fold(tuple(events[: i + 1]))
    assert rider in after.player(P1).hand
    assert rider not in after.player(P1).graveyard


def test_a_look_at_a_hand_logs_nothing() -> None:
    sc = board(p1=(("citadel", ()),), hand1=("oracle",))
    sc.summon(sc.inst(P1, "oracle"), sc.inst(P1, "citadel"))
    sc.resolve()
    i, result = _result(sc)
    assert result.effects == ()
    assert not sc.validate_with(sc.events)
    peeked = CardMoved(
        card=sc.state.player(P2).hand[0], from_zone=Zone.HAND, to_zone=Zone.GRAVEYARD
    )
    assert _judged(sc, i, peeked) == {"R-REG-9"}


def test_a_look_at_the_top_may_put_it_on_the_bottom() -> None:
    sc = board(p1=(("citadel", ("lantern",)),))
    sc.use(sc.inst(P1, "lantern"))
    i, result = _result(sc)
    assert result.effects == ()
    assert not sc.validate_with(sc.events)
    deck = sc.state_at(i).player(P1).deck
    to_bottom = CardMoved(
        card=deck[0], from_zone=Zone.FATE_DECK, to_zone=Zone.FATE_DECK, bottom=True
    )
    assert _judged(sc, i, to_bottom) == set()
    second = to_bottom.model_copy(update={"card": deck[1]})
    assert _judged(sc, i, second) == {"R-REG-9"}
    assert _judged(sc, i, to_bottom, to_bottom) == {"R-REG-9"}
    on_top = to_bottom.model_copy(update={"bottom": None})
    assert _judged(sc, i, on_top) == {"R-REG-9"}


def test_a_reorder_puts_back_the_top_cards_in_any_order() -> None:
    sc = board(p1=(("citadel", ()),), hand1=("glimpse",))
    sc.summon(sc.inst(P1, "glimpse"))
    i, result = _result(sc)
    assert result.effects == ()
    assert not sc.validate_with(sc.events)
    deck = sc.state_at(i).player(P1).deck
    for order in permutations(deck[:3]):
        assert _judged(sc, i, DeckReordered(player=P1, cards=order)) == set(), order
    assert _judged(sc, i, DeckReordered(player=P1, cards=deck[1:4])) == {"R-REG-9"}
    assert _judged(sc, i, DeckReordered(player=P1, cards=deck[:2])) == {"R-REG-9"}
    theirs = sc.state_at(i).player(P2).deck[:3]
    assert _judged(sc, i, DeckReordered(player=P2, cards=theirs)) == {"R-REG-9"}
    twice = DeckReordered(player=P1, cards=deck[:3])
    assert _judged(sc, i, twice, twice) == {"R-REG-9"}
