"""Every exception of vwlog, and the `Violation` value.

Imports only `vwlog.model.types`, so every layer may use it. Exceptions carry fields and build their
message in ``__str__``; a violation is data, not an exception (it is raised only in strict mode,
inside `IllegalEventError`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

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

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def __str__(self) -> str:
        return self.detail


__all__ = [
    "CardPoolError",
    "IllegalEventError",
    "LogFormatError",
    "MatchExistsError",
    "MatchNotFoundError",
    "OutputError",
    "SequenceConflictError",
    "StoreConfigError",
    "StoreError",
    "UnsupportedVersionError",
    "UsageError",
    "Violation",
    "VwlogError",
]
