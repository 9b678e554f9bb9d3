"""The top-level group: version, store option, and clean errors with exit code 2."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
import pytest

from vwlog import __version__
from vwlog.cli import CliContext, VwlogGroup, main, pass_cli_context
from vwlog.model.errors import LogFormatError

if TYPE_CHECKING:
    from click.testing import CliRunner


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"vwlog {__version__}"


def test_no_command_shows_usage(runner: CliRunner) -> None:
    result = runner.invoke(main, [])
    assert result.exit_code == 2
    assert "Usage: vwlog [OPTIONS] COMMAND [ARGS]..." in result.stderr


def test_unknown_command_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(main, ["frobnicate"])
    assert result.exit_code == 2
    assert result.stderr == "Error: No such command 'frobnicate'. (see 'vwlog --help')\n"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--bogus"], "Error: No such option '--bogus'. (see 'vwlog --help')"),
        (["replay"], "Error: Missing argument 'MATCH_OR_LOG'. (see 'vwlog replay --help')"),
        (
            ["validate", "--format", "xml", "x.jsonl"],
            "Error: Invalid value for '--format': 'xml' is not one of 'text', 'json', "
            "'markdown'. (see 'vwlog validate --help')",
        ),
        (["schema", "frob"], "Error: No such command 'frob'. (see 'vwlog schema --help')"),
        (
            ["show", "x", "--at", "-1"],
            "Error: Invalid value for '--at': -1 is not in the range x>=1. "
            "(see 'vwlog show --help')",
        ),
    ],
)
def test_every_usage_error_is_one_line(runner: CliRunner, args: list[str], line: str) -> None:
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == line + "\n"


@pytest.fixture
def app() -> click.Group:
    """A small group built like ``main``, with commands that raise and report."""

    @click.group(cls=VwlogGroup)
    @click.option("--store", envvar="VWLOG_STORE", default="vwlog.db")
    @click.pass_context
    def app(ctx: click.Context, store: str) -> None:
        ctx.obj = CliContext(store=store)

    @app.command()
    def broken() -> None:
        raise LogFormatError("match.jsonl", 3, "duplicate seq 2 (expected 3)", "seq")

    @app.group()
    def nested() -> None:
        pass

    @nested.command()
    def deeper() -> None:
        raise LogFormatError("other.jsonl", None, "empty file")

    @app.command()
    def bug() -> None:
        raise RuntimeError("a real bug")

    @app.command()
    @pass_cli_context
    def store(context: CliContext) -> None:
        click.echo(context.store)

    return app


def test_a_vwlog_error_is_one_line_on_stderr_with_exit_code_2(
    runner: CliRunner, app: click.Group
) -> None:
    result = runner.invoke(app, ["broken"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert (
        result.stderr == "Error: match.jsonl, line 3, field 'seq': duplicate seq 2 (expected 3)\n"
    )


def test_errors_in_subgroups_are_handled_too(runner: CliRunner, app: click.Group) -> None:
    assert isinstance(app.commands["nested"], VwlogGroup)
    result = runner.invoke(app, ["nested", "deeper"])
    assert result.exit_code == 2
    assert result.stderr == "Error: other.jsonl: empty file\n"


def test_other_exceptions_are_not_hidden(runner: CliRunner, app: click.Group) -> None:
    with pytest.raises(RuntimeError, match="a real bug"):
        runner.invoke(app, ["bug"])


def test_the_store_reaches_commands_through_the_context(
    runner: CliRunner, app: click.Group
) -> None:
    assert runner.invoke(app, ["store"]).stdout == "vwlog.db\n"
    assert runner.invoke(app, ["--store", "a.db", "store"]).stdout == "a.db\n"
    result = runner.invoke(app, ["store"], env={"VWLOG_STORE": "postgresql://vw@db/vw"})
    assert result.stdout == "postgresql://vw@db/vw\n"


def test_main_reads_the_store_from_option_or_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("VWLOG_STORE", raising=False)
    # unnamed: the per-user default, chosen when the group runs (tests/cli/test_store_location)
    assert main.make_context("vwlog", ["schema"]).params["store"] is None
    ctx = main.make_context("vwlog", ["--store", "x.db", "schema"])
    assert ctx.params["store"] == "x.db"


def test_main_store_defaults_from_vwlog_store(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VWLOG_STORE", "sqlite:///elsewhere.db")
    assert main.make_context("vwlog", ["schema"]).params["store"] == "sqlite:///elsewhere.db"


def test_python_dash_m_runs_the_cli() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "--version"], capture_output=True, check=True, text=True
    )
    assert done.stdout.splitlines()[0] == f"vwlog {__version__}"
