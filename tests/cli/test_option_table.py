"""docs/options.md lists every option of the command line once, with one meaning, on exactly
the commands that have it: read from the command line itself, so the table cannot drift."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import click

from vwlog.cli import main

TABLE = Path(__file__).resolve().parents[2] / "docs" / "options.md"
EVERY = "every command"


def _commands(group: click.Group, path: str = "") -> dict[str, click.Command]:
    out: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        full = f"{path} {name}".strip()
        if isinstance(command, click.Group):
            out.update(_commands(command, full))
        else:
            out[full] = command
    return out


def cli_options() -> dict[frozenset[str], set[str]]:
    """Each visible option, as the set of its names, with the commands that have it ("vwlog"
    for the top level)."""
    found: dict[frozenset[str], set[str]] = defaultdict(set)
    for path, command in [("vwlog", main), *_commands(main).items()]:
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                found[frozenset([*param.opts, *param.secondary_opts])].add(path)
    return found


def table_rows() -> list[tuple[frozenset[str], set[str]]]:
    """The table's rows: the option names of the first cell, the commands of the last."""
    rows = []
    leaves = set(_commands(main))
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        names = frozenset(code.split()[0] for code in re.findall(r"`([^`]+)`", cells[0]))
        commands = {c.strip() for c in cells[-1].split(",")}
        if EVERY in commands:
            commands = (commands - {EVERY}) | leaves
        rows.append((names, commands))
    return rows


def test_every_option_is_listed_once_on_exactly_its_commands() -> None:
    rows = table_rows()
    assert len(rows) > 50
    seen: list[str] = [name for names, _ in rows for name in names]
    assert len(seen) == len(set(seen)), "an option is listed twice"
    listed = dict(rows)
    actual = cli_options()
    missing = [sorted(names) for names in actual if names not in listed]
    assert not missing, f"not in docs/options.md: {missing}"
    extra = [sorted(names) for names in listed if names not in actual]
    assert not extra, f"docs/options.md lists options no command has: {extra}"
    for names, commands in actual.items():
        assert listed[names] == commands, (sorted(names), sorted(listed[names] ^ commands))


def test_the_old_meaning_of_a_name_is_hidden_where_it_lives_on() -> None:
    """--player is visible only as the filter; replay and show read it as --as, hidden."""
    for path in ("replay", "show"):
        command = main.commands[path]
        old = [p for p in command.params if isinstance(p, click.Option) and "--player" in p.opts]
        assert [p.hidden for p in old] == [True]
