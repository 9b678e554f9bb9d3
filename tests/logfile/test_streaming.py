"""Reading streams line by line; writing is the exact inverse and never leaves half a file."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from vwlog.events import EventRecord, LogHeader, PriorityPassed
from vwlog.io import codec
from vwlog.io.logfile import LogLine, open_log, read_log, write_log
from vwlog.model.errors import LogFormatError, OutputError, UnsupportedVersionError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

HEADER = LogHeader(match_id="m1", generator="tests")


def passes(n: int, start: int = 1) -> Iterator[EventRecord]:
    for seq in range(start, start + n):
        yield EventRecord(seq=seq, event=PriorityPassed(player=f"p{seq % 2 + 1}"))


def test_reader_yields_line_numbers_raw_bytes_and_records(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    records = list(passes(3))
    write_log(path, HEADER, records)
    with open_log(path) as reader:
        assert reader.header == HEADER
        assert reader.header_raw == codec.header_bytes(HEADER)
        lines = list(reader)
    assert lines == [
        LogLine(line_no, codec.record_bytes(record), record)
        for line_no, record in enumerate(records, start=2)
    ]


def test_written_lines_are_canonical_and_end_in_newlines(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    records = list(passes(2))
    assert write_log(path, HEADER, records) == 2
    expected = [codec.header_bytes(HEADER), *(codec.record_bytes(r) for r in records)]
    assert path.read_bytes() == b"".join(line + b"\n" for line in expected)


def test_reader_closes_its_file(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    write_log(path, HEADER, passes(1))
    with open_log(path) as reader:
        pass
    with pytest.raises(ValueError, match="closed file"):
        list(reader)


_PEAK = """
import sys, tracemalloc
from vwlog.io.logfile import open_log
with open_log(sys.argv[1]) as reader:  # the header read, the reader's code loaded
    tracemalloc.start()
    count = sum(1 for _line in reader)
    print(count, tracemalloc.get_traced_memory()[1])
"""


def test_reading_memory_stays_flat_in_file_length(tmp_path: Path) -> None:
    """Measured in a fresh interpreter: tracemalloc counts every thread's allocations, and a
    thread another test left behind must not decide this one."""
    path = tmp_path / "long.jsonl"
    write_log(path, HEADER, passes(20_000))
    size = path.stat().st_size
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(path)], capture_output=True, check=True, text=True
    )
    count, peak = map(int, done.stdout.split())
    assert count == 20_000
    assert size > 1_000_000
    assert peak < size / 10


def test_stdin_is_read_with_a_dash(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    write_log(path, HEADER, passes(4))
    script = (
        "from vwlog.io.logfile import read_log; h, rs = read_log('-'); print(h.match_id, len(rs))"
    )
    with path.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-c", script], stdin=stdin, capture_output=True, check=True
        )
    assert done.stdout == b"m1 4\n"


def test_errors_on_stdin_name_it(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(b"")
    script = (
        "from vwlog.io.logfile import read_log\n"
        "try:\n    read_log('-')\n"
        "except Exception as e:\n    print(e)\n"
    )
    with path.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-c", script], stdin=stdin, capture_output=True, check=True
        )
    assert done.stdout.startswith(b"<stdin>: empty file")


def test_write_to_a_binary_stream_leaves_it_open() -> None:
    out = io.BytesIO()
    write_log(out, HEADER, passes(2))
    assert not out.closed
    assert out.getvalue().count(b"\n") == 3


def test_writing_records_out_of_order_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    write_log(path, HEADER, passes(2))
    before = path.read_bytes()
    with pytest.raises(LogFormatError) as caught:
        write_log(path, HEADER, [*passes(2), *passes(1, start=4)])
    assert str(caught.value) == (
        f"{path}, line 4, field 'seq': seq 4 leaves a gap after seq 2 (expected 3)"
    )
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["match.jsonl"]


def test_writing_an_old_version_header_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedVersionError) as caught:
        write_log(tmp_path / "x.jsonl", HEADER.model_copy(update={"version": 0}), [])
    assert str(caught.value) == (
        f"{tmp_path / 'x.jsonl'}, line 1, field 'version': "
        "vwlog writes format version 1 only, not 0"
    )


def test_unwritable_target_is_an_output_error(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "x.jsonl"
    with pytest.raises(OutputError) as caught:
        write_log(target, HEADER, [])
    assert str(caught.value) == f"cannot write {str(target)!r}: no such file or directory"


def test_a_header_only_log_has_no_records(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    write_log(path, HEADER, [])
    assert read_log(path) == (HEADER, [])


def test_a_dash_writes_standard_output() -> None:
    script = (
        "from vwlog.events import EventRecord, LogHeader, PriorityPassed\n"
        "from vwlog.io.logfile import write_log\n"
        "write_log('-', LogHeader(match_id='m1'),"
        " [EventRecord(seq=1, event=PriorityPassed(player='p1'))])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True)
    assert done.stdout == (
        b'{"format":"vwlog","match_id":"m1","version":1}\n'
        b'{"event":{"player":"p1","type":"priority_passed"},"seq":1}\n'
    )
