"""The checks of what a writer gives the match store (`vwlog.store.application.MatchStore`),
made before anything is written: records numbered on without gaps and sealed, a catalog entry
that describes the match it is given for, snapshots taken after the records appended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.model.errors import StoredSeqOutOfRangeError, UsageError
from vwlog.model.text import msg
from vwlog.store.catalog import Head

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.events.base import Record
    from vwlog.model.ids import MatchId
    from vwlog.store.catalog import MatchMeta


def check_lines(
    match_id: str, lines: Sequence[tuple[bytes, Record]], *, after: int, root: str | None
) -> str:
    """Check records are numbered ``after + 1``, … and carry hashes; return the head hash."""
    head = root
    for index, (_line, record) in enumerate(lines, start=after + 1):
        if record.seq != index:
            raise UsageError(
                msg(
                    "record {value} for match {match_id} has seq {seq}, expected {index}: records "
                    "are stored in order, numbered without gaps",
                    value=index - after,
                    match_id=repr(match_id),
                    seq=record.seq,
                    index=index,
                )
            )
        head = record.hash
        if head is None:
            raise UsageError(
                msg(
                    "record {seq} for match {match_id} has no hash: seal the records "
                    "(vwlog.io.codec.seal) before storing them",
                    seq=record.seq,
                    match_id=repr(match_id),
                )
            )
    if head is None:
        raise UsageError(
            msg(
                "the header of match {match_id} has no hash: seal it first", match_id=repr(match_id)
            )
        )
    return head


def appended_head(
    match_id: MatchId,
    lines: Sequence[tuple[bytes, Record]],
    expected_seq: int,
    meta: MatchMeta | None,
    snapshots: Sequence[tuple[int, bytes]],
) -> Head:
    """The head of a match after `MatchStore.append` of ``lines`` after ``expected_seq``, once
    the arguments are checked: ``lines`` numbered on and hashed, ``meta`` describing the match
    after the append, each snapshot's seq one of the appended records'.

    Raises:
        UsageError: ``lines`` is empty or wrong, or ``meta`` does not describe the result.
        StoredSeqOutOfRangeError: A snapshot's seq is not one of the appended records'.
    """
    if not lines:
        raise UsageError(msg("nothing to append to match {match_id}", match_id=repr(match_id)))
    head_hash = check_lines(match_id, lines, after=expected_seq, root=None)
    new_head = Head(expected_seq + len(lines), head_hash)
    if meta is not None:
        check_meta(meta, match_id, events=new_head.seq, head_hash=head_hash)
    for seq, _data in snapshots:
        if not expected_seq < seq <= new_head.seq:
            raise StoredSeqOutOfRangeError(match_id, seq, new_head.seq)
    return new_head


def check_meta(meta: MatchMeta, match_id: str, *, events: int, head_hash: str) -> None:
    if meta.match_id != match_id:
        raise UsageError(
            msg(
                "metadata of match {match_id} given for match {match_id2}",
                match_id=repr(meta.match_id),
                match_id2=repr(match_id),
            )
        )
    if (meta.events, meta.head_hash) != (events, head_hash):
        raise UsageError(
            msg(
                "metadata of match {match_id} says {events} events ending in {head_hash}, the "
                "records say {events2} ending in {head_hash2}",
                match_id=repr(match_id),
                events=meta.events,
                head_hash=meta.head_hash[:12],
                events2=events,
                head_hash2=head_hash[:12],
            )
        )


__all__ = ["appended_head", "check_lines", "check_meta"]
