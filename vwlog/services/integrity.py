"""Derived data checked against the records: a stored match's catalog entry and snapshots,
and the statistics read model.

The records are the only source of truth (their hash chain is checked by `verify_lines`);
everything else the store keeps is derived from them and can be derived again. A catalog
entry or a snapshot altered in the database — a winner changed, a violation count lowered,
gold 45 where the records say 5 — is found here by replaying the records and comparing, and
`vwlog verify MATCH` reports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.engine.replay import BaseVisitor, Fanout, Validator, replay
from vwlog.projections import INITIAL, evolve
from vwlog.projections.stats import MatchMetricsVisitor
from vwlog.services.matches import (
    _metrics,
    decode_snapshot,
    meta_from,
)
from vwlog.services.stats import match_metrics

if TYPE_CHECKING:
    from vwlog.engine.replay import Step
    from vwlog.model.state import MatchState
    from vwlog.store import MatchMeta, MatchStore

_COMPARED = (
    "players",
    "created",
    "turns",
    "winner",
    "victory",
    "violations",
    "violation_summary",
    "events",
    "head_hash",
    "parent",
    "fork_at",
    "flagged",
    "metrics",
)
"""The catalog fields derived from the records (``seal`` is a fact of the import, not of the
records; ``match_id`` names the entry)."""


class _Checked(BaseVisitor[list[str]]):
    """A replay visitor that compares the state after each snapshotted seq with the stored
    snapshot, decoding it exactly as a reader would."""

    def __init__(self, store: MatchStore, match_id: str) -> None:
        self.stored = dict(store.snapshots(match_id))
        self.static: MatchState | None = None
        self.problems: list[str] = []

    def visit(self, step: Step) -> None:
        """Check a snapshot taken after this record."""
        record = step.record
        if self.static is None and record.seq == 1:
            self.static = evolve(INITIAL, record.event)
        data = self.stored.get(record.seq)
        if data is None:
            return
        state = decode_snapshot(self.static, data, record.hash) if self.static is not None else None
        if state is None:
            # unreadable or made for another record: readers rebuild it from the records
            return
        if state != step.after:
            self.problems.append(
                f"the snapshot after seq {record.seq} differs from the board the records give"
            )

    def result(self) -> list[str]:
        """What differs."""
        return self.problems


def check_derived(store: MatchStore, match_id: str) -> list[str]:
    """What the store says about a match that its records do not: catalog fields and
    snapshots that differ from what one replay of the records derives. Empty when all agree.

    Raises:
        MatchNotFoundError: no such match.
        StoreError: the database failed or a record is unreadable.
    """
    header = store.header(match_id)
    stored = store.meta(match_id)
    measure, checked = MatchMetricsVisitor(), _Checked(store, match_id)
    records = store.records(match_id)
    visitors = Fanout(Validator(), measure, checked)
    report = replay(((i + 2, r) for i, r in enumerate(records)), visitors, header=header)[0]
    head = store.head(match_id)
    derived = meta_from(header, report, head.hash, events=head.seq, metrics=_metrics(measure))
    problems = _catalog_problems(stored, derived)
    return problems + checked.problems


def _catalog_problems(stored: MatchMeta, derived: MatchMeta) -> list[str]:
    problems = []
    for name in _COMPARED:
        kept, wanted = getattr(stored, name), getattr(derived, name)
        if name == "metrics" and (
            not isinstance(kept, dict)
            or (kept.get("match_id"), kept.get("events")) != (stored.match_id, stored.events)
        ):
            # none kept (older entries), or kept for fewer records than the match now has:
            # readers do not use them (`vwlog.services.stats.stored_metrics`), they replay
            continue
        if kept != wanted:
            if name == "metrics":
                problems.append("the catalog's statistics differ from the records'")
            else:
                problems.append(
                    f"the catalog says {name} {_short(kept)} but the records give {_short(wanted)}"
                )
    return problems


def check_view(store: MatchStore) -> str | None:
    """Whether the statistics read model agrees with the catalog at the position it was saved
    at; ``None`` if it does (or nothing is saved yet), else what is wrong.

    Raises:
        StoreError: the database failed or a catalog entry is unreadable.
    """
    from vwlog.projections.stats import CorpusStats
    from vwlog.services.stats import _unpack, count

    if not store.has_stats_view():
        return None
    view = store.stats_view()
    state = view.load()
    if state is None:
        return None
    saved, why = _unpack(store, state)
    if saved is None:
        return f"the statistics view is unusable ({why}); it is rebuilt on the next 'vwlog stats'"
    fresh = CorpusStats()
    for meta in store.list_matches(upto=state.position):
        metrics, _ = match_metrics(store, meta)
        count(fresh, metrics)
    if fresh.canonical() != saved.canonical():
        return (
            f"the statistics view saved at position {state.position} differs from the "
            "catalog's statistics (altered?): run 'vwlog stats --rebuild'"
        )
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["check_derived", "check_view"]
