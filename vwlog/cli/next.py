"""``vwlog next``: whose decision is awaited, and every legal decision, in the play notation."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import click

from vwlog.cli import options
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.render import echo, to_json
from vwlog.games import GameUnavailableError, rules_for
from vwlog.io.i18n import fmt_number
from vwlog.io.i18n import gettext as _
from vwlog.render.text import decision_kind_name, term
from vwlog.services.decisions import Awaited, awaited_in_log, awaited_in_store, decisions_of


@contextmanager
def served() -> Iterator[None]:
    """A command a match's game cannot serve says so in one line (``next is not available for
    game X``, exit 2) instead of failing."""
    try:
        yield
    except GameUnavailableError as error:
        raise error from None  # a usage error already, said in the active language


def _text(a: Awaited, named: Callable[[str, Mapping[str, str]], str]) -> str:
    """Whose decision is awaited and every legal one, in the active language (the decisions
    themselves are the play notation, the same in every language, each followed by the names
    of the cards it names); the ids and names a record carries through `term`, so that a
    crafted one neither starts a line nor sends an escape. Where a combinatorial choice lists
    a bounded family, the first line says how many are shown of how many are legal."""
    where = _("seq {seq} · turn {turn}").format(seq=a.seq, turn=a.turn) + (
        f" · {term(a.phase)}" if a.phase else ""
    )
    if a.over:
        if a.winner:
            return _("{where}: the match is over (won by {winner})").format(
                where=where, winner=term(a.winner)
            )
        return _("{where}: the match is over").format(where=where)
    if a.player is None:
        return _("{where}: no decision is awaited (the rules act next)").format(where=where)
    if not a.sampled:
        first = _("{where}: {player} to decide ({kind}); {count} legal:").format(
            where=where,
            player=term(a.player),
            kind=term(decision_kind_name(a.kind)),
            count=len(a.decisions),
        )
    elif a.exact:
        first = _("{where}: {player} to decide ({kind}); showing {shown} of {total} legal:").format(
            where=where,
            player=term(a.player),
            kind=term(decision_kind_name(a.kind)),
            shown=len(a.decisions),
            total=fmt_number(a.total),
        )
    else:
        first = _(
            "{where}: {player} to decide ({kind}); showing {shown} of ≥ {total} legal:"
        ).format(
            where=where,
            player=term(a.player),
            kind=term(decision_kind_name(a.kind)),
            shown=len(a.decisions),
            total=fmt_number(a.total),
        )
    return "\n".join([first, *(f"  {term(named(d, a.names))}" for d in a.decisions)])


@main.command("next")
@options.match_or_log
@click.option(
    "--at",
    "at",
    type=click.IntRange(0),
    metavar="SEQ",
    help="After the event SEQ instead of the last one (0: before the first).",
)
@options.ruleset_options
@options.output_format(["text", "json"], "Output for people (text) or machines (json).")
@pass_cli_context
@click.pass_context
def next_(
    ctx: click.Context,
    cli: CliContext,
    match_or_log: str,
    at: int | None,
    ruleset_file: Path | None,
    sets: tuple[str, ...],
    output_format: str,
) -> None:
    """Say whose decision is awaited and list every legal decision.

    MATCH_OR_LOG is a log file ('-' reads standard input), or a stored match
    id when no such file exists. The decisions are written in the notation
    'vwlog play' takes (see 'vwlog play --help'), so any line can be played
    as it is (the names of the cards follow in parentheses); where a choice is
    combinatorial (attackers, blocks, damage) a bounded, representative family
    is listed, and the first line says how many are shown of how many are legal.

    Example:

    \b
        vwlog next samples/full-combat.jsonl --at 40
        vwlog next samples/full-combat.jsonl --format json
    """
    loaded, ruleset = options.reading(ruleset_file, sets).for_match(
        options.load_records(ctx, cli.store, match_or_log)
    )
    with served():
        if loaded.store is not None and loaded.match_id is not None:
            result = awaited_in_store(loaded.store, loaded.match_id, at, ruleset=ruleset)
        else:
            result = awaited_in_log(loaded.items, at, ruleset=ruleset, source=loaded.source)
        named = decisions_of(rules_for(result.game), "next").named
    if output_format == "json":
        click.echo(
            to_json(
                {
                    "seq": result.seq,
                    "turn": result.turn,
                    "phase": result.phase,
                    "player": result.player,
                    "kind": result.kind,
                    "over": result.over,
                    "winner": result.winner,
                    "decisions": list(result.decisions),
                    "total": result.total,
                    "total_exact": result.exact,
                    "cards": result.names,
                }
            )
        )
    else:
        echo(_text(result, named))


__all__ = ["next_", "served"]
