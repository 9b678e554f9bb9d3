"""Re-running an import over logs that are all stored already (an interrupted batch import run
again), beside a fresh import of the same logs (the reference).

A log whose file has the SHA-256 a stored match was imported from is recognised before it is
read again or validated (`vwlog.services.importing`): re-running costs a hash of each file and
two catalog lookups, not a validation. Each round imports the corpus into a new SQLite store
(``fresh``), then imports it again into that store (``unchanged``); the rounds are repeated and
the median wall and CPU time of each is reported, CPU beside wall (and kept in
bench/resume_results.json).

    python bench/resume_bench.py [--matches 200] [--turns 8] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus import OUT, ROOT, generated


def _children_cpu() -> float:
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def timed_import(store: str, logs: Path) -> tuple[float, float, str]:
    """(wall s, CPU s, the summary line) of ``vwlog --store STORE import LOGS/*.jsonl``."""
    paths = sorted(str(p) for p in logs.glob("*.jsonl"))
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "--store", store, "import", *paths],
        check=True,
        capture_output=True,
        text=True,
    )
    wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
    summary = (done.stdout.strip().splitlines() or [""])[-1] + done.stderr.strip()[-200:]
    return wall, cpu, summary


def corpus(matches: int, turns: int) -> Path:
    """``matches`` generated matches of at most ``turns`` turns, made once under bench/out/."""
    return generated(
        f"resume-{matches}m-{turns}t",
        "--seed",
        "11",
        "--matches",
        str(matches),
        "--max-turns",
        str(turns),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    logs = corpus(options.matches, options.turns)
    events = sum(sum(1 for _ in p.open("rb")) - 1 for p in logs.glob("*.jsonl"))
    runs: dict[str, list[tuple[float, float]]] = {"fresh": [], "unchanged": []}
    summaries = {}
    for _ in range(options.repeats):
        with tempfile.TemporaryDirectory() as work:
            store = str(Path(work) / "store.db")
            for name in runs:
                wall, cpu, summaries[name] = timed_import(store, logs)
                runs[name].append((wall, cpu))
    result: dict[str, object] = {
        "matches": options.matches,
        "events": events,
        "repeats": options.repeats,
    }
    for name, measured in runs.items():
        result[name] = {
            "wall_s": round(statistics.median(m[0] for m in measured), 2),
            "cpu_s": round(statistics.median(m[1] for m in measured), 2),
            "summary": summaries[name],
        }
    fresh, again = runs["fresh"], runs["unchanged"]
    result["ratio_wall"] = round(
        statistics.median(m[0] for m in again) / statistics.median(m[0] for m in fresh), 3
    )
    result["ratio_cpu"] = round(
        statistics.median(m[1] for m in again) / statistics.median(m[1] for m in fresh), 3
    )
    result["when"] = time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime())
    print(json.dumps(result, indent=2))
    (OUT / "resume.json").write_text(json.dumps(result, indent=2))
    (ROOT / "resume_results.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
