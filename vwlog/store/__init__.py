"""Persistence of matches with eventsourcing: records, catalog and snapshots.

Owns backend selection (`settings_from_url`), the mapping of records to stored events and the
`MatchStore` facade. Knows nothing of rules, game state or projections; eventsourcing, orjson and
the database drivers stay behind this package.
"""

from vwlog.store.application import MatchStore
from vwlog.store.catalog import Head, ImportOutcome, MatchMeta
from vwlog.store.mapping import register_upcaster
from vwlog.store.settings import settings_from_url

__all__ = [
    "Head",
    "ImportOutcome",
    "MatchMeta",
    "MatchStore",
    "register_upcaster",
    "settings_from_url",
]
