"""Each stored match's statistics metrics (`MatchMetrics`), for the read model of
`vwlog.services.stats`: kept in its catalog entry where usable, else folded from its records;
and the folds that pause after a match's last record (`Paused`) and resume with the records
appended since, so that a catch-up folds only what changed.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pydantic
from pydantic import BaseModel

from vwlog import __version__
from vwlog.engine.replay import BaseVisitor, Step, replay
from vwlog.events import JudgeRulingIssued
from vwlog.games import rules_for
from vwlog.model.types import RulingKind
from vwlog.projections.stats import MatchMetrics, MatchMetricsVisitor
from vwlog.projections.stats.metrics import TEMPO_FIELDS, tempo_columns
from vwlog.services.snapshots import measures
from vwlog.services.verdict import counts_as_valid

if TYPE_CHECKING:
    import threading
    from collections.abc import Iterator

    from vwlog.events import EventRecord, LogHeader
    from vwlog.model.state import MatchState
    from vwlog.store import MatchMeta, MatchStore, StatsViewStore

PAUSE_FORMAT = f"vwlog-stats-pause:1:{__version__}"
"""What a saved pause was written by: a pause of another format or vwlog version is not
resumed (the match is replayed instead)."""


class CatchUpCancelledError(Exception):
    """A catch-up was stopped (its ``stop`` event was set) before it saved anything."""


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
    replay loop; ``None`` if they hold no match (no ``match_started``) or the match is of a
    game the statistics do not measure (`vwlog.services.snapshots.measures`).

    Raises:
        MatchNotFoundError: no such match.
        StoreError: the database failed or a record is unreadable.
    """
    header = store.header(meta.match_id)
    if not measures(rules_for(header.game)):
        return None  # a game the statistics do not measure
    records = store.records(meta.match_id, lte=meta.events)
    try:
        return replay(records, MatchMetricsVisitor(), header=header)
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


# -- folds that pause and resume ------------------------------------------------------------


class _Folding(BaseVisitor[None]):
    """A replay visitor around `MatchMetricsVisitor` that counts the events it folds and, at
    the end of the records, keeps a copy of the metrics visitor as it stood before the end
    (`paused`) with the final board, so that the fold can be resumed later."""

    def __init__(
        self,
        inner: MatchMetricsVisitor,
        *,
        resumed: bool = False,
        stop: threading.Event | None = None,
    ) -> None:
        self.inner = inner
        self.resumed = resumed
        self.stop = stop
        self.folded = 0
        self.paused: MatchMetricsVisitor | None = None
        self.final: MatchState | None = None

    def begin_match(self, header: LogHeader | None) -> None:
        if not self.resumed:
            self.inner.begin_match(header)

    def visit(self, step: Step) -> None:
        if self.stop is not None and self.stop.is_set():
            raise CatchUpCancelledError
        self.inner.visit(step)
        self.folded += 1

    def end_match(self, final: MatchState) -> None:
        self.paused = _copied(self.inner)
        self.final = final
        self.inner.end_match(final)

    def result(self) -> None:
        """Nothing: the metrics are taken from the pause (`Paused.metrics`)."""


def _copied(visitor: MatchMetricsVisitor) -> MatchMetricsVisitor:
    """A copy of a metrics visitor that shares its immutable parts (the header, the events,
    the boards: frozen models) and copies what folding changes."""
    memo: dict[int, Any] = {
        id(v): v for v in vars(visitor).values() if isinstance(v, BaseModel) or _frozen(v)
    }
    return copy.deepcopy(visitor, memo)


def _frozen(value: object) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return bool(params is not None and params.frozen)


@dataclass
class Paused:
    """A match's metrics fold stopped after its record ``events`` (whose hash is
    ``head_hash``): resumed with the records after it, it folds only those."""

    match_id: str
    events: int
    head_hash: str
    visitor: MatchMetricsVisitor
    """The metrics visitor after the last record, before the end of the match."""
    state: MatchState
    """The board after the last record."""

    def fits(self, meta: MatchMeta) -> bool:
        """Whether this is the fold of exactly the records ``meta`` describes."""
        return (self.match_id, self.events, self.head_hash) == (
            meta.match_id,
            meta.events,
            meta.head_hash,
        )

    def metrics(self) -> MatchMetrics | None:
        """The metrics of the records folded so far (the fold itself stays resumable)."""
        done = _copied(self.visitor)
        done.end_match(self.state)
        try:
            return done.result()
        except ValueError:
            return None

    def dump(self) -> bytes:
        """The pause as bytes for the view's storage (`load_pause` reads them)."""
        return pickle.dumps((PAUSE_FORMAT, self), protocol=pickle.HIGHEST_PROTOCOL)


def load_pause(data: bytes) -> Paused | None:
    """A pause `Paused.dump` wrote, or ``None`` if it is of another format or version, or
    unreadable. The bytes come from the view's own storage, which only this service writes
    (as trusted as the store itself)."""
    try:
        kind, paused = pickle.loads(data)
    except Exception:  # any unreadable pause is ignored, never fatal
        return None
    if kind != PAUSE_FORMAT or not isinstance(paused, Paused):
        return None
    return paused


def _fold_whole(
    store: MatchStore, meta: MatchMeta, stop: threading.Event | None
) -> tuple[Paused | None, int]:
    """Fold a match's records 1..``meta.events`` from the start; the pause after them (``None``
    when they hold no match) and the events folded."""
    header = store.header(meta.match_id)
    if not measures(rules_for(header.game)):
        return None, 0  # a game the statistics do not measure
    folding = _Folding(MatchMetricsVisitor(), stop=stop)
    records = store.records(meta.match_id, lte=meta.events)
    replay(records, folding, header=header)
    if folding.paused is None or folding.final is None or not folding.final.started:
        return None, folding.folded
    return (
        Paused(meta.match_id, meta.events, meta.head_hash, folding.paused, folding.final),
        folding.folded,
    )


def _resume(
    store: MatchStore, paused: Paused, meta: MatchMeta, stop: threading.Event | None
) -> tuple[Paused | None, int] | None:
    """Resume ``paused`` with the match's records after it, up to ``meta.events``; ``None``
    when it cannot be resumed (the records before it are not the ones it folded, or a judge's
    back-up is among the new ones: it returns to a board the pause does not keep)."""
    if paused.match_id != meta.match_id or not 0 < paused.events < meta.events:
        return None
    records = list(store.records(meta.match_id, gt=paused.events - 1, lte=meta.events))
    if not records or records[0].seq != paused.events or records[0].hash != paused.head_hash:
        return None
    new = records[1:]
    if any(_backs_up(r) for r in new):
        return None
    folding = _Folding(_copied(paused.visitor), resumed=True, stop=stop)
    replay(new, folding, initial=paused.state)
    if folding.paused is None or folding.final is None:
        return None
    return (
        Paused(meta.match_id, meta.events, meta.head_hash, folding.paused, folding.final),
        folding.folded,
    )


def _backs_up(record: EventRecord) -> bool:
    event = record.event
    return isinstance(event, JudgeRulingIssued) and event.kind == RulingKind.BACK_UP


class _Folds:
    """The pauses of one catch-up: read from the view's storage when first needed, the new
    ones saved back after the catch-up (`save`)."""

    def __init__(
        self, store: MatchStore, view: StatsViewStore | None, stop: threading.Event | None
    ) -> None:
        self.store = store
        self.view = view
        self.stop = stop
        self.folded = 0
        self._known: dict[str, Paused | None] = {}
        self._new: dict[str, Paused] = {}

    def _paused(self, match_id: str) -> Paused | None:
        if match_id not in self._known:
            data = self.view.load_pause(match_id) if self.view is not None else None
            self._known[match_id] = load_pause(data) if data is not None else None
        return self._known[match_id]

    def metrics(self, meta: MatchMeta) -> tuple[MatchMetrics | None, bool]:
        """A match's metrics as ``meta`` describes it: kept in the catalog where usable,
        else from its pause (resumed with the new records where it stopped earlier), else
        replayed whole; and whether records were folded. As `match_metrics`: ``None`` for a
        match the statistics do not count."""
        if not counts_as_valid(meta):
            return None, False
        kept = stored_metrics(meta)
        if kept is not None:
            return kept, False
        paused = self._paused(meta.match_id)
        if paused is not None and paused.fits(meta):
            return paused.metrics(), False
        resumed = _resume(self.store, paused, meta, self.stop) if paused is not None else None
        found, folded = resumed if resumed is not None else _fold_whole(self.store, meta, self.stop)
        self.folded += folded
        if found is None:
            return None, True
        self._known[meta.match_id] = self._new[meta.match_id] = found
        return found.metrics(), True

    def save(self) -> None:
        """Keep the new pauses in the view's storage (a pause is a cache: one that loses a
        race to another process's is simply not kept)."""
        if self.view is None:
            return
        for match_id, paused in self._new.items():
            self.view.save_pause(match_id, paused.dump())
        self._new.clear()


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


__all__ = [
    "PAUSE_FORMAT",
    "CatchUpCancelledError",
    "Paused",
    "catalog_metrics",
    "load_pause",
    "match_metrics",
    "measured",
    "metrics_dump",
    "replay_metrics",
    "stored_metrics",
]
