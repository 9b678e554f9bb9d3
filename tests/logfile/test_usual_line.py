"""`codec.decode_record`, the short way through the usual record line, agrees with a strict
validation of the whole line on every line it takes, and leaves every other line to it.

The property: for any bytes, ``decode_record`` returns ``None`` or the very record
``RECORD.validate_json(line, strict=True)`` returns (equal, same field types, same fields set,
same JSON), and it never returns a record for a line the whole validation refuses.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from vwlog.events import RECORD, EventRecord
from vwlog.io import codec
from vwlog.io.logfile import open_log

if TYPE_CHECKING:
    from collections.abc import Iterator

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
_HASH = "0123456789abcdef" * 4
_EVENT = b'{"event":{"player":"p1","type":"priority_passed"}'
_PASS = _EVENT + b',"hash":"' + _HASH.encode() + b'","seq":'


def _sample_lines() -> Iterator[bytes]:
    for path in sorted(SAMPLES.glob("*.jsonl")):
        yield from path.read_bytes().splitlines()[1:]


SAMPLE_LINES = list(_sample_lines())


def _whole(line: bytes) -> EventRecord | None:
    try:
        return RECORD.validate_json(line, strict=True)
    except ValidationError:
        return None


def _assert_same(line: bytes) -> EventRecord | None:
    """Assert the short way agrees with the whole validation on ``line``; its record."""
    short = codec.decode_record(line)
    whole = _whole(line)
    if short is None:
        return None
    assert whole is not None, line
    assert short == whole
    assert short.__dict__ == whole.__dict__
    assert [type(v) for v in short.__dict__.values()] == [type(v) for v in whole.__dict__.values()]
    assert short.__pydantic_fields_set__ == whole.__pydantic_fields_set__
    assert short.__pydantic_extra__ == whole.__pydantic_extra__
    assert short.__pydantic_private__ == whole.__pydantic_private__
    assert repr(short) == repr(whole)
    assert RECORD.dump_json(short) == RECORD.dump_json(whole)
    assert hash(short) == hash(whole)
    return short


def test_every_sample_line_in_the_usual_shape_takes_the_short_way() -> None:
    taken = [line for line in SAMPLE_LINES if _assert_same(line) is not None]
    usual = [line for line in SAMPLE_LINES if line.startswith(b'{"event":')]
    assert len(taken) == len(usual) > 1000


def test_a_record_built_the_short_way_behaves_as_a_validated_one() -> None:
    record = _assert_same(_PASS + b"7}")
    assert record is not None
    assert pickle.loads(pickle.dumps(record)) == record
    copied = record.model_copy(update={"seq": 8})
    assert copied.seq == 8
    assert record.seq == 7
    assert copied.__pydantic_fields_set__ == {"seq", "hash", "event"}
    with pytest.raises(ValidationError):
        record.seq = 9  # type: ignore[misc]  # frozen, as a validated record
    assert record.model_dump(exclude_none=True)["seq"] == 7


def test_a_repeated_event_is_validated_once_and_shared() -> None:
    first = codec.decode_record(_PASS + b"1}")
    second = codec.decode_record(_PASS + b"2}")
    assert first is not None
    assert second is not None
    assert first.event is second.event
    assert (first.seq, second.seq) == (1, 2)


@pytest.mark.parametrize(
    "tail",
    [
        b"0}",  # seq 0
        b"01}",  # a leading zero: not JSON
        b"1000000000001}",  # past the largest seq
        b"99999999999999}",  # fourteen digits
        b"}",  # no digits
        b"1.0}",  # not an integer
        b"-1}",
        b"1 }",
        b'"1"}',
        b"1}\n",
    ],
)
def test_a_seq_the_record_refuses_is_left_to_the_whole_validation(tail: bytes) -> None:
    line = _PASS + tail
    assert codec.decode_record(line) is None


@pytest.mark.parametrize(
    "line",
    [
        _EVENT + b',"hash":"' + b"g" * 63 + b'\\","seq":1}',
        b'{"event":{"player":"p1","type":"priority_passed"},"hash":"'
        + b"\xc3\xa9" * 32
        + b'","seq":1}',
        _EVENT + b',"hash":"' + b"a" * 63 + b'","seq":1}',
        _EVENT + b',"hash":"' + b"a" * 65 + b'","seq":1}',
        b'{"event":{"player":"p1","type":"nope"},"hash":"' + b"a" * 64 + b'","seq":1}',
        b'{"event":{"player":"p1","type":"priority_passed"},"at":"x","hash":"'
        + b"a" * 64
        + b'","seq":1}',
        b'{"event":{"player":1,"type":"priority_passed"},"hash":"' + b"a" * 64 + b'","seq":1}',
        b'{"event":{"player":"p1","type":"priority_passed"}}',
        b'{"event":"x","hash":"' + b"a" * 64 + b'","seq":1}',
        b'{"event":{},"hash":"' + b"a" * 64 + b'","seq":1}',
    ],
)
def test_any_other_line_is_left_to_the_whole_validation(line: bytes) -> None:
    assert codec.decode_record(line) is None


def test_white_space_inside_the_event_s_json_reads_as_the_whole_validation_reads_it() -> None:
    """Not canonical (the hash chain says so), but a valid record: the same one either way."""
    line = (
        b'{"event": {"player":"p1","type":"priority_passed"} ,"hash":"' + b"a" * 64 + b'","seq":1}'
    )
    assert _assert_same(line) is not None


def test_an_event_with_a_member_after_it_is_not_taken_for_the_event() -> None:
    """The event's JSON must be one value: a line that smuggles a second top-level member
    into where the event stands is not in the usual shape."""
    line = (
        b'{"event":{"player":"p1","type":"priority_passed"},"at":"2026-01-01","hash":"'
        + b"a" * 64
        + b'","seq":1}'
    )
    assert codec.decode_record(line) is None
    whole = _whole(line)
    assert whole is not None
    assert whole.at == "2026-01-01"


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    index=st.integers(min_value=0, max_value=len(SAMPLE_LINES) - 1),
    position=st.floats(min_value=0, max_value=1, allow_nan=False),
    cut=st.integers(min_value=0, max_value=3),
    insert=st.binary(max_size=4),
)
@example(index=0, position=1.0, cut=1, insert=b"")
@example(index=0, position=0.99, cut=0, insert=b"0")
@example(index=0, position=0.0, cut=1, insert=b" ")
def test_a_damaged_line_takes_the_short_way_only_where_the_whole_validation_agrees(
    index: int, position: float, cut: int, insert: bytes
) -> None:
    line = SAMPLE_LINES[index]
    at = int(position * len(line))
    damaged = line[:at] + insert + line[at + cut :]
    _assert_same(damaged)


def test_a_log_read_either_way_gives_the_same_records(tmp_path: Path) -> None:
    """The reader takes the short way for the usual line and the whole way for the rest."""
    path = SAMPLES / "full-combat.jsonl"
    lines = path.read_bytes().splitlines()
    with open_log(path) as reader:
        read = [line.record for line in reader]
    assert read == [RECORD.validate_json(raw, strict=True) for raw in lines[1:]]
    assert all(type(r) is EventRecord for r in read)
