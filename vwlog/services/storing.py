"""Storing a judged match: the one pass of the replay loop that validates, measures and
snapshots a match (`judge_and_measure`), its catalog entry (`meta_from`), what importing one log
did (`ImportResult`) and the transaction that stores a match whole (`store_new_match`). The
import of log files (`vwlog.services.importing`), live matches and forks build on these.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import (
    BaseVisitor,
    Fanout,
    Step,
    ValidationReport,
    Validator,
    replay,
)
from vwlog.events import EventRecord, LogHeader
from vwlog.games import rules_for
from vwlog.io import codec
from vwlog.model.errors import (
    LogFormatError,
    MatchExistsError,
    SequenceConflictError,
    StoreError,
    VwlogError,
)
from vwlog.model.text import Msg, msg, said_text
from vwlog.projections.stats import MatchMetricsVisitor
from vwlog.services.snapshots import _Snapshots, encode_snapshot, keeps_snapshots, measures
from vwlog.store import ImportOutcome, MatchMeta, MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from vwlog.model.state import MatchState


SNAPSHOT_EVERY = 100
"""Default interval between state snapshots (events); a seek replays at most this many."""


def metrics_of(measure: MatchMetricsVisitor) -> dict[str, Any] | None:
    """A match's metrics as its catalog entry keeps them (`MatchMeta.metrics`): in JSON mode,
    each player's ``tempo`` in columns (`vwlog.projections.stats.tempo_columns`), made without
    a model per turn; ``None`` if the records hold no ``match_started`` to measure."""
    try:
        data = measure.result(tempo=False).model_dump(mode="json")
        columns = measure.tempo_columns()
    except ValueError:
        return None
    for player in data["players"]:
        player["tempo"] = columns[player["player"]]
    return data


class Measuring(BaseVisitor[None]):
    """Feeds a `MatchMetricsVisitor` inside a `Fanout` whose result leaves it out: its
    metrics are made once afterwards, in the form the catalog keeps (`metrics_of`), and not
    also as a model per turn of the match that no one reads."""

    def __init__(self, measure: MatchMetricsVisitor) -> None:
        self.measure = measure

    def begin_match(self, header: LogHeader | None) -> None:
        """Begin the measure."""
        self.measure.begin_match(header)

    def visit(self, step: Step) -> None:
        """Show the step to the measure."""
        self.measure.visit(step)

    def end_match(self, final: MatchState) -> None:
        """End the measure."""
        self.measure.end_match(final)

    def result(self) -> None:
        """Nothing: ask the measure itself."""


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
    said: Msg | None = dataclasses.field(default=None, compare=False)
    """``detail`` as a template and its values, to say it in the user's language."""
    verdict: str | None = None
    """The log's one verdict (`vwlog.services.verdict.judge`), where it was judged."""
    reason: str | None = dataclasses.field(default=None, compare=False)
    """The one sentence that decides ``verdict`` (a `SaidText`: said in the user's
    language)."""
    intact: bool | None = None
    """Whether the record is intact; one that is not is stored flagged, without a winner."""


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
        tags=header.tags(),
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


def judge_and_measure(
    header: LogHeader,
    items: Iterable[tuple[int, EventRecord]],
    snapshots: _Snapshots,
    *,
    source: str | None = None,
) -> tuple[ValidationReport, dict[str, Any] | None]:
    """One pass of the replay loop over ``(line, record)`` items that feeds validation,
    ``snapshots`` and the match's statistics (kept in its catalog entry for the statistics read
    model): the validation report and the metrics (``None`` when there is nothing to measure)."""
    game = rules_for(header.game)
    if not keeps_snapshots(game):
        snapshots.every = 0  # replayed from the start instead
    if not measures(game):
        report: ValidationReport = replay(
            items, Fanout(Validator(source=source), snapshots), header=header
        )[0]
        return report, None
    measure = MatchMetricsVisitor()
    visitors = Fanout(Validator(source=source), snapshots, Measuring(measure))
    report = replay(items, visitors, header=header)[0]
    return report, metrics_of(measure)


def rejected(source: str, match_id: str, events: int, report: ValidationReport) -> ImportResult:
    """The result of an import refused for its violations (``reject_illegal``)."""
    n = len(report.violations)
    first = report.violations[0]
    message = first.text if first.text is not None else first.message
    where = first.where()
    said = msg(
        "{count} violations; first: {violation}",
        count=n,
        violation=msg("{rule}  {message} ({where})", rule=first.rule, message=message, where=where)
        if where
        else msg("{rule}  {message}", rule=first.rule, message=message),
    )
    return ImportResult(
        source, match_id, "rejected", events, n, f"{n} violations; first: {first}", said=said
    )


def store_lines(
    store: MatchStore,
    header: LogHeader,
    lines: Sequence[tuple[bytes, EventRecord]],
    meta: MatchMeta,
    snapshots: _Snapshots,
) -> ImportOutcome:
    """Store a validated match whole with its snapshots, in one transaction."""
    encoded = (
        (seq, encode_snapshot(state, lines[seq - 1][1].hash)) for seq, state in snapshots.result()
    )
    return store.import_stream(header, lines, meta, encoded)


def store_new_match(
    store: MatchStore, header: LogHeader, records: Sequence[EventRecord]
) -> tuple[ImportOutcome, MatchMeta]:
    """Validate, measure and store a match that vwlog made itself (a fork's copied prefix, the
    start of a live match), sealed under ``header``; with its snapshots when it was stored.

    Raises:
        MatchExistsError: another match is stored under the header's id.
        StoreError: the database failed.
    """
    assert header.hash is not None
    lines = [(codec.record_bytes(r), r) for r in records]
    snapshots = _Snapshots(SNAPSHOT_EVERY)
    items = ((i + 2, r) for i, r in enumerate(records))
    report, metrics = judge_and_measure(header, items, snapshots)
    meta = meta_from(header, report, records[-1].hash or "", events=len(records), metrics=metrics)
    return store_lines(store, header, lines, meta, snapshots), meta


def failed(path: str | Path, err: Exception) -> ImportResult:
    """The ``error`` result of a log that could not be imported, its message naming the file
    (a format error names it already; a conflict with a stored match names only the match)."""
    name, text = str(path), str(err)
    said = err.text() if isinstance(err, VwlogError) else text
    if name not in text:
        said = msg("{path}: {error}", path=name, error=said)
    return ImportResult(
        name,
        None,
        "error",
        detail=text if name in text else f"{name}: {text}",
        said=said if isinstance(said, Msg) else None,
    )


STORE_ERRORS = (LogFormatError, MatchExistsError, SequenceConflictError, StoreError)
"""What makes one log of many an ``error`` result while the others go on."""


def defect(path: str | Path, err: Exception) -> ImportResult:
    """The ``error`` result of a log whose import met a defect of vwlog (an exception no input
    should raise): one line naming the file and the exception, so that one log never ends a
    batch and the others are still stored."""
    name = str(path)
    said = msg(
        "{path}: internal error, not imported: {error} (a defect of vwlog; please report it)",
        path=name,
        error=f"{type(err).__name__}: {err}",
    )
    return ImportResult(name, None, "error", detail=said_text(said), said=said)


__all__ = [
    "SNAPSHOT_EVERY",
    "STORE_ERRORS",
    "ImportResult",
    "Measuring",
    "defect",
    "failed",
    "judge_and_measure",
    "meta_from",
    "metrics_of",
    "rejected",
    "store_lines",
    "store_new_match",
]
