"""Load test of ``vwlog serve`` on loopback, bounded and self-stopping.

``--clients`` concurrent clients (default 50) for at most ``--seconds`` (default 30, never more
than 60) against a real server started here: uploads of new logs, live appends to
``--matches`` live matches (default 20) and reads of the board at random seqs of a stored
match. Afterwards every live match is checked: its seqs run 1..head with no gap or repeat, its
hash chain holds, and the events its receipts acknowledged are exactly the ones added (none
lost, none duplicated).

The reference, in the same run and on the same store, is the same board reads through the
library without HTTP (`state_at` + `board_view`), measured before and after the load
(interleaved around it). CPU time of the server and of this process is reported beside wall
time. Results: a table on stdout and ``bench/out/api_bench.json``.

    python bench/api_bench.py --seconds 20
    python bench/api_bench.py --store postgresql://postgres@127.0.0.1/test --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
SAMPLES = ROOT / "samples"
READ_MATCH = "full-combat"
"""The stored match whose boards are read."""
UPLOAD_TEMPLATE = "register-lifo"
"""The log uploaded under new ids (unsealed, so each upload is a new match)."""
MAX_SECONDS = 60.0
MIXES = {"mixed": (0.1, 0.4), "board": (0.0, 0.0), "append": (0.0, 1.0)}
"""Each load's thresholds on a roll in [0, 1): below the first an upload, below the second an
append, otherwise a board read."""
REQUEST_TIMEOUT = 30.0


@dataclass
class Tally:
    """Latencies and outcomes of one kind of request."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    conflicts: int = 0

    def row(self, name: str, wall: float) -> dict[str, Any]:
        """The table row: count, rate, p50, p99 (ms), errors."""
        lat = sorted(self.latencies)
        return {
            "op": name,
            "requests": len(lat),
            "req_per_s": round(len(lat) / wall, 1) if wall else 0.0,
            "p50_ms": round(percentile(lat, 50) * 1000, 2) if lat else None,
            "p99_ms": round(percentile(lat, 99) * 1000, 2) if lat else None,
            "errors": len(self.errors),
            "conflicts_409": self.conflicts,
        }


def percentile(sorted_values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of sorted values."""
    k = max(0, min(len(sorted_values) - 1, round(p / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Answer:
    """A response as the load reads it: status and body."""

    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code = status_code
        self.content = content

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.content)


class _ClosedError(Exception):
    """The server had closed the connection: no answer came."""


class Connection:
    """One keep-alive HTTP/1.1 connection, one request at a time: the load's client.

    httpx spent about 11 ms of CPU per request here, as much as the server, on a machine whose
    two cores the server shares with the load; this spends a fraction of that, so the figures
    measure the server. Answers must carry Content-Length (every route the load calls does)."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port = host, port
        self.auth = f"Authorization: Bearer {token}\r\n".encode()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, target: str, body: bytes = b"", content_type: str = ""
    ) -> Answer:
        """One request and its answer. A kept connection the server closed meanwhile (its
        keep-alive timeout) is opened again and the request sent again, once, as HTTP clients
        do: the server closes only a connection with no request in flight."""
        reused = self.writer is not None
        try:
            return await self._exchange(method, target, body, content_type)
        except _ClosedError:
            if not reused:
                raise ConnectionError(f"{method} {target}: closed without an answer") from None
            return await self._exchange(method, target, body, content_type)

    async def _exchange(self, method: str, target: str, body: bytes, content_type: str) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        head = f"{method} {target} HTTP/1.1\r\nHost: {self.host}\r\n".encode() + self.auth
        if body or method == "POST":
            head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n".encode()
        try:
            self.writer.write(head + b"\r\n" + body)
            status_line = await self.reader.readline()
            if not status_line:
                self.close()
                raise _ClosedError
            length = None
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if length is None:
                raise ConnectionError(f"no Content-Length: {status_line!r}")
            content = await self.reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError) as err:
            self.close()
            raise ConnectionError(f"{method} {target}: {err!r}") from err
        return Answer(int(status_line.split()[1]), content)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def unsealed_log(match_id: str) -> bytes:
    """The upload template under a new id, without hashes (the service seals it)."""
    lines = (SAMPLES / f"{UPLOAD_TEMPLATE}.jsonl").read_bytes().splitlines()
    out = []
    for i, raw in enumerate(lines):
        obj = json.loads(raw)
        obj.pop("hash", None)
        if i == 0:
            obj["match_id"] = match_id
        out.append(json.dumps(obj, separators=(",", ":")).encode())
    return b"\n".join(out) + b"\n"


def library_reads(store_url: str, match_id: str, seqs: list[int]) -> Tally:
    """The reference: the same board reads through the library, one after another."""
    from vwlog.games.vw.describe import board_view
    from vwlog.services.matches import state_at
    from vwlog.store import MatchStore

    tally = Tally()
    with MatchStore.open(store_url) as store:
        for seq in seqs:
            t = time.perf_counter()
            board_view(state_at(store, match_id, seq), seq=seq).model_dump(
                mode="json", by_alias=True
            )
            tally.latencies.append(time.perf_counter() - t)
    return tally


async def run_load(
    url: str,
    token: str,
    *,
    clients: int,
    seconds: float,
    live: list[str],
    read_match: str,
    read_head: int,
    rng: random.Random,
    mix: tuple[float, float],
    warm: bool = False,
) -> tuple[dict[str, Tally], dict[str, int], float]:
    """The load: ``clients`` tasks until the deadline; returns the tallies, the events each
    live match's receipts acknowledged, and the wall time."""
    tallies = {"upload": Tally(), "append": Tally(), "board": Tally()}
    acknowledged = dict.fromkeys(live, 0)
    deadline = time.monotonic() + seconds
    host, port = url.removeprefix("http://").split(":")
    connections = [Connection(host, int(port), token) for _ in range(clients)]

    async def one(n: int) -> None:
        local = random.Random(rng.random() + n)
        client = connections[n]
        while time.monotonic() < deadline:
            roll = local.random()
            try:
                if roll < mix[0]:
                    body = unsealed_log(f"bench-up-{secrets.token_hex(6)}")
                    t = time.perf_counter()
                    r = await client.request("POST", "/matches", body, "application/x-ndjson")
                    took, tally = time.perf_counter() - t, tallies["upload"]
                    ok = r.status_code == 201
                elif roll < mix[1]:
                    match = local.choice(live)
                    t = time.perf_counter()
                    a = await client.request("GET", f"/matches/{match}/awaited?limit=0")
                    if a.status_code != 200:
                        tallies["append"].errors.append(f"awaited {a.status_code}")
                        continue
                    decisions = {
                        "decisions": [],
                        "auto": 1,
                        "seed": local.randrange(1000),
                        "expected_seq": a.json()["seq"],
                    }
                    r = await client.request(
                        "POST",
                        f"/matches/{match}/decisions",
                        json.dumps(decisions).encode(),
                        "application/json",
                    )
                    took, tally = time.perf_counter() - t, tallies["append"]
                    if r.status_code == 409:
                        tally.conflicts += 1
                        tally.latencies.append(took)
                        continue
                    ok = r.status_code == 200
                    if ok:
                        acknowledged[match] += r.json()["appended"]
                else:
                    seq = local.randint(1, read_head)
                    t = time.perf_counter()
                    r = await client.request("GET", f"/matches/{read_match}/board?seq={seq}")
                    took, tally = time.perf_counter() - t, tallies["board"]
                    ok = r.status_code == 200 and r.json()["seq"] == seq
            except ConnectionError as err:
                tallies["board"].errors.append(repr(err))
                continue
            tally.latencies.append(took)
            if not ok:
                tally.errors.append(f"{r.status_code} {r.text[:200]}")

    async def read_all(n: int) -> None:
        # every client reads every board once, on the connection it keeps (so on its worker)
        seqs = list(range(1, read_head + 1))
        random.Random(n).shuffle(seqs)
        for seq in seqs:
            r = await connections[n].request("GET", f"/matches/{read_match}/board?seq={seq}")
            if r.status_code != 200:
                raise SystemExit(f"warming: {r.status_code} {r.text[:200]}")

    if warm:
        await asyncio.gather(*(read_all(n) for n in range(clients)))
        deadline = time.monotonic() + seconds
    started = time.perf_counter()
    await asyncio.gather(*(one(n) for n in range(clients)))
    wall = time.perf_counter() - started
    for c in connections:
        c.close()
    return tallies, acknowledged, wall


def check_matches(
    url: str, token: str, live: list[str], before: dict[str, int], acknowledged: dict[str, int]
) -> list[str]:
    """Problems with the live matches after the load (empty when none)."""
    problems = []
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, headers=headers, timeout=120) as c:
        for match in live:
            seqs: list[int] = []
            after = 0
            while True:
                page = c.get(f"/matches/{match}/events", params={"after": after, "limit": 1000})
                got = [e["seq"] for e in page.json()["events"]]
                if not got:
                    break
                seqs.extend(got)
                after = got[-1]
            if seqs != list(range(1, len(seqs) + 1)):
                problems.append(f"{match}: seqs are not 1..{len(seqs)} without gaps or repeats")
            if len(seqs) - before[match] != acknowledged[match]:
                problems.append(
                    f"{match}: {len(seqs) - before[match]} events added but receipts "
                    f"acknowledged {acknowledged[match]}"
                )
            if not c.get(f"/matches/{match}/integrity").json()["ok"]:
                problems.append(f"{match}: the hash chain does not hold")
    return problems


def cpu_of(proc: psutil.Process) -> float:
    """CPU seconds of a process and its children."""
    total = sum(proc.cpu_times()[:2])
    for child in proc.children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):
            total += sum(child.cpu_times()[:2])
    return total


def main() -> int:
    """Run the load test; exit 1 on any error, lost or duplicated event."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="store URL (default: a new SQLite file)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--reference-reads", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warm",
        action="store_true",
        help="before the load, every client reads every board of the read match once on its "
        "connection (so each worker keeps them): the steady state of boards already read, "
        "without the first reads",
    )
    parser.add_argument(
        "--mix",
        choices=sorted(MIXES),
        default="mixed",
        help="the requests: mixed (10%% uploads, 30%% appends, 60%% board reads), "
        "board (board reads only) or append (appends only)",
    )
    args = parser.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="vwlog-api-bench-"))
    store = args.store or str(work / "vwlog.db")
    made_schema = None
    if store.startswith("postgres") and "schema=" not in store:
        made_schema = f"bench_{secrets.token_hex(4)}"
        base = store
        store += ("&" if "?" in store else "?") + f"schema={made_schema}"

    from vwlog.store.tokens import Role, TokenStore

    with TokenStore.open(store) as tokens:
        token, _ = tokens.create(Role.ORGANISER, label="api bench")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (work / "serve.log").open("wb")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "vwlog",
            "--store",
            store,
            "serve",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--signing-key",
            str(work / "key.pem"),
            "--no-access-log",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=work,
    )
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        else:
            raise SystemExit("the server did not start")
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=url, headers=headers, timeout=120) as c:
            r = c.post(
                "/matches",
                content=(SAMPLES / f"{READ_MATCH}.jsonl").read_bytes(),
                headers={"Content-Type": "application/x-ndjson"},
            )
            r.raise_for_status()
            read_match, read_head = r.json()["match_id"], r.json()["events"]
            live = []
            for i in range(args.matches):
                r = c.post(
                    "/live",
                    json={
                        "match_id": f"bench-live-{i}",
                        "decks": ["order-aggro", "mystic-reigner"],
                        "seed": i,
                    },
                )
                r.raise_for_status()
                live.append(r.json()["match_id"])
            before = {m: c.get(f"/matches/{m}").json()["events"] for m in live}

        seqs = [rng.randint(1, read_head) for _ in range(args.reference_reads)]
        me = psutil.Process()
        server_proc = psutil.Process(server.pid)
        ref_a = library_reads(store, read_match, seqs)
        cpu_server, cpu_me = cpu_of(server_proc), sum(me.cpu_times()[:2])
        tallies, acknowledged, wall = asyncio.run(
            run_load(
                url,
                token,
                clients=args.clients,
                seconds=seconds,
                live=live,
                read_match=read_match,
                read_head=read_head,
                rng=rng,
                mix=MIXES[args.mix],
                warm=args.warm,
            )
        )
        cpu_server = cpu_of(server_proc) - cpu_server
        cpu_me = sum(me.cpu_times()[:2]) - cpu_me
        ref_b = library_reads(store, read_match, seqs)
        problems = check_matches(url, token, live, before, acknowledged)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        if made_schema is not None:
            import psycopg

            with psycopg.connect(base, autocommit=True) as conn:
                for schema in (made_schema, f"{made_schema}_stats"):
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

    reference = Tally(latencies=ref_a.latencies + ref_b.latencies)
    ref_wall = sum(reference.latencies)
    rows = [t.row(name, wall) for name, t in tallies.items()]
    rows.append({**reference.row("board (library, no HTTP)", ref_wall), "conflicts_409": 0})
    errors = sum(len(t.errors) for t in tallies.values())
    result = {
        "store": "postgresql" if store.startswith("postgres") else "sqlite",
        "mix": args.mix,
        "warm": args.warm,
        "workers": args.workers,
        "clients": args.clients,
        "live_matches": args.matches,
        "seconds": round(wall, 1),
        "cpu_server_s": round(cpu_server, 1),
        "cpu_client_s": round(cpu_me, 1),
        "cpus": os.cpu_count(),
        "rows": rows,
        "errors": errors,
        "error_samples": [e for t in tallies.values() for e in t.errors[:3]],
        "events_acknowledged": sum(acknowledged.values()),
        "problems": problems,
        "reference_median_ms_before_after": [
            round(statistics.median(ref_a.latencies) * 1000, 2),
            round(statistics.median(ref_b.latencies) * 1000, 2),
        ],
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "api_bench.json").write_text(json.dumps(result, indent=2) + "\n")
    print(
        f"{result['store']}, {args.workers} worker(s), {args.clients} clients "
        f"({args.mix}{', warm' if args.warm else ''}), "
        f"{args.matches} live matches, {wall:.1f} s wall; CPU: server {cpu_server:.1f} s, "
        f"load generator {cpu_me:.1f} s ({os.cpu_count()} cores shared)"
    )
    print(
        f"{'op':<26} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'errors':>6} {'409':>5}"
    )
    for row in rows:
        print(
            f"{row['op']:<26} {row['requests']:>8} {row['req_per_s']:>7} "
            f"{row['p50_ms']!s:>8} {row['p99_ms']!s:>8} {row['errors']:>6} "
            f"{row['conflicts_409']:>5}"
        )
    print(
        f"events acknowledged by receipts: {result['events_acknowledged']}; "
        f"lost or duplicated: {problems if problems else 'none'}"
    )
    if errors:
        print("errors:", result["error_samples"])
    return 1 if errors or problems else 0


if __name__ == "__main__":
    sys.exit(main())
