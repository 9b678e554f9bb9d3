"""Judging one event against the board: the rules it breaks, the most specific id first, each
naming the flag its verdict rests on. Never raises.

Consequences the script demands (`vwlog.games.wowtcg.script`) are compared with what the
script owes; decisions are judged by who may take them where (`vwlog.games.wowtcg.decide`);
claims (triggers, modifiers, extra turns, exhaustion) by when the seed lets them happen.
"""

from __future__ import annotations

from typing import Any

from vwlog.events.core import MatchForked
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.decide import judge_decision
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.games.wowtcg.script import Owed, first_turn, owed
from vwlog.games.wowtcg.words import wrong
from vwlog.model.expect import Expect
from vwlog.model.text import msg
from vwlog.model.violation import Violation

__all__ = ["judge", "same"]

_CLAIMS = (ev.ModifierCreated, ev.AbilityTriggered, ev.ExtraTurnCreated, ev.CardsExhausted)


def same(a: Any, b: Any) -> bool:
    """Whether ``b`` is the consequence ``a`` (lists compared as sets; ``by`` and the drawn
    card are the log's to name)."""
    if type(a) is not type(b):
        return False
    left = a.model_dump(exclude={"by", "card", "effects", "enters_play"})
    right = b.model_dump(exclude={"by", "card", "effects", "enters_play"})
    for key in ("cards", "modifiers"):
        if key in left:
            left[key], right[key] = sorted(left[key]), sorted(right[key])
    return bool(left == right)


def _start(s: Board, e: Any) -> tuple[Violation, ...]:
    if not isinstance(e, ev.MatchStarted):
        return (wrong("CORE-LOG-1", "a match begins with match_started"),)
    n = len(e.players)
    if len(set(e.players)) != n:
        return (wrong("CORE-ID-1", "a player sits at the match twice"),)
    if len(e.hands) != n or len(e.decks) != n:
        return (wrong("CORE-LOG-1", "match_started gives hand and deck sizes for each player"),)
    unknown = [c.controller for c in e.cards if c.controller not in e.players]
    if unknown:
        return (wrong("CORE-ID-1", "unknown player {player!r}", player=unknown[0]),)
    return ()


def _players_known(s: Board, e: Any) -> tuple[Violation, ...]:
    player = getattr(e, "player", None)
    if player is not None and player not in s.players:
        return (wrong("CORE-ID-1", "unknown player {player!r}", player=player),)
    return ()


def _claim(rs: WowRuleset, s: Board, e: Any) -> tuple[Violation, ...]:
    if s.at == "BETWEEN" and not isinstance(e, ev.ModifierCreated):
        return (wrong("WOW-PRI-1", "{type} between turns", type=e.type),)
    if isinstance(e, ev.AbilityTriggered):
        return _triggered(rs, s, e)
    if isinstance(e, ev.ModifierCreated) and e.kind == "WHEN_TURN_BEGINS":
        if s.at not in ("READY", "READIED"):
            return (
                wrong(
                    "WOW-STA-3",
                    "a modifier created when the turn begins is created as the cards are readied",
                ),
            )
    if isinstance(e, ev.CardsExhausted):
        missing = [c for c in e.cards if s.card(c) is None]
        if missing:
            return (wrong("CORE-ID-2", "card {card!r} is not in play", card=missing[0]),)
    return ()


_MOMENT = {
    "TURN_START": msg("the turn"),
    "PHASE_START": msg("a phase"),
    "STEP_START": msg("a step"),
    "END_OF_TURN": msg("the end phase"),
}


def _triggered(rs: WowRuleset, s: Board, e: ev.AbilityTriggered) -> tuple[Violation, ...]:
    if e.when == "OTHER" or e.when in s.moments:
        return ()
    rule = "WOW-TRG-3" if e.when == "END_OF_TURN" else "WOW-TRG-1"
    return (
        wrong(
            rule,
            "{trigger} triggers at the beginning of {moment}, which is past",
            trigger=e.trigger,
            moment=_MOMENT[e.when],
        ),
    )


def _gap_rule(s: Board) -> str:
    """The most specific rule saying no window is open where the board stands."""
    if s.at in ("START", "READY_DONE", "TURN") and s.phase is not None:
        return "WOW-STA-6"
    if s.at in ("READY", "READIED"):
        return "WOW-STA-4"
    if s.at == "FINAL":
        return "WOW-END-2"
    return "WOW-PRI-1"


def _consequence(rs: WowRuleset, s: Board, o: Owed, e: Any) -> tuple[Violation, ...]:
    if any(same(c, e) for c in o.consequences):
        return _fits(rs, s, e)
    rule, flag = _specific(rs, s, o, e)
    said = ", ".join(c.type for c in o.consequences) or (
        f"{o.kind} by {o.player}" if o.kind else "nothing"
    )
    v = wrong(rule, "{type} out of order: the rules demand {owed}", type=e.type, owed=said)
    return (v.located(flag=flag, expected=_said(o), actual=_text(e)),)


def _fits(rs: WowRuleset, s: Board, e: Any) -> tuple[Violation, ...]:
    if isinstance(e, ev.LinkResolved):
        unknown = [c.controller for c in e.enters_play if c.controller not in s.players]
        if unknown:
            return (wrong("CORE-ID-1", "unknown player {player!r}", player=unknown[0]),)
    return ()


def _said(o: Owed) -> str:
    if o.consequences:
        return " | ".join(_text(c) for c in o.consequences)
    return f"{o.kind} by {o.player}" if o.kind else "nothing"


def _text(e: Any) -> str:
    fields = e.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
    kind = fields.pop("type", "?")
    return f"{kind} " + " ".join(f"{k}={v!r}" for k, v in fields.items())


def _specific(rs: WowRuleset, s: Board, o: Owed, e: Any) -> tuple[str, str | None]:
    """The most specific rule an unexpected consequence breaks, and its flag."""
    if isinstance(e, ev.CardDrawn) and first_turn(s) and s.current == s.players[0]:
        return "WOW-STA-9", None
    if isinstance(e, ev.StepStarted) and e.step == "DRAW" and first_turn(s):
        return "WOW-STA-9", "first_turn_draw_step"
    if isinstance(e, ev.StepStarted) and e.step == "COMBAT":
        return ("WOW-ACT-4" if s.phase == "ACTION" else "WOW-TRN-4"), None
    if isinstance(e, ev.PriorityWindowOpened | ev.TriggerAdded) and s.at == "FINAL":
        return "WOW-END-2", None
    if isinstance(e, ev.PriorityWindowOpened) and not o.consequences and s.at == "WINDOW":
        return o.rule, o.flag
    if isinstance(e, ev.PriorityWindowOpened) and s.at in ("START", "READY_DONE", "TURN"):
        return ("WOW-STA-6" if s.at != "TURN" else "WOW-PRI-1"), None
    if isinstance(e, ev.PriorityWindowOpened) and s.at in ("BETWEEN", "START_DONE", "ACTION_DONE"):
        return "WOW-PRI-1", None
    if isinstance(e, ev.PriorityWindowOpened) and s.at == "READY":
        return "WOW-STA-4", None
    if isinstance(e, ev.PriorityWindowClosed) and s.at == "WINDOW":
        return ("WOW-ACT-5" if s.phase == "ACTION" and s.step != "COMBAT" else "WOW-PRI-5"), None
    if isinstance(e, ev.LinkResolved):
        return "WOW-PRI-5", "chain_resolution"
    if isinstance(e, ev.TriggerAdded) and any(
        t.id == e.trigger and t.when == "FINAL" for t in s.pending
    ):
        return "WOW-TRG-2", "final_step_triggers_added"
    if isinstance(e, ev.TriggerAdded) and e.trigger in s.dropped:
        return "WOW-TRG-2", "start_triggers_wait_for"
    if isinstance(e, ev.TriggerAdded):
        return ("WOW-TRG-4", o.flag) if o.rule == "WOW-TRG-4" else ("WOW-TRG-2", None)
    if isinstance(e, ev.StepStarted) and e.step == "FINAL" and s.phase != "END":
        return "WOW-TRN-5", None
    if isinstance(e, ev.ModifiersExpired) and o.kind == "discard":
        return "WOW-END-3", None
    if isinstance(e, ev.TurnStarted | ev.TurnSkipped) and s.at == "BETWEEN":
        return _turn_rule(rs, s, o, e)
    return o.rule, o.flag


def _turn_rule(rs: WowRuleset, s: Board, o: Owed, e: Any) -> tuple[str, str | None]:
    due = o.consequences[0] if o.consequences else None
    if isinstance(due, ev.TurnStarted) and due.extra:
        if isinstance(e, ev.TurnStarted) and e.extra and e.player in s.queue:
            return "WOW-XTN-2", "extra_turn_order"
        if isinstance(e, ev.TurnSkipped) and e.player == due.player:
            return "WOW-XTN-3", "skip_consumes_extra_turn"
        return "WOW-XTN-1", None
    if isinstance(due, ev.TurnSkipped):
        return o.rule, o.flag
    if isinstance(e, ev.TurnStarted) and e.extra:
        return "WOW-XTN-1", None
    if isinstance(e, ev.TurnSkipped):
        return "WOW-XTN-3", None
    return o.rule, o.flag


def judge(rs: WowRuleset, s: Board, exp: Expect, e: Any) -> tuple[Violation, ...]:
    """The rules ``e`` breaks on board ``s``."""
    if not s.started:
        return _start(s, e)
    if s.at == "OVER":
        return (wrong("CORE-LOG-2", "the match is over"),)
    if s.at == "UNJUDGED":
        return ()
    if isinstance(e, ev.MatchStarted):
        return (wrong("CORE-LOG-1", "the match has already started"),)
    known = _players_known(s, e)
    if known:
        return known
    if isinstance(e, ev.Conceded):
        return ()
    o = owed(rs, s)
    if isinstance(e, MatchForked):
        if o.kind == "priority":
            return ()
        return (
            wrong("CORE-FORK-1", "a fork leaves its parent only where a player holds priority"),
        )
    found = _judged(rs, s, o, e)
    if found and s.at == "ACTION_DONE":
        # after the action phase's window closed the seed is cut off (502.2)
        return tuple(v if v.flag else v.located(flag="action_phase_all_pass") for v in found)
    return found


def _judged(rs: WowRuleset, s: Board, o: Owed, e: Any) -> tuple[Violation, ...]:
    if isinstance(e, _CLAIMS):
        return _claim(rs, s, e)
    if isinstance(e, ev.PLAYS):
        return judge_decision(rs, s, o, e, _gap_rule(s))
    return _consequence(rs, s, o, e)
