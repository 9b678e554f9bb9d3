"""vwlog benchmarks: every figure beside a reference measured in the same run.

Machines are shared and noisy, so each figure is the median of several repeats and is reported
with its reference and the ratio between them; never a single timing. Run ``bash bench/run``
(or ``python bench/bench.py --help``). Results go to stdout as one table and to
``bench/results.json``.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson
from corpus import LONG_MATCH, OUT, ROOT, generated


@dataclass
class Figure:
    """One measured figure beside its reference.

    ``cpu`` and ``reference_cpu`` are the medians of process CPU time (this process and the
    children it waited for) in the figure's unit, where the figure is a time or a rate; they are
    ``None`` for figures that are not timings (memory)."""

    name: str
    value: float
    unit: str
    reference_name: str
    reference: float
    target: str
    note: str = ""
    cpu: float | None = None
    reference_cpu: float | None = None

    @property
    def ratio(self) -> float:
        """value / reference."""
        return self.value / self.reference if self.reference else float("nan")


@dataclass(frozen=True)
class Timing:
    """Medians of one measured function: wall-clock seconds and CPU seconds."""

    wall: float
    cpu: float


def _cpu_now() -> float:
    """CPU seconds used so far by this process and by the children it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def interleaved(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, Timing]:
    """Time several functions in turn, A B C A B C …, and return each one's medians.

    Interleaving puts every function through the same moments of a shared, noisy machine, so a
    burst of other load slows them alike instead of one of them; the ratio between them is what
    the benchmark reports, and it stays stable where separate blocks of repeats swing. Each
    function runs once first as a warm-up (caches, imports)."""
    for fn in fns.values():
        fn()
    walls: dict[str, list[float]] = {name: [] for name in fns}
    cpus: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            gc.collect()
            c, t = _cpu_now(), time.perf_counter()
            fn()
            walls[name].append(time.perf_counter() - t)
            cpus[name].append(_cpu_now() - c)
    return {
        name: Timing(statistics.median(walls[name]), statistics.median(cpus[name])) for name in fns
    }


def median_time(fn: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``fn`` alone (for a figure whose reference is not a timing)."""
    return interleaved({"fn": fn}, repeats)["fn"].wall


def rate_figure(
    name: str,
    amount: float,
    unit: str,
    timings: tuple[Timing, Timing],
    reference_name: str,
    target: str,
    note: str = "",
    reference_amount: float | None = None,
) -> Figure:
    """A throughput figure (``amount`` per second) beside its reference, wall and CPU."""
    mine, ref = timings
    ref_amount = amount if reference_amount is None else reference_amount
    return Figure(
        name,
        amount / mine.wall,
        unit,
        reference_name,
        ref_amount / ref.wall,
        target,
        note,
        amount / mine.cpu if mine.cpu else None,
        ref_amount / ref.cpu if ref.cpu else None,
    )


def time_figure(
    name: str,
    scale: float,
    unit: str,
    timings: tuple[Timing, Timing],
    reference_name: str,
    target: str,
    note: str = "",
) -> Figure:
    """A duration figure (seconds times ``scale``) beside its reference, wall and CPU."""
    mine, ref = timings
    return Figure(
        name,
        mine.wall * scale,
        unit,
        reference_name,
        ref.wall * scale,
        target,
        note,
        mine.cpu * scale,
        ref.cpu * scale,
    )


def vwlog(*args: str) -> None:
    """Run the vwlog CLI in a subprocess (quietly)."""
    subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def corpus(name: str, *args: str) -> Path:
    """A generated corpus, cached under bench/out/ (deterministic from its arguments)."""
    return generated(name, *args)


def files_of(path: Path) -> list[Path]:
    """The log files of a corpus (a directory or one file)."""
    return sorted(path.glob("*.jsonl")) if path.is_dir() else [path]


def count_events(paths: list[Path]) -> int:
    """Records in the logs (lines minus headers)."""
    return sum(sum(1 for _ in p.open("rb")) - 1 for p in paths)


# -- 1. validation throughput ----------------------------------------------------------------


def chess_pgn(plies: int, seed: int = 1) -> str:
    """Random legal chess games made with python-chess, about ``plies`` half-moves in all."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    games, total = [], 0
    while total < plies:
        board, game = chess.Board(), chess.pgn.Game()
        node = game
        for _ in range(160):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
            total += 1
        games.append(str(game))
    return "\n\n".join(games) + "\n"


def read_pgn(text: str) -> int:
    """Parse and validate every game of a PGN text with python-chess; return the plies."""
    import chess.pgn

    stream = io.StringIO(text)
    plies = 0
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise AssertionError(game.errors)
        plies += sum(1 for _ in game.mainline_moves())
    return plies


def validation_corpus(quick: bool) -> list[Path]:
    """The validation corpus: 24 generated matches (6 for a quick run), seed 11."""
    path = corpus(
        "corpus-validate" if not quick else "corpus-validate-q",
        "--seed",
        "11",
        "--matches",
        "6" if quick else "24",
    )
    return files_of(path)


def bench_validation(repeats: int, quick: bool) -> list[Figure]:
    from vwlog.services import validate_log

    paths = validation_corpus(quick)
    events = count_events(paths)
    lines = [line for p in paths for line in p.read_bytes().splitlines()[1:]]

    def run_vwlog() -> None:
        for p in paths:
            report = validate_log(p)
            if not report.ok:
                raise AssertionError(f"{p} is not legal")

    def run_orjson() -> None:
        for line in lines:
            orjson.loads(line)

    pgn = chess_pgn(events)
    plies = read_pgn(pgn)
    t = interleaved(
        {"vwlog": run_vwlog, "chess": lambda: read_pgn(pgn), "orjson": run_orjson}, repeats
    )
    return [
        rate_figure(
            "validation throughput",
            events,
            "events/s",
            (t["vwlog"], t["chess"]),
            "python-chess PGN read+validate",
            ">= 100,000 events/s and >= 2x python-chess",
            f"{events:,} events in {len(paths)} logs; {plies:,} plies",
            reference_amount=plies,
        ),
        rate_figure(
            "validation vs parsing ceiling",
            events,
            "events/s",
            (t["vwlog"], t["orjson"]),
            "orjson.loads same lines",
            "report the fraction",
        ),
    ]


# -- 2. memory -------------------------------------------------------------------------------

_PEAK = """
import resource, sys
from vwlog.services import validate_log
r = validate_log(sys.argv[1])
print(r.events, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss(path: Path) -> tuple[int, int]:
    """(events, peak RSS in KiB) of validating ``path`` in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, str(path)], check=True, capture_output=True, text=True
    ).stdout.split()
    return int(out[0]), int(out[1])


def bench_memory(quick: bool) -> list[Figure]:
    small = corpus("long-10k.jsonl", "--seed", "5", "--max-turns", "160", *LONG_MATCH)
    big_turns = "1600" if quick else "16000"
    big = corpus(f"long-{big_turns}t.jsonl", "--seed", "5", "--max-turns", big_turns, *LONG_MATCH)
    n_small, rss_small = peak_rss(small)
    n_big, rss_big = peak_rss(big)
    return [
        Figure(
            "peak RSS validating a long match",
            rss_big / 1024,
            "MiB",
            "same, short match",
            rss_small / 1024,
            "flat (ratio ~1)",
            f"{n_big:,} vs {n_small:,} events",
        ),
    ]


# -- 3. import -------------------------------------------------------------------------------

PG_URL = os.environ.get("VWLOG_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def _raw_sqlite(rows: list[tuple[bytes, int, str, bytes]], path: Path) -> None:
    import sqlite3

    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE stored_events (application_name TEXT, originator_id TEXT, "
        "originator_version INTEGER, topic TEXT, state BLOB, "
        "PRIMARY KEY (originator_id, originator_version))"
    )
    with conn:
        conn.executemany(
            "INSERT INTO stored_events VALUES ('bench', ?, ?, ?, ?)",
            [(oid.hex(), v, t, st) for oid, v, t, st in rows],
        )
    conn.close()


def _raw_postgres(rows: list[tuple[bytes, int, str, bytes]], schema: str) -> None:
    import psycopg

    with psycopg.connect(PG_URL.replace("postgresql://", "postgresql://", 1)) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.execute(f"CREATE SCHEMA {schema}")
        conn.execute(
            f"CREATE TABLE {schema}.events (originator_id uuid, originator_version bigint, "
            "topic text, state bytea, PRIMARY KEY (originator_id, originator_version))"
        )
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {schema}.events VALUES (%s, %s, %s, %s)",
                [(oid.hex(), v, t, st) for oid, v, t, st in rows],
            )
        conn.commit()
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
        conn.commit()


def _raw_postgres_copy(rows: list[tuple[bytes, int, str, bytes]], schema: str) -> None:
    """The same rows into the same table with ``COPY … FROM STDIN`` (binary), the fastest way
    psycopg has to load rows."""
    import uuid

    import psycopg

    with psycopg.connect(PG_URL) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.execute(f"CREATE SCHEMA {schema}")
        conn.execute(
            f"CREATE TABLE {schema}.events (originator_id uuid, originator_version bigint, "
            "topic text, state bytea, PRIMARY KEY (originator_id, originator_version))"
        )
        copy = f"COPY {schema}.events FROM STDIN (FORMAT BINARY)"
        with conn.cursor() as cur, cur.copy(copy) as c:
            c.set_types(["uuid", "int8", "text", "bytea"])
            for oid, v, t, st in rows:
                c.write_row((uuid.UUID(bytes=oid), v, t, st))
        conn.commit()
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
        conn.commit()


def _postgres_up() -> bool:
    try:
        import psycopg

        psycopg.connect(PG_URL, connect_timeout=3).close()
    except Exception:
        return False
    return True


def bench_import(repeats: int, quick: bool) -> list[Figure]:
    import uuid

    from vwlog.services.importing import import_log
    from vwlog.store import MatchStore

    path = corpus(
        "import-q.jsonl" if quick else "import-10k.jsonl",
        "--seed",
        "5",
        "--max-turns",
        "40" if quick else "160",
        *LONG_MATCH,
    )
    lines = path.read_bytes().splitlines()[1:]
    n = len(lines)
    oid = uuid.uuid5(uuid.NAMESPACE_URL, "bench").bytes
    rows = [(oid, i + 1, "vwlog:x:v1", line) for i, line in enumerate(lines)]
    work = OUT / "import-work"
    work.mkdir(exist_ok=True)
    figures = []

    def vw_sqlite() -> None:
        db = work / "store.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        with MatchStore.open(str(db)) as store:
            import_log(store, path)

    t = interleaved(
        {"vwlog": vw_sqlite, "raw": lambda: _raw_sqlite(rows, work / "raw.db")}, repeats
    )
    figures.append(
        rate_figure(
            "import into SQLite (validate+store)",
            n,
            "events/s",
            (t["vwlog"], t["raw"]),
            "raw sqlite3 executemany, same rows",
            ">= 1/3 of the raw rate",
            f"{n:,}-event match",
        )
    )
    if _postgres_up():
        counter = iter(range(10**6))

        def vw_pg() -> None:
            schema = f"vwlog_bench_{os.getpid()}_{next(counter)}"
            with MatchStore.open(f"{PG_URL}?schema={schema}") as store:
                import_log(store, path)
            import psycopg

            with psycopg.connect(PG_URL) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")

        t = interleaved(
            {
                "vwlog": vw_pg,
                "raw": lambda: _raw_postgres(rows, f"raw_{os.getpid()}"),
                "copy": lambda: _raw_postgres_copy(rows, f"copy_{os.getpid()}"),
            },
            max(1, repeats // 2),
        )
        figures.append(
            rate_figure(
                "import into PostgreSQL (validate+store)",
                n,
                "events/s",
                (t["vwlog"], t["raw"]),
                "raw psycopg executemany, same rows",
                ">= 1/3 of the raw rate",
                f"{n:,}-event match",
            )
        )
        figures.append(
            rate_figure(
                "import into PostgreSQL (validate+store) vs COPY",
                n,
                "events/s",
                (t["vwlog"], t["copy"]),
                "raw psycopg COPY (binary), same rows",
                ">= 0.5 of the COPY rate",
                f"{n:,}-event match",
            )
        )
    return figures


# -- 4. seek ---------------------------------------------------------------------------------


def bench_seek(repeats: int, quick: bool) -> list[Figure]:
    from vwlog.services.importing import import_log
    from vwlog.services.matches import state_at
    from vwlog.store import MatchStore

    short = corpus("seek-1k.jsonl", "--seed", "6", "--max-turns", "16", *LONG_MATCH)
    long = corpus(
        "import-q.jsonl" if quick else "import-10k.jsonl",
        "--seed",
        "5",
        "--max-turns",
        "40" if quick else "160",
        *LONG_MATCH,
    )
    db = OUT / "seek.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with MatchStore.open(str(db)) as store:
        ids = {}
        for p in (short, long):
            ids[p] = import_log(store, p).match_id
        rng = random.Random(3)
        n_long, n_short = count_events([long]), count_events([short])
        near_end = {
            p: [n - rng.randrange(0, 60) for _ in range(25)]
            for p, n in ((long, n_long), (short, n_short))
        }
        near_start = [1 + rng.randrange(0, 60) for _ in range(25)]

        def seek(p: Path, seqs: list[int]) -> Callable[[], None]:
            def run() -> None:
                for q in seqs:
                    state_at(store, ids[p], q)

            return run

        t = interleaved(
            {
                "long_end": seek(long, near_end[long]),
                "long_start": seek(long, near_start),
                "short_end": seek(short, near_end[short]),
                "replay": lambda: _replay_all(long),
            },
            repeats,
        )
    per_seek = {k: Timing(v.wall / 25, v.cpu / 25) for k, v in t.items() if k != "replay"}
    end = per_seek["long_end"]
    return [
        time_figure(
            f"seek near the end, {n_long:,}-event stored match",
            1000,
            "ms",
            (end, per_seek["long_start"]),
            "seek near the start, same match",
            "a few ms; ratio ~1",
        ),
        time_figure(
            f"seek near the end, {n_long:,} events",
            1000,
            "ms",
            (end, per_seek["short_end"]),
            f"seek near the end, {n_short:,} events",
            "ratio <= 1.5 (flat in length)",
        ),
        time_figure(
            "seek near the end (snapshots)",
            1000,
            "ms",
            (end, t["replay"]),
            "replay from the start (no snapshots)",
            "far below 1",
        ),
    ]


def _replay_all(path: Path) -> None:
    from vwlog.engine.replay import FinalState, replay
    from vwlog.io.logfile import read_log

    _, records = read_log(path)
    replay(records, FinalState())


# -- 6. scaling ------------------------------------------------------------------------------


def bench_scaling(repeats: int, quick: bool) -> list[Figure]:
    paths = [str(p) for p in validation_corpus(quick)]
    events = count_events([Path(p) for p in paths])

    def command(n: int) -> Callable[[], None]:
        return lambda: vwlog("validate", "-q", "-j", str(n), *paths)

    def in_process(n: int) -> Callable[[], None]:
        from vwlog.services import validate_logs

        return lambda: list(validate_logs(paths, jobs=n))

    t = interleaved({"1": in_process(1), "2": in_process(2)}, repeats)
    c = interleaved({"1": command(1), "2": command(2)}, max(1, repeats // 2))
    return [
        rate_figure(
            "validate with --jobs 2 (start-up excluded)",
            events,
            "events/s",
            (t["2"], t["1"]),
            "same, 1 process",
            ">= 1.8x on 2 cores",
            "validate_logs in a warm process; CPU column counts both processes",
        ),
        rate_figure(
            "validate --jobs 2 (whole command)",
            events,
            "events/s",
            (c["2"], c["1"]),
            "validate --jobs 1",
            "report; start-up included",
            "includes interpreter start-up",
        ),
    ]


# -- driver ----------------------------------------------------------------------------------

SECTIONS: dict[str, Callable[[int, bool], list[Figure]]] = {
    "validation": bench_validation,
    "memory": lambda _r, q: bench_memory(q),
    "import": bench_import,
    "seek": bench_seek,
    "scaling": bench_scaling,
    "diff": lambda r, q: _load("diff_bench").bench_diff(r, q),
    "stats": lambda r, q: _load("stats_bench").bench_stats(r, q),
    "engines": lambda r, q: _load("engine_bench").bench_engines(r, q),
    "instructions": lambda r, q: _load("engine_bench").bench_instructions(r, q),
}


def _load(name: str) -> Any:
    """A sibling benchmark module (bench/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # the sibling modules import this one as `bench` (bench/ is first on sys.path)
    sys.modules.setdefault("bench", sys.modules[__name__])
    spec.loader.exec_module(module)
    return module


def machine() -> dict[str, object]:
    """What the figures were measured on."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "date": time.strftime("%Y-%m-%d"),
    }


def table(figures: list[Figure]) -> str:
    """The figures as an aligned text table."""
    rows = [("figure", "value", "cpu", "reference", "ref. value", "ref. cpu", "ratio", "target")]
    for f in figures:
        rows.append(
            (
                f.name,
                f"{f.value:,.1f} {f.unit}",
                _cpu(f.cpu),
                f.reference_name,
                f"{f.reference:,.1f}",
                _cpu(f.reference_cpu),
                f"{f.ratio:.2f}",
                f.target,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


def _cpu(value: float | None) -> str:
    """A CPU-time column: the figure computed from CPU seconds instead of wall seconds."""
    return "" if value is None else f"{value:,.1f}"


README = ROOT.parent / "docs" / "performance.md"
_MARKS = ("<!-- perf-table -->", "<!-- /perf-table -->")


def markdown(results: dict[str, Any]) -> str:
    """The results file as the Performance table (docs/performance.md), with the machine and the
    run."""
    m = results["machine"]
    lines = [
        f"Measured {m['date']} on {m['processor']}, {m['cpus']} CPUs (a shared machine), "
        f"Python {m['python']}; each figure is the median of {results['repeats']} runs, "
        "interleaved with its reference's runs (A B A B …) in the same process; the CPU columns "
        "give the same figure from process CPU time (workers included) instead of wall time"
        + (" (--quick inputs)" if results["quick"] else "")
        + ".",
        "",
        "| figure | value | value by CPU time | reference | reference value | reference by CPU "
        "time | ratio | target |",
        "|---|---:|---:|---|---:|---:|---:|---|",
    ]
    for r in results["figures"]:
        note = f" ({r['note']})" if r.get("note") else ""
        lines.append(
            f"| {r['name']}{note} | {r['value']:,.1f} {r['unit']} | {_cpu(r.get('cpu'))} | "
            f"{r['reference_name']} | {r['reference']:,.1f} | {_cpu(r.get('reference_cpu'))} | "
            f"{r['ratio']:.2f} | {r['target']} |"
        )
    return "\n".join(lines)


def update_readme(results: dict[str, Any], readme: Path = README) -> None:
    """Replace the table between the perf-table marks of docs/performance.md."""
    text = readme.read_text(encoding="utf-8")
    start, end = (text.index(mark) for mark in _MARKS)
    start += len(_MARKS[0])
    readme.write_text(text[:start] + "\n" + markdown(results) + "\n" + text[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "sections",
        nargs="*",
        metavar="SECTION",
        help=f"which sections (default all): {', '.join(SECTIONS)}",
    )
    parser.add_argument("--repeats", type=int, default=5, help="repeats per figure (median)")
    parser.add_argument("--quick", action="store_true", help="small inputs, for a smoke run")
    parser.add_argument("--json", type=Path, default=ROOT / "results.json")
    parser.add_argument(
        "--readme",
        action="store_true",
        help="only write the JSON file's figures into the table of docs/performance.md",
    )
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the figures of other sections already in the JSON file",
    )
    args = parser.parse_args(argv)
    if args.readme:
        update_readme(json.loads(args.json.read_text()))
        print(f"updated {README} from {args.json}", file=sys.stderr)
        return 0
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    OUT.mkdir(exist_ok=True)
    figures: list[Figure] = []
    for name in args.sections or list(SECTIONS):
        print(f"== {name}", file=sys.stderr, flush=True)
        figures.extend(SECTIONS[name](args.repeats, args.quick))
    rows = [asdict(f) | {"ratio": f.ratio} for f in figures]
    if args.merge and args.json.exists():
        # the new figures take the places of the old ones of the same name (order kept)
        fresh = {r["name"]: r for r in rows}
        old = json.loads(args.json.read_text())["figures"]
        merged = [fresh.pop(r["name"], r) for r in old]
        rows = merged + list(fresh.values())
    print(table([Figure(**{k: v for k, v in r.items() if k != "ratio"}) for r in rows]))
    args.json.write_text(
        json.dumps(
            {"machine": machine(), "repeats": args.repeats, "quick": args.quick, "figures": rows},
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
