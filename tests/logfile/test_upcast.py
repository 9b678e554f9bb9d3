"""Old format versions read as the current one."""

from __future__ import annotations

import doctest
from typing import TYPE_CHECKING

import pytest

from vwlog.events import (
    FORMAT_VERSION,
    CombatDamageRegistered,
    EventRecord,
    JudgeRulingIssued,
    LogHeader,
    ObjectResulted,
    PriorityPassed,
    StatChanged,
    SupplyChosen,
    TurnCleanedUp,
    upcast,
)
from vwlog.io import problems
from vwlog.io.logfile import open_log, read_log, write_log
from vwlog.model.errors import LogFormatError
from vwlog.model.types import ObjectKind, RulingKind, Stat, SupplyOption

if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType

V0_LOG = b"""\
{"vwlog_version": 0, "match_id": "m-2019-07", "created": "2019-07-14T09:00:00Z"}
{"seq": 1, "time": "2019-07-14T09:01:00Z", "event": {"kind": "priority_pass", "player": "p1"}}
{"seq": 2, "event": {"kind": "supply_declared", "player": "p2", "option": "GOLD_2"}}
{"seq": 3, "event": {"kind": "combat_damage_registered", "object_id": "o7", \
"object_kind": "COMBAT_DAMAGE_FOLLOWERS", "allocations": []}}
{"seq": 4, "event": {"kind": "object_resulted", "object_id": "o7", \
"effects": [{"kind": "stat_changed", "card": "p1-03", "stat": "ATK", "delta": -1}]}}
{"seq": 5, "event": {"kind": "judge_ruling", "judge": "HJ", "ruling": "WARNING", \
"reason": "slow play"}}
{"seq": 6, "event": {"kind": "end_of_turn_cleanup"}}
"""

V1_HEADER = LogHeader(match_id="m-2019-07", created="2019-07-14T09:00:00Z")
V1_RECORDS = [
    EventRecord(seq=1, at="2019-07-14T09:01:00Z", event=PriorityPassed(player="p1")),
    EventRecord(seq=2, event=SupplyChosen(player="p2", option=SupplyOption.GOLD_2)),
    EventRecord(
        seq=3,
        event=CombatDamageRegistered(
            object_id="o7", kind=ObjectKind.COMBAT_DAMAGE_FOLLOWERS, allocations=()
        ),
    ),
    EventRecord(
        seq=4,
        event=ObjectResulted(
            object_id="o7", effects=(StatChanged(card="p1-03", stat=Stat.ATK, delta=-1),)
        ),
    ),
    EventRecord(
        seq=5,
        event=JudgeRulingIssued(judge="HJ", kind=RulingKind.WARNING, reason="slow play"),
    ),
    EventRecord(seq=6, event=TurnCleanedUp()),
]


def test_a_version_0_log_reads_as_version_1(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(V0_LOG)
    assert read_log(path) == (V1_HEADER, V1_RECORDS)


def test_the_reader_tells_a_version_0_log_apart(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(V0_LOG)
    with open_log(path) as reader:
        lines = list(reader)
    assert (reader.source_version, reader.upcast) == (0, True)
    assert lines[0].raw == V0_LOG.splitlines()[1]


def test_a_version_0_log_written_again_is_a_version_1_log(tmp_path: Path) -> None:
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_bytes(V0_LOG)
    write_log(new, *read_log(old))
    with open_log(new) as reader:
        records = list(reader.records())
    assert (reader.source_version, reader.upcast) == (1, False)
    assert records == V1_RECORDS


def test_errors_in_a_version_0_log_say_it_was_upcast(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(b'{"vwlog_version": 0, "match_id": "m"}\n{"seq": 1, "event": {"kind": "x"}}\n')
    with pytest.raises(LogFormatError) as caught:
        read_log(path)
    assert str(caught.value) == (
        f"{path}, line 2, field 'event.type': unknown event type 'x' "
        "(not one of the 38 event types) (upcast from format version 0)"
    )


def test_errors_in_a_version_0_header_say_it_was_upcast(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(b'{"vwlog_version": 0, "match": "m"}\n')
    with pytest.raises(LogFormatError) as caught:
        read_log(path)
    assert str(caught.value) == (
        f"{path}, line 1, field 'match_id': missing required field (and 1 more) "
        "(upcast from format version 0)"
    )


def test_malformed_json_in_a_version_0_log(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(b'{"vwlog_version": 0, "match_id": "m"}\n{"seq": 1,,}\n')
    with pytest.raises(LogFormatError) as caught:
        read_log(path)
    assert str(caught.value) == (
        f"{path}, line 2: malformed json at column 11: unexpected character, expected a string key"
    )


def test_upcasters_leave_shapes_they_do_not_know_to_validation() -> None:
    odd = {"seq": 1, "event": {"type": "priority_passed", "kind": "x"}, "time": "t", "at": "u"}
    assert upcast.upcast_record_v0_v1(odd) == odd


def test_every_version_from_the_oldest_has_a_chain_to_the_current_one() -> None:
    for version in range(upcast.OLDEST_VERSION, FORMAT_VERSION + 1):
        chain = upcast.upcast_chain(version)
        assert chain is not None
        assert [step.from_version for step in chain] == list(range(version, FORMAT_VERSION))
    assert upcast.upcast_chain(upcast.OLDEST_VERSION - 1) is None
    assert upcast.upcast_chain(FORMAT_VERSION + 1) is None


@pytest.mark.parametrize("module", [upcast, problems], ids=lambda module: module.__name__)
def test_doctests(module: ModuleType) -> None:
    failed, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0
    assert failed == 0
