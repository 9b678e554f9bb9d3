"""The one replay loop: check each event against the rules, fold it into the board, tell a
visitor.

``replay(records, visitor)`` walks `EventRecord`s: the expectation is computed once, the event is
checked against it, a missing consequence is caught up (reported once, then the demanded
consequences are applied so one omission does not cascade), the event is applied as played
(``evolve``), and the visitor sees the step. Validation, text traces, statistics and seeking are
visitors of this loop; nothing else walks a match.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from vwlog.events import TRAILER_TYPES as _TRAILER
from vwlog.events import (
    AnyEvent,
    CardSummoned,
    EventRecord,
    JudgeRulingIssued,
    LogHeader,
    MatchForked,
    MatchStarted,
    ObjectResulted,
    PriorityPassed,
    event_type,
)
from vwlog.model.errors import IllegalEventError, Violation
from vwlog.model.state import MatchState, UnknownIdError
from vwlog.model.types import Phase, RulingKind
from vwlog.projections import INITIAL, evolve
from vwlog.rules import DEFAULT_RULESET, Expect, Ruleset, check_against, expect
from vwlog.rules.common import violation
from vwlog.rules.effects import is_trusted
from vwlog.rules.published import Integrity, TrustedResult

if TYPE_CHECKING:
    from collections.abc import Iterable

R = TypeVar("R", covariant=True)

CATCH_UP_LIMIT = 64
"""Most demanded consequences applied to catch up with a log that omitted some."""
BACKUP_MEMORY = 4096
"""Priority points remembered for judges' back-up rulings."""


@dataclass(slots=True)
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
    voids: tuple[int, int] | None = None
    """For a judge's back-up: the range of seqs it voided (inclusive)."""


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


class BaseVisitor(ABC, Generic[R]):
    """A `Visitor` whose hooks do nothing: override the ones you need and `result`.

    >>> class Count(BaseVisitor[int]):
    ...     def __init__(self) -> None:
    ...         self.n = 0
    ...     def visit(self, step: Step) -> None:
    ...         self.n += 1
    ...     def result(self) -> int:
    ...         return self.n
    >>> replay([], Count())
    0
    """

    def begin_match(self, header: LogHeader | None) -> None:
        """Called once before the first event; does nothing unless overridden."""

    def visit(self, step: Step) -> None:
        """Called for every event; does nothing unless overridden."""

    def end_match(self, final: MatchState) -> None:
        """Called once after the last event; does nothing unless overridden."""

    @abstractmethod
    def result(self) -> R:
        """What the visitor built."""


class Fanout(BaseVisitor[tuple[Any, ...]]):
    """A visitor that feeds several visitors in one pass (hslog's composite exporter); its
    result is the tuple of theirs, in order."""

    def __init__(self, *visitors: Visitor[Any]) -> None:
        self.visitors = visitors

    def begin_match(self, header: LogHeader | None) -> None:
        """Begin every visitor."""
        for v in self.visitors:
            v.begin_match(header)

    def visit(self, step: Step) -> None:
        """Show the step to every visitor."""
        for v in self.visitors:
            v.visit(step)

    def end_match(self, final: MatchState) -> None:
        """End every visitor."""
        for v in self.visitors:
            v.end_match(final)

    def result(self) -> tuple[Any, ...]:
        """Every visitor's result, in order."""
        return tuple(v.result() for v in self.visitors)


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
        if event in exp.consequences:
            return st
        first = exp.consequences[0]
        if type(first) is type(event):
            return None  # a different consequence of the same kind: not an omission
        st = evolve(st, first)
    return None


def replay(
    records: Iterable[EventRecord | tuple[int, EventRecord]],
    visitor: Visitor[R],
    *,
    header: LogHeader | None = None,
    ruleset: Ruleset | None = None,
    policy: ViolationPolicy = ViolationPolicy.COLLECT,
    initial: MatchState = INITIAL,
) -> R:
    """Replay records through the rules and the fold, feeding ``visitor``.

    Args:
        records: records in order, or ``(line, record)`` pairs when reading a file.
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
            line, record = item
        else:
            line, record = None, item
        event = record.event
        if type(event) in _TRAILER:
            # the seal and its signatures: no game facts, checked by the integrity pass; the
            # visitor still sees them (a step that leaves the board as it was)
            visit(Step(record, line, state, state, expect(rs, state), ()))
            continue
        # event classes are leaves: compare exact types (no ABCMeta isinstance)
        if not state.started and type(event) is MatchStarted:
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
            and event not in exp.consequences
            and not (type(event) is PriorityPassed and state.phase == Phase.PREP)
        ):
            # a missing consequence is caught up; a pass in the Preparation Phase is no
            # omission (no window there to catch up to, R-REG-10): it is played as logged
            state = _caught_up(rs, state, event)
        voids: tuple[int, int] | None = None
        if type(event) is JudgeRulingIssued and event.kind == RulingKind.BACK_UP:
            after, voids, found = _back_up(memory, state, record.seq, event, found)
        elif ruleset is not None and type(event) is MatchStarted:
            # judge under the given ruleset: the fold reads its setup and flags from the state
            after = evolve(state, event.model_copy(update={"ruleset": ruleset}))
        else:
            after, found = _evolve(state, event, found)
        located = tuple(_locate(v, record, line, before) for v in found) if found else ()
        if located and stop:
            raise IllegalEventError(record.seq, event_type(event), located)
        visit(Step(record, line, before, after, exp, located, voids))
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
    player = getattr(event, "player", None)
    if isinstance(player, str) and not state.has_player(player):
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


# -- the validation visitor ------------------------------------------------------------------


@dataclass
class ValidationReport:
    """The outcome of validating one match."""

    match_id: str | None = None
    source: str | None = None
    events: int = 0
    decisions: int = 0
    consequences: int = 0
    effects_verified: int = 0
    """Effects of objects whose skills are machine-readable, derived and compared."""
    effects_trusted: int = 0
    """Effects of text-only skills, recorded as given and checked structurally."""
    objects_trusted: int = 0
    violations: list[Violation] = field(default_factory=list)
    voided: list[tuple[int, int]] = field(default_factory=list)
    rulings: int = 0
    turns: int = 0
    winner: str | None = None
    victory: str | None = None
    players: tuple[str, ...] = ()
    ruleset: str | None = None
    fork_parent: str | None = None
    """For a fork: the parent match."""
    fork_at: int | None = None
    """For a fork: the parent's seq it left from."""
    complete: bool = False
    """Whether the match reached a winner."""
    stopped_at: int | None = None
    """In strict mode: the seq of the first illegal event, where validation stopped."""
    owed: tuple[str, ...] = ()
    """Consequences the rules still demanded when the record ended (a sealed record must owe
    none)."""
    trusted: list[TrustedResult] = field(default_factory=list)
    """Every result whose effects could not be checked (text-only skills), in log order."""
    integrity: Integrity | None = None
    """What the verdict rests on: chain, seal, signatures, published pool and ruleset (filled
    in by the services layer; ``None`` when not checked)."""

    @property
    def ok(self) -> bool:
        """Whether no rule was broken and the record's integrity holds (when checked)."""
        return not self.violations and (self.integrity is None or self.integrity.ok)


_NOTED = frozenset({MatchStarted, ObjectResulted, JudgeRulingIssued, MatchForked})
"""Event types the validation report looks into (the rest are only counted)."""


class Validator(BaseVisitor[ValidationReport]):
    """A visitor that builds a `ValidationReport`."""

    def __init__(self, source: str | None = None) -> None:
        self.report = ValidationReport(source=source)

    def begin_match(self, header: LogHeader | None) -> None:
        """Take the match id from the header."""
        if header is not None:
            self.report.match_id = header.match_id

    def visit(self, step: Step) -> None:
        """Count the event and keep its violations (the seal and signatures are records, not
        game events: the integrity check reports them)."""
        r = self.report
        event = step.record.event
        if isinstance(event, _TRAILER):
            return
        r.events += 1
        if event.DECISION:
            r.decisions += 1
        else:
            r.consequences += 1
        if step.violations:
            r.violations.extend(step.violations)
        if type(event) not in _NOTED:
            return
        if isinstance(event, MatchStarted):
            r.players = tuple(s.player for s in event.seats)
            r.ruleset = f"{event.ruleset.id}@{event.ruleset.version}"
        if isinstance(event, ObjectResulted):
            obj = next((o for o in step.before.register if o.id == event.object_id), None)
            if obj is not None and is_trusted(step.before, obj):
                r.effects_trusted += len(event.effects)
                r.objects_trusted += 1
                r.trusted.append(
                    TrustedResult(
                        seq=step.record.seq,
                        card=step.before.instances.get(obj.card) if obj.card else None,
                        skill=obj.skill,
                        effects=len(event.effects),
                        line=step.line,
                    )
                )
            else:
                r.effects_verified += len(event.effects)
        if isinstance(event, JudgeRulingIssued):
            r.rulings += 1
        if isinstance(event, MatchForked):
            r.fork_parent, r.fork_at = event.parent, event.at
        if step.voids is not None:
            r.voided.append(step.voids)

    def end_match(self, final: MatchState) -> None:
        """Record how the match ended."""
        self.report.turns = final.turn
        self.report.winner = final.winner
        self.report.victory = final.victory
        self.report.complete = final.winner is not None
        if final.started and final.ruleset is not None:
            owed = expect(final.ruleset, final).consequences
            self.report.owed = tuple(event_type(c) for c in owed)
        if not final.started and not self.report.violations:
            # a header alone (or nothing) is no match: it cannot be called legal
            self.report.violations.append(
                violation("R-SET-1", "the log holds no events: a match begins with match_started")
            )

    def result(self) -> ValidationReport:
        """The report."""
        return self.report


class FinalState(BaseVisitor[MatchState]):
    """A visitor that keeps only the final state."""

    def __init__(self) -> None:
        self.state: MatchState = INITIAL

    def end_match(self, final: MatchState) -> None:
        """Keep the final state."""
        self.state = final

    def result(self) -> MatchState:
        """The final state."""
        return self.state


class Collect(BaseVisitor[list[Step]]):
    """A visitor that keeps every step (for small matches and tests)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.final: MatchState = INITIAL

    def visit(self, step: Step) -> None:
        """Keep the step."""
        self.steps.append(step)

    def end_match(self, final: MatchState) -> None:
        """Keep the final state."""
        self.final = final

    def result(self) -> list[Step]:
        """The steps."""
        return self.steps


def validate_records(
    records: Iterable[EventRecord],
    *,
    ruleset: Ruleset | None = None,
    policy: ViolationPolicy = ViolationPolicy.COLLECT,
) -> ValidationReport:
    """Validate records in memory (see `replay`).

    Raises:
        IllegalEventError: with `ViolationPolicy.STOP_AT_FIRST`, at the first illegal event.
    """
    return replay(records, Validator(), ruleset=ruleset, policy=policy)


__all__ = [
    "BACKUP_MEMORY",
    "CATCH_UP_LIMIT",
    "BaseVisitor",
    "Collect",
    "Fanout",
    "FinalState",
    "LineRecord",
    "Step",
    "ValidationReport",
    "Validator",
    "ViolationPolicy",
    "Visitor",
    "replay",
    "validate_records",
]
