"""Run `api_bench.py` interleaved on two trees (a base and this one), every load on both.

Each round runs every (store, load) case on the base tree, then on this tree, so the two see
the same machine; results go to ``bench/out/api_compare.json`` (the rows of every run, the
machine's load average before each) and a table to stdout.

    python bench/api_compare.py --base /path/to/base-tree --rounds 2 --seconds 15
    python bench/api_compare.py --summarize bench/out/api_compare.json > bench/api_results.json

The base tree is run with this tree's `api_bench.py` (copied into it), so both are measured by
the same client; the server is the base tree's (``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
CASES = (
    ("sqlite", 1, "board", True),
    ("sqlite", 1, "board", False),
    ("sqlite", 1, "append", False),
    ("sqlite", 1, "mixed", False),
    ("postgresql", 2, "board", True),
    ("postgresql", 2, "append", False),
    ("postgresql", 2, "mixed", False),
)
"""(store, workers, load, warm) of every case."""


def run(tree: Path, store: str, workers: int, mix: str, warm: bool, seconds: float) -> dict:
    """One run of the load bench on ``tree``'s server; its JSON result."""
    args = [sys.executable, str(tree / "bench" / "api_bench_run.py"), "--seconds", str(seconds)]
    args += ["--workers", str(workers), "--mix", mix] + (["--warm"] if warm else [])
    if store == "postgresql":
        args += [
            "--store",
            os.environ.get("VWLOG_BENCH_PG", "postgresql://postgres@127.0.0.1/test"),
        ]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    load = os.getloadavg()[0]
    done = subprocess.run(args, env=env, cwd=tree, capture_output=True, text=True, timeout=600)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: {done.stderr[-2000:]}")
    result = json.loads((tree / "bench" / "out" / "api_bench.json").read_text())
    return {**result, "loadavg_1min": round(load, 2), "exit": done.returncode}


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians and ranges over the rounds, per tree and case: req/s, p50 and p99 of each kind
    of request, errors, lost or duplicated events, and the load average before each run."""
    cases: dict[str, dict[str, Any]] = {}
    for run_ in runs:
        case = (
            f"{run_['store']}/{run_['workers']}w/{run_['mix']}"
            f"{'/warm' if run_.get('warm') else ''}/{run_['tree']}"
        )
        entry = cases.setdefault(case, {"runs": 0, "loadavg_1min": [], "ops": {}, "problems": 0})
        entry["runs"] += 1
        entry["loadavg_1min"].append(run_["loadavg_1min"])
        entry["problems"] += len(run_["problems"])
        for row in run_["rows"]:
            if not row["requests"] or "library" in row["op"]:
                continue
            op = entry["ops"].setdefault(
                row["op"], {"req_per_s": [], "p50_ms": [], "p99_ms": [], "errors": 0}
            )
            for key in ("req_per_s", "p50_ms", "p99_ms"):
                op[key].append(row[key])
            op["errors"] += row["errors"]
    for entry in cases.values():
        for op in entry["ops"].values():
            for key in ("req_per_s", "p50_ms", "p99_ms"):
                values = op[key]
                op[key] = {
                    "median": round(statistics.median(values), 2),
                    "range": [min(values), max(values)],
                }
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path)
    parser.add_argument("--summarize", type=Path, help="summarize the runs of this file")
    parser.add_argument(
        "--only",
        action="append",
        metavar="STORE/LOAD[/warm]",
        help="run only these cases (postgresql/board/warm, sqlite/append, ...); repeatable",
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    if args.summarize is not None:
        print(json.dumps(summarize(json.loads(args.summarize.read_text())), indent=1))
        return 0
    if args.base is None:
        parser.error("--base is needed to run the loads")
    trees = {"base": args.base.resolve(), "new": ROOT}
    for tree in trees.values():
        shutil.copy(ROOT / "bench" / "api_bench.py", tree / "bench" / "api_bench_run.py")
    runs = []
    try:
        for n in range(args.rounds):
            for store, workers, mix, warm in CASES:
                label = f"{store}/{mix}" + ("/warm" if warm else "")
                if args.only and label not in args.only:
                    continue
                for name, tree in trees.items():
                    got = run(tree, store, workers, mix, warm, args.seconds)
                    runs.append({"round": n, "tree": name, **got})
                    row = {r["op"]: r for r in got["rows"]}
                    print(
                        f"{name:4} {store:10} w{workers} {mix:6} {'warm' if warm else 'cold':4} "
                        + "  ".join(
                            f"{op} {row[op]['req_per_s']}/s p50 {row[op]['p50_ms']} "
                            f"p99 {row[op]['p99_ms']} err {row[op]['errors']}"
                            for op in ("upload", "append", "board")
                            if row[op]["requests"]
                        ),
                        flush=True,
                    )
    finally:
        for tree in trees.values():
            (tree / "bench" / "api_bench_run.py").unlink(missing_ok=True)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "api_compare.json").write_text(json.dumps(runs, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
