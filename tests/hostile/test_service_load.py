"""The service under load: a real ``vwlog serve`` on loopback (SQLite with one worker,
PostgreSQL with two) taking appends to live matches and board reads from many clients at once.

What must hold, whatever the interleaving:

- no answer is a 5xx: an append succeeds (200) or loses a race at the same head (409, in the
  one error shape, with the current head); a read succeeds;
- nothing acknowledged is lost and nothing is written twice: the receipts of a match tile its
  records from the head it started at to the head it ends at, each receipt's hash is the stored
  record's, and ``vwlog verify`` finds the chain intact and the derived data in agreement;
- the access log has exactly one whole JSON line per request sent — every request carries its
  own ``X-Request-ID`` — with the status the client got, including requests refused before any
  route (413 from the body limit), unknown routes, refused tokens, hostile paths (a line feed,
  U+2028, a C1 control, a path of thousands of characters) and a client that leaves before the
  body it announced (499).
"""

from __future__ import annotations

import json
import secrets
import select
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from tests.api.server import Server, serving
from tests.store.records import synthetic_match
from vwlog.api.app import ACCESS_LINE_LIMIT, ACCESS_PATH_LIMIT
from vwlog.api.schemas import ErrorOut
from vwlog.store import ImportOutcome, MatchStore
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from collections.abc import Iterator

    import httpx

pytest.importorskip("fastapi", reason="the api extra is not installed")

pytestmark = pytest.mark.slow

ERROR_FIELDS = set(ErrorOut.model_fields)
ENTRY_FIELDS = {"at", "method", "path", "status", "ms", "client", "role", "request_id"}
DECKS = ["order-aggro", "mystic-reigner"]

MATCHES = 3
"""Live matches the clients share (few, so that appends race at the same head)."""
CLIENTS = 8
"""Client threads at once."""
ROUNDS = 12
"""Requests each client sends, then it stops."""
CLIENT_TIMEOUT = 120.0
"""Seconds one request may take (the clients' bound; a server that hangs fails the test)."""
LOG_DEADLINE = 60.0
"""Seconds the access log may take to show every entry after the last answer."""
POOL_TIMEOUT = 5.0
"""Seconds eventsourcing's SQLite pool lets a thread wait for a connection, whatever the
store's lock timeout (vwlog's is 30 s)."""


@dataclass
class Sent:
    """Every request a test sent, by its ``X-Request-ID``, with the status it got."""

    statuses: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    serial: int = 0

    def new_id(self, tag: str) -> str:
        with self.lock:
            self.serial += 1
            return f"{tag}-{self.serial}-{secrets.token_hex(3)}"

    def got(self, request_id: str, status: int) -> None:
        with self.lock:
            assert request_id not in self.statuses, request_id
            self.statuses[request_id] = status


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve`` on an SQLite store, one worker (as SQLite is served)."""
    with serving(tmp_path_factory.mktemp("load-sqlite")) as server:
        server.token("organiser", Role.ORGANISER)
        yield server


@pytest.fixture(scope="module")
def postgres_load_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vwlog serve --workers 2`` on a fresh PostgreSQL schema, dropped afterwards."""
    with serving(tmp_path_factory.mktemp("load-pg"), postgres=True, workers=2) as server:
        server.token("organiser", Role.ORGANISER)
        yield server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest) -> Server:
    name = "sqlite_server" if request.param == "sqlite" else "postgres_load_server"
    found: Server = request.getfixturevalue(name)
    return found


def send(
    client: httpx.Client, sent: Sent, tag: str, method: str, url: str, **kwargs: Any
) -> httpx.Response:
    """One request carrying its own ``X-Request-ID``; its answer, noted in ``sent``."""
    request_id = sent.new_id(tag)
    headers = {**kwargs.pop("headers", {}), "X-Request-ID": request_id}
    r = client.request(method, url, headers=headers, **kwargs)
    sent.got(request_id, r.status_code)
    return r


def assert_conflict(r: httpx.Response) -> dict[str, Any]:
    """A lost race: 409 in the one error shape, naming the head it lost to."""
    assert r.headers["content-type"].startswith("application/json"), r.headers
    data: dict[str, Any] = r.json()
    assert set(data) == ERROR_FIELDS, data
    assert data["error"] == "conflict", data
    assert isinstance(data["message"], str), data
    assert data["message"], data
    return data


@dataclass
class Load:
    """What the clients saw: receipts per match, statuses, anything unexpected."""

    receipts: dict[str, list[dict[str, Any]]]
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, kind: str, r: httpx.Response) -> None:
        with self.lock:
            self.statuses[(kind, r.status_code)] += 1

    def wrong(self, text: str) -> None:
        with self.lock:
            self.unexpected.append(text)


def client_run(server: Server, sent: Sent, load: Load, matches: list[str], n: int) -> None:
    """One client: `ROUNDS` requests over the shared matches — appends at the head it last
    heard of (``expected_seq``), appends at whatever the head is, board and event reads."""
    heads: dict[str, int] = {}
    with server.client("organiser", timeout=CLIENT_TIMEOUT) as c:
        for k in range(ROUNDS):
            match_id = matches[(n + k) % len(matches)]
            kind = ("append-at", "read-board", "append", "read-events")[(n + k) % 4]
            if kind.startswith("read"):
                path = "board" if kind == "read-board" else "events"
                r = send(c, sent, f"client{n}", "GET", f"/matches/{match_id}/{path}")
                load.note(kind, r)
                if r.status_code != 200:
                    load.wrong(f"{kind} {match_id}: {r.status_code} {r.text[:300]}")
                continue
            body: dict[str, Any] = {"auto": 2, "seed": n * 100 + k}
            if kind == "append-at":
                body["expected_seq"] = heads.get(match_id, 0)
            r = send(c, sent, f"client{n}", "POST", f"/matches/{match_id}/decisions", json=body)
            load.note(kind, r)
            if r.status_code == 200:
                receipt = r.json()
                heads[match_id] = receipt["head_seq"]
                with load.lock:
                    load.receipts[match_id].append(receipt)
            elif r.status_code == 409:
                data = assert_conflict(r)
                if data["head_seq"] is not None:
                    heads[match_id] = data["head_seq"]
            else:
                load.wrong(f"{kind} {match_id}: {r.status_code} {r.text[:300]}")


def run_clients(server: Server, sent: Sent, matches: list[str]) -> Load:
    """`CLIENTS` threads at once, each stopping after `ROUNDS` requests."""
    load = Load(receipts={m: [] for m in matches})
    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            client_run(server, sent, load, matches, n)
        except BaseException as err:  # reported by the test, not lost in the thread
            failures.append(err)

    threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + CLIENT_TIMEOUT * ROUNDS
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
        assert not t.is_alive(), "a client did not finish"
    if failures:
        raise failures[0]
    return load


def live_matches(server: Server, sent: Sent) -> dict[str, int]:
    """`MATCHES` new live matches: their ids and the head each starts at."""
    heads = {}
    with server.client("organiser") as c:
        for _ in range(MATCHES):
            match_id = f"load-{secrets.token_hex(5)}"
            r = send(c, sent, "live", "POST", "/live", json={"match_id": match_id, "decks": DECKS})
            assert r.status_code == 201, r.text
            heads[match_id] = r.json()["events"]
    return heads


def check_stored(server: Server, started: dict[str, int], load: Load) -> None:
    """The receipts of each match tile its records after its first head, each receipt's hash
    is the stored record's, and ``vwlog verify`` finds the chain intact and nothing derived
    that disagrees with it."""
    with MatchStore.open(server.store) as store:
        for match_id, first in started.items():
            receipts = sorted(
                (r for r in load.receipts[match_id] if r["appended"] > 0),
                key=lambda r: r["first_seq"],
            )
            assert receipts, f"no append to {match_id} succeeded"
            at = first
            for r in receipts:
                assert r["first_seq"] == at + 1, (match_id, at, r)  # no gap, no overlap
                at = r["head_seq"]
            head = store.head(match_id)
            assert head.seq == at, (match_id, head, at)  # nothing stored that nobody was told of
            hashes = {rec.seq: rec.hash for rec in store.records(match_id, gt=first)}
            for r in receipts:
                assert hashes[r["head_seq"]] == r["head_hash"], (match_id, r)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "vwlog",
            "--store",
            server.store,
            "verify",
            "--format",
            "json",
            *started,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stderr
    reports = json.loads(done.stdout)
    assert [r["match_id"] for r in reports] == list(started), reports
    for report in reports:
        assert report["broken"] is None, report
        assert report["integrity"]["chain"] == "intact", report
        assert report["derived"] == [], report


def hostile_requests(server: Server, sent: Sent, match_id: str) -> None:
    """Requests refused before or without a route, with hostile paths, each one answered."""
    with server.client("organiser") as c:
        # over the body limit by Content-Length: 413 from the middleware, before any route
        r = send(
            c,
            sent,
            "big",
            "POST",
            f"/matches/{match_id}/decisions",
            content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 413, r.text

        for path in (
            "/nothing/here",
            "/matches/%0a%7B%22status%22%3A200%7D",  # a line feed and a forged entry
            "/matches/\u2028\u00e9\u0085\u009b31m",  # U+2028, NEL and a C1 CSI
            "/matches/" + "\U0001f600" * 500,  # past the path limit, 4 bytes a character
        ):
            r = send(c, sent, "path", "GET", path)
            assert r.status_code in (401, 404, 422), (path[:40], r.status_code, r.text)
    with server.client("not-a-token") as c:
        r = send(c, sent, "token", "GET", f"/matches/{match_id}/board")
        assert r.status_code == 401, r.text
    request_id = sent.new_id("chunked")
    sent.got(request_id, streamed_too_large(server, match_id, request_id))


def raw_request(server: Server, head: str) -> socket.socket:
    """A connection to the server with ``head`` (a request line and headers) sent."""
    url = urlsplit(server.url)
    assert url.hostname is not None
    assert url.port is not None
    sock = socket.create_connection((url.hostname, url.port), timeout=CLIENT_TIMEOUT)
    sock.sendall(f"{head}Host: {url.netloc}\r\n".encode())
    return sock


def streamed_too_large(server: Server, match_id: str, request_id: str) -> int:
    """A body without Content-Length streamed past the JSON limit (2 MiB in chunks of 64 KiB,
    stopping as soon as the server answers): the status of the answer, 413."""
    sock = raw_request(
        server,
        f"POST /matches/{match_id}/decisions HTTP/1.1\r\n"
        f"Authorization: Bearer {server.tokens['organiser']}\r\n"
        f"X-Request-ID: {request_id}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
    )
    with sock:
        sock.sendall(b"\r\n")
        for n in range(32):
            if select.select([sock], [], [], 0)[0]:
                break  # answered while the body streams in
            data = b'{"decisions": ["' if n == 0 else b"x" * 65536
            try:
                sock.sendall(b"%x\r\n%s\r\n" % (len(data), data))
            except (BrokenPipeError, ConnectionResetError):
                break
        answer = b""
        while b"\r\n" not in answer:
            got = sock.recv(4096)
            assert got, f"the server closed without an answer: {answer!r}"
            answer += got
    status = int(answer.split(b" ", 2)[1])
    assert status == 413, answer[:300]
    return status


def leave_early(server: Server, sent: Sent, match_id: str) -> str:
    """A client that announces a body and leaves after its first byte; its request id."""
    request_id = sent.new_id("gone")
    sock = raw_request(
        server,
        f"POST /matches/{match_id}/decisions HTTP/1.1\r\n"
        f"Authorization: Bearer {server.tokens['organiser']}\r\n"
        f"X-Request-ID: {request_id}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n",
    )
    with sock:
        sock.sendall(b"\r\n{")
    return request_id


def log_entries(server: Server, wanted: set[str]) -> tuple[list[dict[str, Any]], list[bytes]]:
    """The access-log entries and the other lines of the server's log, once every id in
    ``wanted`` shows (or `LOG_DEADLINE` passed): every line that holds an entry must be one
    whole JSON object, ASCII, under `ACCESS_LINE_LIMIT` bytes."""
    deadline = time.monotonic() + LOG_DEADLINE
    while True:
        data = server.log.read_bytes()
        lines = data.split(b"\n")
        tail = lines.pop()  # what follows the last line feed: a line being written
        entries, others = [], []
        for line in lines:
            if line.startswith(b"{"):
                entry = json.loads(line)  # a cut or joined entry fails here
                assert set(entry) == ENTRY_FIELDS, line
                assert line.isascii(), line[:200]
                assert len(line) + 1 <= ACCESS_LINE_LIMIT, line[:200]
                entries.append(entry)
            else:
                assert b'"request_id"' not in line, line[:300]  # an entry inside another line
                others.append(line)
        seen = {e["request_id"] for e in entries}
        if wanted <= seen or time.monotonic() > deadline:
            assert tail == b"" or wanted <= seen, tail[:300]
            return entries, others
        time.sleep(0.05)  # polling the file for the entries still to come, not a guess


def test_concurrent_appends_and_reads_answer_and_log_every_request(server: Server) -> None:
    sent = Sent()
    started = live_matches(server, sent)
    matches = list(started)
    load = run_clients(server, sent, matches)

    # no 5xx, appends 200 or a lost race 409, reads 200
    assert not load.unexpected, load.unexpected
    assert all(status < 500 for _, status in load.statuses), load.statuses
    assert sum(n for (k, s), n in load.statuses.items() if s == 200 and "append" in k) > 0
    check_stored(server, started, load)

    hostile_requests(server, sent, matches[0])
    gone = leave_early(server, sent, matches[0])
    entries, _others = log_entries(server, set(sent.statuses) | {gone})

    # every request logged exactly once, with the status its client got
    logged = Counter(e["request_id"] for e in entries if e["request_id"] is not None)
    assert logged[gone] == 1, [e for e in entries if e["request_id"] == gone]
    for request_id in sent.statuses:
        assert logged[request_id] == 1, (request_id, logged[request_id])
    by_id = {e["request_id"]: e for e in entries}
    assert {rid: by_id[rid]["status"] for rid in sent.statuses} == sent.statuses
    assert by_id[gone]["status"] == 499, by_id[gone]
    assert by_id[gone]["method"] == "POST"
    # no request the test did not send (only the server's own /health polls have no id)
    strays = [
        e for e in entries if e["request_id"] not in sent.statuses and e["request_id"] != gone
    ]
    assert all(e["path"] == "/health" and e["request_id"] is None for e in strays), strays
    # hostile paths stay inside their field, cut to the limit
    paths = [by_id[rid]["path"] for rid in sent.statuses if rid.startswith("path-")]
    assert any("\n{" in p for p in paths), paths
    assert any("\u2028" in p and "\u009b" in p for p in paths), paths
    assert max(len(p) for p in paths) == ACCESS_PATH_LIMIT + 1, [len(p) for p in paths]
    clients = [rid for rid in sent.statuses if rid.startswith("client")]
    assert all(by_id[rid]["role"] == "organiser" for rid in clients), clients


def test_sqlite_writers_wait_for_a_long_write_and_readers_do_not(tmp_path: Path) -> None:
    """The cause of the service's 503s on SQLite: while one write transaction lasts (a long
    upload), another writer of the same process waits past eventsourcing's 5 s, as long as the
    lock timeout allows, and readers are answered meanwhile instead of queueing behind it."""
    with MatchStore.open(str(tmp_path / "vwlog.db")) as store:
        stored = synthetic_match("stored", 40)
        store.import_stream(stored.header, iter(stored.lines), stored.meta())
        slow, other = synthetic_match("slow", 40), synthetic_match("other", 40)
        holding, release = threading.Event(), threading.Event()
        outcomes: dict[str, object] = {}

        def held() -> Iterator[tuple[bytes, Any]]:
            holding.set()  # the registration is written: the transaction holds the writer
            assert release.wait(CLIENT_TIMEOUT)
            yield from slow.lines

        def write(name: str, lines: Iterator[tuple[bytes, Any]]) -> None:
            match = slow if name == "slow" else other
            try:
                outcomes[name] = store.import_stream(match.header, lines, match.meta())
            except Exception as err:  # the test reports it
                outcomes[name] = err

        def read() -> None:
            reads = 0
            try:
                while not stop.is_set():
                    assert store.head("stored").seq == 40
                    assert len(list(store.records("stored"))) == 40
                    reads += 1
                outcomes["reads"] = reads > 0
            except Exception as err:  # the test reports it
                outcomes["reads"] = err

        stop = threading.Event()
        long_write = threading.Thread(target=write, args=("slow", held()), daemon=True)
        long_write.start()
        assert holding.wait(CLIENT_TIMEOUT)
        waiting = threading.Thread(target=write, args=("other", iter(other.lines)), daemon=True)
        waiting.start()
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        # past eventsourcing's timeout the writer still waits, and the reader still reads
        waiting.join(POOL_TIMEOUT + 1)
        assert waiting.is_alive(), outcomes
        stop.set()
        reader.join(CLIENT_TIMEOUT)  # while the long write still holds the writer
        assert outcomes.get("reads") is True, outcomes
        release.set()
        for t in (long_write, waiting):
            t.join(CLIENT_TIMEOUT)
            assert not t.is_alive()
        assert outcomes == {
            "slow": ImportOutcome.STORED,
            "other": ImportOutcome.STORED,
            "reads": True,
        }
        assert store.head("other").seq == store.head("slow").seq == 40
