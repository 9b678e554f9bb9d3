"""The statistics read model: per-match metrics kept at import, and corpus statistics that follow
the store incrementally, survive restarts and kills, and always equal a rebuild from scratch.

Matches are generated under a quick ruleset (a match takes a few hundredths of a second to
generate and to import) so a thousand of them fit in a test. Backends: an SQLite file, a fresh
PostgreSQL schema (skipped, saying why, when no server answers) and memory; tests that reopen a
store or kill a process run on the shared backends only.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
from typing import TYPE_CHECKING, Any

import pytest

from vwlog.cli import main
from vwlog.cli.stats import match_metrics
from vwlog.engine.replay import Validator, replay
from vwlog.games.vw.simulate import simulate
from vwlog.io.logfile import read_log, write_log
from vwlog.model.cards import Ruleset
from vwlog.projections.stats import CorpusStats, MatchMetrics, StatsFilter
from vwlog.services import sealed
from vwlog.services import stats as view_service
from vwlog.services.forks import fork_match
from vwlog.services.importing import import_log
from vwlog.services.integrity import check_derived
from vwlog.services.play import play_decisions
from vwlog.services.stats import (
    UNMEASURABLE,
    catch_up,
    corpus_stats,
    metrics_dump,
    rebuild,
    refresh,
    stored_metrics,
    withdraw,
)
from vwlog.services.storing import meta_from
from vwlog.store import MatchStore
from vwlog.store.statsview import stats_path, stats_schema

from .support import fresh_schema, pool, postgres_dsn, priority_points, records_of

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path

    from click.testing import CliRunner

QUICK = Ruleset(id="quick-view", victory_vp=1, victory_territories=2, victory_honor=10)
"""Low victory thresholds: a generated match ends in about 4 turns (~260 events), by every
victory type."""
SEED = 11


# -- matches and stores ----------------------------------------------------------------------


def write_matches(directory: Path, first: int, n: int, *, max_turns: int = 60) -> list[Path]:
    """Generate matches ``first`` .. ``first + n - 1`` of the seed as sealed logs."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(first, first + n):
        path = directory / f"m{index:05d}.jsonl"
        if not path.exists():
            match = simulate(pool(), seed=SEED, index=index, ruleset=QUICK, max_turns=max_turns)
            write_log(path, *sealed(match.header, match.records))
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Thirty generated logs, shared by the module's tests."""
    return write_matches(tmp_path_factory.mktemp("view-logs"), 0, 30)


def _url(backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'vwlog.db'}"
    elif backend == "memory":
        yield "memory:"
    else:
        with fresh_schema(postgres_dsn()) as url:
            try:
                yield url
            finally:
                _drop_schema(stats_schema(url.rpartition("schema=")[2]))


def _drop_schema(name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(postgres_dsn(), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


POSTGRES = pytest.param("postgres", marks=pytest.mark.postgres)


@pytest.fixture(params=["sqlite", POSTGRES, "memory"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend (its statistics view cleaned up too)."""
    yield from _url(request.param, tmp_path)


@pytest.fixture(params=["sqlite", POSTGRES])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend that outlives a handle and can be shared by processes."""
    yield from _url(request.param, tmp_path)


def canonical(stats: CorpusStats) -> str:
    """An aggregate as canonical JSON, to compare two of them whole."""
    return stats.canonical().model_dump_json()


def from_files(paths: Sequence[Path], filters: StatsFilter | None = None) -> CorpusStats:
    """What ``vwlog stats LOG...`` computes: every file replayed."""
    return CorpusStats.build((match_metrics(p) for p in paths), filters)


def import_all(store: MatchStore, paths: Sequence[Path]) -> None:
    for path in paths:
        assert import_log(store, path).outcome == "stored"


def assert_current(store: MatchStore, stats: CorpusStats) -> None:
    """The view is at the store's position, and equals a rebuild from scratch."""
    assert store.stats_view().position() == store.position()
    rebuilt = rebuild(store)
    assert canonical(rebuilt.stats) == canonical(stats)
    assert rebuilt.replayed == len(store.match_ids())


# -- per-match metrics at import -------------------------------------------------------------


def test_import_keeps_the_metrics_of_its_replay(url: str, logs: list[Path]) -> None:
    with MatchStore.open(url) as store:
        import_all(store, logs[:3])
        for path in logs[:3]:
            expected = match_metrics(path)
            meta = store.meta(expected.match_id)
            assert meta.metrics == metrics_dump(expected)
            assert stored_metrics(meta) == expected
            # the points per turn in columns: a list per field, not a mapping per turn
            kept = meta.metrics["players"][0]["tempo"]
            assert kept["turn"] == [p.turn for p in expected.players[0].tempo]
            assert kept["gold"] == [p.gold for p in expected.players[0].tempo]


def test_metrics_kept_as_a_list_of_points_still_read_and_verify(url: str, logs: list[Path]) -> None:
    """An entry stored before the points were kept in columns reads as it did, and verify
    takes it for what it is: the same statistics."""
    with MatchStore.open(url) as store:
        import_all(store, logs[:1])
        expected = match_metrics(logs[0])
        meta = store.meta(expected.match_id)
        older = meta.model_copy(update={"metrics": expected.model_dump(mode="json")})
        store.update_meta(older)
        assert isinstance(store.meta(expected.match_id).metrics["players"][0]["tempo"], list)
        assert stored_metrics(store.meta(expected.match_id)) == expected
        assert check_derived(store, expected.match_id) == []


def test_a_fork_keeps_the_metrics_of_its_records(url: str, logs: list[Path]) -> None:
    with MatchStore.open(url) as store:
        import_all(store, logs[:1])
        header, records = records_of(logs[0])
        fork_id = fork_match(store, header.match_id, priority_points(records)[3])
        meta = store.meta(fork_id)
        measured = stored_metrics(meta)
        assert measured is not None
        assert measured == view_service.replay_metrics(store, meta)
        assert (measured.match_id, measured.events) == (fork_id, meta.events)


# -- incremental == rebuilt ------------------------------------------------------------------


def test_batches_counted_incrementally_equal_a_rebuild(url: str, logs: list[Path]) -> None:
    with MatchStore.open(url) as store:
        for start in range(0, 30, 10):
            import_all(store, logs[start : start + 10])
            done = catch_up(store)
            assert (done.added, done.updated, done.replayed) == (10, 0, 0)
            assert done.saved
            assert done.position == store.position()
            assert done.stats.matches == start + 10
        incremental = refresh(store)
        assert canonical(incremental) == canonical(from_files(logs))
        assert_current(store, incremental)
        # The rebuilt state is the view now; nothing new means nothing saved.
        again = catch_up(store)
        assert (again.added, again.saved) == (0, False)
        assert canonical(again.stats) == canonical(incremental)


@pytest.mark.slow
def test_a_thousand_matches_in_batches_of_a_hundred(tmp_path: Path) -> None:
    """1,000 generated matches imported 100 at a time into an SQLite store, the view refreshed
    after each batch (and the store reopened half-way): the view equals a rebuild."""
    url = f"sqlite:///{tmp_path / 'vwlog.db'}"
    counted = 0
    store = MatchStore.open(url)
    try:
        for batch in range(10):
            if batch == 5:
                store.close()
                store = MatchStore.open(url)
            paths = write_matches(tmp_path / "logs", batch * 100, 100)
            import_all(store, paths)
            done = catch_up(store)
            assert (done.added, done.replayed) == (100, 0)
            assert done.position == store.position()
            counted += done.added
            assert done.stats.matches + done.stats.skipped.get(UNMEASURABLE, 0) == counted
        assert_current(store, refresh(store))
    finally:
        store.close()


# -- resuming --------------------------------------------------------------------------------


def test_a_restarted_follower_adds_only_the_new_matches(shared: str, logs: list[Path]) -> None:
    with MatchStore.open(shared) as store:
        import_all(store, logs[:5])
        first = catch_up(store)
        assert first.added == 5
        position = first.position
    with MatchStore.open(shared) as store:
        assert store.stats_view().position() == position
        import_all(store, logs[5:8])
        done = catch_up(store)
        assert (done.added, done.replayed) == (3, 0)
        assert done.position == store.position() > position
        assert_current(store, done.stats)


def test_a_follower_in_another_process_sees_the_same_view(shared: str, logs: list[Path]) -> None:
    with MatchStore.open(shared) as one, MatchStore.open(shared) as two:
        import_all(one, logs[:4])
        assert catch_up(one).added == 4
        import_all(two, logs[4:6])
        assert catch_up(two).added == 2
        # The first handle takes up the second's save: nothing left to add.
        done = catch_up(one)
        assert (done.added, done.saved) == (0, False)
        assert canonical(done.stats) == canonical(from_files(logs[:6]))


def test_losing_a_save_redoes_the_catch_up_on_the_winner(
    shared: str, logs: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    with MatchStore.open(shared) as store, MatchStore.open(shared) as rival:
        import_all(store, logs[:3])
        catch_up(store)
        import_all(store, logs[3:5])
        real_keep = view_service._keep
        raced: list[Any] = []

        def keep_after_a_rival(*args: Any, **kwargs: Any) -> bool:
            if not raced:
                raced.append(None)
                raced[0] = catch_up(rival)  # saves first, on the same base
            return real_keep(*args, **kwargs)

        monkeypatch.setattr(view_service, "_keep", keep_after_a_rival)
        done = catch_up(store)
        assert raced[0].added == 2
        assert (done.added, done.saved) == (0, False)  # the retry found the rival's state
        assert canonical(done.stats) == canonical(from_files(logs[:5]))


# -- interruptions ---------------------------------------------------------------------------


def test_an_interrupted_catch_up_changes_nothing(
    url: str, logs: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    with MatchStore.open(url) as store:
        import_all(store, logs[:4])
        catch_up(store)
        before = store.stats_view().load()
        import_all(store, logs[4:8])
        real = view_service._Folds.metrics
        calls = []

        def fail_on_the_third(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            if len(calls) == 3:
                raise KeyboardInterrupt
            return real(*args, **kwargs)

        monkeypatch.setattr(view_service._Folds, "metrics", fail_on_the_third)
        with pytest.raises(KeyboardInterrupt):
            catch_up(store)
        assert store.stats_view().load() == before
        monkeypatch.undo()
        assert catch_up(store).added == 4
        assert_current(store, refresh(store))


def refresh_and_die(url: str) -> None:
    """Catch up, and be killed (SIGKILL) inside the transaction that saves the view: after the
    new state and its tracking row are written, before the commit."""

    def die(*_args: object, **_kwargs: object) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    if url.startswith("sqlite"):
        from eventsourcing.sqlite import SQLiteProcessRecorder

        original = SQLiteProcessRecorder._insert_events

        def insert_then_die(self: Any, *args: Any, **kwargs: Any) -> Any:
            original(self, *args, **kwargs)
            die()

        SQLiteProcessRecorder._insert_events = insert_then_die  # type: ignore[method-assign]
    else:
        from eventsourcing.postgres import PostgresProcessRecorder

        pg_original = PostgresProcessRecorder._insert_stored_events

        def pg_insert_then_die(self: Any, *args: Any, **kwargs: Any) -> Any:
            pg_original(self, *args, **kwargs)
            die()

        PostgresProcessRecorder._insert_stored_events = pg_insert_then_die  # type: ignore[method-assign]
    with MatchStore.open(url) as store:
        catch_up(store)


def test_a_refresh_killed_while_saving_leaves_the_previous_state(
    shared: str, logs: list[Path]
) -> None:
    with MatchStore.open(shared) as store:
        import_all(store, logs[:6])
        before = catch_up(store)
        saved = store.stats_view().load()
        import_all(store, logs[6:10])
    worker = multiprocessing.get_context("spawn").Process(target=refresh_and_die, args=(shared,))
    worker.start()
    worker.join(120)
    assert worker.exitcode == -signal.SIGKILL
    if shared.startswith("sqlite"):
        path = shared.removeprefix("sqlite:///")
        with sqlite3.connect(stats_path(path)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with MatchStore.open(shared) as store:
        view = store.stats_view()
        assert view.load() == saved
        assert view.position() == before.position
        done = catch_up(store)
        assert (done.added, done.saved) == (4, True)
        assert_current(store, done.stats)


# -- matches that change after they were counted ---------------------------------------------


def test_a_match_played_on_is_counted_as_it_is_now(url: str, tmp_path: Path) -> None:
    short = write_matches(tmp_path / "short", 0, 2, max_turns=1)
    with MatchStore.open(url) as store:
        import_all(store, short)
        first = catch_up(store)
        match_id = read_log(short[0])[0].match_id
        assert first.stats.finished == 0
        played = play_decisions(store, match_id, [], auto=2000)
        assert played.winner is not None
        done = catch_up(store)
        assert (done.added, done.updated) == (0, 1)
        assert done.replayed >= 1  # the appended match's kept metrics no longer fit it
        assert done.stats.finished == 1
        assert_current(store, done.stats)


def test_new_metadata_for_the_same_records_changes_nothing(url: str, logs: list[Path]) -> None:
    with MatchStore.open(url) as store:
        import_all(store, logs[:2])
        first = catch_up(store)
        meta = store.meta(read_log(logs[0])[0].match_id)
        store.update_meta(meta.model_copy(update={"flagged": True}))
        done = catch_up(store)
        assert (done.added, done.updated, done.replayed, done.saved) == (0, 0, 0, False)
        assert done.position == store.position() > first.position
        assert canonical(done.stats) == canonical(first.stats)


def test_entries_without_metrics_are_measured_by_replaying(url: str, logs: list[Path]) -> None:
    with MatchStore.open(url) as store:
        for path in logs[:3]:
            header, records = read_log(path)
            report = replay(records, Validator(), header=header)
            lines = [(line, r) for line, r in zip(_lines(path), records, strict=True)]
            meta = meta_from(header, report, records[-1].hash or "", events=len(records))
            assert meta.metrics is None  # as vwlog stored it before it kept metrics
            store.import_match(header, lines, meta)
        done = catch_up(store)
        assert (done.added, done.replayed) == (3, 3)
        assert canonical(done.stats) == canonical(from_files(logs[:3]))


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()[1:]


def test_a_match_without_records_is_counted_as_skipped(url: str) -> None:
    from vwlog.events import LogHeader
    from vwlog.io import codec

    with MatchStore.open(url) as store:
        header = codec.seal_header(LogHeader(match_id="empty"))
        report = replay([], Validator(), header=header)
        store.import_match(header, [], meta_from(header, report, header.hash or "", events=0))
        done = catch_up(store)
        assert done.stats.matches == 0
        assert done.stats.skipped == {UNMEASURABLE: 1}
        assert_current(store, done.stats)


def test_withdrawing_a_match_leaves_the_aggregate_of_the_others(logs: list[Path]) -> None:
    metrics = [match_metrics(p) for p in logs[:8]]
    for gone in (0, 3, 7):
        stats = CorpusStats.build(metrics)
        withdraw(stats, metrics[gone])
        others = CorpusStats.build(m for i, m in enumerate(metrics) if i != gone)
        assert canonical(stats) == canonical(others)


# -- a view that does not describe the store -------------------------------------------------


def test_a_view_left_beside_a_replaced_store_starts_again(tmp_path: Path, logs: list[Path]) -> None:
    path = tmp_path / "vwlog.db"
    with MatchStore.open(str(path)) as store:
        import_all(store, logs[:6])
        catch_up(store)
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"vwlog.db{suffix}").unlink(missing_ok=True)
    with MatchStore.open(str(path)) as store:  # a new store, the old view still beside it
        import_all(store, logs[10:12])
        done = catch_up(store)
        assert done.restarted is not None
        assert "ahead" in done.restarted
        assert canonical(done.stats) == canonical(from_files(logs[10:12]))
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"vwlog.db{suffix}").unlink(missing_ok=True)
    with MatchStore.open(str(path)) as store:  # as long as the old one: only the anchor tells
        import_all(store, logs[20:26])
        done = catch_up(store)
        assert done.restarted is not None
        assert "another store" in done.restarted
        assert_current(store, done.stats)


# -- filters ---------------------------------------------------------------------------------


def test_filters_are_applied_to_the_kept_per_match_metrics(url: str, logs: list[Path]) -> None:
    filters = StatsFilter(player="p1", faction=None, ruleset="quick-view", since=None)
    with MatchStore.open(url) as store:
        import_all(store, logs[:8])
        filtered = corpus_stats(store, filters)
        assert canonical(filtered) == canonical(from_files(logs[:8], filters))
        assert filtered.filters == filters
        assert store.stats_view().load() is None  # filtered figures leave the view alone
        assert canonical(corpus_stats(store)) == canonical(from_files(logs[:8]))


# -- the command -----------------------------------------------------------------------------


def test_vwlog_stats_reads_the_store_as_it_reads_files(
    runner: CliRunner, tmp_path: Path, logs: list[Path]
) -> None:
    db = str(tmp_path / "vwlog.db")
    with MatchStore.open(db) as store:
        import_all(store, logs[:12])
    files = [str(p) for p in logs[:12]]
    for output in (["--format", "json"], ["--format", "csv"], ["--min-n", "2"]):
        from_store = runner.invoke(main, ["--store", db, "stats", *output])
        assert from_store.exit_code == 0, from_store.stderr
        assert from_store.stdout == runner.invoke(main, ["stats", *files, *output]).stdout
    per_match = runner.invoke(main, ["--store", db, "stats", "--per-match", "--format", "json"])
    parsed = [MatchMetrics.model_validate(m) for m in json.loads(per_match.stdout)]
    assert parsed == [match_metrics(p) for p in logs[:12]]
    player = runner.invoke(main, ["--store", db, "stats", "--player", "p2", "--format", "json"])
    assert (
        player.stdout
        == runner.invoke(main, ["stats", *files, "--player", "p2", "--format", "json"]).stdout
    )
    rebuilt = runner.invoke(main, ["--store", db, "stats", "--rebuild", "--format", "json"])
    assert rebuilt.exit_code == 0, rebuilt.stderr
    assert "rebuilt the statistics of 12 stored matches" in rebuilt.stderr
    assert rebuilt.stdout == runner.invoke(main, ["stats", *files, "--format", "json"]).stdout


def test_vwlog_stats_on_an_empty_store_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    MatchStore.open(str(db)).close()
    result = runner.invoke(main, ["--store", str(db), "stats"])
    assert result.exit_code == 2
    assert "no matches stored" in result.stderr
    assert not (tmp_path / "new.stats.db").exists()


def test_vwlog_stats_without_logs_or_a_store_is_a_usage_error(
    runner: CliRunner, tmp_path: Path
) -> None:
    missing = tmp_path / "missing.db"
    result = runner.invoke(main, ["--store", str(missing), "stats"])
    assert result.exit_code == 2
    assert "give LOG files" in result.stderr
    assert not missing.exists()
    assert not (tmp_path / "missing.stats.db").exists()


def test_rebuild_takes_no_log_files(runner: CliRunner, logs: list[Path]) -> None:
    result = runner.invoke(main, ["stats", "--rebuild", str(logs[0])])
    assert result.exit_code == 2
    assert "--rebuild" in result.stderr


def test_one_more_match_is_one_more_catalog_entry_read(
    tmp_path: Path, logs: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Importing one more match does not recompute the corpus: the catch-up reads the catalog
    from the view's position on, and counts the new match from its kept metrics."""
    with MatchStore.open(str(tmp_path / "vwlog.db")) as store:
        import_all(store, logs[:20])
        position = catch_up(store).position
        import_all(store, logs[20:21])
        read: list[Any] = []
        real = store.catalog_changes

        def spy(after: int = 0, *, upto: int | None = None) -> Iterator[Any]:
            for change in real(after, upto=upto):
                read.append(change)
                yield change

        monkeypatch.setattr(store, "catalog_changes", spy)
        done = catch_up(store)
        assert (done.added, done.replayed, done.stats.matches) == (1, 0, 21)
        assert [c.match_id for c in read] == [read_log(logs[20])[0].match_id]
        assert read[0].position > position
