"""``vwlog token create/list/revoke``: the service's access tokens, stored hashed."""

from __future__ import annotations

import click

from vwlog.cli import options
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.render import to_json
from vwlog.render.text import term
from vwlog.store.tokens import Role, TokenStore


@main.group()
def token() -> None:
    """Create, list and revoke the HTTP service's access tokens.

    Example:

    \b
        vwlog token create --role judge --label "head judge"
        vwlog token create --role player --match m-17 --seat p2
        vwlog token list
        vwlog token revoke 3f9a1c0b2e44
    """


@token.command("create")
@click.option(
    "--role",
    type=click.Choice([r.value for r in Role]),
    required=True,
    help="organiser, judge, or player (bound to --match and --seat).",
)
@click.option("--match", "match_id", metavar="MATCH_ID", help="A player's match.")
@click.option("--seat", metavar="PLAYER", help="A player's seat (p1, p2, ...).")
@click.option("--label", help="A note of who holds it (a judge's name is used in rulings).")
@pass_cli_context
def create(
    cli: CliContext, role: str, match_id: str | None, seat: str | None, label: str | None
) -> None:
    """Create a token and print its secret (shown only now; the store keeps its SHA-256).

    Example:

    \b
        vwlog token create --role organiser
    """
    with TokenStore.open(cli.store) as tokens:
        secret, info = tokens.create(Role(role), match_id=match_id, seat=seat, label=label)
    click.echo(secret)
    bound = f" for {term(info.match_id)} seat {term(info.seat)}" if info.match_id else ""
    click.echo(f"created {info.role} token {info.id}{bound}", err=True)


@token.command("list")
@options.output_format(["text", "json"], "Output format.")
@pass_cli_context
def list_(cli: CliContext, output_format: str) -> None:
    """List the tokens (never their secrets).

    Example:

    \b
        vwlog token list --format json
    """
    with TokenStore.open(cli.store) as tokens:
        found = tokens.list()
    if output_format == "json":
        click.echo(to_json([t.model_dump(mode="json") for t in found]))
        return
    for t in found:
        bound = f" {term(t.match_id)}:{term(t.seat)}" if t.match_id else ""
        state = " revoked" if t.revoked else ""
        label = f" ({term(t.label)})" if t.label else ""
        click.echo(f"{t.id}  {t.role}{bound}{label}  {t.created}{state}")


@token.command("revoke")
@click.argument("token_id")
@pass_cli_context
def revoke(cli: CliContext, token_id: str) -> None:
    """Revoke a token by its id; it opens nothing afterwards.

    Example:

    \b
        vwlog token revoke 3f9a1c0b2e44
    """
    with TokenStore.open(cli.store) as tokens:
        info = tokens.revoke(token_id)
    click.echo(f"revoked {info.role} token {info.id}", err=True)


__all__ = ["create", "list_", "revoke", "token"]
