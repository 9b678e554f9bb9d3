"""200 generated records are legal (two and three players, default and other readings of the
flags); every generated record's decisions are legal where `next` would list them, and the
policies play on."""

from __future__ import annotations

import random

from tests.minis.logs import cited
from vwlog.games.minis import decisions
from vwlog.games.minis.expect import expect
from vwlog.games.minis.generate import generate
from vwlog.games.minis.ruleset import MinisRuleset
from vwlog.games.minis.state import Board, evolve

OTHER = MinisRuleset(
    activations_per_turn="ONCE",
    declaration_change_cost="ONE_AP",
    reaction_declaration_order="SIMULTANEOUS",
)


def test_200_generated_records_are_clean() -> None:
    rolls = 0
    for seed in range(200):
        events = generate(
            seed, players=3 if seed % 5 == 0 else 2, ruleset=OTHER if seed % 7 == 0 else None
        )
        assert cited(events) == [], seed
        rolls += sum(1 for e in events if e.type == "roll")
    assert rolls > 1000


def test_the_policies_play_a_match_without_a_violation() -> None:
    for policy in ("greedy", "random"):
        rng = random.Random(5)
        rs = MinisRuleset()
        events = generate(1, rounds=1)[:3]
        s = Board()
        for e in events:
            s = evolve(s, e)
        s, more = decisions.advance(rs, s)
        events += more
        for _ in range(500):
            exp = expect(rs, s)
            if exp.player is None:
                break
            choice = decisions.choose(rs, s, exp.player, rng, policy)
            assert choice is not None
            s, played = decisions.play(rs, s, choice)
            events += played
        assert cited(events) == [], policy
        assert s.turns >= 2


def test_every_listed_decision_reads_back_and_is_legal() -> None:
    rs = MinisRuleset()
    s = Board()
    for e in generate(2, rounds=1):
        exp = expect(rs, s)
        if exp.player is not None:
            said, total, _ = decisions.legal(rs, s, exp.player, exp.kind)
            assert total >= len(said) >= 1
            for line in said:
                assert decisions.check(rs, s, decisions.parse(rs, s, line)[0]) == ()
        s = evolve(s, e)


def test_every_mutation_of_a_generated_record_is_cited_at_its_event() -> None:
    from vwlog.games.minis.mutate import mutations

    kinds: set[str] = set()
    for seed in (0, 5):
        events = generate(seed, rounds=1, players=3 if seed else 2)
        for m in mutations(events):
            found = cited(m.events)
            assert found, (seed, m.kind, m.seq)
            assert found[0][1] == m.seq, (seed, m.kind, m.seq, found[0])
            kinds.add(m.kind)
    assert kinds == {"drop", "player", "swap", "value"}


def test_a_line_that_cannot_be_read_is_one_usage_error() -> None:
    import pytest

    from vwlog.model.errors import UsageError

    rs, s = MinisRuleset(), Board()
    for e in generate(2, rounds=1)[:9]:
        s = evolve(s, e)
    with pytest.raises(UsageError) as unknown:
        decisions.parse(rs, s, "frobnicate m1")
    assert "the verbs are upkeep, declare, activate" in str(unknown.value)
    with pytest.raises(UsageError) as short:
        decisions.parse(rs, s, "act m1")
    assert "it is written act MODEL normal|special ACTION" in str(short.value)
    assert "\n" not in str(short.value)


def test_play_on_a_record_that_stops_before_owed_consequences_applies_them_first() -> None:
    from tests.minis.logs import B

    rs, s = MinisRuleset(), Board()
    for e in B[:3]:  # the turn has started; its Strategic Phase is owed
        s = evolve(s, e)
    s, played = decisions.play(rs, s, decisions.parse(rs, s, "upkeep")[0])
    assert [e.type for e in played] == [
        "phase_started",
        "phase_started",
        "ap_allotted",
        "phase_started",
    ]
    assert (s.phase, expect(rs, s).kind) == ("TACTICAL", "activation")
    assert cited([*B[:3], *played]) == []
