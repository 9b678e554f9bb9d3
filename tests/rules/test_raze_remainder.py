"""A blocked Raze attacker whose only blocker is gone before step 6 still distributes in step
6: the remainder, its whole ATK, goes to the attacked Territory (R-CMB-20, «Follower dengan
Raze mendistribusi sisa ATK damage-nya ke Territory yang diserang»). Logs in that position,
however the blocker left (destroyed, returned to its owner's hand) and in a duel or a Battle
Royal: the one that distributes is clean and the Territory takes the damage; one that leaves
the distribution out, or gives the Territory less, is refused at that event."""

from __future__ import annotations

import pytest

from tests.rules.harness import RULESET, Scenario, board, deck, dropped, fight, replaced, rules_at
from vwlog.events import Allocation, FollowerDamageAssigned, PriorityPassed
from vwlog.model.types import Phase, Step

P1, P2 = "p1", "p2"


def _gone_by_damage() -> Scenario:
    """Duel: p1's Brute (Raze, ATK 4) attacks p2's keep, blocked by a Soldier that p1's
    Striker destroys in step 5."""
    s = board(p1=(("citadel", ("brute", "striker")),))
    brute, keep, guard = s.inst(P1, "brute"), s.inst(P2, "keep"), s.inst(P2, "soldier")
    fight(s, {brute: keep}, {guard: brute})
    while s.holder != P1:
        s.do(PriorityPassed(player=s.holder))
    s.use(s.inst(P1, "striker"), target=guard)
    assert guard not in s.state.permanents
    return s


def _gone_to_hand() -> Scenario:
    """Duel: the blocking Soldier is returned to p2's hand by p2's own Recaller in step 5."""
    s = board(p2=(("keep", ("soldier", "recaller")),), p1=(("citadel", ("brute",)),))
    brute, keep, guard = s.inst(P1, "brute"), s.inst(P2, "keep"), s.inst(P2, "soldier")
    fight(s, {brute: keep}, {guard: brute})
    while s.holder != P2:
        s.do(PriorityPassed(player=s.holder))
    s.use(s.inst(P2, "recaller"), target=guard)
    assert guard not in s.state.permanents
    return s


def _gone_in_battle_royal() -> Scenario:
    """Battle Royal of three: p1's Brute attacks p2's keep, p2's Soldier blocks and p1's
    Striker destroys it in step 5; p3 looks on."""
    layouts = {P1: ("citadel", "brute", "striker")}
    cards = {p: layouts.get(p, ("keep", "soldier")) for p in (P1, P2, "p3")}
    rs = RULESET.model_copy(update={"opening_hand": max(RULESET.opening_hand, 3)})
    s = Scenario.start([deck(*cards[p]) for p in cards], players=3, ruleset=rs)
    for turn, player in enumerate(cards, start=1):
        s.to(Phase.MAIN1, turn=turn)
        territory, *guards = cards[player]
        s.summon(s.inst(player, territory))
        for g in guards:
            s.summon(s.inst(player, g), s.inst(player, territory))
    s.to(Phase.MAIN1, turn=4)
    brute, keep, guard = s.inst(P1, "brute"), s.inst(P2, "keep"), s.inst(P2, "soldier")
    fight(s, {brute: keep}, {guard: brute})
    while s.holder != P1:
        s.do(PriorityPassed(player=s.holder))
    s.use(s.inst(P1, "striker"), target=guard)
    assert guard not in s.state.permanents
    return s


@pytest.mark.parametrize("position", [_gone_by_damage, _gone_to_hand, _gone_in_battle_royal])
def test_the_raze_remainder_is_demanded_when_the_only_blocker_is_gone(position) -> None:  # type: ignore[no-untyped-def]
    s = position()
    s.until("damage")
    brute, keep = s.inst(P1, "brute"), s.inst(P2, "keep")
    assert (s.state.step, s.holder) == (Step.C6, P1)
    whole = FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=brute, recipient=keep, amount=4),)
    )
    assert s.legal() == [whole]
    at = len(s.events)
    s.do(whole)
    s.to(Phase.COMBAT, Step.C8)
    assert s.state.permanents[keep].damage == 4
    log = list(s.events)
    assert s.validate_with(log) == []
    # the distribution left out: refused where it was due (the damage registered without it)
    left_out = s.validate_with(dropped(log, at))
    assert left_out
    assert min(v.seq or 0 for v in left_out) == at + 1
    # less than the remainder to the Territory
    short = FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=brute, recipient=keep, amount=3),)
    )
    assert rules_at(s.validate_with(replaced(log, at, short)), at + 1) == {"R-CMB-19"}
