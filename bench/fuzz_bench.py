"""The long fuzz run: every command that reads a record, on seeded damaged logs, in process.

    python bench/fuzz_bench.py                      # 100,000 inputs, 2 processes, seeds 1, 2
    python bench/fuzz_bench.py --inputs 2000 --jobs 1 --seed 7
    python bench/fuzz_bench.py --samples all        # every sample (slower: longer logs)

Each process runs `tests.fuzz.mutator.fuzz` with its own seed (``--seed``, ``--seed + 1``, …)
on its share of the inputs: each input is one sample log damaged one way (bytes, swapped
lines, a re-hashed field edit, a truncation, a huge value, a crafted record, a reformatted
header, stripped hashes) and runs one command in turn (every command that reads a log file,
its JSON and board outputs, and verify, show, replay, next, export and stats on what import
stored), under a time limit per command. A traceback, an exit status other than 0, 1 or 2, an
exit 2 without its one ``Error:`` line, a defect reported as "internal error" and a command
that runs out of time (a hang) are findings; the inputs that found something are kept in
``--keep`` to be replayed. The figures (inputs, commands run, tracebacks, hangs, wall time,
the machine's load before and after, the engine) go to ``--out`` as JSON and to stdout.

By default the three shortest samples are damaged (absolute-victory, hand-limit,
judge-backup: 42 to 86 lines), so that 100,000 inputs take tens of minutes; the CI's short run
(`tests/fuzz/test_mutator.py`) damages every sample. See bench/fuzz.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SHORT = ("absolute-victory.jsonl", "hand-limit.jsonl", "judge-backup.jsonl")
"""The samples damaged by default."""


def _one(task: tuple[int, int, float, str, str, float | None]) -> dict[str, Any]:
    """One process's share: ``count`` inputs from ``seed`` (fewer if ``seconds`` run out)."""
    seed, count, limit, keep, samples, seconds = task
    from tests.fuzz import mutator

    chosen = None if samples == "all" else [mutator.SAMPLES / name for name in SHORT]
    with tempfile.TemporaryDirectory(prefix="vwlog-fuzz-") as work:
        began = time.perf_counter()

        def progress(tally: mutator.Tally) -> None:
            took = time.perf_counter() - began
            print(
                f"seed {seed}: {tally.inputs} inputs, {tally.tracebacks} tracebacks, "
                f"{tally.hangs} hangs, {took:.0f} s",
                flush=True,
            )

        tally = mutator.fuzz(
            count,
            Path(work),
            seed=seed,
            limit=limit,
            keep=Path(keep),
            progress=progress,
            samples=chosen,
            until=None if seconds is None else time.monotonic() + seconds,
        )
        took = time.perf_counter() - began
    return {"seed": seed, "seconds": round(took, 1), **tally.__dict__}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per command")
    parser.add_argument("--samples", choices=["short", "all"], default="short")
    parser.add_argument(
        "--seconds", type=float, default=None, help="stop starting inputs after this long"
    )
    parser.add_argument("--keep", default=str(ROOT / "test-artifacts" / "fuzz"))
    parser.add_argument("--out", default=str(ROOT / "bench" / "fuzz_results.json"))
    args = parser.parse_args()

    from vwlog.build import is_compiled

    load_before = os.getloadavg()
    began = time.perf_counter()
    shares = [args.inputs // args.jobs + (i < args.inputs % args.jobs) for i in range(args.jobs)]
    tasks = [
        (args.seed + i, n, args.limit, args.keep, args.samples, args.seconds)
        for i, n in enumerate(shares)
    ]
    if args.jobs == 1:
        parts = [_one(tasks[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            parts = pool.map(_one, tasks)
    wall = time.perf_counter() - began
    load_after = os.getloadavg()
    findings = [f for part in parts for f in part["findings"]]
    figures = {
        "inputs": sum(p["inputs"] for p in parts),
        "inputs_asked": args.inputs,
        "commands_run": sum(p["runs"] for p in parts),
        "tracebacks": sum(p["tracebacks"] for p in parts),
        "hangs": sum(p["hangs"] for p in parts),
        "wall_seconds": round(wall, 1),
        "limit_seconds_per_command": args.limit,
        "slowest_input_seconds": round(max(p["slowest"] for p in parts), 2),
        "jobs": args.jobs,
        "seeds": [p["seed"] for p in parts],
        "samples": args.samples,
        "engine": "compiled (mypyc)" if is_compiled() else "pure Python",
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "by_kind": _summed(parts, "by_kind"),
        "by_command": _summed(parts, "by_command"),
        "exit_codes": _summed(parts, "exits"),
        "findings": findings[:50],
    }
    Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    shown = {k: v for k, v in figures.items() if k not in ("by_command", "findings")}
    print(json.dumps(shown, indent=2))
    for finding in findings[:20]:
        print(finding)
    return 1 if figures["tracebacks"] or figures["hangs"] else 0


def _summed(parts: list[dict[str, Any]], key: str) -> dict[str, int]:
    total: dict[str, int] = {}
    for part in parts:
        for name, n in part[key].items():
            total[name] = total.get(name, 0) + n
    return dict(sorted(total.items()))


if __name__ == "__main__":
    sys.exit(main())
