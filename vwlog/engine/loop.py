"""The one replay loop: check each event against the rules, fold it into the board, tell a
visitor.

``replay(records, visitor)`` walks `EventRecord`s: the expectation is computed once, the event is
checked against it, a missing consequence is caught up (reported once, then the demanded
consequences are applied so one omission does not cascade), the event is applied as played
(``evolve``), and the visitor sees the step. Validation, text traces, statistics and seeking are
visitors of this loop (`vwlog.engine.replay`); nothing else walks a match.

This module is part of the compiled core (`vwlog.build.COMPILED`); the visitors, which users
subclass, live in `vwlog.engine.replay`, interpreted.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Final, Protocol, TypeVar

from vwlog.events import (
    TRAILER_TYPES,
    AnyEvent,
    CardSummoned,
    EventRecord,
    JudgeRulingIssued,
    LogHeader,
    MatchStarted,
    PriorityPassed,
    event_type,
)
from vwlog.model.errors import IllegalEventError, Violation
from vwlog.model.state import MatchState, UnknownIdError
from vwlog.model.types import Phase, RulingKind
from vwlog.projections import INITIAL, evolve
from vwlog.rules import DEFAULT_RULESET, Expect, Ruleset, check_against, expect
from vwlog.rules.common import actor, violation
from vwlog.rules.readings import name_readings

if TYPE_CHECKING:
    from collections.abc import Iterable
R = TypeVar("R", covariant=True)

CATCH_UP_LIMIT: Final = 64
"""Most demanded consequences applied to catch up with a log that omitted some."""
BACKUP_MEMORY: Final = 256
"""Priority points remembered for judges' back-up rulings: a back-up names one of the last 256
(a dozen turns of a two-player match); an older point is refused (R-GEN-8). Each remembered
point holds its board alive; holding 4,096 of them, as before, cost 3-5 % of validation time
(boards that cannot be freed push the replay's working set out of the processor's cache)."""

# The event classes the loop compares with once per event, as constants: compiled, a name
# imported from another module is looked up in this module's dictionary at every use.
_TRAILER: Final = frozenset(TRAILER_TYPES)
_MATCH_STARTED: Final = MatchStarted
_PRIORITY_PASSED: Final = PriorityPassed
_RULING: Final = JudgeRulingIssued
_CARD_SUMMONED: Final = CardSummoned


@dataclass(slots=True, init=False)
class Step:
    """One event of a replay, with the board before and after it (treat as read-only; not
    frozen because it is built for every event on the hot path)."""

    record: EventRecord
    line: int | None
    before: MatchState
    after: MatchState
    expected: Expect
    """What the rules expected before this event."""
    violations: tuple[Violation, ...]
    voids: tuple[int, int] | None
    """For a judge's back-up: the range of seqs it voided (inclusive)."""
    event: AnyEvent
    """The record's event (``record.event``, read once)."""

    def __init__(
        self,
        record: EventRecord,
        line: int | None,
        before: MatchState,
        after: MatchState,
        expected: Expect,
        violations: tuple[Violation, ...],
        voids: tuple[int, int] | None = None,
        *,
        event: AnyEvent | None = None,
    ) -> None:
        # written out: compiled, a native constructor (the dataclass's own stays interpreted)
        self.record = record
        self.event = record.event if event is None else event
        self.line = line
        self.before = before
        self.after = after
        self.expected = expected
        self.violations = violations
        self.voids = voids


class Visitor(Protocol[R]):
    """What `replay` feeds: every step of a replay (python-chess's ``BaseVisitor``).

    Any object with these four methods will do; subclass `BaseVisitor` to write only the
    ones that do something.
    """

    def begin_match(self, header: LogHeader | None) -> None:
        """Called once before the first event."""

    def visit(self, step: Step) -> None:
        """Called for every event."""

    def end_match(self, final: MatchState) -> None:
        """Called once after the last event."""

    def result(self) -> R:
        """What the visitor built."""


class ViolationPolicy(StrEnum):
    """What the loop does when an event breaks a rule (python-chess's
    ``GameBuilder.handle_error``)."""

    COLLECT = "collect"
    """Hand the violations to the visitor with the step and go on, as a judge reads the whole
    record: the default."""
    STOP_AT_FIRST = "stop_at_first"
    """Raise `IllegalEventError` at the first event that breaks a rule."""


class LineRecord(Protocol):
    """A record with its line number (a `vwlog.io.logfile.LogLine` fits)."""

    @property
    def line_no(self) -> int: ...

    @property
    def record(self) -> EventRecord: ...


def _locate(v: Violation, record: EventRecord, line: int | None, state: MatchState) -> Violation:
    return replace(
        v,
        seq=record.seq,
        line=line,
        event_type=event_type(record.event),
        turn=state.turn or None,
        phase=str(state.phase) if state.phase else None,
        step=str(state.step) if state.step else None,
        priority=state.priority,
    )


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


def replay(
    records: Iterable[EventRecord | tuple[int, EventRecord] | tuple[int, bytes, EventRecord]],
    visitor: Visitor[R],
    *,
    header: LogHeader | None = None,
    ruleset: Ruleset | None = None,
    policy: ViolationPolicy = ViolationPolicy.COLLECT,
    initial: MatchState = INITIAL,
) -> R:
    """Replay records through the rules and the fold, feeding ``visitor``.

    Args:
        records: records in order; from a file, ``(line, record)`` or `LogLine` tuples.
        visitor: receives every step.
        header: the log header, passed to the visitor.
        ruleset: judge under this ruleset instead of the one the match names.
        policy: collect every violation (the default) or stop at the first.
        initial: the state to start from (a snapshot); the default is the empty board.

    Raises:
        IllegalEventError: with `ViolationPolicy.STOP_AT_FIRST`, at the first event that
            breaks a rule.
    """
    state = initial
    rs = ruleset or state.ruleset or DEFAULT_RULESET
    memory: deque[tuple[int, MatchState]] = deque(maxlen=BACKUP_MEMORY)
    remember = memory.append
    visit = visitor.visit
    stop = policy is ViolationPolicy.STOP_AT_FIRST
    visitor.begin_match(header)
    unstarted = False
    for item in records:
        if isinstance(item, tuple):  # a plain class: cheap, unlike pydantic's ABCMeta check
            line, record = item[0], item[-1]  # a pair, or a LogLine (line, raw, record)
        else:
            line, record = None, item
        event = record.event
        if type(event) in _TRAILER:
            # the seal and its signatures: no game facts, checked by the integrity pass; the
            # visitor still sees them (a step that leaves the board as it was)
            visit(Step(record, line, state, state, expect(rs, state), (), event=event))
            continue
        # event classes are leaves: compare exact types (no ABCMeta isinstance)
        if not state.started and type(event) is _MATCH_STARTED:
            rs = ruleset or event.ruleset
        exp = expect(rs, state)
        if exp.kind == "priority":
            remember((record.seq - 1, state))
        found = _judge(rs, state, exp, event)
        if not state.started and found:
            # R-SET-1 once: without match_started nothing after it can be judged, and one
            # violation per event would bury the one that matters
            if unstarted:
                found = ()
            unstarted = True
        before = state
        if (
            found
            and exp.consequences
            and not exp.demands(event)
            and not (type(event) is _PRIORITY_PASSED and state.phase == Phase.PREP)
        ):
            # a missing consequence is caught up; a pass in the Preparation Phase is no
            # omission (no window there to catch up to, R-REG-10): it is played as logged
            state = _caught_up(rs, state, event)
        voids: tuple[int, int] | None = None
        if type(event) is _RULING and event.kind == RulingKind.BACK_UP:
            after, voids, found = _back_up(memory, state, record.seq, event, found)
        elif ruleset is not None and type(event) is _MATCH_STARTED:
            # judge under the given ruleset: the fold reads its setup and flags from the state
            after = evolve(state, event.model_copy(update={"ruleset": ruleset}))
        else:
            after, found = _evolve(state, event, found)
        located = tuple(_locate(v, record, line, before) for v in found) if found else ()
        if located and stop:
            raise IllegalEventError(record.seq, event_type(event), located)
        visit(Step(record, line, before, after, exp, located, voids, event=event))
        state = after
    visitor.end_match(state)
    return visitor.result()


def _judge(
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


def _caught_up(ruleset: Ruleset, state: MatchState, event: AnyEvent) -> MatchState:
    """The board after the consequences a log left out before ``event``, if applying them
    makes it fit; otherwise ``state`` as it is."""
    try:
        caught = _catch_up(ruleset, state, event)
    except UnknownIdError:
        caught = None
    return state if caught is None else caught


def _back_up(
    memory: deque[tuple[int, MatchState]],
    state: MatchState,
    seq: int,
    event: JudgeRulingIssued,
    found: tuple[Violation, ...],
) -> tuple[MatchState, tuple[int, int] | None, tuple[Violation, ...]]:
    """A judge's back-up: the board of the priority point it names, and the seqs it voids; a
    back-up to a position that is not a recent priority point is a violation (R-GEN-8)."""
    restored = _restore(memory, event.back_to)
    if restored is None:
        wrong = violation(
            "R-GEN-8",
            "back-up to seq {back_to}: not a recent priority point of this match",
            back_to=event.back_to,
        )
        after, found = _evolve(state, event, (*found, wrong))
        return after, None, found
    return restored[1], (restored[0] + 1, seq - 1), found


def _unknown_names(
    state: MatchState, event: AnyEvent, found: tuple[Violation, ...]
) -> tuple[Violation, ...]:
    """Put first what breaks the most specific rule: a summoned card or an acting player the
    match does not have (other rules then fail too, as a consequence)."""
    player = actor(event)
    if isinstance(player, str) and player not in state.seats:  # `has_player`, inlined
        err = UnknownIdError("player", player)
    elif type(event) is _CARD_SUMMONED and event.card not in state.instances:
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


def _evolve(
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


def _restore(
    memory: deque[tuple[int, MatchState]], back_to: int | None
) -> tuple[int, MatchState] | None:
    if back_to is None:
        return None
    for seq, st in reversed(memory):
        if seq == back_to:
            return seq, st
    return None


__all__ = [
    "BACKUP_MEMORY",
    "CATCH_UP_LIMIT",
    "LineRecord",
    "Step",
    "ViolationPolicy",
    "Visitor",
    "replay",
]
