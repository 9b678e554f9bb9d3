"""Match metrics as Parquet tables for analysts' tools (pandas, polars, DuckDB, Spark).

`ParquetStats` takes one match's `MatchMetrics` at a time and writes four tables under a
directory, each a Hive-partitioned Parquet dataset:

    DIR/matches/ruleset=ID/part-00000.parquet   one row per match
    DIR/players/ruleset=ID/part-00000.parquet   one row per player and match
    DIR/turns/ruleset=ID/part-00000.parquet     one row per player, match and turn
    DIR/cards/ruleset=ID/part-00000.parquet     one row per player, match and card in the
                                                player's deck or summoned by them

The column lists are `SCHEMAS`; docs/statistics.md describes every column. Partitioned by
ruleset because analyses compare rulesets and rarely mix them (a reader asking for one ruleset
opens only its directory); within a partition, part files hold at most ``part_matches`` matches
each, and part N of every table covers the same matches, so memory stays flat however large the
corpus. The ruleset id comes from the log, so its directory name is percent-encoded
(``urllib.parse.quote``), which is how pyarrow and DuckDB decode Hive partition values.

Why this is in ``io`` and not ``render``: these files are a storage format for the metrics, like
the JSONL logs the ``io`` layer reads and writes, not a presentation of them. Nothing is rounded,
labelled, ranked or escaped for a reader: every column is a raw count, sum or identifier of
`vwlog.projections.stats.MatchMetrics`, so the tables can be summed into exactly the corpus
figures (counts and sums, never averages of averages).

pyarrow is optional (the ``parquet`` extra); `ParquetStats` raises `MissingExtraError` without
it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from vwlog.io.errors import MissingExtraError
from vwlog.model.errors import OutputError, UsageError
from vwlog.model.text import msg
from vwlog.projections.stats import PLAYER_COUNTS

if TYPE_CHECKING:
    from vwlog.projections.stats import MatchMetrics

PART_MATCHES = 50_000
"""Matches per part file (per ruleset partition)."""

_STR = "string"
_INT = "int64"
_BOOL = "bool"
_FLOAT = "float64"
_SUPPLY = "map<string,int64>"

_COUNTS = PLAYER_COUNTS
"""The counts that a player's match row and turn rows name alike (`PLAYER_COUNTS`)."""

SCHEMAS: dict[str, tuple[tuple[str, str], ...]] = {
    "matches": (
        ("match_id", _STR),
        ("created", _STR),
        ("ruleset_version", _INT),
        ("format", _STR),
        ("players", _INT),
        ("first_player", _STR),
        ("winner", _STR),
        ("winning_team", _STR),
        ("victory", _STR),
        ("finished", _BOOL),
        ("turns", _INT),
        ("events", _INT),
        ("decisions", _INT),
        ("violations", _INT),
        ("max_register_depth", _INT),
    ),
    "players": (
        ("match_id", _STR),
        ("player", _STR),
        ("seat", _INT),
        ("order", _INT),
        ("team", _STR),
        ("finished", _BOOL),
        ("won", _BOOL),
        ("deck_id", _STR),
        ("faction", _STR),
        ("deck_size", _INT),
        *((name, _INT) for name in _COUNTS),
        ("final_gold", _INT),
        ("final_honor", _INT),
        ("final_vp", _INT),
        ("skills_registered", _INT),
        ("skills_triggered", _INT),
        ("supply", _SUPPLY),
        ("decisions_timed", _INT),
        ("decision_seconds", _FLOAT),
    ),
    "turns": (
        ("match_id", _STR),
        ("player", _STR),
        ("turn", _INT),
        ("gold", _INT),
        ("honor", _INT),
        ("vp", _INT),
        *((name, _INT) for name in _COUNTS),
        ("skills_registered", _INT),
        ("skills_triggered", _INT),
        ("supply", _SUPPLY),
    ),
    "cards": (
        ("match_id", _STR),
        ("player", _STR),
        ("card_id", _STR),
        ("name", _STR),
        ("type", _STR),
        ("faction", _STR),
        ("finished", _BOOL),
        ("won", _BOOL),
        ("copies", _INT),
        ("summons", _INT),
        ("skills_registered", _INT),
        ("skills_triggered", _INT),
    ),
}
"""Every table's columns and their Arrow types, in order (the partition column ``ruleset``,
a string, comes from the directory name)."""

PARTITION = "ruleset"
"""The partition column of every table."""


def _arrow_type(pa: Any, name: str) -> Any:
    if name == _SUPPLY:
        return pa.map_(pa.string(), pa.int64())
    return {_STR: pa.string(), _INT: pa.int64(), _BOOL: pa.bool_(), _FLOAT: pa.float64()}[name]


def _rows(m: MatchMetrics) -> dict[str, list[dict[str, Any]]]:
    """One match's rows, by table."""
    finished = m.finished
    match = {
        "match_id": m.match_id,
        "created": m.created,
        "ruleset_version": m.ruleset_version,
        "format": m.format,
        "players": len(m.players),
        "first_player": m.first_player,
        "winner": m.winner,
        "winning_team": m.winning_team,
        "victory": m.victory,
        "finished": finished,
        "turns": m.turns,
        "events": m.events,
        "decisions": m.decisions,
        "violations": m.violations,
        "max_register_depth": m.max_register_depth,
    }
    players, turns, cards = [], [], []
    for p in m.players:
        timing = p.decision_time
        players.append(
            {
                "match_id": m.match_id,
                "player": p.player,
                "seat": p.seat,
                "order": p.order,
                "team": p.team,
                "finished": finished,
                "won": p.won,
                "deck_id": p.deck_id,
                "faction": p.faction,
                "deck_size": p.deck_size,
                **{name: getattr(p, name) for name in _COUNTS},
                "final_gold": p.final_gold,
                "final_honor": p.final_honor,
                "final_vp": p.final_vp,
                "skills_registered": sum(p.skills_registered.values()),
                "skills_triggered": sum(p.skills_triggered.values()),
                "supply": sorted(p.supply.items()),
                "decisions_timed": timing.n if timing else 0,
                "decision_seconds": timing.total if timing else 0.0,
            }
        )
        for point in p.tempo:
            turns.append(
                {
                    "match_id": m.match_id,
                    "player": p.player,
                    "turn": point.turn,
                    "gold": point.gold,
                    "honor": point.honor,
                    "vp": point.vp,
                    **{name: getattr(point, name) for name in _COUNTS},
                    "skills_registered": point.skills_registered,
                    "skills_triggered": point.skills_triggered,
                    "supply": sorted(point.supply.items()),
                }
            )
        for card_id in sorted(p.deck.keys() | p.played.keys() | p.skills_registered.keys()):
            info = m.cards.get(card_id)
            cards.append(
                {
                    "match_id": m.match_id,
                    "player": p.player,
                    "card_id": card_id,
                    "name": info.name if info else None,
                    "type": info.type if info else None,
                    "faction": info.faction if info else None,
                    "finished": finished,
                    "won": p.won,
                    "copies": p.deck.get(card_id, 0),
                    "summons": p.played.get(card_id, 0),
                    "skills_registered": p.skills_registered.get(card_id, 0),
                    "skills_triggered": p.skills_triggered.get(card_id, 0),
                }
            )
    return {"matches": [match], "players": players, "turns": turns, "cards": cards}


class _Partition:
    __slots__ = ("buffers", "matches", "part")

    def __init__(self) -> None:
        self.buffers: dict[str, list[dict[str, Any]]] = {table: [] for table in SCHEMAS}
        self.matches = 0
        self.part = 0


class ParquetStats:
    """Writes match metrics, one match at a time, as the four Parquet tables under ``out``.

    Use as a context manager, or call `close` (which writes what is buffered). ``out`` must not
    hold a previous run's tables (they would be mixed with this run's).

    Raises:
        MissingExtraError: pyarrow is not installed.
        UsageError: ``out`` already holds tables.
        OutputError: a file cannot be written.
    """

    def __init__(self, out: str | Path, *, part_matches: int = PART_MATCHES) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as err:
            raise MissingExtraError("parquet", "pyarrow", msg("writing Parquet tables")) from err
        self._pa, self._pq = pa, pq
        self.out = Path(out)
        for table in SCHEMAS:
            if (self.out / table).exists():
                raise UsageError(
                    msg("{value}: already exists; give an empty directory", value=self.out / table)
                )
        self._schemas = {
            table: pa.schema([(name, _arrow_type(pa, kind)) for name, kind in columns])
            for table, columns in SCHEMAS.items()
        }
        self._part_matches = part_matches
        self._partitions: dict[str, _Partition] = {}
        self.rows: dict[str, int] = dict.fromkeys(SCHEMAS, 0)
        """Rows written so far, by table."""
        self.files: list[Path] = []
        """Files written so far."""

    def add(self, m: MatchMetrics) -> None:
        """Buffer one match's rows; write a part when its partition holds enough matches."""
        partition = self._partitions.setdefault(m.ruleset, _Partition())
        for table, rows in _rows(m).items():
            partition.buffers[table].extend(rows)
        partition.matches += 1
        if partition.matches >= self._part_matches:
            self._flush(m.ruleset, partition)

    def _flush(self, ruleset: str, partition: _Partition) -> None:
        if not partition.matches:
            return
        name = f"part-{partition.part:05d}.parquet"
        for table, rows in partition.buffers.items():
            directory = self.out / table / f"{PARTITION}={quote(ruleset, safe='')}"
            path = directory / name
            data = self._pa.Table.from_pylist(rows, schema=self._schemas[table])
            try:
                directory.mkdir(parents=True, exist_ok=True)
                self._pq.write_table(data, path)
            except OSError as err:
                raise OutputError(str(path), err.strerror or str(err)) from err
            self.rows[table] += len(rows)
            self.files.append(path)
            rows.clear()
        partition.matches = 0
        partition.part += 1

    def close(self) -> None:
        """Write every buffered row."""
        for ruleset, partition in sorted(self._partitions.items()):
            self._flush(ruleset, partition)

    def __enter__(self) -> ParquetStats:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.close()


__all__ = ["PARTITION", "PART_MATCHES", "SCHEMAS", "ParquetStats"]
