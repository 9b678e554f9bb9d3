"""``vwlog stats``: per-match and corpus statistics over log files, or over the match store
through its statistics read model."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from vwlog.cli import gamestats, options
from vwlog.cli.base import CliContext, main
from vwlog.cli.cluster import cluster_option, on_cluster, report_failure
from vwlog.cli.helptexts import more_help
from vwlog.cli.render import progress
from vwlog.io.i18n import N_, say
from vwlog.io.i18n import gettext as _
from vwlog.io.parquet import ParquetStats
from vwlog.model.errors import LogFormatError, OutputError, UsageError
from vwlog.model.text import msg
from vwlog.model.types import Faction
from vwlog.projections.stats import (
    NEUTRAL,
    CorpusStats,
    MatchMetrics,
    StatsFilter,
)
from vwlog.render.statspage import (
    DEFAULT_MIN_N,
    DEFAULT_TOP,
    render_csv,
    render_html,
    render_json,
    render_matches_csv,
    render_matches_json,
    render_matches_table,
    render_table,
)
from vwlog.render.text import term, visible
from vwlog.services.cluster import (
    NotIntact,
    TaskFailure,
    shared_paths,
    stats_task,
    store_metrics_task,
)
from vwlog.services.cluster import measure_log as match_metrics
from vwlog.services.sharing import ordered_map
from vwlog.services.stats import NOT_INTACT, catch_up, count, holds_forks, measured, rebuild
from vwlog.store import MatchStore, settings_from_url

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime


def _measure(path: str) -> MatchMetrics | NotIntact | str:
    """`match_metrics`, with an unreadable file reported as its error message (for workers)."""
    try:
        return match_metrics(path)
    except LogFormatError as err:
        return err.said()


def _say_unreadable(error: str) -> None:
    """The ``Error:`` line of a log or match that could not be measured (its message said in
    the active language: a worker's `vwlog.model.text.SaidText` keeps the template)."""
    click.echo(_("Error: {message}").format(message=term(say(error))), err=True)


def _from_store(
    cli: CliContext, filters: StatsFilter, *, per_match: bool, again: bool, forks: bool
) -> tuple[CorpusStats, list[MatchMetrics]]:
    """The statistics of the stored matches: the read model, caught up (or rebuilt); with
    filters or ``--per-match``, or forks to leave out, built from every stored match's kept
    metrics instead."""
    backend = settings_from_url(cli.store)
    if backend.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        if not os.path.exists(backend["SQLITE_DBNAME"]):
            raise UsageError(
                msg(
                    "no store at {store}: give LOG files, or --store for the matches you imported",
                    store=cli.store,
                )
            )
    with MatchStore.open(cli.store) as store:
        _warn_unvouched(store)
        if store.position() == 0:  # like a directory without logs
            raise UsageError(
                msg(
                    "no matches stored in {url}: import logs with 'vwlog import', or give LOG "
                    "files",
                    url=store.url,
                )
            )
        if again:
            total = len(store.match_ids())
            with progress(total, N_("replaying"), enabled=total > 1) as bar:
                rebuilt = rebuild(store, on_match=lambda _metrics: bar.update(1))
            click.echo(f"rebuilt the statistics of {rebuilt.added} stored matches", err=True)
        if filters.active or per_match or (not forks and holds_forks(store)):
            corpus = CorpusStats(filters=filters)
            kept: list[MatchMetrics] = []
            for metrics in measured(store, forks=forks):
                if corpus.add(metrics) and per_match:
                    kept.append(metrics)
            return corpus.canonical(), kept
        if again:
            return rebuilt.stats, []
        caught = catch_up(store)
        if caught.restarted is not None:
            click.echo(f"statistics view started again: {caught.restarted}", err=True)
        return caught.stats, []


def _warn_unvouched(store: MatchStore) -> None:
    """Say which stored matches have a catalog entry this installation does not vouch for
    (altered in the database, or written elsewhere): their statistics come from it."""
    unvouched = [meta.match_id for meta, vouched in store.list_vouched() if not vouched]
    if unvouched:
        click.echo(
            _(
                "WARNING: the catalog entries of {count} stored match(es) are not as vwlog wrote "
                "them here (altered in the database?): {matches}; 'vwlog verify' checks them"
            ).format(count=len(unvouched), matches=term(", ".join(unvouched[:10]))),
            err=True,
        )


def _each_stored(
    cli: CliContext,
    filters: StatsFilter,
    sink: ParquetStats | None,
    cluster: str | None,
    jobs: int,
    *,
    per_match: bool,
    forks: bool,
    batch: int | None = None,
) -> tuple[CorpusStats, list[MatchMetrics], int]:
    """The statistics of the stored matches, counted one match at a time (for --parquet and
    --cluster): the metrics kept at import, or, on a cluster, replayed by the workers from the
    records they fetch from the store; and how many matches failed. Forks are left out unless
    ``forks``."""
    corpus = CorpusStats(filters=filters)
    kept: list[MatchMetrics] = []
    failed = 0
    with MatchStore.open(cli.store) as store:
        ids = [m.match_id for m in store.list_matches() if forks or m.parent is None]
        outcomes = (
            on_cluster(cluster, jobs, store_metrics_task, ids, cli.store, batch=batch)
            if cluster
            else measured(store, forks=forks)
        )
        with progress(len(ids), N_("measuring"), enabled=len(ids) > 1) as bar:
            for outcome in outcomes:
                bar.update(1)
                if isinstance(outcome, TaskFailure | str):
                    failed += 1
                    if isinstance(outcome, TaskFailure):
                        report_failure(outcome)
                    else:
                        click.echo(
                            _("Error: {message}").format(message=term(say(outcome))), err=True
                        )
                    continue
                if outcome is None:
                    count(corpus, None)
                    continue
                _add(corpus, outcome, kept if per_match else None, sink)
    return corpus.canonical(), kept, failed


def _add(
    corpus: CorpusStats,
    metrics: MatchMetrics,
    kept: list[MatchMetrics] | None,
    sink: ParquetStats | None,
) -> None:
    """Count a match in ``corpus``; when the filters take it, keep it in ``kept`` (with
    --per-match) and write it to ``sink`` (with --parquet)."""
    if corpus.add(metrics):
        if kept is not None:
            kept.append(metrics)
        if sink is not None:
            sink.add(metrics)


def _from_logs(
    paths: Sequence[str],
    filters: StatsFilter,
    *,
    jobs: int,
    per_match: bool,
    cluster: str | None = None,
    sink: ParquetStats | None = None,
    batch: int | None = None,
) -> tuple[CorpusStats, list[MatchMetrics], int]:
    """The statistics of log files, each streamed once (on the workers of ``cluster`` when one
    is given); an unreadable file is reported on stderr and counted (the third value)."""
    corpus = CorpusStats(filters=filters)
    kept: list[MatchMetrics] = []
    unreadable = 0
    with progress(len(paths), N_("measuring"), enabled=len(paths) > 1) as bar:
        outcomes = (
            on_cluster(cluster, jobs, stats_task, paths, shared_paths(paths), batch=batch)
            if cluster
            else ordered_map(_measure, paths, jobs)
        )
        for outcome in outcomes:
            bar.update(1)
            if isinstance(outcome, TaskFailure):
                unreadable += 1
                report_failure(outcome)
                continue
            if isinstance(outcome, str):
                unreadable += 1
                _say_unreadable(outcome)
                continue
            if isinstance(outcome, NotIntact):
                count(corpus, None, NOT_INTACT)
                continue
            _add(corpus, outcome, kept if per_match else None, sink)
    corpus.canonical()
    return corpus, kept, unreadable


_STATS_DETAILS = """\
With LOG arguments, each log (or every *.jsonl in a directory) is streamed
once through the replay loop; no store is used. Without them, the matches
in the store (--store) are measured through its statistics read model:
it is first brought up to date with the matches stored since it last
was, each counted from the metrics kept at import, so a query costs
about the same however many matches are stored. --rebuild recomputes it
from scratch by replaying every stored match (slow; the authoritative
answer). The read model is kept beside the store (vwlog.stats.db for
vwlog.db; schema NAME_stats on PostgreSQL). With --player, --faction,
--ruleset-id, --since, --event or --per-match the store's figures are built from
every stored match's kept metrics instead.

The corpus report gives victory types, match length, win rates by seat,
turn order, faction and deck, card win rates and tempo curves. Every win
rate comes with its sample size n and a Wilson 95% confidence interval.
Win rates and lengths count finished matches. --per-match gives each
player's totals and, in JSON (the "tempo" points) and CSV (rows with
scope "turn"), what they did in every turn.

Every figure is defined in docs/statistics.md (in the vwlog source
tree); the --html page ends with the same definitions.

Exit status: 0 success, 2 a log cannot be read (the others are still
counted) or bad usage.

Example:

\b
    vwlog stats corpus/
    vwlog stats corpus/*.jsonl --format csv > stats.csv
    vwlog stats corpus/ --html report.html --min-n 20
    vwlog stats corpus/ --player p1 --format json
    vwlog stats --event "Bandung Open 2026"
    vwlog stats match.jsonl --per-match
    vwlog stats
    vwlog --store club.db stats --format json
    vwlog stats --rebuild
    vwlog stats corpus/ --parquet tables/
    vwlog stats --cluster tcp://scheduler:8786 /shared/corpus/ --format json
"""
"""The rest of ``vwlog stats --help``, after the docstring's summary."""


@more_help(_STATS_DETAILS)
@main.command()
@click.argument(
    "logs",
    nargs=-1,
    type=click.Path(exists=True, allow_dash=True, path_type=Path),
)
@click.option(
    "--rebuild",
    "again",
    is_flag=True,
    help="Without LOG: recompute the store's statistics from scratch by replaying every "
    "stored match (slow), and keep them as the new read model.",
)
@options.output_format(
    ["text", "json", "csv"],
    "Aligned text, JSON (stable keys), or CSV (one row per metric and group).",
    default="text",
    aliases={"table": "text"},
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write a self-contained HTML page with charts (needs the 'stats' extra); the report "
    "is then printed only if --format is given.",
)
@click.option("--player", metavar="P", help="Only matches of player P, counted from P's side.")
@click.option(
    "--faction",
    type=click.Choice([f.value for f in Faction] + [NEUTRAL], case_sensitive=False),
    help="Only players whose deck is mostly of this faction.",
)
@click.option("--ruleset-id", "ruleset_id", metavar="ID", help="Only matches under ruleset ID.")
@click.option(
    "--event",
    metavar="NAME",
    help="Only matches whose log header has the event tag NAME (exactly).",
)
@click.option(
    "--include-forks",
    is_flag=True,
    help="Without LOG: count stored forks as matches too (by default they are left out).",
)
@click.option(
    "--since",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    metavar="YYYY-MM-DD",
    help="Only matches created on or after this date (YYYY-MM-DD); undated logs are skipped.",
)
@click.option("--per-match", is_flag=True, help="Print each match's metrics instead of the corpus.")
@options.number(
    "--min-n",
    low=1,
    default=DEFAULT_MIN_N,
    help="Fewest finished player-matches for a card or deck to be ranked.",
)
@options.number(
    "--top",
    low=1,
    default=DEFAULT_TOP,
    help="How many cards and decks to rank in the table and the page.",
)
@options.jobs(help="Worker processes (one log per worker at a time; LOG files only).")
@cluster_option
@click.option(
    "--parquet",
    "parquet_dir",
    type=click.Path(file_okay=False, writable=True, path_type=Path),
    metavar="DIR",
    help="Also write per-match, per-player, per-turn and per-card tables as Parquet under DIR "
    "(needs the 'parquet' extra; see docs/statistics.md).",
)
@click.pass_context
def stats(
    ctx: click.Context,
    logs: tuple[Path, ...],
    output_format: str,
    html_file: Path | None,
    player: str | None,
    faction: str | None,
    ruleset_id: str | None,
    since: datetime | None,
    event: str | None = None,
    *,
    per_match: bool,
    min_n: int,
    top: int,
    jobs: int,
    again: bool,
    include_forks: bool = False,
    cluster: str | None = None,
    batch: int | None = None,
    parquet_dir: Path | None = None,
) -> None:
    """Measure matches: per-match metrics and corpus statistics."""
    filters = StatsFilter(
        player=player,
        faction=faction.upper() if faction else None,
        ruleset=ruleset_id,
        since=since.date() if since else None,
        event=event,
    )
    if again and cluster:
        raise UsageError(msg("--rebuild runs in one process: give --cluster without --rebuild"))
    asked = {
        "--html": html_file is not None,
        "--parquet": parquet_dir is not None,
        "--cluster": cluster is not None,
        "--rebuild": again,
        "--player/--faction/--ruleset-id/--since/--event": filters.active,
    }
    if logs and not again and _other_game(ctx, logs, output_format, asked, per_match=per_match):
        return
    sink = ParquetStats(parquet_dir) if parquet_dir is not None else None
    corpus, kept, unreadable = _measured(
        ctx,
        logs,
        filters,
        sink,
        cluster,
        jobs,
        per_match=per_match,
        again=again,
        forks=include_forks,
        batch=batch,
    )
    cli = ctx.find_object(CliContext)
    if not logs and not corpus.matches and cli is not None:
        other = gamestats.corpus_of_store(cli.store, forks=include_forks)
        if other is not None:
            gamestats.vw_only(other.game, asked)
            gamestats.show(other, output_format, per_match=per_match)
            return
    text = _stats_text(corpus, kept, output_format, per_match=per_match, min_n=min_n, top=top)
    # the page is made before anything is written: a page that cannot be made writes nothing
    source = ", ".join(str(p) for p in logs) if logs else "the store"
    page = render_html(corpus, min_n=min_n, top=top, source=source) if html_file else None
    if output_format == "text" or sys.stdout.isatty():
        text = visible(text)  # CSV keeps its bytes in a file or a pipe
    if html_file is None or _asked(ctx, "output_format"):
        # with --html the page is the output: the report too only when a format is asked for
        click.echo(text, nl=not text.endswith("\n"))
    if html_file is not None and page is not None:
        _write_page(html_file, page)
    if sink is not None:
        sink.close()
        click.echo(
            f"wrote {sink.rows['matches']} matches to {parquet_dir} as Parquet "
            f"({', '.join(f'{table} {n:,} rows' for table, n in sink.rows.items())})",
            err=True,
        )
    if unreadable:
        ctx.exit(2)


def _other_game(
    ctx: click.Context,
    logs: tuple[Path, ...],
    output_format: str,
    asked: dict[str, bool],
    *,
    per_match: bool,
) -> bool:
    """Whether the logs were another game's, measured by its own statistics and shown (exit
    status 2 when a log could not be read); logs of several games are refused."""
    corpus, unreadable = gamestats.corpus_of_logs(options.expand_logs(logs))
    if corpus is None:
        return False
    gamestats.vw_only(corpus.game, asked)
    gamestats.show(corpus, output_format, per_match=per_match)
    if unreadable:
        ctx.exit(2)
    return True


def _asked(ctx: click.Context, name: str) -> bool:
    """Whether the parameter ``name`` was given (on the command line or by the environment),
    not left at its default."""
    source = ctx.get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def _measured(
    ctx: click.Context,
    logs: tuple[Path, ...],
    filters: StatsFilter,
    sink: ParquetStats | None,
    cluster: str | None,
    jobs: int,
    *,
    per_match: bool,
    again: bool,
    forks: bool,
    batch: int | None,
) -> tuple[CorpusStats, list[MatchMetrics], int]:
    """The corpus and the matches kept (with ``per_match``) from the LOG files or the store,
    and how many logs could not be read."""
    if logs:
        if again:
            raise UsageError(msg("--rebuild recomputes the store's statistics: give no LOG files"))
        return _from_logs(
            options.expand_logs(logs),
            filters,
            jobs=jobs,
            per_match=per_match,
            cluster=cluster,
            sink=sink,
            batch=batch,
        )
    cli = ctx.find_object(CliContext)
    if cli is None:
        raise UsageError(msg("give LOG files, or run 'vwlog stats' from the vwlog command"))
    if cluster or sink is not None:
        return _each_stored(
            cli, filters, sink, cluster, jobs, per_match=per_match, forks=forks, batch=batch
        )
    corpus, kept = _from_store(cli, filters, per_match=per_match, again=again, forks=forks)
    return corpus, kept, 0


def _stats_text(
    corpus: CorpusStats,
    kept: list[MatchMetrics],
    output_format: str,
    *,
    per_match: bool,
    min_n: int,
    top: int,
) -> str:
    """The corpus report (or, with ``per_match``, the matches' own figures) as text, JSON or
    CSV."""
    if per_match:
        renderers = {
            "text": render_matches_table,
            "json": render_matches_json,
            "csv": render_matches_csv,
        }
        return renderers[output_format](kept)
    if output_format == "json":
        return render_json(corpus, min_n=min_n)
    if output_format == "csv":
        return render_csv(corpus, min_n=min_n)
    return render_table(corpus, min_n=min_n, top=top)


def _write_page(html_file: Path, page: str) -> None:
    """Write the statistics page; say where on stderr."""
    try:
        html_file.write_text(page, encoding="utf-8")
    except OSError as err:
        raise OutputError(str(html_file), err.strerror or str(err)) from err
    click.echo(f"wrote {html_file}", err=True)


__all__ = ["match_metrics", "stats"]
