"""Every exception of vwlog, and the `Violation` value.

Imports only `vwlog.model.types`, so every layer may use it. Exceptions carry fields and build their
message in ``__str__``; a violation is data, not an exception (it is raised only in strict mode,
inside `IllegalEventError`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.model.text import Msg
    from vwlog.model.types import RuleId


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: which rule, where, and what was expected instead.

    Renders as ``R-REG-6  player 'p2' does not hold priority (seq 57, line 58)``.
    """

    rule: RuleId
    """The rule id of the digest (RULES.md) that the event breaks."""
    message: str
    """What is wrong, lower-case, naming cards and players."""
    seq: int | None = None
    """Sequence number of the offending event, when known."""
    line: int | None = None
    """Line of the log file, when validating a file."""
    event_type: str | None = None
    """Type tag of the offending event."""
    turn: int | None = None
    """Turn number at the moment of the event."""
    phase: str | None = None
    """Phase at the moment of the event."""
    step: str | None = None
    """Step at the moment of the event, if the phase has steps."""
    priority: str | None = None
    """Who held priority at the moment of the event, if anybody."""
    expected: str | None = None
    """What the rules demanded instead, if the rules demand something definite."""
    actual: str | None = None
    """What the log shows, when it differs from ``expected``."""
    flag: str | None = None
    """The ruleset flag that decides this verdict, for rules that hold only by default."""
    text: Msg | None = field(default=None, compare=False)
    """``message`` as a template and its values, so a report can say it in another language
    (``None`` for a violation built with a plain message)."""

    def located(self, **where: object) -> Violation:
        """Return a copy with location fields filled in."""
        return replace(self, **where)  # type: ignore[arg-type]  # fields named by keyword

    def where(self) -> str:
        """The position in the match as text: ``seq 57, line 58, turn 3 COMBAT/C5``."""
        parts: list[str] = []
        if self.seq is not None:
            parts.append(f"seq {self.seq}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.turn is not None:
            pos = f"turn {self.turn} {self.phase or ''}"
            if self.step:
                pos += f"/{self.step}"
            parts.append(pos.strip())
        if self.priority:
            parts.append(f"priority {self.priority}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        text = f"{self.rule}  {self.message}"
        if where:
            text += f" ({where})"
        return text


class VwlogError(Exception):
    """Root of every vwlog exception; never raised bare."""


class LogFormatError(VwlogError, ValueError):
    """A log file is unreadable or malformed."""

    def __init__(self, path: str, line: int | None, detail: str, field: str | None = None) -> None:
        super().__init__(path, line, detail, field)
        self.path = path
        self.line = line
        self.detail = detail
        self.field = field

    def __str__(self) -> str:
        where = f"{self.path}"
        if self.line is not None:
            where += f", line {self.line}"
        if self.field:
            where += f", field {self.field!r}"
        return f"{where}: {self.detail}"


class UnsupportedVersionError(LogFormatError):
    """A log declares a format version that no upcaster can read."""


class OutputError(VwlogError):
    """A file that vwlog writes (a log, a schema) could not be written."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(path, detail)
        self.path = path
        self.detail = detail

    def __str__(self) -> str:
        return f"cannot write {self.path!r}: {self.detail}"


class IllegalEventError(VwlogError, ValueError):
    """An event breaks rules; raised only in strict mode or by play mode."""

    def __init__(self, seq: int | None, event_type: str, violations: Sequence[Violation]) -> None:
        super().__init__(seq, event_type, tuple(violations))
        self.seq = seq
        self.event_type = event_type
        self.violations = tuple(violations)

    def __str__(self) -> str:
        where = f"event {self.seq} ({self.event_type})" if self.seq else f"{self.event_type}"
        n = len(self.violations)
        head = f"{where} breaks {n} rule{'s' if n != 1 else ''}"
        # one line, whatever the count (errors are shown as one ``Error: …`` line)
        return f"{head}: " + "; ".join(f"{v.rule} {v.message}" for v in self.violations)


class MatchNotFoundError(VwlogError, LookupError):
    """No stored match has this id."""

    def __init__(self, match_id: str) -> None:
        super().__init__(match_id)
        self.match_id = match_id

    def __str__(self) -> str:
        return f"no stored match {self.match_id!r} (see 'vwlog list')"


class SequenceConflictError(VwlogError):
    """Another writer already appended at this position of the match (optimistic concurrency)."""

    def __init__(self, match_id: str, seq: int) -> None:
        super().__init__(match_id, seq)
        self.match_id = match_id
        self.seq = seq

    def __str__(self) -> str:
        return (
            f"match {self.match_id!r} already has an event at seq {self.seq}: another writer "
            "appended first; nothing was written, reload and try again"
        )


class MatchExistsError(VwlogError):
    """A different match with this id is already stored: its head hash differs."""

    def __init__(self, match_id: str, stored_head: str | None, new_head: str | None) -> None:
        super().__init__(match_id, stored_head, new_head)
        self.match_id = match_id
        self.stored_head = stored_head
        self.new_head = new_head

    def __str__(self) -> str:
        stored = (self.stored_head or "none")[:12]
        new = (self.new_head or "none")[:12]
        return (
            f"match {self.match_id!r} is already stored with different contents (stored head "
            f"{stored}, this one {new}): nothing was written; export the stored match and "
            "compare the two with 'vwlog diff', or import this one under another id"
        )


class StoreError(VwlogError):
    """The match store failed (database error, corrupt record)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def __str__(self) -> str:
        return f"store error: {self.detail}"


class StoreConfigError(VwlogError):
    """The ``--store`` URL is malformed or needs an extra that is not installed."""

    def __init__(self, url: str, detail: str) -> None:
        super().__init__(url, detail)
        self.url = url
        self.detail = detail

    def __str__(self) -> str:
        return f"store {self.url!r}: {self.detail}"


class CardPoolError(VwlogError, ValueError):
    """A card pool or deck list is malformed."""

    def __init__(self, source: str, detail: str) -> None:
        super().__init__(source, detail)
        self.source = source
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.source}: {self.detail}"


class UsageError(VwlogError, ValueError):
    """A request does not make sense (for example a fork at a position that is not a priority
    point)."""

    context: str = ""
    """Where the problem arose, prefixed to the message (``"decision 2 of 3: "``)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.context}{self.message()}"

    def message(self) -> str:
        """What is wrong, without the context."""
        return self.detail

    def within(self, context: str) -> Self:
        """A copy of this error with ``context`` put before its message (the same class, so
        callers can still tell the cases apart).

        >>> str(UsageError("empty decision").within("decision 2 of 3: "))
        'decision 2 of 3: empty decision'
        """
        err = copy.copy(self)
        err.context = context + self.context
        return err


# -- specific usage errors --------------------------------------------------------------------
# Each is a `UsageError`, so ``except UsageError`` sites keep working. Their messages say what
# is wrong in terms of the match, never which command-line flag to type: the CLI adds that
# (`vwlog.cli.errors`).


class DecisionSyntaxError(UsageError):
    """A decision written in the play notation (or as JSON) cannot be read."""

    def __init__(self, text: str, detail: str, syntax: str | None = None) -> None:
        super().__init__(detail)
        self.args = (text, detail, syntax)
        self.text = text
        self.syntax = syntax

    def message(self) -> str:
        where = f"decision {self.text!r}: " if self.text else ""
        hint = f" (the syntax is '{self.syntax}')" if self.syntax else ""
        return f"{where}{self.detail}{hint}"


class UnknownVerbError(DecisionSyntaxError):
    """A decision starts with a word that names no decision."""

    def __init__(self, text: str, verb: str) -> None:
        super().__init__(text, f"unknown decision {verb!r}")
        self.args = (text, verb)
        self.verb = verb

    def message(self) -> str:
        return self.detail


class NoDecisionAwaitedError(UsageError):
    """Nobody is to decide now: the match is over or has not started."""

    def __init__(self, match_id: str | None = None, winner: str | None = None) -> None:
        where = f"match {match_id!r}" if match_id else "the match"
        if winner is not None:
            detail = f"{where} is over (won by {winner})"
        else:
            detail = "no decision is awaited now (the match is over or not started)"
        super().__init__(detail)
        self.args = (match_id, winner)
        self.match_id = match_id
        self.winner = winner


class MatchOverError(NoDecisionAwaitedError):
    """A decision was given for a match that is already over."""

    def __init__(self, match_id: str | None, winner: str | None) -> None:
        super().__init__(match_id, winner or "nobody")


class MatchNotStartedError(UsageError):
    """A stored match has no ``match_started`` event, so it has no ruleset and no board."""

    def __init__(self, match_id: str, detail: str = "has not started") -> None:
        super().__init__(f"match {match_id!r} {detail}")
        self.args = (match_id, detail)
        self.match_id = match_id


class NotPlayableError(UsageError):
    """An event was offered as a decision but is never played (a ruling, a fork marker)."""

    def __init__(self, event_type: str, reason: str) -> None:
        super().__init__(f"{event_type} is not played: {reason}")
        self.args = (event_type, reason)
        self.event_type = event_type
        self.reason = reason


class NotAPriorityPointError(UsageError):
    """A position where no player holds priority was asked for as a fork point."""

    def __init__(
        self, match_id: str, seq: int, before: int | None = None, after: int | None = None
    ) -> None:
        near = ", ".join(f"seq {s}" for s in (before, after) if s is not None) or "none nearby"
        super().__init__(f"seq {seq} of {match_id!r} is not a priority point (nearest: {near})")
        self.args = (match_id, seq, before, after)
        self.match_id = match_id
        self.seq = seq
        self.before = before
        self.after = after


class SeqOutOfRangeError(UsageError, IndexError):
    """A sequence number outside the events of a log or stored match."""

    def __init__(self, source: str, seq: int, first: int | None, last: int | None) -> None:
        if first is None or last is None:
            detail = f"no event with seq {seq} in {source}: it has no events"
        else:
            detail = f"no event with seq {seq} in {source} (its seqs run {first}..{last})"
        super().__init__(detail)
        self.args = (source, seq, first, last)
        self.source = source
        self.seq = seq
        self.first = first
        self.last = last


class StoredSeqOutOfRangeError(SeqOutOfRangeError):
    """A sequence number outside the events of a stored match (0 is the empty board)."""

    def __init__(self, match_id: str, seq: int, last: int) -> None:
        super().__init__(repr(match_id), seq, 1, last)
        self.args = (match_id, seq, last)
        self.detail = f"match {match_id!r} has events 1 to {last}; no seq {seq}"
        self.match_id = match_id


class RulesetError(UsageError):
    """A ruleset, or a change to one, is not valid."""


class RulesetOverrideError(RulesetError):
    """A ruleset flag override (``FLAG=VALUE``) names no flag, is malformed, or its value does
    not fit the flag."""

    def __init__(self, override: str, detail: str, flag: str | None = None) -> None:
        super().__init__(detail)
        self.args = (override, detail, flag)
        self.override = override
        self.flag = flag

    def message(self) -> str:
        return f"ruleset override {self.override!r}: {self.detail}"


class UnknownFlagError(RulesetOverrideError):
    """A ruleset flag override names no flag of `Ruleset`."""

    def __init__(self, override: str, flag: str) -> None:
        super().__init__(override, f"no ruleset flag {flag!r}", flag)
        self.args = (override, flag)


class RulesetFileError(RulesetError):
    """A ruleset file cannot be read or is not a valid ruleset."""

    def __init__(self, path: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.args = (path, detail, field)
        self.path = path
        self.field = field

    def message(self) -> str:
        where = f", field {self.field!r}" if self.field else ""
        return f"{self.path}{where}: {self.detail}"


class UnknownPlayerError(UsageError, LookupError):
    """A player id that has no seat in the match."""

    def __init__(self, player: str, seated: Sequence[str] = ()) -> None:
        players = ", ".join(seated) or "none, the match has not started"
        super().__init__(f"no player {player!r} in this match (players: {players})")
        self.args = (player, tuple(seated))
        self.player = player
        self.seated = tuple(seated)


class UnknownCardError(UsageError, LookupError):
    """A card instance id that the match does not know, or a skill the card lacks."""

    def __init__(self, card: str, skill: str | None = None) -> None:
        if skill is None:
            detail = f"unknown card {card!r}"
        else:
            detail = f"{card} has no skill {skill!r}"
        super().__init__(detail)
        self.args = (card, skill)
        self.card = card
        self.skill = skill


class SourceNotFoundError(UsageError, LookupError):
    """A name that is neither a readable log file nor a stored match."""

    def __init__(self, ref: str) -> None:
        super().__init__(f"{ref}: no such log file or stored match")
        self.args = (ref,)
        self.ref = ref


class NotAForkError(UsageError):
    """A match that records no parent where a fork is needed."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} is not a fork (it records no parent)")
        self.args = (match_id,)
        self.match_id = match_id


class ParentNotStoredError(UsageError, LookupError):
    """The parent of a fork is no longer in the store."""

    def __init__(self, fork_id: str, parent_id: str) -> None:
        super().__init__(f"the parent {parent_id!r} of fork {fork_id!r} is not stored")
        self.args = (fork_id, parent_id)
        self.fork_id = fork_id
        self.parent_id = parent_id


class ForkNameError(UsageError):
    """A fork name is not allowed, or every id it could give is taken."""

    def __init__(self, name: str, detail: str) -> None:
        super().__init__(f"fork name {name!r}: {detail}")
        self.args = (name, detail)
        self.name = name


class InvalidParameterError(UsageError):
    """A parameter of a use case is outside what it accepts (a checkpoint interval below 1,
    a player count outside 2 to 4, ...)."""

    def __init__(self, parameter: str, value: object, detail: str) -> None:
        super().__init__(f"{parameter} {detail}, not {value!r}")
        self.args = (parameter, value, detail)
        self.parameter = parameter
        self.value = value


__all__ = [
    "CardPoolError",
    "DecisionSyntaxError",
    "ForkNameError",
    "IllegalEventError",
    "InvalidParameterError",
    "LogFormatError",
    "MatchExistsError",
    "MatchNotFoundError",
    "MatchNotStartedError",
    "MatchOverError",
    "NoDecisionAwaitedError",
    "NotAForkError",
    "NotAPriorityPointError",
    "NotPlayableError",
    "OutputError",
    "ParentNotStoredError",
    "RulesetError",
    "RulesetFileError",
    "RulesetOverrideError",
    "SeqOutOfRangeError",
    "SequenceConflictError",
    "SourceNotFoundError",
    "StoreConfigError",
    "StoreError",
    "StoredSeqOutOfRangeError",
    "UnknownCardError",
    "UnknownFlagError",
    "UnknownPlayerError",
    "UnknownVerbError",
    "UnsupportedVersionError",
    "UsageError",
    "Violation",
    "VwlogError",
]
