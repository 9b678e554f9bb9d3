"""``vwlog fork`` and ``vwlog play``: what-if lines from a fork point of the match's game (for
Vandaria Wars, a priority point), on a stored match or on a log file (through a private store in
memory, `vwlog.services.scratch`). ``play`` needs the game's decisions capability
(`vwlog.services.decisions.decisions_of`): a game without one says so in one line."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from vwlog.cli import options
from vwlog.cli.base import CliContext, input_error, main, pass_cli_context
from vwlog.cli.matches import open_store
from vwlog.cli.next import served
from vwlog.cli.render import echo
from vwlog.games import rules_for
from vwlog.io.i18n import gettext as _
from vwlog.io.logfile import open_log
from vwlog.model.errors import LogFormatError, MatchNotFoundError, UsageError, VwlogError
from vwlog.model.games import DEFAULT_GAME, GAMES
from vwlog.model.text import msg
from vwlog.render.text import counted, term
from vwlog.services.decisions import decisions_of
from vwlog.services.forks import fork_match
from vwlog.services.matches import export_match
from vwlog.services.play import play_decisions
from vwlog.services.scratch import fork_file, play_file

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.store import MatchStore


@main.command()
@click.argument("match_id", metavar="MATCH_OR_LOG")
@click.option("--at", "at", type=click.IntRange(1), required=True, help="Priority point (seq).")
@click.option("--name", help="A name for the fork (its id becomes MATCH~NAME).")
@click.option(
    "-o",
    "--out",
    help="Where the fork of a log file is written ('-': standard output, the default).",
)
@pass_cli_context
@click.pass_context
def fork(
    ctx: click.Context, cli: CliContext, match_id: str, at: int, name: str | None, out: str | None
) -> None:
    """Start a fork of a match at a priority point ("what if I had blocked?").

    The fork is a new match that records its parent and fork point; continue
    it with 'vwlog play'. A seq that is not a priority point is refused,
    naming the nearest ones ('vwlog replay --priority-points' lists them all).

    MATCH_OR_LOG is a log file, or a stored match id when no such file
    exists. A stored match's fork is stored beside it and its id printed; a
    log file's fork is written as a log file (to --out, or standard output),
    and the store is not touched.

    Example:

    \b
        vwlog fork sim-7-00001 --at 235 --name block
        vwlog next 'sim-7-00001~block'
        vwlog fork samples/full-combat.jsonl --at 40 -o what-if.jsonl
    """
    path = options.log_file(match_id)
    if path is not None:
        target = out or "-"
        with _about(path):
            made = fork_file(options.once_readable(ctx, path), at, target, name=name)
        if target != "-":
            echo(_wrote(made.records, made.match_id, target), err=True)
        return
    with _stored(cli, match_id) as store:
        fork_id = fork_match(store, match_id, at, name=name)
        if out is not None:
            echo(_wrote(export_match(store, fork_id, out), fork_id, out), err=True)
    echo(term(fork_id))


def _wrote(records: int, match_id: str, path: str) -> str:
    return _("wrote {records} of {match} to {path}").format(
        records=counted(records, "record"), match=term(match_id), path=term(path)
    )


@contextmanager
def _about(path: str) -> Iterator[None]:
    """Errors about the match of the log file ``path`` name the file first (``path: seq 3 of
    'm1' is not a priority point``); the reader's own errors name it already."""
    try:
        yield
    except LogFormatError:
        raise
    except VwlogError as error:
        raise input_error(error, path) from error


@contextmanager
def _stored(cli: CliContext, match_id: str) -> Iterator[MatchStore]:
    """The store holding ``match_id``; where none does, the error says that no log file has
    this name either, and names the stored match it most likely is a typo of."""
    if not options.store_exists(cli.store):
        raise options.no_match(match_id)
    with open_store(cli) as store:
        try:
            store.head(match_id)
        except MatchNotFoundError:
            raise options.no_match(match_id, store) from None
        yield store


def _print_notation(ctx: click.Context, _param: click.Parameter, game: str | None) -> None:
    """``--notation GAME``: print how that game's decisions are written, and stop."""
    if game is None or ctx.resilient_parsing:
        return
    syntax = decisions_of(rules_for(game), "play").syntax()
    echo("\n".join(line for line in syntax.splitlines() if line != "\b"))  # click's markers
    ctx.exit(0)


@main.command(
    epilog="\b\n"
    + decisions_of(rules_for(), "play").syntax()
    + "\n\n\b\nThe other games' notations: vwlog play --notation GAME ("
    + ", ".join(sorted(g for g in GAMES if g != DEFAULT_GAME))
    + ")."
)
@click.argument("match_id", metavar="MATCH_OR_LOG")
@click.argument("decisions", nargs=-1)
@click.option(
    "--notation",
    metavar="GAME",
    is_eager=True,
    expose_value=False,
    callback=_print_notation,
    help="Print how GAME's decisions are written (its notation) and exit.",
)
@click.option(
    "--from-file",
    type=click.File("r"),
    help="Read decisions from a file, one per line ('-' for standard input).",
)
@click.option(
    "--auto",
    type=click.IntRange(0, 1_000_000),
    default=0,
    help="Then let the generator make N more decisions.",
)
@click.option(
    "--policy",
    type=click.Choice(["greedy", "random"]),
    default="greedy",
    show_default=True,
    help="How --auto chooses: greedy (the generator's heuristics) or random legal decisions.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for --auto.")
@click.option(
    "--choose",
    "choose",
    multiple=True,
    metavar="OBJECT=CARD[,CARD...]",
    help="Decide the result of a skill that leaves a choice: the card its return takes, the "
    "cards its bottom puts on the bottom, or the new order of its reorder (repeatable).",
)
@click.option(
    "-o",
    "--out",
    help="Where a log file goes on (default: the file itself; '-': standard output).",
)
@pass_cli_context
@click.pass_context
def play(
    ctx: click.Context,
    cli: CliContext,
    match_id: str,
    decisions: tuple[str, ...],
    from_file: Any,
    auto: int,
    policy: str,
    seed: int,
    choose: tuple[str, ...],
    out: str | None,
) -> None:
    """Append decisions to a match (usually a fork), in play mode.

    Each decision is checked against the rules and rejected with its rule ids
    if illegal (then nothing at all is stored); every consequence the rules
    demand is inserted after it. All appended events go in one transaction,
    chained to the match's head hash.

    MATCH_OR_LOG is a log file, or a stored match id when no such file
    exists. A log file is played on in memory and written back with the new
    events appended (to --out instead, if given); the store is not touched.
    Exit status: 1 if a decision is refused (it breaks a rule), 2 if one
    cannot be read.

    Example:

    \b
        vwlog play 'sim-7-00001~block' pass 'blockers p1-005'
        vwlog play 'sim-7-00001~block' pass pass 'blocks p1-005:p2-001'
        vwlog play 'sim-7-00001~block' --auto 500 --policy greedy
        vwlog play what-if.jsonl pass
    """
    items = list(decisions)
    if from_file is not None:
        items.extend(
            line.strip() for line in from_file if line.strip() and not line.startswith("#")
        )
    if not items and not auto:
        raise UsageError(
            msg(
                "no decisions given: type them after the match id, e.g. 'vwlog play {match_id} "
                "pass'; 'vwlog next {match_id}' lists the legal ones (see 'vwlog play --help' for "
                "the notation)",
                match_id=match_id,
            )
        )
    choices = _choices(choose)
    path = options.log_file(match_id)
    target = out or path  # a log file goes on in itself; standard input on standard output
    if path is not None:
        source = options.once_readable(ctx, path)
        with _about(path), open_log(source) as reader:
            game = reader.header.game
        _serves(game)
        with _about(path):
            result = play_file(source, items, str(target), auto=auto, policy=policy, seed=seed,
                               choices=choices)  # fmt: skip
    else:
        with _stored(cli, match_id) as store:
            _serves(store.header(match_id).game)
            result = play_decisions(store, match_id, items, auto=auto, policy=policy, seed=seed,
                                    choices=choices)  # fmt: skip
            if out is not None:
                export_match(store, match_id, out)
    echo(
        _("{match}: {decisions}, {events} appended; head seq {seq}").format(
            match=term(match_id),
            decisions=counted(result.decisions, "decision"),
            events=counted(result.appended, "event"),
            seq=result.head_seq,
        )
        + _won(result.winner, result.victory),
        err=target == "-",  # the log has standard output
    )


def _won(winner: str | None, victory: str | None) -> str:
    """`` · won by WINNER (VICTORY)`` after a play that won the match; else nothing."""
    if not winner:
        return ""
    return " · " + _("won by {winner} ({victory})").format(
        winner=term(winner), victory=term(victory)
    )


def _serves(game: str | None) -> None:
    """Refuse in one line to play a match of a game without decisions (``play is not
    available for game X``)."""
    with served():
        decisions_of(rules_for(game), "play")


def _choices(given: tuple[str, ...]) -> dict[str, list[str]]:
    """``--choose OBJECT=CARD[,CARD...]`` options as a mapping."""
    out: dict[str, list[str]] = {}
    for text in given:
        object_id, sep, cards = text.partition("=")
        if not sep or not object_id.strip():
            raise click.BadParameter(
                _("{text}: write OBJECT=CARD[,CARD...], e.g. o7=p1-012").format(text=repr(text)),
                param_hint="'--choose'",
            )
        out[object_id.strip()] = [c.strip() for c in cards.split(",") if c.strip()]
    return out


__all__ = ["fork", "play"]
