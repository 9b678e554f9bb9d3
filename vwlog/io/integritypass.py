"""One read of a log for what its verdict rests on: the hash chain, and the few records the
seal and signature checks need, gathered line by line as the replay reads them (or on their
own, from a file or a stored match). `vwlog.services.trust.findings_of` judges what it gathered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, TypeVar

from pydantic import ValidationError

from vwlog.events import TRAILER_TYPES, EventRecord
from vwlog.io import codec
from vwlog.io.chain import ChainCheck
from vwlog.model.errors import LogFormatError
from vwlog.model.text import SaidText, msg, said_text

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from vwlog.events import LogHeader
    from vwlog.io.logfile import LogReader

_Line = TypeVar("_Line", bound=tuple[int, bytes, EventRecord])
"""A record line: a `vwlog.io.logfile.LogLine`, or a plain ``(line_no, raw, record)``."""

TRAILER_NAMES: Final = frozenset(str(t.model_fields["type"].default) for t in TRAILER_TYPES)
"""The type tags of the seal and the signatures."""
_USUAL_FIRST: Final = codec.USUAL_FIRST
_TRAILERS: Final = frozenset(TRAILER_TYPES)
"""The seal's and the signatures' classes."""


ENDINGS_CONVERTED: Final = "line endings converted: CR LF read as LF, the records are unchanged"
"""The note `endings_converted` says, as `vwlog verify` finds it among the warnings."""


def endings_converted() -> SaidText:
    """The note on a log whose lines end in CR LF (Windows, an email, git's ``autocrlf``):
    read as LF, they are the same records, so no tampering (a change of a record's content
    is); `IntegrityPass.crlf_lines` counts them."""
    said = msg("line endings converted: CR LF read as LF, the records are unchanged")
    assert str(said) == ENDINGS_CONVERTED
    return said_text(said)


def parse_current(raw: bytes) -> EventRecord:
    """A record line of the current format (as the store keeps them)."""
    return codec.parse_record(raw, strict=True)


class IntegrityPass:
    """Gathers, one line at a time, what the integrity checks need: `feed` every record line
    (with its parsed record when the caller has it), or `tee` the lines a replay reads.

    Kept are the first record, every seal and signature, the record just before the first of
    them and the first record after them; nothing else is parsed twice or held.
    """

    def __init__(
        self,
        source: str,
        header: LogHeader,
        parse: Callable[[bytes], EventRecord] = parse_current,
        *,
        upcast: bool = False,
        header_line: bytes | None = None,
    ) -> None:
        """``parse`` reads a record line as the records given to `feed` were read; ``upcast``:
        those records were read from an older format (their lines are not their JSON);
        ``header_line``: the header line as read, held to canonical form (not when upcast)."""
        self.header = header
        self.chain = ChainCheck(source, header, None if upcast else header_line)
        self.lines: list[tuple[int, EventRecord]] = []
        self.unreadable: str | None = None
        """Why the record cannot be read past some line (an altered record may no longer
        parse: the chain check names it, and the rest is judged without it)."""
        self._parse = parse
        self._previous: tuple[int, bytes, EventRecord | None, object] | None = None
        self._in_trailer = False
        self._upcast = upcast
        self._reader: LogReader | None = None

    @classmethod
    def of(cls, reader: LogReader) -> IntegrityPass:
        """The pass over the lines ``reader`` reads, its header line held to canonical form."""
        gathered = cls(
            reader.name,
            reader.header,
            reader.parse,
            upcast=reader.upcast,
            header_line=reader.header_raw,
        )
        gathered._reader = reader
        return gathered

    @property
    def crlf_lines(self) -> int:
        """How many of the lines read so far ended in CR LF, read as LF (line endings
        converted: no record changed); 0 where the lines did not come from a file."""
        return self._reader.crlf_lines if self._reader is not None else 0

    def feed(self, line_no: int, raw: bytes, record: EventRecord | None = None) -> None:
        """Take one record line (``record``: the line already parsed, if it was)."""
        current = None if self._upcast else record
        if current is not None and _USUAL_FIRST and self.chain.take(raw, current):
            # the usual line: its record says what the rest needs (no JSON decoded again)
            if self.unreadable is None:
                self._place(line_no, raw, current, current.seq, type(current.event) in _TRAILERS)
            return
        data = self.chain.feed(line_no, raw, current)
        if self.unreadable is not None:
            return
        event = data.get("event") if data is not None else None
        if data is not None and (record is None or (current is not None and type(event) is dict)):
            # the line's own JSON: all there is, or what the record says (dict lookups, not
            # model reads)
            seq: object = data.get("seq")
            kind: object = event.get("type") if type(event) is dict else None
            if not isinstance(kind, str):
                kind = None  # a damaged line: any JSON may stand where the type belongs
        elif record is not None:
            seq = record.seq
            kind = record.event.type
        else:
            record = self._record(line_no, raw)
            if record is None:
                return
            seq, kind = record.seq, record.event.type
        self._place(line_no, raw, record, seq, kind in TRAILER_NAMES)

    def _place(
        self, line_no: int, raw: bytes, record: EventRecord | None, seq: object, trailer: bool
    ) -> None:
        """Keep the line if the checks need it: the first record, the seal and signatures
        (``trailer``), the record just before them and the first one after them."""
        if seq == 1 and not self._keep(line_no, raw, record):
            return
        if trailer:
            previous = self._previous
            if not self._in_trailer and previous is not None and previous[3] != 1:
                if not self._keep(*previous[:3]):
                    return
            if seq != 1 and not self._keep(line_no, raw, record):
                return
            self._in_trailer = True
        elif self._in_trailer:
            if not self._keep(line_no, raw, record):
                return
            self._in_trailer = False
        self._previous = (line_no, raw, record, seq)

    def tee(self, lines: Iterable[_Line]) -> Iterator[_Line]:
        """Pass ``lines`` on, feeding each first (a replay reads them; this pass sees them):
        `LogLine` values, or `LogReader.lines` tuples ``(line_no, raw, record)``."""
        for line in lines:
            self.feed(line[0], line[1], line[2])
            yield line

    def _keep(self, line_no: int, raw: bytes, record: EventRecord | None) -> bool:
        if record is None:
            record = self._record(line_no, raw)
            if record is None:
                return False
        if not self.lines or self.lines[-1][0] != line_no:
            self.lines.append((line_no, record))
        return True

    def _record(self, line_no: int, raw: bytes) -> EventRecord | None:
        try:
            return self._parse(raw)
        except LogFormatError as err:
            self.unreadable = f"the record cannot be read past line {line_no}: {err.detail}"
        except ValidationError as err:
            first = err.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"])
            self.unreadable = (
                f"the record cannot be read past line {line_no}: {where}: {first['msg']}"
            )
        return None


__all__ = ["TRAILER_NAMES", "IntegrityPass", "parse_current"]
