"""The web viewer on a long match: open a 13,000-event match and scrub to its end.

A real ``vwlog serve`` (SQLite, one worker, loopback) holds one long simulated match (the
``vwlog simulate`` example of a long match: 160 turns, no winner). Each round, interleaved:

- **viewer**: a fresh page of Debian's headless Chromium opens ``/m/ID/0``, waits for the board,
  then presses End (scrub to the end) and waits until the board after the last event is drawn.
  Two times are taken: from navigation to the first board, and from End to the last board.
- **api**: the same board (``GET /matches/ID/board?seq=HEAD``) fetched with httpx.

Medians of wall time, with the server's CPU time per round beside them. Results: a table on
stdout and ``bench/out/viewer_bench.json``.

    python bench/viewer_bench.py --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LONG = [
    "--seed", "5", "--max-turns", "160", "--policy", "random",
    "--set", "victory_vp=1000", "--set", "victory_honor=1000000",
    "--set", "victory_territories=1000",
]  # fmt: skip
TIMEOUT_MS = 120_000


def vwlog(*args: str) -> str:
    """Run the command line; its stdout."""
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", *args], capture_output=True, text=True, timeout=600
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"vwlog {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def main() -> None:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rounds = max(1, min(args.rounds, 20))
    with tempfile.TemporaryDirectory(prefix="vwlog-viewer-bench-") as tmp:
        work = Path(tmp)
        log = work / "long.jsonl"
        store = str(work / "vwlog.db")
        vwlog("simulate", *LONG, "-o", str(log))
        vwlog("--store", store, "import", str(log))
        match_id = json.loads(log.read_text().splitlines()[0]).get("match_id")
        from vwlog.store.tokens import Role, TokenStore

        with TokenStore.open(store) as tokens:
            secret, _ = tokens.create(Role.JUDGE, label="bench")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "VWLOG_STORE": store}
        server = subprocess.Popen(
            [sys.executable, "-m", "vwlog", "serve", "--port", str(port), "--no-access-log",
             "--signing-key", str(work / "k.pem")],
            env=env, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            run(url, secret, match_id, rounds, psutil.Process(server.pid))
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()


def cpu(p: psutil.Process) -> float:
    """CPU seconds used by a process so far."""
    t = p.cpu_times()
    return float(t.user + t.system)


def run(url: str, secret: str, match_id: str | None, rounds: int, proc: psutil.Process) -> None:
    """The interleaved rounds."""
    headers = {"Authorization": f"Bearer {secret}"}
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit("vwlog serve did not answer")
        time.sleep(0.2)
    with httpx.Client(base_url=url, headers=headers, timeout=120) as c:
        if match_id is None:
            match_id = c.get("/matches").json()["matches"][0]["match_id"]
        head = c.get(f"/matches/{match_id}").json()["events"]
        rows: dict[str, list[float]] = {
            k: [] for k in ("open", "scrub_end", "api", "cpu_v", "cpu_a")
        }
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            for _ in range(rounds):
                # viewer
                ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                ctx.add_init_script(f"localStorage.setItem('vwlog-token', {secret!r});")
                page = ctx.new_page()
                c0 = cpu(proc)
                t0 = time.perf_counter()
                page.goto(f"{url}/m/{match_id}/0")
                page.wait_for_selector("#board[data-seq='0']", timeout=TIMEOUT_MS)
                t1 = time.perf_counter()
                page.keyboard.press("End")
                page.wait_for_selector(f"#board[data-seq='{head}']", timeout=TIMEOUT_MS)
                t2 = time.perf_counter()
                rows["cpu_v"].append(cpu(proc) - c0)
                rows["open"].append(t1 - t0)
                rows["scrub_end"].append(t2 - t1)
                ctx.close()
                time.sleep(1.0)  # let the page's background event loading end on the server
                # api
                c0 = cpu(proc)
                t0 = time.perf_counter()
                r = c.get(f"/matches/{match_id}/board", params={"seq": head})
                r.raise_for_status()
                rows["api"].append(time.perf_counter() - t0)
                rows["cpu_a"].append(cpu(proc) - c0)
            browser.close()
    med = {k: round(statistics.median(v) * 1000, 1) for k, v in rows.items()}
    result = {
        "match_events": head,
        "rounds": rounds,
        "median_ms": {
            "viewer_open_to_first_board": med["open"],
            "viewer_end_key_to_last_board": med["scrub_end"],
            "api_board_at_head": med["api"],
            "server_cpu_viewer_round": med["cpu_v"],
            "server_cpu_api_round": med["cpu_a"],
        },
        "raw_s": rows,
    }
    print(f"match of {head} events, {rounds} rounds (medians, ms)")
    for k, v in result["median_ms"].items():  # type: ignore[attr-defined]
        print(f"  {k:34} {v:10.1f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "viewer_bench.json").write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
