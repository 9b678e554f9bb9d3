"""World of Warcraft TCG as a game on the seam (`vwlog.games.GameRules`): turns, phases and
steps, priority windows and the chain, triggers, extra and skipped turns, Inspire and the hand
limit, as the seed fragment (Comprehensive Rules 500-503, in Russian) states them.

What the seed only names (playing a card, resources, combat, how a link resolves, which
abilities trigger) is recorded as the player's claim and judged only as far as the seed reaches
(`vwlog.games.wowtcg.catalog`: each partial rule says what it rests on). The open questions are
the ruleset's flags (`vwlog.games.wowtcg.ruleset.WowRuleset`); a verdict resting on one names it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

from pydantic import TypeAdapter

from vwlog.events.core import MatchForked, MatchSealed, RecordSigned
from vwlog.games import GameRules, MatchSummary, RuleEntry
from vwlog.games.common import loader, ruleset_label
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg import stats as _stats
from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.catalog import RULES, TITLES
from vwlog.games.wowtcg.fold import evolve, fold
from vwlog.games.wowtcg.judge import judge, same
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.games.wowtcg.script import expect, owed
from vwlog.games.wowtcg.words import wrong
from vwlog.model.violation import Violation

__all__ = ["GAME", "catch_up", "locate", "owed_types", "summary"]


def summary(s: Board) -> MatchSummary:
    """How a WoW TCG match stands."""
    rs = s.ruleset
    return MatchSummary(
        started=s.started,
        players=s.players,
        turn=s.turn,
        winner=s.winner,
        victory=s.victory,
        ruleset=ruleset_label(rs) if rs is not None else None,
    )


def owed_types(s: Board) -> tuple[str, ...]:
    """The consequences still owed when the record ends here."""
    if not s.started or s.ruleset is None:
        return ()
    return tuple(c.type for c in owed(s.ruleset, s).consequences)


def locate(v: Violation, s: Board) -> Violation:
    """``v`` with the turn, phase, step and priority holder of board ``s``."""
    if not s.started or s.turn == 0:
        return v
    return v.located(turn=s.turn, phase=s.phase, step=s.step, priority=s.holder)


_SCRIPTED = (
    ev.TurnStarted,
    ev.TurnSkipped,
    ev.PhaseStarted,
    ev.StepStarted,
    ev.CardsReadied,
    ev.PriorityWindowOpened,
    ev.PriorityWindowClosed,
    ev.CardDrawn,
    ev.CombatStepEnded,
    ev.ModifiersExpired,
    ev.TurnEnded,
)
_IN_WINDOW = (ev.PriorityPassed, ev.LinkAdded, ev.ResourcePlaced, ev.CombatDeclared)


def catch_up(rs: WowRuleset, s: Board, e: Any) -> Board:
    """The board after the consequences a record left out before ``e``, so one omission is
    reported once: for a step of the script, the owed steps before it (at most a turn's
    worth); for a decision taken where a window should have opened, that window."""
    if isinstance(e, _IN_WINDOW):
        o = owed(rs, s)
        if o.consequences == (ev.PriorityWindowOpened(),):
            return evolve(s, o.consequences[0])
        return s
    if not isinstance(e, _SCRIPTED):
        return s
    for _ in range(16):
        o = owed(rs, s)
        if not o.consequences or any(type(c) is type(e) for c in o.consequences):
            return s
        s = evolve(s, o.consequences[0])
    return s


GAME: Final = GameRules(
    id="wowtcg",
    name="World of Warcraft TCG",
    record=TypeAdapter(ev.WowRecord),
    event_types=ev.EVENTS,
    decision_types=frozenset({*ev.PLAYS, ev.Conceded, MatchForked}),
    trailer_types=frozenset({MatchSealed, RecordSigned}),
    start_type=ev.MatchStarted,
    fork_kinds=frozenset({"priority"}),
    initial=Board(),
    default_ruleset=WowRuleset(),
    expect=expect,
    judge=judge,
    fold=fold,
    locate=locate,
    summary=summary,
    owed=owed_types,
    catch_up=catch_up,
    catalog=TITLES,
    entries=MappingProxyType(
        {r.id: RuleEntry(r.id, r.title, r.status, r.russian, r.section, r.note) for r in RULES}
    ),
    violation=wrong,
    decisions=loader("vwlog.games.wowtcg.decisions"),
    views=loader("vwlog.games.wowtcg.views"),
    extras={"same": same},
    audits=True,
    stats=lambda: _stats,
)
"""WoW TCG's rules, as the core calls them."""
