"""Operations: the token commands, serve's configuration checks, graceful shutdown."""

from __future__ import annotations

import json
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from tests.api.server import start
from vwlog.cli import main
from vwlog.store import MatchStore
from vwlog.store.tokens import Role, TokenStore, token_hash

if TYPE_CHECKING:
    from collections.abc import Iterator

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
    """A request the server has begun to read when SIGTERM arrives is answered and stored.

    The request body is sent in two parts: the server has read the first part (its receive
    queue is empty) before the signal is sent, and the second part follows only once the log
    says the shutdown has begun, so the order does not depend on how fast the append runs.
    """
    server = start(str(tmp_path / "vwlog.db"), tmp_path)
    port = int(server.url.rsplit(":", 1)[1])
    try:
        organiser = server.token("organiser", Role.ORGANISER)
        with server.client(organiser, timeout=120) as c:
            r = c.post("/live", json={"match_id": "long", "decks": ["order-aggro"] * 4})
            assert r.status_code == 201
        body = json.dumps({"decisions": [], "auto": 1000}).encode()
        first_part_sent = threading.Event()
        shutdown_begun = threading.Event()

        def parts() -> Iterator[bytes]:
            yield body[:10]
            first_part_sent.set()
            shutdown_begun.wait(60)
            yield body[10:]

        answers: list[httpx.Response] = []

        def append() -> None:
            with server.client(organiser, timeout=120) as c:
                answers.append(
                    c.post(
                        "/matches/long/decisions",
                        content=parts(),
                        headers={"Content-Type": "application/json"},
                    )
                )

        worker = threading.Thread(target=append)
        worker.start()
        assert first_part_sent.wait(60)
        wait_until_read(port)
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 60
        while "Shutting down" not in server.log.read_text():
            assert time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.05)
        shutdown_begun.set()
        worker.join(120)
    finally:
        shutdown_begun.set()
        server.stop()
    log = server.log.read_text()
    assert answers, log
    assert answers[0].status_code == 200, answers[0].text
    receipt = answers[0].json()
    assert receipt["head_seq"] > 0
    # the request finished after the shutdown began, and what it appended is stored
    assert log.index("Shutting down") < log.index('"path":"/matches/long/decisions"'), log
    with MatchStore.open(server.store) as store:
        head = store.head("long")
    assert (head.seq, head.hash) == (receipt["head_seq"], receipt["head_hash"])


def wait_until_read(port: int, timeout: float = 60.0) -> None:
    """Wait until the server's end of every established connection to ``port`` has an empty
    receive queue, that is, the server has read what the client sent (Linux /proc/net/tcp)."""
    deadline = time.monotonic() + timeout
    while True:
        queues = []
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":  # ESTABLISHED, the server's end
                queues.append(int(fields[4].split(":")[1], 16))
        if queues and not any(queues):
            return
        assert time.monotonic() < deadline, f"the server did not read its connection: {queues}"
        time.sleep(0.01)
