"""The mutation audit (bench/wowtcg_audit.py) on a few generated matches: single-event
mutations the seed makes illegal are cited at the mutated event in at least 99 % of tries."""

from __future__ import annotations

from bench.wowtcg_audit import BAR, _mutants, audit
from vwlog.games.wowtcg import events as ev


def test_mutations_are_cited_at_the_mutated_event() -> None:
    result = audit(matches=30, seed=1)
    assert result.tries >= 200
    assert result.rate >= BAR, (result.later, result.missed)


def test_each_mutant_differs_from_its_original() -> None:
    for e in (
        ev.PriorityPassed(player="p1"),
        ev.PhaseStarted(phase="END"),
        ev.StepStarted(step="FINAL"),
        ev.TurnStarted(turn=3, player="p2"),
        ev.ModifiersExpired(modifiers=("m1",)),
    ):
        mutants = _mutants(e, ("p1", "p2"))
        assert mutants
        assert all(bad != e for _, bad in mutants)
