"""Many Dask workers importing into one PostgreSQL store, and measuring from it: real server,
real worker processes. Skips without a server (fails under CI), like tests/store."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import uuid4

import orjson
import pytest

from vwlog.cli import main
from vwlog.store import MatchStore
from vwlog.store.statsview import stats_schema

from ..store.pg import postgres_server
from .conftest import CORPUS_SIZE, logs, run

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from click.testing import CliRunner

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def new_url() -> Iterator[Callable[[], str]]:
    """Makes store URLs, each on a schema of its own, dropped afterwards (with its view's)."""
    import psycopg
    from psycopg import sql

    server = postgres_server()
    made: list[str] = []

    def make() -> str:
        made.append(f"vwlog_test_{uuid4().hex[:16]}")
        return f"{server}?schema={made[-1]}"

    yield make
    with psycopg.connect(server, autocommit=True) as conn:
        for name in [*made, *map(stats_schema, made)]:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def test_workers_import_into_one_store_as_one_process_does(
    runner: CliRunner, corpus: Path, dask_cluster: str, new_url: Callable[[], str]
) -> None:
    alone, spread = new_url(), new_url()
    run(runner, "--store", alone, "import", "-q", str(corpus))
    run(runner, "--store", spread, "import", "-q", "--cluster", dask_cluster, str(corpus))
    listed = [
        orjson.loads(run(runner, "--store", url, "list", "--format", "json"))
        for url in (alone, spread)
    ]
    assert len(listed[0]) == CORPUS_SIZE
    key = lambda m: m["match_id"]  # noqa: E731
    assert sorted(listed[1], key=key) == sorted(listed[0], key=key)
    with MatchStore.open(alone) as one, MatchStore.open(spread) as other:
        for match_id in one.match_ids():
            assert list(other.raw_lines(match_id)) == list(one.raw_lines(match_id))
    # a second import from the workers stores nothing: each match is there, whole, once
    again = runner.invoke(
        main,
        ["--store", spread, "import", "--cluster", dask_cluster, *logs(corpus)],
    )
    assert again.exit_code == 0, again.stderr
    assert f"{CORPUS_SIZE} logs: 0 stored, {CORPUS_SIZE} unchanged" in again.stderr


def test_workers_fetch_stored_matches_and_measure_them(
    runner: CliRunner, corpus: Path, dask_cluster: str, new_url: Callable[[], str], tmp_path: Path
) -> None:
    url = new_url()
    run(runner, "--store", url, "import", "-q", str(corpus))
    from_view = run(runner, "--store", url, "stats", "--format", "json")
    replayed = run(runner, "--store", url, "stats", "--format", "json", "--cluster", dask_cluster)
    assert replayed == from_view
    assert replayed == run(runner, "stats", "--format", "json", str(corpus))
    per_match = run(
        runner,
        "--store",
        url,
        "stats",
        "--per-match",
        "--format",
        "json",
        "--cluster",
        dask_cluster,
        "--parquet",
        str(tmp_path / "t"),
    )
    assert len(orjson.loads(per_match)) == CORPUS_SIZE
    assert len(list((tmp_path / "t" / "matches").glob("*/*.parquet"))) == 1
