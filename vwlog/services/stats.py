"""Statistics of the stored matches: a read model kept current as matches are stored.

Each match's metrics (`MatchMetrics`) are folded at import, in the same replay pass as
validation, and kept in its catalog entry (`MatchMeta.metrics`). The read model follows the
store's catalog and keeps one unfiltered `CorpusStats` in its own storage
(`vwlog.store.statsview`), with the position of the store's notification log it describes:

- `refresh` catches up: it reads the catalog entries written after the view's position (up to
  the store's current position, read first), counts each newly registered match with its
  stored metrics, and saves the new state with the new position in one transaction. Importing
  one more match costs one `CorpusStats.add`, never a pass over the corpus. A follower
  stopped at any moment resumes from its last saved state; a save that lost a race to another
  follower is redone on top of the winner's state.
- A match whose metadata is replaced after it was counted (an append in play mode,
  `MatchStore.update_meta`) has its old metrics withdrawn and its new ones counted, so the view
  always counts every match as its latest catalog entry describes it.
- Metrics missing from a catalog entry (stored before vwlog kept them) or no longer describing
  its records (their event count differs) are recomputed by replaying the match's records.
- `rebuild` is the authoritative path: it replays every stored match's records, whatever the
  catalog says, and saves the result as a new epoch of the view.

The work of a catch-up is proportional to what changed, not to the length of the matches
that changed. A live match's catalog entry is replaced at every append, and its kept metrics
then no longer describe it; replaying the whole match at every append (once for the metrics
to withdraw, once for the new ones) made a catch-up over n appends cost n² events. Instead:

- the changes of one catch-up are taken per match (`_coalesced`): the entry the view counted
  is withdrawn once and the newest one counted once, however many appends lie between;
- the fold of a match's metrics can be *paused* after its last record and *resumed* with the
  records appended since (`Paused`): the metrics visitor as it stood before the end of the
  match and the board after the last record, kept in the view's storage beside the match
  (`StatsViewStore.save_pause`), so that any process resumes where any other stopped. A
  resumed fold reads only the new records; a pause that does not fit (another store, a
  back-up ruling among the new records, an unreadable pause) is ignored and the match is
  replayed whole, once. A match counted from its catalog entry's kept metrics has no pause
  yet: the first change after that folds it whole, and pauses it.

`Refreshed.folded` counts the events a catch-up folded, so that its cost can be checked.
A catch-up can be stopped from another thread (``stop``): it raises `CatchUpCancelledError` at the
next event or entry and saves nothing.

Filters (player, faction, ruleset, date) are not kept in the view: `corpus_stats` with any
filter set builds the statistics from every stored match's per-match metrics instead (one pass
over the catalog; a replay only for matches without usable stored metrics).

Each match's metrics and the folds that pause and resume are in `vwlog.services.matchmetrics`
(re-exported here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
import pydantic
from pydantic import BaseModel

from vwlog.model.errors import StoreError
from vwlog.projections.stats import CorpusStats, MatchMetrics, StatsFilter
from vwlog.services.matchmetrics import (
    PAUSE_FORMAT,
    CatchUpCancelledError,
    Paused,
    _Folds,
    catalog_metrics,
    load_pause,
    match_metrics,
    measured,
    metrics_dump,
    replay_metrics,
    stored_metrics,
)
from vwlog.services.verdict import counts_as_valid
from vwlog.store import ViewConflictError

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Iterable

    from vwlog.store import CatalogChange, MatchMeta, MatchStore, StatsViewStore, ViewState

VIEW_FORMAT = 3
"""Version of the view's payload (3: with faction matchups and deck archetypes); a view saved
in another format is rebuilt by `refresh`."""
UNMEASURABLE = "no match_started event"
"""``CorpusStats.skipped`` reason of a stored match whose records hold no match to measure."""
NOT_INTACT = "record not intact (untrusted)"
"""``CorpusStats.skipped`` reason of a stored match whose record was not intact when it was
stored (`vwlog.services.verdict.counts_as_valid`): its outcome is nobody's to count."""
SAVE_ATTEMPTS = 20
"""How often `refresh` starts again after losing a save to another follower."""
_NOT_COUNTS = frozenset({"size"})
"""Integer fields of `CorpusStats` parts that describe rather than count (never summed)."""


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What bringing the read model up to date did."""

    stats: CorpusStats
    """The corpus statistics of every stored match, up to ``position``."""
    position: int
    """The position of the store's notification log the view now describes."""
    added: int = 0
    """Matches counted for the first time."""
    updated: int = 0
    """Matches whose metrics were replaced (their metadata changed after they were counted)."""
    replayed: int = 0
    """Matches whose metrics were recomputed from their records."""
    saved: bool = False
    """Whether a new state of the view was saved."""
    restarted: str | None = None
    """Why the view was started again from nothing (it followed another store, or was saved
    in another format), if it was."""
    folded: int = 0
    """Events folded into metrics (by replays and resumed folds): the catch-up's work."""


# -- counting and withdrawing ------------------------------------------------------------------


def skip_reason(meta: MatchMeta) -> str:
    """Why a stored match without metrics to count is skipped: its record was not intact when
    it was stored (the one verdict's notion of a valid match), or it holds no match."""
    return UNMEASURABLE if counts_as_valid(meta) else NOT_INTACT


def count(stats: CorpusStats, metrics: MatchMetrics | None, skipped: str = UNMEASURABLE) -> None:
    """Count one match (one without metrics as ``skipped`` for that reason)."""
    if metrics is None:
        stats.skipped[skipped] = stats.skipped.get(skipped, 0) + 1
    else:
        stats.add(metrics)


def withdraw(stats: CorpusStats, metrics: MatchMetrics | None, skipped: str = UNMEASURABLE) -> None:
    """Take back what `count` added for one match.

    ``CorpusStats`` is a sum of integers, so counting the negated contribution of the match
    and dropping what falls to zero leaves exactly the aggregate of the other matches (as
    `CorpusStats.build` of them would make it, up to the first-seen card names of cards whose
    definitions differ between matches).
    """
    one = CorpusStats(filters=stats.filters)
    count(one, metrics, skipped)
    stats.merge(CorpusStats.model_validate(_negated(one.model_dump())))
    _prune(stats, one)


def _negated(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: v if k in _NOT_COUNTS or k == "filters" else _negated(v) for k, v in value.items()
        }
    if isinstance(value, int) and not isinstance(value, bool):
        return -value
    return value


def _is_zero(value: object) -> bool:
    """Whether a part of an aggregate counts nothing (every count in it is 0)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == 0
    if isinstance(value, BaseModel):
        return all(
            _is_zero(getattr(value, name))
            for name in type(value).model_fields
            if name not in _NOT_COUNTS and isinstance(getattr(value, name), int | BaseModel)
        )
    return False


def _prune(stats: CorpusStats, touched: CorpusStats) -> None:
    """Drop the entries of ``stats`` that count nothing, among those ``touched`` has."""
    for name in type(stats).model_fields:
        part = getattr(stats, name)
        if isinstance(part, dict):
            _prune_entries(part, getattr(touched, name))


def _prune_entries(part: dict[Any, Any], touched: dict[Any, Any]) -> None:
    """Drop the entries of ``part`` that count nothing, among those ``touched`` has, at every
    depth (a matchup table is a dict of dicts): an inner dict left empty goes too."""
    for key in touched:
        if key not in part:
            continue
        value = part[key]
        if isinstance(value, dict):
            _prune_entries(value, touched[key])
            if not value:
                del part[key]
        elif _is_zero(value):
            del part[key]


# -- the view ----------------------------------------------------------------------------------


@dataclass
class _Progress:
    added: int = 0
    updated: int = 0
    replayed: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated)


def _apply(stats: CorpusStats, change: CatalogChange, done: _Progress, folds: _Folds) -> None:
    """Fold one catalog entry into the statistics (``change.previous``: the entry the
    statistics counted for the match, ``None`` for a match they have not counted)."""
    previous = change.previous
    if previous is None:
        metrics, replayed = folds.metrics(change.meta)
        count(stats, metrics, skip_reason(change.meta))
        done.added += 1
        done.replayed += replayed
        return
    meta = change.meta
    if (previous.events, previous.head_hash) == (meta.events, meta.head_hash) and (
        meta.metrics is None or meta.metrics == previous.metrics
    ):
        return  # the same records, so the same metrics: nothing to redo
    old, old_replayed = folds.metrics(previous)
    new, new_replayed = folds.metrics(meta)
    withdraw(stats, old, skip_reason(previous))
    count(stats, new, skip_reason(meta))
    done.updated += 1
    done.replayed += old_replayed + new_replayed


def _coalesced(
    changes: Iterable[CatalogChange], stop: threading.Event | None = None
) -> list[CatalogChange]:
    """The catalog changes of one catch-up, one per match, in the order the matches first
    changed: the entry the statistics counted (the first change's ``previous``) and the
    newest entry. However many appends a match had, it is withdrawn once and counted once."""
    merged: dict[str, CatalogChange] = {}
    for change in changes:
        if stop is not None and stop.is_set():
            raise CatchUpCancelledError
        first = merged.get(change.match_id)
        merged[change.match_id] = (
            change if first is None else change._replace(previous=first.previous)
        )
    return list(merged.values())


def _payload(store: MatchStore, stats: CorpusStats, position: int) -> bytes:
    head = {"format": VIEW_FORMAT, "anchor": [position, store.fingerprint(position)]}
    return orjson.dumps(head) + b"\n" + stats.canonical().model_dump_json().encode()


def _unpack(store: MatchStore, state: ViewState) -> tuple[CorpusStats | None, str | None]:
    """The statistics of a saved state, or why the view must start again."""
    head_line, _, body = state.data.partition(b"\n")
    try:
        head = orjson.loads(head_line)
    except orjson.JSONDecodeError:
        return None, "its saved state is unreadable"
    if not isinstance(head, dict) or head.get("format") != VIEW_FORMAT:
        return None, "it was saved in another format"
    if state.position > store.position():
        return None, "it is ahead of the store (the store was replaced?)"
    anchor = head.get("anchor")
    if not isinstance(anchor, list) or len(anchor) != 2:
        return None, "its saved state is unreadable"
    at, fingerprint = anchor
    if not isinstance(at, int) or store.fingerprint(at) != fingerprint:
        return None, "it follows another store (the store was replaced?)"
    try:
        return CorpusStats.model_validate_json(body), None
    except pydantic.ValidationError:
        return None, "its saved state is unreadable"


def holds_forks(store: MatchStore) -> bool:
    """Whether any stored match is a fork."""
    return any(m.parent is not None for m in store.list_matches())


def catch_up(store: MatchStore, *, stop: threading.Event | None = None) -> Refreshed:
    """Bring the statistics view of ``store`` up to the store's current position and save it.

    Reads only the catalog entries written since the view's position, and of a match that
    changed folds only its records appended since (see the module); a state saved by another
    process meanwhile is taken up and the catch-up redone on top of it. A view that does not
    describe this store (the store was replaced) or that was saved in another format is
    started again from nothing, from the catalog's kept metrics (see `Refreshed.restarted`).

    Raises:
        CatchUpCancelledError: ``stop`` was set; nothing was saved.
        StoreError: the database failed, a catalog entry or record is unreadable, or other
            processes kept saving the view ``SAVE_ATTEMPTS`` times in a row.
    """
    view = store.stats_view()
    folds = _Folds(store, view, stop)
    for _ in range(SAVE_ATTEMPTS):
        base = view.load()
        stats: CorpusStats | None = None
        restarted: str | None = None
        if base is not None:
            stats, restarted = _unpack(store, base)
        start = base.position if base is not None and stats is not None else 0
        if stats is None:
            stats = CorpusStats()
        head = store.position()
        done = _Progress()
        for change in _coalesced(store.catalog_changes(start, upto=head), stop):
            if stop is not None and stop.is_set():
                raise CatchUpCancelledError
            _apply(stats, change, done, folds)
        try:
            saved = _keep(view, store, stats, head, base, done, restart=restarted is not None)
        except ViewConflictError:
            continue
        finally:
            folds.save()
        return Refreshed(
            stats.canonical(),
            head,
            done.added,
            done.updated,
            done.replayed,
            saved,
            restarted,
            folds.folded,
        )
    raise StoreError(f"{store.url}: the statistics view keeps changing: try again later")


def _keep(
    view: StatsViewStore,
    store: MatchStore,
    stats: CorpusStats,
    head: int,
    base: ViewState | None,
    done: _Progress,
    *,
    restart: bool,
) -> bool:
    """Save the caught-up state (or just move the position on); whether a state was saved."""
    if base is None and head == 0:
        return False  # an empty store: nothing to keep yet
    if base is not None and not restart:
        if head <= base.position:
            return False
        if not done.changed:
            view.advance(base, head)
            return False
    view.save(_payload(store, stats, head), head, base=base, restart=restart)
    return True


def refresh(store: MatchStore) -> CorpusStats:
    """The corpus statistics of every stored match, after bringing the view up to date.

    Raises:
        StoreError: see `catch_up`.
    """
    return catch_up(store).stats


def rebuild(
    store: MatchStore, *, on_match: Callable[[MatchMetrics | None], None] | None = None
) -> Refreshed:
    """Recompute the statistics from scratch by replaying every stored match's records, and
    save them as a new epoch of the view (the authoritative path; slow on a large store).

    ``on_match`` is called with each match's replayed metrics (``None``: nothing to measure),
    for progress.

    Raises:
        StoreError: the database failed, a record is unreadable, or other processes kept
            saving the view ``SAVE_ATTEMPTS`` times in a row.
    """
    view = store.stats_view()
    folds = _Folds(store, None, None)
    position = store.position()
    stats = CorpusStats()
    done = _Progress()
    for meta in store.list_matches(upto=position):
        metrics = replay_metrics(store, meta) if counts_as_valid(meta) else None
        count(stats, metrics, skip_reason(meta))
        done.added += 1
        done.replayed += 1
        if on_match is not None:
            on_match(metrics)
    for _ in range(SAVE_ATTEMPTS):
        # Matches stored while replaying are caught up the usual way before saving.
        head = store.position()
        for change in _coalesced(store.catalog_changes(position, upto=head)):
            _apply(stats, change, done, folds)
        position = head
        base = view.load()
        try:
            view.save(_payload(store, stats, position), position, base=base, restart=True)
        except ViewConflictError:
            continue
        return Refreshed(
            stats.canonical(), position, done.added, done.updated, done.replayed, saved=True
        )
    raise StoreError(f"{store.url}: the statistics view keeps changing: try again later")


def corpus_stats(store: MatchStore, filters: StatsFilter | None = None) -> CorpusStats:
    """The corpus statistics of the stored matches under ``filters``.

    Without filters: the read model, brought up to date (`refresh`). With any filter set: built
    from every stored match's metrics (`measured`), since the view counts every match.

    Raises:
        StoreError: the database failed or a catalog entry or record is unreadable.
    """
    if filters is None or not filters.active:
        return refresh(store)
    return CorpusStats.build(measured(store), filters).canonical()


__all__ = [
    "NOT_INTACT",
    "PAUSE_FORMAT",
    "UNMEASURABLE",
    "VIEW_FORMAT",
    "CatchUpCancelledError",
    "Paused",
    "Refreshed",
    "catalog_metrics",
    "catch_up",
    "corpus_stats",
    "count",
    "load_pause",
    "match_metrics",
    "measured",
    "metrics_dump",
    "rebuild",
    "refresh",
    "replay_metrics",
    "stored_metrics",
    "withdraw",
]
