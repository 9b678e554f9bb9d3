"""Where two records of one match of any game part, asked of the game's rules alone.

`diff_game` answers what `vwlog.audit.diff.diff_matches` answers for Vandaria Wars, in the same
`vwlog.audit.diffreport.DiffReport` (so ``diff_text`` and ``diff_json`` show it alike): the two
records are read side by side, the first event where they differ is judged on the common
board by the game's own replay (its ``judge``, with the loop's catch-up and log rules), each
record is followed to the next phase or turn (at most ``window`` events) or to where they agree
again, and what differs on the board is said field by field of the game's board as data (its
``views``' ``board``, or the board's own fields). A divergent record that no longer fits its
hash chain is named.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from vwlog.audit.diffreport import (
    AGREEMENT,
    CONTEXT,
    DIFF_WINDOW,
    Difference,
    DiffEvent,
    DiffReport,
    Divergence,
    RecordSide,
    numbered_differently,
)
from vwlog.audit.sources import MatchSource, reading, record_of
from vwlog.engine.replay import BaseVisitor, replay
from vwlog.games import board_data, event_text
from vwlog.io import codec
from vwlog.model.errors import InvalidParameterError, UsageError
from vwlog.model.text import Msg, msg
from vwlog.model.violation import Violation

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.engine.replay import Step
    from vwlog.games import GameRules

__all__ = ["diff_game"]

_NOT_COMPARED = frozenset({"view_version", "game", "seq", "viewer", "view"})
"""Fields of a views' board that say how it was drawn, not where the match stands."""


@dataclass(frozen=True)
class _Folded:
    """One event of a record as the game's replay saw it."""

    record: Any
    line: int | None
    before: Any
    after: Any
    violations: tuple[Violation, ...]


class _Follow(BaseVisitor[list[_Folded]]):
    """Keeps the steps from index ``start`` on, at most ``count`` of them."""

    def __init__(self, start: int, count: int) -> None:
        self.start, self.count, self.n = start, count, 0
        self.kept: list[_Folded] = []

    def visit(self, step: Step) -> None:
        if self.start <= self.n < self.start + self.count:
            self.kept.append(
                _Folded(step.record, step.line, step.before, step.after, step.violations)
            )
        self.n += 1

    def result(self) -> list[_Folded]:
        return self.kept


def _followed(source: MatchSource, game: GameRules, start: int, count: int) -> list[_Folded]:
    """The record's events from index ``start`` (at most ``count``), replayed by the game."""
    with reading(source) as items:
        return replay(items, _Follow(start, count), header=source.header, game=game)


@dataclass(frozen=True)
class _Prefix:
    common: int
    rest_a: int
    rest_b: int
    total_a: int
    total_b: int
    prev_a: str | None
    prev_b: str | None
    first_a: Any
    first_b: Any


def _same(game: GameRules, x: Any, y: Any) -> bool:
    """Whether two records say the same (both seals, or both signatures, count as the same:
    their hashes differ whenever anything before them does)."""
    return bool(x == y) or (type(x) is type(y) and type(x) in game.trailer_types)


def _read_side_by_side(a: MatchSource, b: MatchSource, game: GameRules, window: int) -> _Prefix:
    """Read both records once, aligned by seq: the common prefix and what follows it.

    Raises:
        UsageError: the records are of different matches, or number their events differently.
    """
    common = 0
    prev_a = a.header.hash if a.header is not None else None
    prev_b = b.header.hash if b.header is not None else None
    first_a = first_b = None
    with reading(a) as items_a, reading(b) as items_b:
        for item_a, item_b in itertools.zip_longest(items_a, items_b):
            rec_a = record_of(item_a) if item_a is not None else None
            rec_b = record_of(item_b) if item_b is not None else None
            if rec_a is None or rec_b is None or not _same(game, rec_a.event, rec_b.event):
                first_a, first_b = rec_a, rec_b
                break
            if rec_a.seq != rec_b.seq:
                raise numbered_differently(a, b, rec_a.seq, rec_b.seq)
            prev_a, prev_b = rec_a.hash, rec_b.hash
            common += 1
        more_a = (first_a is not None) + sum(1 for _ in items_a)
        more_b = (first_b is not None) + sum(1 for _ in items_b)
    if common == 0 and first_a is not None and first_b is not None:
        if isinstance(first_a.event, game.start_type) and isinstance(
            first_b.event, game.start_type
        ):
            raise UsageError(
                msg(
                    "{name} and {name2} are records of different matches: their first events "
                    "differ",
                    name=a.name,
                    name2=b.name,
                )
            )
    return _Prefix(
        common,
        min(more_a, window),
        min(more_b, window),
        common + more_a,
        common + more_b,
        prev_a,
        prev_b,
        first_a,
        first_b,
    )


def _where(game: GameRules, board: Any) -> Violation:
    """Where ``board`` stands, as the game locates a violation (turn, phase, step, who acts)."""
    return game.locate(Violation(rule="CORE-LOG-1", message=""), board)  # type: ignore[arg-type]


def _position_said(game: GameRules, board: Any) -> Msg:
    """Where a match stands, in the words `vwlog.games.vw.spots.position_said` uses."""
    if not game.started(board):
        return msg("before the match")
    w = _where(game, board)
    parts: list[Msg] = [msg("turn {turn}", turn=w.turn) if w.turn else msg("before the first turn")]
    if w.phase:
        where = msg("{phase}, {step}", phase=w.phase, step=w.step) if w.step else w.phase
        parts.append(msg("{text}", text=where))
    if w.priority:
        parts.append(msg("{player} holds priority", player=w.priority))
    won = game.summary(board)
    if won.winner:
        parts.append(msg("won by {winner} ({victory})", winner=won.winner, victory=won.victory))
    said = parts[0]
    for part in parts[1:]:
        said = msg("{first} · {second}", first=said, second=part)
    return said


def _pos_key(game: GameRules, board: Any) -> tuple[object, ...]:
    w = _where(game, board)
    return (w.turn, w.phase)


def _window_end(game: GameRules, folds: Sequence[_Folded], origin: tuple[object, ...]) -> int:
    """The index of the window's last event: the one that starts the next phase or turn, ends
    the match, or the last one followed."""
    for k, f in enumerate(folds):
        if game.summary(f.after).winner or _pos_key(game, f.after) != origin:
            return k
    return len(folds) - 1


def _described(game: GameRules, f: _Folded, *, judged: bool = False) -> DiffEvent:
    event = f.record.event
    views = game.views() if game.views is not None else None
    said: Msg | None = views.description(event, f.before) if views is not None else None
    return DiffEvent(
        seq=f.record.seq,
        line=f.line,
        type=str(getattr(event, "type", type(event).__name__)),
        decision=type(event) in game.decision_types,
        text=str(said) if said is not None else event_text(event),
        said=said,
        violations=f.violations if judged else (),
        event=event,
    )


def _agree_again(
    game: GameRules, fa: Sequence[_Folded], fb: Sequence[_Folded], *, ended: bool
) -> tuple[tuple[int, int], tuple[int, int] | None] | None:
    """The first indexes (fewest events skipped, then the most even split) from which the
    records agree again: the same board there and `AGREEMENT` equal events in a row, or both
    end together; and where they part again after that, if they do."""
    a = [f.record.event for f in fa]
    b = [f.record.event for f in fb]
    na, nb = len(a), len(b)

    def board(folds: Sequence[_Folded], i: int) -> Any:
        return folds[i].before if i < len(folds) else folds[-1].after

    for total in range(1, na + nb + 1):
        lo, hi = max(0, total - nb), min(total, na)
        for i in sorted(range(lo, hi + 1), key=lambda i: abs(2 * i - total)):
            j = total - i
            k = 0
            while k < AGREEMENT and i + k < na and j + k < nb and _same(game, a[i + k], b[j + k]):
                k += 1
            if k < AGREEMENT and not (i + k == na and j + k == nb and ended):
                continue
            if board(fa, i) != board(fb, j):
                continue
            while i + k < na and j + k < nb and _same(game, a[i + k], b[j + k]):
                k += 1
            return (i, j), ((i + k, j + k) if i + k < na and j + k < nb else None)
    return None


def _data(game: GameRules, board: Any) -> Any:
    views = game.views() if game.views is not None else None
    return views.board(board) if views is not None else board_data(board)


def _keyed(value: Any) -> dict[str, Any] | None:
    """A list of objects with ids, by id (``None`` for any other value)."""
    if not isinstance(value, list) or not all(
        isinstance(x, dict) and isinstance(x.get("id"), str) for x in value
    ):
        return None
    return {x["id"]: x for x in value}


def _compare(x: Any, y: Any, path: str, out: dict[str, tuple[Any, Any]]) -> None:
    """What differs between two boards as data, ``path -> (in A, in B)``: objects field by
    field, lists of objects with ids member by member (one missing on a side is ``null``)."""
    if isinstance(x, dict) and isinstance(y, dict):
        for k in dict.fromkeys([*x, *y]):
            if not path and k in _NOT_COMPARED:
                continue
            _compare(x.get(k), y.get(k), f"{path}.{k}" if path else str(k), out)
        return
    kx, ky = _keyed(x), _keyed(y)
    if kx is not None and ky is not None:
        for k in dict.fromkeys([*kx, *ky]):
            _compare(kx.get(k), ky.get(k), f"{path}[{k}]", out)
        return
    if x != y:
        out[path] = (x, y)


def _subject(path: str) -> Literal["card", "player", "position", "register", "result"]:
    if path.startswith("players"):
        return "player"
    if path in ("winner", "victory"):
        return "result"
    return "position"


def _differences(
    game: GameRules, x: Any, y: Any, when: Literal["after", "window"]
) -> list[Difference]:
    found: dict[str, tuple[Any, Any]] = {}
    _compare(_data(game, x), _data(game, y), "", found)
    out = []
    for key, (va, vb) in found.items():
        said = msg(
            "{field}: {a} in A, {b} in B",
            field=key,
            a=json.dumps(va, ensure_ascii=False),
            b=json.dumps(vb, ensure_ascii=False),
        )
        out.append(Difference(_subject(key), key, when, str(said), va, vb, said=said))
    return out


def _chain_note(previous: str | None, record: Any) -> Msg | None:
    """Why ``record`` no longer fits its hash chain, if it does not."""
    if previous is None or record is None or record.hash is None:
        return None
    if codec.chain_hash(previous, codec.record_body(record)) == record.hash:
        return None
    return msg(
        "the record at seq {seq} does not match its hash chain: it was altered after it was "
        "sealed (see 'vwlog verify')",
        seq=record.seq,
    )


def diff_game(
    a: MatchSource, b: MatchSource, game: GameRules, *, window: int = DIFF_WINDOW
) -> DiffReport:
    """Compare two records of one match of ``game`` and explain their first divergence.

    Raises:
        InvalidParameterError: ``window`` is below 1.
        UsageError: the records are of different matches.
        LogFormatError: a record cannot be read.
    """
    if window < 1:
        raise InvalidParameterError("the window", window, "must be at least 1 event")
    p = _read_side_by_side(a, b, game, window)
    side_a, side_b = RecordSide.of(a, p.total_a), RecordSide.of(b, p.total_b)
    if not p.rest_a and not p.rest_b:
        return DiffReport(side_a, side_b, p.common, "identical")
    fold_a = _followed(a, game, p.common, p.rest_a)
    fold_b = _followed(b, game, p.common, p.rest_b)
    if not fold_a or not fold_b:
        folded = fold_a or fold_b
        origin = _pos_key(game, folded[0].before)
        folded = folded[: max(_window_end(game, folded, origin), CONTEXT - 1) + 1]
        then = [_described(game, folded[0], judged=True)]
        then += [_described(game, f) for f in folded[1:]]
        return DiffReport(side_a, side_b, p.common, "prefix", continuation=tuple(then))
    return DiffReport(
        side_a, side_b, p.common, "diverged", divergence=_divergence(game, p, fold_a, fold_b)
    )


def _divergence(
    game: GameRules, p: _Prefix, fold_a: list[_Folded], fold_b: list[_Folded]
) -> Divergence:
    """The two divergent events judged on the common board, each record followed to the end
    of its window or to where they agree again, and what differs on the board."""
    common = fold_a[0].before
    origin = _pos_key(game, common)
    ended = p.total_a == p.common + p.rest_a and p.total_b == p.common + p.rest_b
    found = _agree_again(game, fold_a, fold_b, ended=ended)
    end_a, end_b = _window_end(game, fold_a, origin), _window_end(game, fold_b, origin)
    agree, parts = (None, None) if found is None else found
    if agree is not None:
        end_a, end_b = max(end_a, agree[0] - 1), max(end_b, agree[1] - 1)
    part_again = (
        None if parts is None else (fold_a[parts[0]].record.seq, fold_b[parts[1]].record.seq)
    )
    fold_a, fold_b = fold_a[: end_a + 1], fold_b[: end_b + 1]
    rec_a, rec_b = fold_a[0].record, fold_b[0].record
    if agree is None:
        settled_a, settled_b = fold_a[0].after, fold_b[0].after
    else:
        settled_a = fold_a[agree[0] - 1].after if agree[0] else common
        settled_b = fold_b[agree[1] - 1].after if agree[1] else common
    right_after = _differences(game, settled_a, settled_b, "after")
    seen = {(d.key, repr(d.a), repr(d.b)) for d in right_after}
    at_end = _differences(game, fold_a[-1].after, fold_b[-1].after, "window")
    said = _position_said(game, common)
    return Divergence(
        seq=rec_a.seq,
        position=str(said),
        position_said=said,
        a=_described(game, fold_a[0], judged=True),
        b=_described(game, fold_b[0], judged=True),
        then_a=tuple(_described(game, f) for f in fold_a[1:]),
        then_b=tuple(_described(game, f) for f in fold_b[1:]),
        differences=(
            *right_after,
            *(d for d in at_end if (d.key, repr(d.a), repr(d.b)) not in seen),
        ),
        agree_again=None if agree is None else (rec_a.seq + agree[0], rec_b.seq + agree[1]),
        part_again=part_again,
        altered_a=_chain_note(p.prev_a, p.first_a),
        altered_b=_chain_note(p.prev_b, p.first_b),
    )
