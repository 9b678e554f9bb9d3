"""Whatever the bytes, reading either succeeds or raises a one-line `LogFormatError`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import logs
from vwlog.io.logfile import read_log, write_log
from vwlog.model.errors import LogFormatError

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

    from vwlog.events import EventRecord, LogHeader

HEADER = b'{"format":"vwlog","match_id":"m1","version":1}\n'


def read_or_error(path: Path, content: bytes) -> None:
    path.write_bytes(content)
    try:
        read_log(path)
    except LogFormatError as error:
        message = str(error)
        assert message.startswith(str(path))
        assert "\n" not in message


@given(content=st.binary(max_size=200))
def test_arbitrary_bytes(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    read_or_error(tmp_path_factory.mktemp("fuzz") / "x.jsonl", content)


@given(content=st.binary(max_size=200))
def test_arbitrary_bytes_after_a_header(
    tmp_path_factory: pytest.TempPathFactory, content: bytes
) -> None:
    read_or_error(tmp_path_factory.mktemp("fuzz") / "x.jsonl", HEADER + content)


@given(log=logs(max_records=4), data=st.data())
def test_valid_logs_with_one_byte_changed(
    tmp_path_factory: pytest.TempPathFactory,
    log: tuple[LogHeader, list[EventRecord]],
    data: st.DataObject,
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "x.jsonl"
    header, records = log
    write_log(path, header, records)
    content = bytearray(path.read_bytes())
    at = data.draw(st.integers(0, len(content) - 1))
    action = data.draw(st.sampled_from(["replace", "delete", "insert"]))
    byte = data.draw(st.integers(0, 255))
    if action == "replace":
        content[at] = byte
    elif action == "delete":
        del content[at]
    else:
        content.insert(at, byte)
    read_or_error(path, bytes(content))
