"""Every rule of the catalog speaks Indonesian: the seed's own sentences, word for word, where
the rule comes from the original rules (S000 turn structure, S003 skills), a translation where
the digest states it; a report in Indonesian quotes them, one in English on request."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from vwlog.io.i18n import using_language
from vwlog.render.rules import (
    indonesian_rules,
    original_beside,
    quoting_original,
    rule_text,
    rule_title,
)
from vwlog.rules.catalog import RULE_ID_PATTERN, RULES

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "vwlog" / "data" / "rules.id.toml"
SEEDS = {
    # copies of shared/seeds/000_*.txt and 003_*.txt, the original rules in Indonesian
    "S000": Path(__file__).with_name("seeds") / "000_af46a2c8f4cf120d.txt",
    "S003": Path(__file__).with_name("seeds") / "003_e87579a532279b03.txt",
}
_TAG = re.compile(r"\[(S\d{3}|W\d+|INF|DEF)[^\]]*\]")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_rule_id_has_indonesian_text() -> None:
    raw = tomllib.loads(DATA.read_text(encoding="utf-8"))
    assert set(raw) == set(RULES)
    for rid, entry in raw.items():
        assert set(entry) <= {"title", "quote", "seed", "text"}, rid
        assert entry["title"].strip(), rid
        assert (entry.get("quote", "") + entry.get("text", "")).strip(), rid
        assert ("quote" in entry) == ("seed" in entry), rid


@pytest.mark.parametrize("rid", sorted(indonesian_rules()))
def test_quotes_are_the_seed_word_for_word(rid: str) -> None:
    rule = indonesian_rules()[rid]
    if not rule.quote:
        return
    seed = _norm(SEEDS[rule.seed].read_text(encoding="utf-8"))
    for line in rule.quote.split("\n"):
        assert _norm(line) in seed, f"{rid}: not in {rule.seed}: {line!r}"


def test_rules_from_the_seeds_quote_them() -> None:
    """A rule that the digest takes only from the turn structure or the skills text (its only
    source tags are [S000]/[S003]) quotes the seed rather than translating the digest back."""
    unquoted = []
    for rid, rule in RULES.items():
        tags = set(_TAG.findall(rule.text))
        if rule.basis == "SOURCE" and tags and tags <= {"S000", "S003"}:
            if not indonesian_rules()[rid].quote:
                unquoted.append(rid)
    assert unquoted == []


def test_rule_ids_named_in_the_indonesian_texts_exist() -> None:
    for rid, rule in indonesian_rules().items():
        for named in RULE_ID_PATTERN.findall(rule.body):
            assert named in RULES, f"{rid} names {named}"


def test_titles_and_texts_follow_the_language() -> None:
    assert rule_title("R-SUP-3").startswith("On the match's first turn")
    with using_language("id"):
        assert rule_title("R-SUP-3") == "Turn pertama: hanya 1 gold atau 1 kartu"
        assert rule_text("R-SUP-3") == (
            "Jika Anda memilih jalan turn pertama dalam suatu pertandingan, maka Anda hanya "
            "diperbolehkan mengambil jatah 1 gold atau 1 kartu saja pada tahap ini."
        )
        assert rule_title("R-NOPE-1") == ""


def test_the_original_is_quoted_beside_english_only_on_request() -> None:
    assert original_beside("R-CMB-20") == ("", "")
    with quoting_original():
        label, text = original_beside("R-CMB-20")
        assert label == "Indonesian original:"
        assert (
            text
            == "Follower dengan Raze mendistribusi sisa ATK damage-nya ke Territory yang diserang."
        )
        assert original_beside("R-VIC-6")[0] == "In Indonesian:"
        with using_language("id"):
            assert original_beside("R-CMB-20") == ("", "")
