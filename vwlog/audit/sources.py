"""Reading a recorded match for the audit tools: a log file, or stored records, as often as
needed.

A `MatchSource` opens a fresh read each time: `diff_matches` reads a record side by side with
another one and again where a judge's back-up restores a board; `build_report` reads it once.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vwlog.io.logfile import open_log

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from pathlib import Path

    from vwlog.engine.seek import Item
    from vwlog.events.base import LogHeader, Record

__all__ = ["MatchSource", "log_source", "reading", "record_of", "records_source", "unpack"]


@dataclass(frozen=True)
class MatchSource:
    """A recorded match that can be read from the start as often as needed.

    ``open`` returns a fresh iterator of records (or ``(line, record)`` pairs) each time it is
    called; a log file is re-opened, a stored match re-queried.
    """

    name: str
    """How messages name the record (a file name, ``store:<id>``)."""
    header: LogHeader | None
    """The log header, when there is one."""
    open: Callable[[], Iterator[Item]]
    """A fresh iterator over the records, in seq order."""


def log_source(path: str | Path) -> MatchSource:
    """A log file as a `MatchSource` (its header is read now).

    Raises:
        LogFormatError: the file cannot be opened or its header is malformed (a malformed record
            is raised while iterating).
    """
    with open_log(path) as reader:
        header = reader.header
        name = reader.name

    def items() -> Iterator[Item]:
        with open_log(path) as log:
            for line in log:
                yield line.line_no, line.record

    return MatchSource(name=name, header=header, open=items)


@contextmanager
def reading(source: MatchSource) -> Iterator[Iterator[Item]]:
    """Open ``source`` for one read; the file (or query) is closed however the read ends."""
    items = source.open()
    try:
        yield items
    finally:
        close = getattr(items, "close", None)
        if close is not None:
            close()


def records_source(
    name: str, records: Sequence[Record], header: LogHeader | None = None
) -> MatchSource:
    """Records held in memory as a `MatchSource`."""
    return MatchSource(name=name, header=header, open=lambda: iter(records))


def unpack(item: Item) -> tuple[int | None, Any]:
    """An item of any game's source as ``(line, record)`` (``line`` is ``None`` for a bare
    record: a stored record comes bare, a file's with its line)."""
    if isinstance(item, tuple):
        line, record = item
        return line, record
    return None, item


def record_of(item: Any) -> Any:
    """The record of an item of any game's source (a stored record comes bare, a file's with
    its line)."""
    return item[-1] if isinstance(item, tuple) else item
