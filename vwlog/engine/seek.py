"""Positions in a match: priority points, the board at any seq, and a timeline to step through.

Everything here stands on the one replay loop (`vwlog.engine.replay.replay`); nothing folds events
by itself, so a board reached by seeking is exactly the board validation sees, catch-ups of omitted
consequences and judges' back-ups included.

* `priority_points` lists the positions after which a player holds priority (DESIGN §2): where
  a fork may start.
* `state_at` replays a prefix and returns the board after one seq.
* `Timeline` makes one pass over a whole match, keeping the board at a checkpoint every ``every``
  events, so that reaching any seq afterwards replays at most ``every`` events from the nearest
  checkpoint: flat in match length, a few milliseconds on a 10,000-event match.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from vwlog.engine.replay import BaseVisitor, Collect, Fanout, FinalState, Step, Visitor, replay
from vwlog.events import TRAILER_TYPES, EventRecord, JudgeRulingIssued, event_type
from vwlog.model.errors import InvalidParameterError, SeqOutOfRangeError
from vwlog.model.types import RulingKind
from vwlog.projections import INITIAL
from vwlog.rules import DEFAULT_RULESET, expect

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

    from vwlog.events import LogHeader
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState

Item: TypeAlias = EventRecord | tuple[int, EventRecord]
"""A record, or a ``(line, record)`` pair when it comes from a file (as `replay` takes them)."""

DEFAULT_EVERY = 64
"""Events between two checkpoints of a `Timeline`: the most a seek replays."""
CHUNK_CACHE = 8
"""Stretches of replayed steps a `Timeline` keeps, so stepping back and forth is free."""


@dataclass(frozen=True, slots=True)
class PriorityPoint:
    """A position after which a player holds priority: the next event is their decision."""

    seq: int
    """The event after which the window is open."""
    player: str
    """Who holds priority."""
    turn: int
    """Turn number."""
    phase: str | None
    """Phase."""
    step: str | None
    """Step, in phases that have steps."""
    register_depth: int
    """Objects waiting on the register."""


def _point(seq: int, state: MatchState, player: str | None) -> PriorityPoint:
    return PriorityPoint(
        seq=seq,
        player=player or "",
        turn=state.turn,
        phase=str(state.phase) if state.phase else None,
        step=str(state.step) if state.step else None,
        register_depth=len(state.register),
    )


class PriorityPoints(BaseVisitor[list[PriorityPoint]]):
    """A replay visitor that lists the priority points of a match."""

    def __init__(self) -> None:
        self.points: list[PriorityPoint] = []
        self._last_seq: int | None = None

    def visit(self, step: Step) -> None:
        """The position before this event is a priority point if the rules awaited priority.

        The seal and its signatures are records, not game events: the position after them is
        the one after the last game event, so they are never a point themselves."""
        if type(step.record.event) in TRAILER_TYPES:
            return
        if self._last_seq is not None and step.expected.is_priority:
            self.points.append(_point(self._last_seq, step.before, step.expected.player))
        self._last_seq = step.record.seq

    def end_match(self, final: MatchState) -> None:
        """A log that ends in an open window ends at a priority point."""
        if self._last_seq is None:
            return
        exp = expect(final.ruleset or DEFAULT_RULESET, final)
        if exp.is_priority:
            self.points.append(_point(self._last_seq, final, exp.player))

    def result(self) -> list[PriorityPoint]:
        """The priority points, in seq order."""
        return self.points


def priority_points(
    records: Iterable[Item], *, ruleset: Ruleset | None = None
) -> list[PriorityPoint]:
    """The priority points of a match, in seq order.

    A priority point is the seq of an event after which the rules await the decision of a
    player holding priority (`vwlog.rules.Expect.is_priority`); a fork may start only there.
    """
    return replay(records, PriorityPoints(), ruleset=ruleset)


def _seq_of(item: Item) -> int:
    return item.seq if isinstance(item, EventRecord) else item[1].seq


def no_such_seq(seq: int, source: str, first: int | None, last: int | None) -> SeqOutOfRangeError:
    """The error for a seq that ``source`` does not hold (its seqs run ``first``..``last``;
    ``None``: it has no events)."""
    return SeqOutOfRangeError(source, seq, first, last)


def state_at(
    records: Iterable[Item],
    seq: int,
    *,
    ruleset: Ruleset | None = None,
    source: str = "this match",
    visitor: Visitor[Any] | None = None,
) -> MatchState:
    """The board after the event ``seq`` (``0``: the empty board before the first event).

    Replays the records up to ``seq`` and stops reading there, so a streamed log is read only
    as far as needed.

    Args:
        records: the match, in order.
        seq: the position.
        ruleset: judge under this ruleset instead of the one the match names.
        source: how an error names the match (a file name, a match id).
        visitor: another visitor to feed during the same pass (what a player has seen, say);
            read its result afterwards.

    Raises:
        SeqOutOfRangeError: the match has no event with this seq.
    """
    if seq == 0:
        return INITIAL
    first: int | None = None
    last: int | None = None

    def upto() -> Iterator[Item]:
        nonlocal first, last
        for item in records:
            s = _seq_of(item)
            if s > seq:
                return
            if first is None:
                first = s
            last = s
            yield item
            if s == seq:  # seqs only grow: read not one line more than needed
                return

    if visitor is None:
        final = cast("MatchState", replay(upto(), FinalState(), ruleset=ruleset))
    else:
        final = replay(upto(), Fanout(FinalState(), visitor), ruleset=ruleset)[0]
    if last != seq:
        raise no_such_seq(seq, source, first, last)
    return final


# -- the timeline ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    """What a `Timeline` knows of every event without replaying it again."""

    seq: int
    """Sequence number."""
    type: str
    """Event type tag."""
    decision: bool
    """Whether a player decided it."""
    turn: int
    """Turn number after the event."""
    phase: str | None
    """Phase after the event."""
    step: str | None
    """Step after the event."""
    priority: str | None
    """Who holds priority after the event."""


class _Indexer(BaseVisitor[None]):
    """The visitor of a timeline's one pass: marks, checkpoints, violations, priority points."""

    def __init__(self, every: int, ruleset: Ruleset | None) -> None:
        self.every = every
        self.ruleset = ruleset
        self.marks: list[Mark] = []
        self.checkpoints: dict[int, MatchState] = {0: INITIAL}
        self.pinned: dict[int, Step] = {}
        self.violations: dict[int, tuple[Violation, ...]] = {}
        self.points = PriorityPoints()
        self.final: MatchState = INITIAL
        self._rs: Ruleset | None = ruleset

    def visit(self, step: Step) -> None:
        """Index the event; keep a checkpoint where one is due and safe."""
        i = len(self.marks)
        record, after = step.record, step.after
        event = record.event
        self.marks.append(
            Mark(
                seq=record.seq,
                type=event_type(event),
                decision=event.DECISION,
                turn=after.turn,
                phase=str(after.phase) if after.phase else None,
                step=str(after.step) if after.step else None,
                priority=after.priority,
            )
        )
        if step.violations:
            self.violations[record.seq] = step.violations
        self.points.visit(step)
        if self._rs is None and after.started:
            self._rs = after.ruleset
        if isinstance(event, JudgeRulingIssued) and event.kind == RulingKind.BACK_UP:
            # the loop restores a back-up from its own memory of priority points, which a
            # checkpoint does not hold: keep this step whole and restart after it
            self.pinned[i] = step
            self._checkpoint(i + 1, after)
        elif (i + 1) % self.every == 0:
            self._checkpoint(i + 1, after)

    def _checkpoint(self, position: int, state: MatchState) -> None:
        # resuming from a state judges under state.ruleset; the full pass judges every event
        # under the ruleset of the first match_started, so only states that agree are safe
        if not state.started or state.ruleset == self._rs:
            self.checkpoints[position] = state

    def end_match(self, final: MatchState) -> None:
        """Keep the final board."""
        self.final = final
        self.points.end_match(final)

    def result(self) -> None:
        """Nothing: the timeline reads the fields."""


class Timeline:
    """A whole match, replayed once, for stepping to any event quickly.

    The one pass keeps a `Mark` per event, the violations, the priority points and a checkpoint
    board every ``every`` events. `step` and `state_at` then replay at most ``every`` events
    from the nearest checkpoint; the replayed stretch is cached, so moving one event back or
    forth costs nothing.

    Example::

        timeline = Timeline(read_log("match.jsonl")[1])
        board = timeline.state_at(5000)
        step = timeline.step(timeline.index(5000))   # record, before, after, violations
    """

    def __init__(
        self,
        records: Iterable[Item],
        *,
        header: LogHeader | None = None,
        ruleset: Ruleset | None = None,
        every: int = DEFAULT_EVERY,
        visitor: Visitor[Any] | None = None,
        source: str = "this match",
    ) -> None:
        """Replay ``records`` once.

        Args:
            records: the match, in order.
            header: the log header, passed to the visitors.
            ruleset: judge under this ruleset instead of the one the match names.
            every: events between checkpoints (at least 1).
            visitor: another visitor to feed during the same pass (descriptions, statistics).
            source: how errors name the match.

        Raises:
            InvalidParameterError: ``every`` is below 1.
        """
        if every < 1:
            raise InvalidParameterError("checkpoint interval", every, "must be at least 1")
        self.items: list[Item] = list(records)
        self.header = header
        self.ruleset = ruleset
        self.every = every
        self.source = source
        indexer = _Indexer(every, ruleset)
        fan = Fanout(indexer, visitor) if visitor is not None else Fanout(indexer)
        replay(self.items, fan, header=header, ruleset=ruleset)
        self.marks: tuple[Mark, ...] = tuple(indexer.marks)
        """One mark per event, in order."""
        self.violations: Mapping[int, tuple[Violation, ...]] = indexer.violations
        """Violations by seq (only seqs that have some)."""
        self.priority_points: tuple[PriorityPoint, ...] = tuple(indexer.points.result())
        """The priority points, in seq order."""
        self.final: MatchState = indexer.final
        """The board after the last event."""
        self._checkpoints = indexer.checkpoints
        self._positions = sorted(indexer.checkpoints)
        self._pinned = indexer.pinned
        self._index = {m.seq: i for i, m in enumerate(self.marks)}
        self._chunks: OrderedDict[int, list[Step]] = OrderedDict()

    def __len__(self) -> int:
        return len(self.marks)

    @property
    def checkpoints(self) -> int:
        """How many boards the timeline keeps."""
        return len(self._positions)

    def index(self, seq: int) -> int:
        """The position (0-based) of the event ``seq``.

        Raises:
            SeqOutOfRangeError: the match has no event with this seq.
        """
        i = self._index.get(seq)
        if i is None:
            first = self.marks[0].seq if self.marks else None
            last = self.marks[-1].seq if self.marks else None
            raise no_such_seq(seq, self.source, first, last)
        return i

    def step(self, index: int) -> Step:
        """The replay step of the event at ``index``: record, boards before and after,
        expectation and violations.

        Raises:
            IndexError: ``index`` is outside the match.
        """
        if not 0 <= index < len(self.marks):
            msg = f"event index {index} outside 0..{len(self.marks) - 1}"
            raise IndexError(msg)
        pinned = self._pinned.get(index)
        if pinned is not None:
            return pinned
        start = self._positions[bisect_right(self._positions, index) - 1]
        return self._chunk(start)[index - start]

    def step_at(self, seq: int) -> Step:
        """The replay step of the event ``seq`` (see `step`).

        Raises:
            SeqOutOfRangeError: the match has no event with this seq.
        """
        return self.step(self.index(seq))

    def state_at(self, seq: int) -> MatchState:
        """The board after the event ``seq`` (``0``: before the first event).

        Raises:
            SeqOutOfRangeError: the match has no event with this seq.
        """
        if seq == 0:
            return INITIAL
        return cast("MatchState", self.step(self.index(seq)).after)

    def find(
        self, start: int, predicate: Callable[[Mark], bool], *, backward: bool = False
    ) -> int | None:
        """The index of the next event after ``start`` (or before it, ``backward``) whose mark
        satisfies ``predicate``; ``None`` if there is none."""
        rng: Sequence[int] = (
            range(start - 1, -1, -1) if backward else range(start + 1, len(self.marks))
        )
        for i in rng:
            if predicate(self.marks[i]):
                return i
        return None

    def _chunk(self, start: int) -> list[Step]:
        cached = self._chunks.get(start)
        if cached is not None:
            self._chunks.move_to_end(start)
            return cached
        k = self._positions.index(start)
        end = self._positions[k + 1] if k + 1 < len(self._positions) else len(self.items)
        steps = replay(
            self.items[start:end],
            Collect(),
            ruleset=self.ruleset,
            initial=self._checkpoints[start],
        )
        self._chunks[start] = steps
        if len(self._chunks) > CHUNK_CACHE:
            self._chunks.popitem(last=False)
        return steps


__all__ = [
    "CHUNK_CACHE",
    "DEFAULT_EVERY",
    "Fanout",
    "Item",
    "Mark",
    "PriorityPoint",
    "PriorityPoints",
    "Timeline",
    "no_such_seq",
    "priority_points",
    "state_at",
]
