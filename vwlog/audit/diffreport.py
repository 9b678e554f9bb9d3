"""The report of where two records of one match part, for every game: the two records, the
events on each side (`DiffEvent`), the first divergence with what it does to the board
(`Divergence`, `Difference`) and the outcome (`DiffReport`). Vandaria Wars' diff fills it
(`vwlog.audit.diff`), every other game's too (`vwlog.audit.gamediff`); `vwlog.render` shows it
(``diff_text``, ``diff_json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from vwlog.model.errors import UsageError
from vwlog.model.text import Msg, msg

if TYPE_CHECKING:
    from vwlog.audit.sources import MatchSource
    from vwlog.model.errors import Violation

__all__ = [
    "AGREEMENT",
    "CONTEXT",
    "DIFF_WINDOW",
    "DiffEvent",
    "DiffReport",
    "Difference",
    "Divergence",
    "RecordSide",
    "numbered_differently",
]

DIFF_WINDOW = 50
"""Most events of each record a diff follows after the divergence."""
CONTEXT = 5
"""Events shown before and after a violation or a chosen position (a diff follows a prefix's
continuation for at least this many events)."""


AGREEMENT = 3
"""Events in a row two records must share, from the same position, to agree again after a
divergence."""


@dataclass(frozen=True)
class Difference:
    """One thing that differs between the two records' boards."""

    subject: Literal["card", "player", "position", "register", "result"]
    key: str
    """The card instance, the player, or the field."""
    when: Literal["after", "window"]
    """``after``: right after the divergent event; ``window``: over the events that follow."""
    text: str
    """The difference in one sentence."""
    a: Any
    """JSON-ready value in A."""
    b: Any
    """JSON-ready value in B."""
    said: Msg | None = field(default=None, compare=False)
    """``text`` as a template and its values, for a diff in another language."""


@dataclass(frozen=True)
class DiffEvent:
    """One event of a record, described against the board before it."""

    seq: int
    line: int | None
    type: str
    decision: bool
    text: str
    """One line of English: the game's sentence for the event."""
    violations: tuple[Violation, ...] = ()
    """The rules it breaks where it stands (for a divergent event: from the common prefix)."""
    event: Any = None
    """The recorded event (of the match's game)."""
    said: Msg | None = field(default=None, compare=False)
    """``text`` as a template and its values, for a diff in another language."""


@dataclass(frozen=True)
class RecordSide:
    """One of the two records."""

    name: str
    match_id: str | None
    events: int
    """Events in the record."""

    @classmethod
    def of(cls, source: MatchSource, events: int) -> RecordSide:
        """A source read in full: its name, its header's match id and ``events``."""
        return cls(source.name, source.header.match_id if source.header else None, events)


@dataclass(frozen=True)
class Divergence:
    """The first event where two records part, and what follows from it."""

    seq: int
    position: str
    """Where the match stood: turn, active player, phase and step, priority."""
    a: DiffEvent
    """A's event at ``seq``, judged on the common board."""
    b: DiffEvent
    """B's event at ``seq``, judged on the common board."""
    then_a: tuple[DiffEvent, ...]
    """A's events after the divergent one, to the end of the window."""
    then_b: tuple[DiffEvent, ...]
    """B's events after the divergent one, to the end of the window."""
    differences: tuple[Difference, ...]
    """What differs on the board, cards first."""
    agree_again: tuple[int, int] | None = None
    """The seqs (in A, in B) from which the records agree again, if they do within the window;
    the events before them are where the records differ. Agreement means the same position (the
    same board and so the same expected event) followed by the same events."""
    part_again: tuple[int, int] | None = None
    """The seqs (in A, in B) where the records, having agreed again, differ once more within
    the window (compare the records from there for that difference)."""
    altered_a: Msg | None = None
    """Set when A's divergent record does not match A's own hash chain (altered after sealing)."""
    altered_b: Msg | None = None
    """The same for B."""
    position_said: Msg | None = field(default=None, compare=False)
    """``position`` as a template and its values, for a diff in another language."""

    @property
    def window_end(self) -> tuple[int, int]:
        """The last seq followed in A and in B."""
        return (
            self.then_a[-1].seq if self.then_a else self.seq,
            self.then_b[-1].seq if self.then_b else self.seq,
        )

    @property
    def stretch(self) -> tuple[tuple[DiffEvent, ...], tuple[DiffEvent, ...]]:
        """The events of A and of B from the divergence to where they agree again (to the end
        of the window if they do not)."""
        all_a, all_b = (self.a, *self.then_a), (self.b, *self.then_b)
        if self.agree_again is None:
            return all_a, all_b
        ka, kb = self.agree_again
        return (
            tuple(e for e in all_a if e.seq < ka),
            tuple(e for e in all_b if e.seq < kb),
        )


@dataclass(frozen=True)
class DiffReport:
    """The outcome of comparing two records of one match."""

    a: RecordSide
    b: RecordSide
    common: int
    """Events the two records share from the start."""
    outcome: Literal["identical", "prefix", "diverged"]
    divergence: Divergence | None = None
    continuation: tuple[DiffEvent, ...] = ()
    """For a prefix: the first events the longer record goes on with."""

    @property
    def longer(self) -> Literal["A", "B"] | None:
        """Which record goes on past the other's end (a prefix), if any."""
        if self.outcome != "prefix":
            return None
        return "A" if self.a.events > self.b.events else "B"

    @property
    def same(self) -> bool:
        """Whether the records hold the same events."""
        return self.outcome == "identical"


def numbered_differently(a: MatchSource, b: MatchSource, seq: int, seq2: int) -> UsageError:
    """The refusal of two records that give one event different seqs (``seq`` in ``a``,
    ``seq2`` in ``b``)."""
    return UsageError(
        msg(
            "{name} and {name2} number their events differently (seq {seq} against seq {seq2})",
            name=a.name,
            name2=b.name,
            seq=seq,
            seq2=seq2,
        )
    )
