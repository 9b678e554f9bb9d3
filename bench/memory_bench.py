"""Peak memory of importing a long match, beside validating it (the reference).

Each figure is the peak RSS (``ru_maxrss``) of a fresh Python process running one vwlog
command, with its CPU time beside its wall time; validate and import runs are interleaved and
the median of each is reported. The match is generated once (cached in bench/out/) as
bench/bench.py generates its long match: ``vwlog simulate --seed 5 --max-turns TURNS --policy
random --set victory_vp=1000 --set victory_honor=1000000 --set victory_territories=1000``;
``--turns 16000`` gives the 1.4-million-event match, ``--turns 1600`` (the default here) about
a tenth of it. Target: import within 2x the memory of validation.

With ``--postgres DSN`` each round also imports into a fresh schema of that PostgreSQL
database (dropped afterwards). The figures are printed, written to bench/out/ and kept in
bench/memory_results.json under ``TURNS`` (``--no-record`` leaves that file alone).

    python bench/memory_bench.py [--turns 1600] [--repeats 3] [--postgres postgresql://…]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from corpus import LONG_MATCH, OUT, ROOT, generated

RESULTS = ROOT / "memory_results.json"
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
    return generated(
        f"memory-long-{turns}t.jsonl", "--seed", "5", "--max-turns", str(turns), *LONG_MATCH
    )


def import_postgres(dsn: str, path: Path) -> tuple[float, float, float]:
    """`measure` of an import into a fresh schema of ``dsn``, dropped afterwards."""
    import psycopg
    from psycopg import sql

    schema = f"vwlog_bench_{uuid.uuid4().hex[:12]}"
    try:
        return measure("--store", f"{dsn}?schema={schema}", "import", str(path))
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1600)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--postgres", metavar="DSN", help="also import into PostgreSQL")
    parser.add_argument("--no-record", action="store_true", help="leave memory_results.json")
    options = parser.parse_args()
    path = long_match(options.turns)
    events = sum(1 for _ in path.open("rb")) - 1
    runs: dict[str, list[tuple[float, float, float]]] = {"validate": [], "import": []}
    if options.postgres:
        runs["import_postgres"] = []
    for _ in range(options.repeats):
        runs["validate"].append(measure("validate", str(path)))
        with tempfile.TemporaryDirectory() as work:
            store = str(Path(work) / "store.db")
            runs["import"].append(measure("--store", store, "import", str(path)))
        if options.postgres:
            runs["import_postgres"].append(import_postgres(options.postgres, path))
    result: dict[str, Any] = {
        "events": events,
        "turns": options.turns,
        "log_mib": round(path.stat().st_size / 2**20, 1),
        "repeats": options.repeats,
    }
    for name, measured in runs.items():
        result[name] = {
            "peak_rss_mib": round(statistics.median(m[0] for m in measured), 1),
            "cpu_s": round(statistics.median(m[1] for m in measured), 2),
            "wall_s": round(statistics.median(m[2] for m in measured), 2),
        }
    for name in runs:
        if name != "validate":
            ratio = result[name]["peak_rss_mib"] / result["validate"]["peak_rss_mib"]
            result[f"ratio_{name}"] = round(ratio, 2)
    result["when"] = time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime())
    print(json.dumps(result, indent=2))
    (OUT / f"memory-{options.turns}t.json").write_text(json.dumps(result, indent=2))
    if not options.no_record:
        recorded = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        recorded[str(options.turns)] = result
        RESULTS.write_text(json.dumps(recorded, indent=2) + "\n")


if __name__ == "__main__":
    main()
