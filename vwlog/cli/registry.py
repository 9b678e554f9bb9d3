"""The top-level commands by name, so that ``vwlog`` starts without importing them.

Each command's module (with the engine, the models and the store it needs) is imported only
when that command runs, its own ``--help`` is asked, or shell completion needs its options;
``vwlog --help`` lists the commands from `COMMANDS` alone: where each lives and the first
paragraph of its help, from which the one-line summary is made in the active language, as a
loaded command makes it (`vwlog.cli.helptexts.TranslatedHelp.get_short_help_str`).

`COMMANDS` is generated from the commands themselves (`table`, written out by `source`): a
test fails when it differs from what the commands say (a command added, renamed, or whose help
begins otherwise), and shows the table to paste in its place.
"""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, NamedTuple

from vwlog.io.i18n import gettext

if TYPE_CHECKING:
    import click

__all__ = ["COMMANDS", "Entry", "entry_of", "load_all", "source", "table"]


class Entry(NamedTuple):
    """A top-level command not imported yet: where it is, and what its help starts with."""

    target: str
    """``module:attribute``, the command object (importing the module registers it)."""
    summary: str
    """The first paragraph of its help as written (English), or its ``short_help``."""
    short: bool = False
    """`summary` is the command's ``short_help``."""
    hidden: bool = False
    """Left out of the command list."""

    def get_short_help_str(self, limit: int = 45) -> str:
        """The one-line summary in the active language, as the loaded command words it."""
        from vwlog.cli.helptexts import short_help

        if self.short:
            return gettext(self.summary).strip()
        return short_help(gettext(self.summary) if self.summary.strip() else self.summary, limit)


def entry_of(command: click.Command) -> Entry:
    """The `Entry` that stands for ``command`` (a top-level command, loaded)."""
    from vwlog.cli.helptexts import help_paragraphs

    callback = command.callback
    assert callback is not None, command.name
    module = importlib.import_module(callback.__module__)
    attribute = next(name for name, value in vars(module).items() if value is command)
    if command.short_help:
        summary, short = inspect.cleandoc(command.short_help), True
    else:
        summary, short = (help_paragraphs(command.help)[0] if command.help else ""), False
    return Entry(f"{module.__name__}:{attribute}", summary, short, command.hidden)


def load_all() -> None:
    """Import every command module of `vwlog.cli` (each registers its commands)."""
    import pkgutil

    import vwlog.cli

    for info in pkgutil.iter_modules(vwlog.cli.__path__):
        importlib.import_module(f"vwlog.cli.{info.name}")


def table(group: click.Group) -> dict[str, Entry]:
    """The entries of ``group``'s commands (all loaded), by name."""
    return {name: entry_of(command) for name, command in sorted(group.commands.items())}


# generated: source(table(main)), shown by tests/cli/test_startup.py when out of date
COMMANDS: dict[str, Entry] = {
    "diff": Entry(
        "vwlog.cli.dispute:diff", "Find where two records of the same match part, and explain it."
    ),
    "export": Entry(
        "vwlog.cli.matches:export",
        "Write a stored match (or fork) as a self-contained, hash-chained log.",
    ),
    "fork": Entry(
        "vwlog.cli.play:fork",
        'Start a fork of a match at a priority point ("what if I had blocked?").',
    ),
    "import": Entry(
        "vwlog.cli.matches:import_", "Validate match logs and store them, each in one transaction."
    ),
    "info": Entry(
        "vwlog.cli.info:info",
        "Show the version, engine, store (and why that one), store key and language.",
    ),
    "keys": Entry("vwlog.cli.trust:keys", "Ed25519 keys for signing sealed records."),
    "lineage": Entry(
        "vwlog.cli.matches:lineage_",
        "Show the tree of forks a stored match belongs to, from its root.",
    ),
    "list": Entry(
        "vwlog.cli.matches:list_",
        "List stored matches: date, players, turns, winner, victory, violations, head hash.",
    ),
    "next": Entry(
        "vwlog.cli.next:next_", "Say whose decision is awaited and list every legal decision."
    ),
    "play": Entry(
        "vwlog.cli.play:play", "Append decisions to a match (usually a fork), in play mode."
    ),
    "pool": Entry(
        "vwlog.cli.trust:pool", "Published card pools: the definitions logs are held to."
    ),
    "rebase": Entry(
        "vwlog.cli.rebase:rebase_",
        'Re-apply the parent\'s remaining decisions onto a fork ("what breaks?").',
    ),
    "replay": Entry(
        "vwlog.cli.replay:replay_command",
        "Replay a match event by event, with the board after each one.",
    ),
    "report": Entry(
        "vwlog.cli.dispute:report",
        "Write one document for a disputed match: everything a judge needs.",
    ),
    "rules": Entry("vwlog.cli.rules:rules", "List the rule catalog, or show rules in full."),
    "ruleset": Entry(
        "vwlog.cli.trust:ruleset_group", "Published rulesets: the flags logs are held to."
    ),
    "schema": Entry("vwlog.cli.schema:schema", "Generate the JSON Schemas of the log format."),
    "seal": Entry(
        "vwlog.cli.trust:seal", "Chain and seal a log, naming the signatures it requires."
    ),
    "serve": Entry(
        "vwlog.cli.serve:serve",
        "Serve the store over HTTP: upload, replay, audit, fork and record matches live.",
    ),
    "show": Entry("vwlog.cli.show:show", "Show the board at one position of a match."),
    "sign": Entry("vwlog.cli.trust:sign", "Sign a sealed log: append a signature over its seal."),
    "simulate": Entry(
        "vwlog.cli.simulate:simulate", "Generate complete legal matches from a seed, in play mode."
    ),
    "stats": Entry(
        "vwlog.cli.stats:stats", "Measure matches: per-match metrics and corpus statistics."
    ),
    "token": Entry(
        "vwlog.cli.tokens:token", "Create, list and revoke the HTTP service's access tokens."
    ),
    "validate": Entry(
        "vwlog.cli.validate:validate",
        "Check match logs against the VW rules and report every violation.",
    ),
    "verify": Entry(
        "vwlog.cli.verify:verify",
        "Check the hash chain, seal, signatures and deck commitments of logs.",
    ),
}


def source(entries: dict[str, Entry]) -> str:
    """`COMMANDS` as Python source (to paste, then ``ruff format``)."""
    lines = ["COMMANDS: dict[str, Entry] = {"]
    for name, entry in entries.items():
        flags = "".join(f", {f}=True" for f in ("short", "hidden") if getattr(entry, f))
        lines.append(f"    {name!r}: Entry({entry.target!r}, {entry.summary!r}{flags}),")
    return "\n".join([*lines, "}"])
