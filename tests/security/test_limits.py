"""Cheap denial of service, tried over real HTTP: statistics without a token, computed again and
again, or at a cost that grows with the match; bodies far larger than any route reads.

The server's memory is its processes' resident set (the supervisor and its workers), read with
psutil before and after; the body tests count the bytes the client managed to send before the
answer came back, never the time it took.
"""

from __future__ import annotations

import asyncio
import json
import select
import socket
import threading
import time
from collections import defaultdict
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import psutil
import pytest

from tests.security.conftest import new_live
from vwlog.api.app import JSON_BODY_LIMIT
from vwlog.api.schemas import ErrorOut

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.api.server import Server

MiB = 1024 * 1024
HUGE = 300 * MiB
"""The body an attacker announces or streams."""
CHUNK = 64 * 1024
RSS_SLACK = 64 * MiB
"""How much the server's resident memory may move while refusing a 300 MiB body (a fraction
of the body: reading it whole would add at least the body's size)."""
ERROR_FIELDS = set(ErrorOut.model_fields)


def assert_error(body: bytes | str, status: int, code: str) -> dict[str, Any]:
    """The one error shape: every `ErrorOut` field, the code, a message."""
    data: dict[str, Any] = json.loads(body)
    assert set(data) == ERROR_FIELDS, data
    assert data["error"] == code, (status, data)
    assert isinstance(data["message"], str)
    assert data["message"]
    return data


def rss(server: Server) -> int:
    """The resident memory of the server: its process and every child (uvicorn's workers)."""
    root = psutil.Process(server.process.pid)
    total = 0
    for p in [root, *root.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


def connect(server: Server) -> socket.socket:
    parts = urlsplit(server.url)
    assert parts.hostname is not None
    assert parts.port is not None
    # a server that waits for the body instead of answering fails the test, never hangs it
    return socket.create_connection((parts.hostname, parts.port), timeout=60)


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP answer read off ``sock``: status, headers (lower-case names), body."""
    data = b""
    while b"\r\n\r\n" not in data:
        got = sock.recv(65536)
        assert got, f"the server closed without an answer: {data!r}"
        data += got
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        got = sock.recv(65536)
        assert got, "the server closed in the middle of its answer"
        body += got
    return status, headers, body[:length]


def request_head(method: str, path: str, headers: dict[str, str]) -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def chunks(total: int) -> Iterator[bytes]:
    """A chunked body of ``total`` bytes (a JSON-looking start, then filler), chunk by chunk."""
    sent = 0
    first = b'{"decisions": ["'
    while sent < total:
        data = first if sent == 0 else b"x" * min(CHUNK, total - sent)
        sent += len(data)
        yield b"%x\r\n%s\r\n" % (len(data), data)
    yield b"0\r\n\r\n"


# -- statistics --------------------------------------------------------------------------------


def test_statistics_need_a_token(server: Server) -> None:
    with server.client() as c:
        for path in ("/stats", "/stats/report"):
            r = c.get(path)
            assert r.status_code == 401, (path, r.text)
            assert_error(r.content, 401, "unauthorized")
            assert "x-vwlog-stats-run" not in r.headers  # nothing was computed for it
    with server.client("p1") as c:
        r = c.get("/stats")
        assert r.status_code == 403, r.text
        assert_error(r.content, 403, "forbidden")
    with server.client("judge") as c:
        r = c.get("/stats")
        assert r.status_code == 200, r.text
        assert r.json()["matches"] >= 4


def _appended(server: Server, match_id: str, auto: int) -> int:
    """Append ``auto`` decisions chosen by the service (as the organiser); the match's seq."""
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [], "auto": auto})
        assert r.status_code == 200, r.text
        meta = c.get(f"/matches/{match_id}").json()
    events: int = meta["events"]
    return events


def _stats(server: Server) -> tuple[dict[str, Any], str, int]:
    with server.client("judge") as c:
        r = c.get("/stats")
    assert r.status_code == 200, r.text
    return r.json(), r.headers["x-vwlog-stats-run"], int(r.headers["x-vwlog-stats-folded"])


def test_concurrent_cold_requests_compute_once_per_worker(server: Server) -> None:
    match_id, _ = new_live(server)
    _appended(server, match_id, 60)  # the view is now behind by a whole match
    n = 8
    ready = threading.Barrier(n)
    answers: list[tuple[int, str, int]] = []
    lock = threading.Lock()

    def ask() -> None:
        with server.client("judge") as c:
            ready.wait()
            r = c.get("/stats")
        assert r.status_code == 200, r.text
        with lock:
            answers.append((r.json()["matches"], r.headers["x-vwlog-stats-run"], 0))

    threads = [threading.Thread(target=ask) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == n
    runs: dict[str, set[str]] = defaultdict(set)
    for _matches, run, _ in answers:
        pid, _, _serial = run.partition("-")
        runs[pid].add(run)
    # one computation in each worker that answered, shared by every request it answered
    assert all(len(r) == 1 for r in runs.values()), runs
    assert len({m for m, _, _ in answers}) == 1


def test_the_read_models_work_is_proportional_to_the_appends(server: Server) -> None:
    match_id, _ = new_live(server)
    length = _appended(server, match_id, 120)
    _stats(server)  # brought up to date with the whole match once
    for k in (1, 3, 6):
        before = length
        for _ in range(k):
            length = _appended(server, match_id, 1)
        _, _, folded = _stats(server)
        appended = length - before
        assert 1 <= appended < 60
        # what changed is folded, not the match again
        assert folded == appended, (k, folded, appended, length)
    assert length > 4 * (length - before)
    # a request with nothing new folds nothing
    _, _, folded = _stats(server)
    assert folded in (0, length - before)  # the same computation's answer, or a fresh one


def _events(server: Server, match_id: str) -> int:
    with server.client("organiser") as c:
        events: int = c.get(f"/matches/{match_id}").json()["events"]
    return events


def _gone_requests(server: Server) -> int:
    """How many requests for ``/stats`` the access log shows as left by their client."""
    text = server.log.read_text(errors="replace")
    return text.count('"path":"/stats","status":499')


def test_a_computation_whose_client_left_saves_nothing(server: Server) -> None:
    match_id, _ = new_live(server)
    _appended(server, match_id, 1)
    _stats(server)  # the match folded once, its fold paused
    before = _events(server, match_id)
    after = _appended(server, match_id, 40)
    gone = _gone_requests(server)
    with connect(server) as sock:
        head = {"Authorization": f"Bearer {server.tokens['judge']}", "Connection": "close"}
        sock.sendall(request_head("GET", "/stats", head))
    # the client has left; the access log says when the server gave the request up
    deadline = time.monotonic() + 60
    while _gone_requests(server) == gone:
        assert time.monotonic() < deadline, "the request was never given up"
        time.sleep(0.05)
    # had its computation gone on, the view would hold the appends and this would fold nothing
    _, _, folded = _stats(server)
    assert folded == after - before


def test_a_stopped_catch_up_saves_nothing(tmp_path: Any) -> None:
    """The cancellation the service relies on when every client left: a catch-up whose stop
    event is set raises before saving, and the view is where it was."""
    from vwlog.services.live import start_match
    from vwlog.services.play import play_decisions
    from vwlog.services.stats import CatchUpCancelledError, catch_up
    from vwlog.store import MatchStore

    with MatchStore.open(str(tmp_path / "vwlog.db")) as store:
        start_match(store, "m1", ["order-aggro", "mystic-reigner"])
        catch_up(store)
        before = store.stats_view().load()
        play_decisions(store, "m1", [], auto=20)
        stop = threading.Event()
        stop.set()
        with pytest.raises(CatchUpCancelledError):
            catch_up(store, stop=stop)
        assert store.stats_view().load() == before
        assert catch_up(store).folded > 0


def test_a_computation_nobody_waits_for_is_stopped(tmp_path: Any) -> None:
    """`StatsFlight`: when the only client disconnects, the computation is told to stop and
    its result is never used; the next request computes again."""
    from starlette.requests import Request

    from vwlog.api.routers.catalog import StatsFlight
    from vwlog.services.live import start_match
    from vwlog.services.play import play_decisions
    from vwlog.store import MatchStore

    def request(gone: asyncio.Event) -> Request:
        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        return Request({"type": "http", "method": "GET", "path": "/stats", "headers": []}, receive)

    async def scenario(store: MatchStore) -> None:
        flight = StatsFlight()
        gone = asyncio.Event()
        gone.set()  # the client is gone before the computation could end
        assert await flight.get(store, request(gone)) is None
        assert flight.computations == 1
        assert flight._stop is not None
        assert flight._stop.is_set()
        stay = asyncio.Event()
        ran = await flight.get(store, request(stay))
        assert ran is not None
        assert flight.computations == 2
        assert ran.refreshed.position == store.position()
        again = await flight.get(store, request(stay))
        assert again is ran  # nothing moved: the same answer, no computation

    with MatchStore.open(str(tmp_path / "vwlog.db")) as store:
        start_match(store, "m1", ["order-aggro", "mystic-reigner"])
        play_decisions(store, "m1", [], auto=200)
        asyncio.run(scenario(store))


# -- bodies ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/matches/live-1/decisions", "/live", "/matches", "/matches/live-1/rulings", "/nowhere"],
)
def test_a_huge_announced_body_without_a_token_is_refused_before_it_is_sent(
    server: Server, path: str
) -> None:
    before = rss(server)
    with connect(server) as sock:
        sock.sendall(
            request_head(
                "POST",
                path,
                {"Content-Type": "application/json", "Content-Length": str(HUGE)},
            )
        )
        # not one byte of the body is sent: the answer comes anyway
        status, headers, body = read_answer(sock)
    assert status == 413, body
    data = assert_error(body, 413, "too_large")
    assert str(HUGE) not in data["message"]
    assert headers["content-type"].startswith("application/json")
    assert rss(server) - before < RSS_SLACK


def test_a_huge_streamed_body_without_a_token_is_refused_while_it_streams(
    server: Server,
) -> None:
    before = rss(server)
    sent = 0
    with connect(server) as sock:
        sock.sendall(
            request_head(
                "POST",
                "/matches/live-1/decisions",
                {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
            )
        )
        answered = False
        for chunk in chunks(HUGE):
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                answered = True
                break
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                answered = True
                break
            sent += len(chunk)
        assert answered, "the whole body was sent"
        status, _, body = read_answer(sock)
    assert status == 413, body
    assert_error(body, 413, "too_large")
    assert JSON_BODY_LIMIT < sent < HUGE // 10, sent
    assert rss(server) - before < RSS_SLACK


def test_the_upload_keeps_its_own_limit_and_tokens_change_nothing(server: Server) -> None:
    # the test servers run with --max-upload 2 MiB; JSON routes take 1 MiB
    with server.client("organiser") as c:
        r = c.post(
            "/matches",
            content=b"{}\n" * (1024 * 1024),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert r.status_code == 413, r.text
        assert_error(r.content, 413, "too_large")
        big = {"match_id": "m", "decks": ["order-aggro", "mystic-reigner"], "pad": "x" * MiB}
        r = c.post("/live", json=big)
        assert r.status_code == 413, r.text
        assert_error(r.content, 413, "too_large")
        # a body under the JSON limit reaches the route and its own validation
        r = c.post("/live", json={**big, "pad": "x" * 1000})
        assert r.status_code == 422, r.text
        assert_error(r.content, 422, "invalid_request")
