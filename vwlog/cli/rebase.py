"""``vwlog rebase``: the parent's remaining decisions re-applied onto a fork, and one line (or a
JSON object) saying how far it got and, when it stopped early, where and why."""

from __future__ import annotations

import click

from vwlog.cli import options
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.matches import open_store
from vwlog.cli.render import echo, to_json
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import say
from vwlog.render.json import rebase_json as _rebase_dict
from vwlog.render.text import term, victory_name, violation_message
from vwlog.services.rebase import RebaseResult, rebase


def _rebase_text(result: RebaseResult) -> str:
    already = (
        _("{count} already on the fork; ").format(count=result.already) if result.already else ""
    )
    template = (
        _(
            "{fork}: would re-apply {reapplied} of {considered} parent decisions "
            "({already}{appended} events would be appended; head seq {seq})"
        )
        if result.dry_run
        else _(
            "{fork}: re-applied {reapplied} of {considered} parent decisions "
            "({already}{appended} events appended; head seq {seq})"
        )
    )
    text = template.format(
        fork=term(result.fork_id),
        reapplied=result.reapplied,
        considered=result.considered,
        already=already,
        appended=result.appended,
        seq=result.head_seq,
    )
    text += _rebase_stop_text(result)
    if result.dry_run:
        text += _("; nothing stored (--dry-run)")
    return text


def _rebase_stop_text(result: RebaseResult) -> str:
    """Where and why the rebase stopped before the parent's last decision ("" when it did
    not)."""
    broken = result.broken
    if broken is not None:
        text = _(
            "; parent seq {seq} ({description}) is no longer legal at fork seq {fork_seq}: "
            "{reasons}"
        ).format(
            seq=broken.parent_seq,
            description=term(say(broken.description)),
            fork_seq=broken.fork_seq,
            reasons="; ".join(f"{v.rule} {term(violation_message(v))}" for v in broken.violations),
        )
        if broken.withdrawn:
            seqs = ", ".join(str(s) for s in broken.withdrawn)
            text += _(" (so parent seq {seqs} before it is not kept either)").format(seqs=seqs)
        return text
    if result.stopped == "over":
        return _(
            "; the fork is won by {winner} ({victory}) before parent seq {seq}: "
            "the other {left} cannot happen"
        ).format(
            winner=term(result.winner),
            victory=victory_name(result.victory),
            seq=result.stopped_at,
            left=result.left,
        )
    if result.stopped == "ruling":
        return _(
            "; stopped at parent seq {seq}: a judge ruling is about the parent's record and is "
            "not re-applied"
        ).format(seq=result.stopped_at)
    return ""


@main.command(name="rebase")
@click.argument("fork_id", metavar="FORK")
@click.option("--dry-run", is_flag=True, help="Report what would happen; store nothing.")
@options.output_format(["text", "json"], "One line, or a JSON object.")
@pass_cli_context
@click.pass_context
def rebase_(
    ctx: click.Context, cli: CliContext, fork_id: str, *, dry_run: bool, output_format: str
) -> None:
    """Re-apply the parent's remaining decisions onto a fork ("what breaks?").

    The parent's decisions after the fork point are played, in order, after
    the fork's own, as 'vwlog play' would: each is checked against the rules
    and followed by the consequences the rules now demand. The first that is
    no longer legal stops the rebase and is reported with its parent seq and
    the rule ids it breaks. The decisions re-applied before it are appended
    to the fork in one transaction (none with --dry-run). A cost paid for a
    summon or skill that then breaks is not kept. The rebase also stops when
    the fork's match is won, and at a judge ruling of the parent (it judges
    the parent's record).

    Exit status: 0 every parent decision re-applied (or the fork was won
    first), 1 a decision is no longer legal (or a judge ruling stopped the
    rebase), 2 an unknown match or one that is not a fork.

    Example:

    \b
        vwlog rebase 'sim-7-00001~block'
        vwlog rebase 'sim-7-00001~block' --dry-run --format json
    """
    with open_store(cli, fork_id) as store:
        result = rebase(store, fork_id, dry_run=dry_run)
    if output_format == "json":
        click.echo(to_json(_rebase_dict(result)))
    else:
        echo(_rebase_text(result))
    if result.stopped in ("broken", "ruling"):
        ctx.exit(1)


__all__ = ["rebase_"]
