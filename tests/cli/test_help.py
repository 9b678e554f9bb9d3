"""Every command and subcommand, present and future, has help text with an example."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

import click
import pytest

from vwlog.cli import main

if TYPE_CHECKING:
    from collections.abc import Iterator

    from click.testing import CliRunner


def command_tree(
    command: click.Command, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command under ``command``, with the words that invoke it."""
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from command_tree(sub, (*path, name))


COMMANDS = list(command_tree(main))


def test_the_tree_has_the_schema_export_command() -> None:
    assert ("schema", "export") in [path for path, _command in COMMANDS]


@pytest.mark.parametrize(
    ("path", "command"), COMMANDS, ids=[" ".join(("vwlog", *path)) for path, _ in COMMANDS]
)
def test_every_command_has_help_with_an_example(
    runner: CliRunner, path: tuple[str, ...], command: click.Command
) -> None:
    assert not command.hidden
    text = inspect.cleandoc(command.help or "")
    assert text.splitlines()[0].endswith(".")
    # \b keeps click from re-wrapping the example lines.
    assert "\nExample:\n\n\b\n" in text
    for flag in ("--help", "-h"):
        result = runner.invoke(main, [*path, flag])
        assert result.exit_code == 0, result.output
        assert "Example:" in result.stdout
    shown = result.stdout.split("Example:", 1)[1].split("\n\n", 2)[1]
    invocation = " ".join(("vwlog", *path))
    assert any(line.strip().startswith(invocation) for line in shown.splitlines()), shown
