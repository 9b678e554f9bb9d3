"""Writes the WoW TCG sample matches and ``expected.json`` (file -> the [rule id, seq] each
illegal sample must be cited for, where its one bad event was put).

    python samples/wowtcg/build.py

The legal samples play several turns each (an extra turn, skipped turns, responses on the
chain, triggers at a phase start, the hand limit at the end of a turn, Inspire); each illegal
one is a legal match with one event changed, and the seq of that event is what it expects.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.generate import Writer, records
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.io.logfile import read_log, write_log

HERE = Path(__file__).parent
HEROES = (
    ev.CardSpec(id="thrall", controller="ana", kind="hero"),
    ev.CardSpec(id="jaina", controller="budi", kind="hero"),
)
KALDELS = (
    ev.CardSpec(id="kaldel-1", controller="ana", kind="ally", inspire="ally"),
    ev.CardSpec(id="kaldel-2", controller="ana", kind="ally", inspire="ally"),
    ev.CardSpec(id="footman", controller="ana", kind="ally"),
)


def match(hands: tuple[int, int] = (7, 7), cards: tuple[ev.CardSpec, ...] = HEROES) -> Writer:
    start = ev.MatchStarted(
        players=("ana", "budi"), hands=hands, decks=(30, 30), cards=cards, ruleset=WowRuleset()
    )
    return Writer(start)


def to_action(w: Writer) -> Writer:
    for _ in range(6):
        w.auto()
        if w.board.phase == "ACTION" and w.board.at == "WINDOW":
            return w
        w.passes()
    raise AssertionError(w.board.at)


def close_turn(w: Writer) -> Writer:
    """Everyone passes in the action phase and in the end phase; the turn ends."""
    return w.passes().auto().passes().until("BETWEEN")


def quiet_turn(w: Writer) -> Writer:
    return close_turn(to_action(w))


def combat_match(bad: str = "") -> tuple[Writer, int]:
    """Turn 1: ana places a resource and plays an ally, budi answers on the chain; turn 2: budi
    draws, declares combat, a response resolves."""
    w = to_action(match())
    mark = 0
    w.add(ev.ResourcePlaced(player="ana", card="ana-res-1"))
    if bad == "second-resource":
        w.add(ev.ResourcePlaced(player="ana", card="ana-res-2"))
        mark = len(w.events)
    ally = ev.CardSpec(id="grunt", controller="ana", kind="ally")
    w.add(ev.LinkAdded(player="ana", link="l1", card="grunt", instant=False))
    w.add(ev.PriorityPassed(player="ana"))
    w.add(ev.LinkAdded(player="budi", link="l2", card="frostbolt", targets=("thrall",)))
    if bad == "pass-out-of-turn":
        w.add(ev.PriorityPassed(player="ana"))
        mark = len(w.events)
        w.add(ev.PriorityPassed(player="ana"))
    else:
        w.passes()
    w.add(ev.LinkResolved(link="l2", effects=("frostbolt deals 3 damage to thrall",)))
    w.passes().add(ev.LinkResolved(link="l1", enters_play=(ally,)))
    close_turn(w)
    to_action(w).add(ev.CombatDeclared(player="budi", attacker="jaina", target="thrall"))
    w.auto(1).add(ev.CombatStepEnded())
    if bad == "noninstant-response":
        w.add(ev.LinkAdded(player="budi", link="l3", card="fireball"))
        w.add(ev.LinkAdded(player="budi", link="l4", card="water-elemental", instant=False))
        mark = len(w.events)
        return w, mark
    close_turn(w)
    return w, mark


def extra_match(bad: str = "") -> tuple[Writer, int]:
    """Ana's first turn gives her an extra turn; then budi's turn."""
    w = to_action(match())
    w.add(ev.LinkAdded(player="ana", link="l1", card="time-warp", instant=False))
    w.passes().add(ev.LinkResolved(link="l1", effects=("ana takes an extra turn",)))
    w.add(ev.ExtraTurnCreated(player="ana", by="time-warp"))
    close_turn(w)
    mark = 0
    if bad == "extra-ignored":
        w.add(ev.TurnStarted(turn=2, player="budi"))
        return w, len(w.events)
    quiet_turn(w)
    quiet_turn(w)
    return w, mark


def skip_match(bad: str = "") -> tuple[Writer, int]:
    """Two modifiers each skip budi's next turn: he skips his next two turns."""
    w = to_action(match(hands=(4, 4)))
    w.add(ev.LinkAdded(player="ana", link="l1", card="hex", instant=False))
    w.passes().add(ev.LinkResolved(link="l1"))
    w.add(ev.ModifierCreated(id="hex-1", source="hex", kind="SKIP_NEXT_TURN", player="budi"))
    w.add(ev.ModifierCreated(id="hex-2", source="hex", kind="SKIP_NEXT_TURN", player="budi"))
    close_turn(w)
    if bad == "skip-ignored":
        w.add(ev.TurnStarted(turn=2, player="budi"))
        return w, len(w.events)
    for _ in range(3):
        quiet_turn(w)
    return w, 0


def trigger_match(bad: str = "") -> tuple[Writer, int]:
    """Triggers at the start of the action phase and at the end of the turn, added when the
    windows open; an effect that triggers in the final step waits for the next ready step."""
    w = match()
    w.auto().passes().auto(2)
    mark = 0
    if bad == "late-trigger":
        w.add(ev.PriorityWindowOpened())
        w.add(ev.AbilityTriggered(trigger="t1", player="ana", card="thrall", when="PHASE_START"))
        mark = len(w.events)
        w.add(ev.TriggerAdded(trigger="t1"))
    else:
        w.add(ev.AbilityTriggered(trigger="t1", player="ana", card="thrall", when="PHASE_START"))
        w.auto()
    w.passes().add(ev.LinkResolved(link="t1")).passes().auto(2)
    w.add(ev.AbilityTriggered(trigger="t2", player="budi", card="jaina", when="END_OF_TURN"))
    w.auto().passes().add(ev.LinkResolved(link="t2")).passes().auto(2)
    if bad == "link-in-final-step":
        w.add(ev.LinkAdded(player="ana", link="l9", card="counterspell"))
        return w, len(w.events)
    w.add(ev.AbilityTriggered(trigger="t3", player="ana", card="thrall", when="OTHER"))
    w.until("BETWEEN").auto()
    w.passes().add(ev.LinkResolved(link="t3"))
    close_turn(to_action(w))
    return w, mark


def hand_match(bad: str = "") -> tuple[Writer, int]:
    """Ana ends her first turn with nine cards (ten, one played) and an until-end-of-turn
    modifier: she discards two; in budi's ready step her two Kaldels ready two of her
    exhausted allies (the seed's example)."""
    w = to_action(match(hands=(10, 7), cards=HEROES + KALDELS))
    w.add(ev.LinkAdded(player="ana", link="l1", card="bloodlust", instant=False))
    w.passes().add(ev.LinkResolved(link="l1"))
    w.add(ev.ModifierCreated(id="bloodlust", duration="UNTIL_END_OF_TURN"))
    w.add(ev.CardsExhausted(cards=("kaldel-1", "kaldel-2", "footman")))
    w.passes().auto().passes().auto()
    mark = 0
    if bad == "hand-limit":
        w.add(ev.HandLimitDiscarded(player="ana", cards=("c1",)))
        return w, len(w.events)
    w.add(ev.HandLimitDiscarded(player="ana", cards=("c1", "c2")))
    w.until("BETWEEN").auto(4)
    three = bad == "inspire-three"
    cards = ("kaldel-1", "kaldel-2", "footman") if three else ("kaldel-1", "footman")
    w.add(ev.InspireReadied(player="ana", cards=cards, sources=("kaldel-1", "kaldel-2")))
    if three:
        return w, len(w.events)
    quiet_turn(w)
    return w, mark


def first_draw_match() -> tuple[Writer, int]:
    w = match().auto().passes().auto(1)
    w.add(ev.StepStarted(step="DRAW"))
    return w, len(w.events)


SAMPLES: dict[str, Callable[[], tuple[Writer, int]]] = {
    "combat-and-responses.jsonl": combat_match,
    "extra-turn.jsonl": extra_match,
    "skipped-turns.jsonl": skip_match,
    "phase-triggers.jsonl": trigger_match,
    "hand-limit-and-inspire.jsonl": hand_match,
    "illegal-first-turn-draw.jsonl": first_draw_match,
    "illegal-second-resource.jsonl": lambda: combat_match("second-resource"),
    "illegal-pass-out-of-turn.jsonl": lambda: combat_match("pass-out-of-turn"),
    "illegal-noninstant-response.jsonl": lambda: combat_match("noninstant-response"),
    "illegal-extra-turn-ignored.jsonl": lambda: extra_match("extra-ignored"),
    "illegal-skip-ignored.jsonl": lambda: skip_match("skip-ignored"),
    "illegal-late-trigger.jsonl": lambda: trigger_match("late-trigger"),
    "illegal-link-in-final-step.jsonl": lambda: trigger_match("link-in-final-step"),
    "illegal-hand-limit.jsonl": lambda: hand_match("hand-limit"),
    "illegal-inspire-three.jsonl": lambda: hand_match("inspire-three"),
}

RULE_OF: dict[str, str] = {
    "illegal-first-turn-draw.jsonl": "WOW-STA-9",
    "illegal-second-resource.jsonl": "WOW-ACT-3",
    "illegal-pass-out-of-turn.jsonl": "WOW-PRI-4",
    "illegal-noninstant-response.jsonl": "WOW-ACT-2",
    "illegal-extra-turn-ignored.jsonl": "WOW-XTN-1",
    "illegal-skip-ignored.jsonl": "WOW-XTN-3",
    "illegal-late-trigger.jsonl": "WOW-TRG-1",
    "illegal-link-in-final-step.jsonl": "WOW-END-2",
    "illegal-hand-limit.jsonl": "WOW-END-4",
    "illegal-inspire-three.jsonl": "WOW-STA-2",
}
"""The rule each illegal sample's one bad event breaks."""


def write(name: str, w: Writer) -> None:
    header: dict[str, Any] = {
        "format": "vwlog",
        "version": 1,
        "game": "wowtcg",
        "match_id": name.removesuffix(".jsonl"),
        "generator": "samples/wowtcg/build.py",
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps(r, ensure_ascii=False) for r in records(w.events)]
    path = HERE / name
    path.write_text("\n".join(lines) + "\n", "utf-8")
    # then in the canonical form vwlog writes (sorted keys, no spaces), as every sample is
    write_log(path, *read_log(path))


def main() -> None:
    expected: dict[str, list[list[Any]]] = {}
    for name, build in SAMPLES.items():
        w, mark = build()
        write(name, w)
        expected[name] = [[RULE_OF[name], mark]] if name in RULE_OF else []
    text = json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    (HERE / "expected.json").write_text(text, "utf-8")


if __name__ == "__main__":
    main()
