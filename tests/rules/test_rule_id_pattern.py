"""Rule ids, open questions and source tags of every game are recognised alike
(`vwlog.model.ruleids`): by the catalog's parser, the terminal's colouring, the report's flag
table and the enforcement index; VW's own ids read as before, and near-misses (card instances,
hash prefixes, ids glued to a word) are not taken for rule ids."""

from __future__ import annotations

import re

import click
import pytest

from vwlog.audit import report
from vwlog.cli.render import colourise
from vwlog.model.cards import OPEN_QUESTION_FLAGS, Ruleset
from vwlog.model.ruleids import (
    OPEN_QUESTION_PATTERN,
    RULE_ID_PATTERN,
    is_citation,
    is_open_question,
    is_rule_id,
)
from vwlog.render.flagtext import meaning_of
from vwlog.render.rules import strip_source_tags
from vwlog.rules import catalog
from vwlog.rules.catalog import RULES, parse_rules_markdown, strip_tags

GAME_IDS = ("R-SET-1", "R-CMB-26", "WOW-STA-9", "L5R-BAT-3", "L5R-OQ-6", "MIN-ACT-2", "CORE-LOG-1")
"""Rule ids of VW, of the other games and of the core (another game's open question has a rule
id's shape)."""

NEAR_MISSES = (
    "p1-005",  # a card instance
    "p1-07",
    "o12",  # a register object
    "3fa9c2d1",  # a hash prefix
    "3FA9-BEEF-12",  # an upper-case hash-like run: a prefix starts with a letter
    "seq 12",
    "#12",
    "r-set-1",  # lower case
    "R-SET-",
    "R--1",
    "R-SET-x",
    "R-S3T-1",  # an area has no digits
    "5R-SET-1",
    "R-SET-1a",  # a sub-rule's letter (the terminal colours it; it is not an id by itself)
    "R-SET-1 ",
    "OQ-7",  # an open question of VW, not a rule id
    "OQ7",
    "",
)


@pytest.mark.parametrize("rid", GAME_IDS)
def test_the_ids_of_every_game_are_rule_ids(rid: str) -> None:
    assert is_rule_id(rid)
    assert is_citation(rid)
    assert RULE_ID_PATTERN.findall(f"breaks {rid}; see ({rid}).") == [rid, rid]


@pytest.mark.parametrize("near", NEAR_MISSES)
def test_near_misses_are_not_rule_ids(near: str) -> None:
    assert not is_rule_id(near)


@pytest.mark.parametrize(
    "text",
    [
        "p1-005 was summoned at seq 12 (hash 3fa9c2d1)",
        "xR-SET-1 and R-SET-1xy and R-SET-1A and R-SET-1_2",  # R- inside a word
        "FOO-R-SET-1, p1-R-SET-1",  # glued to a hyphen before it
        "R-SET-1-2",  # glued to a hyphen after it
        "3FA9-BEEF-12, T-1, R-1, OQ-7",
    ],
)
def test_near_misses_in_a_text_are_not_found(text: str) -> None:
    assert RULE_ID_PATTERN.findall(text) == []
    assert colourise(text) == text


def test_open_questions_of_every_game() -> None:
    for oq in ("OQ-7", "OQ-39", "L5R-OQ-6", "WOW-OQ-14"):
        assert is_open_question(oq)
        assert is_citation(oq)
    for not_oq in ("R-SET-1", "WOW-STA-9", "OQ-", "oq-7", "L5R-OQ-", "xOQ-7"):
        assert not is_open_question(not_oq)
    text = "see L5R-OQ-6, OQ-7 and xOQ-8 or FOO-OQ-9b"
    assert OPEN_QUESTION_PATTERN.findall(text) == ["L5R-OQ-6", "OQ-7"]


def test_every_vw_id_keeps_its_kind() -> None:
    assert RULES
    assert all(is_rule_id(rid) and not is_open_question(rid) for rid in RULES)
    assert OPEN_QUESTION_FLAGS
    assert all(is_open_question(oq) and not is_rule_id(oq) for oq in OPEN_QUESTION_FLAGS)


# --- the terminal's colouring (vwlog.cli.render.colourise) ---------------------------------


@pytest.mark.parametrize("rid", ["WOW-STA-9", "L5R-BAT-3", "MIN-ACT-2", "CORE-LOG-1"])
def test_a_foreign_rule_id_is_coloured_as_a_vw_one(rid: str) -> None:
    line = "  ILLEGAL · R-SET-1 at seq 4: p1-005 may not attack (R-SET-1)"
    coloured = colourise(line)
    assert coloured.count(click.style("R-SET-1", fg="yellow")) == 2
    assert colourise(line.replace("R-SET-1", rid)) == coloured.replace("R-SET-1", rid)
    assert re.search(rf"\x1b\[[0-9;]*m{rid}\x1b\[0m", colourise(line.replace("R-SET-1", rid)))


def test_a_sub_rule_letter_is_coloured_with_its_id() -> None:
    for rid in ("R-SKL-10", "WOW-STA-9"):
        assert colourise(f"see {rid}b.") == f"see {click.style(rid + 'b', fg='yellow')}."


def test_every_vw_rule_id_is_still_coloured() -> None:
    for rid in RULES:
        assert colourise(f"({rid})") == f"({click.style(rid, fg='yellow')})"
    assert colourise("OQ-7") == "OQ-7"  # VW's open questions never were


# --- the report's flag table: the open question or rule a flag's meaning starts with -------


def _old_head(description: str) -> bool:
    """The test the report made before any game but VW had ids."""
    head, sep, _ = description.replace("\n", " ").partition(": ")
    return bool(sep and len(head) <= 10 and head.startswith(("OQ-", "R-")))


@pytest.mark.parametrize("cited", ["OQ-7", "L5R-OQ-6", "R-END-3", "WOW-STA-9", "CORE-LOG-12"])
def test_a_flag_meaning_names_the_question_or_rule_of_any_game(cited: str) -> None:
    assert meaning_of(f"{cited}: honor on a tie,\nmultiplied.") == (
        cited,
        "honor on a tie, multiplied.",
    )


@pytest.mark.parametrize("head", ["p1-005", "OQ-7 and OQ-8", "Note", "oq-7", "R-SET-1a"])
def test_a_flag_meaning_without_an_id_keeps_its_head(head: str) -> None:
    assert meaning_of(f"{head}: the rest") == ("", f"{head}: the rest")


def test_the_vw_flags_read_as_before() -> None:
    for info in Ruleset.model_fields.values():
        description = info.description or ""
        assert bool(meaning_of(description)[0]) == _old_head(description)


@pytest.mark.parametrize("cited", ["OQ-7", "L5R-OQ-6", "R-VIC-1", "WOW-STA-9"])
def test_the_report_takes_a_foreign_question_as_it_takes_vw_s(
    cited: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = next(
        n
        for n in Ruleset.model_fields
        if n not in report._FLAG_QUESTION and n not in ("id", "version")
    )
    field = Ruleset.model_fields[name]
    monkeypatch.setattr(field, "description", f"{cited}: honor on a tie.")
    row = next(r for r in report.flag_rows(Ruleset()) if r.name == name)
    assert (row.question, row.meaning) == (cited, "honor on a tie.")
    monkeypatch.setattr(field, "description", "p1-005: honor on a tie.")
    row = next(r for r in report.flag_rows(Ruleset()) if r.name == name)
    assert (row.question, row.meaning) == ("", "p1-005: honor on a tie.")


# --- the catalog's parser reads other games' digests ----------------------------------------

FOREIGN_DIGEST = """\
# A digest of other games (lines of WOWTCG.md, L5R.md and MINIS.md)

## 2. Enforceable rules

### 2.1 Turn structure

- **WOW-TRN-1** Turns go clockwise, starting with the first player. [S002 §500.1] E
  Original: «Игроки ходят по часовой стрелке, начиная с первого.»
- **WOW-PRI-4** [INF] Only the player holding priority may add a link or pass; a pass moves \
priority to the next player clockwise. E
- **WOW-STA-9** The first player skips the draw step of his first turn, so he does not draw \
(whether the step's window still opens: WOW-OQ-6). [S002 §501.2b] E
- **L5R-BTL-3** Every battle has a Combat segment and then a Resolution segment, each exactly \
once, in that order. [S001] E
- **L5R-CMB-4** The actions taken in Combat are Battle actions (actions with the Battle \
designator [R1][R2]); an action without it is illegal in Combat. [S001] E
- **L5R-AS-4 Battlefield and Province.** Each battlefield belongs to one Province of the \
defender. A Province may have Regions attached [R1 places attached Regions at the battlefield].
- **MIN-ACT-2** Activation Step: the Active Player activates a model by spending one of its \
AP (a model without AP cannot be activated). [S004] E
- **CORE-LOG-1** A match begins with `match_started`. [DEF]
- **L5R-OQ-6** Honor on a tie: ×1 or ×2? Flag `tie_honor_multiplier`: `1` (literal) | `2`.
- **p1-005** is a card, not a rule.
"""


def test_the_parser_reads_the_ids_of_other_games() -> None:
    rows = {
        rid: (title, basis, text)
        for rid, title, basis, text in parse_rules_markdown(FOREIGN_DIGEST)
    }
    assert list(rows) == [
        "WOW-TRN-1",
        "WOW-PRI-4",
        "WOW-STA-9",
        "L5R-BTL-3",
        "L5R-CMB-4",
        "L5R-AS-4",
        "MIN-ACT-2",
        "CORE-LOG-1",
        "L5R-OQ-6",
    ]
    assert rows["WOW-TRN-1"] == (
        "Turns go clockwise, starting with the first player",
        "SOURCE",
        "Turns go clockwise, starting with the first player. E\n"
        "Original: «Игроки ходят по часовой стрелке, начиная с первого.»",
    )
    assert rows["WOW-STA-9"][1:] == (
        "SOURCE",
        "The first player skips the draw step of his first turn, so he does not draw "
        "(whether the step's window still opens: WOW-OQ-6). E",
    )
    assert rows["WOW-PRI-4"][1] == "INF"
    assert rows["L5R-CMB-4"][1:] == (
        "SOURCE",
        "The actions taken in Combat are Battle actions (actions with the Battle designator); "
        "an action without it is illegal in Combat. E",
    )
    assert rows["L5R-AS-4"][0] == "Battlefield and Province."
    assert rows["L5R-AS-4"][2].endswith("[R1 places attached Regions at the battlefield].")
    assert rows["MIN-ACT-2"][2].endswith("(a model without AP cannot be activated). E")
    assert rows["CORE-LOG-1"][1] == "DEF"


def test_the_parser_still_reads_vw_ids_in_every_form() -> None:
    digest = (
        "- **R-GEN-3 (sides and factions)** A player allies with one of two sides [W1][W2].\n"
        "- **R-ZONE-1 Hand** Cards in hand are hidden. [S000]\n"
        "- **OQ-7** is an open question, not a rule.\n"
    )
    assert [(rid, title) for rid, title, _, _ in parse_rules_markdown(digest)] == [
        ("R-GEN-3", "Sides and factions"),
        ("R-ZONE-1", "Hand"),
    ]


@pytest.mark.parametrize(
    ("tagged", "plain"),
    [
        ("skips the draw step. [S002 §501.2b] E", "skips the draw step. E"),
        ("goes clockwise [S002 §500.1][R1] first.", "goes clockwise first."),
        ("a Battle action [R1][R2]; illegal.", "a Battle action; illegal."),
        ("the seed [S001][R3].", "the seed."),
        ("VW's own [W1][W2][S000] stay.", "VW's own stay."),
        ("an inference [INF] and a default [DEF].", "an inference and a default."),
    ],
)
def test_the_source_tags_of_other_games_are_stripped(tagged: str, plain: str) -> None:
    assert strip_tags(tagged) == plain


@pytest.mark.parametrize(
    "prose",
    [
        "regions [R1 places attached Regions at the battlefield].",
        "a list [r1] in lower case",
        "a model [R] without a number",
        "a list [k1, k2, a3]",
        "the rule [R-SET-1] by id",
    ],
)
def test_prose_in_brackets_is_not_a_tag(prose: str) -> None:
    assert strip_tags(prose) == prose
    assert strip_source_tags(prose) == prose


def test_the_titles_drop_foreign_tags_as_they_drop_vw_s() -> None:
    assert strip_source_tags("Draw step [S002 §501.2b][R1]") == "Draw step"
    assert strip_source_tags("Draw step [S000][W1]") == "Draw step"
    assert catalog.SOURCE_TAG.sub("", "x [R2] y") == "x y"
