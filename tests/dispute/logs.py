"""Records for the dispute tests: samples, and copies changed the way disputes arise.

A second record of a match is made the way it happens at a table: the same ``match_started``
and a different event somewhere (a consequence recorded wrongly, another legal decision, an
event left out), re-sealed under another match id as a second player's file would be, or
altered after sealing (a byte changed, the chain left as it was).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import FinalState, replay
from vwlog.events import TRAILER_TYPES, EventRecord, LogHeader
from vwlog.games.vw.play import play
from vwlog.io.logfile import read_log, write_log
from vwlog.rules import expect, legal_decisions
from vwlog.services import sealed
from vwlog.services.trust import close_records, packaged_pool

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from vwlog.audit.report import DisputeReport
    from vwlog.events import AnyEvent

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def judged_report(path: Path, **options: Any) -> DisputeReport:
    """The dispute report of the log at ``path`` with its one verdict, as ``vwlog report``
    makes it (a report is rendered only with the verdict the services decided)."""
    from vwlog.audit.report import build_report
    from vwlog.audit.sources import log_source
    from vwlog.services.judging import judge_document_file

    report = build_report(log_source(path), **options)
    judge_document_file(report, path)
    return report


def sample(name: str) -> Path:
    """The path of a sample log."""
    return SAMPLES / name


def load(name: str | Path) -> tuple[LogHeader, list[EventRecord]]:
    """A log's header and records."""
    return read_log(name if isinstance(name, Path) else SAMPLES / name)


def write(
    path: Path, events: Sequence[AnyEvent], *, match_id: str = "second-record", close: bool = False
) -> Path:
    """A hash-chained log of ``events`` numbered from 1, under its own header (its own chain);
    with ``close``, any seal among the events is dropped and a new one closes the record."""
    header = LogHeader(match_id=match_id, generator="tests/dispute")
    if close:
        events = [e for e in events if not isinstance(e, TRAILER_TYPES)]
    records = [EventRecord(seq=i + 1, event=e) for i, e in enumerate(events)]
    if close:
        head, sealed_records = close_records(header, records, packaged_pool())
    else:
        head, sealed_records = sealed(header, records)
    write_log(path, head, sealed_records)
    return path


def events(records: Sequence[EventRecord]) -> list[AnyEvent]:
    """The game events of records (a seal and signatures left out)."""
    return [r.event for r in records if not isinstance(r.event, TRAILER_TYPES)]


def branch(
    records: Sequence[EventRecord],
    seq: int,
    *,
    pick: Callable[[AnyEvent, AnyEvent], bool] | None = None,
    more: int = 12,
) -> list[AnyEvent]:
    """Another legal line from the decision at ``seq``: the same prefix, a different legal
    decision there (the first that ``pick(option, recorded)`` accepts; by default the first of
    another type), then ``more`` decisions taken as the first legal option, each with the
    consequences the rules demand (play mode)."""
    state = replay(records[: seq - 1], FinalState())
    rs = state.ruleset
    assert rs is not None
    recorded = records[seq - 1].event
    player = expect(rs, state).player
    assert player is not None, f"seq {seq} is not a decision"
    choose = pick or (lambda option, rec: type(option) is not type(rec))
    option = next(o for o in legal_decisions(rs, state, player) if choose(o, recorded))
    state, out = play(rs, state, option)
    for _ in range(more):
        nxt = expect(rs, state).player
        if state.over or nxt is None:
            break
        decision = next(iter(legal_decisions(rs, state, nxt)), None)
        if decision is None:
            break
        state, evs = play(rs, state, decision)
        out.extend(evs)
    return [*events(records[: seq - 1]), *out]


def alter_byte(path: Path, seq: int, old: bytes, new: bytes) -> Path:
    """Change ``old`` to ``new`` (a byte or a few) in the record line of ``seq``, leaving its
    hash: the alteration after the fact that 'vwlog verify' must catch."""
    lines = path.read_bytes().split(b"\n")
    line = lines[seq]  # line 1 is the header: record seq N is line N + 1, index N
    assert old in line, (seq, line[:200])
    lines[seq] = line.replace(old, new, 1)
    path.write_bytes(b"\n".join(lines))
    return path
