"""``vwlog verify`` on many stored matches holds a bounded number of PostgreSQL connections.

It used to open the store once per match named and keep every one open until it exited
(about four backends per match): 40 matches gave "too many clients", exit 2 and no JSON. The
test imports 200 small matches into a fresh schema, runs ``vwlog verify`` on all of them as a
real process, and samples ``pg_stat_activity`` for that process's connections (told apart by
their ``application_name``) until it exits: the peak must be the same as for one match.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import uuid4

import pytest

from tests.store.pg import postgres_server

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.postgres

MATCHES = 200
ROOT = Path(__file__).resolve().parents[2]
BOUND = 6
"""Most backends one run may hold: its store's pool as one command uses it, the statistics
view's, and the short probe that opens a store (4 measured, for 1 match as for 200)."""


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str], Path]]:
    """A fresh schema holding 200 small simulated matches (dropped afterwards), and their
    ids."""
    import psycopg
    from psycopg import sql

    server = postgres_server()
    schema = f"vwlog_conn_{uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    url = f"{server}?schema={schema}"
    folder = tmp_path_factory.mktemp("corpus")
    key = folder / "store.key"
    try:
        _vwlog(
            ["simulate", "--seed", "4", "-n", str(MATCHES), "--max-turns", "1", "-o", "c"], folder
        )
        _vwlog(["--store", url, "import", "-q", "c"], folder, key=key)
        listed = _vwlog(["--store", url, "list", "--format", "json"], folder, key=key)
        ids = [row["match_id"] for row in json.loads(listed)]
        assert len(ids) == MATCHES
        yield url, ids, key
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            for name in (schema, f"{schema}_stats"):
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name))
                )


def _env(key: Path | None, app: str | None = None) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if key is not None:
        env["VWLOG_STORE_KEY"] = str(key)
    if app is not None:
        env["PGAPPNAME"] = app  # libpq names every connection of the process so
    return env


def _vwlog(args: list[str], cwd: Path, *, key: Path | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        cwd=cwd,
        env=_env(key),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


def _peak_while_verifying(
    url: str, ids: list[str], folder: Path, key: Path
) -> tuple[int, int, list[object]]:
    """Run ``vwlog verify --format json`` on ``ids``; the most backends its connections held
    at any sample, its exit status and its JSON. Samples are taken until the process exits,
    one every few milliseconds (a wait on the process that ends early when it does)."""
    import psycopg

    app = f"vwlog-verify-{uuid4().hex[:8]}"
    out, err = folder / f"{app}.json", folder / f"{app}.err"
    dsn = url.partition("?")[0]
    peak = 0
    with (
        out.open("wb") as stdout,
        err.open("wb") as stderr,
        psycopg.connect(dsn, autocommit=True) as watcher,
    ):
        process = subprocess.Popen(
            [sys.executable, "-m", "vwlog", "--store", url, "verify", "--format", "json", *ids],
            cwd=folder,
            env=_env(key, app),
            stdout=stdout,
            stderr=stderr,
        )
        while True:
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (app,)
            ).fetchone()
            peak = max(peak, int(row[0]) if row else 0)
            try:
                process.wait(timeout=0.005)
            except subprocess.TimeoutExpired:
                continue
            break
    assert "too many clients" not in err.read_text(), err.read_text()
    return peak, process.returncode, json.loads(out.read_text())


def test_verifying_200_stored_matches_holds_as_many_connections_as_one(
    stored: tuple[str, list[str], Path], tmp_path: Path
) -> None:
    url, ids, key = stored
    one, one_exit, one_json = _peak_while_verifying(url, ids[:1], tmp_path, key)
    many, many_exit, many_json = _peak_while_verifying(url, ids, tmp_path, key)

    assert len(one_json) == 1
    assert len(many_json) == MATCHES
    assert one_exit == many_exit == 0  # every one verified, with its JSON
    assert 1 <= one <= BOUND
    assert many <= BOUND, (one, many)
    assert many <= one + 1, (one, many)  # one sample more or less, never a pool per match
