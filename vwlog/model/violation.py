"""The `Violation` value: one broken rule, where, and what was expected instead (re-exported by
`vwlog.model.errors`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vwlog.model.text import Msg
    from vwlog.model.types import RuleId

__all__ = ["Violation"]


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
