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
from vwlog.cli.render import echo, echo_result, progress, rule_title, to_json
from vwlog.engine.replay import ValidationReport, ViolationPolicy
from vwlog.events import MatchStarted
from vwlog.io.i18n import N_, say
from vwlog.io.i18n import gettext as _
from vwlog.io.logfile import STDIO, open_log
from vwlog.model.cards import OPEN_QUESTION_FLAGS, SECOND_FLAGS, Ruleset, flag_reading
from vwlog.model.errors import LogFormatError, VwlogError
from vwlog.render.json import integrity_json, validation_json, verify_json
from vwlog.render.markdown import validation_markdown
from vwlog.render.provenance import Provenance, provenance, provenance_markdown
from vwlog.render.rules import rule_reason
from vwlog.render.text import counted, term, validation_text
from vwlog.render.trust import (
    COMMITMENT_STATUS,
    SIGNATURE_STATUS,
    reason_line,
    verdict,
    verdict_word,
)
from vwlog.rules.catalog import PENDING_FLAGS
from vwlog.rules.published import Verdict
from vwlog.services import (
    InputProblem,
    ValidationOptions,
    apply_overrides,
    rules_catalog,
    validate_logs,
)
from vwlog.services.cluster import (
    TaskFailure,
    shared_paths,
    validate_task,
)
from vwlog.services.trust import check_integrity
from vwlog.services.verdict import judge_file, judge_stored, verify_verdict

if TYPE_CHECKING:
    from vwlog.rules.published import Integrity
    from vwlog.services.trust import TrustOptions
    from vwlog.services.verify import VerifyReport


def _ruleset_options(ruleset_file: Path | None, sets: tuple[str, ...]) -> ValidationOptions:
    chosen = options.reading(ruleset_file, sets)
    return ValidationOptions(ruleset=chosen.ruleset, overrides=chosen.overrides)


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
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes that validate, this one included (each takes the next log when done).",
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
    opts = ValidationOptions(base.ruleset, base.overrides, policy, trust=held)
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
            if report is not None:
                _show_validation(ctx, report, opts, output_format, quiet=quiet, into=reports)
    if output_format == "json":
        click.echo(to_json(reports))
    else:
        click.echo(tally.summary(), err=output_format != "text")
    ctx.exit(worst_status(tally.verdicts, unreadable=tally.unreadable))


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
    ruleset, cards = opts.ruleset, None
    if path is not None and path != STDIO:
        try:
            with open_log(path) as reader:
                first = next(iter(reader), None)
        except VwlogError:
            first = None
        if first is not None and isinstance(first.record.event, MatchStarted):
            ruleset = ruleset or first.record.event.ruleset
            cards = first.record.event.cards
    if ruleset is not None and opts.overrides:
        ruleset = apply_overrides(ruleset, dict(opts.overrides))
    return provenance(ruleset, cards)


@main.command()
@options.output_format(
    ["text", "json"], "Text table, or a JSON list of {id, title, status, reason}."
)
@click.option(
    "--status",
    "only",
    type=click.Choice(["enforced", "partial", "descriptive", "pending"]),
    help="Only rules with this status.",
)
@click.option("--flags", is_flag=True, help="List the ruleset flags (open questions) instead.")
def rules(output_format: str, only: str | None, *, flags: bool) -> None:
    """List the rule catalog: every rule id with its title and enforcement status.

    A rule is enforced (the engine checks it and cites its id), partial
    (checked in part; the reason says what is not), descriptive (nothing a log
    can break) or pending (checkable, not yet checked; the reason says why).
    With --flags, list the ruleset flags that answer the open questions, with
    their defaults.

    Example:

    \b
        vwlog rules
        vwlog rules --status pending
        vwlog rules --format json
        vwlog rules --flags
    """
    if flags:
        defaults = Ruleset()
        rows: list[dict[str, str | object]] = []
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
        return
    catalog = [
        {**r, "title": rule_title(r["id"])}
        for r in rules_catalog()
        if only is None or r["status"] == only
    ]
    if output_format == "json":
        click.echo(
            to_json([{k: r[k] for k in ("id", "title", "status", "reason")} for r in catalog])
        )
        return
    for r in catalog:
        tail = f"  ({rule_reason(r['reason'])})" if r["reason"] else ""
        click.echo(f"{r['id']:10} {r['status']:11} {r['title']}{tail}")
    counts = Counter(r["status"] for r in rules_catalog())
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


@main.command()
@click.argument("logs", nargs=-1, required=True, metavar="MATCH_OR_LOG...")
@options.output_format(["text", "json"], "Output for people (text) or machines (json).")
@trust_cli.keyring_option
@trust_cli.require_option
@trust_cli.trust_log_definitions_option
@trust_cli.accept_pool_option
@trust_cli.accept_ruleset_option
@click.option(
    "--repair",
    is_flag=True,
    help="For a stored match whose chain is intact: rebuild from the records the snapshots "
    "and the catalog entry that disagree with them (still reported, exit status 1).",
)
@pass_cli_context
@click.pass_context
def verify(
    ctx: click.Context,
    cli: CliContext,
    logs: tuple[str, ...],
    output_format: str,
    keyring: Path | None,
    require: tuple[str, ...],
    trust_log_definitions: bool,
    accept_pools: tuple[str, ...],
    accept_rulesets: tuple[str, ...],
    repair: bool,
) -> None:
    """Check the hash chain, seal, signatures and deck commitments of logs.

    Every record carries SHA-256 over its canonical JSON and the previous
    hash; the first broken link is named with its seq and line, expected vs
    found. A log file or stored match must end with a seal that matches it
    (else it is unsealed: its end cannot be told from a cut); every
    signature must be its key's over the seal, and with --keyring at least
    one must be by a key of the ring, named as the ring names it. Every
    signer the seal requires (vwlog seal --require), and every --require
    NAME, must have signed (with --keyring: a key the ring names so);
    a missing one makes the record UNTRUSTED, naming who is missing.
    Deck-order commitments in match_started are checked against the
    deck_revealed salts. A stored match's catalog entry and snapshots are
    also checked against its records; --repair rebuilds those that disagree.

    Each check ends with the record's one verdict and its reason, the same
    as validate, report, import and the service give (the rules are
    replayed too: card definitions that differ from the published pool are
    ILLEGAL here as there; a pool or ruleset nobody published is
    UNVERIFIED unless --trust-log-definitions). In JSON, "ok" is true
    exactly when the verdict is OK and no derived data was found altered,
    as exit status 0 says; a file that cannot be read gets an entry with
    its "error", and the other files are still checked.

    Exit status: the worst of every log or match: 0 the verdict is OK
    (intact, sealed, legal), 1 any other verdict but UNVERIFIED (a chain is
    broken, the log is unsealed, a seal or signature fails or is missing,
    a commitment fails, a rule is broken, the log carries no hashes) or
    derived data found altered, 2 a file or key cannot be read, 3 the
    verdict is UNVERIFIED (worst first: 2, 1, 3, 0).

    Example:

    \b
        vwlog verify match.jsonl
        vwlog verify --keyring keys/ signed.jsonl
        vwlog verify --keyring keys/ --require bob signed.jsonl
        vwlog verify --format json exported/*.jsonl
        vwlog verify sim-7-00001
    """
    statuses: set[int] = set()
    out = []
    held = trust_cli.trust_options(
        cli,
        None,
        None,
        keyring,
        trust_log_definitions=trust_log_definitions,
        accept_pools=accept_pools,
        accept_rulesets=accept_rulesets,
        require=require,
    )
    for arg in logs:
        try:
            report, integrity, judged = _verify_one(ctx, cli, arg, held, repair=repair)
        except VwlogError as err:
            # one record that cannot be read is that record's error: the others are checked
            statuses.add(2)
            message = options.shown_name(ctx, say(err.said()))
            if output_format == "json":
                out.append(
                    {"source": options.shown_name(ctx, arg), "ok": False, "verdict": None}
                    | {"error": message}
                )
            else:
                echo(_("Error: {message}").format(message=term(message)), err=True)
            continue
        ok = judged is not None and verify_verdict(report, judged)
        judgement_of = judged.judgement if judged is not None else None
        if ok:
            statuses.add(0)
        elif judgement_of is not None and judgement_of.verdict is not Verdict.OK:
            statuses.add(exit_status(judgement_of.verdict))
        else:
            statuses.add(1)  # no longer a log, or derived data found altered
        if output_format == "json":
            entry = verify_json(report, judged) | {"integrity": integrity_json(integrity)}
            out.append(entry | {"ok": ok, "chain_ok": report.ok})
            continue
        for line in _verify_text(report, integrity, judged):
            echo(line)
    if output_format == "json":
        click.echo(to_json(out))
    ctx.exit(next((s for s in (2, 1, EXIT_UNVERIFIED) if s in statuses), 0))


def _verify_one(
    ctx: click.Context, cli: CliContext, arg: str, held: TrustOptions, *, repair: bool
) -> tuple[VerifyReport, Integrity, ValidationReport | None]:
    """Check one log file or stored match: its chain's report, what its verdict rests on,
    and the judged validation (``None`` when the file is no longer a log: its chain still
    names where).

    Raises:
        VwlogError: the file or match cannot be read.
    """
    path = options.log_file(arg)
    judged: ValidationReport | None = None
    with options.named_for_user(ctx):
        if path is not None:
            readable = options.once_readable(ctx, path)
            try:
                report, judged = judge_file(readable, held)
            except LogFormatError:
                # no longer a log (an altered line): the chain still names where
                findings = check_integrity(readable, held)
                assert findings.chain is not None
                report = findings.chain
                integrity = findings.integrity
            report = dataclasses.replace(report, source=options.shown_name(ctx, report.source))
        else:
            store = options.stored_match(ctx, cli.store, arg)
            report, judged = judge_stored(store, arg, held, repair=repair)
        if judged is not None:
            assert judged.integrity is not None
            integrity = judged.integrity
    return report, integrity, judged


def _verify_text(
    report: VerifyReport, integrity: Integrity, judged: ValidationReport | None
) -> list[str]:
    """What `verify` says of one log or stored match: the chain, the seal (its seq and line),
    the signatures, the deck commitments, any derived data found altered, and the one
    verdict with its reason."""
    lines: list[str] = []
    source = term(report.source)
    if not report.sealed:
        lines.append(_("{source}: carries no hashes; nothing to verify").format(source=source))
        lines.extend(_verdict_lines(judged))
        return lines
    if report.broken is None:
        lines.append(
            _("{source}: chain intact · {records} · head {hash}").format(
                source=source,
                records=counted(report.records, "record"),
                hash=(report.head_hash or "")[:16],
            )
        )
    else:
        b = report.broken
        where = (
            _("seq {seq}, line {line}").format(seq=b.seq, line=b.line)
            if b.seq is not None
            else _("line {line}").format(line=b.line)
        )
        lines.append(
            _("{source}: BROKEN at {where}: {reason}").format(
                source=source, where=where, reason=term(say(b.reason))
            )
        )
        if b.expected or b.found:
            lines.append(
                _("    expected {expected}\n    found    {found}").format(
                    expected=term(b.expected), found=term(b.found)
                )
            )
    if report.seal == "import":
        lines.append(
            "    " + _("sealed on import: the log carried no hashes, so the chain shows only")
        )
        lines.append(
            "    " + _("that nothing changed since it was imported, not what its author wrote")
        )
    for problem in report.derived:
        lines.append(
            "    " + _("ALTERED derived data: {problem}").format(problem=term(say(problem)))
        )
    for done in report.repaired:
        lines.append("    " + _("REPAIRED: {what}").format(what=term(say(done))))
    for c in report.commitments:
        lines.append(
            _("    deck commitment of {player}: {status}").format(
                player=term(c.player), status=term(_(COMMITMENT_STATUS.get(c.status, c.status)))
            )
        )
    lines.extend(_seal_lines(integrity))
    lines.extend(_verdict_lines(judged))
    return lines


def _seal_lines(integrity: Integrity) -> list[str]:
    """`verify`'s lines on the seal (its seq and line), the signatures and the problems."""
    lines: list[str] = []
    seal = say(integrity.seal)
    if integrity.sealed and integrity.seal_seq is not None:
        where = _("seq {seq}, line {line}").format(seq=integrity.seal_seq, line=integrity.seal_line)
        seal = f"{seal} ({where})"
    lines.append("    " + _("seal: {seal}").format(seal=term(seal)))
    for sig in integrity.signatures:
        signer = (
            _("{signer} (keyring: {known})").format(signer=sig.signer, known=sig.known_as)
            if sig.known_as
            else sig.signer
        )
        lines.append(
            "    "
            + _("signed by {signer}, key {key}: {status}").format(
                signer=term(signer),
                key=sig.key_id,
                status=_(SIGNATURE_STATUS.get(sig.status, sig.status)),
            )
        )
    for problem in integrity.problems:
        if "hash chain" not in problem:
            lines.append(f"    {term(say(problem))}")
    return lines


def _verdict_lines(judged: ValidationReport | None) -> list[str]:
    """``verdict: UNTRUSTED`` and its reason, as `validate` and every other door give them."""
    if judged is None:
        return []
    return [
        "    " + _("verdict: {verdict}").format(verdict=verdict_word(judged, "terminal")),
        "    " + term(reason_line(judged)),
    ]


__all__ = ["rules", "validate", "verify"]
