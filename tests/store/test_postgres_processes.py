"""Several processes opening one PostgreSQL store at once: real server, real ``vwlog`` processes.

eventsourcing creates its tables (a composite type, tables, an index, a function) every time a
recorder is made, and PostgreSQL's catalog does not let two sessions do that at once ("tuple
concurrently updated", duplicate keys in ``pg_type``, "relation … already exists"). The store
serialises creation with an advisory lock per schema and skips it when the tables exist; these
tests start 4 processes on one fresh schema together, several times over, and require every one
of them to succeed.

The server is ``VWLOG_TEST_POSTGRES_DSN``; the tests skip without one (fail under CI).
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import uuid4

import orjson
import pytest

from vwlog.store import MatchStore
from vwlog.store.statsview import stats_schema

from .pg import postgres_server

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

pytestmark = pytest.mark.postgres

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
LOGS = [
    SAMPLES / f"{name}.jsonl"
    for name in ("register-lifo", "restrictions", "return-home", "triggers-and-auras")
]
"""One sample log per importing process."""
ROUNDS = 3
"""How often each race is run, on a new schema each time: the processes start within a
second of each other, so one round does not always make them collide."""
TIMEOUT = 180
"""Seconds a process may take (the processes share two cores with the rest of the suite)."""


def _drop(server: str, *schemas: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(server, autocommit=True) as conn:
        for name in schemas:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


@pytest.fixture
def server() -> str:
    return postgres_server()


@contextmanager
def _schemas(server: str, *, create: bool) -> Iterator[Callable[[], str]]:
    """Makes store URLs, each on a schema of its own: created empty, or (``create=False``) not
    created at all, so that the store creates it and the processes race on the schema as well
    as on the tables. Every schema is dropped afterwards, with the statistics view's."""
    import psycopg
    from psycopg import sql

    made: list[str] = []

    def make() -> str:
        name = f"vwlog_test_{uuid4().hex[:16]}"
        made.append(name)
        if create:
            with psycopg.connect(server, autocommit=True) as conn:
                conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
        return f"{server}?schema={name}"

    try:
        yield make
    finally:
        _drop(server, *made, *map(stats_schema, made))


@pytest.fixture(params=["empty schema", "missing schema"])
def new_url(request: pytest.FixtureRequest, server: str) -> Iterator[Callable[[], str]]:
    """Makes store URLs on new schemas, created empty or not at all."""
    with _schemas(server, create=request.param == "empty schema") as make:
        yield make


@pytest.fixture
def empty_url(server: str) -> Iterator[Callable[[], str]]:
    """Makes store URLs on new, empty schemas."""
    with _schemas(server, create=True) as make:
        yield make


def _run_together(url: str, commands: Sequence[Sequence[str]]) -> list[tuple[int, str, str]]:
    """Start ``vwlog --store URL <command>`` for every command at once; wait for all of them.

    Returns each process's exit code, stdout and stderr, in the order of ``commands``.
    """
    env = {k: v for k, v in os.environ.items() if k != "VWLOG_STORE"}
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "vwlog", "--store", url, *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for command in commands
    ]
    results = []
    try:
        for process in processes:
            out, err = process.communicate(timeout=TIMEOUT)
            results.append((process.returncode, out, err))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    return results


def _assert_all_succeeded(results: list[tuple[int, str, str]]) -> None:
    failures = [
        f"process {i} exited {code}: {err.strip()!r}"
        for i, (code, _out, err) in enumerate(results)
        if code != 0
    ]
    assert not failures, "\n".join(failures)
    assert not any("Traceback" in err for _code, _out, err in results)


def _match_id(log: Path) -> str:
    with log.open("rb") as file:
        return str(orjson.loads(file.readline())["match_id"])


def test_processes_importing_into_one_new_store_at_once_all_succeed(
    new_url: Callable[[], str],
) -> None:
    for _ in range(ROUNDS):
        url = new_url()
        results = _run_together(url, [["import", str(log)] for log in LOGS])

        _assert_all_succeeded(results)
        with MatchStore.open(url) as store:
            assert sorted(store.match_ids()) == sorted(_match_id(log) for log in LOGS)


def test_processes_reading_one_store_and_its_statistics_at_once_all_succeed(
    empty_url: Callable[[], str],
) -> None:
    # One process creates the store; then readers of the store (which used to re-create its
    # tables on every open) and of the statistics view (whose own schema is new) run together.
    for _ in range(ROUNDS):
        url = empty_url()
        _assert_all_succeeded(_run_together(url, [["import", *map(str, LOGS)]]))

        results = _run_together(url, [["list"], ["list"], ["stats"], ["stats"]])

        _assert_all_succeeded(results)
        (_, listing, _), (_, other_listing, _) = results[:2]
        assert listing == other_listing
        assert all(_match_id(log) in listing for log in LOGS)
        assert results[2][1] == results[3][1], "the two statistics reports differ"
        with MatchStore.open(url) as store:
            assert len(store.match_ids()) == len(LOGS)
            state = store.stats_view().load()
            assert state is not None
            assert state.position == store.position()
