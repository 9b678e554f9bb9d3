"""Positions in a match: fork points, the board at any seq, and a timeline to step through.

Everything here stands on the one replay loop (`vwlog.engine.replay.replay`); nothing folds events
by itself, so a board reached by seeking is exactly the board validation sees, catch-ups of omitted
consequences and judges' back-ups included.

* `priority_points` lists the fork points: the positions after which the rules await a decision
  of a kind the game forks at (`vwlog.games.GameRules.is_fork_point`; for Vandaria Wars, a
  player holding priority, DESIGN §2).
* `state_at` replays a prefix and returns the board after one seq.
* `Timeline` makes one pass over a whole match, keeping the board at a checkpoint every ``every``
  events, so that reaching any seq afterwards replays at most ``every`` events from the nearest
  checkpoint: flat in match length, a few milliseconds on a 10,000-event match.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from vwlog.engine.loop import game_for
from vwlog.engine.replay import BaseVisitor, Collect, Fanout, FinalState, Step, Visitor, replay
from vwlog.events.base import event_type
from vwlog.games import GameRules, game_of_state
from vwlog.model.errors import InvalidParameterError, SeqOutOfRangeError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

    from vwlog.events.base import LogHeader
    from vwlog.model.errors import Violation

Item: TypeAlias = Any
"""A record of any game, or a ``(line, record)`` pair when it comes from a file (as `replay`
takes them)."""

DEFAULT_EVERY = 64
"""Events between two checkpoints of a `Timeline`: the most a seek replays."""
CHUNK_CACHE = 8
"""Stretches of replayed steps a `Timeline` keeps, so stepping back and forth is free."""


@dataclass(frozen=True, slots=True)
class PriorityPoint:
    """A fork point: a position after which the rules await a decision of a kind the game forks
    at (for Vandaria Wars, a player holding priority); the next event is that decision."""

    seq: int
    """The event after which the decision is awaited."""
    player: str
    """Who decides next."""
    turn: int
    """Turn number (``0`` for a game without turns)."""
    phase: str | None
    """Phase (``None`` for a game without phases)."""
    step: str | None
    """Step, in phases that have steps."""
    register_depth: int
    """Objects waiting on the register (``0`` for a game without one)."""


@dataclass(frozen=True, slots=True)
class Position:
    """Where a board stands, in the terms every game's board may have: the turn (from the
    game's summary), and the phase, step and who holds priority where its board has them
    (``None`` where it has not)."""

    turn: int
    phase: str | None
    step: str | None
    priority: str | None
    register_depth: int


def _named(state: Any, name: str) -> str | None:
    value = getattr(state, name, None)
    return str(value) if value else None


def position(state: Any, game: GameRules | None = None) -> Position:
    """Where the board ``state`` stands (`Position`); ``game``: the game whose board it is
    (default: `vwlog.games.game_of_state`)."""
    rules = game if game is not None else game_of_state(state)
    priority = getattr(state, "priority", None)
    return Position(
        turn=rules.summary(state).turn,
        phase=_named(state, "phase"),
        step=_named(state, "step"),
        priority=priority if isinstance(priority, str) else None,
        register_depth=len(getattr(state, "register", ())),
    )


def _point(seq: int, state: Any, player: str | None, game: GameRules) -> PriorityPoint:
    where = position(state, game)
    return PriorityPoint(
        seq=seq,
        player=player or "",
        turn=where.turn,
        phase=where.phase,
        step=where.step,
        register_depth=where.register_depth,
    )


class PriorityPoints(BaseVisitor[list[PriorityPoint]]):
    """A replay visitor that lists the fork points of a match (for Vandaria Wars, its priority
    points)."""

    def __init__(self) -> None:
        self.points: list[PriorityPoint] = []
        self._last_seq: int | None = None
        self._game: GameRules | None = None

    def visit(self, step: Step) -> None:
        """The position before this event is a fork point if the rules awaited a decision of a
        kind the game forks at (`vwlog.games.GameRules.is_fork_point`).

        The seal and its signatures are records, not game events: the position after them is
        the one after the last game event, so they are never a point themselves."""
        game = self._game
        if game is None:
            game = self._game = game_of_state(step.before)
        if type(step.record.event) in game.trailer_types:
            return
        if self._last_seq is not None and game.is_fork_point(step.expected):
            self.points.append(_point(self._last_seq, step.before, step.expected.player, game))
        self._last_seq = step.record.seq

    def end_match(self, final: Any) -> None:
        """A log that ends awaiting a decision the game forks at ends at a fork point."""
        if self._last_seq is None:
            return
        game = self._game if self._game is not None else game_of_state(final)
        exp = game.expect(game.ruleset_of(final) or game.default_ruleset, final)
        if game.is_fork_point(exp):
            self.points.append(_point(self._last_seq, final, exp.player, game))

    def result(self) -> list[PriorityPoint]:
        """The fork points, in seq order."""
        return self.points


def priority_points(records: Iterable[Item], *, ruleset: Any = None) -> list[PriorityPoint]:
    """The fork points of a match, in seq order.

    A fork point is the seq of an event after which the rules await a decision of a kind the
    game forks at (`vwlog.games.GameRules.is_fork_point`: for Vandaria Wars, a player holding
    priority); a fork may start only there.
    """
    return replay(records, PriorityPoints(), ruleset=ruleset)


def _seq_of(item: Item) -> int:
    seq: int = item[1].seq if isinstance(item, tuple) else item.seq
    return seq


def no_such_seq(seq: int, source: str, first: int | None, last: int | None) -> SeqOutOfRangeError:
    """The error for a seq that ``source`` does not hold (its seqs run ``first``..``last``;
    ``None``: it has no events)."""
    return SeqOutOfRangeError(source, seq, first, last)


def state_at(
    records: Iterable[Item],
    seq: int,
    *,
    ruleset: Any = None,
    source: str = "this match",
    visitor: Visitor[Any] | None = None,
    header: LogHeader | None = None,
) -> Any:
    """The board after the event ``seq`` (``0``: the game's empty board before the first
    event): the game's own board.

    Replays the records up to ``seq`` and stops reading there, so a streamed log is read only
    as far as needed.

    Args:
        records: the match, in order.
        seq: the position.
        ruleset: judge under this ruleset instead of the one the match names.
        source: how an error names the match (a file name, a match id).
        visitor: another visitor to feed during the same pass (what a player has seen, say);
            read its result afterwards.
        header: the log header, whose ``game`` names the rules (default: the game whose
            events the records hold).

    Raises:
        SeqOutOfRangeError: the match has no event with this seq.
    """
    game, records = game_for(records, header, None)
    if seq == 0:
        return game.initial
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
        final = replay(upto(), FinalState(), ruleset=ruleset, header=header, game=game)
    else:
        fan = Fanout(FinalState(), visitor)
        final = replay(upto(), fan, ruleset=ruleset, header=header, game=game)[0]
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


def _is_back_up(game: GameRules, event: object) -> bool:
    """Whether ``event`` is a judge's ruling that backs the match up."""
    ruling, back_to = game.ruling_type, game.back_to
    return (
        ruling is not None
        and back_to is not None
        and isinstance(event, ruling)
        and (back_to(event) != -1)
    )


class _Indexer(BaseVisitor[None]):
    """The visitor of a timeline's one pass: marks, checkpoints, violations, priority points."""

    def __init__(self, every: int, ruleset: Any, game: GameRules) -> None:
        self.every = every
        self.ruleset = ruleset
        self.game = game
        self.marks: list[Mark] = []
        self.checkpoints: dict[int, Any] = {0: game.initial}
        self.pinned: dict[int, Step] = {}
        self.violations: dict[int, tuple[Violation, ...]] = {}
        self.points = PriorityPoints()
        self.final: Any = game.initial
        self._rs: Any = ruleset

    def visit(self, step: Step) -> None:
        """Index the event; keep a checkpoint where one is due and safe."""
        i = len(self.marks)
        record, after = step.record, step.after
        event = record.event
        game = self.game
        where = position(after, game)
        self.marks.append(
            Mark(
                seq=record.seq,
                type=event_type(event),
                decision=event.DECISION,
                turn=where.turn,
                phase=where.phase,
                step=where.step,
                priority=where.priority,
            )
        )
        if step.violations:
            self.violations[record.seq] = step.violations
        self.points.visit(step)
        if self._rs is None and game.started(after):
            self._rs = game.ruleset_of(after)
        if _is_back_up(game, event):
            # the loop restores a back-up from its own memory of priority points, which a
            # checkpoint does not hold: keep this step whole and restart after it
            self.pinned[i] = step
            self._checkpoint(i + 1, after)
        elif (i + 1) % self.every == 0:
            self._checkpoint(i + 1, after)

    def _checkpoint(self, at: int, state: Any) -> None:
        # resuming from a state judges under its ruleset; the full pass judges every event
        # under the ruleset of the match's start, so only states that agree are safe
        if not self.game.started(state) or self.game.ruleset_of(state) == self._rs:
            self.checkpoints[at] = state

    def end_match(self, final: Any) -> None:
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
        ruleset: Any = None,
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
        self.game: GameRules = game_for(self.items, header, None)[0]
        """The game whose match this is."""
        indexer = _Indexer(every, ruleset, self.game)
        fan = Fanout(indexer, visitor) if visitor is not None else Fanout(indexer)
        replay(self.items, fan, header=header, ruleset=ruleset, game=self.game)
        self.marks: tuple[Mark, ...] = tuple(indexer.marks)
        """One mark per event, in order."""
        self.violations: Mapping[int, tuple[Violation, ...]] = indexer.violations
        """Violations by seq (only seqs that have some)."""
        self.priority_points: tuple[PriorityPoint, ...] = tuple(indexer.points.result())
        """The fork points, in seq order."""
        self.final: Any = indexer.final
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

    def state_at(self, seq: int) -> Any:
        """The board after the event ``seq`` (``0``: before the first event).

        Raises:
            SeqOutOfRangeError: the match has no event with this seq.
        """
        if seq == 0:
            return self.game.initial
        return self.step(self.index(seq)).after

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
            game=self.game,
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
    "Position",
    "PriorityPoint",
    "PriorityPoints",
    "Timeline",
    "no_such_seq",
    "position",
    "priority_points",
    "state_at",
]
