"""Start-up cost of the command line: ``vwlog --help``, ``vwlog --version`` and a quick
``vwlog validate -q`` beside ``python -c pass`` (the floor every Python program pays).

Each round runs every case once, in turn (interleaved, so a machine busy with other work
weighs on all of them alike), each in a fresh process; the child's CPU time (user + system)
comes from ``os.wait4``, beside the wall time. Medians and ranges over the rounds are printed,
with the load average before and after, and kept in bench/startup_results.json. The goal is
``vwlog --help`` within 8 times ``python -c pass``, in wall and in CPU time.

    python bench/startup_bench.py [--rounds 15] [--out bench/startup_results.json]
    python bench/startup_bench.py --base /path/to/an/older/tree   # before and after, interleaved

With ``--base``, the three vwlog cases run a second time on that tree (``PYTHONPATH``), in the
same rounds. Every case runs from compiled bytecode, as an installed wheel does (each tree's
``.pyc`` files are written first; ``PYTHONDONTWRITEBYTECODE`` is not passed on).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from corpus import ROOT

REPO = ROOT.parent
SAMPLE = REPO / "samples" / "absolute-victory.jsonl"


def _vwlog() -> list[str]:
    """The ``vwlog`` console script beside this Python (what users run), else ``-m vwlog``."""
    script = Path(sys.executable).parent / "vwlog"
    return [str(script)] if script.exists() else [sys.executable, "-m", "vwlog"]


Case = tuple[list[str], dict[str, str]]
"""A command and its environment."""


def cases(base: Path | None = None) -> dict[str, Case]:
    vwlog = _vwlog()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    commands = {
        "vwlog --help": [*vwlog, "--help"],
        "vwlog --version": [*vwlog, "--version"],
        "vwlog validate -q": [*vwlog, "validate", "-q", str(SAMPLE)],
    }
    found: dict[str, Case] = {"python -c pass": ([sys.executable, "-c", "pass"], env)}
    for name, argv in commands.items():
        found[name] = (argv, env)
        if base is not None:
            found[f"{name} (base)"] = (argv, {**env, "PYTHONPATH": str(base)})
    return found


def compile_tree(tree: Path) -> None:
    """Write the bytecode of a tree's package, as installing a wheel does."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(tree / "vwlog")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def timed(case: Case) -> tuple[float, float]:
    """(wall s, CPU s of the child) of one run of a case; it must succeed."""
    argv, env = case
    start = time.perf_counter()
    child = subprocess.Popen(
        argv,
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    child.stderr.close()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}): {err.decode()[-500:]}")
    return wall, usage.ru_utime + usage.ru_stime


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def run(rounds: int, base: Path | None = None) -> dict[str, object]:
    argvs = cases(base)
    for tree in (REPO, base):
        if tree is not None:
            compile_tree(tree)
    walls: dict[str, list[float]] = {name: [] for name in argvs}
    cpus: dict[str, list[float]] = {name: [] for name in argvs}
    load_before = os.getloadavg()
    for argv in argvs.values():  # warm the file cache (not counted)
        timed(argv)
    for _ in range(rounds):
        for name, argv in argvs.items():
            wall, cpu = timed(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    load_after = os.getloadavg()
    results = {
        name: {"wall_s": summary(walls[name]), "cpu_s": summary(cpus[name])} for name in argvs
    }
    floor = results["python -c pass"]
    help_ = results["vwlog --help"]
    ratio = {kind: help_[kind]["median"] / floor[kind]["median"] for kind in ("wall_s", "cpu_s")}
    return {
        "rounds": rounds,
        "cpus": os.cpu_count(),
        "base": str(base) if base is not None else None,
        "load_before": load_before,
        "load_after": load_after,
        "cases": results,
        "help_over_python": ratio,
    }


def show(report: dict[str, object]) -> None:
    print(f"load average before {report['load_before']}, after {report['load_after']}")
    print(f"{report['rounds']} interleaved rounds; medians [min-max], seconds")
    cases_ = report["cases"]
    assert isinstance(cases_, dict)
    for name, figures in cases_.items():
        wall, cpu = figures["wall_s"], figures["cpu_s"]
        print(
            f"  {name:<27} wall {wall['median']:.3f} [{wall['min']:.3f}-{wall['max']:.3f}]"
            f"   cpu {cpu['median']:.3f} [{cpu['min']:.3f}-{cpu['max']:.3f}]"
        )
    ratio = report["help_over_python"]
    assert isinstance(ratio, dict)
    print(
        f"vwlog --help / python -c pass: wall {ratio['wall_s']:.1f}x, cpu {ratio['cpu_s']:.1f}x"
        " (goal: 8x or less)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--out", type=Path, default=ROOT / "startup_results.json")
    parser.add_argument("--base", type=Path, help="an older tree, run in the same rounds")
    args = parser.parse_args()
    if not SAMPLE.exists():
        raise SystemExit(f"missing sample: {SAMPLE}")
    report = run(args.rounds, args.base.resolve() if args.base else None)
    show(report)
    args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
