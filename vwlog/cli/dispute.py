"""``vwlog diff`` and ``vwlog report``: tools for a disputed match."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import orjson

from vwlog.audit.dispute import (
    DIFF_WINDOW,
    Integrity,
    MatchSource,
    build_report,
    diff_json,
    diff_matches,
    diff_text,
    log_source,
    report_html,
    report_markdown,
)
from vwlog.cli import options
from vwlog.cli import trust as trust_cli
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.io.logfile import STDIO
from vwlog.model.errors import OutputError

if TYPE_CHECKING:
    from vwlog.services import VerifyReport
    from vwlog.store import MatchStore


def _json(data: Any) -> str:
    return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()


def _store_source(store: MatchStore, match_id: str) -> MatchSource:
    header = store.header(match_id)  # raises MatchNotFoundError
    return MatchSource(
        name=f"store:{match_id}", header=header, open=lambda: iter(store.records(match_id))
    )


def open_match(stack: ExitStack, cli: CliContext, match_or_log: str) -> MatchSource:
    """The match a ``MATCH_OR_LOG`` argument names: a log file if the path exists, else a
    stored match id (the store stays open until ``stack`` closes).

    Raises:
        LogFormatError: the file cannot be read.
        MatchNotFoundError: no file and no stored match has this name.
    """
    if Path(match_or_log).exists():
        return log_source(match_or_log)
    from vwlog.cli.matches import open_store

    store = stack.enter_context(open_store(cli))
    return _store_source(store, match_or_log)


def _integrity(stack: ExitStack, cli: CliContext, match_or_log: str) -> Integrity:
    from vwlog.services import verify_log

    report: VerifyReport
    if Path(match_or_log).exists():
        report = verify_log(match_or_log)
    else:
        from vwlog.cli.matches import open_store
        from vwlog.services.matches import verify_match

        store = stack.enter_context(open_store(cli))
        report = verify_match(store, match_or_log)
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


@main.command()
@click.argument("log_a", metavar="LOG_A")
@click.argument("log_b", metavar="LOG_B")
@options.output_format(["text", "json"], "Output for people (text) or machines (json).")
@click.option(
    "--window",
    type=click.IntRange(1, 10_000),
    default=DIFF_WINDOW,
    show_default=True,
    help="Most events of each record followed after the divergence.",
)
@pass_cli_context
@click.pass_context
def diff(
    ctx: click.Context, cli: CliContext, log_a: str, log_b: str, output_format: str, window: int
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
    with ExitStack() as stack:
        a = open_match(stack, cli, log_a)
        b = open_match(stack, cli, log_b)
        report = diff_matches(a, b, window=window)
    if output_format == "json":
        click.echo(_json(diff_json(report)))
    else:
        click.echo(diff_text(report))
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
@pass_cli_context
@click.pass_context
def report(
    ctx: click.Context,
    cli: CliContext,
    match_or_log: str,
    at: int | None,
    output_format: str,
    out: Path | None,
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
    incomplete or untrusted, 2 unreadable input.

    Example:

    \b
        vwlog report samples/invalid/damage-over-atk.jsonl
        vwlog report disputed.jsonl --at 412 --format html -o dispute.html
        vwlog report sim-7-00001 --format html -o sim.html
    """
    with ExitStack() as stack:
        source = open_match(stack, cli, match_or_log)
        integrity = _integrity(stack, cli, match_or_log)
        document = build_report(source, integrity=integrity, at=at)
        verdict = trust_cli.verdict_of(stack, cli, match_or_log)
    text = report_html(document) if output_format == "html" else report_markdown(document)
    text = trust_cli.with_rests_on(text, verdict, html=output_format == "html")
    if out is None or str(out) == STDIO:
        sys.stdout.write(text)
        if not verdict.ok:
            ctx.exit(1)
        return
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)
    except OSError as err:
        raise OutputError(str(out), err.strerror or str(err)) from err
    finally:
        tmp.unlink(missing_ok=True)
    click.echo(f"wrote {out}", err=True)
    if not verdict.ok:
        ctx.exit(1)
