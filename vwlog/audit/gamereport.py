"""A judge's report of a disputed match of any game, asked of the game's rules alone.

`build_game_report` gathers in one replay what `vwlog.audit.report.build_report` gathers for
Vandaria Wars, in the terms every game gives the core (`vwlog.games.GameRules`): the
validation, every violating event with the board before it (the game's ``views``: its text
board and its board as data) and the events around it (the game's sentences), the ruleset the
match was judged under with every flag beside its default, and with ``at`` one position in
detail. What each player knew there and the judges' back-ups are Vandaria Wars' and are left
out. Nothing here writes Markdown or HTML (`vwlog.render.gamereport`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vwlog.audit.diffreport import CONTEXT
from vwlog.audit.report import DETAILED_VIOLATIONS, GameFlag, Integrity
from vwlog.audit.sources import MatchSource, reading, record_of
from vwlog.engine.replay import BaseVisitor, ValidationReport, Validator, replay
from vwlog.games import event_text
from vwlog.model.errors import SeqOutOfRangeError
from vwlog.model.text import Msg, msg

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.engine.replay import Step
    from vwlog.engine.seek import Item
    from vwlog.events import LogHeader
    from vwlog.games import GameRules, Views
    from vwlog.model.violation import Violation

__all__ = [
    "GameFlag",
    "GameLine",
    "GameMoment",
    "GameReport",
    "build_game_report",
    "flag_table",
    "said_event",
]


@dataclass(frozen=True)
class GameLine:
    """One event in a report, said in the game's words against the board before it."""

    seq: int
    line: int | None
    type: str
    decision: bool
    said: Msg | str
    """The game's sentence (a template and its values), or the event's fields for a game
    without views."""
    rules: tuple[str, ...] = ()
    """Rule ids it breaks."""


@dataclass
class GameMoment:
    """A position shown in detail: the board, the event and the events around it."""

    seq: int
    label: Msg
    """What the board is (``before seq 12``, ``after seq 12``)."""
    board: Any
    """The game's board (its own class)."""
    event: GameLine
    before: list[GameLine]
    after: list[GameLine] = field(default_factory=list)
    violations: tuple[Violation, ...] = ()


@dataclass
class GameReport:
    """Everything `vwlog.render.gamereport` shows about one match of a game."""

    source: str
    header: LogHeader | None
    game: GameRules
    validation: ValidationReport
    start: Any
    """The event the match began with (``None``: the record has none)."""
    ruleset: Any
    """The ruleset the match was judged under (the game's default when it names none)."""
    moments: list[GameMoment]
    """The first `DETAILED_VIOLATIONS` violating events, with boards and context."""
    final: Any
    at: GameMoment | None = None
    integrity: Integrity | None = None
    """What checking the record's hash chain found (set by the command that judges it)."""

    @property
    def match_id(self) -> str | None:
        """The match id of the header."""
        return self.header.match_id if self.header is not None else self.validation.match_id


def said_event(game: GameRules, event: Any, before: Any, views: Views | None) -> Msg | str:
    """``event`` in ``game``'s sentence (its views), or by its type and fields."""
    if views is None:
        return event_text(event)
    return views.description(event, before)


def flag_table(game: GameRules, ruleset: Any) -> list[GameFlag]:
    """Every field of ``ruleset`` (a pydantic model) beside the game's default, in field
    order; ``id`` and ``version`` are the ruleset's label, not flags."""
    fields = getattr(type(ruleset), "model_fields", None)
    if not fields:
        return []
    values = ruleset.model_dump(mode="json")
    dump = getattr(game.default_ruleset, "model_dump", None)
    defaults = dump(mode="json") if dump is not None else {}
    out = []
    for name, info in fields.items():
        if name in ("id", "version"):
            continue
        value, was = values.get(name), defaults.get(name)
        out.append(GameFlag(name, value, was, " ".join((info.description or "").split())))
    return out


class _Collector(BaseVisitor[ValidationReport]):
    """The report's one replay visitor: validation, violations in context, the chosen
    position."""

    def __init__(self, source: str, game: GameRules, at: int | None) -> None:
        self.validator = Validator(source=source)
        self.game = game
        self.views = game.views() if game.views is not None else None
        self.recent: deque[GameLine] = deque(maxlen=CONTEXT)
        self.moments: list[GameMoment] = []
        self.waiting: list[GameMoment] = []
        self.start: Any = None
        self.at = at
        self.at_moment: GameMoment | None = None
        self.final: Any = game.initial

    def begin_match(self, header: LogHeader | None) -> None:
        """Begin validating."""
        self.validator.begin_match(header)

    def _line(self, step: Step) -> GameLine:
        event = step.event
        return GameLine(
            seq=step.record.seq,
            line=step.line,
            type=str(getattr(event, "type", type(event).__name__)),
            decision=type(event) in self.game.decision_types,
            said=said_event(self.game, event, step.before, self.views),
            rules=tuple(v.rule for v in step.violations),
        )

    def visit(self, step: Step) -> None:
        """Validate the step and keep what the report shows of it."""
        self.validator.visit(step)
        seq = step.record.seq
        line = self._line(step)
        for m in self.waiting:
            m.after.append(line)
        self.waiting = [m for m in self.waiting if len(m.after) < CONTEXT]
        if self.start is None and isinstance(step.event, self.game.start_type):
            self.start = step.event
        if step.violations and len(self.moments) < DETAILED_VIOLATIONS:
            label = msg("before seq {seq}", seq=seq)
            moment = GameMoment(
                seq, label, step.before, line, list(self.recent), violations=step.violations
            )
            self.moments.append(moment)
            self.waiting.append(moment)
        if self.at is not None and seq == self.at:
            label = msg("after seq {seq}", seq=seq)
            self.at_moment = GameMoment(seq, label, step.after, line, list(self.recent))
            self.waiting.append(self.at_moment)
        self.recent.append(line)

    def end_match(self, final: Any) -> None:
        """Finish validating."""
        self.validator.end_match(final)
        self.final = final

    def result(self) -> ValidationReport:
        """The validation report."""
        return self.validator.result()


def build_game_report(source: MatchSource, game: GameRules, *, at: int | None = None) -> GameReport:
    """Gather a dispute report of a match of ``game`` in one replay: validation, every
    violation with the board before it and the events around it, and with ``at`` the board
    after that event and the events around it.

    Raises:
        UsageError: the match has no event ``at``.
        LogFormatError: the record cannot be read.
    """
    collector = _Collector(source.name, game, at)
    seqs: list[int] = []

    def counted() -> Iterator[Item]:
        with reading(source) as items:
            for item in items:
                seq = record_of(item).seq
                if not seqs:
                    seqs.append(seq)
                seqs[1:] = [seq]
                yield item

    validation = replay(counted(), collector, header=source.header, game=game)
    if at is not None and collector.at_moment is None:
        first, last = (seqs[0], seqs[-1]) if seqs else (None, None)
        raise SeqOutOfRangeError(source.name, at, first, last)
    start = collector.start
    ruleset = game.ruleset_of(collector.final)
    if ruleset is None and start is not None:
        ruleset = game.start_ruleset(start)
    return GameReport(
        source=source.name,
        header=source.header,
        game=game,
        validation=validation,
        start=start,
        ruleset=ruleset if ruleset is not None else game.default_ruleset,
        moments=collector.moments,
        final=collector.final,
        at=collector.at_moment,
    )
