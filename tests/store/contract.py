"""The match store contract: one abstract test class, subclassed once per backend.

A backend's subclass supplies the ``url`` fixture (and, for a backend whose stores cannot share
a database, ``other``). Some tests reach into the store's recorder on purpose: to check the
stored format, or to inject a fault that the public API cannot produce.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, ClassVar
from uuid import uuid5

import pytest

from vwlog.events import PriorityPassed
from vwlog.model.errors import (
    MatchExistsError,
    MatchNotFoundError,
    SequenceConflictError,
    StoredSeqOutOfRangeError,
    StoreError,
    UsageError,
)
from vwlog.store import Head, ImportOutcome, MatchMeta, MatchStore
from vwlog.store import reading as store_reading
from vwlog.store.mapping import MATCH_NAMESPACE, UPCASTERS, JsonObject, match_uuid

from .records import SyntheticMatch, big_match, continuation, synthetic_match, verify_chain

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from eventsourcing.persistence import StoredEvent

    from vwlog.events import EventRecord
    from vwlog.model.types import MatchId


def stored_events(store: MatchStore, match_id: str) -> list[StoredEvent]:
    """The rows of a match's record stream, as eventsourcing holds them."""
    return list(store._recorder.select_events(match_uuid(match_id)))


def records_of(match: SyntheticMatch) -> list[EventRecord]:
    """The records of a synthetic match."""
    return [record for _line, record in match.lines]


def lines_of(match: SyntheticMatch) -> list[bytes]:
    """The canonical lines of a synthetic match."""
    return [line for line, _record in match.lines]


class StoreContract:
    """What every backend of `MatchStore` must do."""

    BIG: ClassVar[int] = 10_000
    """Records in the "large match" tests."""

    @pytest.fixture
    def url(self) -> str:
        """The URL of a fresh, empty store (supplied by each backend)."""
        raise NotImplementedError

    @pytest.fixture
    def store(self, url: str) -> Iterator[MatchStore]:
        with MatchStore.open(url) as store:
            yield store

    @pytest.fixture
    def other(self, store: MatchStore, url: str) -> Iterator[MatchStore]:
        """A second handle on the same database: another writer."""
        with MatchStore.open(url) as other:
            yield other

    @pytest.fixture
    def big(self) -> SyntheticMatch:
        return big_match(self.BIG)

    @pytest.fixture
    def match(self) -> SyntheticMatch:
        return synthetic_match("m1", 12)

    # Import and read back

    def test_an_imported_match_reads_back_as_its_records(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        assert store.import_match(match.header, match.lines, match.meta()) is ImportOutcome.STORED
        assert list(store.records("m1")) == records_of(match)
        assert store.header("m1") == match.header
        assert store.meta("m1") == match.meta()
        assert store.head("m1") == Head(12, match.head_hash)

    def test_raw_lines_are_the_imported_bytes_exactly(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        assert list(store.raw_lines("m1")) == lines_of(match)
        assert "🃏".encode() in next(store.raw_lines("m1"))
        assert list(store.lines("m1")) == match.lines

    def test_stored_lines_still_form_a_verified_chain(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        verify_chain(store.header("m1"), list(store.lines("m1")))

    def test_records_can_be_read_up_to_a_seq(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        assert list(store.records("m1", lte=5)) == records_of(match)[:5]
        assert list(store.raw_lines("m1", gt=5, lte=8)) == lines_of(match)[5:8]
        assert list(store.records("m1", gt=12)) == []

    def test_reads_page_through_long_matches(
        self, store: MatchStore, match: SyntheticMatch, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(store_reading, "PAGE_SIZE", 5)
        match.import_into(store)
        others = [f"m{i}" for i in range(2, 9)]
        for match_id in others:
            synthetic_match(match_id, 2).import_into(store)
        assert list(store.raw_lines("m1")) == lines_of(match)
        assert list(store.records("m1", gt=4, lte=10)) == records_of(match)[4:10]
        assert store.match_ids() == ["m1", *others]
        assert [meta.match_id for meta in store.list_matches()] == ["m1", *others]

    def test_a_large_match_is_imported_whole(self, store: MatchStore, big: SyntheticMatch) -> None:
        assert store.import_match(big.header, big.lines, big.meta()) is ImportOutcome.STORED
        assert store.head("big") == Head(self.BIG, big.head_hash)
        assert sum(1 for _ in store.raw_lines("big")) == self.BIG

    def test_a_match_without_records_has_the_header_as_its_head(self, store: MatchStore) -> None:
        empty = synthetic_match("m0", 0)
        empty.import_into(store)
        assert store.head("m0") == Head(0, empty.header.hash or "")
        assert list(store.records("m0")) == []

    # Import is all or nothing, and idempotent

    def test_importing_the_same_match_again_stores_nothing(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        again = store.import_match(match.header, match.lines, match.meta(flagged=True))
        assert again is ImportOutcome.UNCHANGED
        assert len(stored_events(store, "m1")) == 12
        assert store.meta("m1").flagged is False
        assert store.match_ids() == ["m1"]

    def test_a_different_match_under_a_stored_id_is_refused(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        altered = synthetic_match("m1", 12, passer="p2")
        with pytest.raises(MatchExistsError) as caught:
            altered.import_into(store)
        assert caught.value.stored_head == match.head_hash
        assert "already stored" in str(caught.value)
        assert list(store.raw_lines("m1")) == lines_of(match)

    def test_a_longer_record_of_a_stored_match_is_refused(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.prefix(6).import_into(store)
        with pytest.raises(MatchExistsError):
            match.import_into(store)
        assert store.head("m1").seq == 6

    def test_an_importer_overtaken_by_the_same_match_stores_nothing_more(
        self,
        store: MatchStore,
        other: MatchStore,
        match: SyntheticMatch,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        self.overtake_import(store, other, match, monkeypatch)
        assert store.import_match(match.header, match.lines, match.meta()) is (
            ImportOutcome.UNCHANGED
        )
        assert list(store.raw_lines("m1")) == lines_of(match)

    def test_an_importer_overtaken_by_another_match_with_its_id_is_refused(
        self,
        store: MatchStore,
        other: MatchStore,
        match: SyntheticMatch,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        self.overtake_import(store, other, synthetic_match("m1", 5), monkeypatch)
        with pytest.raises(MatchExistsError):
            match.import_into(store)
        assert store.head("m1").seq == 5

    @staticmethod
    def overtake_import(
        store: MatchStore,
        other: MatchStore,
        theirs: SyntheticMatch,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """Make ``other`` import ``theirs`` after ``store`` next checks that it is absent."""
        check = store._stored_head

        def other_importer_lands_after_the_check(match_id: MatchId) -> Head | None:
            found = check(match_id)
            monkeypatch.setattr(store, "_stored_head", check)
            theirs.import_into(other)
            return found

        monkeypatch.setattr(store, "_stored_head", other_importer_lands_after_the_check)

    def test_records_out_of_order_are_refused_before_anything_is_stored(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        lines = list(match.lines)
        lines[7] = lines[6]  # seq 7 twice, no seq 8
        with pytest.raises(UsageError, match="has seq 7, expected 8"):
            store.import_match(match.header, lines, match.meta())
        assert "m1" not in store
        assert stored_events(store, "m1") == []

    def test_a_failure_midway_through_an_import_stores_nothing(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        # A stray row at seq 9 makes the database refuse the ninth record of the import,
        # after the registration and records 1-8 were sent in the same transaction.
        stray = store._mapper.stored_record(match_uuid("m1"), *match.lines[8])
        store._recorder.insert_events([stray])
        with pytest.raises(SequenceConflictError) as caught:
            match.import_into(store)
        assert caught.value.seq == 9
        assert [s.originator_version for s in stored_events(store, "m1")] == [9]
        assert "m1" not in store
        assert store.list_matches() == []

    def test_metadata_that_does_not_describe_the_records_is_refused(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        with pytest.raises(UsageError, match="says 11 events"):
            store.import_match(match.header, match.lines, match.meta(events=11))
        with pytest.raises(UsageError, match="given for match"):
            store.import_match(match.header, match.lines, match.meta(match_id="m2"))
        assert store.match_ids() == []

    def test_a_match_without_records_needs_a_sealed_header(self, store: MatchStore) -> None:
        empty = synthetic_match("m0", 0)
        unsealed = empty.header.model_copy(update={"hash": None})
        with pytest.raises(UsageError, match="seal it first"):
            store.import_match(unsealed, [], empty.meta())

    def test_records_without_hashes_are_refused(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        line, record = match.lines[3]
        lines = list(match.lines)
        lines[3] = (line, record.model_copy(update={"hash": None}))
        with pytest.raises(UsageError, match="no hash"):
            store.import_match(match.header, lines, match.meta())

    # Append, optimistic concurrency

    def test_appended_records_follow_the_imported_ones(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.prefix(8).import_into(store)
        head = store.append("m1", match.lines[8:], expected_seq=8, meta=match.meta())
        assert head == Head(12, match.head_hash)
        assert list(store.raw_lines("m1")) == lines_of(match)
        assert store.meta("m1").events == 12
        verify_chain(store.header("m1"), list(store.lines("m1")))

    def test_a_second_writer_at_the_same_position_gets_a_conflict(
        self, store: MatchStore, other: MatchStore, match: SyntheticMatch
    ) -> None:
        match.prefix(8).import_into(store)
        mine = continuation(match.prefix(8), 2, passer="p1")
        theirs = continuation(match.prefix(8), 3, passer="p2")
        other.append("m1", theirs.lines[8:], expected_seq=8)
        with pytest.raises(SequenceConflictError) as caught:
            store.append("m1", mine.lines[8:], expected_seq=8, meta=mine.meta())
        assert caught.value.seq == 9
        assert list(store.raw_lines("m1")) == lines_of(theirs)
        assert store.meta("m1").events == 8

    def test_a_writer_overtaken_after_checking_the_head_writes_nothing(
        self,
        store: MatchStore,
        other: MatchStore,
        match: SyntheticMatch,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        match.prefix(8).import_into(store)
        mine = continuation(match.prefix(8), 3, passer="p1")
        theirs = continuation(match.prefix(8), 2, passer="p2")
        check_head = store._head_seq

        def other_writer_lands_after_the_check(oid: object) -> int:
            seq = check_head(match_uuid("m1"))
            monkeypatch.setattr(store, "_head_seq", check_head)
            other.append("m1", theirs.lines[8:], expected_seq=8)
            return seq

        monkeypatch.setattr(store, "_head_seq", other_writer_lands_after_the_check)
        with pytest.raises(SequenceConflictError):
            store.append("m1", mine.lines[8:], expected_seq=8, meta=mine.meta())
        assert list(store.raw_lines("m1")) == lines_of(theirs)
        assert store.meta("m1").events == 8

    def test_of_concurrent_writers_exactly_one_wins(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.prefix(4).import_into(store)
        attempts = [continuation(match.prefix(4), 3, passer=f"w{i}") for i in range(4)]
        barrier = threading.Barrier(len(attempts))
        outcomes: list[str] = [""] * len(attempts)

        def write(i: int) -> None:
            barrier.wait()
            try:
                store.append("m1", attempts[i].lines[4:], expected_seq=4)
            except SequenceConflictError:
                outcomes[i] = "conflict"
            else:
                outcomes[i] = "won"

        threads = [threading.Thread(target=write, args=(i,)) for i in range(len(attempts))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["conflict", "conflict", "conflict", "won"]
        winner = attempts[outcomes.index("won")]
        assert list(store.raw_lines("m1")) == lines_of(winner)

    def test_an_append_whose_metadata_was_replaced_meanwhile_is_retried(
        self,
        store: MatchStore,
        other: MatchStore,
        match: SyntheticMatch,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        match.prefix(8).import_into(store)
        read_catalog = store._catalog_head

        def other_updates_the_metadata_after_the_read(match_id: MatchId) -> tuple[int, MatchMeta]:
            found = read_catalog(match_id)
            monkeypatch.setattr(store, "_catalog_head", read_catalog)
            other.update_meta(match.prefix(8).meta(flagged=True))
            return found

        monkeypatch.setattr(store, "_catalog_head", other_updates_the_metadata_after_the_read)
        store.append("m1", match.lines[8:], expected_seq=8, meta=match.meta(turns=1))
        assert store.meta("m1") == match.meta(turns=1)
        assert list(store.raw_lines("m1")) == lines_of(match)

    def test_appending_nothing_is_refused(self, store: MatchStore, match: SyntheticMatch) -> None:
        match.import_into(store)
        with pytest.raises(UsageError, match="nothing to append"):
            store.append("m1", [], expected_seq=12)

    def test_appending_after_a_position_the_match_has_not_reached_is_refused(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.prefix(6).import_into(store)
        with pytest.raises(UsageError, match="ends at seq 6"):
            store.append("m1", match.lines[8:], expected_seq=8)
        with pytest.raises(UsageError, match="expected 7"):
            store.append("m1", match.lines[8:], expected_seq=6)
        assert store.head("m1").seq == 6

    def test_appending_to_an_unknown_match_raises_not_found(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        with pytest.raises(MatchNotFoundError):
            store.append("m1", match.lines[:2], expected_seq=0)

    # Unknown matches

    @pytest.mark.parametrize(
        "read",
        [
            lambda s: s.header("nope"),
            lambda s: s.meta("nope"),
            lambda s: s.head("nope"),
            lambda s: s.raw_lines("nope"),
            lambda s: s.records("nope", lte=3),
            lambda s: s.lines("nope"),
            lambda s: s.nearest_snapshot("nope", 5),
            lambda s: s.save_snapshot("nope", 1, b"state"),
        ],
        ids=["header", "meta", "head", "raw_lines", "records", "lines", "nearest", "save"],
    )
    def test_reading_an_unknown_match_raises_not_found_at_once(
        self, store: MatchStore, match: SyntheticMatch, read: Callable[[MatchStore], object]
    ) -> None:
        match.import_into(store)
        with pytest.raises(MatchNotFoundError) as caught:
            read(store)
        assert caught.value.match_id == "nope"
        assert "nope" not in store

    # Stored format

    def test_records_are_stored_under_stable_topics_as_their_lines(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        rows = stored_events(store, "m1")
        assert [row.topic for row in rows[:2]] == [
            "vwlog:match_started:v1",
            "vwlog:priority_passed:v1",
        ]
        assert {row.topic for row in rows[1:]} == {"vwlog:priority_passed:v1"}
        assert [row.state for row in rows] == lines_of(match)
        assert [row.originator_version for row in rows] == list(range(1, 13))
        assert {str(row.originator_id) for row in rows} == {str(uuid5(MATCH_NAMESPACE, "m1"))}

    def test_old_records_are_upcast_on_read_and_kept_as_written(
        self, store: MatchStore, match: SyntheticMatch, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        match.import_into(store)

        def shout(event: JsonObject) -> JsonObject:
            return {**event, "player": event["player"].upper()}

        monkeypatch.setattr(PriorityPassed, "VERSION", 2)
        monkeypatch.setitem(UPCASTERS, ("priority_passed", 1), shout)
        passes = list(store.records("m1", gt=1))
        assert {r.event.player for r in passes if isinstance(r.event, PriorityPassed)} == {"P1"}
        assert list(store.raw_lines("m1")) == lines_of(match)

    def test_records_from_a_newer_vwlog_are_refused_clearly(
        self, store: MatchStore, match: SyntheticMatch, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        with monkeypatch.context() as patched:
            patched.setattr(PriorityPassed, "VERSION", 3)
            match.import_into(store)
        assert stored_events(store, "m1")[1].topic == "vwlog:priority_passed:v3"
        with pytest.raises(StoreError, match="written as v3"):
            list(store.records("m1"))
        assert list(store.raw_lines("m1")) == lines_of(match)

    # Catalog

    def test_matches_are_listed_in_the_order_they_were_stored(self, store: MatchStore) -> None:
        assert store.list_matches() == []
        assert store.match_ids() == []
        for match_id in ("b", "a", "c"):
            synthetic_match(match_id, 3).import_into(store)
        assert store.match_ids() == ["b", "a", "c"]
        assert [meta.match_id for meta in store.list_matches()] == ["b", "a", "c"]

    def test_listing_shows_the_latest_metadata(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.prefix(8).import_into(store)
        synthetic_match("m2", 2).import_into(store)
        store.append("m1", match.lines[8:], expected_seq=8, meta=match.meta(turns=2))
        store.update_meta(match.meta(turns=2, flagged=True, violation_summary=["R-REG-6-1@9"]))
        listed = {meta.match_id: meta for meta in store.list_matches()}
        assert listed["m1"] == match.meta(turns=2, flagged=True, violation_summary=["R-REG-6-1@9"])
        assert listed["m2"].events == 2
        assert store.meta("m1").flagged is True

    def test_metadata_describing_an_older_head_is_refused(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        stale = match.prefix(8)
        stale.import_into(store)
        store.append("m1", match.lines[8:], expected_seq=8)
        with pytest.raises(SequenceConflictError):
            store.update_meta(stale.meta(flagged=True))
        assert store.meta("m1").flagged is False

    def test_membership_tells_whether_a_match_is_stored(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        assert "m1" in store
        assert "m2" not in store

    # Snapshots

    def test_the_nearest_snapshot_at_or_before_a_seq_is_found(
        self, store: MatchStore, big: SyntheticMatch
    ) -> None:
        big.import_into(store)
        for seq in range(500, self.BIG + 1, 500):
            assert store.save_snapshot("big", seq, f"state@{seq}".encode())
        assert store.nearest_snapshot("big", 499) is None
        assert store.nearest_snapshot("big", 500) == (500, b"state@500")
        assert store.nearest_snapshot("big", 7_654) == (7_500, b"state@7500")
        assert store.nearest_snapshot("big", self.BIG) == (self.BIG, f"state@{self.BIG}".encode())

    def test_a_snapshot_is_never_replaced(self, store: MatchStore, match: SyntheticMatch) -> None:
        match.import_into(store)
        assert store.save_snapshot("m1", 10, b"first")
        assert not store.save_snapshot("m1", 10, b"second")
        assert store.nearest_snapshot("m1", 11) == (10, b"first")

    def test_snapshots_are_saved_in_one_batch_keeping_those_already_there(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        assert store.save_snapshots("m1", []) == 0
        assert store.save_snapshots("m1", [(4, b"four"), (8, b"eight")]) == 2
        assert store.nearest_snapshot("m1", 7) == (4, b"four")
        # one of the batch already stored: the others are still kept, the old one stays
        assert store.save_snapshots("m1", [(8, b"again"), (12, b"twelve")]) == 1
        assert store.nearest_snapshot("m1", 11) == (8, b"eight")
        assert store.nearest_snapshot("m1", 12) == (12, b"twelve")
        with pytest.raises(StoredSeqOutOfRangeError, match="events 1 to 12"):
            store.save_snapshots("m1", [(2, b"two"), (13, b"future")])
        assert store.nearest_snapshot("m1", 3) is None  # nothing of a refused batch is kept

    def test_a_snapshot_after_the_head_is_refused(
        self, store: MatchStore, match: SyntheticMatch
    ) -> None:
        match.import_into(store)
        with pytest.raises(StoredSeqOutOfRangeError, match="events 1 to 12"):
            store.save_snapshot("m1", 13, b"future")
        with pytest.raises(StoredSeqOutOfRangeError):
            store.save_snapshot("m1", 0, b"before")

    # Lifecycle

    def test_a_closed_store_raises_store_error(self, url: str, match: SyntheticMatch) -> None:
        store = MatchStore.open(url)
        assert repr(store).startswith("MatchStore(")
        match.import_into(store)
        store.close()
        with pytest.raises(StoreError):
            store.head("m1")
