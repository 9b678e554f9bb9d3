"""The specific usage errors: each is a `UsageError` (old ``except`` sites keep working), says
what is wrong without naming a command-line flag, and survives pickling (worker processes
send errors back to the parent)."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.cli.errors import cli_message
from vwlog.io import errors as io_errors
from vwlog.io.errors import (
    MissingExtraError,
    NotPublishedError,
    SchedulerUnreachableError,
    SharedOutputNeededError,
    SharedStoreNeededError,
    StdinOnClusterError,
    TokenBindingError,
)
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
from vwlog.model.text import msg

if TYPE_CHECKING:
    from types import ModuleType

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
    (
        NotPublishedError("pool", "cup@1", ("vw-sample-pool@1", "b@1")),
        "no pool is published under id cup@1 (known: b@1, vw-sample-pool@1)",
    ),
    (NotPublishedError("ruleset", "cup@1"), "no ruleset is published under id cup@1 (known: none)"),
    (TokenBindingError("player"), "a player token needs a match and a seat"),
    (TokenBindingError("judge"), "a judge token is not bound to a match or seat"),
    (
        MissingExtraError("parquet", "pyarrow", msg("writing Parquet tables")),
        "writing Parquet tables needs pyarrow: install the 'parquet' extra "
        "(pip install 'vwlog[parquet]')",
    ),
    (
        SchedulerUnreachableError("tcp://h:9", "timed out"),
        "no Dask scheduler answers at tcp://h:9 (timed out)",
    ),
    (StdinOnClusterError(), "workers cannot read standard input ('-'): give files"),
    (
        SharedStoreNeededError("vwlog.db"),
        "a run on a cluster needs a PostgreSQL store that every worker can reach, not vwlog.db",
    ),
    (
        SharedOutputNeededError(),
        "a run on a cluster needs an output directory that every worker can write to",
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


@pytest.mark.parametrize("module", [errors, io_errors], ids=lambda m: m.__name__)
def test_every_exception_class_is_exported(module: ModuleType) -> None:
    classes = {
        name
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, Exception)
        and value.__module__ == module.__name__
    }
    assert classes
    assert classes <= set(module.__all__)


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
    (
        NotPublishedError("pool", "cup@1", ("vw-sample-pool@1",)),
        "--pool cup@1: no pool is published under that id (known: vw-sample-pool@1)",
    ),
    (
        NotPublishedError("ruleset", "cup@1"),
        "--ruleset cup@1: no ruleset is published under that id (known: none)",
    ),
    (TokenBindingError("player"), "a player token needs --match and --seat"),
    (TokenBindingError("judge"), "a judge token is not bound to a match or seat"),
    (
        MissingExtraError("cluster", "Dask", msg("a run on a cluster")),
        "--cluster needs Dask: install the 'cluster' extra (pip install 'vwlog[cluster]'), "
        "or use --jobs",
    ),
    (
        MissingExtraError("parquet", "pyarrow", msg("writing Parquet tables")),
        "--parquet needs pyarrow: install the 'parquet' extra (pip install 'vwlog[parquet]')",
    ),
    (
        MissingExtraError("stats", "matplotlib", msg("the statistics page")),
        "--html needs matplotlib: install the 'stats' extra (pip install 'vwlog[stats]')",
    ),
    (
        SchedulerUnreachableError("tcp://h:9", "timed out"),
        "--cluster tcp://h:9: no Dask scheduler answers (timed out)",
    ),
    (
        StdinOnClusterError(),
        "--cluster: workers cannot read standard input ('-'): give files",
    ),
    (
        SharedStoreNeededError("vwlog.db"),
        "--cluster needs a PostgreSQL store that every worker can reach, not vwlog.db: give "
        "--store postgresql://USER@HOST/DB",
    ),
    (SharedOutputNeededError(), "--cluster needs -o DIR, a directory every worker can write to"),
    (
        InvalidParameterError("batch size", 0, "must be at least 1 match per task"),
        "--batch: batch size must be at least 1 match per task, not 0",
    ),
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


# -- no flag outside the command line --------------------------------------------------------

_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*|(?<![\w-])-[a-zA-Z] [A-Z]+\b")
"""A command-line option as a message would name it: ``--pool``, ``-o DIR``."""

_MESSAGE_CALLS = ("msg", "violation")
"""Calls whose string arguments are messages for people, as templates any layer can raise or
return (an exception's arguments are too). The render layer's own ``_()`` sentences of text
output are not errors and are not scanned."""


def _flags_in_messages(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, text)`` of every string passed to a message call or an exception's
    constructor that names a command-line option (docstrings and comments are not passed)."""
    found: dict[int, tuple[int, str]] = {}
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        name = str(getattr(call.func, "id", None) or getattr(call.func, "attr", ""))
        if not (name in _MESSAGE_CALLS or name.endswith(("Error", "Exception"))):
            continue
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            for node in ast.walk(argument):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    if _FLAG.search(node.value):
                        found[id(node)] = (node.lineno, node.value)
    return sorted(found.values())


def test_the_scan_finds_a_flag_in_a_message_and_not_in_a_docstring() -> None:
    tree = ast.parse(
        '"""Set by ``--pool``."""\n'
        "def f(x):\n"
        '    """Use --pool."""\n'
        "    raise UsageError(msg('--pool {x}: not published', x=x))\n"
        "def g(x):\n"
        '    raise StoreError(f"needs -o DIR, not {x}")\n'
        "def h(x):\n"
        "    return msg('no pool {x} (pip install vwlog[cluster], not -)', x=x)\n"
    )
    assert _flags_in_messages(tree) == [
        (4, "--pool {x}: not published"),
        (6, "needs -o DIR, not "),
    ]


def test_no_message_outside_the_command_line_names_a_flag() -> None:
    """Only `vwlog.cli` knows the options: the library, the services and the HTTP service say
    what is wrong in their own terms (an error's data), and the command line words it with the
    option to reach for (`vwlog.cli.errors`)."""
    package = Path(__file__).resolve().parents[1] / "vwlog"
    offenders = [
        f"{path.relative_to(package.parent)}:{line}: {text!r}"
        for path in sorted(package.rglob("*.py"))
        if "cli" not in path.relative_to(package).parts[:1]
        for line, text in _flags_in_messages(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert offenders == []
