"""Vandaria Wars' judgement of one event, as the replay loop calls it (`vwlog.games.vw.GAME`):
the checks with an unknown card or player named first and the flags a verdict rests on, the fold
that never raises, the catch-up of omitted consequences, and where a violation happened.

Part of the compiled engine core (`vwlog.build.COMPILED`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final

from vwlog.events import AnyEvent, CardSummoned, PriorityPassed
from vwlog.model.state import MatchState, UnknownIdError
from vwlog.model.types import Phase
from vwlog.projections import evolve
from vwlog.rules import Expect, Ruleset, check_against, expect
from vwlog.rules.common import actor, violation
from vwlog.rules.readings import name_readings

if TYPE_CHECKING:
    from vwlog.model.violation import Violation

CATCH_UP_LIMIT: Final = 64
"""Most demanded consequences applied to catch up with a log that omitted some."""


def judge(
    ruleset: Ruleset, state: MatchState, exp: Expect, event: AnyEvent
) -> tuple[Violation, ...]:
    """The violations of ``event`` on ``state``, where the rules await ``exp``; a card or
    player the match does not have is named first, never a crash."""
    try:
        found = check_against(ruleset, state, exp, event)
    except UnknownIdError as err:
        found = (_unknown(err),)
    if state.started:
        found = _unknown_names(state, event, found)
    if found:  # a verdict that rests on a ruleset flag names it
        found = name_readings(ruleset, state, event, found)
    return found


def _catch_up(ruleset: Ruleset, state: MatchState, event: AnyEvent) -> MatchState | None:
    """Apply demanded consequences until ``event`` fits; ``None`` if it never does."""
    st = state
    for _ in range(CATCH_UP_LIMIT):
        exp = expect(ruleset, st)
        if not exp.consequences:
            return st if not check_against(ruleset, st, exp, event) else None
        if exp.demands(event):
            return st
        first = exp.consequences[0]
        if type(first) is type(event):
            return None  # a different consequence of the same kind: not an omission
        st = evolve(st, first)
    return None


def caught_up(ruleset: Ruleset, state: MatchState, event: AnyEvent) -> MatchState:
    """The board after the consequences a log left out before ``event``, if applying them
    makes it fit; otherwise ``state`` as it is. A pass in the Preparation Phase is no omission
    (no window there to catch up to, R-REG-10): it is played as logged."""
    if type(event) is PriorityPassed and state.phase == Phase.PREP:
        return state
    try:
        caught = _catch_up(ruleset, state, event)
    except UnknownIdError:
        caught = None
    return state if caught is None else caught


def _unknown_names(
    state: MatchState, event: AnyEvent, found: tuple[Violation, ...]
) -> tuple[Violation, ...]:
    """Put first what breaks the most specific rule: a summoned card or an acting player the
    match does not have (other rules then fail too, as a consequence)."""
    player = actor(event)
    if isinstance(player, str) and player not in state.seats:  # `has_player`, inlined
        err = UnknownIdError("player", player)
    elif type(event) is CardSummoned and event.card not in state.instances:
        err = UnknownIdError("card", event.card)
    else:
        return found
    if any(v.rule == err.rule and repr(err.ident) in v.message for v in found):
        return found
    return (_unknown(err), *found)


def _unknown(err: UnknownIdError) -> Violation:
    return violation(
        err.rule, "{error}: the match has no such {kind}", error=str(err), kind=err.kind
    )


def fold(
    state: MatchState, event: AnyEvent, found: tuple[Violation, ...]
) -> tuple[MatchState, tuple[Violation, ...]]:
    """The fold of ``event``; an event naming a card or player the match does not have
    changes nothing and is a violation (once), not a crash."""
    try:
        return evolve(state, event), found
    except UnknownIdError as err:
        if any(v.rule == err.rule and str(err) in v.message for v in found):
            return state, found
        return state, (*found, _unknown(err))


def locate(v: Violation, state: MatchState) -> Violation:
    """``v`` with the turn, phase, step and priority holder of the moment."""
    return replace(
        v,
        turn=state.turn or None,
        phase=str(state.phase) if state.phase else None,
        step=str(state.step) if state.step else None,
        priority=state.priority,
    )


__all__ = ["CATCH_UP_LIMIT", "caught_up", "fold", "judge", "locate"]
