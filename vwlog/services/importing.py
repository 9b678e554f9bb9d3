"""Importing a log in passes that each stream the file, so that memory does not grow with the
length of the match (a 1.4-million-event match imports in about the memory that validating
it takes).

1. **recognise**: a file whose SHA-256 is the one a stored match was imported from is
   ``unchanged`` at once, before anything is validated (an interrupted batch import re-run);
2. **chain**: a sealed log's hash chain is checked line by line (`verify_lines`);
3. **replay**: one replay validates the records, measures the match and encodes a snapshot
   every ``snapshot_every`` records into a temporary file, never into memory;
4. **store**: the records are read again and written with the registration and the spooled
   snapshots in one transaction (`MatchStore.import_stream`).

A log without hashes is sealed on the fly, identically in passes 3 and 4; its catalog entry
says it was sealed on import.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, Literal

from vwlog.io import codec
from vwlog.io.chain import header_line
from vwlog.io.logfile import file_is_regular, open_log
from vwlog.model.errors import (
    LogFormatError,
    MatchExistsError,
    SequenceConflictError,
    StoreError,
)
from vwlog.model.text import msg, said_text
from vwlog.services import verify_lines
from vwlog.services.judging import judge_file
from vwlog.services.snapshots import _Snapshots, encode_snapshot
from vwlog.services.storing import (
    SNAPSHOT_EVERY,
    ImportResult,
    defect,
    failed,
    judge_and_measure,
    meta_from,
    rejected,
    store_lines,
)
from vwlog.services.trust import check_integrity
from vwlog.services.validate import with_findings
from vwlog.store import ImportOutcome, MatchMeta, MatchStore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from pathlib import Path

    from vwlog.engine.replay import Step, ValidationReport
    from vwlog.events import EventRecord, LogHeader
    from vwlog.model.verdict import Judgement

_CHUNK = 1 << 20
_SNAPSHOT_HEAD = struct.Struct("<QQ")


def file_sha256(path: str | Path) -> str | None:
    """SHA-256 of a regular file's bytes (``None`` for standard input, a pipe or a device,
    which cannot be read twice).

    Raises:
        LogFormatError: the file cannot be read.
    """
    import stat

    if str(path) == "-":
        return None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        digest = hashlib.sha256()
        with open(path, "rb") as file:
            while chunk := file.read(_CHUNK):
                digest.update(chunk)
    except OSError as err:
        raise LogFormatError(str(path), None, f"cannot read: {err.strerror or err}") from err
    return digest.hexdigest()


class _SpooledSnapshots(_Snapshots):
    """Encode the state after every ``every``-th record into a temporary file, as
    ``(seq, length, bytes)``, instead of keeping the states."""

    def __init__(self, every: int, spool: BinaryIO) -> None:
        super().__init__(every)
        self.spool = spool
        self.last_hash: str | None = None
        """The hash of the last record seen (the head of the chain)."""
        self.count = 0
        """How many records were seen."""

    def visit(self, step: Step) -> None:
        """Spool the state after every ``every``-th record."""
        seq = step.record.seq
        self.last_hash = step.record.hash
        self.count += 1
        if self.every and seq % self.every == 0:
            data = encode_snapshot(step.after, step.record.hash)
            self.spool.write(_SNAPSHOT_HEAD.pack(seq, len(data)))
            self.spool.write(data)


def _records(path: str | Path, *, seal: bool) -> Iterator[tuple[int, bytes, EventRecord, bool]]:
    """``(line number, raw line, record, upcast)`` of the log, sealed on the fly if ``seal``."""
    with open_log(path) as reader:
        upcast = reader.upcast
        if not seal:
            for line in reader:
                yield line.line_no, line.raw, line.record, upcast
            return
        header = codec.seal_header(reader.header.model_copy(update={"hash": None}))
        previous = header.hash or ""
        for line in reader:
            if line.record.hash is not None:
                raise LogFormatError(
                    reader.name,
                    line.line_no,
                    "the log is sealed but the header has no hash (removed after sealing?); "
                    "not imported: check it with 'vwlog verify'",
                    "hash",
                )
            record = next(codec.seal(previous, [line.record]))
            previous = record.hash or ""
            yield line.line_no, b"", record, True


def _sealed_header(header: LogHeader) -> LogHeader:
    return codec.seal_header(header.model_copy(update={"hash": None}))


def _check_chain(path: str | Path, header: LogHeader, header_line: bytes | None = None) -> None:
    """Refuse a sealed log whose chain is broken, that lacks a hash somewhere, or whose header
    line (``header_line``, as read) is not in canonical form."""
    name = str(path)

    def lines() -> Iterator[tuple[int, bytes]]:
        for line_no, raw, record, upcast in _records(path, seal=False):
            if record.hash is None:
                raise LogFormatError(
                    name,
                    line_no,
                    f"the log is sealed but seq {record.seq} has no hash (removed after "
                    "sealing?); not imported: check it with 'vwlog verify'",
                    "hash",
                )
            yield line_no, codec.record_bytes(record) if upcast else raw

    report = verify_lines(name, header, lines(), header_line=header_line)
    if report.broken is not None:
        b = report.broken
        where = f"seq {b.seq}" if b.seq is not None else f"line {b.line}"
        raise LogFormatError(
            name,
            b.line,
            f"hash chain broken at {where} ({b.reason}); not imported: check it with "
            "'vwlog verify'",
        )


def recognised(store: MatchStore, path: str | Path, digest: str | None) -> ImportResult | None:
    """``unchanged`` if the file is byte for byte the one a stored match was imported from."""
    if digest is None:
        return None
    with open_log(path) as reader:
        header = reader.header
    if header.match_id in store:
        meta = store.meta(header.match_id)
        if meta.source_sha256 == digest:
            # the verdict its import gave it, kept in its catalog entry
            return ImportResult(
                str(path),
                header.match_id,
                str(ImportOutcome.UNCHANGED),
                meta.events,
                meta.violations,
                verdict=meta.verdict,
                reason=meta.reason,
                intact=meta.intact,
            )
    return None


@dataclass(frozen=True)
class Prepared:
    """A log validated and measured, its snapshots spooled: all that storing it needs."""

    path: str
    header: LogHeader
    """The header to store (sealed on the fly when the log had no hashes)."""
    seal: Literal["author", "import"]
    meta: MatchMeta
    events: int
    violations: int
    judgement: Judgement | None = None
    """The one verdict on the log."""


def prepare(
    path: str | Path,
    digest: str | None,
    spool: BinaryIO,
    *,
    reject_illegal: bool,
    snapshot_every: int,
) -> Prepared | ImportResult:
    """Passes 2 and 3 (see the module): the chain, then one replay that validates, measures and
    spools the snapshots into ``spool``; a ``rejected`` result when ``reject_illegal`` refuses
    the log.

    Raises:
        LogFormatError: the file is unreadable, malformed, or its hash chain is broken.
    """
    name = str(path)
    with open_log(path) as reader:
        header = reader.header
        line = header_line(reader)
    seal: Literal["author", "import"] = "author" if header.hash is not None else "import"
    if seal == "author":
        try:
            _check_chain(path, header, line)
        except LogFormatError as err:
            raise _refused(path, err) from err
    else:
        header = _sealed_header(header)
    snapshots = _SpooledSnapshots(snapshot_every, spool)
    items = ((n, r) for n, _, r, _ in _records(path, seal=seal == "import"))
    report, metrics = judge_and_measure(header, items, snapshots, source=name)
    events = snapshots.count
    # the one verdict on the file as it is (the bytes `vwlog validate` judges)
    report = with_findings(report, check_integrity(path, trusted=report.trusted, owed=report.owed))
    if reject_illegal and report.violations:
        return rejected(name, header.match_id, events, report)
    refused = not_accepted(name, header.match_id, events, report)
    if refused is not None:
        return refused
    head_hash = snapshots.last_hash or header.hash or ""
    meta = judged_meta(meta_from(header, report, head_hash, events=events, metrics=metrics), report)
    meta = meta.model_copy(update={"seal": seal, "source_sha256": digest})
    spool.flush()
    return Prepared(name, header, seal, meta, events, len(report.violations), report.judgement)


def not_accepted(
    source: str, match_id: str, events: int, report: ValidationReport
) -> ImportResult | None:
    """The refusal of a log judged UNVERIFIED where the store names the pools or rulesets it
    accepts (``VWLOG_ACCEPT_POOLS``, ``VWLOG_ACCEPT_RULESETS``): a tournament that names them
    stores nothing else. ``None`` when the log may be stored (an UNVERIFIED log is then
    stored with its verdict)."""
    from vwlog.model.verdict import Verdict
    from vwlog.services.trust import TrustOptions

    judged = report.judgement
    if judged is None or judged.verdict is not Verdict.UNVERIFIED:
        return None
    accepting = TrustOptions()
    if accepting.accept_pools is None and accepting.accept_rulesets is None:
        return None
    said = msg(
        "not accepted here: its verdict, {verdict}: {reason}",
        verdict=judged.verdict.value,
        reason=judged.reason,
    )
    return ImportResult(
        source,
        match_id,
        "rejected",
        events,
        len(report.violations),
        str(said),
        said=said,
        verdict=judged.verdict.value,
        reason=judged.reason,
        intact=judged.intact,
    )


def judged_meta(meta: MatchMeta, report: ValidationReport) -> MatchMeta:
    """A catalog entry that keeps the one verdict of ``report``: flagged when a rule is broken
    or the record is not intact, and then without a winner (the winner its records name is
    not an outcome anybody can vouch for)."""
    judged = report.judgement
    assert judged is not None
    update: dict[str, object] = {
        "verdict": judged.verdict.value,
        "reason": str(judged.reason)[:2000],
        "intact": judged.intact,
        "flagged": bool(report.violations) or not judged.intact,
    }
    if not judged.intact:
        update |= {"winner": None, "victory": None}
    return meta.model_copy(update=update)


def judged_lines(
    source: str,
    header: LogHeader,
    lines: Sequence[tuple[bytes, EventRecord]],
    report: ValidationReport,
    *,
    hashed: bool,
) -> ValidationReport:
    """``report`` judged from a log read whole (standard input, a pipe): its lines as read
    (``hashed``), or, for a log that carried no hashes and was sealed on import, as it was
    (without them)."""
    from vwlog.io.integritypass import IntegrityPass
    from vwlog.services.trust import findings_of

    if not hashed:
        header = header.model_copy(update={"hash": None})
    gathered = IntegrityPass(source, header)
    for n, (raw, record) in enumerate(lines):
        if not hashed:
            record = record.model_copy(update={"hash": None})
            raw = codec.record_bytes(record)
        gathered.feed(n + 2, raw, record)
    findings = findings_of(gathered, trusted=report.trusted, owed=report.owed)
    return with_findings(report, findings)


def _refused(path: str | Path, err: LogFormatError) -> LogFormatError:
    """The refusal of a log whose chain is broken: what the chain check found, then its one
    verdict and reason (as `vwlog validate` gives them)."""
    try:
        _, report = judge_file(path)
    except LogFormatError:
        return err
    judged = report.judgement
    assert judged is not None
    said = msg(
        "{problem}; its verdict, {verdict}: {reason}",
        problem=err.detail,
        verdict=judged.verdict.value,
        reason=judged.reason,
    )
    return LogFormatError(str(path), err.line, said_text(said), err.field)


def _spooled(spool: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """The snapshots `_SpooledSnapshots` wrote to ``spool``, in seq order, one at a time."""
    spool.seek(0)
    while head := spool.read(_SNAPSHOT_HEAD.size):
        seq, size = _SNAPSHOT_HEAD.unpack(head)
        yield seq, spool.read(size)


def store_prepared(store: MatchStore, prepared: Prepared, spool: BinaryIO) -> ImportResult:
    """Pass 4: read the records again and store them with the spooled snapshots in one
    transaction.

    Raises:
        LogFormatError: the file can no longer be read.
        MatchExistsError: another match with this id is stored.
        StoreError: the database failed.
    """
    lines = (
        (codec.record_bytes(r) if upcast or not raw else raw, r)
        for _, raw, r, upcast in _records(prepared.path, seal=prepared.seal == "import")
    )
    outcome = store.import_stream(prepared.header, lines, prepared.meta, _spooled(spool))
    judged = prepared.judgement
    return ImportResult(
        prepared.path,
        prepared.header.match_id,
        str(outcome),
        prepared.events,
        prepared.violations,
        verdict=judged.verdict.value if judged is not None else None,
        reason=judged.reason if judged is not None else None,
        intact=judged.intact if judged is not None else None,
    )


def import_streaming(
    store: MatchStore,
    path: str | Path,
    *,
    reject_illegal: bool,
    snapshot_every: int,
) -> ImportResult:
    """Validate a log and store it in one transaction, streaming it (see the module).

    Raises:
        LogFormatError: the file is unreadable, malformed, or its hash chain is broken.
        MatchExistsError: another match with this id is stored.
        StoreError: the database failed.
    """
    digest = file_sha256(path)
    known = recognised(store, path, digest)
    if known is not None:
        return known
    with tempfile.TemporaryFile(prefix="vwlog-snapshots-") as spool:
        prepared = prepare(
            path, digest, spool, reject_illegal=reject_illegal, snapshot_every=snapshot_every
        )
        if isinstance(prepared, ImportResult):
            return prepared
        return store_prepared(store, prepared, spool)


# -- many logs, validated by worker processes -------------------------------------------------


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
        return import_streaming(
            store, path, reject_illegal=reject_illegal, snapshot_every=snapshot_every
        )
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
    outcome = store_lines(store, header, lines, meta, snapshots)
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
            result = defect(path, err)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


__all__ = [
    "Prepared",
    "file_sha256",
    "import_log",
    "import_logs",
    "import_streaming",
    "judged_lines",
    "judged_meta",
    "not_accepted",
    "prepare",
    "recognised",
    "store_prepared",
]
