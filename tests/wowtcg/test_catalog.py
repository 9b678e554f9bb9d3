"""The catalog: every Russian quote is the seed's own words (whitespace normalised), every
rule has a title, a status and the seed's section, and the game lists them all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vwlog.games import rules_for
from vwlog.games.wowtcg.catalog import CATALOG, RULES, SEED_WINS
from vwlog.games.wowtcg.ruleset import FLAGS, WowRuleset

SEED = Path(__file__).with_name("seeds") / "002_18e75f8fc5e6839f.txt"


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


SEED_TEXT = _flat(SEED.read_text("utf-8"))
QUOTES = [(r.id, q) for r in RULES for q in r.russian]


@pytest.mark.parametrize(
    ("rule", "quote"), QUOTES, ids=[f"{r}:{i}" for i, (r, _) in enumerate(QUOTES)]
)
def test_each_russian_quote_is_verbatim_in_the_seed(rule: str, quote: str) -> None:
    assert _flat(quote) in SEED_TEXT, (rule, quote)


def test_a_quote_not_in_the_seed_is_caught() -> None:
    assert _flat("Игроки ходят против часовой стрелки") not in SEED_TEXT


def test_the_catalog_counts_38_enforceable_and_8_descriptive_rules() -> None:
    statuses = [r.status for r in RULES]
    assert statuses.count("descriptive") == 8
    assert len(RULES) - statuses.count("descriptive") == 38
    assert set(statuses) <= {"enforced", "partial", "pending", "descriptive"}
    assert len(CATALOG) == len(RULES)


def test_each_rule_has_a_title_quotes_and_a_section_of_the_seed() -> None:
    for r in RULES:
        assert r.title, r.id
        assert r.russian, r.id
        assert r.section, r.id
        if r.status != "descriptive":
            assert re.fullmatch(r"50[0-3]\.\d[a-z]?", r.section), r.id
            assert r.section.split(".")[0] in SEED_TEXT
        if r.status == "partial":
            assert r.note, r.id


def test_the_game_titles_its_rules() -> None:
    game = rules_for("wowtcg")
    assert game.catalog["WOW-STA-9"].startswith("The first player skips the draw step")
    assert set(game.catalog) == set(CATALOG)


def test_every_flag_is_a_ruleset_field_with_a_documented_default() -> None:
    fields = WowRuleset.model_fields
    for flag, question in FLAGS.items():
        assert flag in fields, flag
        assert (fields[flag].description or "").startswith(question), flag
    assert "inspire_limit" not in fields  # the seed's example overrules the digest
    assert _flat("ты можешь изготовить до двух своих истощённых соратников") in SEED_TEXT
    assert "WOW-OQ-7" in SEED_WINS


@pytest.mark.parametrize("question", sorted(SEED_WINS))
def test_where_the_seed_overrules_the_digest_it_is_quoted_verbatim(question: str) -> None:
    quotes = re.findall(r"«(.*?)»", SEED_WINS[question])
    assert quotes
    for quote in quotes:
        assert _flat(quote) in SEED_TEXT, quote
