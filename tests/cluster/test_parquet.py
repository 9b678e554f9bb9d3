"""``vwlog stats --parquet``: the tables, their schema in docs/statistics.md, their exact sums,
and the documented reading example; on a cluster and in one process alike."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from vwlog.io.parquet import PARTITION, SCHEMAS, ParquetStats
from vwlog.model.errors import UsageError
from vwlog.projections.stats import CorpusStats
from vwlog.services.cluster import measure_log

from .conftest import CORPUS_SIZE, logs, run

if TYPE_CHECKING:
    from click.testing import CliRunner

pytest.importorskip("pyarrow", reason="the 'parquet' extra (pyarrow) is not installed")

DOC = Path(__file__).resolve().parents[2] / "docs" / "statistics.md"
KEYS = {
    "matches": ["match_id"],
    "players": ["match_id", "player"],
    "turns": ["match_id", "player", "turn"],
    "cards": ["match_id", "player", "card_id"],
}


def read(directory: Path, table: str) -> list[dict[str, Any]]:
    """A table's rows (with the partition column), in key order."""
    import pyarrow.dataset as ds

    data = ds.dataset(directory / table, format="parquet", partitioning="hive").to_table()
    return sorted(data.to_pylist(), key=lambda row: [row[k] for k in KEYS[table]])


def test_the_cluster_writes_the_rows_one_process_writes(
    runner: CliRunner, corpus: Path, dask_cluster: str, tmp_path: Path
) -> None:
    alone, spread = tmp_path / "alone", tmp_path / "spread"
    run(runner, "stats", "--format", "json", "--parquet", str(alone), str(corpus))
    run(
        runner,
        "stats",
        "--format",
        "json",
        "--parquet",
        str(spread),
        "--cluster",
        dask_cluster,
        str(corpus),
    )
    for table in SCHEMAS:
        rows = read(alone, table)
        assert rows, table
        assert read(spread, table) == rows, table
    assert len(read(alone, "matches")) == CORPUS_SIZE
    assert {row[PARTITION] for row in read(alone, "players")} == {"vw-default-local"}


@pytest.fixture(scope="module")
def tables(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CorpusStats]:
    """The corpus's tables written in parts of 5 matches, and its statistics in one process."""
    metrics = [measure_log(path) for path in logs(corpus)]
    out = tmp_path_factory.mktemp("tables") / "tables"
    with ParquetStats(out, part_matches=5) as sink:
        for m in metrics:
            sink.add(m)
    assert sink.rows["matches"] == CORPUS_SIZE
    assert len(list((out / "matches").glob("*/*.parquet"))) == 3
    return out, CorpusStats.build(metrics).canonical()


def test_the_tables_sum_to_the_corpus_figures(tables: tuple[Path, CorpusStats]) -> None:
    out, corpus = tables
    matches, players = read(out, "matches"), read(out, "players")
    turns, cards = read(out, "turns"), read(out, "cards")
    assert len(matches) == corpus.matches
    assert sum(m["finished"] for m in matches) == corpus.finished
    assert Counter(m["victory"] for m in matches) == Counter(corpus.victory_types)
    assert Counter(m["turns"] for m in matches if m["finished"]) == Counter(corpus.turns)
    assert Counter(m["events"] for m in matches if m["finished"]) == Counter(corpus.events)
    assert len(players) == corpus.sides
    done = [p for p in players if p["finished"]]
    for column, figures in (
        ("seat", corpus.seats),
        ("order", corpus.turn_order),
        ("faction", corpus.factions),
        ("deck_id", corpus.decks),
    ):
        n = Counter(p[column] for p in done)
        wins = Counter(p[column] for p in done if p["won"])
        counted = {k: (v.n, v.wins) for k, v in figures.items() if v.n}
        assert counted == {k: (n[k], wins[k]) for k in n}, column
    assert {k: d.played for k, d in corpus.decks.items()} == Counter(p["deck_id"] for p in players)
    supply: Counter[str] = Counter()
    for p in players:
        supply.update(dict(p["supply"]))
    assert {k: v for k, v in supply.items() if v} == corpus.supply
    tempo: dict[int, list[int]] = {}
    for t in turns:
        sums = tempo.setdefault(t["turn"], [0, 0, 0, 0])
        for i, value in enumerate((1, t["gold"], t["honor"], t["vp"])):
            sums[i] += value
    assert {k: [s.n, s.gold, s.honor, s.vp] for k, s in corpus.tempo.items()} == tempo
    expected = {
        card_id: (c.matches, c.summons, (c.played.n, c.played.wins), (c.decked.n, c.decked.wins))
        for card_id, c in corpus.cards.items()
    }
    got: dict[str, tuple[Any, ...]] = {}
    for card_id in {c["card_id"] for c in cards}:
        rows = [c for c in cards if c["card_id"] == card_id]
        played = [c for c in rows if c["finished"] and c["summons"] > 0]
        decked = [c for c in rows if c["finished"] and c["copies"] > 0]
        got[card_id] = (
            len({c["match_id"] for c in rows if c["summons"] > 0}),
            sum(c["summons"] for c in rows),
            (len(played), sum(c["won"] for c in played)),
            (len(decked), sum(c["won"] for c in decked)),
        )
    assert got == expected
    by_side = Counter((t["match_id"], t["player"]) for t in turns)
    for p in players:  # each side's turn rows sum to its match row
        side = [t for t in turns if (t["match_id"], t["player"]) == (p["match_id"], p["player"])]
        assert len(side) == by_side[p["match_id"], p["player"]]
        assert sum(t["cards_played"] for t in side) == p["cards_played"]
        assert sum(t["skills_registered"] for t in side) == p["skills_registered"]


def _examples() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    part = text.split("<!-- parquet example")[1].split("<!-- end parquet example -->")[0]
    return re.findall(r"```python\n(.*?)```", part, flags=re.DOTALL)


def test_the_documented_examples_give_the_card_win_rates(
    tables: tuple[Path, CorpusStats], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pandas", reason="pandas is not installed")
    pytest.importorskip("duckdb", reason="duckdb is not installed")
    out, corpus = tables
    pandas_example, duckdb_example = _examples()
    monkeypatch.chdir(out.parent)
    assert os.path.isdir("tables")
    expected = {k: (c.played.n, c.played.wins) for k, c in corpus.cards.items() if c.played.n}
    assert expected
    scope: dict[str, Any] = {}
    exec(pandas_example, scope)
    played = scope["played"]
    assert {k: (int(r["n"]), int(r["wins"])) for k, r in played.iterrows()} == expected
    scope = {}
    exec(duckdb_example, scope)
    by_card = scope["by_card"]
    got = {r["card_id"]: (int(r["n"]), int(r["wins"])) for _, r in by_card.iterrows()}
    assert got == expected


def test_the_doc_describes_every_column() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Parquet tables")[1].split("\n## ")[0]
    for table, columns in SCHEMAS.items():
        block = section.split(f"**`{table}`**")[1].split("\n\n**")[0]
        documented: list[str] = []
        for line in block.splitlines():
            cell = line.split("|")[1].strip() if line.startswith("| `") else ""
            if "…" in cell:  # a row for the shared counts names them in its text
                documented.extend(re.findall(r"`(\w+)`", line.split("|")[3]))
            elif cell:
                documented.append(cell.strip("`"))
        assert documented == [name for name, _ in columns], table


def test_an_odd_ruleset_id_comes_back_from_its_directory_name(corpus: Path, tmp_path: Path) -> None:
    odd = "club/rules v2=%draft"
    m = measure_log(logs(corpus)[0]).model_copy(update={"ruleset": odd})
    with ParquetStats(tmp_path / "t") as sink:
        sink.add(m)
    assert [p.name for p in (tmp_path / "t" / "cards").iterdir()] == [
        "ruleset=club%2Frules%20v2%3D%25draft"
    ]
    assert {row[PARTITION] for row in read(tmp_path / "t", "cards")} == {odd}


def test_tables_already_there_are_not_overwritten(
    runner: CliRunner, corpus: Path, tmp_path: Path
) -> None:
    (tmp_path / "matches").mkdir()
    with pytest.raises(UsageError, match="already exists"):
        ParquetStats(tmp_path)
    run(runner, "stats", "--parquet", str(tmp_path), str(corpus), code=2)
