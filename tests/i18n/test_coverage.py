"""docs/coverage.md: every sentence of seeds 000 and 003 is quoted by a rule, paraphrased by a
named rule, or marked descriptive with a reason; the page is current (tools/seed_coverage.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def coverage() -> ModuleType:
    return load_tool("seed_coverage")


def test_every_sentence_of_both_seeds_is_accounted_for(coverage: ModuleType) -> None:
    table, problems = coverage.rows()
    assert problems == []
    seeds = {row.seed for row in table}
    assert seeds == {"S000", "S003"}
    # every sentence of each seed has exactly one row, in order
    for seed, path in coverage.SEEDS.items():
        numbers = [row.number for row in table if row.seed == seed]
        assert numbers == list(range(1, len(coverage.sentences(path.read_text("utf-8"))) + 1))
    # a descriptive sentence always says why
    assert all(row.reason for row in table if row.how == "descriptive")


def test_the_page_is_current(coverage: ModuleType) -> None:
    table, _ = coverage.rows()
    assert (ROOT / "docs" / "coverage.md").read_text("utf-8") == coverage.render(table), (
        "docs/coverage.md is not current: run python tools/seed_coverage.py"
    )


def test_a_sentence_without_a_quote_or_a_note_is_reported(
    coverage: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = coverage.NOTES.read_text("utf-8")
    first = notes.index("[[sentence]]")
    second = notes.index("[[sentence]]", first + 1)
    trimmed = tmp_path / "notes.toml"
    trimmed.write_text(notes[:first] + notes[second:], "utf-8")  # the first note dropped
    monkeypatch.setattr(coverage, "NOTES", trimmed)
    _, problems = coverage.rows()
    assert problems == ["S000 sentence 1 is unaccounted for: 'Struktur Turn'"]


def test_a_repeated_sentence_is_credited_to_the_quote_beside_it(coverage: ModuleType) -> None:
    """Seed 000 says «Proses ini terjadi secara bersamaan.» in step 7 and in step 9: each
    occurrence belongs to its own step's rule, not to both."""
    table, _ = coverage.rows()
    same = [row for row in table if row.sentence == "Proses ini terjadi secara bersamaan."]
    assert [row.rules for row in same] == [("R-CMB-26",), ("R-CMB-30",)]


def test_a_note_that_names_no_sentence_of_the_seed_is_reported(
    coverage: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / "notes.toml"
    stale.write_text(
        coverage.NOTES.read_text("utf-8")
        + '\n[[sentence]]\nseed = "S003"\ntext = "Kalimat ini tidak ada."\nreason = "x"\n',
        "utf-8",
    )
    monkeypatch.setattr(coverage, "NOTES", stale)
    _, problems = coverage.rows()
    assert problems == ["notes.toml: no sentence of S003 reads 'Kalimat ini tidak ada.'"]
