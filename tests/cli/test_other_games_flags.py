"""``--set FLAG=VALUE`` and ``--ruleset FILE`` judge a WoW TCG, L5R or miniatures log under
another reading of its own game's flags, through the real command line: the verdict changes,
every output says it holds under house rules, and a flag or a file of another game is one
line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from vwlog.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "samples"

# (log, flag, value, the rule the log breaks under one reading, whether by default)
CASES = [
    ("wowtcg/hand-limit-and-inspire.jsonl", "max_hand_size", 3, "WOW-END-4", False),
    ("wowtcg/illegal-hand-limit.jsonl", "max_hand_size", 8, "WOW-END-4", True),
    ("l5r/illegal_phase_ends_early.jsonl", "battles_owed", "AS_CHOSEN", "L5R-BTL-6", True),
    ("minis/legal_one_round.jsonl", "activations_per_turn", "ONCE", "MIN-PHS-5", False),
]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--lang", "en", *args])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def _violations(log: str, *options: str) -> tuple[list[str], dict[str, object]]:
    code, out, err = _run("validate", "--format", "json", str(SAMPLES / log), *options)
    assert code in (0, 1, 3), err
    [report] = json.loads(out)
    return [v["rule"] for v in report["violations"]], report


@pytest.mark.parametrize(("log", "flag", "value", "rule", "by_default"), CASES)
def test_set_changes_the_verdict_and_says_so(
    log: str, flag: str, value: object, rule: str, by_default: bool
) -> None:
    setting = f"{flag}={value}"
    default, report = _violations(log)
    assert (rule in default) is by_default
    assert report["house_rules"] == {}
    under, report = _violations(log, "--set", setting)
    assert (rule in under) is not by_default
    assert report["house_rules"] == {flag: value}
    assert f"with house rules {setting}" in str(report["integrity"]["ruleset"])  # type: ignore[index]
    _, out, _ = _run("validate", str(SAMPLES / log), "--set", setting)
    first = out.splitlines()[0]
    assert first.endswith(f"judged under house rules ({setting})"), first


def test_a_ruleset_file_of_the_logs_game_replaces_its_own(tmp_path: Path) -> None:
    file = tmp_path / "house.json"
    file.write_text(json.dumps({"max_hand_size": 3}))
    log = "wowtcg/hand-limit-and-inspire.jsonl"
    assert "WOW-END-4" not in _violations(log)[0]
    under, report = _violations(log, "--ruleset", str(file))
    assert "WOW-END-4" in under
    assert report["house_rules"] == {"max_hand_size": 3}
    code, out, _ = _run("replay", str(SAMPLES / log), "--ruleset", str(file))
    assert code == 1
    assert "!! WOW-END-4 ana holds 9 cards: discarding 2 does not leave 3" in out
    # the same file given to a Vandaria Wars log: not its game's ruleset, one line
    code, _, err = _run("validate", str(SAMPLES / "full-combat.jsonl"), "--ruleset", str(file))
    assert code == 2
    assert err.splitlines() == [
        f"Error: {file}, field 'max_hand_size': extra inputs are not permitted"
    ]


def test_a_ruleset_file_of_no_game_is_refused_before_any_log_is_read(tmp_path: Path) -> None:
    file = tmp_path / "none.json"
    file.write_text(json.dumps({"no_such_flag": 1}))
    code, out, err = _run(
        "validate", str(SAMPLES / "wowtcg" / "extra-turn.jsonl"), "--ruleset", str(file)
    )
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"Error: {file}, field 'no_such_flag': extra inputs are not permitted"
    ]


@pytest.mark.parametrize(
    ("log", "setting"),
    [
        ("wowtcg/extra-turn.jsonl", "attack_target_mode=SINGLE"),  # Vandaria Wars' flag
        ("full-combat.jsonl", "max_hand_size=3"),  # WoW TCG's flag
        ("l5r/legal_tie.jsonl", "max_hand_size=3"),
    ],
)
def test_a_flag_of_another_game_is_one_line(log: str, setting: str) -> None:
    flag = setting.partition("=")[0]
    for command in ("validate", "replay", "report"):
        code, _, err = _run(command, str(SAMPLES / log), "--set", setting)
        assert code == 2, (command, err)
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1, err
        assert f"no ruleset flag '{flag}'" in lines[0]


def test_a_flag_no_game_has_is_refused_as_before() -> None:
    code, out, err = _run(
        "validate", str(SAMPLES / "l5r" / "legal_tie.jsonl"), "--set", "nonsense=1"
    )
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "Error: --set 'nonsense=1': no ruleset flag 'nonsense' (see 'vwlog rules --flags')"
    ]


@pytest.mark.parametrize("command", ["replay", "report", "show", "next"])
def test_the_other_commands_judge_under_the_reading(command: str) -> None:
    if command in ("replay", "report"):
        log = str(SAMPLES / "l5r" / "illegal_phase_ends_early.jsonl")
        _, before, _ = _run(command, log)
        _, after, _ = _run(command, log, "--set", "battles_owed=AS_CHOSEN")
        assert "L5R-BTL-6" in before
        assert "L5R-BTL-6" not in after.replace("battles_owed", "")
        return
    # show and next say nothing of L5R's battles_owed; a WoW TCG hand limit they do say
    log = str(SAMPLES / "wowtcg" / "hand-limit-and-inspire.jsonl")
    code, before, _ = _run(command, log)
    assert code == 0
    code, after, _ = _run(command, log, "--set", "max_hand_size=3")
    assert code == 0
    if command == "show":
        assert "hand 8 (max 7)" in before
        assert "hand 8 (max 3)" in after
    else:
        assert "discard d2.1\n" in before
        assert "discard d2.1,d2.2,d2.3,d2.4,d2.5" in after
