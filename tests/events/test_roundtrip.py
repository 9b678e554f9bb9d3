"""Every event survives canonical bytes and back, alone and inside whole log files."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import event_strategy, logs, records_of
from vwlog.events import EVENT_TYPES, RECORD, EventRecord, LogHeader
from vwlog.io import codec
from vwlog.io.logfile import read_log, write_log

if TYPE_CHECKING:
    from vwlog.events import BaseEvent


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    return False


@pytest.mark.parametrize("event_class", EVENT_TYPES.values(), ids=list(EVENT_TYPES))
@given(data=st.data())
def test_every_event_type_round_trips_through_canonical_bytes(
    event_class: type[BaseEvent], data: st.DataObject
) -> None:
    seq = data.draw(st.integers(1, 10**12), label="seq")
    record = data.draw(records_of(event_strategy(event_class), seq), label="record")
    line = codec.record_bytes(record)
    parsed = codec.parse_record(line)
    assert parsed == record
    assert RECORD.validate_json(line, strict=True) == record
    assert codec.record_bytes(parsed) == line
    assert not _has_null(orjson.loads(line)), "the writer leaves None fields out"


@given(log=logs())
def test_whole_logs_round_trip_through_write_log_and_read_log(
    tmp_path_factory: pytest.TempPathFactory, log: tuple[LogHeader, list[EventRecord]]
) -> None:
    path = tmp_path_factory.mktemp("logs") / "match.jsonl"
    header, records = log
    assert write_log(path, header, records) == len(records)
    assert read_log(path) == (header, records)
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    assert lines[0] == codec.header_bytes(header)
    assert lines[1:-1] == [codec.record_bytes(record) for record in records]
