"""Derived data checked against the records: a stored match's catalog entry and snapshots,
and the statistics read model.

The records are the only source of truth (their hash chain is checked by `verify_lines`);
everything else the store keeps is derived from them and can be derived again. A catalog
entry or a snapshot altered in the database — a winner changed, a violation count lowered,
gold 45 where the records say 5 — is found here by replaying the records and comparing, and
`vwlog verify MATCH` reports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import BaseVisitor, Fanout, Validator, replay
from vwlog.games import rules_for
from vwlog.model.text import msg, said_text
from vwlog.projections.stats import MatchMetricsVisitor
from vwlog.services.snapshots import (
    decode_snapshot,
    encode_snapshot,
    measures,
    snapshots_of,
)
from vwlog.services.stats import _unpack, catalog_metrics, count, match_metrics, skip_reason
from vwlog.services.storing import (
    Measuring,
    meta_from,
    metrics_of,
)
from vwlog.services.verdict import as_imported

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


_REBUILT_PAGE = 100
"""Rebuilt snapshots written per transaction while repairing."""


class _Checked(BaseVisitor[list[str]]):
    """A replay visitor that compares the state after each snapshotted seq with the stored
    snapshot, decoding it exactly as a reader would; reading the stored snapshots in seq order
    beside the records, so that memory does not grow with their number. With ``repair``, each
    snapshot that is unreadable or disagrees is encoded again from the replayed state and
    written back (`MatchStore.replace_snapshots`)."""

    def __init__(
        self, store: MatchStore, match_id: str, snapshots: Any, *, repair: bool = False
    ) -> None:
        self.store = store
        self.snapshots = snapshots
        """The game's snapshots (`vwlog.services.snapshots.snapshots_of`)."""
        self.match_id = match_id
        self.pending = store.snapshots_vouched(match_id)
        self.next: tuple[int, bytes, bool] | None = next(self.pending, None)
        self.static: MatchState | None = None
        self.problems: list[str] = []
        self.repair = repair
        self.rebuilt: list[tuple[int, bytes]] = []
        self.count = 0
        """How many snapshots were rebuilt."""

    def visit(self, step: Step) -> None:
        """Check a snapshot taken after this record."""
        record = step.record
        if self.static is None and record.seq == 1:
            self.static = self.snapshots.static(record.event)
        while self.next is not None and self.next[0] < record.seq:
            self.next = next(self.pending, None)  # not a seq of a record (cannot be: checked)
        if self.next is None or self.next[0] != record.seq:
            return
        data, vouched = self.next[1], self.next[2]
        self.next = next(self.pending, None)
        state = decode_snapshot(self.static, data, record.hash) if self.static is not None else None
        if state is None:
            self.problems.append(
                said_text(
                    msg(
                        "the snapshot after seq {seq} is unreadable or was not made from that "
                        "record (altered?): readers replay the records instead",
                        seq=record.seq,
                    )
                )
            )
        elif state != step.after:
            self.problems.append(
                said_text(
                    msg(
                        "the snapshot after seq {seq} differs from the board the records give",
                        seq=record.seq,
                    )
                )
            )
        elif vouched:
            return
        # right, but not vouched for by this installation (written elsewhere, or before
        # snapshots were tagged): readers replay instead; a repair tags it again
        if self.repair:
            self.rebuilt.append((record.seq, encode_snapshot(step.after, record.hash)))
            if len(self.rebuilt) == _REBUILT_PAGE:
                self.flush()

    def flush(self) -> None:
        """Write the snapshots rebuilt so far."""
        self.count += self.store.replace_snapshots(self.match_id, self.rebuilt)
        self.rebuilt = []

    def result(self) -> list[str]:
        """What differs."""
        return self.problems


def check_derived(store: MatchStore, match_id: str) -> list[str]:
    """What the store says about a match that its records do not: catalog fields and
    snapshots that differ from what one replay of the records derives, and snapshots that
    cannot be read. Empty when all agree.

    Raises:
        MatchNotFoundError: no such match.
        StoreError: the database failed or a record is unreadable.
    """
    return _derived(store, match_id, repair=False)[0]


def repair_derived(store: MatchStore, match_id: str) -> tuple[list[str], list[str]]:
    """`check_derived`, then rebuild from the same replay what disagrees: each snapshot that
    is unreadable or differs is written again, and a catalog entry that differs is replaced by
    the one the records give (keeping where its seal came from and the file it was imported
    from, which are facts of the import, not of the records).

    Returns:
        What differed (as `check_derived` says it), and what was rebuilt.

    Raises:
        MatchNotFoundError: no such match.
        SequenceConflictError: records were appended meanwhile (run it again).
        StoreError: the database failed or a record is unreadable.
    """
    return _derived(store, match_id, repair=True)


def _derived(store: MatchStore, match_id: str, *, repair: bool) -> tuple[list[str], list[str]]:
    header = store.header(match_id)
    stored = store.meta(match_id)
    head = store.head(match_id)
    game = rules_for(header.game)
    kept = snapshots_of(game)
    measure, checked = MatchMetricsVisitor(), _Checked(store, match_id, kept, repair=repair)
    records = store.records(match_id, lte=head.seq)
    visitors = Fanout(
        Validator(),
        *((Measuring(measure),) if measures(game) else ()),
        *((checked,) if kept is not None else ()),
    )
    report = replay(((i + 2, r) for i, r in enumerate(records)), visitors, header=header)[0]
    metrics = metrics_of(measure) if measures(game) else None
    derived = meta_from(header, report, head.hash, events=head.seq, metrics=metrics)
    derived = as_imported(derived, stored)  # the verdict on the imported file is kept
    catalog = _catalog_problems(stored, derived)
    vouched = store.vouched(match_id)
    if not vouched:
        catalog.append(_NOT_VOUCHED)
    rebuilt: list[str] = []
    if repair:
        checked.flush()
        if checked.count:
            rebuilt.append(
                said_text(msg("{count} snapshot(s) rebuilt from the records", count=checked.count))
            )
        if catalog:
            keep = {"seal": stored.seal, "source_sha256": stored.source_sha256}
            store.update_meta(derived.model_copy(update=keep))
            rebuilt.append(said_text(msg("the catalog entry rebuilt from the records")))
            if not store.vouched(match_id):
                rebuilt.append(_STILL_NOT_VOUCHED)
    return catalog + checked.problems, rebuilt


_NOT_VOUCHED = said_text(
    msg(
        "the catalog entry is not as vwlog wrote it here (its tag does not hold under this "
        "installation's key: altered in the database, or written elsewhere): where its seal "
        "came from, the file it was imported from and the verdict on that file cannot be "
        "vouched for"
    )
)
_STILL_NOT_VOUCHED = said_text(
    msg(
        "the facts of its import (seal, source file, verdict) were not vouched for, so the "
        "rebuilt entry is not either"
    )
)
_METRICS_DIFFER = said_text(msg("the catalog's statistics differ from the records'"))


def _catalog_problems(stored: MatchMeta, derived: MatchMeta) -> list[str]:
    problems: list[str] = []
    for name in _COMPARED:
        kept, wanted = getattr(stored, name), getattr(derived, name)
        if name == "metrics" and (
            not isinstance(kept, dict)
            or (kept.get("match_id"), kept.get("events")) != (stored.match_id, stored.events)
        ):
            # none kept (older entries), or kept for fewer records than the match now has:
            # readers do not use them (`vwlog.services.stats.stored_metrics`), they replay
            continue
        if name == "metrics":
            kept = catalog_metrics(kept)  # an entry of an older vwlog: its points in a list
        if kept != wanted:
            if name == "metrics":
                problems.append(_METRICS_DIFFER)
            else:
                problems.append(
                    said_text(
                        msg(
                            "the catalog says {field} {kept} but the records give {wanted}",
                            field=name,
                            kept=_short(kept),
                            wanted=_short(wanted),
                        )
                    )
                )
    return problems


def check_view(store: MatchStore) -> str | None:
    """Whether the statistics read model agrees with the catalog at the position it was saved
    at; ``None`` if it does (or nothing is saved yet), else what is wrong.

    Raises:
        StoreError: the database failed or a catalog entry is unreadable.
    """
    from vwlog.projections.stats import CorpusStats

    if not store.has_stats_view():
        return None
    view = store.stats_view()
    state = view.load()
    if state is None:
        return None
    saved, why = _unpack(store, state)
    if saved is None:
        return said_text(
            msg(
                "the statistics view is unusable ({why}); it is rebuilt when statistics are next "
                "asked for",
                why=why,
            )
        )
    fresh = CorpusStats()
    for meta in store.list_matches(upto=state.position):
        metrics, _ = match_metrics(store, meta)
        count(fresh, metrics, skip_reason(meta))
    if fresh.canonical() != saved.canonical():
        return said_text(
            msg(
                "the statistics view saved at position {position} differs from the catalog's "
                "statistics (altered?): rebuild the view from the catalog",
                position=state.position,
            )
        )
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["check_derived", "check_view", "repair_derived"]
