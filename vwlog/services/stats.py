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

Filters (player, faction, ruleset, date) are not kept in the view: `corpus_stats` with any
filter set builds the statistics from every stored match's per-match metrics instead (one pass
over the catalog; a replay only for matches without usable stored metrics).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
import pydantic
from pydantic import BaseModel

from vwlog.engine.replay import replay
from vwlog.model.errors import StoreError
from vwlog.projections.stats import CorpusStats, MatchMetrics, MatchMetricsVisitor, StatsFilter
from vwlog.projections.stats.metrics import TEMPO_FIELDS, tempo_columns
from vwlog.services.verdict import counts_as_valid
from vwlog.store import ViewConflictError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from vwlog.store import CatalogChange, MatchMeta, MatchStore, StatsViewStore, ViewState

VIEW_FORMAT = 2
"""Version of the view's payload; a view saved in another format is rebuilt by `refresh`."""
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


# -- per-match metrics -------------------------------------------------------------------------


def metrics_dump(metrics: MatchMetrics) -> dict[str, Any]:
    """A match's metrics as kept in its catalog entry (`MatchMeta.metrics`): in JSON mode,
    each player's ``tempo`` in columns (`tempo_columns`)."""
    return catalog_metrics(metrics.model_dump(mode="json"))


def catalog_metrics(data: dict[str, Any]) -> dict[str, Any]:
    """Metrics in JSON mode with every player's ``tempo`` in columns (`tempo_columns`), as a
    catalog entry keeps them: points given as a list of whole points (as older entries keep
    them) are put in columns, anything else is left as it is. ``data`` itself is not
    changed."""
    players = data.get("players")
    if not isinstance(players, list):
        return data
    fields = set(TEMPO_FIELDS)

    def columns(player: object) -> object:
        points = player.get("tempo") if isinstance(player, dict) else None
        if not isinstance(points, list) or not all(
            isinstance(p, dict) and p.keys() == fields for p in points
        ):
            return player
        assert isinstance(player, dict)
        rows = (tuple(p[name] for name in TEMPO_FIELDS) for p in points)
        return {**player, "tempo": tempo_columns(rows)}

    return {**data, "players": [columns(p) for p in players]}


def stored_metrics(meta: MatchMeta) -> MatchMetrics | None:
    """The metrics kept in a catalog entry, if it has some that still describe the match
    (same id, same number of events); ``None`` otherwise."""
    data = meta.metrics
    if data is None or data.get("match_id") != meta.match_id or data.get("events") != meta.events:
        return None
    if "trusted" not in data:
        return None  # kept before results taken as logged were listed: replayed to list them
    try:
        return MatchMetrics.model_validate(data)
    except pydantic.ValidationError:
        return None


def replay_metrics(store: MatchStore, meta: MatchMeta) -> MatchMetrics | None:
    """Fold a stored match's metrics from its records (the first ``meta.events``), through the
    replay loop; ``None`` if they hold no match (no ``match_started``).

    Raises:
        MatchNotFoundError: no such match.
        StoreError: the database failed or a record is unreadable.
    """
    records = store.records(meta.match_id, lte=meta.events)
    try:
        return replay(records, MatchMetricsVisitor(), header=store.header(meta.match_id))
    except ValueError:
        return None


def match_metrics(store: MatchStore, meta: MatchMeta) -> tuple[MatchMetrics | None, bool]:
    """A stored match's metrics: the ones kept in ``meta`` if usable, else replayed; and
    whether they were replayed. ``None`` for a match the statistics do not count (see
    `skip_reason`)."""
    if not counts_as_valid(meta):
        return None, False
    kept = stored_metrics(meta)
    if kept is not None:
        return kept, False
    return replay_metrics(store, meta), True


def measured(store: MatchStore, *, forks: bool = True) -> Iterator[MatchMetrics]:
    """The metrics of every stored match that holds one, in the order they were stored
    (kept metrics where usable, replayed otherwise); without ``forks``, forks are left out
    (a fork replays its parent's prefix: counted, its wins would enter the win rates twice).

    Raises:
        StoreError: the database failed or a catalog entry or record is unreadable.
    """
    for meta in store.list_matches():
        if not forks and meta.parent is not None:
            continue
        metrics, _ = match_metrics(store, meta)
        if metrics is not None:
            yield metrics


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
            for key in getattr(touched, name):
                if key in part and _is_zero(part[key]):
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


def _apply(store: MatchStore, stats: CorpusStats, change: CatalogChange, done: _Progress) -> None:
    """Fold one catalog entry into the statistics."""
    previous = change.previous
    if previous is None:
        metrics, replayed = match_metrics(store, change.meta)
        count(stats, metrics, skip_reason(change.meta))
        done.added += 1
        done.replayed += replayed
        return
    meta = change.meta
    if (previous.events, previous.head_hash) == (meta.events, meta.head_hash) and (
        meta.metrics is None or meta.metrics == previous.metrics
    ):
        return  # the same records, so the same metrics: nothing to redo
    old, old_replayed = match_metrics(store, previous)
    new, new_replayed = match_metrics(store, meta)
    withdraw(stats, old, skip_reason(previous))
    count(stats, new, skip_reason(meta))
    done.updated += 1
    done.replayed += old_replayed + new_replayed


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


def catch_up(store: MatchStore) -> Refreshed:
    """Bring the statistics view of ``store`` up to the store's current position and save it.

    Reads only the catalog entries written since the view's position; a state saved by another
    process meanwhile is taken up and the catch-up redone on top of it. A view that does not
    describe this store (the store was replaced) or that was saved in another format is
    started again from nothing, from the catalog's kept metrics (see `Refreshed.restarted`).

    Raises:
        StoreError: the database failed, a catalog entry or record is unreadable, or other
            processes kept saving the view ``SAVE_ATTEMPTS`` times in a row.
    """
    view = store.stats_view()
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
        for change in store.catalog_changes(start, upto=head):
            _apply(store, stats, change, done)
        try:
            saved = _keep(view, store, stats, head, base, done, restart=restarted is not None)
        except ViewConflictError:
            continue
        return Refreshed(
            stats.canonical(), head, done.added, done.updated, done.replayed, saved, restarted
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
        for change in store.catalog_changes(position, upto=head):
            _apply(store, stats, change, done)
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
    "UNMEASURABLE",
    "VIEW_FORMAT",
    "Refreshed",
    "catalog_metrics",
    "catch_up",
    "corpus_stats",
    "count",
    "match_metrics",
    "measured",
    "metrics_dump",
    "rebuild",
    "refresh",
    "replay_metrics",
    "stored_metrics",
    "withdraw",
]
