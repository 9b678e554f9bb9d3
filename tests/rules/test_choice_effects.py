"""Effects that leave the controller a choice when the skill results (``return``, ``look``,
``bottom``, ``reorder``): every result the choice allows is legal, anything else is R-REG-9 at
the result itself, and nothing is trusted."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

import pytest
from harness import Scenario, board, replaced, rule_ids
from harness import _fold as fold

from vwlog.cli import main
from vwlog.events import (
    CardMoved,
    DeckReordered,
    GoldChanged,
    LogHeader,
    ObjectResulted,
    PriorityPassed,
)
from vwlog.games.vw.play import play
from vwlog.io import codec
from vwlog.io.logfile import write_log
from vwlog.model.errors import ChoiceError, IllegalEventError
from vwlog.model.types import Phase, Zone
from vwlog.rules import expect
from vwlog.rules.effects import is_trusted
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

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


def test_a_choice_beside_a_gone_target_follows_the_ruleset() -> None:
    """OQ-15: the diviner's damage finds its target gone (the striker's result killed it
    first); its bottom choice still happens under PART, and nothing at all under WHOLE."""
    sc = board(p1=(("citadel", ("diviner", "striker")),))
    diviner, striker = sc.inst(P1, "diviner"), sc.inst(P1, "striker")
    victim = sc.inst(P2, "soldier")
    sc.use(diviner, target=victim, resolve=False).use(striker, target=victim, resolve=False)
    sc.resolve()
    assert victim in sc.state.player(P2).graveyard
    i, result = _result(sc)
    assert result.effects == ()
    deck = sc.state_at(i).player(P1).deck
    to_bottom = CardMoved(
        card=deck[0], from_zone=Zone.FATE_DECK, to_zone=Zone.FATE_DECK, bottom=True
    )
    assert _judged(sc, i, to_bottom) == set()
    whole = sc.rs.model_copy(update={"target_gone": "WHOLE"})
    new = ObjectResulted(object_id=result.object_id, effects=(to_bottom,))
    assert rule_ids(sc.validate_with(replaced(sc.events, i, new), ruleset=whole)) == {"R-REG-9"}
    assert not sc.validate_with(sc.events, ruleset=whole)


# -- choosing in play mode -----------------------------------------------------------------


def _registered_digger() -> tuple[Scenario, str]:
    """`_with_fallen`, with the gravedigger's skill registered and not yet resulted; the id of
    its object."""
    sc = _with_fallen()
    sc.use(sc.inst(P1, "gravedigger"), resolve=False)
    return sc, sc.state.register[-1].id


def _play_out(sc: Scenario, choices: dict[str, list[str]]) -> list[object]:
    """Pass until the register is empty, in play mode with ``choices``; the events played."""
    state, played = sc.state, []
    while state.register:
        holder = expect(sc.rs, state).player
        assert holder is not None
        state, events = play(sc.rs, state, PriorityPassed(player=holder), choices)
        played.extend(events)
    return played


def test_play_mode_takes_the_first_choice_unless_told_otherwise() -> None:
    sc, object_id = _registered_digger()
    soldier, rider = sc.inst(P1, "soldier"), sc.inst(P1, "rider")
    first = _play_out(sc, {})
    assert (
        ObjectResulted(
            object_id=object_id,
            effects=(CardMoved(card=soldier, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND),),
        )
        in first
    )
    choices = {object_id: [rider]}
    chosen = _play_out(sc, choices)
    assert (
        ObjectResulted(
            object_id=object_id,
            effects=(CardMoved(card=rider, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND),),
        )
        in chosen
    )
    assert choices == {}  # taken out when used


def test_a_choice_the_skill_does_not_allow_is_refused_in_play_mode() -> None:
    sc, object_id = _registered_digger()
    with pytest.raises(IllegalEventError) as refused:
        _play_out(sc, {object_id: [sc.inst(P1, "tax")]})
    assert refused.value.event_type == "object_resulted"
    assert [v.rule for v in refused.value.violations] == ["R-REG-9"]
    assert refused.value.after >= 1  # after the pass that closed the window
    with pytest.raises(ChoiceError) as too_many:
        _play_out(sc, {object_id: [sc.inst(P1, "soldier"), sc.inst(P1, "rider")]})
    assert too_many.value.problem == "too many"


def test_a_choice_for_a_skill_without_one_is_refused() -> None:
    sc = board(p1=(("keep", ("soldier", "striker")),))
    sc.use(sc.inst(P1, "striker"), target=sc.inst(P2, "soldier"), resolve=False)
    object_id = sc.state.register[-1].id
    with pytest.raises(ChoiceError) as refused:
        _play_out(sc, {object_id: [sc.inst(P2, "soldier")]})
    assert refused.value.problem == "no choice"


def test_a_reorder_chosen_in_play_mode_is_drawn_in_that_order() -> None:
    sc = board(p1=(("citadel", ()),), hand1=("glimpse",))
    top = sc.state.player(P1).deck[:3]
    sc.summon(sc.inst(P1, "glimpse"), resolve=False)
    object_id = sc.state.register[-1].id
    order = [top[2], top[0], top[1]]
    played = _play_out(sc, {object_id: order})
    assert DeckReordered(player=P1, cards=tuple(order)) in [
        e for r in played if isinstance(r, ObjectResulted) for e in r.effects
    ]


def test_play_on_a_stored_match_records_the_choice(runner: CliRunner, tmp_path: Path) -> None:
    """``vwlog play --choose``: the stored result is the chosen one; a choice that is never used
    or not allowed stores nothing."""
    sc, object_id = _registered_digger()
    rider = sc.inst(P1, "rider")
    header = codec.seal_header(LogHeader(match_id="digger"))
    log = tmp_path / "digger.jsonl"
    write_log(log, header, codec.seal(header.hash or "", sc.records()))
    store = str(tmp_path / "store.db")
    done = runner.invoke(main, ["--store", store, "import", str(log)])
    assert done.exit_code == 0, done.stderr
    head = len(sc.events)

    def stored() -> int:
        with MatchStore.open(store) as s:
            return s.head("digger").seq

    refused = runner.invoke(
        main, ["--store", store, "play", "digger", "pass", "--choose", "o99=" + rider]
    )
    assert refused.exit_code == 2
    assert "the choice for object 'o99' was not used" in refused.stderr
    wrong = runner.invoke(
        main,
        ["--store", store, "play", "digger", "pass", "pass", "--choose", f"{object_id}=p1-xyz"],
    )
    assert wrong.exit_code != 0
    assert "R-REG-9" in wrong.stderr
    bad = runner.invoke(main, ["--store", store, "play", "digger", "pass", "--choose", "o1"])
    assert bad.exit_code == 2
    assert "OBJECT=CARD" in bad.stderr
    assert stored() == head
    passes = ["pass"] * 2
    done = runner.invoke(
        main, ["--store", store, "play", "digger", *passes, "--choose", f"{object_id}={rider}"]
    )
    assert done.exit_code == 0, done.stderr
    with MatchStore.open(store) as s:
        results = [
            r.event for r in s.records("digger", gt=head) if isinstance(r.event, ObjectResulted)
        ]
    assert results[0].effects == (
        CardMoved(card=rider, from_zone=Zone.GRAVEYARD, to_zone=Zone.HAND),
    )
