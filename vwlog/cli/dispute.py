"""``vwlog diff`` and ``vwlog report``: tools for a disputed match."""

from __future__ import annotations

import copy
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from vwlog.audit.diff import diff_matches
from vwlog.audit.diffreport import DIFF_WINDOW
from vwlog.audit.gamediff import diff_game
from vwlog.audit.gamereport import GameReport, build_game_report
from vwlog.audit.report import DisputeReport, Integrity, build_report
from vwlog.audit.sources import MatchSource, log_source
from vwlog.cli import options
from vwlog.cli import trust as trust_cli
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.render import echo
from vwlog.games import GameRules, require_audits, rules_for
from vwlog.io.logfile import STDIO, replacing
from vwlog.model.errors import UsageError
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.text import msg
from vwlog.render.gamereport import game_report_html, game_report_markdown
from vwlog.render.html import report_html
from vwlog.render.json import diff_json, dumps
from vwlog.render.markdown import report_markdown, with_rests_on
from vwlog.render.provenance import provenance, provenance_html, provenance_markdown
from vwlog.render.rules import quoting_original
from vwlog.render.text import diff_text, visible
from vwlog.services.judging import judge_document, judge_document_file

if TYPE_CHECKING:
    from vwlog.engine.replay import ValidationReport
    from vwlog.services import VerifyReport
    from vwlog.store import MatchStore


def _store_source(store: MatchStore, match_id: str) -> MatchSource:
    header = store.header(match_id)  # raises MatchNotFoundError
    return MatchSource(
        name=f"store:{match_id}", header=header, open=lambda: iter(store.records(match_id))
    )


def open_match(ctx: click.Context, cli: CliContext, match_or_log: str) -> MatchSource:
    """The match a ``MATCH_OR_LOG`` argument names: a log file if the path exists (``-`` and
    FIFOs are read once, into a temporary copy), else a stored match id (the store stays
    open until the command ends and is never created).

    Raises:
        LogFormatError: the file cannot be read.
        NotFoundError: no file and no stored match has this name.
    """
    path = options.log_file(match_or_log)
    if path is not None:
        source = log_source(options.once_readable(ctx, path))
        return dataclasses.replace(source, name=options.shown_name(ctx, source.name))
    return _store_source(options.stored_match(ctx, cli.store, match_or_log), match_or_log)


def _chain_integrity(report: VerifyReport) -> Integrity:
    broken = report.broken
    return Integrity(
        sealed=report.sealed,
        head_hash=report.head_hash,
        records=report.records,
        broken_seq=broken.seq if broken else None,
        broken_line=broken.line if broken else None,
        broken_reason=broken.reason if broken else None,
        commitments=tuple((c.player, c.status) for c in report.commitments),
    )


def _judged(
    ctx: click.Context, cli: CliContext, match_or_log: str, document: DisputeReport
) -> ValidationReport:
    """The one verdict of a report (`vwlog.services.verdict`): its own replay's rules result
    and one integrity pass over the log's lines (the file, or the stored lines), which also
    fills the report's integrity section; every section of the report then shows it."""
    from vwlog.services.matches import verify_stored

    held = trust_cli.trust_options(cli, None, None, None)
    path = options.log_file(match_or_log)
    if path is not None:
        chain, judged = judge_document_file(document, options.once_readable(ctx, path), held)
    else:
        store = options.stored_match(ctx, cli.store, match_or_log)
        validation, started = document.validation, document.started
        # the catalog and derived data too, in the same read of the stored lines
        chain, findings = verify_stored(
            store,
            match_or_log,
            held,
            trusted=validation.trusted,
            judged_under=started.ruleset if started is not None else None,
            owed=validation.owed,
        )
        judged = judge_document(document, findings)
    document.integrity = _chain_integrity(chain)
    return judged


def _game_judged(
    ctx: click.Context, cli: CliContext, match_or_log: str, document: GameReport
) -> ValidationReport:
    """`_judged` for the report of another game: the same integrity pass and verdict (the
    game's ruleset reads no flag of Vandaria Wars' trust rules)."""
    from vwlog.services.matches import verify_stored
    from vwlog.services.trust import check_integrity
    from vwlog.services.validate import with_findings

    held = trust_cli.trust_options(cli, None, None, None)
    validation = document.validation
    path = options.log_file(match_or_log)
    if path is not None:
        readable = options.once_readable(ctx, path)
        findings = check_integrity(readable, held, trusted=validation.trusted, owed=validation.owed)
        chain = findings.chain
        assert chain is not None
    else:
        store = options.stored_match(ctx, cli.store, match_or_log)
        chain, findings = verify_stored(
            store, match_or_log, held, trusted=validation.trusted, owed=validation.owed
        )
    document.validation = with_findings(copy.copy(validation), findings)
    document.integrity = _chain_integrity(chain)
    return document.validation


@main.command()
@click.argument("log_a", metavar="LOG_A")
@click.argument("log_b", metavar="LOG_B")
@options.output_format(["text", "json"], "Output for people (text) or machines (json).")
@options.number(
    "--window",
    low=1,
    high=10_000,
    default=DIFF_WINDOW,
    help="Most events of each record followed after the divergence.",
)
@options.ruleset_options
@pass_cli_context
@click.pass_context
def diff(
    ctx: click.Context,
    cli: CliContext,
    log_a: str,
    log_b: str,
    output_format: str,
    window: int,
    ruleset_file: Path | None = None,
    sets: tuple[str, ...] = (),
) -> None:
    """Find where two records of the same match part, and explain it.

    The records (two players' log files, or a log and a stored match id)
    are read side by side and aligned by seq. At the first event where they
    differ, diff shows both events, judges each from the common prefix
    (the rule ids it breaks, if any), and follows each record to the start
    of the next phase (at most --window events) to say what differs on the
    board: cards' zones, damage and slide state with the seq of each move,
    the players' gold, honor, Victory Points and hands, the register and
    the position in the turn. A divergent record that no longer matches its
    own hash chain is named as altered.

    Records of different matches (their match_started differ) are refused;
    the header's match ids may differ.

    Exit status: 0 identical, 1 one record is a prefix of the other or they
    diverge, 2 unreadable input or records of different matches.

    Example:

    \b
        vwlog diff p1-record.jsonl p2-record.jsonl
        vwlog diff --format json exported.jsonl sample-full-combat
    """
    chosen = options.reading(ruleset_file, sets)
    with options.named_for_user(ctx):
        a = options.reread(open_match(ctx, cli, log_a), chosen)
        b = options.reread(open_match(ctx, cli, log_b), chosen)
        games = [
            require_audits(rules_for(s.header.game if s.header else None), "diff") for s in (a, b)
        ]
        if games[0] is not games[1]:
            raise UsageError(
                msg(
                    "{name} and {name2} are records of different games ({game}, {game2})",
                    name=a.name,
                    name2=b.name,
                    game=games[0].id,
                    game2=games[1].id,
                )
            )
        if games[0].id == DEFAULT_GAME:
            report = diff_matches(a, b, window=window)
        else:
            report = diff_game(a, b, games[0], window=window)
    if output_format == "json":
        click.echo(dumps(diff_json(report)))
    else:
        echo(diff_text(report))
    if not report.same:
        ctx.exit(1)


@main.command()
@click.argument("match_or_log", metavar="MATCH_OR_LOG")
@click.option(
    "--at",
    "at",
    type=click.IntRange(1, None),
    help="Show this seq in detail: the board, the events around it, what each player knew.",
)
@options.output_format(
    ["markdown", "html"],
    "Markdown (text boards) or a self-contained HTML page (drawn boards).",
    default="markdown",
)
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="Write the document here instead of standard output.",
)
@click.option(
    "--quote-original",
    is_flag=True,
    help="Beside each rule's English text, quote the Indonesian original (the rulebook's words).",
)
@options.ruleset_options
@pass_cli_context
@click.pass_context
def report(
    ctx: click.Context,
    cli: CliContext,
    match_or_log: str,
    at: int | None,
    output_format: str,
    out: Path | None,
    ruleset_file: Path | None = None,
    sets: tuple[str, ...] = (),
    *,
    quote_original: bool = False,
) -> None:
    """Write one document for a disputed match: everything a judge needs.

    The report has the match header (players, seats and teams, first
    player, format), the ruleset with the flags that differ from the
    defaults (and the full flag table, folded), the head hash and the hash
    chain's status, the deck commitments, the validation summary, every
    violation with its rule id, title and full text from the rules digest,
    the board at that moment and the five events before and after it, and
    the judges' rulings with the events a back-up voided. With --at SEQ it
    also shows that position: the board, the events around it and what each
    player could know then (their hand, the public zones, and the hidden
    cards they had seen).

    At the top, the report says what its verdict rests on: the card pool and
    ruleset (published, or the log's own), the seal, the signatures and every
    result whose effects are taken as logged.

    MATCH_OR_LOG is a log file, or a stored match id when no such file
    exists. The HTML draws each board with CSS boxes and needs no script and
    nothing from the network.

    Exit status: 0 legal and sealed, 1 a rule is broken or the record is
    incomplete or untrusted, 2 unreadable input, 3 unverified (legal only
    under definitions nobody published).

    Example:

    \b
        vwlog report samples/invalid/damage-over-atk.jsonl
        vwlog report disputed.jsonl --at 40 --format html -o dispute.html
        vwlog report sim-7-00001 --format html -o sim.html
        vwlog report --lang id samples/invalid/damage-over-atk.jsonl
        vwlog report --quote-original samples/invalid/damage-over-atk.jsonl
    """
    chosen = options.reading(ruleset_file, sets)
    with options.named_for_user(ctx):
        source = options.reread(open_match(ctx, cli, match_or_log), chosen)
        game = require_audits(rules_for(source.header.game if source.header else None), "report")
        if game.id != DEFAULT_GAME:
            text, verdict = _game_report(ctx, cli, match_or_log, source, game, at, output_format)
        else:
            document = build_report(source, at=at)
            verdict = _judged(ctx, cli, match_or_log, document)
    if game.id == DEFAULT_GAME:
        started = document.started
        made = provenance(
            started.ruleset if started else None, started.cards if started else None, game=game
        )
        with quoting_original(quote_original):
            if output_format == "html":
                text = provenance_html(report_html(document, verdict), made)
            else:
                text = with_rests_on(report_markdown(document) + provenance_markdown(made), verdict)
    _write(ctx, out, text, verdict)


def _game_report(
    ctx: click.Context,
    cli: CliContext,
    match_or_log: str,
    source: MatchSource,
    game: GameRules,
    at: int | None,
    output_format: str,
) -> tuple[str, ValidationReport]:
    """The report of a match of another game than Vandaria Wars, asked of its rules alone
    (`vwlog.audit.gamereport`), and its verdict."""
    document = build_game_report(source, game, at=at)
    verdict = _game_judged(ctx, cli, match_or_log, document)
    made = provenance(document.ruleset, game=game)
    if output_format == "html":
        return provenance_html(game_report_html(document, verdict), made), verdict
    text = game_report_markdown(document) + provenance_markdown(made)
    return with_rests_on(text, verdict), verdict


def _write(ctx: click.Context, out: Path | None, text: str, verdict: ValidationReport) -> None:
    """Write the report to ``out`` (standard output without it) and exit with its verdict's
    status."""
    if out is None or str(out) == STDIO:
        sys.stdout.write(visible(text) if sys.stdout.isatty() else text)
        ctx.exit(_exit_status(verdict))
    with replacing(out) as file:
        file.write(text.encode("utf-8"))
    click.echo(f"wrote {out}", err=True)
    ctx.exit(_exit_status(verdict))


def _exit_status(judged: ValidationReport) -> int:
    """The exit status of the report's one verdict, as validate gives it."""
    from vwlog.cli.validate import exit_status
    from vwlog.render.trust import verdict as verdict_of

    return exit_status(verdict_of(judged))


__all__ = ["diff", "open_match", "report"]
