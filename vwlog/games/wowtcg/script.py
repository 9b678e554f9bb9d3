"""What the turn's script demands next (`owed`): the consequences owed now, or whose decision
of which kind, with the rule that demands it and the flag its answer rests on.

The script of a turn (seed 500-503): ``turn_started`` -> ``phase_started(START)`` ->
``step_started(READY)`` -> ``cards_readied`` -> window -> ``step_started(DRAW)`` ->
``card_drawn`` -> window -> ``phase_started(ACTION)`` -> window (combat steps inside) ->
``phase_started(END)`` -> window -> ``step_started(FINAL)`` -> discard -> ``modifiers_expired``
-> ``turn_ended``; a window is ``priority_window_opened``, pending triggers added, passes and
links, ``priority_window_closed``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.events import (
    CardDrawn,
    CardsReadied,
    CombatStepEnded,
    LinkResolved,
    ModifiersExpired,
    PhaseStarted,
    PlayerLost,
    PriorityWindowClosed,
    PriorityWindowOpened,
    StepStarted,
    TriggerAdded,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.model.expect import Expect

__all__ = ["NextTurn", "Owed", "expect", "first_turn", "next_turn", "owed"]


class Owed(NamedTuple):
    """What the rules await: consequences (any of them may come next), or a decision by
    ``player`` of ``kind``; the rule demanding it and the flag the demand rests on."""

    consequences: tuple[Any, ...] = ()
    player: str | None = None
    kind: str | None = None
    rule: str = ""
    flag: str | None = None


class NextTurn(NamedTuple):
    """The turn due after the current one: whose, whether extra, whether it is skipped."""

    player: str
    extra: bool
    skipped: bool


def next_turn(rs: WowRuleset, s: Board) -> NextTurn:
    """The next turn: the first extra turn queued (WOW-XTN-1), else the next player clockwise
    (WOW-TRN-1, WOW-END-6); skipped when its player owes a skip (WOW-XTN-3/4)."""
    if s.queue:
        player, extra = s.queue[0], True
    else:
        player = s.after(s.rotation) if s.rotation is not None else s.players[0]
        extra = False
    i = s.seat(player)
    owes = i >= 0 and s.skips[i] > 0
    skipped = owes and (not extra or rs.skip_consumes_extra_turn == "YES")
    return NextTurn(player, extra, skipped)


def first_turn(s: Board) -> bool:
    """Whether this is the first player's first turn (WOW-STA-9)."""
    return s.turn == 1


def _between(rs: WowRuleset, s: Board) -> Owed:
    nxt = next_turn(rs, s)
    if nxt.skipped:
        flag = "skip_consumes_extra_turn" if nxt.extra else None
        rule = "WOW-XTN-4" if nxt.player in s.skipped_run else "WOW-XTN-3"
        return Owed((TurnSkipped(player=nxt.player),), rule=rule, flag=flag)
    started = TurnStarted(turn=s.turn + 1, player=nxt.player, extra=nxt.extra)
    if nxt.extra:
        return Owed((started,), rule="WOW-XTN-1")
    return Owed((started,), rule="WOW-TRN-1" if s.turn == 0 else "WOW-END-6")


def _ready(rs: WowRuleset, s: Board) -> Owed:
    if s.carried and rs.final_step_triggers_added == "AT_READY_STEP_START":
        added = tuple(TriggerAdded(trigger=t.id) for t in s.carried)
        return Owed(added, rule="WOW-TRG-4", flag="final_step_triggers_added")
    mine = sorted(c.id for c in s.cards if c.controller == s.current and c.exhausted)
    return Owed((CardsReadied(player=s.current or "?", cards=tuple(mine)),), rule="WOW-STA-1")


def _draw(rs: WowRuleset, s: Board) -> Owed:
    if first_turn(s):
        return Owed((PriorityWindowOpened(),), rule="WOW-STA-9", flag="first_turn_draw_step")
    if s.decks[s.seat(s.current)] == 0:
        if rs.empty_deck_draw == "LOSES":
            lost = PlayerLost(player=s.current or "?")
            return Owed((lost,), rule="WOW-STA-7", flag="empty_deck_draw")
        return Owed((PriorityWindowOpened(),), rule="WOW-STA-7", flag="empty_deck_draw")
    return Owed((CardDrawn(player=s.current or "?"),), rule="WOW-STA-7")


def _window(rs: WowRuleset, s: Board) -> Owed:
    if s.pending:
        rule = "WOW-TRG-4" if any(t.when == "FINAL" for t in s.pending) else "WOW-PRI-3"
        if s.holder is not None:
            rule = "WOW-TRG-2"
        return Owed(tuple(TriggerAdded(trigger=t.id) for t in s.pending), rule=rule)
    if s.resolving and s.chain:
        link = LinkResolved(link=s.chain[-1].id)
        return Owed((link,), rule="WOW-PRI-5", flag="chain_resolution")
    if s.passes >= len(s.players) and not s.chain:
        rule = "WOW-ACT-5" if s.phase == "ACTION" and s.step != "COMBAT" else "WOW-PRI-5"
        return Owed((PriorityWindowClosed(),), rule=rule)
    return Owed(player=s.holder, kind="priority", rule="WOW-PRI-4")


def _combat(rs: WowRuleset, s: Board) -> Owed:
    if rs.combat_model == "TWO_WINDOWS" and s.combat_windows < 2:
        return Owed((PriorityWindowOpened(),), rule="WOW-TRN-4", flag="combat_model")
    return Owed((CombatStepEnded(),), rule="WOW-TRN-4", flag="combat_model")


def _final(rs: WowRuleset, s: Board) -> Owed:
    if not s.discarded and s.hand(s.current) > s.max_hand(s.current):
        return Owed(player=s.current, kind="discard", rule="WOW-END-4")
    expiring = s.until_end_of_turn()
    if expiring:
        return Owed((ModifiersExpired(modifiers=tuple(sorted(expiring))),), rule="WOW-END-5")
    return Owed((TurnEnded(turn=s.turn),), rule="WOW-END-6")


_FIXED: dict[str, Owed] = {
    "TURN": Owed((PhaseStarted(phase="START"),), rule="WOW-TRN-2"),
    "START": Owed((StepStarted(step="READY"),), rule="WOW-TRN-3"),
    "READIED": Owed((PriorityWindowOpened(),), rule="WOW-STA-5"),
    "DRAWN": Owed((PriorityWindowOpened(),), rule="WOW-STA-8"),
    "START_DONE": Owed((PhaseStarted(phase="ACTION"),), rule="WOW-STA-8"),
    "ACTION": Owed((PriorityWindowOpened(),), rule="WOW-ACT-1"),
    "COMBAT_DECLARED": Owed((StepStarted(step="COMBAT"),), rule="WOW-ACT-4"),
    "ACTION_DONE": Owed(
        (PhaseStarted(phase="END"),), rule="WOW-ACT-5", flag="action_phase_all_pass"
    ),
    "END": Owed((PriorityWindowOpened(),), rule="WOW-END-1"),
    "END_DONE": Owed((StepStarted(step="FINAL"),), rule="WOW-TRN-5"),
}


def owed(rs: WowRuleset, s: Board) -> Owed:
    """What the rules await on board ``s``."""
    if not s.started:
        return Owed(kind="start", rule="CORE-LOG-1")
    if s.winner is not None or s.at in ("OVER", "UNJUDGED"):
        return Owed(rule="CORE-LOG-2" if s.at == "OVER" else "WOW-ACT-5")
    fixed = _FIXED.get(s.at)
    if fixed is not None:
        return fixed
    if s.at == "READY_DONE":
        if first_turn(s) and rs.first_turn_draw_step == "STEP_SKIPPED":
            return Owed(
                (PhaseStarted(phase="ACTION"),), rule="WOW-STA-9", flag="first_turn_draw_step"
            )
        return Owed((StepStarted(step="DRAW"),), rule="WOW-TRN-3")
    dispatch = {
        "BETWEEN": _between,
        "READY": _ready,
        "DRAW": _draw,
        "WINDOW": _window,
        "COMBAT": _combat,
        "FINAL": _final,
    }
    return dispatch[s.at](rs, s) if s.at in dispatch else Owed(rule="CORE-LOG-2")


def expect(rs: WowRuleset, s: Board) -> Expect:
    """`owed` as the replay loop reads it."""
    o = owed(rs, s)
    return Expect(o.consequences, o.player, o.kind, o.rule)
