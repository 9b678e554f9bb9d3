"""Following the store: positions and catalog changes, and the statistics view's own storage.

Every test runs on each backend: an SQLite file, a fresh PostgreSQL schema (skipped, saying
why, when no server answers; failed under CI, see `tests.store.pg`) and memory. The view of a
store in memory lives in that store's handle, so tests that reopen a store run on the shared
backends only.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING
from uuid import uuid4

import pytest

from vwlog.model.errors import StoreError, UsageError
from vwlog.store import MatchMeta, MatchStore, StatsViewStore, ViewConflictError
from vwlog.store.statsview import stats_path, stats_schema, view_settings

from .pg import DSN, postgres_server
from .records import continuation, synthetic_match

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

SQLITE, MEMORY = "sqlite", "memory"
POSTGRES = pytest.param("postgres", marks=pytest.mark.postgres)


def _server() -> str:
    return postgres_server()


def _drop(*schemas: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(DSN, autocommit=True) as conn:
        for name in schemas:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def _url(backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == SQLITE:
        yield f"sqlite:///{tmp_path / 'vwlog.db'}"
    elif backend == MEMORY:
        yield "memory:"
    else:
        server = _server()
        schema = f"vwlog_test_{uuid4().hex[:16]}"
        try:
            yield f"{server}?schema={schema}"
        finally:
            _drop(schema, stats_schema(schema))


@pytest.fixture(params=[SQLITE, POSTGRES, MEMORY])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend."""
    yield from _url(request.param, tmp_path)


@pytest.fixture(params=[SQLITE, POSTGRES])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend that outlives a handle."""
    yield from _url(request.param, tmp_path)


@pytest.fixture
def store(url: str) -> Iterator[MatchStore]:
    with MatchStore.open(url) as store:
        yield store


# -- following the store ---------------------------------------------------------------------


def test_an_empty_store_is_at_position_zero(store: MatchStore) -> None:
    assert store.position() == 0
    assert list(store.registrations_after(0)) == []
    assert list(store.catalog_changes()) == []
    assert store.fingerprint(0) is None
    assert store.fingerprint(1) is None


def test_registrations_come_in_order_with_their_positions(store: MatchStore) -> None:
    marks = []
    for name in ("a", "b", "c"):
        synthetic_match(name, 4).import_into(store)
        marks.append(store.position())
    found = list(store.registrations_after(0))
    assert [match_id for _, match_id in found] == ["a", "b", "c"]
    # A registration is written before its records, in the same transaction.
    assert [position for position, _ in found] == [marks[0] - 4, marks[1] - 4, marks[2] - 4]
    assert [m for _, m in store.registrations_after(found[0][0])] == ["b", "c"]
    assert [m for _, m in store.registrations_after(0, upto=found[1][0])] == ["a", "b"]
    assert list(store.registrations_after(store.position())) == []


def test_catalog_changes_carry_the_metadata_they_replace(store: MatchStore) -> None:
    match = synthetic_match("m", 3)
    match.import_into(store)
    registered = store.position()
    longer = continuation(match, 2)
    store.append("m", longer.lines[3:], expected_seq=3, meta=longer.meta(turns=1))
    store.update_meta(longer.meta(turns=1, flagged=True))
    changes = list(store.catalog_changes())
    assert [(c.match_id, c.previous is None) for c in changes] == [
        ("m", True),
        ("m", False),
        ("m", False),
    ]
    first, appended, updated = changes
    assert first.meta == match.meta()
    assert appended.previous == match.meta()
    assert appended.meta == longer.meta(turns=1)
    assert updated.previous == appended.meta
    assert updated.meta.flagged
    assert [c.position for c in changes] == sorted(c.position for c in changes)
    assert updated.position == store.position()
    assert list(store.catalog_changes(registered)) == changes[1:]
    assert list(store.catalog_changes(0, upto=first.position)) == [first]


def test_the_catalog_as_it_was_at_a_position(store: MatchStore) -> None:
    match = synthetic_match("m", 3)
    match.import_into(store)
    before = store.position()
    synthetic_match("n", 2).import_into(store)
    store.update_meta(match.meta(flagged=True))
    assert [m.match_id for m in store.list_matches(upto=before)] == ["m"]
    assert store.list_matches(upto=before)[0] == match.meta()
    assert [(m.match_id, m.flagged) for m in store.list_matches()] == [("m", True), ("n", False)]


def test_a_fingerprint_names_one_entry(store: MatchStore) -> None:
    synthetic_match("a", 2).import_into(store)
    synthetic_match("b", 2).import_into(store)
    prints = [store.fingerprint(p) for p in range(1, store.position() + 1)]
    assert None not in prints
    assert len(set(prints)) == len(prints)
    assert store.fingerprint(store.position() + 1) is None


def test_metadata_stored_before_metrics_were_kept_reads_without_them() -> None:
    old = {"match_id": "m", "players": ["p1"], "head_hash": "ab", "events": 0}
    assert MatchMeta.model_validate(old).metrics is None
    kept = MatchMeta.model_validate({**old, "metrics": {"events": 0}})
    assert kept.metrics == {"events": 0}


def test_metrics_round_trip_through_the_catalog(store: MatchStore) -> None:
    match = synthetic_match("m", 3)
    metrics = {"match_id": "m", "events": 3, "players": [{"player": "p1", "tempo": []}]}
    store.import_match(match.header, match.lines, match.meta(metrics=metrics))
    assert store.meta("m").metrics == metrics
    assert store.list_matches()[0].metrics == metrics


# -- where the view is kept ------------------------------------------------------------------


def test_view_storage_is_beside_the_store() -> None:
    assert stats_path("/data/vwlog.db") == "/data/vwlog.stats.db"
    assert stats_schema("club") == "club_stats"
    long = "s" * 63
    assert len(stats_schema(long)) <= 63
    assert stats_schema(long) != stats_schema(long[:-1] + "t")
    sqlite = view_settings(
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "/d/x.db"}
    )
    assert sqlite["SQLITE_DBNAME"] == "/d/x.stats.db"
    postgres = view_settings({"PERSISTENCE_MODULE": "eventsourcing.postgres"})
    assert postgres["POSTGRES_SCHEMA"] == "public_stats"


def test_an_sqlite_view_has_its_own_file(tmp_path: Path) -> None:
    with MatchStore.open(str(tmp_path / "club.db")) as store:
        synthetic_match("m", 2).import_into(store)
        store.stats_view().save(b"state", store.position(), base=None)
    with sqlite3.connect(tmp_path / "club.db") as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "tracking" not in tables
    with sqlite3.connect(tmp_path / "club.stats.db") as conn:
        rows = conn.execute("SELECT application_name, notification_id FROM tracking").fetchall()
    assert ("vwlog", 3) in rows


@pytest.mark.postgres
def test_a_postgres_view_has_its_own_schema() -> None:
    import psycopg

    server = _server()
    schema = f"vwlog_test_{uuid4().hex[:16]}"
    try:
        with MatchStore.open(f"{server}?schema={schema}") as store:
            store.stats_view().save(b"state", 0, base=None)
        with psycopg.connect(server) as conn:
            rows = conn.execute(
                "SELECT table_schema, table_name FROM information_schema.tables "
                "WHERE table_schema IN (%s, %s)",
                (schema, f"{schema}_stats"),
            ).fetchall()
        assert set(rows) == {
            (schema, "vwlog_events"),
            (schema, "vwlog_snapshots"),
            (f"{schema}_stats", "vwlog_stats_events"),
            (f"{schema}_stats", "vwlog_stats_tracking"),
        }
    finally:
        _drop(schema, stats_schema(schema))


# -- the view's states -----------------------------------------------------------------------


def test_an_empty_view(store: MatchStore) -> None:
    view = store.stats_view()
    assert store.stats_view() is view
    assert view.position() == 0
    assert view.load() is None


def test_a_state_is_kept_with_its_position(store: MatchStore) -> None:
    view = store.stats_view()
    first = view.save(b"one", 5, base=None)
    assert (first.version, first.epoch, first.position) == (1, 0, 5)
    assert view.load() == first
    assert view.position() == 5
    second = view.save(b"two" * 10_000, 9, base=first)
    assert view.load() == second
    assert view.position() == 9


def test_a_save_on_a_stale_state_is_refused_and_writes_nothing(store: MatchStore) -> None:
    view = store.stats_view()
    first = view.save(b"one", 5, base=None)
    second = view.save(b"two", 7, base=first)
    with pytest.raises(ViewConflictError):
        view.save(b"late", 9, base=first)
    with pytest.raises(ViewConflictError):
        view.save(b"late", 9, base=None)
    assert view.load() == second


def test_a_state_must_move_past_its_base(store: MatchStore) -> None:
    view = store.stats_view()
    first = view.save(b"one", 5, base=None)
    with pytest.raises(UsageError):
        view.save(b"same", 5, base=first)
    with pytest.raises(UsageError):
        view.save(b"back", 3, base=first)
    assert view.load() == first


def test_a_restart_starts_a_new_epoch_at_any_position(store: MatchStore) -> None:
    view = store.stats_view()
    first = view.save(b"one", 5, base=None)
    again = view.save(b"rebuilt", 5, base=first, restart=True)
    assert (again.epoch, again.version, again.position) == (1, 2, 5)
    lower = view.save(b"other store", 2, base=again, restart=True)
    assert (lower.epoch, lower.position) == (2, 2)
    assert view.load() == lower
    assert view.position() == 2
    onwards = view.save(b"onwards", 4, base=lower)
    assert (onwards.epoch, onwards.position) == (2, 4)


def test_advancing_moves_the_position_without_a_new_state(store: MatchStore) -> None:
    view = store.stats_view()
    first = view.save(b"one", 5, base=None)
    assert view.advance(first, 8)
    assert view.load() == first._replace(position=8)
    assert not view.advance(first, 7)
    assert view.position() == 8
    # A save built on the advanced state moves on from there.
    later = view.save(b"two", 9, base=view.load())
    assert view.load() == later


def test_a_closed_view_refuses_work(store: MatchStore) -> None:
    view = store.stats_view()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        view.position()
    with pytest.raises(StoreError, match="closed"):
        store.stats_view()


def test_a_view_outlives_its_handle(shared_url: str) -> None:
    with MatchStore.open(shared_url) as store:
        saved = store.stats_view().save(b"kept", 4, base=None)
    with MatchStore.open(shared_url) as store:
        assert store.stats_view().load() == saved
    with StatsViewStore.open(shared_url) as view:
        assert view.load() == saved


def test_two_handles_race_and_one_wins(shared_url: str) -> None:
    with MatchStore.open(shared_url) as one, MatchStore.open(shared_url) as two:
        first = one.stats_view().save(b"one", 3, base=None)
        base_one, base_two = one.stats_view().load(), two.stats_view().load()
        assert base_one == base_two == first
        won = two.stats_view().save(b"two wins", 6, base=base_two)
        with pytest.raises(ViewConflictError):
            one.stats_view().save(b"one loses", 7, base=base_one)
        assert one.stats_view().load() == won


def test_the_memory_view_lives_with_its_store() -> None:
    with MatchStore.open("memory:") as store:
        store.stats_view().save(b"x", 1, base=None)
        assert store.stats_view().position() == 1
    with MatchStore.open("memory:") as store:
        assert store.stats_view().load() is None


def test_a_view_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    (tmp_path / "vwlog.stats.db").write_bytes(b"not a database" * 100)
    with MatchStore.open(str(tmp_path / "vwlog.db")) as store:
        with pytest.raises(StoreError, match="cannot open"):
            store.stats_view()
        assert store.match_ids() == []
