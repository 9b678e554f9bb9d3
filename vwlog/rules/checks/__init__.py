"""Is this event legal here? ``check(ruleset, state, event) -> tuple[Violation, ...]``.

A consequence is legal when it is one the rules demand now (`flow.expect`); a missing, extra or
different consequence cites the rule that demands it. A decision is legal when it is the awaited
kind of decision, by the awaited player, and passes the checks of its rules. Every violation
cites a rule id of the catalog; rules that hold only by inference or default say so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from vwlog.events import (
    DECISION_TYPES,
    AnyEvent,
    Conceded,
    DeckRevealed,
    JudgeRulingIssued,
    MatchForked,
    MatchStarted,
)
from vwlog.rules.checks.base import ACCEPTS, WHAT, Violations, event_tag, summary
from vwlog.rules.checks.consequences import (
    WINDOW_CLOSE_RULES,
    check_consequence,
    check_extra,
    window_rule,
)
from vwlog.rules.checks.decision import check_decision
from vwlog.rules.checks.deploy import is_first_supply
from vwlog.rules.checks.register import valid_targets
from vwlog.rules.checks.setup import check_always, check_match_started
from vwlog.rules.common import violation
from vwlog.rules.flow import Expect, expect
from vwlog.rules.readings import name_readings

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

__all__ = [
    "ACCEPTS",
    "WHAT",
    "WINDOW_CLOSE_RULES",
    "Violations",
    "check",
    "check_against",
    "is_first_supply",
    "summary",
    "valid_targets",
    "window_rule",
]


_ALWAYS: Final = frozenset((Conceded, DeckRevealed, JudgeRulingIssued))
_AFTER_WIN: Final = frozenset((DeckRevealed, JudgeRulingIssued))
_DECISIONS: Final = DECISION_TYPES
_MATCH_STARTED: Final = MatchStarted
_FORKED: Final = MatchForked
"""Constants, not names looked up in the module's dictionary at every use (compiled)."""
# Event classes are leaves: the checks compare exact types (``type(e) is C``, ``in`` a frozenset),
# since a failed ``isinstance`` against a pydantic model class goes through ABCMeta (slow).


def check(ruleset: Ruleset, state: MatchState, event: AnyEvent) -> Violations:
    """The rules ``event`` breaks if it happens now; empty when it is legal. A violation
    whose verdict rests on a ruleset flag names it (`vwlog.rules.readings`)."""
    found = check_against(ruleset, state, expect(ruleset, state), event)
    return name_readings(ruleset, state, event, found) if found else found


def check_against(ruleset: Ruleset, state: MatchState, exp: Expect, event: AnyEvent) -> Violations:
    """Like `check`, with the expectation already computed (the replay loop computes it once)."""
    kind = type(event)
    if not state.started:
        if type(event) is _MATCH_STARTED:
            return check_match_started(ruleset, event)
        return (
            violation(
                "R-SET-1",
                "the first event must be match_started, not {event_tag}; without it no event can "
                "be judged",
                event_tag=event_tag(event),
            ),
        )
    if kind is _MATCH_STARTED:
        return (violation("R-SET-1", "the match has already started"),)
    if state.winner is not None and kind not in _AFTER_WIN:
        return (
            violation(
                "R-VIC-4",
                "the match is already won by {winner} ({victory}); nothing may follow but reveals "
                "and rulings, got {event_tag}",
                winner=state.winner,
                victory=state.victory,
                event_tag=event_tag(event),
            ),
        )
    if kind in _ALWAYS:
        return check_always(state, event)  # type: ignore[arg-type]
    if kind is _FORKED:
        if not exp.is_priority:
            return (violation("R-REG-5", "a fork may start only where a player holds priority"),)
        return ()
    if exp.consequences:
        return check_consequence(ruleset, state, exp, event)
    if kind not in _DECISIONS:
        return check_extra(state, exp, event)
    return check_decision(ruleset, state, exp, event)
