"""Persistence of matches with eventsourcing: records, catalog and snapshots.

Owns backend selection (`settings_from_url`), the mapping of records to stored events, the
`MatchStore` facade and the storage of the statistics read model (`StatsViewStore`). Knows
nothing of rules, game state or projections; eventsourcing, orjson and the database drivers
stay behind this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vwlog.store.application import MatchStore
    from vwlog.store.catalog import CatalogChange, Head, ImportOutcome, MatchMeta
    from vwlog.store.mapping import register_upcaster
    from vwlog.store.settings import settings_from_url
    from vwlog.store.statsview import StatsViewStore, ViewConflictError, ViewState

# Names are imported on first use: a command that only asks where the store is
# (`vwlog.store.location`) does not load eventsourcing and the database drivers.
_HOMES = {
    "MatchStore": "vwlog.store.application",
    "CatalogChange": "vwlog.store.catalog",
    "Head": "vwlog.store.catalog",
    "ImportOutcome": "vwlog.store.catalog",
    "MatchMeta": "vwlog.store.catalog",
    "register_upcaster": "vwlog.store.mapping",
    "settings_from_url": "vwlog.store.settings",
    "StatsViewStore": "vwlog.store.statsview",
    "ViewConflictError": "vwlog.store.statsview",
    "ViewState": "vwlog.store.statsview",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'vwlog.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


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
