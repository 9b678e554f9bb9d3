"""Use cases over the match store: import, export, list, verify; seek (`state_at`,
`checked_records`) lives in `vwlog.services.seek` and is re-exported here.

The store keeps each match as its canonical record lines with their hash chain, plus a catalog
entry (`MatchMeta`) and state snapshots at intervals. Everything that judges a match goes
through the one replay loop (`vwlog.engine.replay.replay`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Literal

from vwlog.engine.replay import (
    BaseVisitor,
    Fanout,
    Step,
    ValidationReport,
    Validator,
    replay,
)
from vwlog.events import (
    EventRecord,
    LogHeader,
)
from vwlog.games import rules_for
from vwlog.io import codec
from vwlog.io.logfile import file_is_regular, open_log, replacing
from vwlog.model.errors import (
    LogFormatError,
    MatchExistsError,
    SequenceConflictError,
    StoreError,
    VwlogError,
)
from vwlog.model.text import Msg, msg, said_text
from vwlog.projections.stats import MatchMetricsVisitor
from vwlog.services.seek import checked_records, state_at
from vwlog.services.snapshots import (
    _Snapshots,
    decode_snapshot,
    encode_snapshot,
    keeps_snapshots,
    measures,
)
from vwlog.services.verify import BrokenLink, VerifyReport, parsed_line, verify_lines
from vwlog.store import ImportOutcome, MatchMeta, MatchStore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path
    from typing import BinaryIO

    from vwlog.model.state import MatchState
    from vwlog.services.trustpass import IntegrityPass

SNAPSHOT_EVERY = 100
"""Default interval between state snapshots (events); a seek replays at most this many."""


def _metrics(measure: MatchMetricsVisitor) -> dict[str, Any] | None:
    """A match's metrics as its catalog entry keeps them (`MatchMeta.metrics`): in JSON mode,
    each player's ``tempo`` in columns (`vwlog.projections.stats.tempo_columns`), made without
    a model per turn; ``None`` if the records hold no ``match_started`` to measure."""
    try:
        data = measure.result(tempo=False).model_dump(mode="json")
        columns = measure.tempo_columns()
    except ValueError:
        return None
    for player in data["players"]:
        player["tempo"] = columns[player["player"]]
    return data


class Measuring(BaseVisitor[None]):
    """Feeds a `MatchMetricsVisitor` inside a `Fanout` whose result leaves it out: its
    metrics are made once afterwards, in the form the catalog keeps (`_metrics`), and not
    also as a model per turn of the match that no one reads."""

    def __init__(self, measure: MatchMetricsVisitor) -> None:
        self.measure = measure

    def begin_match(self, header: LogHeader | None) -> None:
        """Begin the measure."""
        self.measure.begin_match(header)

    def visit(self, step: Step) -> None:
        """Show the step to the measure."""
        self.measure.visit(step)

    def end_match(self, final: MatchState) -> None:
        """End the measure."""
        self.measure.end_match(final)

    def result(self) -> None:
        """Nothing: ask the measure itself."""


# -- import ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What importing one log did."""

    path: str
    match_id: str | None
    outcome: str
    """``stored``, ``unchanged``, ``rejected`` (illegal, with --reject-illegal) or ``error``."""
    events: int = 0
    violations: int = 0
    detail: str = ""
    said: Msg | None = dataclasses.field(default=None, compare=False)
    """``detail`` as a template and its values, to say it in the user's language."""
    verdict: str | None = None
    """The log's one verdict (`vwlog.services.verdict.judge`), where it was judged."""
    reason: str | None = dataclasses.field(default=None, compare=False)
    """The one sentence that decides ``verdict`` (a `SaidText`: said in the user's
    language)."""
    intact: bool | None = None
    """Whether the record is intact; one that is not is stored flagged, without a winner."""


def meta_from(
    header: LogHeader,
    report: ValidationReport,
    head_hash: str,
    *,
    events: int,
    metrics: dict[str, Any] | None = None,
) -> MatchMeta:
    """The catalog entry of a validated match (with its metrics, when measured)."""
    summary = [f"{v.rule}@{v.seq}" for v in report.violations[:100]]
    return MatchMeta(
        match_id=header.match_id,
        players=list(report.players),
        created=header.created,
        tags=header.tags(),
        turns=report.turns,
        winner=report.winner,
        victory=report.victory,
        violations=len(report.violations),
        violation_summary=summary,
        head_hash=head_hash,
        events=events,
        parent=report.fork_parent,
        fork_at=report.fork_at,
        flagged=bool(report.violations),
        metrics=metrics,
    )


def judge_and_measure(
    header: LogHeader,
    items: Iterable[tuple[int, EventRecord]],
    snapshots: _Snapshots,
    *,
    source: str | None = None,
) -> tuple[ValidationReport, dict[str, Any] | None]:
    """One pass of the replay loop over ``(line, record)`` items that feeds validation,
    ``snapshots`` and the match's statistics (kept in its catalog entry for the statistics read
    model): the validation report and the metrics (``None`` when there is nothing to measure)."""
    game = rules_for(header.game)
    if not keeps_snapshots(game):
        snapshots.every = 0  # replayed from the start instead
    if not measures(game):
        report: ValidationReport = replay(
            items, Fanout(Validator(source=source), snapshots), header=header
        )[0]
        return report, None
    measure = MatchMetricsVisitor()
    visitors = Fanout(Validator(source=source), snapshots, Measuring(measure))
    report = replay(items, visitors, header=header)[0]
    return report, _metrics(measure)


def rejected(source: str, match_id: str, events: int, report: ValidationReport) -> ImportResult:
    """The result of an import refused for its violations (``reject_illegal``)."""
    n = len(report.violations)
    first = report.violations[0]
    message = first.text if first.text is not None else first.message
    where = first.where()
    said = msg(
        "{count} violations; first: {violation}",
        count=n,
        violation=msg("{rule}  {message} ({where})", rule=first.rule, message=message, where=where)
        if where
        else msg("{rule}  {message}", rule=first.rule, message=message),
    )
    return ImportResult(
        source, match_id, "rejected", events, n, f"{n} violations; first: {first}", said=said
    )


def _store_lines(
    store: MatchStore,
    header: LogHeader,
    lines: Sequence[tuple[bytes, EventRecord]],
    meta: MatchMeta,
    snapshots: _Snapshots,
) -> ImportOutcome:
    """Store a validated match whole with its snapshots, in one transaction."""
    encoded = (
        (seq, encode_snapshot(state, lines[seq - 1][1].hash)) for seq, state in snapshots.result()
    )
    return store.import_stream(header, lines, meta, encoded)


def store_new_match(
    store: MatchStore, header: LogHeader, records: Sequence[EventRecord]
) -> tuple[ImportOutcome, MatchMeta]:
    """Validate, measure and store a match that vwlog made itself (a fork's copied prefix, the
    start of a live match), sealed under ``header``; with its snapshots when it was stored.

    Raises:
        MatchExistsError: another match is stored under the header's id.
        StoreError: the database failed.
    """
    assert header.hash is not None
    lines = [(codec.record_bytes(r), r) for r in records]
    snapshots = _Snapshots(SNAPSHOT_EVERY)
    items = ((i + 2, r) for i, r in enumerate(records))
    report, metrics = judge_and_measure(header, items, snapshots)
    meta = meta_from(header, report, records[-1].hash or "", events=len(records), metrics=metrics)
    return _store_lines(store, header, lines, meta, snapshots), meta


def _read_for_import(
    path: str | Path,
) -> tuple[LogHeader, list[tuple[bytes, EventRecord]], Literal["author", "import"]]:
    """Read a log whole; seal it if it carries no hashes; refuse a broken chain. Also says who
    sealed it: its ``author``, or this ``import``."""
    with open_log(path) as reader:
        header = reader.header
        upcast = reader.upcast
        lines = [(line.raw, line.record) for line in reader]
    records = [r for _, r in lines]
    if header.hash is None and all(r.hash is None for r in records):
        # an unsealed log (no hash anywhere): seal it
        head = codec.seal_header(header.model_copy(update={"hash": None}))
        assert head.hash is not None
        sealed = list(codec.seal(head.hash, (r.model_copy(update={"hash": None}) for r in records)))
        return head, [(codec.record_bytes(r), r) for r in sealed], "import"
    missing = next((r.seq for r in records if r.hash is None), None)
    if header.hash is None or missing is not None:
        where = "the header" if header.hash is None else f"seq {missing}"
        raise LogFormatError(
            str(path),
            1 if header.hash is None else (missing or 0) + 1,
            f"the log is sealed but {where} has no hash (removed after sealing?); "
            "not imported: check it with 'vwlog verify'",
            "hash",
        )
    report = verify_lines(
        str(path),
        header,
        ((i + 2, codec.record_bytes(r) if upcast else raw) for i, (raw, r) in enumerate(lines)),
    )
    if report.broken is not None:
        b = report.broken
        where = f"seq {b.seq}" if b.seq is not None else f"line {b.line}"
        raise LogFormatError(
            str(path),
            b.line,
            f"hash chain broken at {where} ({b.reason}); "
            "not imported: check it with 'vwlog verify'",
        )
    if upcast:
        return header, [(codec.record_bytes(r), r) for r in records], "author"
    return header, lines, "author"


def import_log(
    store: MatchStore,
    path: str | Path,
    *,
    reject_illegal: bool = False,
    snapshot_every: int = SNAPSHOT_EVERY,
) -> ImportResult:
    """Validate a log and store it in one transaction (all of it or none of it).

    Idempotent: the same match imported again stores nothing (``unchanged``). A log with
    violations is stored flagged with them, or refused with ``reject_illegal``.

    Raises:
        LogFormatError: the file is unreadable, malformed, or its hash chain is broken.
        MatchExistsError: another match with this id is stored.
        StoreError: the database failed.
    """
    if file_is_regular(path):
        from vwlog.services.importing import import_streaming

        return import_streaming(
            store, path, reject_illegal=reject_illegal, snapshot_every=snapshot_every
        )
    from vwlog.services.importing import judged_lines, judged_meta, not_accepted

    header, lines, seal = _read_for_import(path)
    snapshots = _Snapshots(snapshot_every)
    items = ((i + 2, r) for i, (_, r) in enumerate(lines))
    report, metrics = judge_and_measure(header, items, snapshots, source=str(path))
    report = judged_lines(str(path), header, lines, report, hashed=seal == "author")
    if reject_illegal and report.violations:
        return rejected(str(path), header.match_id, len(lines), report)
    refused = not_accepted(str(path), header.match_id, len(lines), report)
    if refused is not None:
        return refused
    head_hash = lines[-1][1].hash if lines else header.hash
    meta = meta_from(header, report, head_hash or "", events=len(lines), metrics=metrics)
    meta = judged_meta(meta, report).model_copy(update={"seal": seal})
    outcome = _store_lines(store, header, lines, meta, snapshots)
    judged = report.judgement
    assert judged is not None
    return ImportResult(
        str(path),
        header.match_id,
        str(outcome),
        len(lines),
        len(report.violations),
        verdict=judged.verdict.value,
        reason=judged.reason,
        intact=judged.intact,
    )


def failed(path: str | Path, err: Exception) -> ImportResult:
    """The ``error`` result of a log that could not be imported, its message naming the file
    (a format error names it already; a conflict with a stored match names only the match)."""
    name, text = str(path), str(err)
    said = err.text() if isinstance(err, VwlogError) else text
    if name not in text:
        said = msg("{path}: {error}", path=name, error=said)
    return ImportResult(
        name,
        None,
        "error",
        detail=text if name in text else f"{name}: {text}",
        said=said if isinstance(said, Msg) else None,
    )


def import_logs(
    store: MatchStore,
    paths: Sequence[str | Path],
    *,
    reject_illegal: bool = False,
    snapshot_every: int = SNAPSHOT_EVERY,
    on_result: Callable[[ImportResult], None] | None = None,
) -> list[ImportResult]:
    """Import many logs; a file that fails (unreadable, conflicting, or the database refused
    its transaction) is reported as an ``error`` result and the others go on."""
    results = []
    for path in paths:
        try:
            result = import_log(
                store, path, reject_illegal=reject_illegal, snapshot_every=snapshot_every
            )
        except (LogFormatError, MatchExistsError, SequenceConflictError, StoreError) as err:
            result = failed(path, err)
        except Exception as err:  # one log's defect never ends the batch
            from vwlog.services.importing import defect

            result = defect(path, err)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


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
    from vwlog.services.integrity import check_derived, check_view, repair_derived

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


def created_day(created: str | None) -> date | None:
    """The day of a header's ``created`` time (ISO 8601), or ``None`` if absent or unreadable."""
    if not created:
        return None
    try:
        return datetime.fromisoformat(created).date()
    except ValueError:
        return None


def list_matches(
    store: MatchStore,
    *,
    player: str | None = None,
    winner: str | None = None,
    victory: str | None = None,
    flagged: bool | None = None,
    since: date | None = None,
) -> list[MatchMeta]:
    """Stored matches, filtered; ``since`` keeps those created on or after that day (a match
    whose log gives no creation time is left out)."""
    chosen = list_vouched(
        store, player=player, winner=winner, victory=victory, flagged=flagged, since=since
    )
    return [meta for meta, _ in chosen]


def list_vouched(
    store: MatchStore,
    *,
    player: str | None = None,
    winner: str | None = None,
    victory: str | None = None,
    flagged: bool | None = None,
    since: date | None = None,
    event: str | None = None,
) -> list[tuple[MatchMeta, bool]]:
    """`list_matches`, each with whether this installation vouches for its catalog entry
    (`MatchStore.vouched`): one that is not may have been altered in the database, and is
    shown flagged."""
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
    "SNAPSHOT_EVERY",
    "ImportResult",
    "Measuring",
    "checked_records",
    "created_day",
    "decode_snapshot",
    "encode_snapshot",
    "export_match",
    "export_problem",
    "failed",
    "import_log",
    "import_logs",
    "judge_and_measure",
    "list_matches",
    "list_vouched",
    "meta_from",
    "rejected",
    "state_at",
    "store_new_match",
    "verify_match",
]
