"""The engine benchmark: the compiled and the pure-Python engine, and instruction counts.

``bench_engines(repeats, quick)`` validates the same corpus in child processes, the compiled
engine and the pure-Python one (``VWLOG_ENGINE=pure``) in turn, A B A B …, beside python-chess
reading and validating as many plies; each child times only its work (CPU and wall), so
interpreter start-up and imports are left out and reported on their own.

``bench_instructions(repeats, quick)`` counts instructions with valgrind's callgrind, which a
busy machine does not disturb: validating a few logs per event, and python-chess per ply. Each
count is the difference between a run that does the work and one that only imports and warms
up, so start-up cancels out.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from bench import Figure

_VALIDATE = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from vwlog.build import is_compiled
from vwlog.services import validate_log
only_startup = sys.argv[1] == "--startup"
paths = sys.argv[2:] if only_startup else sys.argv[1:]
validate_log(paths[0])  # warm-up: lazy imports, first-use caches
t1, c1 = time.perf_counter(), time.process_time()
events = 0
if not only_startup:
    for p in paths:
        report = validate_log(p)
        assert report.ok, p
        events += report.events
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"compiled": is_compiled(), "events": events, "wall": t2 - t1, "cpu": c2 - c1,
                  "startup_wall": t1 - t0, "startup_cpu": c1 - c0}))
"""

_CHESS = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from bench import read_pgn
text = open(sys.argv[2]).read()
read_pgn(text[:20000])
t1, c1 = time.perf_counter(), time.process_time()
plies = read_pgn(text)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"plies": plies, "wall": t2 - t1, "cpu": c2 - c1}))
"""


def _child(code: str, args: list[str], pure: bool = False) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "VWLOG_ENGINE"}
    if pure:
        env["VWLOG_ENGINE"] = "pure"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def bench_engines(repeats: int, quick: bool) -> list[Figure]:
    from bench import OUT, Figure, Timing, chess_pgn, count_events, rate_figure, validation_corpus

    paths = validation_corpus(quick)
    events = count_events(paths)
    pgn = OUT / f"chess-{events}.pgn"
    if not pgn.exists():
        pgn.write_text(chess_pgn(events))
    args = [str(p) for p in paths]
    runs: dict[str, list[dict[str, float]]] = {"compiled": [], "pure": [], "chess": []}
    startup: list[dict[str, float]] = []
    for _ in range(repeats):  # interleaved: compiled, pure, chess, compiled, pure, chess, …
        runs["compiled"].append(_child(_VALIDATE, args))
        runs["pure"].append(_child(_VALIDATE, args, pure=True))
        runs["chess"].append(_child(_CHESS, [str(ROOT), str(pgn)]))
        startup.append(_child(_VALIDATE, ["--startup", args[0]]))
    if not runs["compiled"][0]["compiled"]:
        print("warning: the compiled engine is not built; both columns are pure", file=sys.stderr)
    plies = int(runs["chess"][0]["plies"])

    def timing(name: str) -> Timing:
        return Timing(
            statistics.median(r["wall"] for r in runs[name]),
            statistics.median(r["cpu"] for r in runs[name]),
        )

    compiled, pure, chess = timing("compiled"), timing("pure"), timing("chess")
    start_wall = statistics.median(s["startup_wall"] for s in startup)
    start_cpu = statistics.median(s["startup_cpu"] for s in startup)
    note = f"{events:,} events in {len(paths)} logs; child processes, start-up excluded"
    return [
        rate_figure(
            "validation, compiled engine",
            events,
            "events/s",
            (compiled, chess),
            "python-chess PGN read+validate",
            ">= 100,000 events/s and >= 2x python-chess",
            note + f"; {plies:,} plies",
            reference_amount=plies,
        ),
        rate_figure(
            "validation, compiled engine vs pure",
            events,
            "events/s",
            (compiled, pure),
            "same logs, VWLOG_ENGINE=pure",
            "report the speed-up",
            note,
        ),
        Figure(
            "start-up (import vwlog, first validation)",
            start_wall * 1000,
            "ms",
            "validation of the corpus",
            compiled.wall * 1000,
            "report",
            "measured in each child before its timed work",
            start_cpu * 1000,
            compiled.cpu * 1000,
        ),
    ]


# -- instruction counts ----------------------------------------------------------------------

_COUNT_VWLOG = """
import sys
from vwlog.services import validate_log
validate_log(sys.argv[1])  # warm-up, in both runs
for p in sys.argv[2:]:
    validate_log(p)
"""

_COUNT_CHESS = """
import sys
sys.path.insert(0, sys.argv[1])
from bench import read_pgn
text = open(sys.argv[2]).read()
read_pgn(text[:20000])  # warm-up, in both runs
if sys.argv[3] == "run":
    read_pgn(text)
"""


def _instructions(code: str, args: list[str], env: dict[str, str] | None = None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                code,
                *args,
            ],
            capture_output=True,
            check=True,
            env=env,
        )
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no totals")


def bench_instructions(_repeats: int, quick: bool) -> list[Figure]:
    from bench import OUT, Figure, chess_pgn, count_events, validation_corpus

    if shutil.which("valgrind") is None:
        print("warning: valgrind is not installed; no instruction counts", file=sys.stderr)
        return []
    paths = validation_corpus(True)
    warm, work = paths[0], paths[1 : 2 if quick else 4]
    events = count_events(work)
    pgn = OUT / f"chess-count-{events}.pgn"
    if not pgn.exists():
        pgn.write_text(chess_pgn(events))
    from bench import read_pgn

    plies = read_pgn(pgn.read_text())
    counts: dict[str, float] = {}
    for engine in ("compiled", "pure"):
        env = {k: v for k, v in os.environ.items() if k != "VWLOG_ENGINE"}
        if engine == "pure":
            env["VWLOG_ENGINE"] = "pure"
        base = _instructions(_COUNT_VWLOG, [str(warm)], env)
        full = _instructions(_COUNT_VWLOG, [str(warm), *map(str, work)], env)
        counts[engine] = (full - base) / events
    chess_base = _instructions(_COUNT_CHESS, [str(ROOT), str(pgn), "base"])
    chess_full = _instructions(_COUNT_CHESS, [str(ROOT), str(pgn), "run"])
    counts["chess"] = (chess_full - chess_base) / plies
    note = f"callgrind; {events:,} events in {len(work)} logs, {plies:,} plies; start-up cancels"
    return [
        Figure(
            "instructions per event, compiled engine",
            counts["compiled"],
            "instr",
            "python-chess instructions per ply",
            counts["chess"],
            "<= 0.5x python-chess (2x its speed)",
            note,
        ),
        Figure(
            "instructions per event, pure engine",
            counts["pure"],
            "instr",
            "compiled engine",
            counts["compiled"],
            "report",
            note,
        ),
    ]
