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


def test_a_turn_row_keeps_counts_beyond_machine_integers() -> None:
    """Rows are 32-bit integers until a count or a resource outgrows them (a log may carry any
    integer): then they are Python integers, and nothing is cut."""
    tally = _Tally()
    tally.add(1, 0, 5)
    tally.add(2, 0, 2**40)
    tally.add(2, 0, 2**70)
    tally.end(3, 2**80, 1, 2)
    assert tally.total()[PLAYER_COUNTS[0]] == 5 + 2**40 + 2**70
    points = [dict(zip(TEMPO_FIELDS, values, strict=True)) for values in tally.points((7, 8, 9))]
    assert [(p["turn"], p["gold"], p["vp"]) for p in points] == [
        (1, 7, 9),
        (2, 7, 9),
        (3, 2**80, 2),
    ]
    assert points[1][PLAYER_COUNTS[0]] == 2**40 + 2**70
