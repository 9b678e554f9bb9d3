"""Records and catalog entries to eventsourcing stored events and back (`vwlog.store.mapping`)."""

from __future__ import annotations

from uuid import uuid5

import pytest
from eventsourcing.compressor import ZlibCompressor
from eventsourcing.persistence import StoredEvent

from vwlog.events import PriorityPassed
from vwlog.model.errors import StoreError
from vwlog.store.mapping import (
    CATALOG_NAMESPACE,
    MATCH_NAMESPACE,
    META_TOPIC,
    REGISTERED_TOPIC,
    SNAPSHOT_TOPIC,
    MatchRegistered,
    MetaUpdated,
    OrjsonTranscoder,
    RecordMapper,
    RecordStored,
    SnapshotTaken,
    catalog_uuid,
    match_uuid,
)

from .records import synthetic_match

MATCH = synthetic_match("m1", 3)
LINE, RECORD = MATCH.lines[1]


@pytest.fixture
def mapper() -> RecordMapper:
    return RecordMapper(transcoder=OrjsonTranscoder())


def test_stream_ids_are_uuid5s_of_the_match_id() -> None:
    assert match_uuid("m1") == uuid5(MATCH_NAMESPACE, "m1")
    assert catalog_uuid("m1") == uuid5(CATALOG_NAMESPACE, "m1")
    assert match_uuid("m1") != catalog_uuid("m1")


def test_a_record_is_stored_as_its_line(mapper: RecordMapper) -> None:
    stored = mapper.to_stored_event(RecordStored(match_uuid("m1"), 2, RECORD, LINE))
    assert stored == StoredEvent(match_uuid("m1"), 2, "vwlog:priority_passed:v1", LINE)
    back = mapper.to_domain_event(stored)
    assert back == RecordStored(match_uuid("m1"), 2, RECORD, LINE)
    assert mapper.record_hash(stored) == RECORD.hash


def test_catalog_entries_and_snapshots_round_trip(mapper: RecordMapper) -> None:
    oid, meta = catalog_uuid("m1"), MATCH.meta(flagged=True)
    events = [
        MatchRegistered(oid, 1, MATCH.header, meta),
        MetaUpdated(oid, 2, meta),
        SnapshotTaken(match_uuid("m1"), 3, b"\x00opaque"),
    ]
    stored = [mapper.to_stored_event(event) for event in events]
    assert [s.topic for s in stored] == [REGISTERED_TOPIC, META_TOPIC, SNAPSHOT_TOPIC]
    assert stored[2].state == b"\x00opaque"
    assert [mapper.to_domain_event(s) for s in stored] == events


def test_a_string_originator_id_is_read_as_a_uuid(mapper: RecordMapper) -> None:
    stored = StoredEvent(str(match_uuid("m1")), 3, SNAPSHOT_TOPIC, b"s")
    assert mapper.to_domain_event(stored) == SnapshotTaken(match_uuid("m1"), 3, b"s")


def test_a_compressor_applies_to_the_state_but_lines_read_back_exactly() -> None:
    mapper = RecordMapper(transcoder=OrjsonTranscoder(), compressor=ZlibCompressor())
    stored = mapper.stored_record(match_uuid("m1"), LINE, RECORD)
    assert stored.state != LINE
    assert mapper.line(stored) == LINE
    assert mapper.record(stored) == RECORD
    meta = mapper.stored_meta("m1", 2, MATCH.meta())
    assert mapper.meta(meta) == MATCH.meta()


@pytest.mark.parametrize(
    ("topic", "state", "message"),
    [
        ("vwlog:card_teleported:v1", LINE, "unknown event type 'card_teleported'"),
        ("myapp.events:Thing", LINE, "not a record topic"),
        ("vwlog:priority_passed:v1", b"{not json", "cannot be read"),
        ("vwlog:priority_passed:v1", b'{"seq": 0, "event": {}}', "cannot be read"),
    ],
)
def test_unreadable_records_raise_store_error(
    mapper: RecordMapper, topic: str, state: bytes, message: str
) -> None:
    with pytest.raises(StoreError, match=message):
        mapper.record(StoredEvent(match_uuid("m1"), 2, topic, state))


def test_a_missing_upcaster_is_named(mapper: RecordMapper, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PriorityPassed, "VERSION", 2)
    stored = StoredEvent(match_uuid("m1"), 2, "vwlog:priority_passed:v1", LINE)
    with pytest.raises(StoreError, match="no upcaster for priority_passed from v1 to v2"):
        mapper.record(stored)


@pytest.mark.parametrize("state", [b"[1, 2]", b'{"seq": 2}', b"\xff"])
def test_a_head_without_a_hash_raises_store_error(mapper: RecordMapper, state: bytes) -> None:
    with pytest.raises(StoreError):
        mapper.record_hash(StoredEvent(match_uuid("m1"), 2, "vwlog:priority_passed:v1", state))


def test_catalog_entries_of_the_wrong_kind_raise_store_error(mapper: RecordMapper) -> None:
    snapshot = mapper.stored_snapshot("m1", 1, b"s")
    with pytest.raises(StoreError, match="expected vwlog-store:match_registered"):
        mapper.registration(snapshot)
    with pytest.raises(StoreError, match="expected vwlog-store:meta_updated"):
        mapper.meta(snapshot)
    broken = StoredEvent(catalog_uuid("m1"), 2, META_TOPIC, b'{"match_id": "m1"}')
    with pytest.raises(StoreError, match="cannot be read"):
        mapper.meta(broken)
