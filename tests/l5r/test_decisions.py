"""L5R's decisions capability: ``vwlog next`` at the positions the rules await a decision
(through the real command line), the notation read back exactly, every listed decision legal,
play mode reproducing generated records (their computed consequences included), and a policy
playing Attack phases to their end without a violation."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from vwlog.cli import main
from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games.l5r import GAME
from vwlog.games.l5r import decisions as capability
from vwlog.games.l5r.events import (
    DECISION_TYPES,
    AttackPhaseEnded,
    AttackPhaseStarted,
    BattleActionTaken,
    L5rRecord,
    OpportunityPassed,
)
from vwlog.games.l5r.expect import expect
from vwlog.games.l5r.generate import generate
from vwlog.games.l5r.notation import format_decision
from vwlog.games.l5r.ruleset import L5rRuleset
from vwlog.games.l5r.state import Board, evolve
from vwlog.io.logfile import read_log
from vwlog.model.errors import IllegalEventError, UsageError
from vwlog.services.decisions import decisions_of

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "l5r"
TWO = SAMPLES / "legal_two_battlefields.jsonl"
"""Two battles at b1 and b2; seq 5 starts battle 1 (p2, the defender, acts first), seq 6 is
p2's action, awaiting its resolution."""
FALLS = SAMPLES / "legal_province_falls.jsonl"
"""seq 6: the defender passed; seq 7: both passed, the Resolution is owed."""


def _events(path: Path) -> list[Any]:
    return [r.event for r in read_log(path)[1]]


def _board(events: list[Any]) -> Board:
    s = Board()
    for e in events:
        s = evolve(s, e)
    return s


def _played(event: Any) -> bool:
    """Whether a record's event is played in play mode: a decision, or the next Attack phase
    (a choice between phases the rules leave to the record)."""
    return type(event) in DECISION_TYPES or isinstance(event, AttackPhaseStarted)


def _violations(events: list[Any]) -> list[Any]:
    records = [L5rRecord.model_validate({"seq": i, "event": e}) for i, e in enumerate(events, 1)]
    return list(replay(records, Validator(), header=LogHeader(game="l5r", match_id="g")).violations)


# -- vwlog next through the command line -----------------------------------------------------


def test_next_at_the_first_opportunity_is_the_defenders(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(TWO), "--at", "5"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "seq 5 · turn 1: p2 to decide (opportunity); showing 9 of ≥ 37 legal:"
    assert lines[1] == "  pass"
    assert "  act k1 bow from d1 on a1 (k1 STRATEGY; d1 PERSONALITY, Force 2; " \
        "a1 PERSONALITY, Force 4)" in lines  # fmt: skip
    assert "  act k2 reinforce bring d9 (k2 STRATEGY; d9 FOLLOWER, Force 1)" in lines
    assert not any(" p1 " in line or "act r" in line for line in lines)  # p1's cards wait


def test_next_after_one_pass_is_the_attackers(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(FALLS), "--at", "6", "--format", "json"])
    data = json.loads(result.stdout)
    assert (data["player"], data["kind"]) == ("p1", "opportunity")
    assert data["decisions"][0] == "pass"
    assert "act r1 strike on d1" in data["decisions"]
    assert data["cards"]["d1"] == "PERSONALITY, Force 2"
    assert data["total_exact"] is False


def test_next_where_the_resolution_is_owed_awaits_nobody(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(FALLS), "--at", "7"])
    assert result.stdout == "seq 7 · turn 1: no decision is awaited (the rules act next)\n"


def test_next_counts_the_armies_exactly_and_lists_a_family(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(TWO), "--at", "2", "--format", "json"])
    data = json.loads(result.stdout)
    # 8 units in play, each at b1, at b2 or out: 3 ** 8
    assert (data["kind"], data["total"], data["total_exact"]) == ("armies", 6561, True)
    assert data["decisions"][0] == "armies"
    assert "armies a1@b1 a2@b2 a3@b1 a4@b2 d1@b1 d2@b2 d3@b1 d9@b2" in data["decisions"]


def test_next_after_an_action_awaits_its_resolution(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(TWO), "--at", "6"])
    assert result.stdout.splitlines() == [
        "seq 6 · turn 1: p2 to decide (resolve); showing 1 of ≥ 1 legal:",
        "  resolve bow:a1 (a1 PERSONALITY, Force 4)",
    ]


def test_next_at_the_battlefield_choice(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(TWO), "--at", "3"])
    assert result.stdout.splitlines() == [
        "seq 3 · turn 1: p1 to decide (battlefield); 2 legal:",
        "  battle b1",
        "  battle b2",
    ]


# -- the notation ------------------------------------------------------------------------------


def test_the_capability_is_the_games() -> None:
    assert decisions_of(GAME, "next") is capability
    assert "act CARD ACTION [from UNIT] [on CARD...] [bring UNIT...]" in capability.syntax()


def test_a_line_of_the_notation_reads_as_its_event() -> None:
    events = _events(TWO)
    rs, s = events[0].ruleset, _board(events[:5])
    assert capability.parse(rs, s, "act k1 bow from d1 on a1") == [events[5]]
    assert capability.parse(rs, s, "pass") == [OpportunityPassed(player="p2")]
    assert capability.parse(rs, s, "p1: pass") == [OpportunityPassed(player="p1")]
    assert capability.parse(rs, s, '{"type":"opportunity_passed","player":"p2"}') == [
        OpportunityPassed(player="p2")
    ]
    assert capability.parse(rs, _board(events[:6]), "resolve bow:a1") == [events[6]]
    assert capability.parse(rs, _board(events[:2]), events_words(events[2])) == [events[2]]


def events_words(event: Any) -> str:
    return " ".join(["armies", *(f"{a.unit}@{a.battlefield}" for a in event.assignments)])


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("bow k1", "unknown verb 'bow'"),
        ("pas", "unknown verb 'pas'; did you mean 'pass'?"),
        ("act k11 bow", "unknown card 'k11'; did you mean 'k1'?"),
        ("act k1", "decision 'act k1': the syntax is act CARD ACTION [from UNIT] [on CARD...] "
                   "[bring UNIT...]"),
        ("act k1 bow at a1", "'at' is not one of from, on, bring"),
        ("pass now", "'pass' takes no words"),
        ("p3: pass", "no player 'p3' in this match (players: p1, p2)"),
        ("resolve bow:a1", "no action awaits its resolution"),
        ('{"type":"opportunity_passed"}', "decision '{\"type\":\"opportunity_passed\"}': "
                                          "field 'opportunity_passed.player': field required"),
    ],
)  # fmt: skip
def test_a_line_that_cannot_be_read_is_one_usage_error(line: str, said: str) -> None:
    events = _events(TWO)
    with pytest.raises(UsageError) as err:
        capability.parse(events[0].ruleset, _board(events[:5]), line)
    assert str(err.value) == said
    assert "\n" not in str(err.value)


def test_check_cites_the_rule_an_illegal_decision_breaks() -> None:
    events = _events(TWO)
    rs, s = events[0].ruleset, _board(events[:5])
    first = capability.check(rs, s, capability.parse(rs, s, "p1: pass")[0])
    assert [v.rule for v in first] == ["L5R-CMB-1"]
    muster = capability.parse(rs, s, "act k3 muster")[0]
    assert [v.rule for v in capability.check(rs, s, muster)] == ["L5R-CMB-4"]
    with pytest.raises(IllegalEventError) as err:
        capability.play(rs, s, muster)
    assert "L5R-CMB-4" in str(err.value)


def test_an_action_awaiting_its_resolution_is_not_whole() -> None:
    events = _events(TWO)
    rs = events[0].ruleset
    assert not capability.whole(rs, _board(events[:6]))
    after, played = capability.play(rs, _board(events[:5]), events[5])
    assert played == events[5:7]  # the action and its resolution
    assert capability.whole(rs, after)


# -- 200 generated records ---------------------------------------------------------------------


def test_every_decision_of_a_record_is_legal_at_its_position_and_reads_back() -> None:
    listed = outside = 0
    for seed in range(200):
        events = generate(seed)
        rs: L5rRuleset = events[0].ruleset
        s = evolve(Board(), events[0])
        for e in events[1:]:
            if _played(e):
                exp = expect(rs, s)
                player = exp.player or getattr(e, "player", None) or e.attacker
                family, total, exact = capability.decisions(rs, s, player, exp.kind)
                if e in family:
                    listed += 1
                else:  # a combinatorial choice, outside the bounded family
                    assert exact, (seed, e)
                    assert total > len(family), (seed, e)
                    assert capability.check(rs, s, e) == (), (seed, e)
                    outside += 1
                words = format_decision(rs, s, e)
                assert not words.startswith("{"), (seed, words)
                assert capability.parse(rs, s, words) == [e], (seed, words)
            s = evolve(s, e)
    # every decision but most armies is listed; the armies are counted exactly
    assert listed > 2500
    assert 0 < outside <= 400


def test_every_listed_decision_is_legal() -> None:
    positions = 0
    for seed in range(0, 200, 5):
        events = generate(seed)
        rs = events[0].ruleset
        s = evolve(Board(), events[0])
        for e in events[1:]:
            exp = expect(rs, s)
            if exp.player is not None:
                positions += 1
                said, total, _ = capability.legal(rs, s, exp.player, exp.kind)
                assert 0 < len(said) <= capability.LISTED
                assert total >= len(said)
                for line in said:
                    (decision,) = capability.parse(rs, s, line)
                    assert capability.check(rs, s, decision) == (), (seed, line)
            s = evolve(s, e)
    assert positions > 300


def test_playing_a_records_decisions_reproduces_the_record() -> None:
    for seed in range(200):
        events = generate(seed)
        rs = events[0].ruleset
        s = evolve(Board(), events[0])
        played = [events[0]]
        for e in events[1:]:
            if _played(e):
                s, applied = capability.play(rs, s, e)
                played += applied
        assert played == events, seed


# -- choosing --------------------------------------------------------------------------------


def _chosen_match(start: list[Any], policy: str, seed: int, turns: int = 2) -> list[Any]:
    """The events a policy plays from ``start`` (a match start): ``turns`` Attack phases,
    the players attacking in turn, each played until no decision is awaited."""
    rng = random.Random(seed)
    rs = start[0].ruleset
    s = _board(start)
    events = list(start)
    for turn in range(turns):
        attacker = s.players[turn % 2]
        s, applied = capability.play(rs, s, capability.parse(rs, s, f"phase {attacker}")[0])
        events += applied
        for _ in range(500):
            player = expect(rs, s).player
            decision = capability.choose(rs, s, player, rng, policy) if player else None
            if decision is None:
                break
            s, applied = capability.play(rs, s, decision)
            events += applied
        assert isinstance(events[-1], AttackPhaseEnded), events[-1]
    return events


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_a_policy_plays_attack_phases_to_their_end_without_a_violation(policy: str) -> None:
    acted = 0
    for seed in range(40):
        events = _chosen_match(generate(seed)[:1], policy, seed)
        assert _violations(events) == [], (policy, seed)
        acted += sum(isinstance(e, BattleActionTaken) for e in events)
    sample = _chosen_match(_events(TWO)[:1], policy, 1)
    assert _violations(sample) == []
    assert acted > 0  # the policy takes Battle actions, not only passes


def test_nobody_is_chosen_for_between_attack_phases() -> None:
    events = _events(TWO)
    s = _board(events)
    assert expect(events[0].ruleset, s).kind == "turn"
    assert capability.choose(events[0].ruleset, s, "p1", random.Random(0), "greedy") is None
