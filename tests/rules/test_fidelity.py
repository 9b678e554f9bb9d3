"""Rules fidelity, round two: each defect broken on purpose (exact rule id) beside a clean twin.

Issue 15 found verdicts the seeds (``shared/seeds/``) contradict; every test here plays the
position through the scenario builder and asserts what the seed's sentence says.
"""

from __future__ import annotations

import pytest

from tests.rules.harness import CARDS, RULESET, Scenario, deck, follower
from vwlog.events import CardInstance, CostPaid, MatchStarted, PriorityPassed, Seat
from vwlog.model.types import Keyword, MatchFormat, Phase
from vwlog.projections import INITIAL
from vwlog.rules import check

LAIR_BEAST = follower("lair-beast", atk=3, vit=3, cost=2, keywords=(Keyword.LAIR,))
POOL = (*CARDS, LAIR_BEAST)


def _opponents_main_phase(players: int = 2, ruleset=RULESET) -> Scenario:
    """p1 holds priority in p2's Main Phase I with a Lair Follower and a soldier in hand."""
    decks = [deck("keep", "lair-beast", "soldier")] + [deck()] * (players - 1)
    s = Scenario.start(decks, players=players, cards=POOL, ruleset=ruleset)
    s.to(Phase.MAIN1, turn=1)
    s.summon(s.inst("p1", "keep"))
    s.to(Phase.MAIN1, turn=2)
    assert s.holder == "p2"
    while s.holder != "p1":  # priority goes around in turn order (R-REG-6)
        s.do(PriorityPassed(player=s.holder))
    return s


# -- Followers with Lair are summoned at any time (R-CARD-2) ------------------------------------


def test_a_lair_follower_may_be_summoned_in_an_opponents_turn() -> None:
    s = _opponents_main_phase()
    beast = s.inst("p1", "lair-beast")
    assert s.violations_of(CostPaid(player="p1", card=beast, gold=2)) == set()


def test_a_follower_without_lair_waits_for_its_controllers_main_phase() -> None:
    s = _opponents_main_phase()
    soldier = s.inst("p1", "soldier")
    assert s.violations_of(CostPaid(player="p1", card=soldier, gold=1)) == {"R-MAIN-4"}


def test_a_lair_follower_summoned_in_an_opponents_turn_attacks_in_its_own() -> None:
    s = _opponents_main_phase(players=3)
    beast = s.inst("p1", "lair-beast")
    s.summon(beast, territory=s.inst("p1", "keep"))
    assert s.state.permanents[beast].fatigued
    s.to(Phase.MAIN1, turn=4)
    assert s.state.active == "p1"
    assert not s.state.permanents[beast].fatigued


# -- the match format fits the seats (R-GEN-7) --------------------------------------------------


def _start(fmt: MatchFormat, teams: list[str | None]) -> MatchStarted:
    seats = tuple(
        Seat(
            player=f"p{i + 1}",
            team=team,
            deck=tuple(CardInstance(id=f"p{i + 1}-{n:03d}", card="soldier") for n in range(20)),
        )
        for i, team in enumerate(teams)
    )
    return MatchStarted(format=fmt, seats=seats, first_player="p1", ruleset=RULESET, cards=CARDS)


@pytest.mark.parametrize(
    ("fmt", "teams"),
    [
        (MatchFormat.DUEL, [None, None, None, None]),
        (MatchFormat.TAG, ["a", "b", "c"]),
        (MatchFormat.TAG, ["a", "a", "b"]),
        (MatchFormat.THREE_V_THREE, [None, None]),
        (MatchFormat.THREE_V_THREE, ["a", "a", "b", "b"]),
        (MatchFormat.BATTLE_ROYAL, [None, None]),
        (MatchFormat.BATTLE_ROYAL, ["a", "a", "b", "b"]),
    ],
)
def test_a_format_its_seats_do_not_fit_is_refused(
    fmt: MatchFormat, teams: list[str | None]
) -> None:
    assert {v.rule for v in check(RULESET, INITIAL, _start(fmt, teams))} == {"R-GEN-7"}


@pytest.mark.parametrize(
    ("fmt", "teams"),
    [
        (MatchFormat.DUEL, [None, None]),
        (MatchFormat.TAG, ["a", "a", "b", "b"]),
        (MatchFormat.THREE_V_THREE, ["a", "a", "a", "b", "b", "b"]),
        (MatchFormat.BATTLE_ROYAL, [None, None, None]),
        (MatchFormat.BATTLE_ROYAL, [None, None, None, None]),
    ],
)
def test_a_format_its_seats_fit_is_clean(fmt: MatchFormat, teams: list[str | None]) -> None:
    assert check(RULESET, INITIAL, _start(fmt, teams)) == ()
