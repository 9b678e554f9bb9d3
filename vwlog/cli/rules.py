"""``vwlog rules``: the rule catalog, or one rule (or several) in full."""

from __future__ import annotations

from collections import Counter
from typing import Any

import click

from vwlog.cli import options
from vwlog.cli.base import main
from vwlog.cli.render import echo, to_json
from vwlog.games import rules_for
from vwlog.io.i18n import gettext as _
from vwlog.model.cards import OPEN_QUESTION_FLAGS, SECOND_FLAGS, Ruleset, flag_reading
from vwlog.model.errors import UsageError
from vwlog.model.games import DEFAULT_GAME, GAMES
from vwlog.model.text import closest, msg
from vwlog.render.rules import rule_detail_lines, rule_reason
from vwlog.render.text import term
from vwlog.rules.catalog import PENDING_FLAGS
from vwlog.services import known_rule, rule_entry, rules_catalog


@main.command()
@click.argument("rule_ids", nargs=-1, metavar="[RULE_ID]...")
@options.output_format(
    ["text", "json"],
    "Text, or JSON: a list with everything about each rule (id, title, text, basis, status, "
    "reason, indonesian, flags, events, enforced_in).",
)
@click.option(
    "--status",
    "only",
    type=click.Choice(["enforced", "partial", "descriptive", "pending"]),
    help="Only rules with this status.",
)
@click.option("--flags", is_flag=True, help="List the ruleset flags (open questions) instead.")
@click.option(
    "--game",
    type=click.Choice(sorted(GAMES)),
    default=DEFAULT_GAME,
    show_default=True,
    help="The game whose catalog to show.",
)
def rules(
    rule_ids: tuple[str, ...], output_format: str, only: str | None, *, flags: bool, game: str
) -> None:
    """List the rule catalog, or show rules in full.

    Without RULE_ID, every rule id with its title and enforcement status.
    A rule is enforced (the engine checks it and cites its id), partial
    (checked in part; the reason says what is not), descriptive (nothing a log
    can break) or pending (checkable, not yet checked; the reason says why).

    With RULE_ID (one or more), each rule in full: its whole text, the rule
    in Indonesian (the seed's own sentence where the rule comes from the
    original rules), its status and basis, the ruleset flags its verdicts
    read, the events it checks and where the engine enforces it (module and
    function). An unknown id is an error that names the closest one.

    With --flags, list the ruleset flags that answer the open questions, with
    their defaults.

    With --game, another game's catalog: each rule's id, status and title, and
    with RULE_ID the seed's original sentences and what a partial rule rests
    on.

    Exit status: 0 shown, 2 an unknown rule id or a usage error.

    Example:

    \b
        vwlog rules
        vwlog rules R-CMB-19
        vwlog rules R-END-3 R-CMB-19 --format json
        vwlog rules --status pending
        vwlog rules --format json
        vwlog rules --flags
        vwlog rules --game wowtcg
        vwlog rules --game l5r L5R-RES-5
    """
    if game != DEFAULT_GAME:
        if flags:
            raise UsageError(
                msg(
                    "--flags lists Vandaria Wars' flags; the ruleset of {game} "
                    "is in its documentation",
                    game=game,
                )
            )
        _game_rules(game, rule_ids, output_format, only)
    elif flags:
        if rule_ids:
            raise UsageError(msg("give rule ids or --flags, not both"))
        _show_flags(output_format)
    elif rule_ids:
        _show_rules(rule_ids, output_format)
    else:
        _list_rules(output_format, only)


def _game_rules(game: str, rule_ids: tuple[str, ...], output_format: str, only: str | None) -> None:
    """Another game's catalog: every rule (of one status), or the rules asked for in full."""
    entries = rules_for(game).entries
    for rid in rule_ids:
        if rid not in entries:
            near = closest(rid, list(entries))
            hint = msg("; did you mean {near}?", near=near) if near else ""
            raise UsageError(msg("{game} has no rule {rid}{hint}", game=game, rid=rid, hint=hint))
    shown = [entries[r] for r in dict.fromkeys(rule_ids)] or [
        e for e in entries.values() if only is None or e.status == only
    ]
    if output_format == "json":
        click.echo(to_json([e._asdict() for e in shown]))
        return
    if not rule_ids:
        for e in shown:
            echo(f"{e.id:11} {e.status:11} {term(e.title)}")
        counts = Counter(e.status for e in entries.values())
        click.echo(
            _(
                "{rules} rules: {enforced} enforced, {partial} partial, {descriptive} "
                "descriptive, {pending} pending"
            ).format(rules=len(entries), **{k: counts[k] for k in _STATUSES}),
            err=True,
        )
        return
    blocks = []
    for e in shown:
        lines = [
            f"{e.id}  {term(e.title)}",
            f"  {e.status}" + (f" · {e.section}" if e.section else ""),
        ]
        lines += [f"  « {term(o)} »" for o in e.original]
        if e.note:
            lines.append(f"  {term(e.note)}")
        blocks.append("\n".join(lines))
    echo("\n\n".join(blocks))


_STATUSES = ("enforced", "partial", "descriptive", "pending")


def _show_rules(rule_ids: tuple[str, ...], output_format: str) -> None:
    """Each rule asked for, in full (every id is checked before anything is shown)."""
    entries = [rule_entry(rid) for rid in dict.fromkeys(known_rule(r) for r in rule_ids)]
    if output_format == "json":
        click.echo(to_json(entries))
        return
    blocks = [
        "\n".join(term(line) if line else "" for line in rule_detail_lines(e)) for e in entries
    ]
    echo("\n\n".join(blocks))


def _list_rules(output_format: str, only: str | None) -> None:
    """Every rule (or those of one status): a line each, its title whole."""
    everything = rules_catalog()
    catalog = [r for r in everything if only is None or r["status"] == only]
    if output_format == "json":
        click.echo(to_json(catalog))
        return
    for r in catalog:
        tail = f"  ({rule_reason(r['reason'])})" if r["reason"] else ""
        echo(f"{r['id']:10} {r['status']:11} {term(r['title'])}{tail}")
    counts = Counter(r["status"] for r in everything)
    click.echo(
        _(
            "{rules} rules: {enforced} enforced, {partial} partial, {descriptive} descriptive, "
            "{pending} pending"
        ).format(
            rules=sum(counts.values()),
            enforced=counts["enforced"],
            partial=counts["partial"],
            descriptive=counts["descriptive"],
            pending=counts["pending"],
        ),
        err=True,
    )


def _show_flags(output_format: str) -> None:
    """The ruleset flags that answer the open questions, with their defaults."""
    defaults = Ruleset()
    rows: list[dict[str, Any]] = []
    reasons: list[str] = []
    named = [*OPEN_QUESTION_FLAGS.items(), *((q, n) for n, q in SECOND_FLAGS.items())]
    for oq, name in named:
        value = flag_reading(defaults, name)
        reason = PENDING_FLAGS.get(name, "")
        note = "recorded only: " + reason if reason else ""
        rows.append({"question": oq, "flag": name, "default": value, "note": note})
        reasons.append(reason)
    if output_format == "json":
        click.echo(to_json(rows))
        return
    for row, reason in zip(rows, reasons, strict=True):
        line = f"{row['question']:6} {row['flag']:38} {row['default']!s:14}"
        said = _("recorded only: {reason}").format(reason=rule_reason(reason)) if reason else ""
        click.echo(f"{line} {said}".rstrip())


__all__ = ["rules"]
