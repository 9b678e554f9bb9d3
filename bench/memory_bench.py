"""Peak memory of importing a long match, beside validating it (the reference).

Each figure is the peak RSS (``ru_maxrss``) of a fresh Python process running one vwlog
command, with its CPU time beside its wall time; validate and import runs are interleaved and
the median of each is reported. The match is generated once (cached in bench/out/) as
bench/bench.py generates its long match: ``vwlog simulate --seed 5 --max-turns TURNS --policy
random --set victory_vp=1000 --set victory_honor=1000000 --set victory_territories=1000``;
``--turns 16000`` gives the 1.4-million-event match, ``--turns 1600`` (the default here) about
a tenth of it. Target: import within 2x the memory of validation.

    python bench/memory_bench.py [--turns 1600] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
OUT = ROOT / "out"
LONG_MATCH = (
    "--policy",
    "random",
    "--set",
    "victory_vp=1000",
    "--set",
    "victory_honor=1000000",
    "--set",
    "victory_territories=1000",
)
_MEASURE = """
import resource, sys, time
from vwlog.cli import main
t = time.perf_counter()
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
usage = resource.getrusage(resource.RUSAGE_SELF)
print("MEASURED", usage.ru_maxrss, usage.ru_utime + usage.ru_stime, time.perf_counter() - t)
"""


def measure(*args: str) -> tuple[float, float, float]:
    """(peak RSS in MiB, CPU seconds, wall seconds) of one vwlog command in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *args], check=True, capture_output=True, text=True
    ).stdout
    line = next(x for x in out.splitlines() if x.startswith("MEASURED"))
    _, rss, cpu, wall = line.split()
    return int(rss) / 1024, float(cpu), float(wall)


def long_match(turns: int) -> Path:
    """The long match of ``turns`` turns, generated once."""
    OUT.mkdir(exist_ok=True)
    path = OUT / f"memory-long-{turns}t.jsonl"
    if not path.exists():
        tmp = OUT / f".tmp-{path.name}"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "vwlog",
                "simulate",
                "--seed",
                "5",
                "--max-turns",
                str(turns),
                *LONG_MATCH,
                "-o",
                str(tmp),
            ],
            check=True,
        )
        tmp.rename(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1600)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    path = long_match(options.turns)
    events = sum(1 for _ in path.open("rb")) - 1
    runs: dict[str, list[tuple[float, float, float]]] = {"validate": [], "import": []}
    for _ in range(options.repeats):
        runs["validate"].append(measure("validate", str(path)))
        with tempfile.TemporaryDirectory() as work:
            store = str(Path(work) / "store.db")
            runs["import"].append(measure("--store", store, "import", str(path)))
    result = {"events": events, "turns": options.turns, "repeats": options.repeats}
    for name, measured in runs.items():
        result[name] = {
            "peak_rss_mib": statistics.median(m[0] for m in measured),
            "cpu_s": statistics.median(m[1] for m in measured),
            "wall_s": statistics.median(m[2] for m in measured),
        }
    result["ratio"] = result["import"]["peak_rss_mib"] / result["validate"]["peak_rss_mib"]
    result["when"] = time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime())
    print(json.dumps(result, indent=2))
    (OUT / f"memory-{options.turns}t.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
