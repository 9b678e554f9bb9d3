"""``vwlog next`` and ``vwlog play`` speak to a person: cards by name beside their ids, an
honest count where a combinatorial choice lists a bounded family, forks and play on a plain log
file, exit 1 for a refused decision, and "did you mean" for a typo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main

if TYPE_CHECKING:
    from click.testing import CliRunner, Result

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SAMPLE = SAMPLES / "full-combat.jsonl"
HAND_SEQ = 19
"""A priority point of the sample where p1 may pay for any of five cards in hand (three of
them Militia Spearmen) or for the skill of the Territory in play."""
COMBAT_SEQ = 40
"""A priority point in combat (p1 holds priority, with a skill to use)."""


def one_error_line(result: Result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return lines[0]


@pytest.fixture
def fork(tmp_path: Path, runner: CliRunner) -> Path:
    """A fork of the sample at `HAND_SEQ`, as a log file of its own."""
    out = tmp_path / "what-if.jsonl"
    made = runner.invoke(main, ["fork", str(SAMPLE), "--at", str(HAND_SEQ), "-o", str(out)])
    assert made.exit_code == 0, made.stderr
    return out


# -- cards by name -----------------------------------------------------------------------------


def test_next_names_the_cards_each_decision_names(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(SAMPLE), "--at", str(HAND_SEQ)])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "  pay p1-002 (Marauder Captain)" in lines
    assert "  pay p1-001 s1 (Blackfang Fortress)" in lines
    assert "  pass" in lines  # a decision that names no card is left as it is


def test_next_json_keeps_the_notation_and_adds_the_names(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(SAMPLE), "--at", str(HAND_SEQ), "--format", "json"])
    data = json.loads(result.stdout)
    assert "pay p1-002" in data["decisions"]  # what 'vwlog play' takes, unchanged
    assert data["cards"]["p1-002"] == "Marauder Captain"
    assert data["cards"]["p1-001"] == "Blackfang Fortress"


def test_several_cards_are_named_each_after_its_id(runner: CliRunner) -> None:
    sample = SAMPLES / "generated-tag-team-4.jsonl"
    result = runner.invoke(main, ["next", str(sample), "--at", "2306"])
    assert result.stdout.splitlines()[1] == (
        "  damage p1-004:p2-007:3 p1-004:p2-004:2 "
        "(p1-004 Siege Ogre; p2-007 Knight Lancer; p2-004 Ironwall Keep)"
    )


def test_a_card_name_from_a_record_is_escaped_for_the_terminal(
    runner: CliRunner, tmp_path: Path
) -> None:
    crafted = tmp_path / "crafted.jsonl"
    crafted.write_text(
        SAMPLE.read_text().replace(
            '"name":"Marauder Captain"', '"name":"Marauder\\u001b[2J\\nCaptain"'
        )
    )
    result = runner.invoke(main, ["next", str(crafted), "--at", str(HAND_SEQ)])
    assert "  pay p1-002 (Marauder\\x1b[2J\\x0aCaptain)" in result.stdout.splitlines()
    assert "\x1b" not in result.stdout


def test_play_reads_a_card_name_that_singles_one_card_out(runner: CliRunner, fork: Path) -> None:
    played = runner.invoke(main, ["play", str(fork), "pay marauder-captain"])
    assert played.exit_code == 0, played.stderr
    after = json.loads(runner.invoke(main, ["next", str(fork), "--format", "json"]).stdout)
    assert after["kind"] == "registration"
    assert after["decisions"] == ["summon p1-002 p1-001"]


def test_a_card_name_several_cards_have_is_refused_naming_them(
    runner: CliRunner, fork: Path
) -> None:
    result = runner.invoke(main, ["play", str(fork), "pay Militia-Spearman"])
    assert result.exit_code == 2
    assert "card name 'Militia-Spearman' is ambiguous: write one of p1-004, p1-005, p1-006" in (
        one_error_line(result)
    )


# -- an honest count ---------------------------------------------------------------------------


def test_next_says_how_many_of_how_many_legal_it_shows(runner: CliRunner) -> None:
    """A damage distribution is listed as a representative family: the count says so."""
    sample = SAMPLES / "generated-tag-team-4.jsonl"
    text = runner.invoke(main, ["next", str(sample), "--at", "2306"])
    assert text.stdout.splitlines()[0] == (
        "seq 2306 · turn 23 · COMBAT: p1 to decide (damage); showing 1 of 3 legal:"
    )
    data = json.loads(
        runner.invoke(main, ["next", str(sample), "--at", "2306", "--format", "json"]).stdout
    )
    assert (len(data["decisions"]), data["total"], data["total_exact"]) == (1, 3, True)


def test_a_complete_list_is_counted_as_it_was(runner: CliRunner) -> None:
    result = runner.invoke(main, ["next", str(SAMPLE), "--at", str(COMBAT_SEQ), "--format", "json"])
    data = json.loads(result.stdout)
    assert (len(data["decisions"]), data["total"], data["total_exact"]) == (2, 2, True)


def _many_attackers(log: Path) -> tuple[int, int]:
    """The first seq after which a player chooses attackers among more than 12 Followers
    (2**13 subsets: more than `count_legal` checks), and how many Followers."""
    from vwlog.io.logfile import open_log
    from vwlog.projections import INITIAL, evolve
    from vwlog.rules import expect
    from vwlog.rules.common import attack_candidates
    from vwlog.rules.flow import DecisionKind

    state = INITIAL
    with open_log(log) as reader:
        for _line_no, _raw, record in reader.lines():
            state = evolve(state, record.event)
            rs = state.ruleset
            if rs is None or state.over:
                continue
            exp = expect(rs, state)
            if exp.kind == DecisionKind.ATTACKERS and exp.player is not None:
                n = len(attack_candidates(rs, state, exp.player))
                if n > 12:
                    return record.seq, n
    raise AssertionError("no choice of attackers among more than 12 Followers")


@pytest.mark.slow
def test_a_space_too_large_to_check_is_counted_as_a_lower_bound(
    runner: CliRunner, tmp_path: Path
) -> None:
    """More than 12 Followers that may attack: more subsets than `count_legal` checks."""
    log = tmp_path / "long.jsonl"
    made = runner.invoke(
        main,
        [
            "simulate",
            *("--seed", "5", "--max-turns", "60", "--policy", "random", "-o", str(log)),
            *("--set", "victory_vp=1000", "--set", "victory_honor=1000000"),
            *("--set", "victory_territories=1000"),
        ],
    )
    assert made.exit_code == 0, made.stderr
    seq, followers = _many_attackers(log)
    text = runner.invoke(main, ["next", str(log), "--at", str(seq)])
    first = text.stdout.splitlines()[0]
    shown = 2 + 2 * followers  # none, all, each one, all but one
    assert first.endswith(f"(attackers); showing {shown} of ≥ 4,096 legal:"), first
    data = json.loads(
        runner.invoke(main, ["next", str(log), "--at", str(seq), "--format", "json"]).stdout
    )
    assert (len(data["decisions"]), data["total"], data["total_exact"]) == (shown, 4096, False)


# -- forks and play on a log file --------------------------------------------------------------


def test_a_log_file_is_forked_into_a_log_file_of_its_own(
    runner: CliRunner, tmp_path: Path, fork: Path
) -> None:
    header = json.loads(fork.read_text().splitlines()[0])
    assert header["match_id"] == "sample-full-combat~19"
    verified = runner.invoke(main, ["verify", str(fork)])
    assert f"{fork}: chain intact · 20 records" in verified.stdout  # a fork is not sealed
    on_stdout = runner.invoke(main, ["fork", str(SAMPLE), "--at", str(HAND_SEQ)])
    assert on_stdout.stdout.encode() == fork.read_bytes()
    assert list(tmp_path.iterdir()) == [fork]  # no store was made


def test_play_on_a_log_file_appends_to_it(runner: CliRunner, fork: Path) -> None:
    before = fork.read_bytes()
    played = runner.invoke(main, ["play", str(fork), "pass"])
    assert played.exit_code == 0, played.stderr
    assert played.stdout == f"{fork}: 1 decision, 1 event appended; head seq 21\n"
    after = fork.read_bytes()
    assert after.startswith(before)
    assert after.count(b"\n") == before.count(b"\n") + 1
    assert "chain intact · 21 records" in runner.invoke(main, ["verify", str(fork)]).stdout


def test_play_on_a_log_file_can_write_elsewhere(
    runner: CliRunner, fork: Path, tmp_path: Path
) -> None:
    before = fork.read_bytes()
    out = tmp_path / "line.jsonl"
    played = runner.invoke(main, ["play", str(fork), "pass", "-o", str(out)])
    assert played.exit_code == 0, played.stderr
    assert fork.read_bytes() == before
    assert out.read_bytes().startswith(before)


def test_a_name_that_is_neither_file_nor_match_is_one_line_with_a_hint(
    runner: CliRunner, tmp_path: Path
) -> None:
    store = str(tmp_path / "club.db")
    assert runner.invoke(main, ["--store", store, "import", "-q", str(SAMPLE)]).exit_code == 0
    result = runner.invoke(main, ["--store", store, "fork", "sample-full-combt", "--at", "19"])
    assert result.exit_code == 2
    assert one_error_line(result) == (
        "Error: sample-full-combt: no such log file, and no stored match 'sample-full-combt' "
        "(see 'vwlog list'); did you mean 'sample-full-combat'?"
    )


# -- exit status -------------------------------------------------------------------------------


def test_a_refused_decision_exits_1_and_changes_nothing(runner: CliRunner, fork: Path) -> None:
    before = fork.read_bytes()
    assert runner.invoke(main, ["play", str(fork), "pay p1-002"]).exit_code == 0
    paid = fork.read_bytes()
    # a second summon before the first is registered breaks R-MAIN-4
    result = runner.invoke(main, ["play", str(fork), "summon p1-002 p1-001", "pay p1-003"])
    assert result.exit_code == 1
    assert "R-MAIN-4" in one_error_line(result)
    assert fork.read_bytes() == paid != before


def test_a_decision_that_cannot_be_read_exits_2(runner: CliRunner, fork: Path) -> None:
    result = runner.invoke(main, ["play", str(fork), "damage p1-002:x"])
    assert result.exit_code == 2
    assert "is not SOURCE:RECIPIENT:AMOUNT" in one_error_line(result)


# -- did you mean ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decision", "said"),
    [
        ("psas", "unknown decision 'psas'; did you mean 'pass'? (see 'vwlog play --help')"),
        ("pay p1-0002", "unknown card 'p1-0002'; did you mean 'p1-002'?"),
        ("P1: pass", "no player 'P1' in this match (players: p1, p2); did you mean 'p1'?"),
        ("pay p1-001 s", "p1-001 has no skill 's'; did you mean 's1'?"),
    ],
    ids=["verb", "card", "player", "skill"],
)
def test_a_typo_gets_did_you_mean(runner: CliRunner, fork: Path, decision: str, said: str) -> None:
    result = runner.invoke(main, ["play", str(fork), decision])
    assert result.exit_code == 2
    assert said in one_error_line(result)


def test_a_seat_of_the_service_names_cards_by_id_only() -> None:
    """The service reads a seat's words without names: how a name is read (one card, several,
    none) could tell a player what the hidden zones hold."""
    from vwlog.engine.seek import state_at
    from vwlog.games.vw.notation import DecisionSyntaxError, parse_decision
    from vwlog.io.logfile import open_log

    with open_log(str(SAMPLE)) as reader:
        state = state_at((record for _no, _raw, record in reader.lines()), HAND_SEQ)
    assert state.ruleset is not None
    (paid,) = parse_decision("pay marauder-captain", state.ruleset, state)
    assert paid.card == "p1-002"  # type: ignore[union-attr]
    with pytest.raises(DecisionSyntaxError, match="unknown card 'marauder-captain'"):
        parse_decision("pay marauder-captain", state.ruleset, state, by_name=False)
