"""``vwlog import``, ``export``, ``list`` and ``lineage``: the match store (``fork`` and
``play`` are in `vwlog.cli.play`)."""

from __future__ import annotations

import functools
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from vwlog.cli import options
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.cluster import cluster_option, on_cluster
from vwlog.cli.importtally import ImportTally
from vwlog.cli.pipes import record_status
from vwlog.cli.render import echo, progress, to_json
from vwlog.io.i18n import N_, fmt_number, say
from vwlog.io.i18n import gettext as _
from vwlog.model.errors import MatchNotFoundError
from vwlog.model.verdict import Verdict
from vwlog.render.json import match_summary_json
from vwlog.render.text import counted, table, term, victory_name
from vwlog.render.trust import VERDICT_WORDS
from vwlog.services.cluster import (
    TaskFailure,
    import_needs_shared_store,
    import_task,
    shared_paths,
)
from vwlog.services.forks import LineageNode, lineage
from vwlog.services.importing import import_logs
from vwlog.services.importpool import import_logs_parallel
from vwlog.services.matches import created_day, export_match, export_problem, list_vouched
from vwlog.services.storing import SNAPSHOT_EVERY, ImportResult
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from datetime import datetime


@contextmanager
def open_store(cli: CliContext, match_id: str | None = None) -> Iterator[MatchStore]:
    """The store named by ``--store`` / ``VWLOG_STORE`` (`vwlog.cli.options.open_store`).

    Raises:
        MatchNotFoundError: ``match_id`` is given and the store does not exist yet (looking a
            match up never creates a store).
    """
    if match_id is not None and not options.store_exists(cli.store):
        raise MatchNotFoundError(match_id)
    with options.open_store(cli.store) as store:
        yield store


@main.command(name="import")
@options.log_paths
@click.option("--reject-illegal", is_flag=True, help="Refuse logs with violations.")
@options.number(
    "--snapshot-every",
    low=10,
    high=100_000,
    default=SNAPSHOT_EVERY,
    help="Keep a state snapshot every N events (seeks replay at most N).",
)
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="Leave out the line per log; keep errors and the summary (outcomes, and the "
    "verdicts of the logs kept: how many are illegal, untrusted, incomplete, flagged).",
)
@options.jobs(help="Worker processes validating (one log per worker at a time); stored in order.")
@cluster_option
@pass_cli_context
@click.pass_context
def import_(
    ctx: click.Context,
    cli: CliContext,
    logs: tuple[Path, ...],
    *,
    reject_illegal: bool,
    snapshot_every: int,
    quiet: bool,
    jobs: int,
    cluster: str | None,
    batch: int | None,
) -> None:
    """Validate match logs and store them, each in one transaction.

    Importing the same log again stores nothing ("unchanged"). A log that
    breaks rules is stored flagged with its violations, never dropped, unless
    --reject-illegal refuses it. A log whose hash chain is broken is refused.
    Logs without hashes are sealed on import.

    A directory stands for the *.jsonl logs in it. A file that fails (or
    whose transaction the database refuses) is reported and the others go
    on; a table of outcomes ends the run.

    The summary on stderr counts the outcomes and, when a log kept is not
    legal, the verdicts of the logs kept (illegal, untrusted, incomplete,
    unverified) and how many are flagged; --quiet keeps it.

    Exit status: 0 all stored or unchanged and none flagged, 1 a log breaks
    rules or is not intact (stored flagged, kept flagged from before, or
    refused with --reject-illegal), 2 some unreadable, broken or conflicting
    with a stored match (the worst wins: 2, then 1). Untrusted (no hashes),
    incomplete (no seal) and unverified logs are stored unflagged: the
    summary counts them, the status does not.

    Example:

    \b
        vwlog import samples/*.jsonl
        vwlog --store postgresql://postgres@127.0.0.1:5432/test import corpus/*.jsonl
        vwlog import --reject-illegal disputed.jsonl
        vwlog import -j 2 samples/
        vwlog --store postgresql://vw@db/club import --cluster tcp://scheduler:8786 /shared/corpus/

    With --cluster, each log is validated and stored by a Dask worker, in one
    transaction on the worker's own connection; the store must be PostgreSQL.
    """
    paths = options.expand_logs(logs)
    if cluster:
        import_needs_shared_store(cli.store)
    tally = ImportTally()
    with (
        open_store(cli) as store,
        progress(len(paths), N_("importing"), enabled=len(paths) > 1) as bar,
    ):
        seen = _on_result(ctx, tally, bar, quiet=quiet)
        if cluster:
            tasks = (import_task, paths, cli.store, reject_illegal, snapshot_every)
            for outcome in on_cluster(cluster, jobs, *tasks, shared_paths(paths), batch=batch):
                if isinstance(outcome, TaskFailure):
                    outcome = ImportResult(outcome.item, None, "error", detail=outcome.error)
                seen(outcome)
        else:
            parallel = jobs > 1 and len(paths) > 1
            run = functools.partial(import_logs_parallel, jobs=jobs) if parallel else import_logs
            run(
                store,
                paths,
                reject_illegal=reject_illegal,
                snapshot_every=snapshot_every,
                on_result=seen,
            )
    _import_summary(len(paths), tally, table=len(paths) > 1 and not quiet)
    ctx.exit(tally.status)


def _on_result(
    ctx: click.Context, tally: ImportTally, bar: Any, *, quiet: bool
) -> Callable[[ImportResult], None]:
    """What import does with each log's result as it arrives: count it (its status is the
    exit status if the reader of the output goes away), and say it (an error always)."""

    def seen(result: ImportResult) -> None:
        tally.add(result)
        record_status(ctx, tally.status)
        bar.update(1)
        if result.outcome == "error":
            detail = say(result.said) if result.said is not None else result.detail
            echo(_("Error: {message}").format(message=term(detail)), err=True)
        elif not quiet:
            echo(_import_line(result))

    return seen


_OUTCOMES = {
    "stored": N_("stored"),
    "unchanged": N_("unchanged"),
    "rejected": N_("rejected"),
    "failed": N_("failed"),
}
"""An import's outcomes as a person reads them (``error`` is shown as ``failed``)."""


def _import_line(result: ImportResult) -> str:
    """One imported log: its outcome, match, events, whether flagged, and the path."""
    flag = (
        " · "
        + _("FLAGGED, {violations}").format(violations=counted(result.violations, "violation"))
        if result.violations
        else ""
    )
    if result.intact is False and not result.violations:
        flag = " · " + _("FLAGGED: the record is not intact")
    if result.verdict is not None and result.verdict != Verdict.OK:
        # the one verdict and its reason, as validate, verify and report give them
        word = _(VERDICT_WORDS[Verdict(result.verdict)].terminal)
        reason = say(result.reason) if result.reason is not None else ""
        flag += " · " + word + " · " + term(_("Reason: {reason}").format(reason=reason))
    detail = ""
    if result.outcome == "rejected":
        detail = " · " + term(say(result.said) if result.said is not None else result.detail)
    outcome = _(_OUTCOMES.get(result.outcome, result.outcome))
    return (
        f"{outcome:9} {term(result.match_id)}  "
        f"({counted(result.events, 'event')}){flag}{detail}  {term(result.path)}"
    )


def _import_summary(logs: int, tally: ImportTally, *, table: bool) -> None:
    """The closing lines of an import on stderr: a table of outcomes (``table``), the verdicts
    of the logs kept when any is not legal, and the count of each outcome (last)."""
    counts, events = tally.outcomes, tally.events
    if table:
        keys = [("stored", "stored"), ("unchanged", "unchanged"), ("rejected", "rejected")]
        rows = [(_(_OUTCOMES[label]), key) for label, key in [*keys, ("failed", "error")]]
        head = (_("outcome"), _("logs"), _("events"))
        width = max(10, *(len(label) + 1 for label, _key in rows))
        echo(f"{head[0]:{width}} {head[1]:>6} {head[2]:>12}", err=True)
        for label, key in rows:
            echo(
                f"{label:{width}} {fmt_number(counts[key]):>6} {fmt_number(events[key]):>12}",
                err=True,
            )
    verdicts = tally.verdict_line()
    if verdicts is not None:
        echo(verdicts, err=True)
    click.echo(
        _(
            "{logs}: {stored} stored, {unchanged} unchanged, {rejected} rejected, {failed} failed"
        ).format(
            logs=counted(logs, "log"),
            stored=counts["stored"],
            unchanged=counts["unchanged"],
            rejected=counts["rejected"],
            failed=counts["error"],
        ),
        err=True,
    )


@main.command()
@click.argument("match_id")
@click.option(
    "-o", "--out", default="-", show_default=True, help="Output file ('-' for standard output)."
)
@pass_cli_context
def export(cli: CliContext, match_id: str, out: str) -> None:
    """Write a stored match (or fork) as a self-contained, hash-chained log.

    The lines are the stored ones, byte for byte: a log imported and exported
    again is identical, and 'vwlog verify' can check it without the store. A
    fork's export holds its parent's prefix and validates on its own.

    The stored chain is checked first: a match whose lines no longer chain,
    or end elsewhere than its catalog entry recorded, is refused and nothing
    is written (exit 1). A match whose catalog entry this installation does
    not vouch for is written with a warning (exit 1).

    Example:

    \b
        vwlog export sim-7-00001 -o match.jsonl
        vwlog export 'sim-7-00001~block' > what-if.jsonl
    """
    with open_store(cli, match_id) as store:
        problem = export_problem(store, match_id)
        if problem is not None:
            echo(_("Error: {message}").format(message=term(say(problem))), err=True)
            raise click.exceptions.Exit(1)
        vouched = store.vouched(match_id)
        n = export_match(store, match_id, out)
    if not vouched:
        echo(_not_vouched_line(match_id), err=True)
    if out != "-":
        echo(
            _("wrote {records} of {match} to {path}").format(
                records=counted(n, "record"), match=term(match_id), path=term(out)
            ),
            err=True,
        )
    if not vouched:
        raise click.exceptions.Exit(1)


def _not_vouched_line(match_id: str) -> str:
    """The warning for a stored match whose catalog entry this installation does not vouch
    for (`vwlog.store.MatchStore.vouched`)."""
    return _(
        "WARNING: {match}: its catalog entry is not as vwlog wrote it here (altered in the "
        "database, or written elsewhere): 'vwlog verify {match}' checks it"
    ).format(match=term(match_id))


_LIST_HEADERS = (
    N_("match"),
    N_("date"),
    N_("players"),
    N_("turns"),
    N_("winner"),
    N_("victory"),
    N_("viol"),
    N_("head"),
)
"""The columns of `vwlog list` (shown in the active language)."""


@main.command(name="list")
@click.option("--player", help="Only matches with this player.")
@click.option("--winner", help="Only matches won by this player.")
@click.option(
    "--victory",
    type=click.Choice(
        ["MILITARY", "POLITICAL", "ABSOLUTE", "CONCESSION", "JUDGE"], case_sensitive=False
    ),
    help="Only matches won this way.",
)
@click.option("--flagged/--legal", default=None, help="Only matches with / without violations.")
@click.option(
    "--since",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    metavar="YYYY-MM-DD",
    help="Only matches created on or after this day (undated logs are left out).",
)
@click.option(
    "--event",
    metavar="NAME",
    help="Only matches whose log header has the event tag NAME (exactly).",
)
@options.output_format(["text", "json"], "Table, or a JSON list of objects.")
@pass_cli_context
def list_(
    cli: CliContext,
    player: str | None,
    winner: str | None,
    victory: str | None,
    flagged: bool | None,
    since: datetime | None,
    output_format: str,
    event: str | None = None,
) -> None:
    """List stored matches: date, players, turns, winner, victory, violations, head hash.

    The date is the day the log says the match was created ('-' when it does
    not say). Matches whose log header carries tournament tags (event, round,
    table, date) show them in one more column.

    Example:

    \b
        vwlog list
        vwlog list --flagged --format json
        vwlog list --player p2 --victory MILITARY --since 2026-01-01
        vwlog list --event "Bandung Open 2026"
    """
    if not options.store_exists(cli.store):
        metas = []  # nothing stored yet: a listing creates no store
    else:
        with open_store(cli) as store:
            metas = list_vouched(
                store,
                player=player,
                winner=winner,
                victory=victory,
                flagged=flagged,
                since=since.date() if since else None,
                event=event,
            )
    if output_format == "json":
        click.echo(to_json([match_summary_json(m) | {"vouched": v} for m, v in metas]))
        return
    tagged = any(m.tags for m, _vouched in metas)
    rows = []
    for m, vouched in metas:
        fork = (
            _("(fork of {parent} @{seq})").format(parent=m.parent, seq=m.fork_at)
            if m.parent
            else ""
        )
        if m.seal == "import":
            fork = f"{fork} ({_('sealed on import')})".strip()
        if not vouched:
            fork = f"{fork} ({_('UNVOUCHED: altered in the database?')})".strip()
        day = created_day(m.created)
        rows.append(
            (
                m.match_id,
                day.isoformat() if day else "-",
                ",".join(m.players),
                m.turns or 0,
                m.winner or "-",
                victory_name(m.victory) or "-",
                m.violations,
                m.head_hash[:12],
                *((tags_cell(m.tags),) if tagged else ()),
                fork,
            )
        )
    headers = (*(_(h) for h in _LIST_HEADERS), *((_("event"),) if tagged else ()), "")
    echo(table(headers, rows, align="<<<><<><<" + ("<" if tagged else ""), gap=" "))
    echo(counted(len(metas), "match", "matches"), err=True)


def tags_cell(tags: dict[str, str]) -> str:
    """A match's tournament tags in one cell: ``Open 2026 · round 3 · table 12 · 2026-11-02``
    ('-' without tags)."""
    parts = [tags["event"]] if "event" in tags else []
    if "round" in tags:
        parts.append(_("round {round}").format(round=tags["round"]))
    if "table" in tags:
        parts.append(_("table {table}").format(table=tags["table"]))
    if "date" in tags:
        parts.append(tags["date"])
    return term(" · ".join(parts)) or "-"


def _tree(node: LineageNode, prefix: str = "", last: bool = True, root: bool = True) -> list[str]:
    m = node.meta
    at = " @ " + _("seq {seq}").format(seq=m.fork_at) if m.fork_at is not None else ""
    ending = (
        _("won by {winner} ({victory})").format(
            winner=term(m.winner), victory=victory_name(m.victory)
        )
        if m.winner
        else _("running")
    )
    line = f"{term(m.match_id)}{at} · {counted(m.events, 'event')} · {ending}"
    out = [line if root else f"{prefix}{'└── ' if last else '├── '}{line}"]
    child_prefix = "" if root else prefix + ("    " if last else "│   ")
    for i, child in enumerate(node.children):
        out.extend(_tree(child, child_prefix, i == len(node.children) - 1, root=False))
    return out


@main.command(name="lineage")
@click.argument("match_id")
@options.output_format(["text", "json"], "A tree, or nested JSON objects.")
@pass_cli_context
def lineage_(cli: CliContext, match_id: str, output_format: str) -> None:
    """Show the tree of forks a stored match belongs to, from its root.

    Example:

    \b
        vwlog lineage sim-7-00001
        vwlog lineage 'sim-7-00001~block' --format json
    """
    with open_store(cli, match_id) as store:
        root = lineage(store, match_id)
    if output_format == "json":

        def as_dict(node: LineageNode) -> dict[str, Any]:
            return {**match_summary_json(node.meta), "forks": [as_dict(c) for c in node.children]}

        click.echo(to_json(as_dict(root)))
        return
    echo("\n".join(_tree(root)))


__all__ = ["export", "import_", "lineage_", "list_", "open_store"]
