"""``vwlog validate``, ``vwlog rules``, ``vwlog verify`` and ``vwlog simulate``."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from vwlog.cli import options
from vwlog.cli import trust as trust_cli
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.cluster import cluster_option, on_cluster, report_failure
from vwlog.cli.pipes import record_status
from vwlog.cli.render import echo, echo_result, progress, to_json
from vwlog.engine.replay import ValidationReport, ViolationPolicy
from vwlog.io.i18n import N_, say
from vwlog.io.i18n import gettext as _
from vwlog.io.logfile import STDIO, open_log
from vwlog.model.errors import VwlogError
from vwlog.model.verdict import Verdict
from vwlog.render.json import validation_json
from vwlog.render.markdown import validation_markdown
from vwlog.render.provenance import Provenance, provenance, provenance_markdown
from vwlog.render.text import counted, term, validation_text
from vwlog.render.trust import (
    verdict,
)
from vwlog.services import (
    InputProblem,
    ValidationOptions,
    validate_logs,
)
from vwlog.services.cluster import (
    TaskFailure,
    shared_paths,
    validate_task,
)

if TYPE_CHECKING:
    pass


def _ruleset_options(ruleset_file: Path | None, sets: tuple[str, ...]) -> ValidationOptions:
    chosen = options.reading(ruleset_file, sets)
    return ValidationOptions(
        ruleset=chosen.ruleset, overrides=chosen.overrides, ruleset_file=chosen.file
    )


def _split_ruleset(value: str | None) -> tuple[Path | None, str | None]:
    """``--ruleset``: an existing JSON file to judge under, or a published ruleset's id."""
    if value is None:
        return None, None
    if Path(value).is_file():
        return Path(value), None
    return None, value


ruleset_choice_option = click.option(
    "--ruleset",
    "ruleset_arg",
    metavar="FILE|ID",
    help="A ruleset JSON file to judge under instead of the one each match names, or the id of "
    "a published ruleset to hold each log's ruleset to (see 'vwlog ruleset list').",
)


@main.command()
@click.argument(
    "logs",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, allow_dash=True, path_type=Path),
)
@options.output_format(
    ["text", "json", "markdown"],
    "Text for a judge, JSON for machines (one object per log), Markdown for a report.",
)
@click.option("--strict", is_flag=True, help="Stop at the first violation.")
@options.jobs(
    help="Processes that validate, this one included (each takes the next log when done)."
)
@cluster_option
@click.option("--quiet", "-q", is_flag=True, help="Print only illegal logs and the totals.")
@ruleset_choice_option
@trust_cli.pool_option
@trust_cli.keyring_option
@trust_cli.trust_log_definitions_option
@trust_cli.accept_pool_option
@trust_cli.accept_ruleset_option
@trust_cli.require_option
@options.set_option
@pass_cli_context
@click.pass_context
def validate(
    ctx: click.Context,
    cli: CliContext,
    logs: tuple[Path, ...],
    output_format: str,
    *,
    strict: bool,
    jobs: int,
    cluster: str | None,
    batch: int | None,
    quiet: bool,
    ruleset_arg: str | None,
    pool_id: str | None,
    keyring: Path | None,
    trust_log_definitions: bool,
    accept_pools: tuple[str, ...],
    accept_rulesets: tuple[str, ...],
    require: tuple[str, ...],
    sets: tuple[str, ...],
) -> None:
    """Check match logs against the VW rules and report every violation.

    Each log is streamed through the rules engine: every decision is checked,
    every consequence must be the one the rules demand. A violation names the
    rule id and title, the seq and line, the turn, phase, step and priority
    holder, and what was expected instead. Validation goes on after a
    violation (like a judge reading the whole record) unless --strict.

    Beside the rules, every report says what its verdict rests on: the card
    pool and ruleset the log is held to (published, or the log's own with a
    warning), the hash chain, the seal and the signatures, and every result
    whose effects are taken as logged. A log without a seal is INCOMPLETE
    (its end cannot be told from a cut); a broken chain, a seal that does
    not match, a bad or missing required signature is UNTRUSTED. A legal
    log whose pool or ruleset nobody published (whatever id it gives them),
    or that --accept-pool/--accept-ruleset (or VWLOG_ACCEPT_POOLS,
    VWLOG_ACCEPT_RULESETS) do not accept, is UNVERIFIED: legal only under
    its own definitions. --trust-log-definitions makes it OK, and the
    verdict says it rests on the log's own definitions.

    Exit status: 0 all logs OK, 1 a log is ILLEGAL, INCOMPLETE or
    UNTRUSTED, 2 a log cannot be read (the others are still validated),
    3 a log is UNVERIFIED and none is worse (the worst status wins: 2,
    then 1, then 3). A directory stands for the *.jsonl files directly in it.

    Example:

    \b
        vwlog validate samples/*.jsonl
        vwlog validate corpus/ --quiet
        vwlog validate --format json match.jsonl > report.json
        vwlog validate --set attack_target_mode=SINGLE match.jsonl
        vwlog validate -j 2 corpus/*.jsonl --quiet
        vwlog validate --cluster tcp://scheduler:8786 /shared/corpus/ -q
    """
    # standard input and FIFOs are read once, into a temporary copy: the integrity pass reads
    # the log a second time
    paths = options.expand_logs(logs)
    if not cluster:  # workers cannot read this process's standard input: refused below
        paths = [options.once_readable(ctx, p) for p in paths]
    ruleset_file, ruleset_id = _split_ruleset(ruleset_arg)
    base = _ruleset_options(ruleset_file, sets)
    held = trust_cli.trust_options(
        cli,
        pool_id,
        ruleset_id,
        keyring,
        trust_log_definitions=trust_log_definitions,
        accept_pools=accept_pools,
        accept_rulesets=accept_rulesets,
        require=require,
    )
    policy = ViolationPolicy.STOP_AT_FIRST if strict else ViolationPolicy.COLLECT
    opts = dataclasses.replace(base, policy=policy, trust=held)
    tally = _validate_all(ctx, paths, opts, output_format, (cluster, jobs, batch), quiet=quiet)
    ctx.exit(worst_status(tally.verdicts, unreadable=tally.unreadable))


def _validate_all(
    ctx: click.Context,
    paths: list[str],
    opts: ValidationOptions,
    output_format: str,
    workers: tuple[str | None, int, int | None],
    *,
    quiet: bool,
) -> _Tally:
    """Validate ``paths`` (on a cluster, or ``jobs`` processes: ``workers``), write each
    report as it comes and the totals at the end; what was found."""
    cluster, jobs, batch = workers
    tally = _Tally()
    reports: list[dict[str, Any]] = []
    with progress(
        len(paths), N_("validating"), enabled=len(paths) > 1 and output_format == "text"
    ) as bar:
        outcomes = (
            on_cluster(cluster, jobs, validate_task, paths, opts, shared_paths(paths), batch=batch)
            if cluster
            else validate_logs(paths, opts, jobs=jobs)
        )
        for outcome in outcomes:
            bar.update(1)
            report = tally.count(ctx, outcome)
            record_status(ctx, worst_status(tally.verdicts, unreadable=tally.unreadable))
            if report is not None:
                _show_validation(ctx, report, opts, output_format, quiet=quiet, into=reports)
    if output_format == "json":
        click.echo(to_json(reports))
    else:
        click.echo(tally.summary(), err=output_format != "text")
    return tally


EXIT_UNVERIFIED = 3
"""The exit status of `validate` and `verify` when a record is UNVERIFIED and none is worse."""


def exit_status(judged: Verdict | None) -> int:
    """The exit status one verdict gives (``None``: the record could not be read)."""
    if judged is None:
        return 2
    if judged is Verdict.OK:
        return 0
    return EXIT_UNVERIFIED if judged is Verdict.UNVERIFIED else 1


def worst_status(verdicts: Counter[str], *, unreadable: int = 0) -> int:
    """The worst exit status of many records: 2 (unreadable), then 1, then 3 (UNVERIFIED),
    then 0."""
    statuses = {exit_status(Verdict(v)) for v, n in verdicts.items() if n}
    if unreadable:
        statuses.add(2)
    return next((s for s in (2, 1, EXIT_UNVERIFIED) if s in statuses), 0)


@dataclasses.dataclass
class _Tally:
    """What a validation run found, counted as the outcomes arrive."""

    total: int = 0
    illegal: int = 0
    """Records neither OK nor UNVERIFIED."""
    unverified: int = 0
    unreadable: int = 0
    verdicts: Counter[str] = dataclasses.field(default_factory=Counter)

    def count(
        self, ctx: click.Context, outcome: ValidationReport | InputProblem | TaskFailure
    ) -> ValidationReport | None:
        """Count one outcome; say why a log could not be read. The report, if it is one."""
        self.total += 1
        if isinstance(outcome, TaskFailure):
            self.unreadable += 1
            report_failure(outcome)
            return None
        if isinstance(outcome, InputProblem):
            self.unreadable += 1
            message = options.shown_name(ctx, say(outcome.error))
            echo(_("Error: {message}").format(message=term(message)), err=True)
            return None
        judged = verdict(outcome)
        if judged is Verdict.UNVERIFIED:
            self.unverified += 1
        elif judged is not Verdict.OK:
            self.illegal += 1
        self.verdicts[judged] += 1
        return outcome

    def summary(self) -> str:
        """The closing line: how many logs, and how many of each verdict."""
        verdicts = self.verdicts
        doubtful = "".join(
            f", {verdicts[v]} {v.lower()}"
            for v in ("INCOMPLETE", "UNTRUSTED", "UNVERIFIED")
            if verdicts[v]
        )
        line = _("{logs}: {legal} legal, {illegal} illegal{doubtful}, {unreadable} unreadable")
        return line.format(
            logs=counted(self.total, "log"),
            legal=self.total - self.illegal - self.unverified - self.unreadable,
            illegal=verdicts["ILLEGAL"],
            doubtful=doubtful,
            unreadable=self.unreadable,
        )


def _show_validation(
    ctx: click.Context,
    outcome: ValidationReport,
    opts: ValidationOptions,
    output_format: str,
    *,
    quiet: bool,
    into: list[dict[str, Any]],
) -> None:
    """Write one log's report in ``output_format`` (JSON reports are collected ``into`` a list
    written at the end)."""
    read_from = outcome.source
    outcome.source = options.shown_name(ctx, read_from or "")
    if output_format == "json":
        made = _log_provenance(read_from, opts)
        into.append({**validation_json(outcome), "provenance": made.as_dict()})
    elif output_format == "markdown":
        made = _log_provenance(read_from, opts)
        echo(validation_markdown(outcome) + provenance_markdown(made))
    elif not quiet or verdict(outcome) is not Verdict.OK:
        echo_result(validation_text(outcome))


def _log_provenance(path: str | None, opts: ValidationOptions) -> Provenance:
    """What a log was judged with: the ruleset it names (or --ruleset), with --set applied, and
    the cards its ``match_started`` carries (read again from its first record). Standard input
    cannot be read twice: its report names the --ruleset reading, or the packaged defaults."""
    named, cards, game = None, None, None
    if path is not None and path != STDIO:
        try:
            with open_log(path) as reader:
                game = reader.game
                first = next(iter(reader), None)
        except VwlogError:
            first = None
        if game is not None and first is not None and type(first.record.event) is game.start_type:
            named = game.start_ruleset(first.record.event)
            if game.start_cards is not None:
                cards = game.start_cards(first.record.event)
    return provenance(opts.judged_under(named), cards, game=game)


__all__ = ["EXIT_UNVERIFIED", "exit_status", "validate", "worst_status"]
