"""The one replay loop: check each event against the rules, fold it into the board, tell a
visitor.

``replay(records, visitor)`` walks `EventRecord`s: the expectation is computed once, the event is
checked against it, a missing consequence is caught up (reported once, then the demanded
consequences are applied so one omission does not cascade), the event is applied as played
(``evolve``), and the visitor sees the step. Validation, text traces, statistics and seeking are
visitors of this loop (`vwlog.engine.replay`); nothing else walks a match.

This module is part of the compiled core (`vwlog.build.COMPILED`); the visitors, which users
subclass, live in `vwlog.engine.replay`, interpreted.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from vwlog.events.base import BaseEvent, LogHeader
from vwlog.events.core import MatchForked
from vwlog.games import (
    GameRules,
    core_violation,
    game_of_event,
    game_of_state,
    known,
    rules_for,
)
from vwlog.model.errors import IllegalEventError, Violation
from vwlog.model.expect import Expect

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

R = TypeVar("R", covariant=True)

_FORKED: Final = MatchForked
"""The core's fork marker, compared with once per event (a constant: compiled, a name imported
from another module is looked up at every use)."""
BACKUP_MEMORY: Final = 256
"""Fork points remembered for judges' back-up rulings: a back-up names one of the last 256 (a
dozen turns of a two-player match); an older point is refused (CORE-FORK-2). Each remembered
point holds its board alive; holding 4,096 of them, as before, cost 3-5 % of validation time
(boards that cannot be freed push the replay's working set out of the processor's cache)."""


@dataclass(slots=True, init=False)
class Step:
    """One event of a replay, with the board before and after it (treat as read-only; not
    frozen because it is built for every event on the hot path)."""

    record: Any
    """The record (the game's envelope: ``seq``, ``at``, ``hash``, ``event``)."""
    line: int | None
    before: Any
    """The board before the event (the game's own class)."""
    after: Any
    expected: Expect
    """What the rules expected before this event."""
    violations: tuple[Violation, ...]
    voids: tuple[int, int] | None
    """For a judge's back-up: the range of seqs it voided (inclusive)."""
    event: BaseEvent
    """The record's event (``record.event``, read once)."""

    def __init__(
        self,
        record: Any,
        line: int | None,
        before: Any,
        after: Any,
        expected: Expect,
        violations: tuple[Violation, ...],
        voids: tuple[int, int] | None = None,
        *,
        event: BaseEvent | None = None,
    ) -> None:
        # written out: compiled, a native constructor (the dataclass's own stays interpreted)
        self.record = record
        self.event = record.event if event is None else event
        self.line = line
        self.before = before
        self.after = after
        self.expected = expected
        self.violations = violations
        self.voids = voids


class Visitor(Protocol[R]):
    """What `replay` feeds: every step of a replay (python-chess's ``BaseVisitor``).

    Any object with these four methods will do; subclass `BaseVisitor` to write only the
    ones that do something.
    """

    def begin_match(self, header: LogHeader | None) -> None:
        """Called once before the first event."""

    def visit(self, step: Step) -> None:
        """Called for every event."""

    def end_match(self, final: Any) -> None:
        """Called once after the last event, with the final board."""

    def result(self) -> R:
        """What the visitor built."""


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
    def record(self) -> Any: ...


def _locate(game: GameRules, v: Violation, record: Any, line: int | None, state: Any) -> Violation:
    tag: Any = getattr(record.event, "type", type(record.event).__name__)
    return game.locate(replace(v, seq=record.seq, line=line, event_type=str(tag)), state)


def game_for(
    records: Iterable[Any], header: LogHeader | None, initial: Any
) -> tuple[GameRules, Iterable[Any]]:
    """The game of a match: the header's, else the game whose board ``initial`` is or whose
    event comes first, else the default game; and the records, none of them lost to the
    look."""
    if header is not None and header.game is not None:
        return rules_for(header.game), records
    if initial is not None:
        return game_of_state(initial), records
    it = iter(records)
    seen: list[Any] = []
    for item in it:
        seen.append(item)
        record = item[-1] if isinstance(item, tuple) else item
        found = game_of_event(record.event)
        if found is not None:
            return found, _chain(seen, it)
    return rules_for(), seen


def _chain(seen: list[Any], rest: Iterator[Any]) -> Iterator[Any]:
    yield from seen
    yield from rest


def replay(
    records: Iterable[Any],
    visitor: Visitor[R],
    *,
    header: LogHeader | None = None,
    ruleset: Any = None,
    policy: ViolationPolicy = ViolationPolicy.COLLECT,
    initial: Any = None,
    game: GameRules | None = None,
) -> R:
    """Replay records (a file's come as ``(line, record)`` or `LogLine` tuples) through a game's
    rules and fold, feeding ``visitor`` every step, under ``ruleset`` if given (else the match's
    own), from the board ``initial`` if given (a snapshot); ``game`` is by default the
    header's, else that of ``initial`` or of the records' events (`vwlog.games`).

    Raises:
        IllegalEventError: at the first event that breaks a rule, with ``STOP_AT_FIRST``.
    """
    if game is None:
        game, records = game_for(records, header, initial)
    else:
        known(game)  # its boards lead the visitors back to it
    state = game.initial if initial is None else initial
    rs = ruleset or game.ruleset_of(state) or game.default_ruleset
    memory: deque[tuple[int, Any]] = deque(maxlen=BACKUP_MEMORY)
    remember, visit = memory.append, visitor.visit
    stop = policy is ViolationPolicy.STOP_AT_FIRST
    # the game's functions and classes, bound once: one lookup per event each, not two
    expect, judge, fold, started = game.expect, game.judge, game.fold, game.started
    trailer, start_type, ruling_type = game.trailer_types, game.start_type, game.ruling_type
    fork_kinds = game.fork_kinds
    visitor.begin_match(header)
    unstarted = is_started = False
    for item in records:
        if isinstance(item, tuple):  # a plain class: cheap, unlike pydantic's ABCMeta check
            line, record = item[0], item[-1]  # a pair, or a LogLine (line, raw, record)
        else:
            line, record = None, item
        event = record.event
        kind = type(event)
        if kind in trailer:
            # the seal and its signatures: no game facts, checked by the integrity pass; the
            # visitor still sees them (a step that leaves the board as it was)
            visit(Step(record, line, state, state, expect(rs, state), (), event=event))
            continue
        # event classes are leaves: compare exact types (no ABCMeta isinstance)
        if not is_started:  # a match once begun stays begun: asked until it is
            is_started = started(state)
        if not is_started and kind is start_type:
            rs = ruleset or game.start_ruleset(event)
        exp = expect(rs, state)
        if exp.kind in fork_kinds:
            remember((record.seq - 1, state))
        if kind is _FORKED and is_started:
            found = _fork(game, state, exp, event, judge, rs)
        else:
            found = judge(rs, state, exp, event)
        if not is_started and found:
            # the log rule once: without its start nothing after it can be judged, and one
            # violation per event would bury the one that matters
            if unstarted:
                found = ()
            unstarted = True
        before = state
        if found and exp.consequences and not exp.demands(event):
            # a missing consequence is caught up, so one omission does not cascade
            state = game.catch_up(rs, state, event)
        voids: tuple[int, int] | None = None
        if kind is ruling_type or kind is _FORKED or (ruleset is not None and kind is start_type):
            after, voids, found = _rule(game, memory, state, record.seq, event, ruleset, found)
        else:
            after, found = fold(state, event, found)
        located = tuple(_locate(game, v, record, line, before) for v in found) if found else ()
        if located and stop:
            raise IllegalEventError(record.seq, located[0].event_type or "", located)
        visit(Step(record, line, before, after, exp, located, voids, event=event))
        state = after
    visitor.end_match(state)
    return visitor.result()


def _fork(
    game: GameRules, state: Any, exp: Expect, event: Any, judge: Any, ruleset: Any
) -> tuple[Violation, ...]:
    """The core's verdict on a fork's marker: a fork starts only at a fork point of the game
    (CORE-FORK-1); after the end of the match the game's own rules judge it."""
    if game.summary(state).winner is not None:
        found: tuple[Violation, ...] = judge(ruleset, state, exp, event)
        return found
    if exp.kind in game.fork_kinds:
        return ()
    return (
        core_violation(game, "CORE-FORK-1", "a fork may start only {where}", where=game.fork_words),
    )


def _rule(
    game: GameRules,
    memory: deque[tuple[int, Any]],
    state: Any,
    seq: int,
    event: Any,
    ruleset: Any,
    found: tuple[Violation, ...],
) -> tuple[Any, tuple[int, int] | None, tuple[Violation, ...]]:
    """The board after a judge's ruling (a back-up restores a fork point) or after the start
    judged under a given ruleset (the fold reads its setup and flags from the start), or after
    a fork's marker (the parent's board at the fork point, unchanged)."""
    if type(event) is _FORKED:
        return state, None, found
    if type(event) is game.ruling_type:
        back = _back_to(game, event)
        if back != -1:
            return _back_up(game, memory, state, seq, event, back, found)
    elif ruleset is not None:
        return game.fold(state, game.with_ruleset(event, ruleset), ())[0], None, found
    after, found = game.fold(state, event, found)
    return after, None, found


def _back_to(game: GameRules, event: Any) -> int | None:
    """The seq a ruling backs the match up to (``None``: a back-up naming none), ``-1`` for a
    ruling that is no back-up."""
    back_to = game.back_to
    return -1 if back_to is None else back_to(event)


def _back_up(
    game: GameRules,
    memory: deque[tuple[int, Any]],
    state: Any,
    seq: int,
    event: Any,
    back_to: int | None,
    found: tuple[Violation, ...],
) -> tuple[Any, tuple[int, int] | None, tuple[Violation, ...]]:
    """A judge's back-up: the board of the fork point it names, and the seqs it voids; a
    back-up to a position that is not a recent fork point is a violation (CORE-FORK-2)."""
    restored = _restore(memory, back_to)
    if restored is None:
        wrong = core_violation(
            game,
            "CORE-FORK-2",
            "back-up to seq {back_to}: not a recent priority point of this match",
            back_to=back_to,
        )
        after, found = game.fold(state, event, (*found, wrong))
        return after, None, found
    return restored[1], (restored[0] + 1, seq - 1), found


def _restore(memory: deque[tuple[int, Any]], back_to: int | None) -> tuple[int, Any] | None:
    if back_to is None:
        return None
    for seq, st in reversed(memory):
        if seq == back_to:
            return seq, st
    return None


__all__ = [
    "BACKUP_MEMORY",
    "LineRecord",
    "Step",
    "ViolationPolicy",
    "Visitor",
    "game_for",
    "replay",
]
