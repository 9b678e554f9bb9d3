r"""JSON Lines log files: bytes to `EventRecord`s and back, with line-numbered errors.

Line 1 of a log is a `LogHeader` naming the format and its version; every following line is one
`EventRecord`, written as its canonical JSON (`vwlog.io.codec`) and a ``\n``. Sequence numbers run
1, 2, 3, … without gaps.

Reading streams the file line by line, so memory stays flat however long the log is. Reading is
strict: every problem (malformed JSON, an unknown event type, a missing, unknown or mistyped
field, a sequence number out of order, a truncated last line, …) is a one-line `LogFormatError`
naming the file, the line and the field. Old format versions are upcast on read
(`vwlog.events.upcast`).

This module turns bytes into records and back; it knows nothing about the store, the rules or the
board.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Final, NamedTuple

import orjson
from pydantic import ValidationError

from vwlog.events import (
    FORMAT_NAME,
    FORMAT_VERSION,
    RECORD,
    EventRecord,
    LogHeader,
)
from vwlog.events.upcast import OLDEST_VERSION, UpcastStep, legacy_version, upcast_chain
from vwlog.games import GameRules, GameUnavailableError, rules_for
from vwlog.io import codec
from vwlog.io.files import (
    STDIO,
    file_is_regular,
    open_input,
    os_detail,
    replacing,
    require_regular_file,
    standard_input,
)
from vwlog.io.problems import (
    describe_error,
    json_kind,
    json_problem,
    seq_problem,
    show_value,
    size_text,
)
from vwlog.model.causes import caused
from vwlog.model.errors import LogFormatError, UnsupportedVersionError
from vwlog.model.resources import Closing
from vwlog.model.text import msg, said_text

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator


DEFAULT_MAX_LINE_BYTES: Final = 16 * 1024 * 1024
"""Longest line accepted by default (16 MiB); a longer one is an error, not a memory spike."""

_BOM: Final = b"\xef\xbb\xbf"
_decode_record: Final = codec.decode_record
_USUAL_FIRST: Final = codec.USUAL_FIRST
_JSON_POSITION: Final = re.compile(r"^(?P<message>.*?)(?: at line \d+ column (?P<column>\d+))?$")
_NEWLINE: Final = 10
"""The newline byte: a line's last byte is compared with it as an integer (no method call
per line)."""
_CR: Final = 13
"""The carriage return byte: a line that ends in CR LF (Windows, an email, git's
``autocrlf``) is read as the same record as one that ends in LF."""
_EXAMPLE_HEADER: Final = '{"format": "vwlog", "version": 1, "match_id": ...}'


class LogLine(NamedTuple):
    """One record line of a log file."""

    line_no: int
    """1-based line number in the file (the header is line 1)."""
    raw: bytes
    """The line as it is in the file, without its newline (the old shape, if upcast)."""
    record: EventRecord
    """The validated record."""


_new_tuple: Final = tuple.__new__
"""A `LogLine` built without its interpreted ``__new__`` (once per record)."""
_LOG_LINE: Final = LogLine
"""The class, as a constant (compiled, a module-level name is looked up at every use)."""


class LogReader(Closing):
    """A log file opened for streaming: the header is read at once, records on iteration.

    Iterating yields one `LogLine` per record, in file order, and raises `LogFormatError` at the
    first bad line; the records before it have been yielded already. A reader is iterated once.

    Use `open_log` to make one, preferably in a ``with`` block::

        with open_log("match.jsonl") as reader:
            for line in reader:
                print(line.line_no, line.record.event.type)
    """

    header: LogHeader
    """The header, as the current format version."""
    header_raw: bytes
    """The header line as it is in the file, without its newline."""
    source_version: int
    """The format version the file declares (older versions are upcast on read)."""

    def __init__(self, path: str | Path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        """Open ``path`` (``"-"`` for standard input) and read its header.

        Raises:
            LogFormatError: The file cannot be opened or read, is empty, or its first line is
                not a valid header.
            UnsupportedVersionError: The header names a format version that cannot be read.
        """
        self.name = "<stdin>" if str(path) == STDIO else str(path)
        """How errors name the file."""
        self.max_line_bytes = max_line_bytes
        """Longest line accepted, in bytes (without the newline)."""
        self._line_no = 0
        self._last_seq = 0
        self._steps: tuple[UpcastStep, ...] = ()
        self._complete = True
        """Whether the line read last ended in a newline (the file's last line may not)."""
        self.crlf_lines = 0
        """How many lines ended in CR LF (or, the last one, in CR) and were read without
        the CR: line endings converted, no record changed (the records and their chain are
        over the lines' content)."""
        if str(path) == STDIO:
            self._file: BinaryIO = standard_input()
            self._owned = False
        else:
            try:
                # a device is refused, a FIFO without a writer is not waited on forever
                self._file = open_input(path)
            except OSError as err:
                why = said_text(msg("cannot open: {why}", why=os_detail(err)))
                raise caused(LogFormatError(self.name, None, why), err) from err
            self._owned = True
        self._readline: Callable[[int], bytes] = self._file.readline
        """The file's ``readline``, bound once (not looked up on the file for every line)."""
        try:
            self.header = self._read_header()
            self.game: GameRules = self._rules()
            """The rules of the header's game: its records are read as that game's."""
        except BaseException:
            self.close()
            raise
        self._validate_record: Callable[..., EventRecord] = self.game.record.validator.validate_json
        """The core validator of the game's record adapter, called directly on the hot path."""
        self._usual = _USUAL_FIRST and self.game.record is RECORD
        """Whether the usual line is tried first (the codec's fast path reads the default
        game's records)."""

    @property
    def upcast(self) -> bool:
        """Whether the file is an older format version, read through upcasters."""
        return bool(self._steps)

    def __iter__(self) -> Iterator[LogLine]:
        """Yield the records line by line.

        Raises:
            LogFormatError: A line is blank, too long, not valid JSON, not a valid record, or
                its seq is not the previous one plus 1.
        """
        for line in self.lines():
            yield _new_tuple(_LOG_LINE, line)  # LogLine(*line), in C

    def lines(self) -> Iterator[tuple[int, bytes, EventRecord]]:
        """Yield what iterating yields as plain ``(line_no, raw, record)`` tuples, for readers
        that take them apart at once (the replay, the integrity pass): building a `LogLine`, a
        tuple subclass, costs a second tuple per record. Raises what `__iter__` raises."""
        while (raw := self._next_line()) is not None:
            record = self._parse_record(raw, complete=self._complete)
            seq = record.seq  # a model's attribute: read once
            if seq != self._last_seq + 1:
                problem = seq_problem(seq, self._last_seq)
                raise LogFormatError(self.name, self._line_no, problem or "", "seq")
            self._last_seq = seq
            yield (self._line_no, raw, record)

    def raw_lines(self) -> Iterator[tuple[int, bytes]]:
        """Yield the record lines unparsed, as ``(line number, bytes without the newline)``,
        for readers that judge the bytes themselves (the hash chain). Iterate a reader either
        this way or as records, once.

        Raises:
            LogFormatError: A line is longer than `max_line_bytes`, or the file cannot be read.
        """
        while (raw := self._next_line()) is not None:
            yield self._line_no, raw

    def parse(self, raw: bytes) -> EventRecord:
        """One record line read by `raw_lines`, parsed (and upcast) as iteration parses it.

        Raises:
            LogFormatError: the line is not a valid record.
        """
        return self._parse_record(raw, complete=True)

    def records(self) -> Iterator[EventRecord]:
        """Yield only the records (see `__iter__` for what is raised)."""
        for line in self:
            yield line.record

    def close(self) -> None:
        """Close the file (standard input is left open)."""
        if self._owned:
            self._file.close()

    # -- lines -------------------------------------------------------------------------------

    def _error(self, detail: str, field: str | None = None) -> LogFormatError:
        return LogFormatError(self.name, self._line_no, detail, field)

    def _next_line(self) -> bytes | None:
        """The next line without its newline (`_complete` says whether it had one); ``None``
        at the end."""
        try:
            # Reading at most one byte past the limit keeps a runaway line out of memory.
            chunk = self._readline(self.max_line_bytes + 1)
        except OSError as err:
            why = said_text(msg("cannot read: {why}", why=os_detail(err)))
            raise caused(LogFormatError(self.name, self._line_no + 1, why), err) from err
        if not chunk:
            return None
        self._line_no += 1
        end = len(chunk) - 1
        if chunk[end] == _NEWLINE:
            self._complete = True
            if end and chunk[end - 1] == _CR:
                return self._without_cr(chunk, end)
            return chunk[:-1]
        if len(chunk) > self.max_line_bytes:
            limit = size_text(self.max_line_bytes)
            raise self._error(said_text(msg("line longer than the limit of {limit}", limit=limit)))
        self._complete = False
        if chunk[end] == _CR:  # the last line, its LF lost (or never written)
            return self._without_cr(chunk, end + 1)
        return chunk

    def _without_cr(self, chunk: bytes, end: int) -> bytes:
        """``chunk[:end]`` without the carriage returns that end it (a CR LF ending, or one
        converted twice, CR CR LF); counted in `crlf_lines`. A CR elsewhere in a line is
        content: the line is then not in canonical form, or not JSON."""
        self.crlf_lines += 1
        while end and chunk[end - 1] == _CR:
            end -= 1
        return chunk[:end]

    def _read_header(self) -> LogHeader:
        """Read line 1; set `header_raw`, `source_version` and the upcast steps."""
        raw = self._next_line()
        if raw is None:
            raise LogFormatError(
                self.name,
                None,
                said_text(
                    msg(
                        "empty file: line 1 must be a header such as {example}",
                        example=_EXAMPLE_HEADER,
                    )
                ),
            )
        complete = self._complete
        self.header_raw = raw
        if raw.startswith(_BOM):
            raise self._error(
                said_text(msg("the file starts with a utf-8 byte order mark; save it without one"))
            )
        if not raw.strip():
            raise self._error(
                said_text(
                    msg(
                        "blank line: line 1 must be a header such as {example}",
                        example=_EXAMPLE_HEADER,
                    )
                )
            )
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as err:
            detail: str
            if b"\r" in raw:
                # lines that end in CR alone (old Mac files): the whole file is one line
                detail = said_text(
                    msg("lines end in a lone carriage return (CR); save the file with LF or CR LF")
                )
            else:
                detail = json_problem(raw, err.msg, err.colno, complete=complete)
            raise caused(self._error(detail), err) from err
        if not isinstance(data, dict):
            found = json_kind(data)
            raise self._error(
                said_text(
                    msg("not a vwlog header: expected a json object, found {kind}", kind=found)
                )
            )
        version = self._declared_version(data)
        steps = upcast_chain(version)
        if steps is None:
            if version > FORMAT_VERSION:
                said = msg(
                    "format version {version} is newer than this vwlog reads (versions {oldest} "
                    "to {newest}); upgrade vwlog",
                    version=version,
                    oldest=OLDEST_VERSION,
                    newest=FORMAT_VERSION,
                )
            else:
                said = msg(
                    "unsupported format version {version} (this vwlog reads versions {oldest} "
                    "to {newest})",
                    version=version,
                    oldest=OLDEST_VERSION,
                    newest=FORMAT_VERSION,
                )
            detail = said_text(said)
            raise UnsupportedVersionError(self.name, self._line_no, detail, "version")
        self.source_version = version
        self._steps = steps
        for step in steps:
            data = step.header(data)
        try:
            header = LogHeader.model_validate(data, strict=True)
        except ValidationError as err:
            raise caused(self._invalid(err), err) from err
        return header

    def _rules(self) -> GameRules:
        """The rules of the header's game; a game whose rules cannot be loaded is an error
        naming line 1 and the field."""
        try:
            return rules_for(self.header.game)
        except GameUnavailableError as err:
            raise caused(LogFormatError(self.name, 1, str(err), "game"), err) from err

    def _declared_version(self, data: dict[str, Any]) -> int:
        if "format" in data:
            key = "version"
            if data["format"] != FORMAT_NAME:
                found = show_value(data["format"])
                detail = said_text(
                    msg(
                        "not a vwlog log: the format is {found}, not {expected}",
                        found=found,
                        expected=show_value(FORMAT_NAME),
                    )
                )
                raise self._error(detail, "format")
            if key not in data:
                raise self._error(said_text(msg("missing required field")), key)
            version = data[key]
        else:
            key, version = legacy_version(data)
            if version is None:
                if "seq" in data or "event" in data:
                    said = msg(
                        "line 1 is an event record, not a header; a log starts with {example}",
                        example=_EXAMPLE_HEADER,
                    )
                else:
                    said = msg(
                        "not a vwlog header: it has no 'format' field; a log starts with {example}",
                        example=_EXAMPLE_HEADER,
                    )
                raise self._error(said_text(said))
        if not isinstance(version, int) or isinstance(version, bool):
            raise self._error(
                said_text(
                    msg("version must be an integer, found {value}", value=show_value(version))
                ),
                key,
            )
        return version

    def _parse_record(self, raw: bytes, *, complete: bool) -> EventRecord:
        if self._steps:
            try:
                data = orjson.loads(raw)
            except orjson.JSONDecodeError as err:
                detail = json_problem(raw, err.msg, err.colno, complete=complete)
                raise caused(self._error(detail), err) from err
            if isinstance(data, dict):
                for step in self._steps:
                    data = step.record(data)
            raw = orjson.dumps(data)
        elif self._usual:
            usual = _decode_record(raw)  # the usual line, in fewer steps
            if usual is not None:
                return usual
        try:
            # Strict: a log says 1, not "1", 1.0 or true, where it means an integer.
            record: EventRecord = self._validate_record(raw, strict=True)
        except ValidationError as err:
            raise caused(self._invalid(err, raw, complete=complete), err) from err
        return record

    def _invalid(
        self, err: ValidationError, raw: bytes = b"", *, complete: bool = True
    ) -> LogFormatError:
        """Turn pydantic's errors into one line naming the first of them."""
        errors = err.errors(include_url=False)
        first = errors[0]
        if first["type"] == "json_invalid":
            match = _JSON_POSITION.match(str((first.get("ctx") or {}).get("error", "")))
            message = match.group("message") if match else first["msg"]
            column = int(match.group("column")) if match and match.group("column") else 1
            return self._error(json_problem(raw, message, column, complete=complete))
        field, detail = describe_error(first)
        if len(errors) > 1:
            detail = said_text(
                msg("{detail} (and {count} more)", detail=detail, count=len(errors) - 1)
            )
        if self._steps:
            detail = said_text(
                msg(
                    "{detail} (upcast from format version {version})",
                    detail=detail,
                    version=self.source_version,
                )
            )
        return self._error(detail, field)


def open_log(path: str | Path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> LogReader:
    """Open a log file for streaming; ``"-"`` reads standard input.

    Args:
        path: The file, or ``"-"``.
        max_line_bytes: Longest line accepted.

    Returns:
        A `LogReader` with the header read; iterate it for the records.

    Raises:
        LogFormatError: The file cannot be opened or read, is empty, or its first line is not a
            valid header.
        UnsupportedVersionError: The header names a format version that cannot be read.
    """
    return LogReader(path, max_line_bytes=max_line_bytes)


def read_log(
    path: str | Path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> tuple[LogHeader, list[EventRecord]]:
    """Read a whole log file (``"-"`` for standard input) into memory.

    Raises:
        LogFormatError: The file cannot be read, or any line is malformed (see `LogReader`).
        UnsupportedVersionError: The header names a format version that cannot be read.
    """
    with open_log(path, max_line_bytes=max_line_bytes) as reader:
        return reader.header, list(reader.records())


def write_log(
    target: str | Path | BinaryIO, header: LogHeader, records: Iterable[EventRecord]
) -> int:
    r"""Write a log: the header, then one canonical line per record, each ending in ``\n``.

    The exact inverse of `read_log` for the current format version. A path is written to a
    temporary file beside it and then renamed, so an existing log is replaced whole or not at
    all; ``"-"`` writes standard output; a binary file object is written and left open.

    Args:
        target: A path, ``"-"``, or a binary file open for writing.
        header: The header; its version must be the current one.
        records: The records, with seq 1, 2, 3, …; they are consumed once.

    Returns:
        The number of records written.

    Raises:
        LogFormatError: A record's seq is not the previous one plus 1 (nothing is written to a
            path in that case).
        UnsupportedVersionError: The header names another format version.
        OutputError: The file cannot be written.
    """
    if isinstance(target, str | Path):
        if str(target) == STDIO:
            return _write_lines(sys.stdout.buffer, "<stdout>", header, records)
        with replacing(target) as out:
            return _write_lines(out, str(target), header, records)
    name = str(getattr(target, "name", "<stream>"))
    return _write_lines(target, name, header, records)


def _write_lines(
    out: BinaryIO, name: str, header: LogHeader, records: Iterable[EventRecord]
) -> int:
    if header.version != FORMAT_VERSION:
        detail = f"vwlog writes format version {FORMAT_VERSION} only, not {header.version}"
        raise UnsupportedVersionError(name, 1, detail, "version")
    out.write(codec.header_bytes(header) + b"\n")
    last = 0
    for line_no, record in enumerate(records, start=2):
        problem = seq_problem(record.seq, last)
        if problem:
            raise LogFormatError(name, line_no, problem, "seq")
        out.write(codec.record_bytes(record) + b"\n")
        last = record.seq
    return last  # seqs run 1 to n


__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "STDIO",
    "LogLine",
    "LogReader",
    "describe_error",
    "file_is_regular",
    "open_log",
    "read_log",
    "replacing",
    "require_regular_file",
    "seq_problem",
    "write_log",
]
