"""The one replay loop: check each event against the rules, fold it into the board, tell a
visitor.

``replay(records, visitor)`` walks `EventRecord`s: the expectation is computed once, the event is
checked against it, a missing consequence is caught up (reported once, then the demanded
consequences are applied so one omission does not cascade), the event is applied as played
(``evolve``), and the visitor sees the step. Validation, text traces, statistics and seeking are
visitors of this loop; nothing else walks a match.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol, TypeVar

from vwlog.events import TRAILER_TYPES as _TRAILER
from vwlog.events import (
    AnyEvent,
    EventRecord,
    JudgeRulingIssued,
    LogHeader,
    MatchForked,
    MatchStarted,
    ObjectResulted,
    event_type,
)
from vwlog.model.errors import IllegalEventError, Violation
from vwlog.model.types import RulingKind
from vwlog.projections import INITIAL, evolve
from vwlog.rules import DEFAULT_RULESET, Expect, Ruleset, check_against, expect
from vwlog.rules.common import violation
from vwlog.rules.effects import is_trusted
from vwlog.rules.published import Integrity, TrustedResult

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.model.state import MatchState

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
    """Receives every step of a replay (python-chess's ``BaseVisitor``)."""

    def begin_match(self, header: LogHeader | None) -> None:
        """Called once before the first event."""

    def visit(self, step: Step) -> None:
        """Called for every event."""

    def end_match(self, final: MatchState) -> None:
        """Called once after the last event."""

    def result(self) -> R:
        """What the visitor built."""


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
    strict: bool = False,
    initial: MatchState = INITIAL,
) -> R:
    """Replay records through the rules and the fold, feeding ``visitor``.

    Args:
        records: records in order, or ``(line, record)`` pairs when reading a file.
        visitor: receives every step.
        header: the log header, passed to the visitor.
        ruleset: judge under this ruleset instead of the one the match names.
        strict: stop at the first violation.
        initial: the state to start from (a snapshot); the default is the empty board.

    Raises:
        IllegalEventError: in strict mode, at the first event that breaks a rule.
    """
    state = initial
    rs = ruleset or state.ruleset or DEFAULT_RULESET
    memory: deque[tuple[int, MatchState]] = deque(maxlen=BACKUP_MEMORY)
    remember = memory.append
    visit = visitor.visit
    visitor.begin_match(header)
    unstarted = False
    for item in records:
        if isinstance(item, EventRecord):
            line, record = None, item
        else:
            line, record = item
        event = record.event
        if isinstance(event, _TRAILER):
            # the seal and its signatures: no game facts, checked by the integrity pass; the
            # visitor still sees them (a step that leaves the board as it was)
            visit(Step(record, line, state, state, expect(rs, state), ()))
            continue
        if not state.started and isinstance(event, MatchStarted):
            rs = ruleset or event.ruleset
        exp = expect(rs, state)
        if exp.kind == "priority":
            remember((record.seq - 1, state))
        found = check_against(rs, state, exp, event)
        if not state.started and found:
            # R-SET-1 once: without match_started nothing after it can be judged, and one
            # violation per event would bury the one that matters
            if unstarted:
                found = ()
            unstarted = True
        before = state
        if found and exp.consequences and event not in exp.consequences:
            caught = _catch_up(rs, state, event)
            if caught is not None:
                state = caught
        voids: tuple[int, int] | None = None
        if isinstance(event, JudgeRulingIssued) and event.kind == RulingKind.BACK_UP:
            restored = _restore(memory, event.back_to)
            if restored is None:
                found = (
                    *found,
                    violation(
                        "R-GEN-8",
                        f"back-up to seq {event.back_to}: not a recent priority point of this "
                        "match",
                    ),
                )
                after = evolve(state, event)
            else:
                voids = (restored[0] + 1, record.seq - 1)
                after = restored[1]
        elif ruleset is not None and isinstance(event, MatchStarted):
            # judge under the given ruleset: the fold reads its setup and flags from the state
            after = evolve(state, event.model_copy(update={"ruleset": ruleset}))
        else:
            after = evolve(state, event)
        located = tuple(_locate(v, record, line, before) for v in found) if found else ()
        if located and strict:
            raise IllegalEventError(record.seq, event_type(event), located)
        visit(Step(record, line, before, after, exp, located, voids))
        state = after
    visitor.end_match(state)
    return visitor.result()


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


class Validator:
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


class FinalState:
    """A visitor that keeps only the final state."""

    def __init__(self) -> None:
        self.state: MatchState = INITIAL

    def begin_match(self, header: LogHeader | None) -> None:
        """Nothing to do."""

    def visit(self, step: Step) -> None:
        """Nothing to do."""

    def end_match(self, final: MatchState) -> None:
        """Keep the final state."""
        self.state = final

    def result(self) -> MatchState:
        """The final state."""
        return self.state


class Collect:
    """A visitor that keeps every step (for small matches and tests)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.final: MatchState = INITIAL

    def begin_match(self, header: LogHeader | None) -> None:
        """Nothing to do."""

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
    records: Iterable[EventRecord], *, ruleset: Ruleset | None = None, strict: bool = False
) -> ValidationReport:
    """Validate records in memory (see `replay`)."""
    return replay(records, Validator(), ruleset=ruleset, strict=strict)
