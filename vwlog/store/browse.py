"""The store as plain tables: SQL views ``matches``, ``players`` and ``violations`` over the
catalog, for datasette, sqlite-utils, ``sqlite3`` or ``psql`` (docs/store.md).

The catalog entries of a match are JSON documents in the store's event table (one stream per
match; its newest entry describes the match as it is now: `vwlog.store.mapping`). These views
read them with the database's own JSON functions, so they are never out of date and need no
keeping: an import, a re-import, a fork, an append in play mode or a replaced catalog entry is
in them as soon as it is committed, and a rebuild of the statistics changes nothing here.

- SQLite: created in the store's file when the store is opened (again when their definition
  changed, so an upgrade brings its columns with it);
- PostgreSQL, a store in memory, or one whose entries are compressed or encrypted
  (``COMPRESSOR_TOPIC``, ``CIPHER_KEY``) have none (docs/store.md).

Nothing here is trusted: the views show what the database holds. ``vwlog verify`` and ``vwlog
list`` say whether a catalog entry is as this installation wrote it.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import TYPE_CHECKING, Final

from vwlog.store.mapping import META_TOPIC, REGISTERED_TOPIC

if TYPE_CHECKING:
    from collections.abc import Mapping

VIEWS: Final = ("matches", "players", "violations")
"""The views, in the order they are created."""

MATCH_COLUMNS: Final = (
    ("match_id", "$.meta.match_id", "the match id"),
    ("created", "$.meta.created", "when the log says it was created (ISO 8601), or null"),
    ("event", "$.header.event", "the header's event tag, or null"),
    ("event_round", "$.header.round", "the header's round tag, or null"),
    ("event_table", "$.header.table", "the header's table tag, or null"),
    ("event_date", "$.header.date", "the header's date tag (YYYY-MM-DD), or null"),
    ("players", "$.meta.players", "the player ids in seat order (a JSON array)"),
    ("ruleset", "$.meta.metrics.ruleset", "the ruleset id"),
    ("ruleset_version", "$.meta.metrics.ruleset_version", "its version"),
    ("format", "$.meta.metrics.format", "DUEL, TAG, THREE_V_THREE or BATTLE_ROYAL"),
    ("first_player", "$.meta.metrics.first_player", "who took the first turn"),
    ("turns", "$.meta.turns", "turns played"),
    ("events", "$.meta.events", "records in the log (the last one's seq)"),
    ("winner", "$.meta.winner", "the winner, or null (also when the record is not intact)"),
    ("winning_team", "$.meta.metrics.winning_team", "the winning team, in team formats"),
    ("victory", "$.meta.victory", "MILITARY, POLITICAL, ABSOLUTE, CONCESSION, JUDGE or null"),
    ("violations", "$.meta.violations", "rule violations validation found"),
    ("flagged", "$.meta.flagged", "1 when stored despite violations, else 0"),
    ("verdict", "$.meta.verdict", "OK, ILLEGAL, INCOMPLETE, UNTRUSTED, UNVERIFIED or null"),
    ("intact", "$.meta.intact", "1 when the record was intact when stored, 0 if not, or null"),
    ("seal", "$.meta.seal", "author (the log carried its hashes) or import (sealed on import)"),
    ("parent", "$.meta.parent", "for a fork: the match it left from, else null"),
    ("fork_at", "$.meta.fork_at", "for a fork: the parent's seq it continues from"),
    ("head_hash", "$.meta.head_hash", "the hash of the last record"),
    ("source_sha256", "$.meta.source_sha256", "SHA-256 of the imported file, or null"),
)
"""``matches``: column, JSON path in the newest entry (``$.meta``) or the registration
(``$.header``), meaning."""

PLAYER_COLUMNS: Final = (
    ("seat", "$.seat", "1-based seat"),
    ("turn_order", "$.order", "position in turn order (1 = first player)"),
    ("team", "$.team", "the team, in team formats"),
    ("faction", "$.faction", "the deck's most common faction (NEUTRAL without one)"),
    ("deck_id", "$.deck_id", "the deck's identity (a hash of its cards)"),
    ("deck_size", "$.deck_size", "cards in the deck at the start"),
    ("final_gold", "$.final_gold", "gold at the end"),
    ("final_honor", "$.final_honor", "honor at the end"),
    ("final_vp", "$.final_vp", "Victory Points at the end"),
    ("cards_played", "$.cards_played", "cards played"),
    ("followers_summoned", "$.followers_summoned", "Followers summoned"),
    ("territories_summoned", "$.territories_summoned", "Territories summoned"),
    ("followers_lost", "$.followers_lost", "Followers lost"),
    ("territories_lost", "$.territories_lost", "Territories lost"),
    ("attacks_declared", "$.attacks_declared", "attacks declared"),
    ("blocks", "$.blocks", "blocks assigned"),
    ("damage_to_territories", "$.damage_to_territories", "damage dealt to Territories"),
    ("gold_spent", "$.gold_spent", "gold spent"),
)
"""``players`` (besides ``match_id``, ``player`` and ``won``): column, JSON path in the
player's metrics, meaning; null for a match stored before vwlog kept metrics."""

_CATALOG: Final = f"topic IN ('{REGISTERED_TOPIC}', '{META_TOPIC}')"

_ENTRY: Final = f"""WITH newest AS (
  SELECT originator_id AS stream, MAX(originator_version) AS version
  FROM stored_events WHERE {_CATALOG} GROUP BY originator_id
), entry AS (
  SELECT
    CASE WHEN c.topic = '{REGISTERED_TOPIC}'
      THEN json_extract(CAST(c.state AS TEXT), '$.meta') ELSE CAST(c.state AS TEXT) END AS meta,
    json_extract(CAST(r.state AS TEXT), '$.header') AS header
  FROM newest n
  JOIN stored_events c ON c.originator_id = n.stream AND c.originator_version = n.version
  JOIN stored_events r ON r.originator_id = n.stream AND r.originator_version = 1
)"""
"""The newest catalog entry of every match (``meta``) with its registration's header."""


def _get(path: str) -> str:
    """SQL reading ``path`` (``$.meta.…`` or ``$.header.…``) of an ``entry`` row."""
    doc, _, rest = path.removeprefix("$.").partition(".")
    return f"json_extract({doc}, '$.{rest}')"


def view_sql() -> dict[str, str]:
    """The ``CREATE VIEW`` statement of every view (SQLite)."""
    matches = ",\n  ".join(f"{_get(path)} AS {column}" for column, path, _ in MATCH_COLUMNS)
    players = ",\n  ".join(
        f"json_extract(p.value, '{path}') AS {column}" for column, path, _ in PLAYER_COLUMNS
    )
    return {
        "matches": f"CREATE VIEW matches AS {_ENTRY}\nSELECT\n  {matches}\nFROM entry",
        "players": (
            f"CREATE VIEW players AS {_ENTRY}\nSELECT\n"
            "  json_extract(meta, '$.match_id') AS match_id,\n"
            "  json_extract(p.value, '$.player') AS player,\n"
            f"  {players},\n"
            "  CASE WHEN json_extract(meta, '$.intact') = 0 THEN NULL\n"
            "    ELSE json_extract(p.value, '$.won') END AS won\n"
            "FROM entry, json_each(json_extract(meta, '$.metrics.players')) AS p"
        ),
        "violations": (
            f"CREATE VIEW violations AS {_ENTRY}\nSELECT\n"
            "  json_extract(meta, '$.match_id') AS match_id,\n"
            "  substr(v.value, 1, instr(v.value, '@') - 1) AS rule,\n"
            "  CAST(substr(v.value, instr(v.value, '@') + 1) AS INTEGER) AS seq\n"
            "FROM entry, json_each(json_extract(meta, '$.violation_summary')) AS v"
        ),
    }


CATALOG_INDEX: Final = (
    "CREATE INDEX vwlog_catalog_entries ON stored_events (originator_id, originator_version) "
    f"WHERE {_CATALOG}"
)
"""A partial index of the catalog entries alone (two or three rows a match among thousands of
records), so the views find them without reading every record: measured on 160 matches
(417,564 rows), ``SELECT count(*) FROM matches`` took 0.68 s without it and 0.001 s (0.04 s
with a cold file cache) with it; building it on that store took 0.2 s."""


def create_views(env: Mapping[str, str]) -> None:
    """Create (or bring up to date) the views, and the index they read the catalog through
    (`CATALOG_INDEX`), in the store configured by ``env``: an SQLite store only; nothing for
    one whose entries are compressed or encrypted. A store the user may only read keeps what
    it has.

    Raises:
        sqlite3.Error: the views cannot be created (other than for a read-only file).
    """
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite":
        return
    if env.get("COMPRESSOR_TOPIC") or env.get("CIPHER_KEY"):
        return
    wanted = view_sql()
    timeout = float(env.get("SQLITE_LOCK_TIMEOUT") or 5)
    connection = sqlite3.connect(env["SQLITE_DBNAME"], timeout=timeout, isolation_level=None)
    with contextlib.closing(connection) as conn:
        if _up_to_date(conn, wanted):
            return
        try:
            # one process at a time: another that opens the same new store waits here, then
            # finds the views made (two reading first and creating after both created them)
            conn.execute("BEGIN IMMEDIATE")
            try:
                _bring_up_to_date(conn, wanted)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as err:
            if "readonly" not in str(err):
                raise


def _up_to_date(conn: sqlite3.Connection, wanted: Mapping[str, str]) -> bool:
    """Whether the store has the index and every view as ``wanted`` says them."""
    found = _views(conn)
    return _index_fresh(conn) and all(found.get(name) == sql for name, sql in wanted.items())


def _views(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'"))


def _index_fresh(conn: sqlite3.Connection) -> bool:
    index = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
        ("vwlog_catalog_entries",),
    ).fetchone()
    return index is not None and bool(index[0] == CATALOG_INDEX)


def _bring_up_to_date(conn: sqlite3.Connection, wanted: Mapping[str, str]) -> None:
    """Make the index and the views that differ from ``wanted`` (read again, in the
    transaction: another process may have made them meanwhile)."""
    if not _index_fresh(conn):
        conn.execute("DROP INDEX IF EXISTS vwlog_catalog_entries")
        conn.execute(CATALOG_INDEX)
    found = _views(conn)
    for name in VIEWS:
        if found.get(name) != wanted[name]:
            conn.execute(f"DROP VIEW IF EXISTS {name}")
            conn.execute(wanted[name])


__all__ = ["CATALOG_INDEX", "MATCH_COLUMNS", "PLAYER_COLUMNS", "VIEWS", "create_views", "view_sql"]
