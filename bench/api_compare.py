"""Run `api_bench.py` interleaved on two trees (a base and this one), every load on both.

Each round runs every (store, load) case on the base tree, then on this tree, so the two see
the same machine; results go to ``bench/out/api_compare.json`` (the rows of every run, the
machine's load average before each) and a table to stdout.

    python bench/api_compare.py --base /path/to/base-tree --rounds 1 --seconds 15

The base tree is run with this tree's `api_bench.py` (copied into it), so both are measured by
the same client; the server is the base tree's (``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    trees = {"base": args.base.resolve(), "new": ROOT}
    for tree in trees.values():
        shutil.copy(ROOT / "bench" / "api_bench.py", tree / "bench" / "api_bench_run.py")
    runs = []
    try:
        for n in range(args.rounds):
            for store, workers, mix, warm in CASES:
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
