"""Use cases: validate, simulate, list the rules. The CLI (and an API) call these.

No printing, no argument parsing: plain functions taking typed arguments and returning typed
results, so the interfaces cannot drift apart.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import ValidationError

from vwlog.engine.replay import ValidationReport, Validator, replay
from vwlog.engine.simulate import GeneratedMatch, PolicyName, simulate
from vwlog.events import DeckRevealed, EventRecord, LogHeader, MatchStarted
from vwlog.io import codec
from vwlog.io.logfile import open_log, write_log
from vwlog.model.cards import CardPool, Ruleset
from vwlog.model.errors import IllegalEventError, LogFormatError, UsageError
from vwlog.rules.catalog import RULES, status
from vwlog.services.trust import TrustOptions, close_records, published_for

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence


# -- rulesets --------------------------------------------------------------------------------


def parse_overrides(pairs: Iterable[str]) -> dict[str, Any]:
    """Parse ``flag=value`` pairs into a mapping checked against `Ruleset`'s fields.

    Raises:
        UsageError: a pair is malformed or names no ruleset field.
    """
    out: dict[str, Any] = {}
    fields = Ruleset.model_fields
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise UsageError(f"--set takes FLAG=VALUE, got {pair!r}")
        if name not in fields:
            raise UsageError(f"--set: no ruleset flag {name!r} (see 'vwlog rules --flags')")
        low = value.strip().lower()
        parsed: Any = value.strip()
        if low in ("true", "yes", "on"):
            parsed = True
        elif low in ("false", "no", "off"):
            parsed = False
        elif low in ("none", "null"):
            parsed = None
        elif low.lstrip("-").isdigit():
            parsed = int(low)
        out[name] = parsed
    return out


def apply_overrides(base: Ruleset, overrides: Mapping[str, Any]) -> Ruleset:
    """``base`` with some flags changed, validated.

    Raises:
        UsageError: a value does not fit its flag.
    """
    if not overrides:
        return base
    try:
        return Ruleset.model_validate({**base.model_dump(), **overrides})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"--set {where}: {first['msg'].lower()}") from err


def load_ruleset(path: str | Path) -> Ruleset:
    """Read a ruleset JSON file.

    Raises:
        UsageError: the file is unreadable or not a valid ruleset.
    """
    try:
        return Ruleset.model_validate_json(Path(path).read_bytes())
    except OSError as err:
        raise UsageError(f"{path}: cannot read ruleset: {err.strerror}") from err
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"{path}: field {where!r}: {first['msg'].lower()}") from err


# -- validation ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ValidationOptions:
    """How to validate: a replacement ruleset, flag overrides, strictness."""

    ruleset: Ruleset | None = None
    overrides: tuple[tuple[str, Any], ...] = ()
    strict: bool = False
    trust: TrustOptions | None = None
    """What the log is held to (published pool and ruleset, keyring); ``None``: the built-in
    pool and ruleset, no keyring."""


@dataclass(frozen=True, slots=True)
class InputProblem:
    """A file that could not be read as a log."""

    path: str
    error: str


def validate_log(path: str | Path, options: ValidationOptions | None = None) -> ValidationReport:
    """Validate one log file, streaming it line by line (memory flat in file length).

    In strict mode validation stops at the first illegal event: the report holds its
    violations and ``stopped_at`` names its seq.

    Raises:
        LogFormatError: the file is unreadable or malformed (names file, line and field).
        UsageError: an override does not fit the ruleset.
    """
    opts = options or ValidationOptions()
    validator = Validator(source=str(path))
    with open_log(path) as reader:
        lines = iter(reader)
        first = next(lines, None)
        ruleset = opts.ruleset
        if first is not None and isinstance(first.record.event, MatchStarted) and ruleset is None:
            ruleset = first.record.event.ruleset
        if ruleset is not None and opts.overrides:
            ruleset = apply_overrides(ruleset, dict(opts.overrides))
        items = itertools.chain(() if first is None else (first,), lines)
        try:
            report = replay(
                ((line.line_no, line.record) for line in items),
                validator,
                header=reader.header,
                ruleset=ruleset,
                strict=opts.strict,
            )
        except IllegalEventError as err:
            report = validator.result()
            report.violations.extend(err.violations)
            report.stopped_at = err.seq
            report.turns = max((v.turn or 0 for v in err.violations), default=0)
    return with_integrity(report, path, opts.trust, ruleset)


def with_integrity(
    report: ValidationReport,
    path: str | Path,
    trust: TrustOptions | None,
    ruleset: Ruleset | None = None,
) -> ValidationReport:
    """The report with the integrity result and the R-TRUST violations added (one verdict).

    Raises:
        LogFormatError: the file cannot be read again.
        UsageError: ``--pool``/``--ruleset`` names nothing published.
    """
    from vwlog.rules.published import Integrity
    from vwlog.services.trust import check_integrity

    if str(path) == "-":
        report.integrity = Integrity(
            chain="not checked",
            sealed=False,
            seal="not checked",
            pool="not checked",
            ruleset="not checked",
            problems=("read from standard input: chain, seal and signatures not checked",),
        )
        return report
    findings = check_integrity(
        path, trust, trusted=report.trusted, judged_under=ruleset, owed=report.owed
    )
    report.integrity = findings.integrity
    if findings.violations:
        report.violations = sorted(
            [*findings.violations, *report.violations], key=lambda v: v.seq or 0
        )
    return report


def _validate_one(
    args: tuple[str, ValidationOptions],
) -> ValidationReport | InputProblem:
    path, options = args
    try:
        return validate_log(path, options)
    except LogFormatError as err:
        return InputProblem(path, str(err))


_START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"
"""Worker processes are forked where that is safe and fast (Linux: no threads are running
when validation starts), so they do not pay the interpreter and import start-up again."""


def validate_logs(
    paths: Sequence[str | Path], options: ValidationOptions | None = None, *, jobs: int = 1
) -> Iterator[ValidationReport | InputProblem]:
    """Validate many logs, in order, with ``jobs`` worker processes.

    A file that cannot be read yields an `InputProblem`; the others are still validated.

    Raises:
        UsageError: an override does not fit the ruleset.
    """
    opts = options or ValidationOptions()
    work = [(str(p), opts) for p in paths]
    if jobs <= 1 or len(work) <= 1:
        for item in work:
            yield _validate_one(item)
        return
    import multiprocessing

    with multiprocessing.get_context(_START_METHOD).Pool(jobs) as pool:
        yield from pool.imap(_validate_one, work, chunksize=max(1, len(work) // (jobs * 8)))


# -- simulation ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    """What to generate."""

    seed: int
    matches: int = 1
    players: int = 2
    teams: int | None = None
    decks: tuple[tuple[str, ...], ...] | None = None
    policy: PolicyName = "greedy"
    max_turns: int = 200
    ruleset: Ruleset | None = None


def sealed(
    header: LogHeader, records: Iterable[EventRecord]
) -> tuple[LogHeader, list[EventRecord]]:
    """The header and records with their hash chain filled in."""
    head = codec.seal_header(header)
    assert head.hash is not None
    return head, list(codec.seal(head.hash, records))


def match_path(out: Path, spec: SimulationSpec, index: int) -> Path:
    """Where match ``index`` of a run is written: ``OUT/sim-SEED-NNNNN.jsonl``, or ``OUT``
    itself when it names a single ``.jsonl`` file."""
    if out.suffix == ".jsonl" and spec.matches == 1:
        return out
    return out / f"sim-{spec.seed}-{index:05d}.jsonl"


def simulate_to(
    pool: CardPool,
    spec: SimulationSpec,
    out: Path | None,
    *,
    on_match: Callable[[GeneratedMatch, Path | None], None] | None = None,
) -> list[GeneratedMatch]:
    """Generate ``spec.matches`` matches and write each as a sealed log under ``out``.

    Returns the generated matches' summaries (header and final state; records are dropped
    after writing to keep memory flat when ``out`` is given).

    Raises:
        UsageError: the spec is impossible (players out of 2..4, a bad team split).
        OutputError: a file cannot be written.
    """
    if not 2 <= spec.players <= 4:
        raise UsageError(f"--players takes 2 to 4, not {spec.players}")
    if spec.teams is not None and (spec.teams < 2 or spec.players % spec.teams):
        raise UsageError(f"--teams {spec.teams} does not divide {spec.players} players evenly")
    if out is not None and not (out.suffix == ".jsonl" and spec.matches == 1):
        out.mkdir(parents=True, exist_ok=True)
    results = []
    published = published_for(pool)
    for index in range(spec.matches):
        match = simulate(
            pool,
            seed=spec.seed,
            index=index,
            players=spec.players,
            teams=spec.teams,
            decks=spec.decks,
            policy=spec.policy,
            max_turns=spec.max_turns,
            ruleset=spec.ruleset or Ruleset(),
        )
        path = None
        if out is not None:
            path = match_path(out, spec, index)
            header, records = close_records(match.header, match.records, published)
            write_log(path, header, records)
            match = GeneratedMatch(header=header, records=(), state=match.state)
        if on_match is not None:
            on_match(match, path)
        results.append(match)
    return results


# -- rules -----------------------------------------------------------------------------------


def rules_catalog() -> list[dict[str, str]]:
    """Every rule id with its title, status and reason, in document order."""
    out = []
    for rule in RULES.values():
        st, reason = status(rule.id)
        out.append(
            {
                "id": str(rule.id),
                "title": rule.title,
                "status": st,
                "reason": reason,
                "basis": rule.basis,
            }
        )
    return out


# -- integrity -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BrokenLink:
    """The first place where a hash chain does not hold."""

    seq: int | None
    """The record's seq, by its position in the chain (``None`` for the header)."""
    line: int
    """The line of the file."""
    reason: str
    expected: str | None = None
    found: str | None = None


@dataclass(frozen=True, slots=True)
class Commitment:
    """A deck-order commitment and what its reveal showed."""

    player: str
    status: str
    """``verified``, ``mismatch`` or ``not revealed``."""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The outcome of checking a log's hash chain and deck commitments."""

    source: str
    match_id: str | None
    records: int
    head_hash: str | None
    broken: BrokenLink | None
    commitments: tuple[Commitment, ...] = ()
    sealed: bool = True
    """Whether the log carries hashes at all."""

    @property
    def ok(self) -> bool:
        """Whether the chain holds and no commitment failed."""
        return (
            self.sealed
            and self.broken is None
            and all(c.status != "mismatch" for c in self.commitments)
        )


def verify_log(path: str | Path) -> VerifyReport:
    """Recompute a log file's hash chain and check deck commitments against their reveals.

    Reads raw lines itself, so an altered line is reported at its seq even when the alteration
    broke its JSON.

    Raises:
        LogFormatError: the file cannot be opened or has no valid header.
    """
    with open_log(path) as reader:
        header = reader.header
        name = reader.name
    with Path(path).open("rb") as raw_file:
        lines = (
            (line_no, raw_line.rstrip(b"\n"))
            for line_no, raw_line in enumerate(raw_file, start=1)
            if line_no > 1
        )
        return verify_lines(name, header, lines)


def verify_lines(
    source: str, header: LogHeader, lines: Iterable[tuple[int, bytes]]
) -> VerifyReport:
    """Check the chain of raw record lines ``(line number, bytes)`` under ``header``."""
    if header.hash is None:
        return VerifyReport(source, header.match_id, 0, None, None, sealed=False)
    broken: BrokenLink | None = None
    root = codec.header_hash(header)
    if root != header.hash:
        broken = BrokenLink(None, 1, "header altered", root, header.hash)
    previous = header.hash
    count = 0
    starts: dict[str, tuple[str | None, tuple[str, ...]]] = {}
    reveals: dict[str, str] = {}
    for line_no, raw in lines:
        count += 1
        # fast path: hash the canonical re-dump of the parsed JSON (what the writer hashed);
        # the record model is consulted only when that does not match, and for the events
        # that carry deck commitments
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            data = None
        if not isinstance(data, dict):
            if broken is None:
                broken = BrokenLink(count, line_no, "line altered: no longer a valid record")
            break
        claimed = data.pop("hash", None)
        expected = codec.chain_hash(previous, orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
        if claimed != expected:
            try:
                record = codec.parse_record(raw)
            except ValidationError:
                if broken is None:
                    broken = BrokenLink(count, line_no, "line altered: no longer a valid record")
                break
            expected = codec.chain_hash(previous, codec.record_body(record))
        if broken is None:
            # name the link by its position in the chain, whatever seq the line claims
            if claimed != expected:
                broken = BrokenLink(
                    count, line_no, "hash does not match the chain", expected, claimed
                )
            elif data.get("seq") != count:
                broken = BrokenLink(
                    count, line_no, f"seq altered (the line says {data.get('seq')})"
                )
            elif raw != orjson.dumps({**data, "hash": claimed}, option=orjson.OPT_SORT_KEYS):
                broken = BrokenLink(count, line_no, "line altered: not in canonical form")
        previous = claimed or expected
        event_data = data.get("event")
        kind = event_data.get("type") if isinstance(event_data, dict) else None
        if kind not in ("match_started", "deck_revealed"):
            continue
        try:
            event = codec.parse_record(raw).event
        except ValidationError:
            continue
        if isinstance(event, MatchStarted):
            for seat in event.seats:
                starts[seat.player] = (seat.deck_commitment, tuple(c.id for c in seat.deck))
        elif isinstance(event, DeckRevealed):
            reveals[event.player] = event.salt
    commitments = []
    for player, (commitment, deck) in starts.items():
        if commitment is None:
            continue
        salt = reveals.get(player)
        if salt is None:
            commitments.append(Commitment(player, "not revealed"))
        elif codec.deck_commitment(salt, deck) == commitment:
            commitments.append(Commitment(player, "verified"))
        else:
            commitments.append(Commitment(player, "mismatch"))
    return VerifyReport(
        source, header.match_id, count, previous, broken, commitments=tuple(commitments)
    )
