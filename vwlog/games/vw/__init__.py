"""Vandaria Wars as the core sees it: its `GameRules`, ``GAME``.

The rules themselves (events, board, fold, expectations, checks, catalog) are VW's modules
(`vwlog.events`, `vwlog.model.state`, `vwlog.projections`, `vwlog.rules`); this package is where
the core meets them. Every log rule the core cites is mapped to VW's own id, so a VW verdict
reads as it always has: ``R-SET-1`` for a record that does not begin with ``match_started``,
``R-VIC-4`` for events after the win, ``R-REG-5`` for a fork off a priority point, ``R-GEN-8``
for a back-up to a position that is not one, ``R-GEN-7``/``R-ZONE-5`` for an unknown player or
card.
"""

from __future__ import annotations

from typing import Any, Final

from vwlog.events import (
    DECISION_TYPES,
    EVENT_TYPES,
    RECORD,
    TRAILER_TYPES,
    JudgeRulingIssued,
    MatchStarted,
    ObjectResulted,
    event_type,
)
from vwlog.games import GameRules, MatchSummary
from vwlog.games.common import loader, ruleset_label
from vwlog.games.vw.judging import caught_up, fold, judge, locate
from vwlog.games.vw.snapshots import SNAPSHOTS
from vwlog.model.state import MatchState
from vwlog.model.text import msg
from vwlog.model.types import RulingKind
from vwlog.model.verdict import TrustedResult
from vwlog.projections import INITIAL
from vwlog.rules import DEFAULT_RULESET, expect
from vwlog.rules.common import violation
from vwlog.rules.effects import is_trusted
from vwlog.rules.expectation import DecisionKind

RULES: Final = {
    "CORE-LOG-1": "R-SET-1",
    "CORE-LOG-2": "R-VIC-4",
    "CORE-FORK-1": "R-REG-5",
    "CORE-FORK-2": "R-GEN-8",
    "CORE-ID-1": "R-GEN-7",
    "CORE-ID-2": "R-ZONE-5",
}
"""The log rules (`vwlog.games.CORE_RULES`) by the VW ids that say them."""


def summary(state: MatchState) -> MatchSummary:
    """How a VW match stands."""
    rs = state.ruleset
    return MatchSummary(
        started=state.started,
        players=tuple(state.seats),
        turn=state.turn,
        winner=state.winner,
        victory=state.victory,
        ruleset=ruleset_label(rs) if rs is not None else None,
    )


def owed(state: MatchState) -> tuple[str, ...]:
    """The consequences the rules still demand of a record that ends here."""
    if not state.started or state.ruleset is None:
        return ()
    return tuple(event_type(c) for c in expect(state.ruleset, state).consequences)


def back_to(event: JudgeRulingIssued) -> int | None:
    """The seq a back-up returns to; ``-1`` for another ruling."""
    if event.kind != RulingKind.BACK_UP:
        return -1
    return event.back_to


def note(report: Any, step: Any) -> None:
    """What a validation report keeps of a match start and of a result: the players and the
    ruleset; whether the result's effects were derived or trusted (text-only skills)."""
    event = step.event
    if isinstance(event, MatchStarted):
        report.players = tuple(s.player for s in event.seats)
        report.ruleset = ruleset_label(event.ruleset)
    elif isinstance(event, ObjectResulted):
        before: MatchState = step.before
        obj = next((o for o in before.register if o.id == event.object_id), None)
        if obj is not None and is_trusted(before, obj):
            report.effects_trusted += len(event.effects)
            report.objects_trusted += 1
            report.trusted.append(
                TrustedResult(
                    seq=step.record.seq,
                    card=before.instances.get(obj.card) if obj.card else None,
                    skill=obj.skill,
                    effects=len(event.effects),
                    line=step.line,
                )
            )
        else:
            report.effects_verified += len(event.effects)


def _stats() -> object:
    """VW's per-match statistics: the replay visitor that measures a match."""
    from vwlog.projections.stats import visitor

    return visitor


def _closing(start: object, state: Any) -> tuple[Any, list[Any]]:
    """VW's record owes, once a match is over, the openings of its deck commitments."""
    from vwlog.games.vw.commitments import open_commitments

    return open_commitments(start, state)


GAME: Final = GameRules(
    id="vw",
    name="Vandaria Wars",
    record=RECORD,
    event_types=EVENT_TYPES,
    decision_types=DECISION_TYPES,
    trailer_types=frozenset(TRAILER_TYPES),
    start_type=MatchStarted,
    start_cards=lambda start: start.cards,
    ruling_type=JudgeRulingIssued,
    fork_kinds=frozenset({DecisionKind.PRIORITY}),
    fork_words=msg("where a player holds priority"),
    publishes=True,
    audits=True,
    rules=RULES,
    initial=INITIAL,
    default_ruleset=DEFAULT_RULESET,
    expect=expect,
    judge=judge,
    fold=fold,
    locate=locate,
    summary=summary,
    owed=owed,
    catch_up=caught_up,
    back_to=back_to,
    closing=_closing,
    note=note,
    noted_types=frozenset({MatchStarted, ObjectResulted}),
    violation=violation,
    views=loader("vwlog.games.vw.views"),
    decisions=loader("vwlog.games.vw.decisions"),
    snapshots=SNAPSHOTS,
    seats=loader("vwlog.games.vw.seats"),
    stats=_stats,
)
"""Vandaria Wars' rules, as the core calls them."""

__all__ = ["GAME", "RULES", "caught_up", "fold", "judge", "locate", "note", "summary"]
