"""Use cases over the match store: import, export, list, verify, seek, fork, play, lineage.

The store keeps each match as its canonical record lines with their hash chain, plus a catalog
entry (`MatchMeta`) and state snapshots at intervals. Everything that judges a match goes
through the one replay loop (`vwlog.engine.replay.replay`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
import weakref
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from vwlog.engine.play import play
from vwlog.engine.replay import FinalState, Step, ValidationReport, Validator, replay
from vwlog.engine.simulate import make_policy
from vwlog.events import (
    EventRecord,
    JudgeRulingIssued,
    LogHeader,
    MatchForked,
    MatchStarted,
)
from vwlog.io import codec
from vwlog.io.logfile import open_log
from vwlog.model.errors import (
    IllegalEventError,
    LogFormatError,
    MatchExistsError,
    SequenceConflictError,
    StoreError,
    UsageError,
    VwlogError,
)
from vwlog.model.types import RulingKind
from vwlog.projections import INITIAL, evolve
from vwlog.projections.stats import MatchMetricsVisitor
from vwlog.rules import expect, legal_decisions
from vwlog.services import BrokenLink, VerifyReport, verify_lines
from vwlog.services.snapshots import SnapshotFormatError, decode_state, encode_state
from vwlog.store import Head, ImportOutcome, MatchMeta, MatchStore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path

    from vwlog.events import AnyEvent
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

SNAPSHOT_EVERY = 100
"""Default interval between state snapshots (events); a seek replays at most this many."""
_SNAPSHOT_MAGIC = b"vwlog-snapshot-2\n"


# -- snapshots -------------------------------------------------------------------------------


def encode_snapshot(state: MatchState, record_hash: str | None) -> bytes:
    """The dynamic part of a state as bytes (the static part comes from `MatchStarted`).

    Layout: a magic line, the hash of the record the state follows, the SHA-256 of the payload,
    then the payload (plain JSON, see `vwlog.services.snapshots`). A snapshot is used only if
    both hashes check out, so a corrupt or stale snapshot is rebuilt from the records instead
    of being trusted; decoding builds only whitelisted value classes, never runs code.
    """
    payload = encode_state(state)
    digest = hashlib.sha256(payload).hexdigest()
    head = f"{record_hash or ''}\n{digest}\n".encode()
    return _SNAPSHOT_MAGIC + head + payload


def decode_snapshot(static: MatchState, data: bytes, record_hash: str | None) -> MatchState | None:
    """A state from snapshot bytes; ``None`` unless it belongs to ``record_hash`` and its
    payload is intact."""
    if not data.startswith(_SNAPSHOT_MAGIC):
        return None
    parts = data[len(_SNAPSHOT_MAGIC) :].split(b"\n", 2)
    if len(parts) != 3:
        return None
    for_record, digest, payload = parts
    if for_record.decode(errors="replace") != (record_hash or ""):
        return None
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    try:
        return decode_state(static, payload)
    except (SnapshotFormatError, TypeError, ValueError):
        return None  # rebuilt from the records instead


class _Snapshots:
    """A replay visitor that keeps a state every ``every`` events."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.taken: list[tuple[int, MatchState]] = []

    def begin_match(self, header: LogHeader | None) -> None:
        """Nothing to do."""

    def visit(self, step: Step) -> None:
        """Keep the state after every ``every``-th event."""
        if step.record.seq % self.every == 0:
            self.taken.append((step.record.seq, step.after))

    def end_match(self, final: MatchState) -> None:
        """Nothing to do."""

    def result(self) -> list[tuple[int, MatchState]]:
        """The states kept."""
        return self.taken


class _Both:
    """The visitors of an import fed by one replay pass: validation, snapshots and the
    match's statistics (kept in its catalog entry for the statistics read model)."""

    def __init__(self, validator: Validator, snapshots: _Snapshots) -> None:
        self.validator = validator
        self.snapshots = snapshots
        self.measure = MatchMetricsVisitor()

    def begin_match(self, header: LogHeader | None) -> None:
        """Forward."""
        self.validator.begin_match(header)
        self.measure.begin_match(header)

    def visit(self, step: Step) -> None:
        """Forward."""
        self.validator.visit(step)
        self.snapshots.visit(step)
        self.measure.visit(step)

    def end_match(self, final: MatchState) -> None:
        """Forward."""
        self.validator.end_match(final)
        self.measure.end_match(final)

    def result(self) -> ValidationReport:
        """The validation report."""
        return self.validator.result()

    def metrics(self) -> dict[str, Any] | None:
        """The match's metrics in JSON mode (`MatchMeta.metrics`); ``None`` if the records
        hold no ``match_started`` to measure."""
        try:
            return self.measure.result().model_dump(mode="json")
        except ValueError:
            return None


# -- import ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What importing one log did."""

    path: str
    match_id: str | None
    outcome: str
    """``stored``, ``unchanged``, ``rejected`` (illegal, with --reject-illegal) or ``error``."""
    events: int = 0
    violations: int = 0
    detail: str = ""


def meta_from(
    header: LogHeader,
    report: ValidationReport,
    head_hash: str,
    *,
    events: int,
    metrics: dict[str, Any] | None = None,
) -> MatchMeta:
    """The catalog entry of a validated match (with its metrics, when measured)."""
    summary = [f"{v.rule}@{v.seq}" for v in report.violations[:100]]
    return MatchMeta(
        match_id=header.match_id,
        players=list(report.players),
        created=header.created,
        turns=report.turns,
        winner=report.winner,
        victory=report.victory,
        violations=len(report.violations),
        violation_summary=summary,
        head_hash=head_hash,
        events=events,
        parent=report.fork_parent,
        fork_at=report.fork_at,
        flagged=bool(report.violations),
        metrics=metrics,
    )


def _read_for_import(path: str | Path) -> tuple[LogHeader, list[tuple[bytes, EventRecord]]]:
    """Read a log whole; seal it if it carries no hashes; refuse a broken chain."""
    with open_log(path) as reader:
        header = reader.header
        upcast = reader.upcast
        lines = [(line.raw, line.record) for line in reader]
    records = [r for _, r in lines]
    if header.hash is None and all(r.hash is None for r in records):
        # an unsealed log (no hash anywhere): seal it
        head = codec.seal_header(header.model_copy(update={"hash": None}))
        assert head.hash is not None
        sealed = list(codec.seal(head.hash, (r.model_copy(update={"hash": None}) for r in records)))
        return head, [(codec.record_bytes(r), r) for r in sealed]
    missing = next((r.seq for r in records if r.hash is None), None)
    if header.hash is None or missing is not None:
        where = "the header" if header.hash is None else f"seq {missing}"
        raise LogFormatError(
            str(path),
            1 if header.hash is None else (missing or 0) + 1,
            f"the log is sealed but {where} has no hash (removed after sealing?); "
            "not imported: check it with 'vwlog verify'",
            "hash",
        )
    report = verify_lines(
        str(path),
        header,
        ((i + 2, codec.record_bytes(r) if upcast else raw) for i, (raw, r) in enumerate(lines)),
    )
    if report.broken is not None:
        b = report.broken
        where = f"seq {b.seq}" if b.seq is not None else f"line {b.line}"
        raise LogFormatError(
            str(path),
            b.line,
            f"hash chain broken at {where} ({b.reason}); "
            "not imported: check it with 'vwlog verify'",
        )
    if upcast:
        return header, [(codec.record_bytes(r), r) for r in records]
    return header, lines


def import_log(
    store: MatchStore,
    path: str | Path,
    *,
    reject_illegal: bool = False,
    snapshot_every: int = SNAPSHOT_EVERY,
) -> ImportResult:
    """Validate a log and store it in one transaction (all of it or none of it).

    Idempotent: the same match imported again stores nothing (``unchanged``). A log with
    violations is stored flagged with them, or refused with ``reject_illegal``.

    Raises:
        LogFormatError: the file is unreadable, malformed, or its hash chain is broken.
        MatchExistsError: another match with this id is stored.
        StoreError: the database failed.
    """
    header, lines = _read_for_import(path)
    snapshots = _Snapshots(snapshot_every)
    visitors = _Both(Validator(source=str(path)), snapshots)
    report = replay(((i + 2, r) for i, (_, r) in enumerate(lines)), visitors, header=header)
    head_hash = lines[-1][1].hash if lines else header.hash
    if reject_illegal and report.violations:
        return ImportResult(
            str(path),
            header.match_id,
            "rejected",
            len(lines),
            len(report.violations),
            f"{len(report.violations)} violations; first: {report.violations[0]}",
        )
    meta = meta_from(header, report, head_hash or "", events=len(lines), metrics=visitors.metrics())
    outcome = store.import_match(header, lines, meta)
    if outcome == ImportOutcome.STORED:
        store.save_snapshots(
            header.match_id,
            [
                (seq, encode_snapshot(state, lines[seq - 1][1].hash))
                for seq, state in snapshots.result()
            ],
        )
    return ImportResult(
        str(path), header.match_id, str(outcome), len(lines), len(report.violations)
    )


def import_logs(
    store: MatchStore,
    paths: Sequence[str | Path],
    *,
    reject_illegal: bool = False,
    snapshot_every: int = SNAPSHOT_EVERY,
    on_result: Callable[[ImportResult], None] | None = None,
) -> list[ImportResult]:
    """Import many logs; a file that fails (unreadable, conflicting, or the database refused
    its transaction) is reported as an ``error`` result and the others go on."""
    results = []
    for path in paths:
        try:
            result = import_log(
                store, path, reject_illegal=reject_illegal, snapshot_every=snapshot_every
            )
        except (LogFormatError, MatchExistsError, SequenceConflictError, StoreError) as err:
            result = ImportResult(str(path), None, "error", detail=str(err))
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


# -- export, verify, list --------------------------------------------------------------------


def export_match(store: MatchStore, match_id: str, target: str | Path) -> int:
    """Write a stored match as a log file: the header and the stored lines as they are.

    Raises:
        MatchNotFoundError: no such match.
        OutputError: the file cannot be written.
    """
    header = store.header(match_id)
    head = codec.header_bytes(header)
    data = [head, *store.raw_lines(match_id)]
    if str(target) == "-":
        import sys

        sys.stdout.buffer.write(b"\n".join(data) + b"\n")
        return len(data) - 1
    from pathlib import Path as _Path

    path = _Path(target)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(b"\n".join(data) + b"\n")
        tmp.replace(path)
    except OSError as err:
        from vwlog.model.errors import OutputError

        raise OutputError(str(path), err.strerror or str(err)) from err
    finally:
        tmp.unlink(missing_ok=True)
    return len(data) - 1


def verify_match(store: MatchStore, match_id: str) -> VerifyReport:
    """Recompute the hash chain of a stored match from its stored lines, and check that it ends
    at the head the catalog recorded (so records deleted from the end are found too).

    Raises:
        MatchNotFoundError: no such match.
    """
    header = store.header(match_id)
    meta = store.meta(match_id)
    lines = ((i + 2, raw) for i, raw in enumerate(store.raw_lines(match_id)))
    report = verify_lines(f"store:{match_id}", header, lines)
    if report.broken is None and (
        report.records != meta.events or report.head_hash != meta.head_hash
    ):
        broken = BrokenLink(
            report.records + 1 if report.records < meta.events else None,
            report.records + 2,
            f"the chain ends at seq {report.records} but the catalog recorded {meta.events} "
            "events: records are missing or were added",
            meta.head_hash,
            report.head_hash,
        )
        return dataclasses.replace(report, broken=broken)
    return report


def created_day(created: str | None) -> date | None:
    """The day of a header's ``created`` time (ISO 8601), or ``None`` if absent or unreadable."""
    if not created:
        return None
    try:
        return datetime.fromisoformat(created).date()
    except ValueError:
        return None


def list_matches(
    store: MatchStore,
    *,
    player: str | None = None,
    winner: str | None = None,
    victory: str | None = None,
    flagged: bool | None = None,
    since: date | None = None,
) -> list[MatchMeta]:
    """Stored matches, filtered; ``since`` keeps those created on or after that day (a match
    whose log gives no creation time is left out)."""
    out = []
    for m in store.list_matches():
        if since is not None:
            created = created_day(m.created)
            if created is None or created < since:
                continue
        if player is not None and player not in m.players:
            continue
        if winner is not None and m.winner != winner:
            continue
        if victory is not None and (m.victory or "").upper() != victory.upper():
            continue
        if flagged is not None and m.flagged != flagged:
            continue
        out.append(m)
    return out


# -- seek ------------------------------------------------------------------------------------


_STATIC_CACHE: weakref.WeakKeyDictionary[MatchStore, dict[str, MatchState]] = (
    weakref.WeakKeyDictionary()
)
"""The state after each match's `MatchStarted`, per open store."""


def _static_state(store: MatchStore, match_id: str) -> MatchState:
    per_store = _STATIC_CACHE.setdefault(store, {})
    cached = per_store.get(match_id)
    if cached is None:
        first = next(store.records(match_id, lte=1), None)
        if first is None or not isinstance(first.event, MatchStarted):
            raise UsageError(f"match {match_id!r} does not start with match_started")
        cached = per_store[match_id] = evolve(INITIAL, first.event)
    return cached


def state_at(store: MatchStore, match_id: str, seq: int | None = None) -> MatchState:
    """The state after event ``seq`` (default: the last) of a stored match, computed from the
    nearest snapshot at or before it, replaying at most one snapshot interval.

    Raises:
        MatchNotFoundError: no such match.
        UsageError: seq is out of range.
    """
    head = store.head(match_id)
    target = head.seq if seq is None else seq
    if not 0 <= target <= head.seq:
        raise UsageError(f"match {match_id!r} has events 1 to {head.seq}; no seq {target}")
    if target == 0:
        return INITIAL
    state: MatchState | None = None
    start = 0
    snap = store.nearest_snapshot(match_id, target)
    if snap is not None:
        at = next(store.records(match_id, gt=snap[0] - 1, lte=snap[0]), None)
        state = decode_snapshot(_static_state(store, match_id), snap[1], at.hash if at else None)
        if state is not None:
            start = snap[0]
    if state is None:
        state = INITIAL
    records = list(store.records(match_id, gt=start, lte=target))
    if start and _backs_up_before(records, start):
        # a back-up to a point before the snapshot: the replay loop must have seen that point
        return _replayed(INITIAL, store.records(match_id, lte=target))
    return _replayed(state, records)


def _backs_up_before(records: Iterable[EventRecord], seq: int) -> bool:
    return any(
        isinstance(r.event, JudgeRulingIssued)
        and r.event.kind == RulingKind.BACK_UP
        and (r.event.back_to or 0) <= seq
        for r in records
    )


def _replayed(state: MatchState, records: Iterable[EventRecord]) -> MatchState:
    """The state after ``records`` from ``state``, through the replay loop (as validation and
    the snapshots see it: back-up rulings restore, omitted consequences are caught up), not
    the bare fold."""
    return replay(records, FinalState(), initial=state)


# -- forks -----------------------------------------------------------------------------------


def priority_seqs_near(
    store: MatchStore, match_id: str, seq: int, *, radius: int = 200
) -> tuple[int | None, int | None]:
    """The nearest priority points before and after ``seq``."""
    lo = max(0, seq - radius)
    state = state_at(store, match_id, lo)
    rs = state.ruleset
    before: int | None = None
    after: int | None = None
    if rs is not None and expect(rs, state).kind == "priority" and lo < seq:
        before = lo
    for record in store.records(match_id, gt=lo, lte=seq + radius):
        if rs is None and isinstance(record.event, MatchStarted):
            rs = record.event.ruleset
        state = evolve(state, record.event)
        if rs is not None and expect(rs, state).kind == "priority":
            if record.seq < seq:
                before = record.seq
            elif record.seq > seq:
                after = record.seq
                break
    return before, after


_FORK_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def fork_match(store: MatchStore, match_id: str, at: int, *, name: str | None = None) -> str:
    """Start a fork of a stored match at a priority point; returns the fork's match id.

    The fork is a new match: its header names the parent, it copies the parent's first ``at``
    events (re-sealed under its own header) and records `MatchForked` as its next event.

    Raises:
        MatchNotFoundError: no such match.
        UsageError: ``at`` is not a priority point (the nearest ones are named), or the name
            is not 1 to 40 letters, digits, ``-``, ``_`` or ``.``.
        MatchExistsError: a match with the fork's id exists.
    """
    if name is not None and not _FORK_NAME.fullmatch(name):
        raise UsageError(
            f"fork name {name!r}: use 1 to 40 letters, digits, '-', '_' or '.' "
            "(it becomes part of the match id MATCH~NAME)"
        )
    state = state_at(store, match_id, at)
    rs = state.ruleset
    if rs is None or expect(rs, state).kind != "priority":
        before, after = priority_seqs_near(store, match_id, at)
        near = ", ".join(f"seq {s}" for s in (before, after) if s is not None) or "none nearby"
        raise UsageError(
            f"seq {at} of {match_id!r} is not a priority point (nearest: {near}); "
            "see 'vwlog replay --priority-points'"
        )
    existing = {m.match_id for m in store.list_matches()}
    base = f"{match_id}~{name}" if name else f"{match_id}~{at}"
    parent_header = store.header(match_id)
    prefix = [r.model_copy(update={"hash": None}) for r in store.records(match_id, lte=at)]
    marker = EventRecord(seq=at + 1, event=MatchForked(parent=match_id, at=at, name=name))
    for n in range(1, 10_000):
        fork_id = base if n == 1 else f"{base}.{n}"
        if fork_id in existing:
            continue
        header = codec.seal_header(
            LogHeader(
                match_id=fork_id,
                created=parent_header.created,
                generator=f"vwlog fork {match_id} --at {at}",
            )
        )
        assert header.hash is not None
        records = list(codec.seal(header.hash, [*prefix, marker]))
        lines = [(codec.record_bytes(r), r) for r in records]
        snapshots = _Snapshots(SNAPSHOT_EVERY)
        visitors = _Both(Validator(), snapshots)
        report = replay(((i + 2, r) for i, r in enumerate(records)), visitors, header=header)
        meta = meta_from(
            header,
            report,
            records[-1].hash or "",
            events=len(records),
            metrics=visitors.metrics(),
        )
        try:
            outcome = store.import_match(header, lines, meta)
        except MatchExistsError:
            continue  # another writer took this id a moment ago: try the next one
        if outcome != ImportOutcome.STORED:
            continue  # an identical fork was stored by someone else: never share one
        store.save_snapshots(
            fork_id,
            [
                (seq, encode_snapshot(snap_state, records[seq - 1].hash))
                for seq, snap_state in snapshots.result()
            ],
        )
        return fork_id
    raise UsageError(f"too many forks named {base!r}; choose another --name")


@dataclass
class PlayResult:
    """What `play_decisions` appended."""

    match_id: str
    appended: int
    decisions: int
    head_seq: int
    winner: str | None = None
    victory: str | None = None
    events: list[AnyEvent] = field(default_factory=list)


def play_decisions(
    store: MatchStore,
    match_id: str,
    decisions: Iterable[AnyEvent | str],
    *,
    auto: int = 0,
    policy: str = "greedy",
    seed: int = 0,
) -> PlayResult:
    """Append decisions to a stored match in play mode: each is checked (rejected with its
    rule ids if illegal, nothing stored) and followed by every consequence the rules demand;
    then ``auto`` more decisions are chosen by the generator's policy. All of it is appended in
    one transaction, chained to the match's head.

    Raises:
        MatchNotFoundError: no such match.
        IllegalEventError: a decision breaks a rule (nothing is stored).
        UsageError: a decision cannot be parsed, or the match is over.
        SequenceConflictError: another writer appended first (nothing is stored).
    """
    head = store.head(match_id)
    state = state_at(store, match_id, head.seq)
    rs = state.ruleset
    if rs is None:
        raise UsageError(f"match {match_id!r} has not started")
    applied: list[AnyEvent] = []
    n_decisions = 0
    items = list(decisions)
    for n, item in enumerate(items, 1):
        where = f"decision {n} of {len(items)}: " if len(items) > 1 else ""
        try:
            decision = parse_decision(item, rs, state) if isinstance(item, str) else [item]
        except UsageError as err:
            raise UsageError(f"{where}{err}") from err
        for d in decision:
            if state.over:
                raise UsageError(f"{where}match {match_id!r} is over (won by {state.winner})")
            if isinstance(d, JudgeRulingIssued):
                raise UsageError(
                    f"{where}judge_ruling_issued is not played: a judge's ruling is recorded in "
                    "the judge's log and imported; to go on from an earlier priority point, fork "
                    "there ('vwlog fork MATCH --at SEQ')"
                )
            if isinstance(d, MatchForked):
                raise UsageError(
                    f"{where}match_forked is not played: 'vwlog fork MATCH --at SEQ' makes a fork"
                )
            try:
                state, events = play(rs, state, d)
            except IllegalEventError as err:
                # name the seq the decision would have had
                raise IllegalEventError(
                    head.seq + len(applied) + 1, err.event_type, err.violations
                ) from err
            applied.extend(events)
            n_decisions += 1
    chooser = make_policy("random" if policy == "random" else "greedy", random.Random(seed))
    for _ in range(auto):
        if state.over:
            break
        player = expect(rs, state).player
        if player is None:
            break
        options = list(legal_decisions(rs, state, player))
        if not options:
            break
        state, events = play(rs, state, chooser.choose(state, player, options))
        applied.extend(events)
        n_decisions += 1
    if not applied:
        return PlayResult(match_id, 0, 0, head.seq, state.winner, state.victory)
    new_head = append_played(store, match_id, head, applied, state)
    return PlayResult(
        match_id, len(applied), n_decisions, new_head.seq, state.winner, state.victory, applied
    )


def append_played(
    store: MatchStore, match_id: str, head: Head, events: Sequence[AnyEvent], state: MatchState
) -> Head:
    """Append events played in play mode after ``head``, in one transaction, and describe the
    match's new end (``state``, the board after the last of them) in its catalog entry.

    Raises:
        SequenceConflictError: another writer appended after ``head`` (nothing is stored).
    """
    records = [EventRecord(seq=head.seq + i + 1, event=e) for i, e in enumerate(events)]
    sealed = list(codec.seal(head.hash, records))
    if state.over:
        # the match is won: close the record with its seal
        from vwlog.services.trust import seal_after

        sealed.append(seal_after(next(iter(store.records(match_id, lte=1)), None), sealed[-1]))
    lines = [(codec.record_bytes(r), r) for r in sealed]
    # play mode appends only legal events, so the stored verdict of the prefix stands
    meta = store.meta(match_id).model_copy(
        update={
            "turns": state.turn,
            "winner": state.winner,
            "victory": state.victory,
            "head_hash": sealed[-1].hash,
            "events": sealed[-1].seq,
        }
    )
    new_head = store.append(match_id, lines, expected_seq=head.seq, meta=meta)
    for record in sealed:
        if record.seq % SNAPSHOT_EVERY == 0:
            snap_state = state_at_records(store, match_id, record.seq, sealed)
            store.save_snapshot(match_id, record.seq, encode_snapshot(snap_state, record.hash))
    return new_head


def state_at_records(
    store: MatchStore, match_id: str, seq: int, pending: list[EventRecord]
) -> MatchState:
    """The state after ``seq`` where the last records are not stored yet."""
    stored_head = pending[0].seq - 1
    if seq <= stored_head:
        return state_at(store, match_id, seq)
    tail = [r for r in pending if r.seq <= seq]
    if _backs_up_before(tail, stored_head):
        return _replayed(INITIAL, [*store.records(match_id, lte=stored_head), *tail])
    return _replayed(state_at(store, match_id, stored_head), tail)


# -- lineage ---------------------------------------------------------------------------------


@dataclass
class LineageNode:
    """A match and its forks."""

    meta: MatchMeta
    children: list[LineageNode] = field(default_factory=list)


def lineage(store: MatchStore, match_id: str) -> LineageNode:
    """The tree of forks that ``match_id`` belongs to, from its root.

    Raises:
        MatchNotFoundError: no such match.
    """
    metas = {m.match_id: m for m in store.list_matches()}
    if match_id not in metas:
        store.meta(match_id)  # raises MatchNotFoundError
    root = match_id
    seen = {root}
    while (parent := metas[root].parent) is not None and parent in metas and parent not in seen:
        root = parent
        seen.add(root)
    children: dict[str, list[str]] = {}
    for m in metas.values():
        if m.parent is not None:
            children.setdefault(m.parent, []).append(m.match_id)

    def build(mid: str) -> LineageNode:
        return LineageNode(metas[mid], [build(c) for c in sorted(children.get(mid, []))])

    return build(root)


# -- decision syntax -------------------------------------------------------------------------

DECISION_SYNTAX = """\
Decisions are compact JSON events ({"type":"priority_passed","player":"p1"}) or words, for
the player whose decision is awaited:
  pass                          pass priority
  supply CARDS_2|GOLD_2|CARD_1_GOLD_1|FIRST_TURN_CARD_1|FIRST_TURN_GOLD_1
  summon CARD [TERRITORY]       pay the cost and summon (Property into TERRITORY)
  skill CARD SKILL [TARGET]     pay the cost and register an active skill
  place CARD TERRITORY          place or move Property (Unslide step, Deploy Phase, Stray)
  done                          finish deploying
  attackers [CARD...]           choose attacking Followers (none: no attack)
  declare CARD:TERRITORY...     declare the attack
  blockers [CARD...]            choose blocking Followers
  blocks BLOCKER:ATTACKER...    assign blocks
  damage                        distribute damage the first legal way (lethal first)
  discard CARD...               discard down to the hand limit
  concede                       concede the match"""


_DECISION_USAGE = {
    line.split()[0]: line.strip().split("  ")[0]
    for line in DECISION_SYNTAX.splitlines()[2:]
    if line.strip()
}
"""Each word decision's syntax (``summon CARD [TERRITORY]``), for error messages."""


def parse_decision(text: str, ruleset: Ruleset, state: MatchState) -> list[AnyEvent]:
    """Parse a decision (JSON or the word syntax of `DECISION_SYNTAX`) for the awaited player.

    Raises:
        UsageError: the text cannot be parsed, or names nothing that fits.
    """
    from pydantic import ValidationError

    from vwlog.events import (
        GAME_EVENT,
        Attack,
        AttackDeclared,
        AttackersEnteredBattle,
        Block,
        BlockersEnteredBattle,
        BlocksAssigned,
        CardSummoned,
        Conceded,
        CostPaid,
        DeploymentFinished,
        HandLimitDiscarded,
        PriorityPassed,
        PropertyPlaced,
        SkillRegistered,
        SupplyChosen,
    )
    from vwlog.model.types import PlacementReason, SupplyOption

    text = text.strip()
    if text.startswith("{"):
        try:
            return [GAME_EVENT.validate_json(text)]
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            field = f"field {where!r}: " if where else ""
            raise UsageError(f"decision {text!r}: {field}{first['msg'].lower()}") from err
    exp = expect(ruleset, state)
    player = exp.player
    if player is None:
        raise UsageError("no decision is awaited now (the match is over or not started)")
    words = text.split()
    if not words:
        raise UsageError("empty decision")
    verb, args = words[0].lower(), words[1:]
    nxt = f"o{state.objects + 1}"

    def card_cost(card: str) -> int:
        try:
            return state.defn(card).cost
        except KeyError as err:
            raise UsageError(f"unknown card {card!r}") from err

    try:
        if verb == "pass":
            return [PriorityPassed(player=player)]
        if verb == "supply":
            return [SupplyChosen(player=player, option=SupplyOption(args[0].upper()))]
        if verb == "summon":
            card = args[0]
            territory = args[1] if len(args) > 1 else None
            return [
                CostPaid(player=player, card=card, gold=card_cost(card)),
                CardSummoned(player=player, card=card, object_id=nxt, territory=territory),
            ]
        if verb == "skill":
            card, skill_id = args[0], args[1]
            if card not in state.instances:
                raise UsageError(f"unknown card {card!r}")
            skill = state.defn(card).skill(skill_id)
            if skill is None:
                raise UsageError(f"{card} has no skill {skill_id!r}")
            return [
                CostPaid(
                    player=player,
                    card=card,
                    skill=skill_id,
                    gold=skill.cost_gold,
                    slid=(card,) if skill.cost_slide else (),
                ),
                SkillRegistered(
                    player=player,
                    card=card,
                    skill=skill_id,
                    object_id=nxt,
                    target=args[2] if len(args) > 2 else None,
                ),
            ]
        if verb == "place":
            reason = (
                PlacementReason.NEW_TERRITORY_STRAY
                if exp.kind == "stray"
                else PlacementReason.UNSLIDE_STEP
                if str(state.phase) == "PREP"
                else PlacementReason.DEPLOY_PHASE
            )
            return [PropertyPlaced(player=player, card=args[0], territory=args[1], reason=reason)]
        if verb == "done":
            return [DeploymentFinished(player=player)]
        if verb == "attackers":
            return [AttackersEnteredBattle(player=player, followers=tuple(args))]
        if verb == "declare":
            attacks = tuple(Attack(follower=a.split(":")[0], target=a.split(":")[1]) for a in args)
            return [AttackDeclared(player=player, attacks=attacks)]
        if verb == "blockers":
            return [BlockersEnteredBattle(player=player, followers=tuple(args))]
        if verb == "blocks":
            blocks = tuple(Block(blocker=a.split(":")[0], attacker=a.split(":")[1]) for a in args)
            return [BlocksAssigned(player=player, blocks=blocks)]
        if verb == "damage":
            if exp.kind != "damage":
                raise UsageError(
                    f"no damage distribution is open now ({player} must decide: {exp.kind})"
                )
            options = list(legal_decisions(ruleset, state, player))
            if not options:
                raise UsageError("no damage distribution is open now")
            return [options[0]]
        if verb == "discard":
            return [HandLimitDiscarded(player=player, cards=tuple(args))]
        if verb == "concede":
            return [Conceded(player=player)]
    except IndexError as err:
        usage = _DECISION_USAGE.get(verb, verb)
        raise UsageError(f"decision {text!r}: missing words; the syntax is '{usage}'") from err
    except ValueError as err:
        if isinstance(err, VwlogError):
            raise
        usage = _DECISION_USAGE.get(verb, verb)
        detail = str(err).splitlines()[0]
        raise UsageError(f"decision {text!r}: {detail} (the syntax is '{usage}')") from err
    raise UsageError(f"unknown decision {verb!r}; see 'vwlog play --help'")
