"""The tests' PostgreSQL database is their own: named for the run (or by
VWLOG_TEST_POSTGRES_DB), created on first use, dropped at the end, never the server's ``test``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from . import pg

ROOT = Path(__file__).resolve().parents[2]


def test_the_tests_connect_to_a_database_of_their_own() -> None:
    name = urlsplit(pg.DSN).path.lstrip("/")
    assert name == pg.DATABASE
    assert name not in ("test", "postgres", urlsplit(pg.SERVER).path.lstrip("/"))
    if os.environ.get("_VWLOG_TEST_POSTGRES_DB_CHOSEN") != name:
        pytest.skip("VWLOG_TEST_POSTGRES_DB names the database of this run")
    assert name.startswith("vwlog_test_")


def test_the_name_is_passed_on_to_the_processes_the_tests_start() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from tests.store import pg; print(pg.DSN)"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == pg.DSN


def test_another_name_is_taken_from_the_environment(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("_VWLOG_TEST_POSTGRES")}
    env["VWLOG_TEST_POSTGRES_DB"] = "vwlog_elsewhere"
    env["VWLOG_TEST_POSTGRES_DSN"] = "postgresql://u@db.example:6543/admin?sslmode=disable"
    done = subprocess.run(
        [sys.executable, "-c", "from tests.store import pg; print(pg.DSN, pg.NAMED)"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == [
        "postgresql://u@db.example:6543/vwlog_elsewhere?sslmode=disable",
        "True",
    ]


def test_two_runs_get_two_names() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("_VWLOG_TEST", "VWLOG_TEST"))}
    names = {
        subprocess.run(
            [sys.executable, "-c", "from tests.store import pg; print(pg.DATABASE)"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for _ in range(2)
    }
    assert len(names) == 2
    assert all(name.startswith("vwlog_test_") for name in names)


@pytest.mark.postgres
def test_the_database_exists_once_a_test_asks_for_postgresql() -> None:
    import psycopg

    dsn = pg.postgres_server()
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT current_database()").fetchone()
    assert row == (pg.DATABASE,)
    assert pg.summary() is not None
    assert pg.DATABASE in (pg.summary() or "")


@pytest.mark.postgres
def test_a_database_this_run_created_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drop, on a database made for this test alone (the run's own stays until the end)."""
    import psycopg
    from psycopg import sql

    pg.postgres_server()  # a skip (a failure under CI) without a server
    name = f"{pg.DATABASE}_drop"
    with psycopg.connect(pg.SERVER, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    monkeypatch.setattr(pg, "DATABASE", name)
    monkeypatch.setattr(pg, "STATE", pg._State(ready=True, created=True))
    pg.drop_test_database()
    with psycopg.connect(pg.SERVER) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
    assert found is None
    assert "created and dropped" in (pg.summary() or "")
