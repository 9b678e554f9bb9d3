"""Seek: the state at any seq of a stored match is the fold of its first seq records.

Whatever snapshots exist (every N events, none, or corrupt ones: garbage, truncated, a flipped
bit that still parses, one taken at another seq), `state_at` must give exactly what folding
the records with `evolve` gives.
"""

from __future__ import annotations

import random
import sqlite3
from typing import TYPE_CHECKING

import orjson
import pytest

from vwlog.io.pools import load_deck
from vwlog.model.errors import MatchNotFoundError, UsageError
from vwlog.services.importing import import_log
from vwlog.services.matches import state_at
from vwlog.store import MatchStore
from vwlog.store.mapping import match_uuid

from .support import generated_log, records_of, states

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from vwlog.events import EventRecord
    from vwlog.model.state import MatchState

SEED = 14
NO_SNAPSHOTS = 100_000


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[EventRecord]]:
    """A generated match of a few hundred events, and its records."""
    path = generated_log(tmp_path_factory.mktemp("seek"), SEED, 6)
    return path, records_of(path)[1]


@pytest.fixture(scope="module")
def folded(match: tuple[Path, list[EventRecord]]) -> list[MatchState]:
    """The state after each prefix of the match."""
    return states(match[1])


def positions(head: int, every: int) -> list[int]:
    """0, the first and last seqs, both sides of every snapshot boundary, and a sample."""
    around = {b + d for b in range(every, head + 1, every) for d in (-1, 0, 1)}
    sample = set(random.Random(head).sample(range(head + 1), 12))
    return sorted(s for s in {0, 1, 2, head - 1, head} | around | sample if 0 <= s <= head)


@pytest.mark.parametrize("every", [10, 37, NO_SNAPSHOTS], ids=["every-10", "every-37", "none"])
def test_the_state_at_a_seq_is_the_fold_of_the_records_before_it(
    store: MatchStore,
    match: tuple[Path, list[EventRecord]],
    folded: list[MatchState],
    every: int,
) -> None:
    path, records = match
    match_id = records_of(path)[0].match_id
    import_log(store, path, snapshot_every=every)
    head = len(records)

    for seq in positions(head, every if every < head else 100):
        assert state_at(store, match_id, seq) == folded[seq], f"seq {seq}"
    assert state_at(store, match_id) == folded[head]

    snapshot = store.nearest_snapshot(match_id, head)
    if every < head:
        assert snapshot is not None
        assert snapshot[0] == head // every * every
    else:
        assert snapshot is None


def test_a_seq_outside_the_match_or_an_unknown_match_is_refused(
    store: MatchStore, match: tuple[Path, list[EventRecord]]
) -> None:
    path, records = match
    match_id = records_of(path)[0].match_id
    import_log(store, path)

    for seq in (-1, len(records) + 1):
        with pytest.raises(UsageError, match=f"has events 1 to {len(records)}; no seq {seq}"):
            state_at(store, match_id, seq)
    with pytest.raises(MatchNotFoundError):
        state_at(store, "no-such-match", 1)


# -- corrupt snapshots -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def snapshots(match: tuple[Path, list[EventRecord]]) -> dict[int, bytes]:
    """The snapshots the store itself keeps of the match, every 50 events, by seq."""
    path, records = match
    match_id = records_of(path)[0].match_id
    with MatchStore.open("memory:") as scratch:
        import_log(scratch, path, snapshot_every=50)
        found = [scratch.nearest_snapshot(match_id, seq) for seq in range(50, len(records), 50)]
    return dict(filter(None, found))


def _payload_start(good: bytes) -> int:
    """Where the JSON payload begins: after the magic line, the record hash and the digest."""
    at = good.index(b"\n")
    at = good.index(b"\n", at + 1)
    return good.index(b"\n", at + 1) + 1


def _flipped(good: bytes, *, value: bool) -> bytes:
    """``good`` with one bit of its JSON payload flipped so that the payload still parses: to
    other values (``value``: a digit changed), or to something the decoder refuses (a tag
    renamed)."""
    start = _payload_start(good)
    original = orjson.loads(good[start:])
    for at in range(len(good) - 1, start, -1):
        data = bytearray(good)
        data[at] ^= 1
        try:
            loaded = orjson.loads(bytes(data[start:]))
        except orjson.JSONDecodeError:
            continue
        if loaded == original:
            continue
        digit = chr(good[at]).isdigit() and chr(data[at]).isdigit()
        if value == digit:
            return bytes(data)
    raise AssertionError("no such bit")


CORRUPTIONS: dict[str, Callable[[dict[int, bytes]], bytes]] = {
    "garbage": lambda snaps: b"\x00\xffnot a snapshot at all",
    "empty": lambda snaps: b"",
    "magic-only": lambda snaps: snaps[50][: snaps[50].index(b"\n") + 1],
    "not-json": lambda snaps: snaps[50][: _payload_start(snaps[50])] + b"not json",
    "truncated": lambda snaps: snaps[50][: len(snaps[50]) // 2],
    "one-bit-flipped-to-other-values": lambda snaps: _flipped(snaps[50], value=True),
    "one-bit-flipped-elsewhere": lambda snaps: _flipped(snaps[50], value=False),
    "taken-at-another-seq": lambda snaps: snaps[100],
}


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupt_snapshot_falls_back_to_replaying_the_records(
    store: MatchStore,
    match: tuple[Path, list[EventRecord]],
    folded: list[MatchState],
    snapshots: dict[int, bytes],
    corrupt: Callable[[dict[int, bytes]], bytes],
) -> None:
    path, _records = match
    match_id = records_of(path)[0].match_id
    import_log(store, path, snapshot_every=NO_SNAPSHOTS)
    assert store.save_snapshot(match_id, 50, corrupt(snapshots))

    for seq in (50, 51, 60, 99):
        assert state_at(store, match_id, seq) == folded[seq], f"seq {seq}"
    assert state_at(store, match_id, 49) == folded[49]


def test_snapshots_truncated_in_the_sqlite_file_fall_back_to_replay(
    tmp_path: Path, match: tuple[Path, list[EventRecord]], folded: list[MatchState]
) -> None:
    path, records = match
    match_id = records_of(path)[0].match_id
    db = tmp_path / "vwlog.db"
    with MatchStore.open(str(db)) as store:
        import_log(store, path, snapshot_every=10)
    with sqlite3.connect(db) as conn:
        changed = conn.execute(
            "UPDATE stored_snapshots SET state = substr(state, 1, 40) WHERE originator_id = ?",
            (match_uuid(match_id).hex,),
        ).rowcount
    assert changed == len(records) // 10

    with MatchStore.open(str(db)) as store:
        for seq in (10, 11, 55, len(records)):
            assert state_at(store, match_id, seq) == folded[seq], f"seq {seq}"


def test_two_memory_stores_with_different_matches_under_one_id_seek_their_own(
    tmp_path: Path,
) -> None:
    decks = tuple(tuple(load_deck(name).expand()) for name in ("order-aggro", "vermont-dragons"))
    seed = 9001  # used by no other test: the cache this shows is process-wide
    first = generated_log(tmp_path, seed, 2, name="first.jsonl")
    second = generated_log(tmp_path, seed, 2, decks=decks, name="second.jsonl")
    (header, one), (_, two) = records_of(first), records_of(second)
    assert header.match_id == records_of(second)[0].match_id
    assert one[0] != two[0]

    for path, records in ((first, one), (second, two)):
        with MatchStore.open("memory:") as store:
            import_log(store, path, snapshot_every=10)
            assert state_at(store, header.match_id, 25) == states(records)[25]
