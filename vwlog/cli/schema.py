"""``vwlog schema``: the JSON Schemas of the log format."""

from __future__ import annotations

from pathlib import Path

import click

from vwlog.cli.base import main
from vwlog.io.schemas import export_schemas, stale_schemas


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
    "-o",
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
    union, card pool and ruleset schemas go to OUT/; each other game's record
    and events go to OUT/<game>/ (wowtcg, l5r, minis). Files that are already
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


__all__ = ["schema", "schema_export"]
