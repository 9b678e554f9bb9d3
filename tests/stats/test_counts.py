"""The counts a player's turns and match name alike come from one place: the metrics models.

The per-match CSV, the Parquet tables and the visitor that fills the models all take them from
`PLAYER_COUNTS`, which the models define; these tests fail when one of them keeps a list of its
own that misses a count or names one the models do not have."""

from __future__ import annotations

from vwlog.io.parquet import SCHEMAS
from vwlog.model.types import SupplyOption
from vwlog.projections.stats import PLAYER_COUNTS, PlayerMetrics, TurnPoint
from vwlog.projections.stats.metrics import TEMPO_FIELDS
from vwlog.projections.stats.visitor import _COLUMNS, _Tally
from vwlog.render.statsdata import PLAYER_COLUMNS, TURN_FIELDS


def test_the_shared_counts_are_the_integer_fields_of_both_models() -> None:
    assert PLAYER_COUNTS == (
        "gold_produced",
        "gold_from_supply",
        "gold_from_effects",
        "gold_spent",
        "cards_drawn_supply",
        "cards_drawn_effects",
        "cards_played",
        "cards_discarded",
        "territories_summoned",
        "territories_lost",
        "followers_summoned",
        "followers_lost",
        "attacks_declared",
        "attackers_declared",
        "blocks",
        "damage_to_followers",
        "damage_to_territories",
        "max_register_depth",
    )
    for name in PLAYER_COUNTS:
        assert TurnPoint.model_fields[name].annotation is int
        assert PlayerMetrics.model_fields[name].annotation is int


def test_the_visitor_fills_every_shared_count() -> None:
    assert tuple(_Tally().total())[: len(PLAYER_COUNTS)] == PLAYER_COUNTS
    # a turn's row holds every integer of a point but the turn and the resources at its end
    read_elsewhere = {"turn", "gold", "honor", "vp", "supply"}
    assert set(TEMPO_FIELDS) - read_elsewhere <= set(_COLUMNS)


def test_every_table_names_every_shared_count_in_the_models_order() -> None:
    for table in ("players", "turns"):
        columns = [name for name, _ in SCHEMAS[table]]
        assert [c for c in columns if c in PLAYER_COUNTS] == list(PLAYER_COUNTS), table
    assert [c for c in PLAYER_COLUMNS if c in PLAYER_COUNTS] == list(PLAYER_COUNTS)
    assert set(PLAYER_COUNTS) <= set(TURN_FIELDS)


def test_the_csv_has_a_column_per_supply_package() -> None:
    supply = [c.removeprefix("supply_") for c in PLAYER_COLUMNS if c.startswith("supply_")]
    assert supply == [str(option) for option in SupplyOption]
