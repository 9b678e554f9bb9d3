"""``vwlog fork`` at an L5R opportunity, then ``vwlog play`` on the fork through the real command
line: decisions in L5R's notation appended with the consequences the rules compute (the
action's resolution, the Resolution's Force totals, destruction and honor), an illegal decision
refused citing its L5R-* rule with nothing stored, and ``--auto`` playing the Attack phase to
its end without a violation; the same on a stored match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from vwlog.cli import main

if TYPE_CHECKING:
    from click.testing import CliRunner, Result

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "l5r" / "legal_two_battlefields.jsonl"
OPPORTUNITY = 5
"""Battle 1 at b1 has begun: the defender p2 has the first opportunity."""


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line)["event"] for line in path.read_text().splitlines()[1:]]


def _verdict(runner: CliRunner, path: Path) -> dict[str, Any]:
    done = runner.invoke(main, ["validate", "--format", "json", str(path)])
    report: dict[str, Any] = json.loads(done.stdout)[0]
    return report


def _one_error_line(result: Result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), result.stderr
    return lines[0]


@pytest.fixture
def fork(tmp_path: Path, runner: CliRunner) -> Path:
    """A fork of the sample at the first opportunity of its first battle, as a log file."""
    out = tmp_path / "what-if.jsonl"
    made = runner.invoke(main, ["fork", str(SAMPLE), "--at", str(OPPORTUNITY), "-o", str(out)])
    assert made.exit_code == 0, made.stderr
    return out


def test_a_fork_at_an_opportunity_awaits_the_defender(runner: CliRunner, fork: Path) -> None:
    header = json.loads(fork.read_text().splitlines()[0])
    assert (header["game"], header["match_id"]) == ("l5r", "legal_two_battlefields~5")
    assert _events(fork)[-1] == {"type": "match_forked", "parent": "legal_two_battlefields",
                                 "at": OPPORTUNITY}  # fmt: skip
    awaited = runner.invoke(main, ["next", str(fork), "--format", "json"])
    assert json.loads(awaited.stdout)["player"] == "p2"


def test_play_appends_the_decisions_and_what_the_rules_compute(
    runner: CliRunner, fork: Path
) -> None:
    played = runner.invoke(main, ["play", str(fork), "act k1 bow from d1 on a1", "pass", "pass"])
    assert played.exit_code == 0, played.stderr
    assert played.stdout == f"{fork}: 3 decisions, 9 events appended; head seq 15\n"
    assert _events(fork)[6:] == [
        {"type": "battle_action_taken", "player": "p2", "card": "k1", "ability": "bow",
         "source_unit": "d1", "targets": ["a1"], "brings": []},
        {"type": "battle_action_resolved", "card": "k1", "ability": "bow",
         "effects": [{"kind": "unit_bowed", "unit": "a1", "delta": 0}]},
        {"type": "opportunity_passed", "player": "p1"},
        {"type": "opportunity_passed", "player": "p2"},
        # a1 bowed: the attacker's Force is 0, the defender's 2; a1 and its attachment fall
        {"type": "resolution_started", "battle": 1, "attacker_force": 0, "defender_force": 2},
        {"type": "army_destroyed", "battle": 1, "side": "ATTACKER", "cards": ["a1", "sw"]},
        {"type": "honor_gained", "player": "p2", "amount": 4, "cards_destroyed": 2},
        {"type": "resolution_ended", "battle": 1},
        {"type": "battle_ended", "battle": 1},
    ]  # fmt: skip
    report = _verdict(runner, fork)
    assert (report["violations"], report["events"]) == ([], 15)
    awaited = json.loads(runner.invoke(main, ["next", str(fork), "--format", "json"]).stdout)
    assert (awaited["kind"], awaited["decisions"]) == ("battlefield", ["battle b2"])


@pytest.mark.parametrize(
    ("before", "decision", "rule"),
    [
        ([], "p1: pass", "L5R-CMB-1"),  # the defender has the first opportunity
        ([], "act k3 muster", "L5R-CMB-4"),  # not a Battle action
        (["act k1 bow from d1 on a1"], "p2: pass", "L5R-CMB-2"),  # opportunities alternate
        (["pass"], "act r1 strike on d2", "L5R-CMB-6"),  # d2 fights at b2, not at b1
    ],
)
def test_an_illegal_decision_is_refused_citing_its_rule_and_nothing_is_stored(
    runner: CliRunner, fork: Path, before: list[str], decision: str, rule: str
) -> None:
    stored = fork.read_bytes()
    result = runner.invoke(main, ["play", str(fork), *before, decision])
    assert result.exit_code == 1
    assert f": {rule} " in _one_error_line(result)
    assert fork.read_bytes() == stored  # not even the legal decisions before it


def test_a_line_that_cannot_be_read_is_one_line_exit_2(runner: CliRunner, fork: Path) -> None:
    before = fork.read_bytes()
    result = runner.invoke(main, ["play", str(fork), "pas"])
    assert result.exit_code == 2
    assert _one_error_line(result).endswith("unknown verb 'pas'; did you mean 'pass'?")
    assert fork.read_bytes() == before


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_auto_plays_the_attack_phase_to_its_end_without_a_violation(
    runner: CliRunner, fork: Path, policy: str
) -> None:
    played = runner.invoke(
        main, ["play", str(fork), "--auto", "200", "--policy", policy, "--seed", "3"]
    )
    assert played.exit_code == 0, played.stderr
    events = _events(fork)
    assert events[-1] == {"type": "attack_phase_ended", "turn": 1}
    assert [e["battle"] for e in events if e["type"] == "battle_started"] == [1, 2]
    report = _verdict(runner, fork)
    assert report["violations"] == []
    assert report["events"] == len(events)
    # between Attack phases nobody's decision is awaited: --auto stops there
    again = runner.invoke(main, ["play", str(fork), "--auto", "5"])
    assert again.stdout == f"{fork}: 0 decisions, 0 events appended; head seq {len(events)}\n"


def test_the_next_attack_phase_is_played_in_the_notation(runner: CliRunner, fork: Path) -> None:
    assert runner.invoke(main, ["play", str(fork), "--auto", "200"]).exit_code == 0
    assert runner.invoke(main, ["play", str(fork), "phase p2"]).exit_code == 0
    assert _events(fork)[-1] == {
        "type": "attack_phase_started", "turn": 2, "attacker": "p2", "defender": "p1"
    }  # fmt: skip
    awaited = json.loads(runner.invoke(main, ["next", str(fork), "--format", "json"]).stdout)
    assert (awaited["player"], awaited["kind"]) == ("p2", "armies")
    for listed in awaited["decisions"]:  # every listed declaration plays as it is written
        played = runner.invoke(main, ["play", str(fork), listed, "-o", "-"])
        assert played.exit_code == 0, (listed, played.stderr)
    chosen = awaited["decisions"][-1]
    assert runner.invoke(main, ["play", str(fork), chosen, "--auto", "200"]).exit_code == 0
    assert _events(fork)[-1] == {"type": "attack_phase_ended", "turn": 2}
    assert _verdict(runner, fork)["violations"] == []


def test_play_on_a_stored_fork(runner: CliRunner, tmp_path: Path) -> None:
    store = ["--store", str(tmp_path / "club.db")]
    assert runner.invoke(main, [*store, "import", "-q", str(SAMPLE)]).exit_code == 0
    made = runner.invoke(
        main, [*store, "fork", "legal_two_battlefields", "--at", "5", "--name", "bow"]
    )
    assert made.exit_code == 0, made.stderr
    refused = runner.invoke(main, [*store, "play", "legal_two_battlefields~bow", "p1: pass"])
    assert refused.exit_code == 1
    assert "L5R-CMB-1" in _one_error_line(refused)
    played = runner.invoke(
        main, [*store, "play", "legal_two_battlefields~bow", "act k2 reinforce bring d9"]
    )
    assert played.exit_code == 0, played.stderr
    awaited = runner.invoke(main, [*store, "next", "legal_two_battlefields~bow"])
    assert awaited.stdout.splitlines()[0].startswith("seq 8 · turn 1: p1 to decide (opportunity)")


def test_every_opportunity_is_a_fork_point_a_policy_plays_on(
    runner: CliRunner, tmp_path: Path
) -> None:
    listed = runner.invoke(main, ["replay", "--priority-points", "--format", "json", str(SAMPLE)])
    points = [(p["seq"], p["player"]) for p in json.loads(listed.stdout)]
    assert [seq for seq, _ in points] == [5, 7, 8, 16, 17, 19, 20]  # every opportunity
    for seq, player in points:
        out = tmp_path / f"at-{seq}.jsonl"
        made = runner.invoke(main, ["fork", str(SAMPLE), "--at", str(seq), "-o", str(out)])
        assert made.exit_code == 0, made.stderr
        awaited = json.loads(runner.invoke(main, ["next", str(out), "--format", "json"]).stdout)
        assert (awaited["player"], awaited["kind"]) == (player, "opportunity")
        played = runner.invoke(main, ["play", str(out), "--auto", "200", "--policy", "random"])
        assert played.exit_code == 0, played.stderr
        assert _events(out)[-1] == {"type": "attack_phase_ended", "turn": 1}
        assert _verdict(runner, out)["violations"] == [], seq
    # a position that is no opportunity is no fork point
    refused = runner.invoke(main, ["fork", str(SAMPLE), "--at", "6", "-o", str(tmp_path / "x")])
    assert refused.exit_code == 2
    assert "is not a fork point" in _one_error_line(refused)


def test_a_rebase_replays_the_parents_decisions_with_the_computed_consequences(
    runner: CliRunner, tmp_path: Path
) -> None:
    store = ["--store", str(tmp_path / "club.db")]
    assert runner.invoke(main, [*store, "import", "-q", str(SAMPLE)]).exit_code == 0
    assert runner.invoke(
        main, [*store, "fork", "legal_two_battlefields", "--at", "5", "--name", "same"]
    ).exit_code == 0  # fmt: skip
    rebased = runner.invoke(main, [*store, "rebase", "legal_two_battlefields~same"])
    assert rebased.exit_code == 0, rebased.stderr
    assert rebased.stdout == (
        "legal_two_battlefields~same: re-applied 8 of 8 parent decisions "
        "(24 events appended; head seq 30)\n"
    )
    out = tmp_path / "same.jsonl"
    exported = runner.invoke(
        main, [*store, "export", "legal_two_battlefields~same", "-o", str(out)]
    )
    assert exported.exit_code == 0, exported.stderr
    events = _events(out)
    assert events[5]["type"] == "match_forked"
    assert events[6:] == _events(SAMPLE)[5:]  # the parent's, resolutions and Resolutions alike
    # a decision the fork made first breaks the parent's next: the rebase stops there, citing it
    assert runner.invoke(
        main, [*store, "fork", "legal_two_battlefields", "--at", "16", "--name", "bow"]
    ).exit_code == 0  # fmt: skip
    assert runner.invoke(
        main, [*store, "play", "legal_two_battlefields~bow", "act k1 bow from d2 on a2"]
    ).exit_code == 0  # fmt: skip
    stopped = runner.invoke(main, [*store, "rebase", "legal_two_battlefields~bow"])
    assert stopped.exit_code == 1
    assert "L5R-CMB-2 the opportunity is p1's, not p2's" in stopped.stdout
