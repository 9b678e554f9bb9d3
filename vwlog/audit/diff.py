"""Where two records of one Vandaria Wars match part, and what follows from it.

`diff_matches` reads two records of the same match side by side (two players' files, a stored
match and an export), finds the first event where they part in one pass over each, and explains
it: the two events described, which of them the rules allow from the common prefix, and what
each does to the board over the next few events (`vwlog.audit.boarddiff`), in the report every
game's diff fills (`vwlog.audit.diffreport`). Rendering is in `vwlog.render` (``diff_text``,
``diff_json``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vwlog.audit.boarddiff import board_differences
from vwlog.audit.diffreport import (
    AGREEMENT,
    CONTEXT,
    DIFF_WINDOW,
    DiffEvent,
    DiffReport,
    Divergence,
    RecordSide,
    numbered_differently,
)
from vwlog.audit.sources import MatchSource, log_source, reading, unpack
from vwlog.engine.seek import state_at as seek_state_at
from vwlog.events import (
    TRAILER_TYPES,
    AnyEvent,
    EventRecord,
    JudgeRulingIssued,
    MatchStarted,
    event_type,
)
from vwlog.games.vw.describe import description
from vwlog.games.vw.spots import Folded, position_said, position_text
from vwlog.io import codec
from vwlog.model.errors import InvalidParameterError, UsageError, Violation
from vwlog.model.state import replace
from vwlog.model.text import Msg, msg
from vwlog.model.types import RulingKind
from vwlog.projections import INITIAL, evolve
from vwlog.rules import DEFAULT_RULESET, check, expect

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from vwlog.engine.seek import Item
    from vwlog.events import AnyEvent
    from vwlog.model.state import MatchState

__all__ = ["diff_logs", "diff_matches"]


def _differing_start(a: MatchStarted, b: MatchStarted) -> str:
    """What differs between two ``match_started`` events, in a few words."""
    parts: list[str] = []
    if a.format != b.format:
        parts.append(f"format ({a.format} vs {b.format})")
    if [s.player for s in a.seats] != [s.player for s in b.seats]:
        seats_a = ", ".join(s.player for s in a.seats)
        seats_b = ", ".join(s.player for s in b.seats)
        parts.append(f"seats ({seats_a} vs {seats_b})")
    else:
        for sa, sb in zip(a.seats, b.seats, strict=True):
            for label, va, vb in (
                ("deck", sa.deck, sb.deck),
                ("subdeck", sa.subdeck, sb.subdeck),
                ("team", sa.team, sb.team),
                ("name", sa.name, sb.name),
                ("deck commitment", sa.deck_commitment, sb.deck_commitment),
            ):
                if va != vb:
                    parts.append(f"{sa.player}'s {label}")
    if a.first_player != b.first_player:
        parts.append(f"first player ({a.first_player} vs {b.first_player})")
    if a.ruleset != b.ruleset:
        parts.append(
            f"ruleset ({a.ruleset.id}@{a.ruleset.version} vs {b.ruleset.id}@{b.ruleset.version})"
            if (a.ruleset.id, a.ruleset.version) != (b.ruleset.id, b.ruleset.version)
            else "ruleset flags"
        )
    if a.cards != b.cards:
        parts.append("card pool")
    return ", ".join(parts) or "their details"


def _pos_key(state: MatchState) -> tuple[object, ...]:
    return (state.turn, state.phase)


def _described(
    record: EventRecord,
    line: int | None,
    before: MatchState,
    violations: tuple[Violation, ...] = (),
    *,
    viewer: str | None = None,
) -> DiffEvent:
    return DiffEvent(
        seq=record.seq,
        line=line,
        type=event_type(record.event),
        decision=record.event.DECISION,
        text=str(said := description(record.event, before, viewer=viewer)),
        said=said,
        violations=violations,
        event=record.event,
    )


def _judged(fold: Folded) -> DiffEvent:
    """A divergent event, judged from the common board it was played on."""
    before = fold.before
    rs = before.ruleset or DEFAULT_RULESET
    found = check(rs, before, fold.record.event)
    located = tuple(
        v.located(
            seq=fold.record.seq,
            line=fold.line,
            event_type=event_type(fold.record.event),
            turn=before.turn or None,
            phase=str(before.phase) if before.phase else None,
            step=str(before.step) if before.step else None,
            priority=before.priority,
        )
        for v in found
    )
    return _described(fold.record, fold.line, before, located)


def _restore(source: MatchSource, back_to: int | None, state: MatchState) -> MatchState:
    """The board a judge's back-up returns to: the record replayed up to ``back_to`` (the same
    board the replay loop restores); ``state`` unchanged when ``back_to`` is not in the match."""
    if back_to is None or back_to < 0:
        return state
    with reading(source) as items:
        try:
            restored: MatchState = seek_state_at(items, back_to, source=source.name)
            return restored
        except UsageError:
            return state


def _fold(source: MatchSource, items: Sequence[Item], initial: MatchState) -> list[Folded]:
    """Fold records on from ``initial``, as recorded; a judge's back-up restores its board."""
    out: list[Folded] = []
    state = initial
    for item in items:
        line, record = unpack(item)
        event = record.event
        if isinstance(event, JudgeRulingIssued) and event.kind == RulingKind.BACK_UP:
            after = _restore(source, event.back_to, state)
        else:
            after = evolve(state, event)
        out.append(Folded(record, line, state, after))
        state = after
    return out


def _window_end(folds: Sequence[Folded], origin: tuple[object, ...]) -> int:
    """The index of the window's last event: the one that starts the next phase (so a combat
    decision is followed through the damage, the deaths and Return Home), ends the match, or
    the last one folded."""
    for k, fold in enumerate(folds):
        after = fold.after
        if after.over or _pos_key(after) != origin:
            return k
    return len(folds) - 1


@dataclass(frozen=True)
class _Agreement:
    """Where two records agree again after a divergence, and where they part again if they do
    within the window."""

    at: tuple[int, int]
    """Indexes (in A's and B's followed events) from which the records agree again."""
    parts: tuple[int, int] | None
    """Indexes where they differ again later, if they do within what was read."""


def _position(state: MatchState) -> tuple[MatchState, object]:
    """A position, to compare: the board, and what the rules expect next on it. Whether the
    last event could have changed a victory condition (``victory_check``) is left out: it says
    what that event was, not where the match stands; what it demands (a victory) is in the
    expectation."""
    rs = state.ruleset or DEFAULT_RULESET
    return replace(state, victory_check=False), expect(rs, state)


def _same(x: AnyEvent, y: AnyEvent) -> bool:
    """Whether two records say the same: equal events, or both the record's seal (or a
    signature), whose hashes differ whenever anything before them does; that difference is
    the integrity check's to report, not a difference of play."""
    return x == y or (type(x) is type(y) and type(x) in TRAILER_TYPES)


def _agree_again(
    fold_a: Sequence[Folded], fold_b: Sequence[Folded], *, ended_a: bool, ended_b: bool
) -> _Agreement | None:
    """The first indexes (fewest events skipped in all, then the most even split) from which
    the records agree again: both boards are the same position there (the same board, so the
    rules expect the same next event) and the records go on with the same `AGREEMENT` events
    in a row, or both end together. Identical events from different positions are no
    agreement. A later difference (the records part again) is returned beside it."""
    a = [f.record.event for f in fold_a]
    b = [f.record.event for f in fold_b]
    na, nb = len(a), len(b)

    def position(folds: Sequence[Folded], i: int) -> tuple[MatchState, object]:
        state = folds[i].before if i < len(folds) else folds[-1].after
        return _position(state)

    for total in range(1, na + nb + 1):
        lo, hi = max(0, total - nb), min(total, na)
        for i in sorted(range(lo, hi + 1), key=lambda i: abs(2 * i - total)):
            j = total - i
            k = 0
            while k < AGREEMENT and i + k < na and j + k < nb and _same(a[i + k], b[j + k]):
                k += 1
            ends = i + k == na and j + k == nb and ended_a and ended_b
            if k < AGREEMENT and not ends:
                continue
            if position(fold_a, i) != position(fold_b, j):
                continue
            while i + k < na and j + k < nb and _same(a[i + k], b[j + k]):
                k += 1
            parts = (i + k, j + k) if i + k < na and j + k < nb else None
            return _Agreement((i, j), parts)
    return None


def _chain_note(previous: str | None, record: EventRecord) -> Msg | None:
    """Why ``record`` no longer fits its hash chain, if it does not (``None`` if it fits or the
    record carries no hashes)."""
    if previous is None or record.hash is None:
        return None
    expected = codec.chain_hash(previous, codec.record_body(record))
    if expected == record.hash:
        return None
    return msg(
        "the record at seq {seq} does not match its hash chain: it was altered after it was "
        "sealed (see 'vwlog verify')",
        seq=record.seq,
    )


def diff_matches(a: MatchSource, b: MatchSource, *, window: int = DIFF_WINDOW) -> DiffReport:
    """Compare two records of the same match and explain their first divergence.

    Both records are read once, side by side, aligned by seq; the common prefix is folded with
    `evolve` as it is read (the two records' boards are one board until they part). At the first
    pair of events that differ, both events are judged (`vwlog.rules.check`) on the common
    board, and each record is folded on, as recorded, for up to ``window`` more events (to the
    start of the next phase) to say what differs on the board. A
    judge's back-up restores the board it names, as the replay loop does (by replaying that
    record up to it: one more read, only where a back-up occurs).

    Boards are folded as recorded: where a record omits a consequence the rules demand, its
    board goes on without it (what the record claims), and the omission is the violation named
    for its event.

    Records of different matches (their ``match_started`` events differ) are refused; the
    header match ids may differ (each player's own file).

    Raises:
        InvalidParameterError: ``window`` is below 1.
        UsageError: the records are of different matches.
        LogFormatError: a record cannot be read.
    """
    if window < 1:
        raise InvalidParameterError("the window", window, "must be at least 1 event")
    prefix = _read_side_by_side(a, b, window)
    state, common = prefix.state, prefix.common
    rest_a, rest_b = prefix.rest_a, prefix.rest_b
    side_a, side_b = RecordSide.of(a, prefix.total_a), RecordSide.of(b, prefix.total_b)
    if not rest_a and not rest_b:
        return DiffReport(side_a, side_b, common, "identical")
    origin = _pos_key(state)
    if not rest_a or not rest_b:
        longer, rest = (b, rest_b) if not rest_a else (a, rest_a)
        folded = _fold(longer, rest, state)
        folded = folded[: max(_window_end(folded, origin), CONTEXT - 1) + 1]
        then = [_judged(folded[0])] + [_described(f.record, f.line, f.before) for f in folded[1:]]
        return DiffReport(side_a, side_b, common, "prefix", continuation=tuple(then))
    divergence = _divergence(a, b, prefix)
    return DiffReport(side_a, side_b, common, "diverged", divergence=divergence)


@dataclass(frozen=True)
class _Prefix:
    """What reading two records side by side found: their common prefix folded, and the first
    events of each after it (up to the window)."""

    state: MatchState
    """The board after the common prefix."""
    common: int
    """Events in the common prefix."""
    rest_a: list[Item]
    rest_b: list[Item]
    total_a: int
    total_b: int
    prev_a: str | None
    """The hash of A's last common record (the divergent record chains to it)."""
    prev_b: str | None


def _read_side_by_side(a: MatchSource, b: MatchSource, window: int) -> _Prefix:
    """Read both records once, aligned by seq, folding their common prefix as it is read.

    Raises:
        UsageError: the records are of different matches, or number their events differently.
    """
    state = INITIAL
    common = 0
    prev_a = a.header.hash if a.header is not None else None
    prev_b = b.header.hash if b.header is not None else None
    pending_a: Item | None = None
    pending_b: Item | None = None
    with reading(a) as items_a, reading(b) as items_b:
        for item_a, item_b in itertools.zip_longest(items_a, items_b):
            if item_a is None or item_b is None:
                pending_a, pending_b = item_a, item_b
                break
            rec_a = unpack(item_a)[1]
            rec_b = unpack(item_b)[1]
            event = rec_a.event
            if event != rec_b.event:
                _refuse_other_match(a, b, common, event, rec_b.event)
                pending_a, pending_b = item_a, item_b
                break
            if rec_a.seq != rec_b.seq:
                raise numbered_differently(a, b, rec_a.seq, rec_b.seq)
            if type(event) is JudgeRulingIssued and event.kind == RulingKind.BACK_UP:
                state = _restore(a, event.back_to, state)
            else:
                state = evolve(state, event)
            prev_a, prev_b = rec_a.hash, rec_b.hash
            common += 1
        rest_a = [pending_a] if pending_a is not None else []
        rest_b = [pending_b] if pending_b is not None else []
        rest_a.extend(itertools.islice(items_a, window - 1))
        rest_b.extend(itertools.islice(items_b, window - 1))
        total_a = common + len(rest_a) + sum(1 for _ in items_a)
        total_b = common + len(rest_b) + sum(1 for _ in items_b)
    return _Prefix(state, common, rest_a, rest_b, total_a, total_b, prev_a, prev_b)


def _refuse_other_match(
    a: MatchSource, b: MatchSource, common: int, event: AnyEvent, other: AnyEvent
) -> None:
    """Raise if the records' first events are two different ``match_started`` events."""
    if common == 0 and isinstance(event, MatchStarted) and isinstance(other, MatchStarted):
        raise UsageError(
            msg(
                "{name} and {name2} are records of different matches: their match_started events "
                "differ in {differing_start}",
                name=a.name,
                name2=b.name,
                differing_start=_differing_start(event, other),
            )
        )


def _divergence(a: MatchSource, b: MatchSource, prefix: _Prefix) -> Divergence:
    """Judge the two divergent events on the common board, follow each record to the end of
    its window (or to where they agree again), and say what differs on the board."""
    state, common = prefix.state, prefix.common
    origin = _pos_key(state)
    fold_a = _fold(a, prefix.rest_a, state)
    fold_b = _fold(b, prefix.rest_b, state)
    agreement = _agree_again(
        fold_a,
        fold_b,
        ended_a=prefix.total_a == common + len(prefix.rest_a),
        ended_b=prefix.total_b == common + len(prefix.rest_b),
    )
    agree = None if agreement is None else agreement.at
    parts = None if agreement is None else agreement.parts
    part_again = (
        None if parts is None else (fold_a[parts[0]].record.seq, fold_b[parts[1]].record.seq)
    )
    end_a, end_b = _window_end(fold_a, origin), _window_end(fold_b, origin)
    if agree is None:
        settled_a, settled_b = 0, 0
    else:
        i, j = agree
        end_a, end_b = max(end_a, i - 1), max(end_b, j - 1)
        settled_a, settled_b = max(i - 1, 0), max(j - 1, 0)
    fold_a, fold_b = fold_a[: end_a + 1], fold_b[: end_b + 1]
    rec_a, rec_b = fold_a[0].record, fold_b[0].record
    return Divergence(
        seq=rec_a.seq,
        position=position_text(state),
        position_said=position_said(state),
        a=_judged(fold_a[0]),
        b=_judged(fold_b[0]),
        then_a=tuple(_described(f.record, f.line, f.before) for f in fold_a[1:]),
        then_b=tuple(_described(f.record, f.line, f.before) for f in fold_b[1:]),
        differences=tuple(
            board_differences(
                state,
                fold_a,
                fold_b,
                settled=(
                    fold_a[settled_a].after if agree is None or agree[0] else state,
                    fold_b[settled_b].after if agree is None or agree[1] else state,
                ),
            )
        ),
        agree_again=None if agree is None else (rec_a.seq + agree[0], rec_b.seq + agree[1]),
        part_again=part_again,
        altered_a=_chain_note(prefix.prev_a, rec_a),
        altered_b=_chain_note(prefix.prev_b, rec_b),
    )


def diff_logs(path_a: str | Path, path_b: str | Path, *, window: int = DIFF_WINDOW) -> DiffReport:
    """`diff_matches` for two log files.

    Raises:
        UsageError: the records are of different matches.
        LogFormatError: a file cannot be read.
    """
    return diff_matches(log_source(path_a), log_source(path_b), window=window)
