"""One log per enforceable WOW-* rule that breaks it at one event, and its legal twin: each
case takes ``legal`` and returns the events and the seq of the event that differs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.wowtcg.logs import HERO1, HERO2, end_turn, seq, to_action, to_end, writer
from vwlog.games.wowtcg import events as ev

Case = Callable[[bool], tuple[list[Any], int]]


def _one(w: Any, good: Any, bad: Any, legal: bool) -> tuple[list[Any], int]:
    w.add(good if legal else bad)
    return w.events, seq(w)


def trn_1(legal: bool) -> tuple[list[Any], int]:
    w = writer()
    return _one(w, ev.TurnStarted(turn=1, player="p1"), ev.TurnStarted(turn=1, player="p2"), legal)


def trn_2(legal: bool) -> tuple[list[Any], int]:
    w = writer().add(ev.TurnStarted(turn=1, player="p1"))
    return _one(w, ev.PhaseStarted(phase="START"), ev.PhaseStarted(phase="ACTION"), legal)


def trn_3(legal: bool) -> tuple[list[Any], int]:
    w = end_turn(to_end(to_action(writer()))).add(ev.TurnStarted(turn=2, player="p2"))
    w.add(ev.PhaseStarted(phase="START"))
    return _one(w, ev.StepStarted(step="READY"), ev.StepStarted(step="DRAW"), legal)


def trn_4(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer())
    if legal:
        w.add(ev.CombatDeclared(player="p1", attacker="h1", target="h2"))
        return _one(w, ev.StepStarted(step="COMBAT"), None, True)
    to_end(w)
    return _one(w, None, ev.StepStarted(step="COMBAT"), False)


def trn_5(legal: bool) -> tuple[list[Any], int]:
    w = to_end(to_action(writer())).passes().auto(1)
    return _one(w, ev.StepStarted(step="FINAL"), ev.TurnEnded(turn=1), legal)


def pri_1(legal: bool) -> tuple[list[Any], int]:
    w = end_turn(to_end(to_action(writer()))).auto().passes().auto(4).passes().auto(1)
    return _one(w, ev.PhaseStarted(phase="ACTION"), ev.PriorityWindowOpened(), legal)


def pri_2(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto().passes().auto(1)
    link = ev.LinkAdded(player="p1", link="l1", card="c1")
    if legal:
        w.auto(2)
    return _one(w, link, link, legal)


def pri_3(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto().passes().auto(2)
    w.add(ev.AbilityTriggered(trigger="t1", player="p2", when="PHASE_START"))
    w.add(ev.PriorityWindowOpened())
    if legal:
        w.add(ev.TriggerAdded(trigger="t1"))
    return _one(w, ev.PriorityPassed(player="p1"), ev.PriorityPassed(player="p1"), legal)


def pri_4(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto()
    return _one(w, ev.PriorityPassed(player="p1"), ev.PriorityPassed(player="p2"), legal)


def pri_5(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto().passes(1)
    if legal:
        w.passes(1)
    return _one(w, ev.PriorityWindowClosed(), ev.PriorityWindowClosed(), legal)


def trg_1(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto().passes().auto(2)
    trigger = ev.AbilityTriggered(trigger="t1", player="p1", when="PHASE_START")
    if not legal:
        w.add(ev.PriorityWindowOpened())
    return _one(w, trigger, trigger, legal)


def trg_2(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto().passes().auto(2)
    w.add(ev.AbilityTriggered(trigger="t1", player="p1", when="PHASE_START"))
    if legal:
        w.add(ev.PriorityWindowOpened())
    return _one(w, ev.TriggerAdded(trigger="t1"), ev.TriggerAdded(trigger="t1"), legal)


def trg_3(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer())
    if legal:
        w.passes().auto(2)
    trigger = ev.AbilityTriggered(trigger="t1", player="p1", when="END_OF_TURN")
    return _one(w, trigger, trigger, legal)


def trg_4(legal: bool) -> tuple[list[Any], int]:
    w = to_end(to_action(writer())).passes().auto(2)
    w.add(ev.AbilityTriggered(trigger="t1", player="p1", when="OTHER")).until("BETWEEN")
    w.auto(5)
    return _one(w, ev.TriggerAdded(trigger="t1"), ev.PriorityPassed(player="p2"), legal)


def xtn_1(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer()).add(ev.ExtraTurnCreated(player="p1", by="x1"))
    end_turn(to_end(w))
    good = ev.TurnStarted(turn=2, player="p1", extra=True)
    return _one(w, good, ev.TurnStarted(turn=2, player="p2"), legal)


def xtn_2(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer()).add(ev.ExtraTurnCreated(player="p2"), ev.ExtraTurnCreated(player="p1"))
    end_turn(to_end(w))
    good = ev.TurnStarted(turn=2, player="p2", extra=True)
    return _one(w, good, ev.TurnStarted(turn=2, player="p1", extra=True), legal)


def xtn_3(legal: bool) -> tuple[list[Any], int]:
    skip = ev.ModifierCreated(id="m1", kind="SKIP_NEXT_TURN", player="p2")
    w = end_turn(to_end(to_action(writer()).add(skip)))
    return _one(w, ev.TurnSkipped(player="p2", by="m1"), ev.TurnStarted(turn=2, player="p2"), legal)


def xtn_4(legal: bool) -> tuple[list[Any], int]:
    skips = [ev.ModifierCreated(id=m, kind="SKIP_NEXT_TURN", player="p2") for m in ("m1", "m2")]
    w = end_turn(to_end(to_action(writer(hands=(3, 3))).add(*skips)))
    w.add(ev.TurnSkipped(player="p2", by="m1"))
    end_turn(to_end(to_action(w)))
    return _one(w, ev.TurnSkipped(player="p2", by="m2"), ev.TurnStarted(turn=3, player="p2"), legal)


TIRED = (
    HERO1,
    HERO2,
    ev.CardSpec(id="a1", controller="p1", kind="ally", exhausted=True),
    ev.CardSpec(id="a2", controller="p1", kind="ally", exhausted=True),
)


def sta_1(legal: bool) -> tuple[list[Any], int]:
    w = writer(cards=TIRED).auto(3)
    good = ev.CardsReadied(player="p1", cards=("a1", "a2"))
    return _one(w, good, ev.CardsReadied(player="p1", cards=("a1",)), legal)


KALDEL = (
    HERO1,
    HERO2,
    ev.CardSpec(id="k1", controller="p1", kind="ally", exhausted=True, inspire="ally"),
    ev.CardSpec(id="k2", controller="p1", kind="ally", exhausted=True, inspire="ally"),
    ev.CardSpec(id="a3", controller="p1", kind="ally", exhausted=True),
)


def sta_2(legal: bool) -> tuple[list[Any], int]:
    """The seed's own example (scenario S2): all exhausted as p1 ended his turn, two Kaldels
    ready up to two allies in p2's ready step."""
    w = to_action(writer(cards=KALDEL)).add(ev.CardsExhausted(cards=("k1", "k2", "a3")))
    end_turn(to_end(w)).auto(4)
    good = ev.InspireReadied(player="p1", cards=("k1", "a3"), sources=("k1", "k2"))
    bad = ev.InspireReadied(player="p1", cards=("k1", "k2", "a3"), sources=("k1", "k2"))
    return _one(w, good, bad, legal)


def sta_3(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto(4)
    if not legal:
        w.auto().passes().auto()
    made = ev.ModifierCreated(id="m1", kind="WHEN_TURN_BEGINS", duration="UNTIL_END_OF_TURN")
    return _one(w, made, made, legal)


def sta_4(legal: bool) -> tuple[list[Any], int]:
    w = writer(cards=TIRED).auto(3)
    if legal:
        w.add(ev.CardsReadied(player="p1", cards=("a1", "a2")))
    return _one(w, ev.PriorityWindowOpened(), ev.PriorityWindowOpened(), legal)


def sta_5(legal: bool) -> tuple[list[Any], int]:
    w = end_turn(to_end(to_action(writer()))).auto(4)
    return _one(w, ev.PriorityWindowOpened(), ev.StepStarted(step="DRAW"), legal)


def sta_6(legal: bool) -> tuple[list[Any], int]:
    w = end_turn(to_end(to_action(writer()))).auto().passes().auto(1)
    return _one(w, ev.StepStarted(step="DRAW"), ev.PriorityWindowOpened(), legal)


def sta_7(legal: bool) -> tuple[list[Any], int]:
    w = end_turn(to_end(to_action(writer()))).auto().passes().auto(2)
    return _one(w, ev.CardDrawn(player="p2", card="c9"), ev.PriorityWindowOpened(), legal)


def sta_8(legal: bool) -> tuple[list[Any], int]:
    w = end_turn(to_end(to_action(writer()))).auto().passes().auto(3)
    return _one(w, ev.PriorityWindowOpened(), ev.PhaseStarted(phase="ACTION"), legal)


def sta_9(legal: bool) -> tuple[list[Any], int]:
    """Scenario S1: the first player does not draw in his first turn."""
    w = writer().auto().passes().auto(1)
    return _one(w, ev.PhaseStarted(phase="ACTION"), ev.StepStarted(step="DRAW"), legal)


def act_1(legal: bool) -> tuple[list[Any], int]:
    w = writer().auto().passes().auto(2)
    if legal:
        w.auto(1)
    placed = ev.ResourcePlaced(player="p1", card="r1")
    return _one(w, placed, placed, legal)


def act_2(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer())
    if not legal:
        w.add(ev.LinkAdded(player="p1", link="l0", card="c0"))
    card = ev.LinkAdded(player="p1", link="l1", card="c1", instant=False)
    return _one(w, card, card, legal)


def act_3(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer()).add(ev.ResourcePlaced(player="p1", card="r1"))
    good = ev.LinkAdded(player="p1", link="l1", card="c1", instant=False)
    return _one(w, good, ev.ResourcePlaced(player="p1", card="r2"), legal)


def act_4(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer()).passes(1)
    good = ev.PriorityPassed(player="p2")
    return _one(w, good, ev.CombatDeclared(player="p2", attacker="h2", target="h1"), legal)


def act_5(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer()).passes()
    return _one(w, ev.PriorityWindowClosed(), ev.ResourcePlaced(player="p1", card="r1"), legal)


def end_1(legal: bool) -> tuple[list[Any], int]:
    w = to_action(writer()).passes().auto(2)
    return _one(w, ev.PriorityWindowOpened(), ev.StepStarted(step="FINAL"), legal)


def end_2(legal: bool) -> tuple[list[Any], int]:
    w = to_end(to_action(writer()))
    if not legal:
        w.passes().auto(2)
    link = ev.LinkAdded(player="p1", link="l1", card="c1")
    return _one(w, link, link, legal)


def _final_with_nine(w: Any) -> Any:
    to_action(w).add(ev.ModifierCreated(id="m1", duration="UNTIL_END_OF_TURN"))
    return to_end(w).passes().auto(2)


def end_3(legal: bool) -> tuple[list[Any], int]:
    w = _final_with_nine(writer(hands=(9, 7)))
    good = ev.HandLimitDiscarded(player="p1", cards=("x1", "x2"))
    return _one(w, good, ev.ModifiersExpired(modifiers=("m1",)), legal)


def end_4(legal: bool) -> tuple[list[Any], int]:
    """Scenario S3: nine cards, a hand size of seven: two are discarded, not one."""
    w = _final_with_nine(writer(hands=(9, 7)))
    good = ev.HandLimitDiscarded(player="p1", cards=("x1", "x2"))
    return _one(w, good, ev.HandLimitDiscarded(player="p1", cards=("x1",)), legal)


def end_5(legal: bool) -> tuple[list[Any], int]:
    w = _final_with_nine(writer())
    return _one(w, ev.ModifiersExpired(modifiers=("m1",)), ev.TurnEnded(turn=1), legal)


def end_6(legal: bool) -> tuple[list[Any], int]:
    w = end_turn(to_end(to_action(writer())))
    return _one(w, ev.TurnStarted(turn=2, player="p2"), ev.TurnStarted(turn=2, player="p1"), legal)


CASES: dict[str, tuple[Case, str | None]] = {
    "WOW-TRN-1": (trn_1, None),
    "WOW-TRN-2": (trn_2, None),
    "WOW-TRN-3": (trn_3, None),
    "WOW-TRN-4": (trn_4, None),
    "WOW-TRN-5": (trn_5, None),
    "WOW-PRI-1": (pri_1, None),
    "WOW-PRI-2": (pri_2, None),
    "WOW-PRI-3": (pri_3, None),
    "WOW-PRI-4": (pri_4, None),
    "WOW-PRI-5": (pri_5, None),
    "WOW-TRG-1": (trg_1, None),
    "WOW-TRG-2": (trg_2, None),
    "WOW-TRG-3": (trg_3, None),
    "WOW-TRG-4": (trg_4, None),
    "WOW-XTN-1": (xtn_1, None),
    "WOW-XTN-2": (xtn_2, "extra_turn_order"),
    "WOW-XTN-3": (xtn_3, None),
    "WOW-XTN-4": (xtn_4, None),
    "WOW-STA-1": (sta_1, None),
    "WOW-STA-2": (sta_2, None),
    "WOW-STA-3": (sta_3, None),
    "WOW-STA-4": (sta_4, None),
    "WOW-STA-5": (sta_5, None),
    "WOW-STA-6": (sta_6, None),
    "WOW-STA-7": (sta_7, None),
    "WOW-STA-8": (sta_8, None),
    "WOW-STA-9": (sta_9, "first_turn_draw_step"),
    "WOW-ACT-1": (act_1, None),
    "WOW-ACT-2": (act_2, None),
    "WOW-ACT-3": (act_3, "resources_per_turn"),
    "WOW-ACT-4": (act_4, None),
    "WOW-ACT-5": (act_5, None),
    "WOW-END-1": (end_1, None),
    "WOW-END-2": (end_2, None),
    "WOW-END-3": (end_3, None),
    "WOW-END-4": (end_4, None),
    "WOW-END-5": (end_5, None),
    "WOW-END-6": (end_6, None),
}
"""Each enforceable rule: its case and the flag its breaking verdict names."""
