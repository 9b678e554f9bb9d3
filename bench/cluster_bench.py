"""Scaling of corpus work: a plain loop, ``--jobs 1/2`` and Dask with 1 and 2 workers, in one run.

For validation and for statistics over one generated corpus (N matches under a quick ruleset,
N = 2,000 by default; cached under ``bench/out/``), every configuration is run ``--repeats``
times, interleaved (plain, jobs 1, jobs 2, dask 1, dask 2, then again), and the median wall time
is reported beside the plain loop's, with CPU time beside wall (the client's own CPU plus its
child processes' for ``--jobs``; plus every Dask worker's for Dask). Every configuration's
results are checked to equal the plain loop's before any figure is reported.

The Dask configurations send the matches in batches (`vwlog.services.cluster.batch_size`, as the
commands do by default); ``--batch B`` fixes the matches per task instead.

Also measured: the Dask overhead per task (a task that does nothing, run over N items on the 2
workers one item per task: wall / N, and the CPU time of the client and scheduler per task), the
same no-op in the default batches (overhead per item), the start-up of a LocalCluster, and from
these a paper estimate of a million-match corpus on 32 workers:

    per match on one core      c = plain loop CPU time / N
    ideal on W workers         T = 1e6 * c / W
    scheduler bound            S = tasks * o    (tasks = 1e6 / batch_size(1e6, 32); o = the
                                                 client's and scheduler's CPU time per no-op
                                                 task: they handle tasks one by one)
    estimate                   max(T / e, S)    (e = the measured 2-worker efficiency,
                                                 speed-up / 2, capped at 1)

Run: ``python bench/cluster_bench.py [--matches N] [--repeats R]``. Results go to stdout as a
table and to ``bench/cluster_results.json``. The machine this was written on has two cores
shared with other work: run it at reduced size there, and say so when quoting it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from typing import Any

from corpus import OUT, ROOT, generated

QUICK_RULES = (
    "--set",
    "victory_vp=1",
    "--set",
    "victory_territories=3",
    "--set",
    "victory_honor=20",
)
"""Low victory thresholds (as bench/stats_bench.py): quick matches, every victory type."""


def corpus(n: int) -> list[str]:
    """N generated logs, cached under bench/out/cluster-N (generated on a local Dask cluster);
    the first N of a larger cached corpus when there is one."""
    for cached in sorted(OUT.glob("cluster-*")):
        size = cached.name.removeprefix("cluster-")
        if size.isdigit() and int(size) > n:
            return sorted(str(p) for p in cached.glob("*.jsonl"))[:n]
    path = generated(
        f"cluster-{n}", "--seed", "19", "-n", str(n), *QUICK_RULES, "--cluster", "local"
    )
    return sorted(str(p) for p in path.glob("*.jsonl"))


def cpu_self_and_children() -> float:
    """CPU seconds of this process and its reaped children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def worker_cpu(client: Any) -> float:
    """CPU seconds used so far by every worker process of the cluster."""
    return float(sum(client.run(time.process_time).values()))


# -- the work --------------------------------------------------------------------------------


def validate_plain(paths: list[str]) -> list[Any]:
    from vwlog.services import validate_log

    return [validate_log(p) for p in paths]


def validate_jobs(paths: list[str], jobs: int) -> list[Any]:
    from vwlog.services import validate_logs

    return list(validate_logs(paths, jobs=jobs))


def validate_dask(client: Any, paths: list[str], batch: int | None) -> list[Any]:
    from vwlog.services import ValidationOptions
    from vwlog.services.cluster import run_ordered, validate_task

    return list(run_ordered(client, validate_task, paths, ValidationOptions(), batch=batch))


def corpus_json(outcomes: list[Any]) -> str:
    from vwlog.projections.stats import CorpusStats

    corpus = CorpusStats()
    for m in outcomes:
        corpus.add(m)
    return corpus.canonical().model_dump_json()


def stats_plain(paths: list[str]) -> str:
    from vwlog.services.cluster import measure_log

    return corpus_json([measure_log(p) for p in paths])


def stats_jobs(paths: list[str], jobs: int) -> str:
    from vwlog.cli.stats import _measure_all

    return corpus_json(list(_measure_all(paths, jobs)))


def stats_dask(client: Any, paths: list[str], batch: int | None) -> str:
    from vwlog.services.cluster import run_ordered, stats_task

    return corpus_json(list(run_ordered(client, stats_task, paths, batch=batch)))


def noop(item: int) -> int:
    """A task that does nothing: what remains of its time is Dask's overhead."""
    return item


# -- the run ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch", type=int, default=None, help="matches per Dask task")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    from vwlog.services.cluster import batch_size, run_ordered

    paths = corpus(args.matches)
    n = len(paths)
    print(f"corpus: {n} matches; {args.repeats} interleaved repeats", file=sys.stderr)

    clusters: dict[int, tuple[Any, Any]] = {}
    startup = []
    for workers in (1, 2):
        t0 = time.perf_counter()
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        )
        client = Client(cluster)
        client.wait_for_workers(workers)
        startup.append(time.perf_counter() - t0)
        clusters[workers] = (cluster, client)

    def configs(task: str) -> dict[str, Any]:
        plain = validate_plain if task == "validate" else stats_plain
        jobs = validate_jobs if task == "validate" else stats_jobs
        dask = validate_dask if task == "validate" else stats_dask
        return {
            "plain loop": (lambda: plain(paths), None),
            "--jobs 1": (lambda: jobs(paths, 1), None),
            "--jobs 2": (lambda: jobs(paths, 2), None),
            "dask, 1 worker": (lambda: dask(clusters[1][1], paths, args.batch), clusters[1][1]),
            "dask, 2 workers": (lambda: dask(clusters[2][1], paths, args.batch), clusters[2][1]),
        }

    rows: list[dict[str, Any]] = []
    try:
        for task in ("validate", "stats"):
            runs = configs(task)
            walls: dict[str, list[float]] = {name: [] for name in runs}
            cpus: dict[str, list[float]] = {name: [] for name in runs}
            reference: Any = None
            for _ in range(args.repeats):
                for name, (fn, client) in runs.items():
                    c0 = cpu_self_and_children() + (worker_cpu(client) if client else 0.0)
                    t0 = time.perf_counter()
                    result = fn()
                    walls[name].append(time.perf_counter() - t0)
                    c1 = cpu_self_and_children() + (worker_cpu(client) if client else 0.0)
                    cpus[name].append(c1 - c0)
                    print(f"  {task} {name}: {walls[name][-1]:.2f} s", file=sys.stderr)
                    if reference is None:
                        reference = result
                    elif result != reference:
                        raise SystemExit(f"{task}: {name} gave other results than the plain loop")
            base = statistics.median(walls["plain loop"])
            for name in runs:
                wall = statistics.median(walls[name])
                rows.append(
                    {
                        "task": task,
                        "config": name,
                        "matches": n,
                        "wall_s": round(wall, 3),
                        "cpu_s": round(statistics.median(cpus[name]), 3),
                        "per_match_ms": round(1000 * wall / n, 3),
                        "speedup_vs_plain": round(base / wall, 3),
                    }
                )
        client2 = clusters[2][1]
        noop_walls, noop_cpus, batched_walls, batched_cpus = [], [], [], []
        for _ in range(args.repeats):
            c0 = time.process_time()  # the client and the LocalCluster's scheduler
            t0 = time.perf_counter()
            list(run_ordered(client2, noop, range(n), batch=1))
            noop_walls.append(time.perf_counter() - t0)
            noop_cpus.append(time.process_time() - c0)
            c0 = time.process_time()
            t0 = time.perf_counter()
            list(run_ordered(client2, noop, range(n), batch=args.batch))
            batched_walls.append(time.perf_counter() - t0)
            batched_cpus.append(time.process_time() - c0)
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()

    overhead = statistics.median(noop_walls) / n
    overhead_cpu = statistics.median(noop_cpus) / n
    batch_here = args.batch or batch_size(n, 2)
    batch_million = args.batch or batch_size(10**6, 32)
    estimates = {}
    for task in ("validate", "stats"):
        by = {r["config"]: r for r in rows if r["task"] == task}
        # a dedicated core does a match in its CPU time; wall time here includes waiting for
        # the cores the machine's other users hold
        c = by["plain loop"]["cpu_s"] / n
        efficiency = min(1.0, by["dask, 2 workers"]["speedup_vs_plain"] / 2)
        ideal = 1e6 * c / 32
        bound = -(-(10**6) // batch_million) * overhead_cpu
        estimates[task] = {
            "batch": batch_million,
            "per_match_one_core_cpu_ms": round(1000 * c, 3),
            "two_worker_efficiency": round(efficiency, 3),
            "ideal_32_workers_h": round(ideal / 3600, 2),
            "scheduler_bound_h": round(bound / 3600, 2),
            "estimate_32_workers_h": round(max(ideal / max(efficiency, 0.05), bound) / 3600, 2),
        }
    report = {
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_avg_1m": round(os.getloadavg()[0], 2),
        },
        "matches": n,
        "repeats": args.repeats,
        "batch": args.batch or f"default ({batch_here} here)",
        "cluster_startup_s": [round(s, 2) for s in startup],
        "dask_overhead_per_task_ms": round(1000 * overhead, 3),
        "dask_overhead_per_task_cpu_ms": round(1000 * overhead_cpu, 3),
        "dask_batch": batch_here,
        "dask_overhead_per_item_batched_ms": round(1000 * statistics.median(batched_walls) / n, 3),
        "dask_overhead_per_item_batched_cpu_ms": round(
            1000 * statistics.median(batched_cpus) / n, 3
        ),
        "rows": rows,
        "million_matches_on_32_workers": estimates,
    }
    print(f"{'task':9} {'config':16} {'wall s':>8} {'cpu s':>8} {'ms/match':>9} {'speed-up':>8}")
    for r in rows:
        print(
            f"{r['task']:9} {r['config']:16} {r['wall_s']:8.2f} {r['cpu_s']:8.2f} "
            f"{r['per_match_ms']:9.2f} {r['speedup_vs_plain']:8.2f}"
        )
    print(
        f"dask overhead per task (no-op, 2 workers): {report['dask_overhead_per_task_ms']} ms "
        f"wall, {report['dask_overhead_per_task_cpu_ms']} ms CPU of client and scheduler"
    )
    print(
        f"dask overhead per item in batches of {batch_here} (no-op, 2 workers): "
        f"{report['dask_overhead_per_item_batched_ms']} ms wall, "
        f"{report['dask_overhead_per_item_batched_cpu_ms']} ms CPU of client and scheduler"
    )
    print(f"local cluster start-up (1, 2 workers): {report['cluster_startup_s']} s")
    for task, e in estimates.items():
        print(f"{task}: a million matches on 32 workers: {e}")
    (ROOT / "cluster_results.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
