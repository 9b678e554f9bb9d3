"""The specific usage errors: each is a `UsageError` (old ``except`` sites keep working), says
what is wrong without naming a command-line flag, and survives pickling (worker processes
send errors back to the parent)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.cli.errors import cli_message
from vwlog.model import errors
from vwlog.model.errors import (
    DecisionSyntaxError,
    ForkNameError,
    InvalidParameterError,
    MatchNotStartedError,
    MatchOverError,
    NoDecisionAwaitedError,
    NotAForkError,
    NotAPriorityPointError,
    NotPlayableError,
    ParentNotStoredError,
    RulesetFileError,
    RulesetOverrideError,
    SeqOutOfRangeError,
    SourceNotFoundError,
    StoredSeqOutOfRangeError,
    UnknownCardError,
    UnknownFlagError,
    UnknownPlayerError,
    UnknownVerbError,
    UsageError,
    VwlogError,
)

SAMPLE = Path(__file__).parent.parent / "samples" / "first-turn-supply.jsonl"

EXAMPLES: list[tuple[UsageError, str]] = [
    (
        DecisionSyntaxError("blocks p2", "missing words", "blocks BLOCKER:ATTACKER..."),
        "decision 'blocks p2': missing words (the syntax is 'blocks BLOCKER:ATTACKER...')",
    ),
    (UnknownVerbError("fly p1-001", "fly"), "unknown decision 'fly'"),
    (
        NoDecisionAwaitedError(),
        "no decision is awaited now (the match is over or not started)",
    ),
    (MatchOverError("m1", "p2"), "match 'm1' is over (won by p2)"),
    (MatchNotStartedError("m1"), "match 'm1' has not started"),
    (
        NotPlayableError("match_forked", "a fork is made from a stored match"),
        "match_forked is not played: a fork is made from a stored match",
    ),
    (
        NotAPriorityPointError("m1", 7, 5, 9),
        "seq 7 of 'm1' is not a priority point (nearest: seq 5, seq 9)",
    ),
    (
        NotAPriorityPointError("m1", 7),
        "seq 7 of 'm1' is not a priority point (nearest: none nearby)",
    ),
    (
        SeqOutOfRangeError("'a.jsonl'", 99, 1, 12),
        "no event with seq 99 in 'a.jsonl' (its seqs run 1..12)",
    ),
    (
        SeqOutOfRangeError("'a.jsonl'", 3, None, None),
        "no event with seq 3 in 'a.jsonl': it has no events",
    ),
    (StoredSeqOutOfRangeError("m1", 13, 12), "match 'm1' has events 1 to 12; no seq 13"),
    (
        RulesetOverrideError("victory_vp", "not FLAG=VALUE"),
        "ruleset override 'victory_vp': not FLAG=VALUE",
    ),
    (
        RulesetFileError("rs.json", "input should be a valid integer", "victory_vp"),
        "rs.json, field 'victory_vp': input should be a valid integer",
    ),
    (
        UnknownPlayerError("p9", ("p1", "p2")),
        "no player 'p9' in this match (players: p1, p2)",
    ),
    (
        UnknownPlayerError("p9"),
        "no player 'p9' in this match (players: none, the match has not started)",
    ),
    (UnknownCardError("p1-999"), "unknown card 'p1-999'"),
    (UnknownCardError("p1-001", "s9"), "p1-001 has no skill 's9'"),
    (SourceNotFoundError("x.jsonl"), "x.jsonl: no such log file or stored match"),
    (NotAForkError("m1"), "match 'm1' is not a fork (it records no parent)"),
    (ParentNotStoredError("m1~a", "m1"), "the parent 'm1' of fork 'm1~a' is not stored"),
    (ForkNameError("a b", "use letters"), "fork name 'a b': use letters"),
    (
        InvalidParameterError("checkpoint interval", 0, "must be at least 1"),
        "checkpoint interval must be at least 1, not 0",
    ),
]


@pytest.mark.parametrize(("error", "message"), EXAMPLES, ids=lambda e: type(e).__name__)
def test_specific_error_says_what_is_wrong_and_is_a_usage_error(
    error: UsageError, message: str
) -> None:
    assert str(error) == message
    assert isinstance(error, UsageError)
    assert isinstance(error, VwlogError)
    assert "--" not in str(error)  # no command-line flag in a library message


@pytest.mark.parametrize(("error", "message"), EXAMPLES, ids=lambda e: type(e).__name__)
def test_specific_error_survives_pickling(error: UsageError, message: str) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == message
    assert vars(copy) == vars(error)


def test_lookup_errors_are_lookup_errors() -> None:
    assert isinstance(UnknownPlayerError("p9"), LookupError)
    assert isinstance(UnknownCardError("c"), LookupError)
    assert isinstance(SeqOutOfRangeError("x", 1, None, None), IndexError)
    assert isinstance(SourceNotFoundError("x"), LookupError)


def test_every_exception_class_is_exported() -> None:
    classes = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type)
        and issubclass(value, Exception)
        and value.__module__ == errors.__name__
    }
    assert classes <= set(errors.__all__)


# -- the command line's wording ----------------------------------------------------------------

CLI_WORDING: list[tuple[UsageError, str]] = [
    (
        RulesetOverrideError("victory_vp", "not FLAG=VALUE"),
        "--set 'victory_vp': not FLAG=VALUE",
    ),
    (
        UnknownFlagError("nosuch=1", "nosuch"),
        "--set 'nosuch=1': no ruleset flag 'nosuch' (see 'vwlog rules --flags')",
    ),
    (
        NotAPriorityPointError("m1", 7, 5, 9),
        "seq 7 of 'm1' is not a priority point (nearest: seq 5, seq 9); "
        "see 'vwlog replay --priority-points'",
    ),
    (
        NotPlayableError("match_forked", "a fork is made from a stored match").within(
            "decision 2 of 2: "
        ),
        "decision 2 of 2: match_forked is not played: a fork is made from a stored match "
        "('vwlog fork MATCH --at SEQ')",
    ),
    (UnknownVerbError("fly", "fly"), "unknown decision 'fly'; see 'vwlog play --help'"),
    (
        InvalidParameterError("players", 5, "must be 2 to 4"),
        "--players: players must be 2 to 4, not 5",
    ),
    (MatchOverError("m1", "p2"), "match 'm1' is over (won by p2)"),
]


@pytest.mark.parametrize(("error", "message"), CLI_WORDING, ids=lambda e: type(e).__name__)
def test_the_command_line_adds_the_option_to_reach_for(error: UsageError, message: str) -> None:
    assert cli_message(error) == message


def test_within_keeps_the_class_and_prefixes_the_message() -> None:
    error = MatchOverError("m1", "p2").within("decision 3 of 4: ")
    assert type(error) is MatchOverError
    assert str(error) == "decision 3 of 4: match 'm1' is over (won by p2)"
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


def test_an_unknown_flag_reaches_the_user_as_one_line_naming_the_option() -> None:
    result = CliRunner().invoke(main, ["validate", "--set", "nosuch=1", str(SAMPLE)])
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --set 'nosuch=1': no ruleset flag 'nosuch' (see 'vwlog rules --flags')\n"
    )
