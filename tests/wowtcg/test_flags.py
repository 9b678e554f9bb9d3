"""The ruleset's flags change verdicts as their documentation says, and a verdict resting on a
flag names it."""

from __future__ import annotations

from typing import Any

from tests.wowtcg.logs import HERO2, end_turn, judged, to_action, to_end, writer
from vwlog.games.wowtcg import events as ev


def _at(w: Any) -> int:
    return len(w.events)


def test_first_turn_draw_step_decides_whether_the_step_happens() -> None:
    skipped = writer().auto().passes().auto(1).add(ev.StepStarted(step="DRAW"))
    assert judged(skipped.events) == [("WOW-STA-9", _at(skipped), "first_turn_draw_step")]
    drawn = writer(first_turn_draw_step="DRAW_ONLY").auto().passes().auto(1)
    drawn.add(ev.StepStarted(step="DRAW"), ev.PriorityWindowOpened()).passes().auto()
    assert judged(drawn.events) == []
    drew = writer(first_turn_draw_step="DRAW_ONLY").auto().passes().auto(1)
    drew.add(ev.StepStarted(step="DRAW"), ev.CardDrawn(player="p1"))
    assert judged(drew.events)[0] == ("WOW-STA-9", _at(drew), None)


def _two_links(**flags: Any) -> Any:
    w = to_action(writer(**flags)).add(ev.LinkAdded(player="p1", link="l1", card="c1"))
    if w.board.holder == "p1":
        w.passes(1)
    w.add(ev.LinkAdded(player="p2", link="l2", card="c2"))
    if w.board.holder == "p2":
        w.passes(1)
    return w.passes(1).add(ev.LinkResolved(link="l2"))


def test_chain_resolution_decides_who_has_priority_after_a_link_resolves() -> None:
    now = _two_links().add(ev.PriorityPassed(player="p1"))
    assert judged(now.events) == []
    back = _two_links(chain_resolution="TOP_LINK_THEN_CONTROLLER")
    back.add(ev.PriorityPassed(player="p1"))
    assert judged(back.events) == [("WOW-PRI-4", _at(back), "chain_resolution")]
    whole = _two_links(chain_resolution="WHOLE_CHAIN").add(ev.PriorityPassed(player="p1"))
    assert judged(whole.events) == [("WOW-PRI-5", _at(whole), "chain_resolution")]
    whole_ok = _two_links(chain_resolution="WHOLE_CHAIN").add(ev.LinkResolved(link="l1"))
    whole_ok.add(ev.PriorityPassed(player="p1"))
    assert judged(whole_ok.events) == []


def test_priority_after_link_decides_who_holds_it_after_adding() -> None:
    for flag, verdict in (("ADDER", []), ("NEXT_PLAYER", [("WOW-PRI-4", "priority_after_link")])):
        w = to_action(writer(priority_after_link=flag))
        w.add(ev.LinkAdded(player="p1", link="l1", card="c1"), ev.PriorityPassed(player="p1"))
        assert [(r, f) for r, _, f in judged(w.events)] == verdict, flag


def _two_extra(**flags: Any) -> Any:
    w = to_action(writer(**flags)).add(ev.ExtraTurnCreated(player="p2"))
    w.add(ev.ExtraTurnCreated(player="p1"))
    return end_turn(to_end(w)).add(ev.TurnStarted(turn=2, player="p1", extra=True))


def test_extra_turn_order_decides_which_extra_turn_comes_first() -> None:
    assert judged(_two_extra(extra_turn_order="CREATED_LAST_FIRST").events) == []
    w = _two_extra()
    assert judged(w.events) == [("WOW-XTN-2", _at(w), "extra_turn_order")]


def _skip_and_extra(**flags: Any) -> Any:
    w = to_action(writer(hands=(3, 3), **flags)).add(ev.ExtraTurnCreated(player="p2"))
    w.add(ev.ModifierCreated(id="m1", kind="SKIP_NEXT_TURN", player="p2"))
    return end_turn(to_end(w))


def test_skip_consumes_extra_turn_decides_what_a_skip_replaces() -> None:
    yes = _skip_and_extra().add(ev.TurnSkipped(player="p2"), ev.TurnStarted(turn=2, player="p2"))
    assert judged(yes.events) == []
    no = _skip_and_extra(skip_consumes_extra_turn="NO")
    no.add(ev.TurnStarted(turn=2, player="p2", extra=True))
    end_turn(to_end(to_action(no))).add(ev.TurnSkipped(player="p2"))
    no.add(ev.TurnStarted(turn=3, player="p1"))
    assert judged(no.events) == []
    wrong = _skip_and_extra(skip_consumes_extra_turn="NO").add(ev.TurnSkipped(player="p2"))
    assert judged(wrong.events)[0] == ("WOW-XTN-3", _at(wrong), "skip_consumes_extra_turn")


def _hero_inspires(**flags: Any) -> Any:
    cards = (
        ev.CardSpec(id="h1", controller="p1", kind="hero", inspire="ally"),
        HERO2,
        ev.CardSpec(id="a1", controller="p1", kind="ally"),
    )
    w = to_action(writer(cards=cards, **flags)).add(ev.CardsExhausted(cards=("a1",)))
    end_turn(to_end(w)).auto(4)
    return w.add(ev.InspireReadied(player="p1", cards=("a1",), sources=("h1",)))


def test_inspire_source_decides_whether_a_hero_inspires() -> None:
    assert judged(_hero_inspires().events) == []
    w = _hero_inspires(inspire_source="ALLY_ONLY")
    assert judged(w.events) == [("WOW-STA-2", _at(w), "inspire_source")]


def _final_trigger(**flags: Any) -> Any:
    w = to_end(to_action(writer(**flags))).passes().auto(2)
    w.add(ev.AbilityTriggered(trigger="t1", player="p1", when="OTHER")).until("BETWEEN")
    return w.auto(3)


def test_final_step_triggers_added_decides_when_they_go_onto_the_chain() -> None:
    early = _final_trigger(final_step_triggers_added="AT_READY_STEP_START")
    early.add(ev.TriggerAdded(trigger="t1")).auto().passes()
    assert judged(early.events) == []
    late = _final_trigger().add(ev.TriggerAdded(trigger="t1"))
    assert judged(late.events) == [("WOW-TRG-2", _at(late), "final_step_triggers_added")]
    missed = _final_trigger(final_step_triggers_added="AT_READY_STEP_START")
    missed.add(ev.CardsReadied(player="p2"))
    assert judged(missed.events) == [("WOW-TRG-4", _at(missed), "final_step_triggers_added")]


def test_start_triggers_wait_for_decides_whether_turn_start_triggers_are_added() -> None:
    def turn_start(**flags: Any) -> Any:
        w = writer(**flags).auto(1)
        w.add(ev.AbilityTriggered(trigger="t1", player="p1", when="TURN_START")).auto(4)
        return w.add(ev.TriggerAdded(trigger="t1"))

    assert judged(turn_start().events) == []
    w = turn_start(start_triggers_wait_for="NEVER_ADDED")
    assert judged(w.events) == [("WOW-TRG-2", _at(w), "start_triggers_wait_for")]


def test_main_actions_need_priority_decides_whether_a_main_action_needs_it() -> None:
    for flag, verdict in (("NO", []), ("YES", [("WOW-ACT-3", "main_actions_need_priority")])):
        w = to_action(writer(main_actions_need_priority=flag)).passes(1)
        w.add(ev.ResourcePlaced(player="p1", card="r1"))
        assert [(r, f) for r, _, f in judged(w.events)] == verdict, flag


def test_resources_per_turn_bounds_the_resources_placed() -> None:
    for limit, verdict in ((None, []), (2, []), (1, [("WOW-ACT-3", "resources_per_turn")])):
        w = to_action(writer(resources_per_turn=limit))
        w.add(ev.ResourcePlaced(player="p1", card="r1"), ev.ResourcePlaced(player="p1", card="r2"))
        assert [(r, f) for r, _, f in judged(w.events)] == verdict, limit


def _combat(**flags: Any) -> Any:
    w = to_action(writer(**flags)).add(ev.CombatDeclared(player="p1", attacker="h1", target="h2"))
    return w.add(ev.StepStarted(step="COMBAT"), ev.PriorityWindowOpened())


def test_combat_model_decides_whether_a_combat_step_has_windows() -> None:
    two = _combat(combat_model="TWO_WINDOWS").passes().auto(2).passes().auto(2)
    two.passes().auto()
    assert judged(two.events) == []
    assert two.events[-1].type == "priority_window_opened"  # the end phase's
    opaque = _combat()
    assert judged(opaque.events) == [("WOW-TRN-4", _at(opaque), "combat_model")]


def test_empty_deck_draw_decides_what_drawing_from_an_empty_deck_does() -> None:
    def draw(**flags: Any) -> Any:
        return end_turn(to_end(to_action(writer(decks=(5, 0), **flags)))).auto().passes().auto(2)

    nothing = draw().add(ev.PriorityWindowOpened())
    assert judged(nothing.events) == []
    drew = draw().add(ev.CardDrawn(player="p2"))
    assert judged(drew.events) == [("WOW-STA-7", _at(drew), "empty_deck_draw")]
    lost = draw(empty_deck_draw="LOSES").add(ev.PlayerLost(player="p2"))
    assert judged(lost.events) == []
    after = draw(empty_deck_draw="LOSES").add(ev.PlayerLost(player="p2"), ev.PriorityWindowOpened())
    assert judged(after.events) == [("CORE-LOG-2", _at(after), None)]


def test_action_phase_all_pass_unjudged_judges_nothing_after_the_close() -> None:
    def closed(**flags: Any) -> Any:
        w = to_action(writer(**flags)).passes().auto(1)
        return w.add(ev.PriorityPassed(player="p2"))

    assert judged(closed(action_phase_all_pass="UNJUDGED").events) == []
    w = closed()
    assert judged(w.events) == [("WOW-PRI-1", _at(w), "action_phase_all_pass")]
