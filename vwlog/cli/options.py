"""Options and arguments shared by vwlog commands, each defined once.

Commands stack these decorators instead of repeating ``click.option`` calls, so a flag means the
same thing, with the same help, everywhere (pip-tools' ``scripts/options.py``).
"""

from __future__ import annotations

from pathlib import Path

import click

store = click.option(
    "--store",
    envvar="VWLOG_STORE",
    default="vwlog.db",
    show_default=True,
    show_envvar=True,
    metavar="URL",
    help="Match store: a SQLite file (PATH or sqlite:///PATH) or postgresql://USER@HOST/DB.",
)
"""``--store``: where matches are stored; kept in the context object for every command."""

output_format = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output for people (text) or machines (json).",
)
"""``--format``: text for people, JSON for machines."""

log_paths = click.argument(
    "logs",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path),
)
"""``LOG...``: one or more log files; ``-`` reads standard input."""
