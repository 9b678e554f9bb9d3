"""The ``vwlog`` command line: parse arguments, call the library, render, pick the exit code.

Exit codes: 0 success; 1 findings (rule violations, a broken hash chain, diverging logs, stale
schemas); 2 usage or input errors. Every `VwlogError` becomes a one-line ``Error: …`` on stderr
with exit code 2, never a traceback. Data goes to stdout, diagnostics to stderr.

Commands stay thin: no game logic here. Shared options live in `vwlog.cli_options`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from typing_extensions import override

from vwlog import __version__
from vwlog import cli_options as options
from vwlog.errors import VwlogError
from vwlog.schemas import export_schemas, stale_schemas


class InputError(click.ClickException):
    """A `VwlogError` shown as ``Error: <message>`` on stderr, with exit code 2."""

    exit_code = 2


class VwlogGroup(click.Group):
    """A group that turns every `VwlogError` into a clean message and exit code 2."""

    group_class = type
    """Subgroups made with ``@group.group()`` are `VwlogGroup`s too."""

    @override
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VwlogError as error:
            raise InputError(str(error)) from error


@dataclass(frozen=True, slots=True)
class CliContext:
    """What the top-level options chose, for every command (``ctx.obj``)."""

    store: str
    """The ``--store`` URL or path, as given (``VWLOG_STORE``, default ``vwlog.db``)."""


pass_cli_context = click.make_pass_decorator(CliContext)
"""Decorator that passes the `CliContext` to a command as its first argument."""


@click.group(
    "vwlog",
    cls=VwlogGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", prog_name="vwlog", message="%(prog)s %(version)s")
@options.store
@click.pass_context
def main(ctx: click.Context, store: str) -> None:
    """Validate, replay, fork and measure Vandaria Wars match logs.

    Exit status: 0 success, 1 findings (violations, a broken chain, stale
    schemas), 2 usage or input error.

    Example:

    \b
        vwlog --version
        vwlog schema export --check
    """
    ctx.obj = CliContext(store=store)


@main.group()
def schema() -> None:
    """Generate the JSON Schemas of the log format.

    Example:

    \b
        vwlog schema export
        vwlog schema export --check
    """


@schema.command("export")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("schemas"),
    show_default=True,
    help="Directory of the schema files.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing: list the stale files and exit 1 if there are any.",
)
@click.pass_context
def schema_export(ctx: click.Context, out_dir: Path, *, check: bool) -> None:
    """Write the JSON Schemas of the log header, the record and every event.

    One file per event type goes to OUT/events/; the header, record, event
    union, card pool and ruleset schemas go to OUT/. Files that are already
    current are left as they are, and schema files no longer made are removed.
    With --check nothing is written: the stale files are listed on stdout and
    the exit status is 1 if there are any.

    Example:

    \b
        vwlog schema export --out schemas
        vwlog schema export --check
    """
    if check:
        stale = stale_schemas(out_dir)
        for relative in stale:
            click.echo((out_dir / relative).as_posix())
        if stale:
            click.echo(
                f"{len(stale)} schema file{'s' if len(stale) != 1 else ''} stale; "
                f"run 'vwlog schema export --out {out_dir.as_posix()}'",
                err=True,
            )
            ctx.exit(1)
        click.echo(f"schemas in {out_dir.as_posix()} are current", err=True)
        return
    changed = export_schemas(out_dir)
    if changed:
        n = len(changed)
        click.echo(
            f"updated {n} schema file{'s' if n != 1 else ''} in {out_dir.as_posix()}", err=True
        )
    else:
        click.echo(f"schemas in {out_dir.as_posix()} are current", err=True)
