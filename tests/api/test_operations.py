"""Operations: the token commands, serve's configuration checks, graceful shutdown."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import TYPE_CHECKING

import httpx

from tests.api.server import start
from vwlog.cli import main
from vwlog.store import MatchStore
from vwlog.store.tokens import Role, TokenStore, token_hash

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


def test_token_commands_create_list_and_revoke(runner: CliRunner, tmp_path: Path) -> None:
    store = str(tmp_path / "vwlog.db")
    made = runner.invoke(
        main,
        ["--store", store, "token", "create", "--role", "player", "--match", "m1", "--seat", "p2"],
    )
    assert made.exit_code == 0, made.stderr
    secret = made.stdout.strip()
    assert secret.startswith("vwt_")
    listed = runner.invoke(main, ["--store", store, "token", "list", "--format", "json"])
    tokens = json.loads(listed.stdout)
    assert [(t["role"], t["match_id"], t["seat"], t["revoked"]) for t in tokens] == [
        ("player", "m1", "p2", False)
    ]
    assert secret not in listed.stdout
    # stored hashed: the secret is nowhere in the database
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT hash FROM vwlog_tokens").fetchall()
    assert rows == [(token_hash(secret),)]
    assert secret.encode() not in (tmp_path / "vwlog.db").read_bytes()
    with TokenStore.open(store) as t:
        assert t.lookup(secret) is not None
    gone = runner.invoke(main, ["--store", store, "token", "revoke", tokens[0]["id"]])
    assert gone.exit_code == 0
    with TokenStore.open(store) as t:
        assert t.lookup(secret) is None
    text = runner.invoke(main, ["--store", store, "token", "list"])
    assert "revoked" in text.stdout


def test_token_create_refuses_a_player_without_a_seat(runner: CliRunner, tmp_path: Path) -> None:
    store = str(tmp_path / "vwlog.db")
    r = runner.invoke(main, ["--store", store, "token", "create", "--role", "player"])
    assert r.exit_code == 2
    assert r.stderr.startswith("Error: a player token needs --match and --seat")
    r = runner.invoke(main, ["--store", store, "token", "revoke", "nope"])
    assert r.exit_code == 2
    assert "no token 'nope'" in r.stderr


def test_tokens_in_memory() -> None:
    with TokenStore.open("memory:") as t:
        secret, info = t.create(Role.ORGANISER)
        assert t.lookup(secret) == info
        assert t.list() == [info]
        t.revoke(info.id)
        assert t.lookup(secret) is None


def test_serve_refuses_several_workers_on_sqlite(runner: CliRunner, tmp_path: Path) -> None:
    r = runner.invoke(main, ["--store", str(tmp_path / "x.db"), "serve", "--workers", "3"])
    assert r.exit_code == 2
    assert "--workers 3 needs a PostgreSQL store" in r.stderr


def test_shutdown_finishes_an_append_in_flight(tmp_path: Path) -> None:
    server = start(str(tmp_path / "vwlog.db"), tmp_path)
    try:
        organiser = server.token("organiser", Role.ORGANISER)
        with server.client(organiser, timeout=120) as c:
            # four seats: 1,000 decisions, none of them the last (a duel may end sooner)
            for match_id in ("warm-up", "long"):
                r = c.post("/live", json={"match_id": match_id, "decks": ["order-aggro"] * 4})
                assert r.status_code == 201
            # how long such an append takes here (the engine build and the machine's load vary
            # it several-fold): the shutdown below begins a third of the way through
            began = time.perf_counter()
            r = c.post("/matches/warm-up/decisions", json={"decisions": [], "auto": 1000})
            assert r.status_code == 200, r.text
            takes = time.perf_counter() - began
        answers: list[httpx.Response] = []

        def append() -> None:
            with server.client(organiser, timeout=120) as c:
                answers.append(
                    c.post("/matches/long/decisions", json={"decisions": [], "auto": 1000})
                )

        worker = threading.Thread(target=append)
        worker.start()
        time.sleep(takes / 3)  # the append is under way
        server.stop()
        worker.join(60)
    finally:
        server.stop()
    log = server.log.read_text()
    assert answers, log
    assert answers[0].status_code == 200, answers[0].text
    receipt = answers[0].json()
    # the request was still running when the shutdown began, and finished
    assert log.index("Shutting down") < log.index('"path":"/matches/long/decisions"'), log
    with MatchStore.open(server.store) as store:
        head = store.head("long")
    assert (head.seq, head.hash) == (receipt["head_seq"], receipt["head_hash"])
