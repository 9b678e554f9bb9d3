"""The diff benchmark: two records of a 10,000-event match that part near the end.

``bench_diff(repeats, quick)`` returns figures in the shape of ``bench/bench.py``'s `Figure`,
each beside a reference measured in the same run on the same files: reading both records with
`read_log` (the parsing floor a diff cannot go under) and validating one of them with
`validate_log`. The second record is the first with one event changed near the end and left
unsealed there (an alteration after the fact), so the diff reads almost all of both files.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from bench import Figure

# bench.py's helpers are imported inside the functions, so that bench.py may import this module
# at its top without a circular import.

TARGET_EVENTS = 10_000
"""About how long the benchmark's match is (the quick run uses a tenth)."""


def _pair(quick: bool) -> tuple[Path, Path, int]:
    """A long generated match and a copy with one event changed near its end."""
    from bench import OUT, corpus, count_events

    turns = "12" if quick else "115"
    name = "diff-a-q.jsonl" if quick else "diff-a.jsonl"
    a = corpus(
        name,
        "--seed",
        "3",
        "--policy",
        "random",
        "--max-turns",
        turns,
        "--set",
        "victory_vp=1000",
        "--set",
        "victory_honor=100000",
        "--set",
        "victory_territories=99",
    )
    b = OUT / name.replace("diff-a", "diff-b")
    lines = a.read_bytes().split(b"\n")
    records = [i for i, line in enumerate(lines) if line][1:]
    for i in reversed(records[int(len(records) * 0.97) :]):
        data = orjson.loads(lines[i])
        if data["event"]["type"] == "gold_produced":
            data["event"]["amount"] += 1
            lines[i] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
            break
    else:
        raise AssertionError("no gold_produced event near the end of the benchmark match")
    b.write_bytes(b"\n".join(lines))
    return a, b, count_events([a])


def bench_diff(repeats: int, quick: bool) -> list[Figure]:
    """Diff two records of a ~10,000-event match beside reading and validating them."""
    from bench import interleaved, time_figure
    from vwlog.audit.diff import diff_logs
    from vwlog.io.logfile import read_log
    from vwlog.services import validate_log

    a, b, events = _pair(quick)
    report = diff_logs(a, b)
    assert report.divergence is not None
    at = report.divergence.seq

    def run_diff() -> None:
        diff_logs(a, b)

    def run_read() -> None:
        read_log(a)
        read_log(b)

    t = interleaved(
        {"diff": run_diff, "read": run_read, "validate": lambda: validate_log(a)}, repeats
    )
    note = f"{events:,} events, divergence at seq {at:,}"
    return [
        time_figure(
            "diff of two long records",
            1000,
            "ms",
            (t["diff"], t["read"]),
            "read_log of both files",
            "well under 1 s for 10,000 events",
            note,
        ),
        time_figure(
            "diff vs validating one record",
            1000,
            "ms",
            (t["diff"], t["validate"]),
            "validate_log of one file",
            "report the ratio",
            note,
        ),
    ]


if __name__ == "__main__":
    import argparse

    from bench import OUT, table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    print(table(bench_diff(args.repeats, args.quick)))
