"""A judge's report of a disputed match: the model, and the one replay that builds it.

`build_report` gathers, in one replay: validation, every violation with the board before it and
the events around it, the judges' rulings with the events a back-up voided, and optionally one
position in detail with what each player could know there. The document is rendered by
`vwlog.render.markdown.report_markdown` and `vwlog.render.html.report_html`; nothing here
writes Markdown or HTML.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vwlog.audit.diffreport import CONTEXT
from vwlog.audit.knowledge import Knowledge, KnowledgeTracker
from vwlog.audit.sources import MatchSource, reading, unpack
from vwlog.engine.replay import BaseVisitor, ValidationReport, Validator, replay
from vwlog.events import JudgeRulingIssued, MatchStarted, event_type
from vwlog.games.vw.describe import description
from vwlog.model.cards import OPEN_QUESTION_FLAGS, SECOND_FLAGS, Ruleset, flag_reading
from vwlog.model.errors import SeqOutOfRangeError, Violation
from vwlog.model.ruleids import is_citation
from vwlog.model.text import Msg, msg
from vwlog.projections import INITIAL

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.engine.replay import Step
    from vwlog.engine.seek import Item
    from vwlog.events import AnyEvent, LogHeader
    from vwlog.model.state import MatchState

__all__ = [
    "CONTEXT",
    "DETAILED_VIOLATIONS",
    "VOID_MEMORY",
    "DisputeReport",
    "EventLine",
    "FlagRow",
    "GameFlag",
    "Integrity",
    "Moment",
    "RulingEntry",
    "build_report",
    "flag_rows",
]

DETAILED_VIOLATIONS = 25
"""Violations a report shows with their board; the rest are listed in a table."""
VOID_MEMORY = 256
"""Events a report remembers to describe what a judge's back-up voided."""


@dataclass(frozen=True)
class Integrity:
    """What checking a record's hash chain and deck commitments found (from
    `vwlog.services.verify_log` or `vwlog.services.matches.verify_match`)."""

    sealed: bool
    """Whether the record carries hashes at all."""
    head_hash: str | None
    """The hash of the last record (the chain's head)."""
    records: int
    """Records checked."""
    broken_seq: int | None = None
    """The seq of the first broken link, if the chain breaks at a record."""
    broken_line: int | None = None
    """Its line in the file."""
    broken_reason: str | None = None
    """Why the chain breaks there; ``None`` when it holds."""
    commitments: tuple[tuple[str, str], ...] = ()
    """(player, ``verified`` / ``mismatch`` / ``not revealed``) per deck commitment."""

    @property
    def intact(self) -> bool:
        """Whether the chain holds."""
        return self.sealed and self.broken_reason is None


@dataclass(frozen=True)
class EventLine:
    """One event in a report, described against the board before it."""

    seq: int
    line: int | None
    type: str
    decision: bool
    text: str
    rules: tuple[str, ...] = ()
    """Rule ids it breaks."""
    said: Msg | None = field(default=None, compare=False)
    """``text`` as a template and its values, for a report in another language."""


@dataclass
class Moment:
    """A position shown in detail: a board and the events around it."""

    seq: int
    board: MatchState
    board_label: str
    """What the board is (``before seq 193``, ``after seq 412``)."""
    event: EventLine
    before: list[EventLine]
    after: list[EventLine] = field(default_factory=list)
    violations: tuple[Violation, ...] = ()
    highlight: frozenset[str] = frozenset()
    """Cards named by the event, marked on the drawn board."""
    board_said: Msg | None = None
    """``board_label`` as a template and its values, for a report in another language."""


@dataclass
class RulingEntry:
    """A judge's ruling in the log."""

    seq: int
    judge: str
    kind: str
    reason: str
    back_to: int | None
    loser: str | None
    voids: tuple[int, int] | None
    """For a back-up: the seqs it voided (inclusive)."""
    voided: list[EventLine] = field(default_factory=list)
    """The voided events the report could still describe."""
    unlisted: int = 0
    """Voided events older than the report's memory, counted only."""


@dataclass
class DisputeReport:
    """Everything `report_markdown` and `report_html` show about one match."""

    source: str
    header: LogHeader | None
    started: MatchStarted | None
    validation: ValidationReport
    integrity: Integrity | None
    moments: list[Moment]
    """The first `DETAILED_VIOLATIONS` violating events, with boards and context."""
    rulings: list[RulingEntry]
    final: MatchState
    at: Moment | None = None
    knowledge: dict[str, Knowledge] = field(default_factory=dict)
    """With ``at``: what each player could know there."""

    @property
    def match_id(self) -> str | None:
        """The match id of the header."""
        return self.header.match_id if self.header is not None else self.validation.match_id

    def voided_by(self, seq: int) -> int | None:
        """The seq of the back-up ruling that voided event ``seq``, if one did."""
        for r in self.rulings:
            if r.voids is not None and r.voids[0] <= seq <= r.voids[1]:
                return r.seq
        return None


def _named_cards(state: MatchState, event: AnyEvent) -> frozenset[str]:
    """The card instances an event names (for marking them on a board)."""
    found: set[str] = set()
    stack: list[object] = [event.model_dump()]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if value in state.instances:
                found.add(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return frozenset(found)


def _line(step: Step) -> EventLine:
    record = step.record
    return EventLine(
        seq=record.seq,
        line=step.line,
        type=event_type(record.event),
        decision=record.event.DECISION,
        text=str(said := description(record.event, step.before)),
        said=said,
        rules=tuple(v.rule for v in step.violations),
    )


class _Collector(BaseVisitor[ValidationReport]):
    """The report's one replay visitor: validation, violations in context, rulings, the chosen
    position and what the players knew there."""

    def __init__(self, source: str, at: int | None) -> None:
        self.validator = Validator(source=source)
        self.recent: deque[Step] = deque(maxlen=VOID_MEMORY)
        self.moments: list[Moment] = []
        self.waiting: list[Moment] = []
        self.rulings: list[RulingEntry] = []
        self.started: MatchStarted | None = None
        self.at = at
        self.at_moment: Moment | None = None
        self.tracker = KnowledgeTracker() if at is not None else None
        self.knowledge: dict[str, Knowledge] = {}
        self.final: MatchState = INITIAL

    def begin_match(self, header: LogHeader | None) -> None:
        """Begin validating."""
        self.validator.begin_match(header)

    def visit(self, step: Step) -> None:
        """Validate the step and keep what the report shows of it."""
        self.validator.visit(step)
        record = step.record
        event = record.event
        if self.waiting:
            line = _line(step)
            for m in self.waiting:
                m.after.append(line)
            self.waiting = [m for m in self.waiting if len(m.after) < CONTEXT]
        if self.tracker is not None and self.at is not None and record.seq <= self.at:
            self.tracker.visit(step)
        if isinstance(event, MatchStarted) and self.started is None:
            self.started = event
        if step.violations and len(self.moments) < DETAILED_VIOLATIONS:
            moment = self._moment(step, step.before, msg("before seq {seq}", seq=record.seq))
            self.moments.append(moment)
            self.waiting.append(moment)
        if isinstance(event, JudgeRulingIssued):
            self.rulings.append(self._ruling(step, event))
        if self.at is not None and record.seq == self.at:
            moment = self._moment(step, step.after, msg("after seq {seq}", seq=record.seq))
            self.at_moment = moment
            self.waiting.append(moment)
            if self.tracker is not None:
                self.knowledge = {p.id: self.tracker.knowledge(p.id) for p in step.after.players}
        self.recent.append(step)

    def _moment(self, step: Step, board: MatchState, label: Msg) -> Moment:
        """The position at ``step`` shown with ``board``, the event and the ones before it (the
        ones after are added as they are visited)."""
        return Moment(
            seq=step.record.seq,
            board=board,
            board_label=str(label),
            board_said=label,
            event=_line(step),
            before=[_line(s) for s in list(self.recent)[-CONTEXT:]],
            violations=step.violations,
            highlight=_named_cards(board, step.record.event),
        )

    def _ruling(self, step: Step, event: JudgeRulingIssued) -> RulingEntry:
        entry = RulingEntry(
            seq=step.record.seq,
            judge=event.judge,
            kind=str(event.kind),
            reason=event.reason,
            back_to=event.back_to,
            loser=event.loser,
            voids=step.voids,
        )
        if step.voids is not None:
            start, end = step.voids
            kept = [s for s in self.recent if start <= s.record.seq <= end]
            entry.voided = [_line(s) for s in kept]
            entry.unlisted = (end - start + 1) - len(kept)
        return entry

    def end_match(self, final: MatchState) -> None:
        """Finish validating."""
        self.validator.end_match(final)
        self.final = final

    def result(self) -> ValidationReport:
        """The validation report."""
        return self.validator.result()


def build_report(
    source: MatchSource, *, integrity: Integrity | None = None, at: int | None = None
) -> DisputeReport:
    """Gather a dispute report of a match in one replay: validation, every violation with the
    board before it and the events around it, the judges' rulings with the events a back-up
    voided, and with ``at`` the board after that event, the events around it and what each
    player could know there.

    Args:
        source: the match.
        integrity: what checking its hash chain and deck commitments found (the caller runs
            `vwlog.services.verify_log` or `verify_match`, which read raw bytes).
        at: a seq to show in detail.

    Raises:
        UsageError: the match has no event ``at``.
        LogFormatError: the record cannot be read.
    """
    collector = _Collector(source.name, at)
    last = 0
    first: int | None = None

    def counted() -> Iterator[Item]:
        nonlocal last, first
        with reading(source) as items:
            for item in items:
                last = unpack(item)[1].seq
                if first is None:
                    first = last
                yield item

    validation = replay(counted(), collector, header=source.header)
    if at is not None and collector.at_moment is None:
        raise SeqOutOfRangeError(source.name, at, first, last if first is not None else None)
    return DisputeReport(
        source=source.name,
        header=source.header,
        started=collector.started,
        validation=validation,
        integrity=integrity,
        moments=collector.moments,
        rulings=collector.rulings,
        final=collector.final,
        at=collector.at_moment,
        knowledge=collector.knowledge,
    )


# -- rendering the report --------------------------------------------------------------------


_FLAG_QUESTION = {name: oq for oq, name in OPEN_QUESTION_FLAGS.items()} | SECOND_FLAGS


@dataclass(frozen=True)
class GameFlag:
    """One field of a game's ruleset, beside its default."""

    name: str
    value: Any
    default: Any
    meaning: str

    @property
    def changed(self) -> bool:
        """Whether the ruleset sets it away from the default."""
        return bool(self.value != self.default)


@dataclass(frozen=True)
class FlagRow(GameFlag):
    """One Vandaria Wars ruleset flag or parameter, beside its default."""

    question: str
    """The open question it answers (``OQ-7``), or the rule it parameterises."""


def flag_rows(ruleset: Ruleset) -> list[FlagRow]:
    """Every flag and parameter of ``ruleset`` with its default and meaning, in field order."""
    defaults = Ruleset()
    rows = []
    for name, info in Ruleset.model_fields.items():
        if name in ("id", "version"):
            continue
        meaning = (info.description or "").replace("\n", " ")
        question = _FLAG_QUESTION.get(name, "")
        head, sep, tail = meaning.partition(": ")
        if sep and is_citation(head):
            question = question or head
            meaning = tail
        rows.append(
            FlagRow(
                name, flag_reading(ruleset, name), flag_reading(defaults, name), meaning, question
            )
        )
    return rows
