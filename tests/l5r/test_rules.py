"""Every enforceable L5R rule: a log that breaks it is cited by that rule at the breaking
event, and its legal twin (the log it was made from, or the same log made right) is clean."""

from __future__ import annotations

from typing import Any

import pytest

from tests.l5r.logs import (
    AGAIN,
    BRING,
    EFFECT,
    ILLEGAL,
    LEGAL,
    NONE,
    OWED,
    PROVINCE,
    TIE,
    TWO,
    A,
    D,
    act,
    armies,
    bend,
    chosen,
    cited,
    destroyed,
    dhome,
    fell,
    home,
    honor,
    judged,
    noout,
    pas,
    pend,
    phase,
    rend,
    res,
    resolved,
    start,
    started,
    twin,
)
from vwlog.games.l5r.catalog import ENFORCEABLE

PRESENT = [
    start(), phase(), armies(("a1", A, "b1"), ("d1", D, "b1")), chosen("b1"), started(1, "b1"),
    act("p2", "k1", "bow", targets=("a1",)), resolved("k1", "bow", ("unit_bowed", "a1")),
    pas("p1"), pas("p2"), res(1, 0, 2), destroyed(1, A, "a1", "sw"), honor("p2", 4, 2), rend(1),
    bend(1), dhome("d1"), pend(),
]  # fmt: skip
"""The defender acts with a unit in the battle (the presence rule's legal twin)."""
ABSENT = [
    start(), phase(), armies(("a1", A, "b1")), chosen("b1"), started(1, "b1"),
    act("p2", "k1", "bow", targets=("a1",)), resolved("k1", "bow", ("unit_bowed", "a1")),
    pas("p1"), pas("p2"), res(1, 0, 0), noout(1), rend(1), home("a1"), bend(1), pend(),
]  # fmt: skip
"""The same action by a defender without a unit in the battle."""

CASES: list[tuple[str, list[Any], list[Any], int]] = [
    ("L5R-BTL-1", PROVINCE, twin(PROVINCE, (4, chosen("b3"))), 4),
    ("L5R-BTL-2", PROVINCE, twin(PROVINCE, (3, armies(("a1", A, "b1"), ("d1", A, "b1")))), 3),
    ("L5R-BTL-3", PROVINCE, twin(PROVINCE, (4, pas("p2"), "before")), 4),
    ("L5R-BTL-4", EFFECT, twin(EFFECT, (2, chosen("b1", "p1"))), 2),
    ("L5R-BTL-5", TWO, twin(TWO, (6, chosen("b2"), "before")), 6),
    ("L5R-BTL-6", OWED, ILLEGAL["illegal_phase_ends_early"], 15),
    ("L5R-CMB-1", PROVINCE, ILLEGAL["illegal_attacker_first"], 6),
    ("L5R-CMB-2", PROVINCE, ILLEGAL["illegal_alternation"], 7),
    ("L5R-CMB-3", TWO, ILLEGAL["illegal_resolution_early"], 9),
    ("L5R-CMB-3", PROVINCE, twin(PROVINCE, (8, pas("p2"), "before")), 8),
    ("L5R-CMB-4", TWO, ILLEGAL["illegal_not_battle_action"], 6),
    ("L5R-CMB-5", PRESENT, ABSENT, 6),
    ("L5R-CMB-6", TWO, ILLEGAL["illegal_location"], 6),
    (
        "L5R-CMB-7",
        TWO,
        twin(TWO, (6, act("p2", "k1", "bow", source="d1", targets=("a1",), brings=("d9",)))),
        6,
    ),
    (
        "L5R-CMB-7",
        BRING,
        twin(BRING, (7, resolved("k2", "reinforce", ("unit_entered_battle", "d2")))),
        7,
    ),
    (
        "L5R-CMB-8",
        twin(
            TWO,
            (17, act("p2", "k2", "reinforce", brings=("d9",))),
            (18, resolved("k2", "reinforce"), "before"),
        ),
        twin(
            TWO,
            (17, act("p2", "k2", "reinforce", brings=("d1",))),
            (18, resolved("k2", "reinforce"), "before"),
        ),
        17,
    ),
    ("L5R-RES-1", PROVINCE, ILLEGAL["illegal_wrong_force"], 8),
    ("L5R-RES-2", NONE, twin(NONE, (8, res(1, 0, 1))), 8),
    ("L5R-RES-3", TWO, ILLEGAL["illegal_wrong_side_destroyed"], 23),
    ("L5R-RES-4", PROVINCE, twin(PROVINCE, (9, None)), 9),
    ("L5R-RES-5", PROVINCE, ILLEGAL["illegal_province_fall_omitted"], 10),
    ("L5R-RES-5", TWO, ILLEGAL["illegal_province_falsely_destroyed"], 24),
    ("L5R-RES-6", PROVINCE, twin(PROVINCE, (10, fell("prov1", (), ("reg1",)))), 10),
    ("L5R-RES-7", TWO, twin(TWO, (11, None)), 11),
    ("L5R-RES-8", PROVINCE, ILLEGAL["illegal_honor_once"], 11),
    ("L5R-RES-8", TWO, twin(TWO, (12, honor("p1", 4, 2))), 12),
    ("L5R-RES-9", TIE, ILLEGAL["illegal_tie_no_destruction"], 9),
    ("L5R-RES-9", TIE, twin(TIE, (11, honor("p2", 2, 1))), 11),
    ("L5R-RES-10", NONE, twin(NONE, (9, destroyed(1, A, "a3"))), 9),
    ("L5R-RES-11", PROVINCE, twin(PROVINCE, (13, None)), 13),
    ("L5R-RES-11", PROVINCE, twin(PROVINCE, (12, None)), 12),
    ("L5R-RES-12", TWO, twin(TWO, (28, None)), 28),
    ("L5R-RES-12", TWO, twin(TWO, (14, dhome("d1"), "before")), 14),
    ("L5R-RES-13", PROVINCE, twin(PROVINCE, (14, None)), 14),
]


@pytest.mark.parametrize(("rule", "legal", "illegal", "seq"), CASES, ids=[c[0] for c in CASES])
def test_a_broken_rule_is_cited_at_the_breaking_event(
    rule: str, legal: list[Any], illegal: list[Any], seq: int
) -> None:
    assert cited(legal) == []
    assert cited(illegal)[0] == (rule, seq)


def test_every_enforceable_rule_has_a_breaking_log() -> None:
    assert sorted({c[0] for c in CASES}) == sorted(ENFORCEABLE)


@pytest.mark.parametrize("name", sorted(LEGAL))
def test_the_legal_scenarios_are_clean(name: str) -> None:
    assert cited(LEGAL[name]) == []


def test_a_personality_in_a_resolved_army_is_not_brought_into_another_battle() -> None:
    # a3 was bowed in the first battle's army: it took part in that Resolution (IN_ARMY)
    (first, *_) = judged(AGAIN)
    assert (first.rule, first.seq, first.flag) == ("L5R-CMB-8", 17, "personality_participation")


def test_wrong_force_totals_say_what_the_total_was() -> None:
    (found,) = judged(twin(PROVINCE, (8, res(1, 7, 9))))
    assert found.rule == "L5R-RES-1"
    assert found.message == "the defender's total was 2, not 9"
    assert found.expected == "resolution_started battle=1 attacker_force=7 defender_force=2"
    assert found.actual == "resolution_started battle=1 attacker_force=7 defender_force=9"


def test_bowed_units_add_nothing_to_the_total() -> None:
    # a3 (Force 5) is bowed: 4 + 3, not 4 + 3 + 5
    assert cited(twin(PROVINCE, (8, res(1, 12, 2))))[0] == ("L5R-RES-1", 8)


def test_a_province_that_did_not_fall_is_said_so() -> None:
    (found,) = judged(ILLEGAL["illegal_province_falsely_destroyed"])
    assert found.message == "the Province prov2 does not fall: 3 is not greater than 2 + 6"


def test_equal_is_not_enough_for_the_province_to_fall() -> None:
    # 6 against 2 at strength 4: 6 > 2 + 4 is false, the Province stands
    equal = twin(PROVINCE, (3, armies(("a1", A, "b1"), ("a4", A, "b1"), ("d1", D, "b1"))))
    equal = twin(equal, (8, res(1, 6, 2)), (10, None), (13, home("a1", "a4")))
    assert cited(equal) == []
    assert cited(twin(equal, (10, fell("prov1", ("h1",), ("reg1",)), "before")))[0] == (
        "L5R-RES-5",
        10,
    )


def test_wrong_destruction_is_caught() -> None:
    # the defender's army is d1 alone, not d1 and a card of the attacker's
    found = cited(twin(PROVINCE, (9, destroyed(1, D, "d1", "a2"))))
    assert found[0] == ("L5R-RES-4", 9)
    # the attachment goes with its unit: the attacking army is a1 and sw
    assert cited(twin(TWO, (11, destroyed(1, A, "a1"))))[0] == ("L5R-RES-7", 11)


def test_three_destroyed_cards_give_six_honor() -> None:
    # L5R-TXT-10: the worked example of L5R-RES-8
    three = twin(
        PROVINCE,
        (3, armies(("a1", A, "b1"), ("a2", A, "b1"), ("d1", D, "b1"), ("d2", D, "b1"),
                   ("d9", D, "b1"))),
        (8, res(1, 7, 6)),
        (9, destroyed(1, D, "d1", "d2", "d9")),
        (10, None),
        (11, honor("p1", 6, 3)),
        (13, home("a1", "a2")),
    )  # fmt: skip
    assert cited(three) == []
    assert cited(twin(three, (10, honor("p1", 3, 3))))[0] == ("L5R-RES-8", 10)


def test_the_fork_points_are_the_opportunities() -> None:
    fork = {"type": "match_forked", "parent": "m", "at": 5}
    assert cited(twin(PROVINCE, (6, fork, "before"))) == []
    assert cited(twin(PROVINCE, (4, fork, "before")))[0] == ("CORE-FORK-1", 4)


def test_unknown_players_and_cards_cite_the_log_rules() -> None:
    assert cited(twin(PROVINCE, (6, pas("p9"))))[0] == ("CORE-ID-1", 6)
    assert cited(twin(TWO, (6, act("p2", "zz", "bow"))))[0] == ("CORE-ID-2", 6)
    assert cited(PROVINCE[1:])[0] == ("CORE-LOG-1", 1)


def test_an_effect_battle_needs_a_card_of_its_chooser_in_play() -> None:
    assert cited(twin(EFFECT, (2, chosen("b1", "p1", cause="k1"))))[0] == ("L5R-BTL-4", 2)
