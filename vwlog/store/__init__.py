"""Persistence of matches with eventsourcing: records, catalog and snapshots.

Owns backend selection (`settings_from_url`), the mapping of records to stored events, the
`MatchStore` facade and the storage of the statistics read model (`StatsViewStore`). Knows
nothing of rules, game state or projections; eventsourcing, orjson and the database drivers
stay behind this package.
"""

from vwlog.store.application import MatchStore
from vwlog.store.catalog import CatalogChange, Head, ImportOutcome, MatchMeta
from vwlog.store.mapping import register_upcaster
from vwlog.store.settings import settings_from_url
from vwlog.store.statsview import StatsViewStore, ViewConflictError, ViewState

__all__ = [
    "CatalogChange",
    "Head",
    "ImportOutcome",
    "MatchMeta",
    "MatchStore",
    "StatsViewStore",
    "ViewConflictError",
    "ViewState",
    "register_upcaster",
    "settings_from_url",
]
