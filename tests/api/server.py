"""A real ``vwlog serve`` in a subprocess on a free loopback port, with tokens of every role.

Tokens are created with the ``vwlog token create`` command, matches are uploaded over HTTP:
the tests see the service as a client does.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from vwlog.store.tokens import Role, TokenStore

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
START_TIMEOUT = 180.0
"""Seconds a server may take to answer /health."""


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def vwlog(store: str, *args: str) -> str:
    """Run the vwlog command line; its stdout."""
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "--store", store, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@dataclass
class Server:
    """A running service."""

    store: str
    url: str
    process: subprocess.Popen[bytes]
    log: Path
    tokens: dict[str, str] = field(default_factory=dict)

    def client(self, token: str | None = None, timeout: float = 60.0) -> httpx.Client:
        """An HTTP client of the server, presenting ``token`` (a key of `tokens` or a
        secret)."""
        headers = {}
        if token is not None:
            secret = self.tokens.get(token, token)
            headers["Authorization"] = f"Bearer {secret}"
        return httpx.Client(base_url=self.url, headers=headers, timeout=timeout)

    def token(
        self,
        name: str,
        role: Role,
        *,
        match_id: str | None = None,
        seat: str | None = None,
        label: str | None = None,
    ) -> str:
        """Create a token in the store (as ``vwlog token create`` does, without starting a
        process) and keep it under ``name``."""
        with TokenStore.open(self.store) as tokens:
            secret, _ = tokens.create(role, match_id=match_id, seat=seat, label=label)
        self.tokens[name] = secret
        return secret

    def stop(self) -> int:
        """SIGTERM (a graceful shutdown), then wait; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        return self.process.returncode


def start(store: str, workdir: Path, *, workers: int = 1) -> Server:
    """Start ``vwlog serve`` on ``store`` and wait until /health answers."""
    port = free_port()
    log = workdir / f"serve-{port}.log"
    env = {**os.environ, "VWLOG_STORE": store}
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "vwlog",
                "serve",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--signing-key",
                str(workdir / "service.key"),
                "--max-upload",
                str(2 * 1024 * 1024),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=workdir,
        )
    server = Server(store=store, url=f"http://127.0.0.1:{port}", process=process, log=log)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise AssertionError(f"vwlog serve exited: {log.read_text()}")
        try:
            if httpx.get(f"{server.url}/health", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise AssertionError(f"vwlog serve did not answer: {log.read_text()}")
        time.sleep(0.2)
    return server


@contextmanager
def serving(work: Path, *, postgres: bool = False, workers: int = 1) -> Iterator[Server]:
    """A started ``vwlog serve`` (stopped on exit) on an SQLite file in ``work``, or with
    ``postgres`` on a fresh schema of the test PostgreSQL server, dropped on exit with the
    statistics schema beside it."""
    if not postgres:
        server = start(str(work / "vwlog.db"), work, workers=workers)
        try:
            yield server
        finally:
            server.stop()
        return
    from tests.store.pg import postgres_server

    dsn = postgres_server()
    schema = f"srv_{secrets.token_hex(4)}"
    try:
        server = start(f"{dsn}?schema={schema}", work, workers=workers)
        try:
            yield server
        finally:
            server.stop()
    finally:
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}_stats" CASCADE')


def populate(server: Server) -> None:
    """Tokens of every role; the samples uploaded; a live match with player tokens."""
    server.token("organiser", Role.ORGANISER)
    server.token("judge", Role.JUDGE, label="Head Judge")
    with server.client("organiser") as c:
        for name in ("full-combat", "judge-backup", "register-lifo", "absolute-victory"):
            r = c.post(
                "/matches",
                content=(SAMPLES / f"{name}.jsonl").read_bytes(),
                headers={"Content-Type": "application/x-ndjson"},
            )
            assert r.status_code in (200, 201), r.text
            server.tokens[f"match:{name}"] = r.json()["match_id"]
        r = c.post("/live", json={"match_id": "live-1", "decks": ["order-aggro", "mystic-reigner"]})
        assert r.status_code == 201, r.text
        r = c.post("/live", json={"match_id": "live-2", "decks": ["order-aggro", "mystic-reigner"]})
        assert r.status_code == 201, r.text
    server.token("p1", Role.PLAYER, match_id="live-1", seat="p1")
    server.token("p2", Role.PLAYER, match_id="live-1", seat="p2")
    server.token("other", Role.PLAYER, match_id="live-2", seat="p1")
    server.token("revoked", Role.JUDGE, label="former judge")
    with TokenStore.open(server.store) as tokens:
        revoked = next(t for t in tokens.list() if t.label == "former judge")
        tokens.revoke(revoked.id)
