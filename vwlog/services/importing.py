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
import struct
import tempfile
from typing import TYPE_CHECKING, BinaryIO, Literal

from vwlog.io import codec
from vwlog.io.logfile import open_log
from vwlog.model.errors import LogFormatError
from vwlog.services import verify_lines
from vwlog.services.matches import (
    ImportResult,
    _Snapshots,
    encode_snapshot,
    judge_and_measure,
    meta_from,
    rejected,
)
from vwlog.store import ImportOutcome, MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from vwlog.engine.replay import Step
    from vwlog.events import EventRecord, LogHeader

_CHUNK = 1 << 20
_SNAPSHOT_HEAD = struct.Struct("<QQ")


def file_sha256(path: str | Path) -> str | None:
    """SHA-256 of a regular file's bytes (``None`` for standard input, a pipe or a device,
    which cannot be read twice).

    Raises:
        LogFormatError: the file cannot be read.
    """
    import os
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
        if seq % self.every == 0:
            data = encode_snapshot(step.after, step.record.hash)
            self.spool.write(_SNAPSHOT_HEAD.pack(seq, len(data)))
            self.spool.write(data)

    def replayed(self) -> Iterator[tuple[int, bytes]]:
        """The spooled snapshots, in seq order, read back one at a time."""
        self.spool.seek(0)
        while head := self.spool.read(_SNAPSHOT_HEAD.size):
            seq, size = _SNAPSHOT_HEAD.unpack(head)
            yield seq, self.spool.read(size)


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


def _check_chain(path: str | Path, header: LogHeader) -> None:
    """Refuse a sealed log whose chain is broken or that lacks a hash somewhere."""
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

    report = verify_lines(name, header, lines())
    if report.broken is not None:
        b = report.broken
        where = f"seq {b.seq}" if b.seq is not None else f"line {b.line}"
        raise LogFormatError(
            name,
            b.line,
            f"hash chain broken at {where} ({b.reason}); not imported: check it with "
            "'vwlog verify'",
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
    name = str(path)
    digest = file_sha256(path)
    with open_log(path) as reader:
        header = reader.header
    if digest is not None and header.match_id in store:
        meta = store.meta(header.match_id)
        if meta.source_sha256 == digest:
            return ImportResult(name, header.match_id, str(ImportOutcome.UNCHANGED), meta.events)
    seal: Literal["author", "import"] = "author" if header.hash is not None else "import"
    if seal == "author":
        _check_chain(path, header)
    else:
        header = _sealed_header(header)
    with tempfile.TemporaryFile(prefix="vwlog-snapshots-") as spool:
        snapshots = _SpooledSnapshots(snapshot_every, spool)
        items = ((n, r) for n, _, r, _ in _records(path, seal=seal == "import"))
        report, metrics = judge_and_measure(header, items, snapshots, source=name)
        events = snapshots.count
        if reject_illegal and report.violations:
            return rejected(name, header.match_id, events, report)
        head_hash = snapshots.last_hash or header.hash or ""
        meta = meta_from(header, report, head_hash, events=events, metrics=metrics)
        meta = meta.model_copy(update={"seal": seal, "source_sha256": digest})
        lines = (
            (codec.record_bytes(r) if upcast or not raw else raw, r)
            for _, raw, r, upcast in _records(path, seal=seal == "import")
        )
        spool.flush()
        outcome = store.import_stream(header, lines, meta, snapshots.replayed())
    return ImportResult(name, header.match_id, str(outcome), events, len(report.violations))


__all__ = ["file_sha256", "import_streaming"]
