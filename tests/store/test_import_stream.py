"""`MatchStore.import_stream`: a whole match, its registration and its snapshots in one
transaction, from iterables consumed once; and the streaming import built on it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import uuid4

import pytest

from tests.store.pg import postgres_server
from tests.store.records import synthetic_match
from vwlog.model.errors import UsageError
from vwlog.services import importing
from vwlog.services.importing import import_log
from vwlog.services.matches import verify_match
from vwlog.store import ImportOutcome, MatchStore
from vwlog.store.mapping import match_uuid
from vwlog.store.settings import settings_from_url

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.events import EventRecord

SAMPLES = Path(__file__).parents[2] / "samples"


@pytest.fixture
def pg_schema() -> Iterator[tuple[str, str]]:
    """``(DSN, schema)``: a fresh schema on the test server, dropped afterwards."""
    import psycopg
    from psycopg import sql

    server = postgres_server()
    name = f"vwlog_test_{uuid4().hex[:16]}"
    yield server, name
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


@pytest.fixture(params=["sqlite", "memory", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        server, schema = request.getfixturevalue("pg_schema")
        return f"{server}?schema={schema}"
    return f"sqlite:///{tmp_path / 'vwlog.db'}" if request.param == "sqlite" else "memory:"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store in a database (no ``memory:``)."""
    if request.param == "postgresql":
        server, schema = request.getfixturevalue("pg_schema")
        return f"{server}?schema={schema}"
    return f"sqlite:///{tmp_path / 'vwlog.db'}"


def test_a_streamed_import_stores_records_registration_and_snapshots(url: str) -> None:
    match = synthetic_match("m1", 2500)
    snapshots = [(seq, f"state {seq}".encode()) for seq in (1000, 2000)]
    with MatchStore.open(url) as store:
        outcome = store.import_stream(
            match.header, iter(match.lines), match.meta(), iter(snapshots)
        )
        assert outcome == ImportOutcome.STORED
        assert list(store.raw_lines("m1")) == [line for line, _ in match.lines]
        assert store.meta("m1") == match.meta()
        assert list(store.snapshots("m1")) == snapshots
        again = store.import_stream(match.header, iter(match.lines), match.meta())
        assert again == ImportOutcome.UNCHANGED


def _failing(
    lines: list[tuple[bytes, EventRecord]], at: int
) -> Iterator[tuple[bytes, EventRecord]]:
    for index, line in enumerate(lines):
        if index == at:
            raise OSError("the disk went away")
        yield line


def test_nothing_is_stored_when_the_records_fail_half_way(db_url: str) -> None:
    match = synthetic_match("m1", 2500)
    with MatchStore.open(db_url) as store:
        with pytest.raises(OSError, match="disk went away"):
            store.import_stream(match.header, _failing(match.lines, 1800), match.meta())
        assert store.match_ids() == []
        assert "m1" not in store
        store.import_stream(match.header, iter(match.lines), match.meta())
        assert store.head("m1").seq == 2500


def test_nothing_is_stored_when_the_snapshots_fail_half_way(db_url: str) -> None:
    match = synthetic_match("m1", 2500)

    def snapshots() -> Iterator[tuple[int, bytes]]:
        yield 1000, b"state 1000"
        raise OSError("the disk went away")

    with MatchStore.open(db_url) as store:
        with pytest.raises(OSError, match="disk went away"):
            store.import_stream(match.header, iter(match.lines), match.meta(), snapshots())
        assert "m1" not in store
        assert list(store._recorder.select_events(match_uuid("m1"))) == []


def _exclusive_locks(server: str, schema: str) -> int:
    """How many sessions hold the write lock on the schema's events table."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relname = 'vwlog_events' "
            "AND l.mode = 'ExclusiveLock' AND l.granted",
            (schema,),
        ).fetchone()
    return int(row[0]) if row else 0


@pytest.mark.postgres
def test_postgresql_receives_pages_before_the_last_line_is_read(
    pg_schema: tuple[str, str],
) -> None:
    # Holding a whole match in memory means reading every line before writing any: here the
    # database must already be inserting (its events table locked by the import's
    # transaction) while the lines are still being read, and show nothing until the commit.
    server, schema = pg_schema
    match = synthetic_match("m1", 3500)
    seen: dict[int, tuple[int, bool]] = {}

    with MatchStore.open(f"{server}?schema={schema}") as store:
        with MatchStore.open(f"{server}?schema={schema}") as other:

            def lines() -> Iterator[tuple[bytes, EventRecord]]:
                for index, line in enumerate(match.lines):
                    if index in (500, 2500):
                        seen[index] = (_exclusive_locks(server, schema), "m1" in other)
                    yield line

            outcome = store.import_stream(match.header, lines(), match.meta())
        assert outcome == ImportOutcome.STORED
        assert seen == {500: (1, False), 2500: (1, False)}
        assert [line for line, _ in store.lines("m1")] == [line for line, _ in match.lines]


@pytest.mark.parametrize("problem", ["fewer records", "snapshot past the end"])
def test_nothing_is_stored_when_the_metadata_or_a_snapshot_does_not_fit(
    url: str, problem: str
) -> None:
    match = synthetic_match("m1", 300)
    lines = match.lines[:-1] if problem == "fewer records" else match.lines
    snapshots = [(301, b"x")] if problem == "snapshot past the end" else []
    with MatchStore.open(url) as store:
        with pytest.raises(UsageError):
            store.import_stream(match.header, iter(lines), match.meta(), iter(snapshots))
        assert "m1" not in store
        assert store.match_ids() == []


def test_reimporting_the_same_file_is_recognised_before_validation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = SAMPLES / "full-combat.jsonl"
    with MatchStore.open(f"sqlite:///{tmp_path / 'vwlog.db'}") as store:
        first = import_log(store, log)
        assert first.outcome == "stored"
        assert store.meta(first.match_id or "").source_sha256 == importing.file_sha256(log)

        def no_replay(*_args: object, **_kwargs: object) -> None:
            raise AssertionError("validated again")

        monkeypatch.setattr(importing, "judge_and_measure", no_replay)
        again = import_log(store, log)
        assert (again.outcome, again.events) == ("unchanged", first.events)


def test_a_streamed_import_keeps_snapshots_that_check_out(tmp_path: Path) -> None:
    log = SAMPLES / "full-combat.jsonl"
    with MatchStore.open(f"sqlite:///{tmp_path / 'vwlog.db'}") as store:
        result = import_log(store, log, snapshot_every=50)
        match_id = result.match_id or ""
        assert [seq for seq, _ in store.snapshots(match_id)] == [50, 100, 150, 200]
        report = verify_match(store, match_id)
        assert report.ok
        assert report.derived == ()
        assert report.seal == "author"


@pytest.mark.postgres
def test_a_slowly_read_match_is_written_before_postgresql_ends_the_idle_transaction(
    pg_schema: tuple[str, str],
) -> None:
    # PostgreSQL ends a transaction idle for longer than idle_in_transaction_session_timeout
    # (1 s here): reading 300 lines takes 1.5 s, less than a page, so the import must write
    # what it has read before the page is full.
    server, schema = pg_schema
    url = f"{server}?schema={schema}"
    env = {**settings_from_url(url), "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "1"}
    match = synthetic_match("m1", 300)

    def slowly() -> Iterator[tuple[bytes, EventRecord]]:
        for line in match.lines:
            time.sleep(0.005)
            yield line

    with MatchStore(env, url=url) as store:
        assert store.import_stream(match.header, slowly(), match.meta()) == ImportOutcome.STORED
        assert store.head("m1").seq == 300
