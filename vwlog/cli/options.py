"""Options and arguments shared by vwlog commands, each defined once.

Commands stack these decorators instead of repeating ``click.option`` calls, so a flag means the
same thing, with the same help, everywhere (pip-tools' ``scripts/options.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from vwlog.io.logfile import STDIO
from vwlog.model.errors import UsageError

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
"""What a click option decorator is."""

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


def output_format(choices: Sequence[str], help_text: str, default: str = "text") -> Decorator:
    """``--format``: one of ``choices`` (default ``text``), stored as ``output_format``."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(list(choices)),
        default=default,
        show_default=True,
        help=help_text,
    )


log_paths = click.argument(
    "logs",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path),
)
"""``LOG...``: one or more log files; ``-`` reads standard input."""


def expand_logs(logs: Sequence[Path]) -> list[str]:
    """Files as given; a directory stands for the ``*.jsonl`` files directly in it."""
    out: list[str] = []
    for path in logs:
        if str(path) != STDIO and path.is_dir():
            found = sorted(str(p) for p in path.glob("*.jsonl"))
            if not found:
                raise UsageError(f"{path}: directory holds no *.jsonl logs")
            out.extend(found)
        else:
            out.append(str(path))
    return out
