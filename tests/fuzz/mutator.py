"""A seeded mutator of the sample logs, and a bounded run of every command that reads a record
on what it makes (`fuzz`): the CI's short run and ``bench/fuzz_bench.py``'s long one.

Each input is one sample damaged one way (``KINDS``): bytes replaced, inserted or deleted;
lines swapped; one field of one record replaced by an odd value and the chain re-hashed (so the
damage reaches the rules, the board and the store, not only the hash check); a truncation; a
huge value; a crafted record (a seat renamed, ``match_started`` moved, doubled or dropped,
re-hashed); a header written another way or edited; the hashes stripped. The same seed gives the
same inputs.

Each input runs one command, in turn (`ROTATION`: every command of `tests.fuzz.harness` on a
log file, each output format, and the commands run on a match ``import`` stored), in this
process through click's runner, under a time limit: a command that raises (a traceback), exits
with another code than 0, 1 or 2, says "internal error", or runs out of time (a hang) is a
finding.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.fuzz.harness import (
    COMMANDS,
    FORMATS,
    STORED,
    Outcome,
    fill,
    problems,
    run,
    signing_key,
)
from tests.fuzz.test_commands import INTEGERS, ODD_VALUES, STRINGS, deep, dumps, paths, put, reseal

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = path.read_bytes().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


class Mutator:
    """Damaged logs made from the samples, reproducibly from a seed."""

    def __init__(self, seed: int, samples: list[Path] | None = None) -> None:
        self.rng = random.Random(seed)
        chosen = samples or sorted(SAMPLES.glob("*.jsonl"))
        self.sources = [(p.read_bytes(), _load(p)) for p in chosen]

    def make(self) -> tuple[str, bytes]:
        """One damaged log: the kind of damage and the bytes."""
        rng = self.rng
        kind = rng.choice(KINDS)
        raw, (header, records) = rng.choice(self.sources)
        header, records = json.loads(json.dumps(header)), json.loads(json.dumps(records))
        return kind, MAKERS[kind](rng, raw, header, records)


def _joined(header: dict[str, Any], records: list[dict[str, Any]]) -> bytes:
    return b"\n".join(dumps(x) for x in [header, *records]) + b"\n"


def _sealing(rng: random.Random, header: dict[str, Any], records: list[dict[str, Any]]) -> bytes:
    """The records re-hashed (often without the old seal, so that the chain is all a reader
    can check), left as they are, or stripped of their hashes."""
    how = rng.choice(["reseal", "reseal", "reseal-unsealed", "keep", "strip"])
    if how == "reseal-unsealed":
        records = [r for r in records if r["event"].get("type") not in _TRAILER]
        how = "reseal"
    if how == "reseal":
        reseal(header, records)
    elif how == "strip":
        header.pop("hash", None)
        for record in records:
            record.pop("hash", None)
    return _joined(header, records)


_TRAILER = ("match_sealed", "record_signed")
_CHUNKS = [
    b"\x1b[2J",
    b"\xe2\x80\xae",
    b"\x00",
    b"9" * 25,
    b"[" * 300,
    b"[" * 5000,
    b"\r",
    b"\n",
    b"\xff",
]


def _bytes(rng: random.Random, raw: bytes, *_rest: Any) -> bytes:
    content = bytearray(raw)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(content) or 1)
        chunk = rng.choice(_CHUNKS) if rng.random() < 0.3 else rng.randbytes(rng.randint(1, 4))
        action = rng.choice(["replace", "delete", "insert", "flip"])
        if action == "replace":
            content[at : at + len(chunk)] = chunk
        elif action == "delete":
            del content[at : at + len(chunk)]
        elif action == "insert":
            content[at:at] = chunk
        elif content:
            content[at % len(content)] ^= 1 << rng.randrange(8)
    return bytes(content)


def _swap(
    rng: random.Random, raw: bytes, header: dict[str, Any], records: list[dict[str, Any]]
) -> bytes:
    if rng.random() < 0.5:
        lines = raw.splitlines()
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines) + b"\n"
    i, j = rng.randrange(len(records)), rng.randrange(len(records))
    records[i], records[j] = records[j], records[i]
    if rng.random() < 0.7:
        for n, record in enumerate(records):
            record["seq"] = n + 1
    return _sealing(rng, header, records)


def _odd(rng: random.Random, old: Any) -> Any:
    if isinstance(old, str) and rng.random() < 0.8:
        return rng.choice(STRINGS)
    if isinstance(old, int) and not isinstance(old, bool) and rng.random() < 0.8:
        return rng.choice(INTEGERS)
    return rng.choice([*ODD_VALUES, deep(rng.randint(250, 400))])


def _field(
    rng: random.Random, raw: bytes, header: dict[str, Any], records: list[dict[str, Any]]
) -> bytes:
    for _ in range(rng.randint(1, 2)):
        record = rng.choice(records)
        where = paths(record["event"])
        path = ("event", *rng.choice(where)) if where else ("event",)
        old: Any = record
        for part in path:
            old = old[part]
        put(record, path, _odd(rng, old))
    return _sealing(rng, header, records)


def _truncate(rng: random.Random, raw: bytes, *_rest: Any) -> bytes:
    if rng.random() < 0.5:
        return raw[: rng.randrange(len(raw))]
    lines = raw.splitlines(keepends=True)
    return b"".join(lines[: rng.randrange(1, len(lines))])


def _huge(
    rng: random.Random, raw: bytes, header: dict[str, Any], records: list[dict[str, Any]]
) -> bytes:
    record = rng.choice(records)
    where = paths(record["event"])
    path = ("event", *rng.choice(where)) if where else ("event", "x")
    value = rng.choice(
        [
            "x" * rng.choice([10_000, 300_000]),
            "\u202e" * 50_000,
            10 ** rng.randint(18, 40),
            -(10**19),
            1e308,
            deep(rng.choice([100, 900])),
            list(range(rng.choice([1000, 50_000]))),
            {f"k{i}": i for i in range(5000)},
        ]
    )
    put(record, path, value)
    return _sealing(rng, header, records)


def _crafted(
    rng: random.Random, raw: bytes, header: dict[str, Any], records: list[dict[str, Any]]
) -> bytes:
    start = records[0]["event"]
    seats = start.get("seats") or []
    how = rng.choice(["seat", "seat-first", "swap", "dup", "first", "move", "double", "drop"])
    if how.startswith("seat") and seats:
        seat = rng.choice(seats)
        old, seat["player"] = seat["player"], rng.choice(["px", "", "p2", "p1", "\x1b[2J"])
        if how == "seat-first":
            start["first_player"] = seat["player"]
        if rng.random() < 0.3:  # the deck's instances too
            for card in seat.get("deck", []):
                card["id"] = card["id"].replace(old, seat["player"] or "q")
    elif how == "swap" and len(seats) > 1:
        seats[0]["player"], seats[1]["player"] = seats[1]["player"], seats[0]["player"]
    elif how == "dup" and len(seats) > 1:
        seats[1]["player"] = seats[0]["player"]
    elif how == "first":
        start["first_player"] = rng.choice(["nobody", "", "p2", "p9"])
    elif how == "move":
        records.insert(rng.randrange(1, len(records)), records.pop(0))
    elif how == "double":
        records.insert(rng.randrange(1, len(records)), json.loads(json.dumps(records[0])))
    elif how == "drop":
        records.pop(0)
    if how in ("move", "double", "drop") and rng.random() < 0.8:
        for n, record in enumerate(records):
            record["seq"] = n + 1
    return _sealing(rng, header, records)


def _header(
    rng: random.Random, raw: bytes, header: dict[str, Any], records: list[dict[str, Any]]
) -> bytes:
    head, rest = raw.split(b"\n", 1)
    how = rng.choice(["spaces", "order", "escape", "pad", "cr", "edit", "drop", "extra"])
    if how == "spaces":
        head = json.dumps(header, sort_keys=True, separators=(", ", ": ")).encode()
    elif how == "order":
        head = json.dumps(dict(reversed(list(header.items()))), separators=(",", ":")).encode()
    elif how == "escape":
        head = head.replace(b'"vwlog"', b'"\\u0076wlog"')
    elif how == "pad":
        head = rng.choice([b" ", b"\t"]) + head + rng.choice([b" ", b""])
    elif how == "cr":
        head += b"\r"
    elif how == "edit":
        key = rng.choice([*header, "version", "format", "match_id"])
        header[key] = _odd(rng, header.get(key))
        return _sealing(rng, header, records)
    elif how == "drop":
        return rest
    else:
        header["x"] = rng.choice(ODD_VALUES)
        return _sealing(rng, header, records)
    return head + b"\n" + rest


def _strip(
    rng: random.Random, raw: bytes, header: dict[str, Any], records: list[dict[str, Any]]
) -> bytes:
    header.pop("hash", None)
    for record in records:
        record.pop("hash", None)
    if rng.random() < 0.5:
        return _field(rng, raw, header, records)
    return _joined(header, records)


MAKERS: dict[str, Callable[..., bytes]] = {
    "bytes": _bytes,
    "swap": _swap,
    "field": _field,
    "truncate": _truncate,
    "huge": _huge,
    "crafted": _crafted,
    "header": _header,
    "strip": _strip,
}
KINDS = tuple(MAKERS)

ROTATION: tuple[tuple[str, ...], ...] = (*COMMANDS, *FORMATS, *(("<stored>", *c) for c in STORED))
"""What each input runs, in turn: a command on the file, or (``<stored>``) ``import`` and then
a command on the match it stored."""


class Hang(BaseException):  # what it is, not an error class
    """A command ran out of its time (not an ``Exception``: no handler of the command's may
    take it for a failure of its own)."""


@dataclass
class Tally:
    """What a fuzz run found."""

    inputs: int = 0
    runs: int = 0
    by_command: dict[str, int] = field(default_factory=dict)
    by_kind: dict[str, int] = field(default_factory=dict)
    exits: dict[str, int] = field(default_factory=dict)
    tracebacks: int = 0
    hangs: int = 0
    findings: list[str] = field(default_factory=list)
    slowest: float = 0.0

    def add(
        self, kind: str, command: tuple[str, ...], outcomes: list[Outcome], took: float
    ) -> None:
        self.inputs += 1
        self.runs += len(outcomes)
        name = " ".join(c for c in command if not c.startswith("{"))
        self.by_command[name] = self.by_command.get(name, 0) + 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        self.slowest = max(self.slowest, took)
        for outcome in outcomes:
            code = str(outcome.exit_code)
            self.exits[code] = self.exits.get(code, 0) + 1
        for outcome in outcomes:
            if isinstance(outcome.exception, Hang):
                self.hangs += 1
                self.findings.append(f"HANG {outcome.describe()}")
        found = [p for p in problems(outcomes) if "Hang(" not in p]
        self.tracebacks += len(found)
        self.findings.extend(found)


def _limited(limit: float, args: list[str], store: Path) -> Outcome:
    """`run` under a time limit (a SIGALRM in this, the main, thread)."""

    def expire(_signum: int, _frame: object) -> None:
        raise Hang(f"over {limit} s")

    previous = signal.signal(signal.SIGALRM, expire)
    began = time.monotonic()
    outer, _ = signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return run(args, store)
    except Hang as hang:
        return Outcome(tuple(args), -1, "", hang)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # a timer set around this one (pytest-timeout's) runs on
            left = outer - (time.monotonic() - began)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))


def run_input(
    command: tuple[str, ...], log: Path, work: Path, key: Path, limit: float
) -> list[Outcome]:
    """One input through one entry of `ROTATION`."""
    if command[0] != "<stored>":
        return [_limited(limit, fill(command, log, work, key), Path("memory:"))]
    store = work / "stored.db"
    for leftover in work.glob("stored.db*"):
        leftover.unlink()
    imported = _limited(limit, ["import", str(log)], store)
    outcomes = [imported]
    if imported.exception is None and imported.exit_code in (0, 1):
        from vwlog.store import MatchStore

        with MatchStore.open(str(store)) as opened:
            ids = opened.match_ids()
        for match_id in ids:
            args = [part.format(id=match_id, out=str(work)) for part in command[1:]]
            outcomes.append(_limited(limit, args, store))
    return outcomes


def fuzz(
    count: int,
    work: Path,
    *,
    seed: int = 0,
    limit: float = 30.0,
    keep: Path | None = None,
    progress: Callable[[Tally], None] | None = None,
    samples: list[Path] | None = None,
    until: float | None = None,
) -> Tally:
    """Run ``count`` inputs, one command each in turn, damaging ``samples`` (default: every
    sample); the damaged logs that found something are copied to ``keep`` (when given)."""
    mutator = Mutator(seed, samples)
    key = signing_key(work)
    log = work / "input.jsonl"
    tally = Tally()
    for n, (kind, content) in enumerate(_inputs(mutator, count)):
        if until is not None and time.monotonic() > until:
            break  # out of time (``until``, on the monotonic clock): what ran is reported
        log.write_bytes(content)
        command = ROTATION[n % len(ROTATION)]
        began = time.perf_counter()
        outcomes = run_input(command, log, work, key, limit)
        before = len(tally.findings)
        tally.add(kind, command, outcomes, time.perf_counter() - began)
        if keep is not None and len(tally.findings) > before:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"input-{seed}-{n}-{kind}.jsonl").write_bytes(content)
            with (keep / f"findings-{seed}.txt").open("a") as said:
                said.write(f"input {n} ({kind}):\n" + "\n".join(tally.findings[before:]) + "\n")
        if progress is not None and (n + 1) % 1000 == 0:
            progress(tally)
    return tally


def _inputs(mutator: Mutator, count: int) -> Iterator[tuple[str, bytes]]:
    for _ in range(count):
        yield mutator.make()


def load_average() -> tuple[float, float, float]:
    """The machine's load average (1, 5, 15 minutes)."""
    return os.getloadavg()
