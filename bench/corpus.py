"""The generated match logs the benchmarks read, each made once under bench/out/ and reused.

A log (or a directory of logs) is the output of one ``vwlog simulate`` run, deterministic from
its arguments, so a cached one stands for a fresh one. It is written under a temporary name
and renamed when complete: an interrupted run leaves no half corpus that a later run would
take for a whole one.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
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
"""``vwlog simulate`` options for a match that goes on until ``--max-turns``: nobody reaches a
victory condition first."""


def generated(name: str, *simulate_args: str) -> Path:
    """``bench/out/NAME``: what ``vwlog simulate SIMULATE_ARGS -o bench/out/NAME`` writes (one
    log, or a directory of logs with ``--matches``), generated on first use."""
    path = OUT / name
    if path.exists():
        return path
    OUT.mkdir(exist_ok=True)
    tmp = OUT / f".tmp-{name}"  # keeps a .jsonl suffix: one file, not a directory
    if tmp.is_dir():
        shutil.rmtree(tmp)
    else:
        tmp.unlink(missing_ok=True)
    subprocess.run(
        [sys.executable, "-m", "vwlog", "simulate", *simulate_args, "-o", str(tmp)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    tmp.rename(path)
    return path


__all__ = ["LONG_MATCH", "OUT", "ROOT", "generated"]
