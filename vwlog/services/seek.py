"""Seeking a stored match: the state after any event (`state_at`), from the nearest snapshot
this installation vouches for, and the stored records replayed from the start
(`checked_records`), each taken only once its line continues the hash chain to the anchor the
catalog or a vouched snapshot recorded.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import orjson

from vwlog.engine.replay import FinalState, replay
from vwlog.games import GameRules, game_of_event, rules_for
from vwlog.io import codec
from vwlog.model.errors import MatchNotStartedError, StoredSeqOutOfRangeError, StoreError
from vwlog.model.text import msg, said_text
from vwlog.services.snapshots import decode_snapshot, keeps_snapshots, snapshot_record_hash
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


_STATIC_CACHE: weakref.WeakKeyDictionary[MatchStore, dict[str, Any]] = weakref.WeakKeyDictionary()
"""The board after each match's start event, per open store."""


def _static_state(store: MatchStore, match_id: str, game: GameRules) -> Any:
    per_store = _STATIC_CACHE.setdefault(store, {})
    cached = per_store.get(match_id)
    if cached is None:
        first = next(store.records(match_id, lte=1), None)
        if first is None or not isinstance(first.event, game.start_type):
            raise MatchNotStartedError(match_id, "does not start with match_started")
        cached = per_store[match_id] = game.fold(game.initial, first.event, ())[0]
    return cached


def state_at(store: MatchStore, match_id: str, seq: int | None = None) -> Any:
    """The state after event ``seq`` (default: the last) of a stored match, computed from the
    nearest snapshot at or before it that this installation vouches for, replaying at most one
    snapshot interval.

    Nothing the database holds is taken on its word: the snapshot is used only if its tag
    holds (`vwlog.store.localkey`) and it names the record it follows; and the records
    replayed, with those up to the next anchor — the next vouched snapshot, else the head the
    catalog recorded — must chain from it to that anchor, so that a record altered (or a tail
    re-hashed) where it would change the answer is refused, not shown.

    Raises:
        MatchNotFoundError: no such match.
        StoredSeqOutOfRangeError: seq is out of range.
        StoreError: the records do not hold between the snapshot and the anchor (altered in
            the database: ``vwlog verify`` names where).
    """
    head = store.head(match_id)
    target = head.seq if seq is None else seq
    if not 0 <= target <= head.seq:
        raise StoredSeqOutOfRangeError(match_id, target, head.seq)
    game = rules_for(store.header(match_id).game)
    if target == 0:
        return game.initial
    state: Any = None
    start, previous = 0, ""
    snap = store.nearest_snapshot(match_id, target, vouched=True)
    if snap is not None:
        at = next(store.records(match_id, gt=snap[0] - 1, lte=snap[0]), None)
        state = decode_snapshot(
            _static_state(store, match_id, game), snap[1], at.hash if at else None
        )
        if state is not None and at is not None and at.hash is not None:
            start, previous = snap[0], at.hash
        else:
            state = None
    if not start:
        previous = store.header(match_id).hash or ""
    end, anchor = _anchor(store, match_id, target, head.seq)
    if end < target:
        raise _not_held(match_id, end + 1)
    records: list[Any] = []
    for line, record in store.lines(match_id, gt=start, lte=target):
        previous = _link(match_id, start + len(records) + 1, previous, line)
        records.append(record)
    reached = start + len(records)
    for line in store.raw_lines(match_id, gt=target, lte=end):  # beyond: only chained
        reached += 1
        previous = _link(match_id, reached, previous, line)
    if reached != end or start + len(records) != target:
        raise _not_held(match_id, reached + 1)
    if previous != anchor:
        # the next snapshot names another record (a caller's mistake, or the records were
        # re-hashed from here on): the head the catalog recorded decides
        meta = store.meta(match_id)
        for line in store.raw_lines(match_id, gt=end, lte=meta.events):
            end += 1
            previous = _link(match_id, end, previous, line)
        if (end, previous) != (meta.events, meta.head_hash) or end < head.seq:
            raise _not_held(match_id, end)
    del records[target - start :]
    if state is None:
        if start:
            return _replayed(None, checked_records(store, match_id, lte=target), game)
    if start and _backs_up_before(records, start, game):
        # a back-up to a point before the snapshot: the replay loop must have seen that point
        return _replayed(None, checked_records(store, match_id, lte=target), game)
    return _replayed(state, records, game)


def checked_records(store: MatchStore, match_id: str, *, lte: int | None = None) -> Iterator[Any]:
    """The stored records of a match up to ``lte`` (default: all), each yielded only once its
    line continues the chain from the header; read to the end, the chain must end at the head
    the catalog entry recorded. For every output that replays a stored match from its start
    (``replay``, ``show --as``): a record altered in the database ends the output with
    `StoreError` at the first link that does not hold, instead of being shown as the match.

    Raises:
        MatchNotFoundError: no such match (at once).
        StoreError: a link does not hold (while iterating).
    """
    previous = store.header(match_id).hash or ""
    lines = store.lines(match_id, lte=lte)

    def checked() -> Iterator[Any]:
        nonlocal previous
        seq = 0
        for line, record in lines:
            seq += 1
            previous = _link(match_id, seq, previous, line)
            yield record
        if lte is None or seq < lte:
            meta = store.meta(match_id)
            if (meta.events, meta.head_hash) != (seq, previous):
                raise _not_held(match_id, seq)

    return checked()


def _anchor(store: MatchStore, match_id: str, target: int, head: int) -> tuple[int, str]:
    """The first position after ``target`` whose record hash this installation vouches for,
    and that hash: a vouched snapshot's record, else the head the catalog recorded."""
    following = store.next_snapshot(match_id, target, vouched=True)
    if following is not None:
        named = snapshot_record_hash(following[1])
        if named:
            return following[0], named
    meta = store.meta(match_id)
    if meta.events < head:
        return min(meta.events, target), ""  # records added past the catalog: nothing anchors them
    # the catalog's head, past ``head`` when an append landed after it was read (a record and
    # its catalog entry are written in one transaction, so the records reach it too)
    return meta.events, meta.head_hash


def _link(match_id: str, seq: int, previous: str, line: bytes) -> str:
    """The hash of the stored record line at ``seq`` if it continues the chain from
    ``previous``; else `StoreError`."""
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or data.get("seq") != seq:
        raise _not_held(match_id, seq)
    claimed = data.pop("hash", None)
    try:
        expected = codec.chain_hash(previous, codec.canonical(data))
    except codec.EncodeError:
        raise _not_held(match_id, seq) from None
    if claimed != expected:
        raise _not_held(match_id, seq)
    return expected


def _not_held(match_id: str, seq: int) -> StoreError:
    return StoreError(
        said_text(
            msg(
                "the stored records of match {match_id} do not chain up to seq {seq} (altered "
                "in the database?): nothing is shown from them; 'vwlog verify {match_id}' "
                "names the first broken link",
                match_id=match_id,
                seq=seq,
            )
        )
    )


def _backs_up_before(records: Iterable[Any], seq: int, game: GameRules | None = None) -> bool:
    """Whether a judge's ruling among ``records`` backs the match up to ``seq`` or before
    (``game``: the match's game; default: the game whose event each ruling is)."""
    for r in records:
        rules = game or game_of_event(r.event)
        if rules is None:
            continue
        ruling, back_to = rules.ruling_type, rules.back_to
        if ruling is not None and back_to is not None and isinstance(r.event, ruling):
            to = back_to(r.event)
            if to != -1 and (to or 0) <= seq:
                return True
    return False


def _replayed(state: Any, records: Iterable[Any], game: GameRules | None = None) -> Any:
    """The state after ``records`` from ``state`` (``None``: the game's empty board), through
    the replay loop (as validation and the snapshots see it: back-up rulings restore, omitted
    consequences are caught up), not the bare fold; ``game``: the match's game (default: the
    one whose board ``state`` is, or whose events the records hold)."""
    return replay(records, FinalState(), initial=state, game=game)


def board_at(store: MatchStore, match_id: str, seq: int | None = None) -> Any:
    """The board after event ``seq`` (default: the last) of a stored match of any game: from
    the nearest snapshot where its game keeps them (`vwlog.services.seek.state_at`), else
    replayed from the start of its records, each taken only once it continues the hash chain
    to the head the catalog recorded (`vwlog.services.seek.checked_records`).

    Raises:
        MatchNotFoundError: no such match.
        StoredSeqOutOfRangeError: seq is out of range.
        StoreError: the records do not chain (altered in the database).
    """
    header = store.header(match_id)
    game = rules_for(header.game)
    if keeps_snapshots(game):
        return state_at(store, match_id, seq)
    head = store.head(match_id)
    target = head.seq if seq is None else seq
    if not 0 <= target <= head.seq:
        raise StoredSeqOutOfRangeError(match_id, target, head.seq)
    kept = []
    for record in checked_records(store, match_id):  # to the end: the catalog's head anchors
        if record.seq <= target:
            kept.append(record)
    if not kept:
        return game.initial
    return replay(kept, FinalState(), header=header, game=game)


__all__ = [
    "board_at",
    "checked_records",
    "state_at",
]
