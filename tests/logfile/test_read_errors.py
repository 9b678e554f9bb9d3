"""Every kind of bad log gets one exact, one-line message naming the file, line and field."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.io.logfile import open_log, read_log
from vwlog.model.errors import LogFormatError, UnsupportedVersionError

if TYPE_CHECKING:
    from pathlib import Path

HEADER = b'{"format":"vwlog","match_id":"m1","version":1}\n'
PASS_1 = b'{"event":{"player":"p1","type":"priority_passed"},"seq":1}\n'
PASS_2 = b'{"event":{"player":"p2","type":"priority_passed"},"seq":2}\n'


def error_of(tmp_path: Path, content: bytes, **options: int) -> tuple[str, str]:
    """Read a log with this content; return its name and the message of the error raised."""
    path = tmp_path / "match.jsonl"
    path.write_bytes(content)
    with pytest.raises(LogFormatError) as caught:
        read_log(path, **options)
    message = str(caught.value)
    assert "\n" not in message
    assert "Traceback" not in message
    return str(path), message


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + b'{"seq":1,,"event":{}}\n')
    assert message == f"{name}, line 2: malformed json at column 10: key must be a string"


def test_unknown_event_type_suggests_the_closest_known_one(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"priority_pass","player":"p1"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.type': unknown event type 'priority_pass' "
        "(did you mean 'priority_passed'?)"
    )


def test_unknown_event_type_without_a_close_match_says_how_many_exist(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"xyzzy"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.type': unknown event type 'xyzzy' "
        "(not one of the 38 event types)"
    )


def test_missing_event_type_tag(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + b'{"seq":1,"event":{"player":"p1"}}\n')
    assert message == f"{name}, line 2, field 'event.type': missing required field"


def test_missing_field_names_the_event_type(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"priority_passed"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.player': "
        "missing required field of event type 'priority_passed'"
    )


def test_missing_event(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + b'{"seq":1}\n')
    assert message == f"{name}, line 2, field 'event': missing required field"


def test_extra_field_in_event(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"priority_passed","player":"p1","card":"c1"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.card': unknown field of event type 'priority_passed'"
    )


def test_extra_field_in_envelope(tmp_path: Path) -> None:
    line = b'{"seq":1,"turn":3,"event":{"type":"priority_passed","player":"p1"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == f"{name}, line 2, field 'turn': unknown field"


def test_wrong_type_quotes_the_value_found(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"priority_passed","player":7}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.player': input should be a valid string, found 7"
    )


def test_a_number_in_a_string_is_not_a_number(tmp_path: Path) -> None:
    line = b'{"seq":"1","event":{"type":"priority_passed","player":"p1"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == f"{name}, line 2, field 'seq': input should be a valid integer, found \"1\""


def test_wrong_enum_value(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"supply_chosen","player":"p1","option":"GOLD_3"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.option': input should be 'CARDS_2', 'GOLD_2', "
        "'CARD_1_GOLD_1', 'FIRST_TURN_CARD_1' or 'FIRST_TURN_GOLD_1', found \"GOLD_3\""
    )


def test_value_out_of_range(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"gold_produced","player":"p1","amount":-2}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.amount': "
        "input should be greater than or equal to 0, found -2"
    )


def test_error_inside_an_effect_gives_the_dotted_path_and_counts_the_others(
    tmp_path: Path,
) -> None:
    line = (
        b'{"seq":1,"event":{"type":"object_resulted","object_id":"o1","effects":['
        b'{"type":"stat_changed","card":"c1","stat":"ATK","delta":"x"},{"type":"gold_changed"}]}}\n'
    )
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.effects[0].delta': "
        'input should be a valid integer, found "x" (and 2 more)'
    )


def test_unknown_effect_type(tmp_path: Path) -> None:
    line = (
        b'{"seq":1,"event":{"type":"object_resulted","object_id":"o1",'
        b'"effects":[{"type":"gold_change","player":"p1","delta":1}]}}\n'
    )
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2, field 'event.effects[0].type': unknown effect type 'gold_change' "
        "(did you mean 'gold_changed'?)"
    )


def test_record_that_is_not_an_object(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + b"[1, 2]\n")
    assert message == f"{name}, line 2: expected a json object, found an array"


def test_duplicate_seq(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + PASS_1 + PASS_1)
    assert message == f"{name}, line 3, field 'seq': duplicate seq 1 (expected 2)"


def test_seq_going_back(tmp_path: Path) -> None:
    pass_3 = PASS_2.replace(b'"seq":2', b'"seq":3')
    name, message = error_of(tmp_path, HEADER + PASS_1 + PASS_2 + pass_3 + PASS_2)
    assert message == f"{name}, line 5, field 'seq': seq 2 is out of order after seq 3 (expected 4)"


def test_seq_gap(tmp_path: Path) -> None:
    pass_5 = PASS_2.replace(b'"seq":2', b'"seq":5')
    name, message = error_of(tmp_path, HEADER + PASS_1 + pass_5)
    assert message == f"{name}, line 3, field 'seq': seq 5 leaves a gap after seq 1 (expected 2)"


def test_first_seq_must_be_1(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + PASS_2)
    assert message == f"{name}, line 2, field 'seq': the first record has seq 2 (expected 1)"


def test_truncated_last_line(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + PASS_1 + PASS_2[:30])
    assert message == (
        f"{name}, line 3: truncated last line (no newline at end of file and the json is "
        "incomplete)"
    )


def test_complete_last_line_without_newline_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(HEADER + PASS_1 + PASS_2.rstrip(b"\n"))
    _header, records = read_log(path)
    assert [record.seq for record in records] == [1, 2]


def test_empty_file(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b"")
    assert message == (
        f"{name}: empty file: line 1 must be a header such as "
        '{"format": "vwlog", "version": 1, "match_id": ...}'
    )


def test_file_that_starts_with_a_record(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, PASS_1)
    assert message == (
        f"{name}, line 1: line 1 is an event record, not a header; a log starts with "
        '{"format": "vwlog", "version": 1, "match_id": ...}'
    )


def test_header_of_another_format(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b'{"format":"pgn","version":1}\n')
    assert message == (
        f'{name}, line 1, field \'format\': not a vwlog log: the format is "pgn", not "vwlog"'
    )


def test_header_without_format(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b'{"match_id":"m1"}\n')
    assert message == (
        f"{name}, line 1: not a vwlog header: it has no 'format' field; a log starts with "
        '{"format": "vwlog", "version": 1, "match_id": ...}'
    )


def test_header_that_is_not_an_object(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b'"vwlog"\n')
    assert message == f"{name}, line 1: not a vwlog header: expected a json object, found a string"


def test_header_version_must_be_an_integer(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b'{"format":"vwlog","version":"1","match_id":"m1"}\n')
    assert message == f"{name}, line 1, field 'version': version must be an integer, found \"1\""


def test_header_missing_version(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b'{"format":"vwlog","match_id":"m1"}\n')
    assert message == f"{name}, line 1, field 'version': missing required field"


def test_header_missing_match_id(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b'{"format":"vwlog","version":1}\n')
    assert message == f"{name}, line 1, field 'match_id': missing required field"


def test_newer_version_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(b'{"format":"vwlog","version":2,"match_id":"m1"}\n')
    with pytest.raises(UnsupportedVersionError) as caught:
        read_log(path)
    assert str(caught.value) == (
        f"{path}, line 1, field 'version': format version 2 is newer than this vwlog reads "
        "(versions 0 to 1); upgrade vwlog"
    )


def test_negative_version_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(b'{"format":"vwlog","version":-1,"match_id":"m1"}\n')
    with pytest.raises(UnsupportedVersionError) as caught:
        read_log(path)
    assert str(caught.value) == (
        f"{path}, line 1, field 'version': unsupported format version -1 "
        "(this vwlog reads versions 0 to 1)"
    )


def test_byte_order_mark(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b"\xef\xbb\xbf" + HEADER)
    assert message == (
        f"{name}, line 1: the file starts with a utf-8 byte order mark; save it without one"
    )


def test_non_utf8_byte(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":{"type":"priority_passed","player":"p\xe9"}}\n'
    name, message = error_of(tmp_path, HEADER + line)
    assert message == f"{name}, line 2: invalid utf-8 byte 0xe9 at column 55"


def test_line_over_the_default_limit_of_16_mib(tmp_path: Path) -> None:
    huge = b'{"seq":1,"at":"' + b"x" * (16 * 1024 * 1024) + b'"}\n'
    name, message = error_of(tmp_path, HEADER + huge)
    assert message == f"{name}, line 2: line longer than the limit of 16 MiB"


def test_line_over_a_chosen_limit(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + PASS_1, max_line_bytes=50)
    assert message == f"{name}, line 2: line longer than the limit of 50 bytes"


def test_line_exactly_at_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(HEADER + PASS_1)
    _header, records = read_log(path, max_line_bytes=len(PASS_1) - 1)
    assert len(records) == 1


def test_deeply_nested_json(tmp_path: Path) -> None:
    line = b'{"seq":1,"event":' + b"[" * 2000 + b"]" * 2000 + b"}\n"
    name, message = error_of(tmp_path, HEADER + line)
    assert message == (
        f"{name}, line 2: json nested too deeply at column 218 (a record nests only a few levels)"
    )


def test_deeply_nested_header(tmp_path: Path) -> None:
    line = b'{"format":' + b"[" * 2000 + b"]" * 2000 + b"}\n"
    name, message = error_of(tmp_path, line)
    assert message == (
        f"{name}, line 1: json nested too deeply at column 1035 (a record nests only a few levels)"
    )


def test_blank_line(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, HEADER + PASS_1 + b"\n" + PASS_2)
    assert message == (
        f"{name}, line 3: blank line (a log has one record on every line after the header)"
    )


def test_blank_first_line(tmp_path: Path) -> None:
    name, message = error_of(tmp_path, b"\n" + HEADER)
    assert message == (
        f"{name}, line 1: blank line: line 1 must be a header such as "
        '{"format": "vwlog", "version": 1, "match_id": ...}'
    )


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.jsonl"
    with pytest.raises(LogFormatError) as caught:
        read_log(path)
    assert str(caught.value) == f"{path}: cannot open: no such file or directory"


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(LogFormatError) as caught:
        read_log(tmp_path)
    assert str(caught.value) == f"{tmp_path}: cannot open: is a directory"


def test_records_before_a_bad_line_are_yielded_first(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(HEADER + PASS_1 + PASS_2 + b"{oops\n")
    seen: list[int] = []
    with open_log(path) as reader, pytest.raises(LogFormatError) as caught:
        seen.extend(line.line_no for line in reader)
    assert seen == [2, 3]
    assert caught.value.line == 4
    assert caught.value.path == str(path)


def test_error_carries_its_fields(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(HEADER + b'{"seq":1,"event":{"type":"priority_passed"}}\n')
    with pytest.raises(LogFormatError) as caught:
        read_log(path)
    error = caught.value
    assert (error.path, error.line, error.field) == (str(path), 2, "event.player")
    assert error.detail == "missing required field of event type 'priority_passed'"
    assert error.__cause__ is not None
