"""The false-positive sweep: generated matches of every format, with every choice drawn, judged
as ``vwlog validate`` judges a file; a legal match the judge refuses is a finding.

Each match is made by the generator (`vwlog.games.vw.simulate.simulation`, the run's seed and the
match's index), written sealed as ``vwlog simulate -o`` writes it, then read back and judged by
`vwlog.services.validate.validate_log` under the packaged pool and ruleset. A violation, a
verdict other than OK or a consequence still owed is a finding: the generator plays only the
engine's legal decisions, so either the judge is wrong (a false positive) or the generator is.

`bench/sweep_bench.py` runs it at scale (≥ 1,000,000 events); `tests/simulate/test_sweep.py`
runs a small one.
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vwlog.games.vw.simulate import PolicyName, simulation
from vwlog.io.logfile import write_log
from vwlog.io.pools import load_pool
from vwlog.model.cards import Ruleset
from vwlog.model.verdict import Verdict
from vwlog.services.trust import close_stream, published_for
from vwlog.services.validate import validate_log

FORMATS: dict[str, tuple[tuple[int, int | None], ...]] = {
    "DUEL": ((2, None),),
    "TAG": ((4, 2), (6, 3)),
    "THREE_V_THREE": ((6, 2),),
    "BATTLE_ROYAL": ((3, None), (4, None)),
}
"""Each format and the seatings it is generated with (players, teams), taken in turn."""

POLICIES: tuple[PolicyName, ...] = ("random", "random", "random", "greedy")
"""The policy of match ``i`` is ``POLICIES[i % 4]``: mostly uniformly random decisions, and
one match in four played to win, so that matches end in every victory type."""


@dataclass(frozen=True, slots=True)
class Task:
    """One match of the sweep."""

    fmt: str
    index: int
    seed: int
    max_turns: int


@dataclass
class Tally:
    """What a sweep saw, in all and per format."""

    matches: int = 0
    events: int = 0
    violations: int = 0
    findings: list[dict[str, Any]] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)
    victories: Counter[str] = field(default_factory=Counter)
    drawn: Counter[str] = field(default_factory=Counter)
    """Choices among consequences the generator drew (trigger order, results)."""
    per_format: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, fmt: str, seen: dict[str, Any]) -> None:
        """Count one judged match."""
        self.matches += 1
        self.events += seen["events"]
        self.violations += len(seen["violations"])
        self.verdicts[seen["verdict"]] += 1
        self.victories[seen["victory"] or "UNFINISHED"] += 1
        self.drawn.update(seen["drawn"])
        mine = self.per_format.setdefault(fmt, Counter())
        mine["matches"] += 1
        mine["events"] += seen["events"]
        mine["violations"] += len(seen["violations"])
        mine[f"policy {seen['policy']}"] += 1
        if seen["violations"] or seen["verdict"] != Verdict.OK or seen["owed"]:
            self.findings.append(seen)

    def as_json(self) -> dict[str, Any]:
        """The figures, for a results file."""
        return {
            "matches": self.matches,
            "events": self.events,
            "violations": self.violations,
            "findings": self.findings[:50],
            "matches_with_findings": len(self.findings),
            "verdicts": dict(self.verdicts),
            "victories": dict(self.victories),
            "choices_drawn": dict(self.drawn),
            "per_format": {k: dict(v) for k, v in sorted(self.per_format.items())},
        }


def judge_one(task: Task, work: Path) -> dict[str, Any]:
    """Generate, write and judge one match; what was seen."""
    players, teams = FORMATS[task.fmt][task.index % len(FORMATS[task.fmt])]
    policy = POLICIES[task.index % len(POLICIES)]
    pool = load_pool()
    generation = simulation(
        pool,
        seed=task.seed,
        index=task.index,
        players=players,
        teams=teams,
        policy=policy,
        max_turns=task.max_turns,
        ruleset=Ruleset(),
    )
    path = work / f"{task.fmt}-{task.seed}-{task.index}.jsonl"
    header, stream = close_stream(generation.header, generation.records(), published_for(pool))
    write_log(path, header, stream)
    report = validate_log(path)
    path.unlink()
    verdict = report.judgement.verdict if report.judgement is not None else "NONE"
    return {
        "format": task.fmt,
        "command": generation.header.generator,
        "policy": policy,
        "events": report.events,
        "victory": report.victory,
        "verdict": str(verdict),
        "owed": list(report.owed),
        "violations": [f"{v.rule}@{v.seq}: {v.message}" for v in report.violations],
        "drawn": dict(generation.drawn),
    }


def _worker(task: Task) -> tuple[str, dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="vwlog-sweep-") as work:
        return task.fmt, judge_one(task, Path(work))


def tasks(fmt: str, seed: int, max_turns: int, start: int = 0) -> Any:
    """The matches of one format, endlessly: indexes ``start``, ``start + 1``, …"""
    index = start
    while True:
        yield Task(fmt, index, seed, max_turns)
        index += 1


def sweep(
    events_per_format: int,
    *,
    seed: int = 1,
    jobs: int = 1,
    max_turns: int = 200,
    progress: bool = False,
) -> tuple[Tally, dict[str, Any]]:
    """Judge generated matches of each format until each has ``events_per_format`` events;
    the tally and the run's figures (seeds, match indexes, wall and CPU time)."""
    tally = Tally()
    began, cpu0 = time.perf_counter(), _cpu()
    ranges: dict[str, list[int]] = {}
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with context.Pool(jobs) if jobs > 1 else _Serial() as pool:
        for fmt in FORMATS:
            events, made, source = 0, 0, tasks(fmt, seed, max_turns)
            while events < events_per_format:
                batch = [next(source) for _ in range(max(jobs, 1))]
                for name, seen in pool.imap(_worker, batch):
                    tally.add(name, seen)
                    events += seen["events"]
                    made += 1
            ranges[fmt] = [0, made - 1]
            if progress:
                took = time.perf_counter() - began
                print(
                    f"{fmt}: {made} matches, {events} events, "
                    f"{tally.per_format[fmt]['violations']} violations, {took:.0f} s",
                    flush=True,
                )
    run = {
        "seed": seed,
        "match_indexes": ranges,
        "max_turns": max_turns,
        "jobs": jobs,
        "wall_seconds": round(time.perf_counter() - began, 1),
        "cpu_seconds": round(_cpu() - cpu0, 1),
    }
    return tally, run


class _Serial:
    """A pool of one: the matches judged in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn: Any, items: list[Task]) -> Any:
        return map(fn, items)


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


__all__ = ["FORMATS", "POLICIES", "Tally", "Task", "judge_one", "sweep", "tasks"]
