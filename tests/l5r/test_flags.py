"""The open questions as ruleset flags: each reading changes the verdicts as its
documentation says, and every verdict that rests on a flag names it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.l5r.logs import (
    AGAIN,
    BRING,
    EFFECT,
    ILLEGAL,
    PROVINCE,
    ROUNDS,
    SAMPLES,
    TIE,
    TWO,
    ZERO,
    A,
    act,
    bend,
    chosen,
    cited,
    destroyed,
    dhome,
    home,
    honor,
    judged,
    noout,
    pas,
    pend,
    rend,
    res,
    resolved,
    started,
    twin,
    with_flags,
)
from vwlog.games.l5r.ruleset import L5rRuleset

ROUNDS_AS_ONE = twin(
    ROUNDS,
    (21, res(2, 0, 3)),
    (22, None),
    (23, None),
    (24, None),
    (25, None),
    (26, rend(2)),
    (27, home("d2")),
    (28, bend(2)),
    (29, dhome("a2")),
    (30, pend(2), "before"),
)
"""ROUNDS judged with rounds of two turns: d2, counted in turn 1, adds nothing in turn 2."""

AGAIN_FOLLOWER = twin(
    AGAIN,
    (17, act("p1", "r2", "charge", brings=("a2",))),
    (18, resolved("r2", "charge", ("unit_entered_battle", "a2"))),
    (22, destroyed(2, A, "a2", "a4")),
)
"""AGAIN with the Follower a2 brought in instead of the Personality a3."""

ZERO_NO_OUTCOME = [
    *ZERO[:8], noout(1), rend(1), home("a3"), bend(1), dhome("d3"), pend(),
]  # fmt: skip

Verdict = tuple[str, int] | None

# (flag, reading, log, its verdict by default, its verdict under the reading): None is clean
FLAGS: list[tuple[str, Any, list[Any], Verdict, Verdict]] = [
    ("personality_limit_scope", "ROUND", ROUNDS, None, ("L5R-CMB-8", 21)),
    ("personality_limit_scope", "ROUND", ROUNDS_AS_ONE, ("L5R-RES-1", 21), None),
    ("personality_participation", "COUNTED", AGAIN, ("L5R-CMB-8", 17), None),
    ("resolution_limit_applies_to", "ALL_UNITS", AGAIN_FOLLOWER, None, ("L5R-CMB-8", 17)),
    ("bring_in_exemption", "BROUGHT_UNIT_ONLY",
     twin(BRING, (6, act("p2", "k2", "reinforce", targets=("d2",), brings=("d9",)))),
     None, ("L5R-CMB-6", 6)),
    ("bring_in_exemption", "BROUGHT_UNIT_ONLY", BRING, None, None),
    ("tie_honor_multiplier", 2, TIE, None, ("L5R-RES-9", 11)),
    ("tie_honor_multiplier", 2, twin(TIE, (11, honor("p2", 2, 1)), (12, honor("p1", 2, 1))),
     ("L5R-RES-9", 11), None),
    ("army_cards", "UNITS_ONLY", TWO, None, ("L5R-RES-8", 12)),
    ("army_cards", "UNITS_ONLY", twin(TWO, (12, honor("p2", 2, 1))), ("L5R-RES-8", 12), None),
    ("province_counts_for_honor", True, PROVINCE, None, ("L5R-RES-8", 11)),
    ("province_counts_for_honor", True, twin(PROVINCE, (11, honor("p1", 4, 2))),
     ("L5R-RES-8", 11), None),
    ("zero_tie_with_units", "NO_OUTCOME", ZERO, None, ("L5R-RES-10", 9)),
    ("zero_tie_with_units", "NO_OUTCOME", ZERO_NO_OUTCOME, ("L5R-RES-10", 9), None),
    ("attackers_home_timing", "LAST_RESOLUTION_EFFECT", PROVINCE, None, ("L5R-RES-11", 12)),
    ("attackers_home_timing", "LAST_RESOLUTION_EFFECT",
     twin(PROVINCE, (12, home("a1", "a2", "a3")), (13, rend(1))), ("L5R-RES-11", 12), None),
    ("battlefield_chooser", "DEFENDER", PROVINCE, None, ("L5R-BTL-1", 4)),
    ("battlefield_chooser", "DEFENDER", twin(PROVINCE, (4, chosen("b1", "p2"))),
     ("L5R-BTL-1", 4), None),
    ("battlefield_chooser", "AS_LOGGED", twin(PROVINCE, (4, chosen("b1", "p2"))),
     ("L5R-BTL-1", 4), None),
    ("effect_battle_roles", "CONTROLLER_ATTACKS",
     twin(EFFECT, (3, started(1, "b1", "p2", "p1", cause="r1")), (4, pas("p1")), (5, pas("p2"))),
     None, ("L5R-BTL-4", 3)),
    ("effect_battle_roles", "CONTROLLER_ATTACKS", EFFECT, None, None),
    ("battles_owed", "AS_CHOSEN", ILLEGAL["illegal_phase_ends_early"], ("L5R-BTL-6", 15), None),
]  # fmt: skip


def _first(events: list[Any]) -> tuple[str, int | None, str | None] | None:
    found = judged(events)
    return (str(found[0].rule), found[0].seq, found[0].flag) if found else None


@pytest.mark.parametrize(
    ("flag", "reading", "log", "by_default", "under_reading"),
    FLAGS,
    ids=[f"{f[0]}-{i}" for i, f in enumerate(FLAGS)],
)
def test_a_flag_changes_the_verdict_and_the_verdict_names_it(
    flag: str, reading: Any, log: list[Any], by_default: Verdict, under_reading: Verdict
) -> None:
    assert _first(log) == ((*by_default, flag) if by_default else None)
    flagged = with_flags(log, **{flag: reading})
    assert _first(flagged) == ((*under_reading, flag) if under_reading else None)


def test_battles_owed_as_chosen_lets_the_phase_end_early() -> None:
    early = ILLEGAL["illegal_phase_ends_early"]
    (first,) = judged(early)
    assert (first.rule, first.seq, first.flag) == ("L5R-BTL-6", 15, "battles_owed")
    assert cited(with_flags(early, battles_owed="AS_CHOSEN")) == []


def test_the_battlefield_chooser_as_logged_lets_either_player_choose() -> None:
    assert cited(with_flags(PROVINCE, battlefield_chooser="AS_LOGGED")) == []


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_force_read_at_changes_nothing_while_no_event_changes_force_in_a_resolution(
    name: str,
) -> None:
    events = SAMPLES[name]
    assert cited(with_flags(events, force_read_at="EACH_STEP")) == cited(events)


def test_every_flag_is_tested_and_documented() -> None:
    flags = set(L5rRuleset.model_fields) - {"id", "version"}
    tested = {f[0] for f in FLAGS} | {"force_read_at"}
    assert tested == flags
    for name, field in L5rRuleset.model_fields.items():
        if name in flags:
            assert field.description, name
            assert "L5R-OQ-" in field.description, name
