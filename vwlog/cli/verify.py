"""``vwlog verify``: the chain, the seal, the signatures and the deck commitments of logs and
stored matches, each ending with the record's one verdict (`vwlog.services.verdict.judge`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from vwlog.cli import options
from vwlog.cli import trust as trust_cli
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.pipes import record_status
from vwlog.cli.render import echo, to_json
from vwlog.cli.validate import EXIT_UNVERIFIED, exit_status
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import say
from vwlog.io.integritypass import ENDINGS_CONVERTED, endings_converted
from vwlog.model.errors import LogFormatError, VwlogError
from vwlog.model.verdict import Verdict
from vwlog.render.json import integrity_json, verify_json
from vwlog.render.text import counted, term
from vwlog.render.trust import COMMITMENT_STATUS, SIGNATURE_STATUS, reason_line, verdict_word
from vwlog.services.judging import judge_file, judge_stored
from vwlog.services.trust import check_integrity
from vwlog.services.verdict import verify_verdict

if TYPE_CHECKING:
    from vwlog.engine.replay import ValidationReport
    from vwlog.io.chain import VerifyReport
    from vwlog.model.verdict import Integrity
    from vwlog.services.trust import TrustOptions


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
    out: list[dict[str, Any]] = []
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
        statuses.add(_verify_entry(ctx, cli, arg, held, output_format, out, repair=repair))
    if output_format == "json":
        click.echo(to_json(out))
    ctx.exit(next((s for s in (2, 1, EXIT_UNVERIFIED) if s in statuses), 0))


def _verify_entry(
    ctx: click.Context,
    cli: CliContext,
    arg: str,
    held: TrustOptions,
    output_format: str,
    out: list[dict[str, Any]],
    *,
    repair: bool,
) -> int:
    """Check one log or stored match and say what was found (text now, JSON into ``out``):
    its exit status, as `exit_status` gives it (2 when it cannot be read: that is its entry,
    and the others are still checked)."""
    try:
        report, integrity, judged = _verify_one(ctx, cli, arg, held, repair=repair)
    except VwlogError as err:
        message = options.shown_name(ctx, say(err.said()))
        if output_format == "json":
            out.append(
                {"source": options.shown_name(ctx, arg), "ok": False, "verdict": None}
                | {"error": message}
            )
        else:
            echo(_("Error: {message}").format(message=term(message)), err=True)
        record_status(ctx, 2)
        return 2
    ok = judged is not None and verify_verdict(report, judged)
    judgement_of = judged.judgement if judged is not None else None
    if ok:
        status = 0
    elif judgement_of is not None and judgement_of.verdict is not Verdict.OK:
        status = exit_status(judgement_of.verdict)
    else:
        status = 1  # no longer a log, or derived data found altered
    record_status(ctx, status)
    if output_format == "json":
        entry = verify_json(report, judged) | {"integrity": integrity_json(integrity)}
        out.append(entry | {"ok": ok, "chain_ok": report.ok})
    else:
        for line in _verify_text(report, integrity, judged):
            echo(line)
    return status


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
    if ENDINGS_CONVERTED in integrity.warnings:
        lines.append("    " + term(say(endings_converted())))
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


__all__ = ["verify"]
