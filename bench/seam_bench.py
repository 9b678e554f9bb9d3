"""Validation before and after the game seam: two source trees, each with its compiled engine,
timed in turn on the same corpus.

    python bench/seam_bench.py BEFORE_TREE AFTER_TREE [--repeats N] [--out FILE]

Each tree is a checkout with its engine built (``python tools/build_engine.py`` run inside it).
Child processes import vwlog from the tree named (first on ``PYTHONPATH``) and validate the
benchmark corpus (`bench.validation_corpus`, 24 generated matches): the rounds alternate
A B B A …, so a machine that gets busier or quieter during the run weighs on both alike. Each
child times only its validation (CPU and wall), after a warm-up. Where valgrind is installed,
callgrind counts the instructions per event of each tree too (a busy machine does not change
them). Results go to ``bench/seam_results.json``: medians, ranges, and after/before.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_VALIDATE = """
import json, sys, time
from vwlog.build import is_compiled
from vwlog.services import validate_log
validate_log(sys.argv[1])  # warm-up: lazy imports, first-use caches
t1, c1 = time.perf_counter(), time.process_time()
events = 0
for p in sys.argv[1:]:
    report = validate_log(p)
    assert report.ok, p
    events += report.events
t2, c2 = time.perf_counter(), time.process_time()
import vwlog
print(json.dumps({"compiled": is_compiled(), "events": events, "wall": t2 - t1,
                  "cpu": c2 - c1, "vwlog": vwlog.__file__}))
"""

_COUNT = """
import sys
from vwlog.services import validate_log
validate_log(sys.argv[1])  # warm-up, in both runs
for p in sys.argv[2:]:
    validate_log(p)
"""


def _env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"VWLOG_ENGINE", "PYTHONPATH"}}
    env["PYTHONPATH"] = str(tree)
    return env


def _run(tree: Path, paths: list[str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _VALIDATE, *paths],
        capture_output=True,
        text=True,
        env=_env(tree),
        cwd=tree,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(result["vwlog"]).startswith(str(tree)):
        raise RuntimeError(f"{tree}: imported vwlog from {result['vwlog']}")
    if not result["compiled"]:
        raise RuntimeError(f"{tree}: the compiled engine is not built (or out of date)")
    return result


def _instructions(tree: Path, args: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                _COUNT,
                *args,
            ],
            capture_output=True,
            check=True,
            env=_env(tree),
            cwd=tree,
        )
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no totals")


def _summary(runs: list[dict[str, float]], key: str) -> dict[str, float]:
    values = [r[key] for r in runs]
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main() -> None:
    """Run the comparison and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--out", type=Path, default=ROOT / "seam_results.json")
    args = parser.parse_args()
    from bench import count_events, validation_corpus

    paths = [str(p) for p in validation_corpus(False)]
    events = count_events([Path(p) for p in paths])
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for i in range(args.repeats):
        order = ("before", "after") if i % 2 == 0 else ("after", "before")
        for name in order:
            runs[name].append(_run(trees[name], paths))
            print(f"round {i + 1} {name}: {runs[name][-1]['cpu']:.3f} s CPU", file=sys.stderr)
    result: dict[str, object] = {
        "what": "validation of the benchmark corpus, compiled engine, before and after the seam",
        "events": events,
        "logs": len(paths),
        "repeats": args.repeats,
        "machine": (
            f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}"
        ),
        "trees": {name: str(tree) for name, tree in trees.items()},
    }
    for name in trees:
        cpu, wall = _summary(runs[name], "cpu"), _summary(runs[name], "wall")
        result[name] = {
            "cpu_s": cpu,
            "wall_s": wall,
            "events_per_s_cpu": events / cpu["median"],
        }
    before_cpu = runs["before"]
    after_cpu = runs["after"]
    result["after_over_before_cpu"] = statistics.median(a["cpu"] for a in after_cpu) / (
        statistics.median(b["cpu"] for b in before_cpu)
    )
    if subprocess.run(["which", "valgrind"], capture_output=True, check=False).returncode == 0:
        warm, work = paths[0], paths[1:4]
        work_events = count_events([Path(p) for p in work])
        counts = {}
        for name, tree in trees.items():
            base = _instructions(tree, [warm])
            full = _instructions(tree, [warm, *work])
            counts[name] = (full - base) / work_events
        result["instructions_per_event"] = counts
        result["instructions_after_over_before"] = counts["after"] / counts["before"]
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
