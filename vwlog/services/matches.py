"""Use cases over the stored matches: export, verify, list; seek (`state_at`,
`checked_records`) lives in `vwlog.services.seek` and is re-exported here. Importing a log is
`vwlog.services.importing` (many at once with processes: `vwlog.services.importpool`), storing
a judged match `vwlog.services.storing`.

The store keeps each match as its canonical record lines with their hash chain, plus a catalog
entry (`MatchMeta`) and state snapshots at intervals. Everything that judges a match goes
through the one replay loop (`vwlog.engine.replay.replay`).
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from vwlog.io import codec
from vwlog.io.chain import BrokenLink, VerifyReport, parsed_line, verify_lines
from vwlog.io.integritypass import IntegrityPass
from vwlog.io.logfile import replacing
from vwlog.model.errors import StoreError
from vwlog.model.text import msg, said_text
from vwlog.services.integrity import check_derived, check_view, repair_derived
from vwlog.services.seek import checked_records, state_at
from vwlog.services.snapshots import (
    decode_snapshot,
    encode_snapshot,
)
from vwlog.services.trust import TrustFindings, TrustOptions, chain_report_text, findings_of
from vwlog.store import MatchMeta, MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path
    from typing import BinaryIO

    from vwlog.model.verdict import TrustedResult


# -- export, verify, list --------------------------------------------------------------------


def export_match(
    store: MatchStore, match_id: str, target: str | Path, *, checked: bool = False
) -> int:
    """Write a stored match as a log file: the header and the stored lines as they are.

    With ``checked``, the stored lines are first checked (`export_problem`): a match whose
    chain no longer holds is refused and nothing is written.

    Raises:
        MatchNotFoundError: no such match.
        OutputError: the file cannot be written.
        StoreError: with ``checked``, the stored chain no longer holds.
    """
    if checked:
        problem = export_problem(store, match_id)
        if problem is not None:
            raise StoreError(problem)
    header = store.header(match_id)
    head = codec.header_bytes(header)

    if str(target) == "-":
        import sys

        return _write_export(sys.stdout.buffer, head, store.raw_lines(match_id))
    with replacing(target) as out:
        return _write_export(out, head, store.raw_lines(match_id))


def export_problem(store: MatchStore, match_id: str) -> str | None:
    """Why the stored lines of a match may not be exported as its record, or ``None``: its
    header and lines must chain, and end at the head its catalog entry recorded (one read
    and hash of the lines, before anything is written).

    Raises:
        MatchNotFoundError: no such match.
        StoreError: the database failed.
    """
    report = verify_match(store, match_id, with_derived=False)
    if report.broken is None:
        return None
    b = report.broken
    return said_text(
        msg(
            "match {match_id}: its stored chain no longer holds ({where}: {reason}): nothing "
            "exported; 'vwlog verify {match_id}' says more",
            match_id=match_id,
            where=msg("seq {seq}", seq=b.seq)
            if b.seq is not None
            else msg("line {line}", line=b.line),
            reason=b.reason,
        )
    )


def _write_export(out: BinaryIO, head: bytes, lines: Iterable[bytes]) -> int:
    """Write the header line and the stored lines, one at a time; return how many records."""
    out.write(head + b"\n")
    count = 0
    for line in lines:
        out.write(line + b"\n")
        count += 1
    return count


def verify_match(
    store: MatchStore,
    match_id: str,
    *,
    repair: bool = False,
    gathered: IntegrityPass | None = None,
    with_derived: bool = True,
) -> VerifyReport:
    """Recompute the hash chain of a stored match from its stored lines, and check that it ends
    at the head the catalog recorded (so records deleted from the end are found too); when the
    chain holds, replay the records and check the derived data against them: the catalog
    entry, the snapshots and the statistics view (`vwlog.services.integrity`).

    With ``repair``, derived data that disagrees with an intact chain is rebuilt from the same
    replay (snapshots rewritten, the catalog entry replaced) and the report says what was, in
    ``repaired``; its ``derived`` still lists what was found. A broken chain repairs nothing.

    Without ``with_derived``, only the records are checked (not the catalog's statistics, the
    snapshots and the view: the verdict rests on the records alone).

    With ``gathered`` (an `IntegrityPass` of the match), the stored lines are fed to it and its
    chain check is the one reported: the seal and signature checks
    (`vwlog.services.trust.verify_stored`) then need no second read and hash of the chain.

    Raises:
        MatchNotFoundError: no such match.
        SequenceConflictError: with ``repair``, records were appended meanwhile.
    """

    header = store.header(match_id)
    meta = store.meta(match_id)
    lines = ((i + 2, raw) for i, raw in enumerate(store.raw_lines(match_id)))
    if gathered is None:
        report = verify_lines(f"store:{match_id}", header, lines)
    else:
        for line_no, raw in lines:
            gathered.feed(line_no, raw, parsed_line(raw, header.game))
        report = gathered.chain.report()
    report = dataclasses.replace(report, seal=meta.seal)
    if report.broken is None and (
        report.records != meta.events or report.head_hash != meta.head_hash
    ):
        broken = BrokenLink(
            report.records + 1 if report.records < meta.events else None,
            report.records + 2,
            said_text(
                msg(
                    "the chain ends at seq {seq} but the catalog recorded {events} events: "
                    "records are missing or were added",
                    seq=report.records,
                    events=meta.events,
                )
            ),
            meta.head_hash,
            report.head_hash,
        )
        return dataclasses.replace(report, broken=broken)
    if report.broken is None and with_derived:
        if repair:
            found, repaired = repair_derived(store, match_id)
        else:
            found, repaired = check_derived(store, match_id), []
        view = check_view(store)
        if view is not None:
            found.append(view)
        report = dataclasses.replace(report, derived=tuple(found), repaired=tuple(repaired))
    return report


def verify_stored(
    store: MatchStore,
    match_id: str,
    options: TrustOptions | None = None,
    *,
    repair: bool = False,
    trusted: Sequence[TrustedResult] = (),
    judged_under: Any = None,
    owed: Sequence[str] = (),
    derived: bool = True,
) -> tuple[VerifyReport, TrustFindings]:
    """A stored match's `vwlog.services.matches.verify_match` report (the chain, the catalog
    and the derived data, rebuilt with ``repair``; not checked without ``derived``) and its
    `check_integrity` findings (the seal and the signatures), from one read and hash of its
    stored lines (the bytes export writes).

    Raises:
        MatchNotFoundError: no such match.
        SequenceConflictError: with ``repair``, records were appended meanwhile.
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    gathered = IntegrityPass(f"store:{match_id}", store.header(match_id))
    report = verify_match(store, match_id, repair=repair, gathered=gathered, with_derived=derived)
    findings = findings_of(gathered, options, trusted=trusted, judged_under=judged_under, owed=owed)
    if report.broken is not None and findings.integrity.chain == "intact":
        # the lines chain, but not to the head the catalog recorded (records cut or added)
        chain = chain_report_text(report)
        findings.integrity = dataclasses.replace(
            findings.integrity,
            chain=chain,
            problems=(
                said_text(msg("hash chain {chain}", chain=chain)),
                *findings.integrity.problems,
            ),
        )
    return report, findings


def created_day(created: str | None) -> date | None:
    """The day of a header's ``created`` time (ISO 8601), or ``None`` if absent or unreadable."""
    if not created:
        return None
    try:
        return datetime.fromisoformat(created).date()
    except ValueError:
        return None


class MatchFilters(TypedDict, total=False):
    """What a listing of stored matches keeps: a match with ``player`` seated, won by
    ``winner``, won by a ``victory`` of that kind (any case), ``flagged`` or not, created on or
    after the day ``since`` (a match whose log gives no creation time is left out), tagged with
    ``event``."""

    player: str | None
    winner: str | None
    victory: str | None
    flagged: bool | None
    since: date | None
    event: str | None


def list_matches(store: MatchStore, **filters: Unpack[MatchFilters]) -> list[MatchMeta]:
    """Stored matches, filtered (`MatchFilters`)."""
    return [meta for meta, _ in list_vouched(store, **filters)]


def list_vouched(
    store: MatchStore, **filters: Unpack[MatchFilters]
) -> list[tuple[MatchMeta, bool]]:
    """`list_matches`, each with whether this installation vouches for its catalog entry
    (`MatchStore.vouched`): one that is not may have been altered in the database, and is
    shown flagged."""
    player, winner, victory = filters.get("player"), filters.get("winner"), filters.get("victory")
    flagged, since, event = filters.get("flagged"), filters.get("since"), filters.get("event")
    out = []
    for m, vouched in store.list_vouched():
        if since is not None:
            created = created_day(m.created)
            if created is None or created < since:
                continue
        if player is not None and player not in m.players:
            continue
        if winner is not None and m.winner != winner:
            continue
        if victory is not None and (m.victory or "").upper() != victory.upper():
            continue
        if flagged is not None and m.flagged != flagged:
            continue
        if event is not None and m.tags.get("event") != event:
            continue
        out.append((m, vouched))
    return out


__all__ = [
    "MatchFilters",
    "checked_records",
    "created_day",
    "decode_snapshot",
    "encode_snapshot",
    "export_match",
    "export_problem",
    "list_matches",
    "list_vouched",
    "state_at",
    "verify_match",
    "verify_stored",
]
