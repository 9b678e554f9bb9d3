"""The web viewer on a long match: open a 13,000-event match and scrub to its end.

A real ``vwlog serve`` (SQLite, one worker, loopback) holds one long simulated match (the
``vwlog simulate`` example of a long match: 160 turns, no winner). Each round, interleaved:

- **viewer**: a fresh page of Debian's headless Chromium opens ``/m/ID/0``, waits for the board,
  then presses End (scrub to the end) and waits until the board after the last event is drawn.
  Two times are taken: from navigation to the first board, and from End to the last board;
  each both as Playwright sees it (it polls the page) and inside the page (from the End key's
  time stamp to the start of the frame that shows the board, seen by a MutationObserver).
- **api** (the reference): the same board (``GET /matches/ID/board?seq=HEAD``) with httpx.

Medians of wall time, with the CPU time of the server and of Chromium beside them, the worst
round, and the first round apart (it opens the match cold: the service computes and keeps the
timeline, the validation report and the rulings then). Results: a table on stdout and
``bench/out/viewer_bench.json``.

    python bench/viewer_bench.py --rounds 5 [--log LONG.jsonl] [--compare REV]

``--compare REV`` also runs, interleaved round by round, the viewer's script as it was at the
git revision REV (served in its place by the browser), against the same server.
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
from typing import Any

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
    ap.add_argument("--log", type=Path, help="a long match's log (default: simulate one)")
    ap.add_argument(
        "--compare",
        metavar="REV",
        help="also run, interleaved, the viewer's script as it was at this git revision",
    )
    args = ap.parse_args()
    rounds = max(1, min(args.rounds, 20))
    with tempfile.TemporaryDirectory(prefix="vwlog-viewer-bench-") as tmp:
        work = Path(tmp)
        log = args.log or work / "long.jsonl"
        store = str(work / "vwlog.db")
        if args.log is None:
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
            run(url, secret, match_id, rounds, psutil.Process(server.pid), args.compare)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()


def cpu(p: psutil.Process) -> float:
    """CPU seconds used so far by a process and its live children (a server's workers)."""
    total = 0.0
    for one in (p, *p.children(recursive=True)):
        try:
            t = one.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += float(t.user + t.system)
    return total


def browser_cpu() -> float:
    """CPU seconds used so far by the Chromium processes this benchmark started (children of
    the Playwright driver, itself a child of this process)."""
    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            if "chrom" in child.name():
                t = child.cpu_times()
                total += float(t.user + t.system)
        except psutil.NoSuchProcess:
            pass
    return total


PAGE_TIMES = """
window.__vwlogKeys = [];
window.__vwlogBoards = [];
document.addEventListener("keydown", (e) => window.__vwlogKeys.push([e.key, e.timeStamp]), true);
new MutationObserver((changes) => {
  for (const c of changes) {
    if (c.target.id !== "board") continue;
    const seq = c.target.dataset.seq;
    const drawn = performance.now();
    requestAnimationFrame(() => window.__vwlogBoards.push([seq, drawn, performance.now()]));
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-seq"] });
"""
"""Kept by the page: when each key was pressed (the event's time stamp), and when the board of
each seq was put in the page and when the frame showing it began (ms since navigation)."""


def page_times(page: Any, head: int) -> tuple[float, float]:
    """Inside the page: navigation to the frame showing board 0, and the End key's time stamp
    to the frame showing the board of ``head`` (seconds)."""
    t: list[float] = page.evaluate(
        """(head) => {
          const frame = (seq) => window.__vwlogBoards.filter((b) => b[0] === String(seq)).pop()[2];
          const end = window.__vwlogKeys.filter((k) => k[0] === "End").pop()[1];
          return [frame(0), frame(head) - end];
        }""",
        head,
    )
    return t[0] / 1000, t[1] / 1000


def git_file(rev: str, path: str) -> bytes:
    """A file as it was at a git revision of this repository."""
    done = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, timeout=60
    )
    if done.returncode != 0:
        raise SystemExit(f"git show {rev}:{path} failed: {done.stderr.decode().strip()}")
    return done.stdout


def viewer_round(
    browser: Any, url: str, secret: str, match_id: str, head: int, proc: psutil.Process,
    script: bytes | None,
) -> dict[str, float]:  # fmt: skip
    """Open ``/m/ID/0`` in a fresh page, wait for the board, press End, wait for the last
    board. ``script``: the viewer's script to serve instead of the current one."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(f"localStorage.setItem('vwlog-token', {secret!r});")
    ctx.add_init_script(PAGE_TIMES)
    if script is not None:
        ctx.route(
            "**/static/viewer.js",
            lambda route: route.fulfill(body=script, content_type="text/javascript; charset=utf-8"),
        )
    page = ctx.new_page()
    s0, b0 = cpu(proc), browser_cpu()
    t0 = time.perf_counter()
    page.goto(f"{url}/m/{match_id}/0")
    page.wait_for_selector("#board[data-seq='0']", timeout=TIMEOUT_MS)
    t1 = time.perf_counter()
    s1, b1 = cpu(proc), browser_cpu()
    page.keyboard.press("End")
    page.wait_for_selector(f"#board[data-seq='{head}']", timeout=TIMEOUT_MS)
    t2 = time.perf_counter()
    s2, b2 = cpu(proc), browser_cpu()
    page.wait_for_function(
        "(head) => window.__vwlogBoards.some((b) => b[0] === String(head))", arg=head
    )
    open_page, scrub_page = page_times(page, head)
    ctx.close()
    time.sleep(1.0)  # let the page's last requests end on the server
    return {
        "open": t1 - t0,
        "open_page": open_page,
        "scrub": t2 - t1,
        "scrub_page": scrub_page,
        "cpu_server_open": s1 - s0,
        "cpu_server_scrub": s2 - s1,
        "cpu_browser_open": b1 - b0,
        "cpu_browser_scrub": b2 - b1,
    }


def run(
    url: str, secret: str, match_id: str | None, rounds: int, proc: psutil.Process,
    compare: str | None,
) -> None:  # fmt: skip
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
    scripts: dict[str, bytes | None] = {"viewer": None}
    if compare:
        scripts[f"viewer@{compare}"] = git_file(compare, "vwlog/api/static/viewer.js")
    rows: dict[str, dict[str, list[float]]] = {k: {} for k in scripts}
    api: dict[str, list[float]] = {"wall": [], "cpu_server": []}
    with httpx.Client(base_url=url, headers=headers, timeout=120) as c:
        if match_id is None:
            match_id = c.get("/matches").json()["matches"][0]["match_id"]
        head = c.get(f"/matches/{match_id}").json()["events"]
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            for n in range(rounds):
                order = list(scripts) if n % 2 == 0 else list(scripts)[::-1]
                for name in order:
                    got = viewer_round(browser, url, secret, match_id, head, proc, scripts[name])
                    for k, v in got.items():
                        rows[name].setdefault(k, []).append(v)
                # the reference: the same board through the API
                s0 = cpu(proc)
                t0 = time.perf_counter()
                r = c.get(f"/matches/{match_id}/board", params={"seq": head})
                r.raise_for_status()
                api["wall"].append(time.perf_counter() - t0)
                api["cpu_server"].append(cpu(proc) - s0)
            browser.close()

    def ms(xs: list[float], f: Any = statistics.median) -> float:
        return round(f(xs) * 1000, 1)

    result: dict[str, Any] = {
        "match_events": head,
        "rounds": rounds,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "note": "ms; medians over the rounds; worst: the slowest round; first: the first round "
        "(the service meets the match cold)",
        "api_board_at_head": {
            "wall_median": ms(api["wall"]),
            "wall_worst": ms(api["wall"], max),
            "server_cpu_median": ms(api["cpu_server"]),
        },
    }
    for name, got in rows.items():
        result[name] = {
            k: {"median": ms(v), "worst": ms(v, max), "first": round(v[0] * 1000, 1)}
            for k, v in got.items()
        }
    result["raw_s"] = {"api": api, **rows}
    print(
        f"match of {head} events, {rounds} rounds, load average {result['load_average_1min']} "
        f"on {result['cpus']} CPUs; ms: median / worst / first round (cold)"
    )
    a = result["api_board_at_head"]
    print(f"  {'api board at head (reference)':42} {a['wall_median']:8.1f} {a['wall_worst']:8.1f}")
    print(f"  {'  server cpu':42} {a['server_cpu_median']:8.1f}")
    for name in rows:
        for k, v in result[name].items():
            print(f"  {name + ' ' + k:42} {v['median']:8.1f} {v['worst']:8.1f} {v['first']:8.1f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "viewer_bench.json").write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
