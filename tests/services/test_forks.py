"""Forks: started only at priority points, continued in play mode, legal and intact on export."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.engine import seek
from vwlog.events import TRAILER_TYPES, MatchForked
from vwlog.model.errors import (
    IllegalEventError,
    NotPlayableError,
    SequenceConflictError,
    UsageError,
)
from vwlog.rules.catalog import RULES
from vwlog.services import validate_log, verify_log
from vwlog.services.forks import fork_match, lineage
from vwlog.services.importing import import_log
from vwlog.services.matches import export_match, state_at, verify_match
from vwlog.services.play import SealedRecordError, play_decisions
from vwlog.store import MatchStore

from .support import generated_log, priority_points, records_of, states

if TYPE_CHECKING:
    from vwlog.events import EventRecord
    from vwlog.services.forks import LineageNode

SEED = 5


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[EventRecord]]:
    """A two-turn generated match (about 150 events), like a sample log, and its records."""
    path = generated_log(tmp_path_factory.mktemp("forks"), SEED, 2)
    # the game records: the seal the generator wrote is not part of what forks re-play
    return path, [r for r in records_of(path)[1] if not isinstance(r.event, TRAILER_TYPES)]


@pytest.fixture
def stored(store: MatchStore, small: tuple[Path, list[EventRecord]]) -> str:
    """The small match, imported into ``store``; its id."""
    import_log(store, small[0])
    return records_of(small[0])[0].match_id


def snapshot(store: MatchStore, match_id: str) -> tuple[object, ...]:
    """Everything a failed write must leave as it was."""
    return (
        store.head(match_id),
        store.meta(match_id),
        list(store.raw_lines(match_id)),
        store.match_ids(),
    )


def exported_ok(store: MatchStore, match_id: str, out: Path) -> list[EventRecord]:
    """Export a match; assert it validates clean and its chain verifies; its records."""
    export_match(store, match_id, out)
    report = validate_log(out)
    assert report.violations == [], [str(v) for v in report.violations[:3]]
    assert report.integrity is not None
    # an unfinished fork is unsealed (incomplete); nothing else may be wrong
    assert all(p.startswith("unsealed") for p in report.integrity.problems)
    assert verify_log(out).ok
    return records_of(out)[1]


def test_a_fork_at_a_seq_that_is_no_priority_point_is_refused_naming_the_nearest(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    points = priority_points(small[1])
    gap = next(i for i in range(len(points) - 1) if points[i + 1] - points[i] > 2)
    before, after = points[gap], points[gap + 1]
    unchanged = snapshot(store, stored)
    cases = {
        before + 1: f"nearest: seq {before}, seq {after}",
        after - 1: f"nearest: seq {before}, seq {after}",
        1: f"nearest: seq {points[0]})",
    }

    for at, nearest in cases.items():
        with pytest.raises(UsageError) as caught:
            fork_match(store, stored, at, name="nope")
        message = str(caught.value)
        assert f"seq {at} of {stored!r} is not a priority point ({nearest}" in message
        assert "\n" not in message
    assert snapshot(store, stored) == unchanged


def test_a_fork_beyond_the_end_of_the_match_is_refused(store: MatchStore, stored: str) -> None:
    head = store.head(stored).seq
    with pytest.raises(UsageError, match=f"has events 1 to {head}; no seq {head + 1}"):
        fork_match(store, stored, head + 1)


def _check_fork(
    store: MatchStore, parent: str, at: int, parent_records: list[EventRecord], out: Path
) -> None:
    fork_id = fork_match(store, parent, at)
    assert fork_id == f"{parent}~{at}"
    meta = store.meta(fork_id)
    assert (meta.parent, meta.fork_at, meta.events) == (parent, at, at + 1)
    result = play_decisions(store, fork_id, [], auto=12, seed=at)
    assert result.decisions == 12
    records = exported_ok(store, fork_id, out)
    assert [r.event for r in records[:at]] == [r.event for r in parent_records[:at]]
    assert records[at].event == MatchForked(parent=parent, at=at)
    assert verify_match(store, fork_id).ok
    assert store.meta(fork_id).events == store.head(fork_id).seq == len(records)


@pytest.mark.slow
def test_a_fork_at_every_priority_point_continues_legally_and_verifies(
    store_url: str, small: tuple[Path, list[EventRecord]], tmp_path: Path
) -> None:
    path, parent_records = small
    parent = records_of(path)[0].match_id
    points = priority_points(parent_records)
    assert len(points) > 30
    if not store_url.startswith("sqlite"):
        points = points[::9]  # every one on the default backend; a sample on the others
    with MatchStore.open(store_url) as store:
        import_log(store, path)
        for at in points:
            _check_fork(store, parent, at, parent_records, tmp_path / f"fork-{at}.jsonl")


def test_a_long_continuation_keeps_snapshots_that_seek_correctly(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]], tmp_path: Path
) -> None:
    at = priority_points(small[1])[0]
    fork_id = fork_match(store, stored, at, name="long")

    result = play_decisions(store, fork_id, [], auto=400)

    assert result.head_seq > 300
    records = exported_ok(store, fork_id, tmp_path / "long.jsonl")
    assert store.nearest_snapshot(fork_id, result.head_seq) is not None
    folded = states(records)
    for seq in (at, at + 1, 99, 100, 101, 200, 250, 300, result.head_seq):
        assert state_at(store, fork_id, seq) == folded[seq], f"seq {seq}"


def _shape(node: LineageNode) -> tuple[str, int | None, list[object]]:
    return node.meta.match_id, node.meta.fork_at, [_shape(c) for c in node.children]


def test_lineage_shows_the_parent_and_every_fork_from_any_member(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    points = priority_points(small[1])
    block = fork_match(store, stored, points[3], name="block")
    play_decisions(store, block, [], auto=5)
    deeper = fork_match(store, block, points[3] + 1, name="deeper")
    other = fork_match(store, stored, points[1], name="other")

    expected = (
        stored,
        None,
        [
            (block, points[3], [(deeper, points[3] + 1, [])]),
            (other, points[1], []),
        ],
    )
    for member in (stored, block, deeper, other):
        assert _shape(lineage(store, member)) == expected
    assert (store.meta(deeper).parent, store.meta(block).parent) == (block, stored)
    assert [m for m in store.match_ids() if m != stored] == [block, deeper, other]


def test_fork_ids_stay_unique_when_a_name_or_point_is_reused(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    points = priority_points(small[1])

    named = [fork_match(store, stored, at, name="what") for at in points[:3]]
    unnamed = [fork_match(store, stored, points[0]) for _ in range(2)]

    assert named == [f"{stored}~what", f"{stored}~what.2", f"{stored}~what.3"]
    assert unnamed == [f"{stored}~{points[0]}", f"{stored}~{points[0]}.2"]
    assert [store.meta(f).fork_at for f in named] == points[:3]
    assert len(set(store.match_ids())) == len(store.match_ids()) == 6


def test_two_writers_forking_with_one_name_at_once_get_two_forks(
    shared_url: str, small: tuple[Path, list[EventRecord]]
) -> None:
    path, records = small
    match_id = records_of(path)[0].match_id
    at = priority_points(records)[0]
    with MatchStore.open(shared_url) as one, MatchStore.open(shared_url) as two:
        import_log(one, path)
        listed = two.list_matches()
        two.list_matches = lambda: listed  # type: ignore[method-assign]  # listed before one forks

        first = fork_match(one, match_id, at, name="race")
        second = fork_match(two, match_id, at, name="race")

    assert first != second


def test_an_illegal_decision_is_refused_citing_its_rule_and_nothing_is_stored(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    at = priority_points(small[1])[0]
    fork_id = fork_match(store, stored, at, name="illegal")
    unchanged = snapshot(store, fork_id)
    holder = state_at(store, fork_id).priority
    assert holder is not None
    supply = f'{{"type":"supply_chosen","player":"{holder}","option":"GOLD_2"}}'

    for decisions in ([supply], ["pass", supply], ["pass", "pass", "concede", "pass"]):
        with pytest.raises((IllegalEventError, UsageError)) as caught:
            play_decisions(store, fork_id, decisions, auto=3)
        if isinstance(caught.value, IllegalEventError):
            assert caught.value.violations
            assert all(v.rule in RULES for v in caught.value.violations)
        assert snapshot(store, fork_id) == unchanged

    with pytest.raises(IllegalEventError) as caught:
        play_decisions(store, fork_id, [supply])
    # named by the seq it would have had
    head = store.head(fork_id).seq
    assert str(caught.value).startswith(f"event {head + 1} (supply_chosen) breaks 1 rule: R-SUP-1 ")


def test_rulings_and_fork_markers_are_not_played(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    """A back-up or a second fork marker would make a record validation refuses (R-GEN-8):
    play refuses them, naming the way to do what was meant."""
    at = priority_points(small[1])[0]
    fork_id = fork_match(store, stored, at, name="rulings")
    unchanged = snapshot(store, fork_id)
    ruling = '{"type":"judge_ruling_issued","judge":"J","kind":"BACK_UP","reason":"x","back_to":3}'
    with pytest.raises(NotPlayableError, match=r"^decision 2 of 2: judge_ruling_issued is not"):
        play_decisions(store, fork_id, ["pass", ruling])
    with pytest.raises(NotPlayableError, match="match_forked is not played: a fork is made from"):
        play_decisions(store, fork_id, ['{"type":"match_forked","parent":"x","at":3}'])
    assert snapshot(store, fork_id) == unchanged


def test_an_unparsable_decision_stores_nothing(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    at = priority_points(small[1])[-1]
    fork_id = fork_match(store, stored, at, name="words")
    unchanged = snapshot(store, fork_id)

    for bad in ("fly away", "supply NINE_GOLD", "declare nocolon", '{"type":"nonsense"}', ""):
        with pytest.raises(UsageError):
            play_decisions(store, fork_id, ["pass", bad])
        assert snapshot(store, fork_id) == unchanged


def test_playing_appends_the_decisions_and_their_consequences(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]], tmp_path: Path
) -> None:
    at = priority_points(small[1])[0]
    fork_id = fork_match(store, stored, at, name="pass")

    result = play_decisions(store, fork_id, ["pass", "pass"])

    assert result.decisions == 2
    assert result.appended == len(result.events) >= 2
    assert result.head_seq == at + 1 + result.appended == store.head(fork_id).seq
    records = exported_ok(store, fork_id, tmp_path / "pass.jsonl")
    assert [r.event for r in records[at + 1 :]] == result.events
    meta = store.meta(fork_id)
    assert (meta.events, meta.head_hash) == (result.head_seq, records[-1].hash)
    assert meta.turns == state_at(store, fork_id).turn


def test_nothing_can_be_played_after_the_match_is_won(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    at = priority_points(small[1])[-1]
    fork_id = fork_match(store, stored, at, name="conceded")
    result = play_decisions(store, fork_id, ["concede"])
    assert result.victory == "CONCESSION"
    assert store.meta(fork_id).victory == "CONCESSION"
    unchanged = snapshot(store, fork_id)

    # the won match was sealed: nothing may follow its seal (not even an empty append)
    sealed_at = store.head(fork_id).seq
    with pytest.raises(SealedRecordError, match=rf"is sealed at seq {sealed_at}: "):
        play_decisions(store, fork_id, ["pass"])
    with pytest.raises(SealedRecordError):
        play_decisions(store, fork_id, [], auto=10)
    assert snapshot(store, fork_id) == unchanged


def test_a_second_writer_at_the_same_position_gets_a_conflict_and_writes_nothing(
    shared_url: str, small: tuple[Path, list[EventRecord]], tmp_path: Path
) -> None:
    path, records = small
    match_id = records_of(path)[0].match_id
    at = priority_points(records)[0]
    with MatchStore.open(shared_url) as one, MatchStore.open(shared_url) as two:
        import_log(one, path)
        fork_id = fork_match(one, match_id, at, name="race")
        append = two.append

        def append_after_the_other_writer(*args: object, **kwargs: object) -> object:
            play_decisions(one, fork_id, ["pass"], auto=2)  # gets there first
            return append(*args, **kwargs)  # type: ignore[arg-type]

        two.append = append_after_the_other_writer  # type: ignore[method-assign]
        won = None
        with pytest.raises(SequenceConflictError) as caught:
            won = play_decisions(two, fork_id, ["concede"])
        assert won is None
        assert caught.value.seq == at + 2

        head = one.head(fork_id)
        assert one.meta(fork_id).events == head.seq > at + 1
        assert one.meta(fork_id).victory is None  # the loser's concession is nowhere
        assert verify_match(two, fork_id).ok
        exported = exported_ok(one, fork_id, tmp_path / "race.jsonl")
        assert all(r.event.type != "conceded" for r in exported)
        stale = exported[at + 1]  # what a writer still at seq at + 1 would append
        with pytest.raises(SequenceConflictError):
            append(fork_id, [(b"{}", stale)], expected_seq=at + 1)
        assert one.head(fork_id) == head


SAMPLES = Path(__file__).parents[2] / "samples"


@pytest.mark.slow
@pytest.mark.parametrize(
    "sample", sorted(p.name for p in SAMPLES.glob("*.jsonl")), ids=lambda name: name[:-6]
)
def test_forks_of_every_sample_continue_legally(sample: str, tmp_path: Path) -> None:
    """Every priority point of the scripted samples (a sample of them in the long generated
    ones), including those after a judge's back-up, where the board is the restored one."""
    path = SAMPLES / sample
    parent_records = records_of(path)[1]
    parent = records_of(path)[0].match_id
    store = MatchStore.open("memory:")  # forking is the same on every backend (contract suite)
    import_log(store, path)
    points = [p.seq for p in seek.priority_points(parent_records)]
    if sample.startswith("generated-"):
        points = points[:: max(1, len(points) // 6)]
    for at in points:
        fork_id = fork_match(store, parent, at)
        play_decisions(store, fork_id, [], auto=6, seed=at)
        exported_ok(store, fork_id, tmp_path / f"fork-{at}.jsonl")


@pytest.mark.parametrize("name", ["bad name", "a~b", "", "x" * 41, "dé"])
def test_a_fork_name_that_cannot_be_part_of_an_id_is_refused(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]], name: str
) -> None:
    at = priority_points(small[1])[0]
    with pytest.raises(UsageError, match=r"fork name .*: use 1 to 40 letters"):
        fork_match(store, stored, at, name=name)
    assert fork_match(store, stored, at, name="ok-1.b_2") == f"{stored}~ok-1.b_2"
