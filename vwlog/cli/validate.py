"""``vwlog validate``, ``vwlog rules``, ``vwlog verify`` and ``vwlog simulate``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from vwlog.audit.dispute import voided_markdown
from vwlog.cli import options
from vwlog.cli import trust as trust_cli
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.render import progress, rule_title, to_json
from vwlog.engine.replay import ValidationReport
from vwlog.io.logfile import write_log
from vwlog.io.pools import load_deck, load_pool
from vwlog.model.cards import OPEN_QUESTION_FLAGS, Ruleset
from vwlog.model.errors import UsageError
from vwlog.rules.catalog import PENDING_FLAGS
from vwlog.services import (
    InputProblem,
    SimulationSpec,
    ValidationOptions,
    apply_overrides,
    load_ruleset,
    parse_overrides,
    rules_catalog,
    simulate_to,
    validate_logs,
    verify_log,
)
from vwlog.services.trust import check_integrity, close_records, published_for

if TYPE_CHECKING:
    from vwlog.engine.simulate import GeneratedMatch
    from vwlog.model.errors import Violation


def _violation_dict(v: Violation) -> dict[str, Any]:
    return {
        "rule": v.rule,
        "title": rule_title(v.rule),
        "message": v.message,
        "seq": v.seq,
        "line": v.line,
        "event": v.event_type,
        "turn": v.turn,
        "phase": v.phase,
        "step": v.step,
        "priority": v.priority,
        "expected": v.expected,
        "actual": v.actual,
        "flag": v.flag,
    }


def _report_dict(r: ValidationReport) -> dict[str, Any]:
    return {
        "source": r.source,
        "match_id": r.match_id,
        "ok": r.ok,
        "players": list(r.players),
        "ruleset": r.ruleset,
        "events": r.events,
        "decisions": r.decisions,
        "consequences": r.consequences,
        "effects_verified": r.effects_verified,
        "effects_trusted": r.effects_trusted,
        "objects_trusted": r.objects_trusted,
        "turns": r.turns,
        "winner": r.winner,
        "victory": r.victory,
        "complete": r.complete,
        "stopped_at": r.stopped_at,
        "rulings": r.rulings,
        "voided": [list(v) for v in r.voided],
        "violations": [_violation_dict(v) for v in r.violations],
        "verdict": trust_cli.verdict(r),
        "integrity": trust_cli.integrity_dict(r.integrity),
        "trusted": trust_cli.trusted_dicts(r),
    }


def _summary(r: ValidationReport) -> str:
    n = len(r.violations)
    ending = f"won by {r.winner} ({r.victory})" if r.winner else "no winner yet"
    if r.stopped_at is not None:
        ending = f"stopped at seq {r.stopped_at} (--strict)"
    return (
        f"{r.events:,} events ({r.decisions:,} decisions, {r.consequences:,} consequences) · "
        f"{r.turns} turn{'s' if r.turns != 1 else ''} · {ending} · "
        f"effects {r.effects_verified:,} verified, "
        f"{r.effects_trusted:,} trusted · {n} violation{'s' if n != 1 else ''}"
    )


def _text(r: ValidationReport) -> str:
    players = ", ".join(r.players) or "unknown"
    head = f"{r.source}: match {r.match_id} · players {players} · ruleset {r.ruleset or 'unknown'}"
    lines = [head]
    for v in r.violations:
        lines.append(f"  {v.rule}  {rule_title(v.rule)}")
        lines.append(f"      {v.message}")
        if v.seq is not None or v.line is not None:
            lines.append(f"      at {v.where()} ({v.event_type})")
        if v.expected is not None:
            lines.append(f"      expected: {v.expected}")
        if v.actual is not None:
            lines.append(f"      actual:   {v.actual}")
    for start, end in r.voided:
        lines.append(f"  voided by a judge's back-up: seq {start}..{end}")
    lines += trust_cli.rests_on_lines(r)
    lines.append(f"  {trust_cli.verdict(r)} · {_summary(r)}")
    return "\n".join(lines)


def _markdown(r: ValidationReport) -> str:
    lines = [
        f"## Match `{r.match_id}`",
        "",
        f"- Source: `{r.source}`",
        f"- Players: {', '.join(r.players)}",
        f"- Ruleset: `{r.ruleset}`",
        f"- Verdict: **{_VERDICT_WORDS[trust_cli.verdict(r)]}**",
        f"- Summary: {_summary(r)}",
        "",
        *trust_cli.rests_on_markdown(r),
    ]
    if r.violations:
        lines += [
            "| Rule | Title | Seq | Line | Turn | Phase/step | Priority | Message |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for v in r.violations:
            pos = f"{v.phase or ''}{'/' + v.step if v.step else ''}"
            msg = v.message.replace("|", "\\|")
            if v.expected is not None:
                msg += f" (expected `{v.expected}`, actual `{v.actual}`)".replace("|", "\\|")
            lines.append(
                f"| {v.rule} | {rule_title(v.rule)} | {v.seq} | {v.line} | {v.turn} | {pos} | "
                f"{v.priority or ''} | {msg} |"
            )
        lines.append("")
    voided = voided_markdown(r)
    if voided:
        lines += [voided, ""]
    return "\n".join(lines)


_VERDICT_WORDS = {
    "OK": "legal",
    "ILLEGAL": "illegal",
    "INCOMPLETE": "incomplete (unsealed)",
    "UNTRUSTED": "untrusted (integrity fails)",
}


def _ruleset_options(ruleset_file: Path | None, sets: tuple[str, ...]) -> ValidationOptions:
    ruleset = load_ruleset(ruleset_file) if ruleset_file else None
    overrides = tuple(parse_overrides(sets).items())
    return ValidationOptions(ruleset=ruleset, overrides=overrides)


def _split_ruleset(value: str | None) -> tuple[Path | None, str | None]:
    """``--ruleset``: an existing JSON file to judge under, or a published ruleset's id."""
    if value is None:
        return None, None
    if Path(value).is_file():
        return Path(value), None
    return None, value


ruleset_file_option = click.option(
    "--ruleset",
    "ruleset_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Judge under this ruleset (JSON) instead of the one each match names.",
)
ruleset_choice_option = click.option(
    "--ruleset",
    "ruleset_arg",
    metavar="FILE|ID",
    help="A ruleset JSON file to judge under instead of the one each match names, or the id of "
    "a published ruleset to hold each log's ruleset to (see 'vwlog ruleset list').",
)
set_option = click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="FLAG=VALUE",
    help="Override one ruleset flag (repeatable), e.g. --set attack_target_mode=SINGLE.",
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
    help="Worker processes (one log per worker at a time).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only illegal logs and the totals.")
@ruleset_choice_option
@trust_cli.pool_option
@trust_cli.keyring_option
@set_option
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
    quiet: bool,
    ruleset_arg: str | None,
    pool_id: str | None,
    keyring: Path | None,
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
    not match or a bad signature is UNTRUSTED.

    Exit status: 0 all logs legal and sealed, 1 a log breaks a rule or is
    incomplete or untrusted, 2 a log cannot be read (the others are still
    validated). A directory stands for the *.jsonl files directly in it.

    Example:

    \b
        vwlog validate samples/*.jsonl
        vwlog validate corpus/ --quiet
        vwlog validate --format json match.jsonl > report.json
        vwlog validate --set attack_target_mode=SINGLE match.jsonl
        vwlog validate -j 2 corpus/*.jsonl --quiet
    """
    paths = options.expand_logs(logs)
    ruleset_file, ruleset_id = _split_ruleset(ruleset_arg)
    base = _ruleset_options(ruleset_file, sets)
    held = trust_cli.trust_options(cli, pool_id, ruleset_id, keyring)
    opts = ValidationOptions(base.ruleset, base.overrides, strict=strict, trust=held)
    illegal = unreadable = total = 0
    reports: list[dict[str, Any]] = []
    verdicts: Counter[str] = Counter()
    with progress(
        len(paths), "validating", enabled=len(paths) > 1 and output_format == "text"
    ) as bar:
        for outcome in validate_logs(paths, opts, jobs=jobs):
            total += 1
            bar.update(1)
            if isinstance(outcome, InputProblem):
                unreadable += 1
                click.echo(f"Error: {outcome.error}", err=True)
                continue
            if not outcome.ok:
                illegal += 1
            verdicts[trust_cli.verdict(outcome)] += 1
            if output_format == "json":
                reports.append(_report_dict(outcome))
            elif output_format == "markdown":
                click.echo(_markdown(outcome))
            elif not quiet or not outcome.ok:
                click.echo(_text(outcome))
    if output_format == "json":
        click.echo(to_json(reports))
    else:
        legal = total - illegal - unreadable
        doubtful = "".join(
            f", {verdicts[v]} {v.lower()}" for v in ("INCOMPLETE", "UNTRUSTED") if verdicts[v]
        )
        click.echo(
            f"{total} log{'s' if total != 1 else ''}: {legal} legal, {verdicts['ILLEGAL']} "
            f"illegal{doubtful}, {unreadable} unreadable",
            err=output_format != "text",
        )
    if unreadable:
        ctx.exit(2)
    if illegal:
        ctx.exit(1)


@main.command()
@options.output_format(
    ["text", "json"], "Text table, or a JSON list of {id, title, status, reason}."
)
@click.option(
    "--status",
    "only",
    type=click.Choice(["enforced", "descriptive", "pending"]),
    help="Only rules with this status.",
)
@click.option("--flags", is_flag=True, help="List the ruleset flags (open questions) instead.")
def rules(output_format: str, only: str | None, *, flags: bool) -> None:
    """List the rule catalog: every rule id with its title and enforcement status.

    A rule is enforced (the engine checks it and cites its id), descriptive
    (nothing a log can break) or pending (checkable, not yet checked; the
    reason says why). With --flags, list the ruleset flags that answer the
    open questions, with their defaults.

    Example:

    \b
        vwlog rules
        vwlog rules --status pending
        vwlog rules --format json
        vwlog rules --flags
    """
    if flags:
        defaults = Ruleset()
        rows = []
        for oq, name in OPEN_QUESTION_FLAGS.items():
            value = getattr(defaults, name)
            note = "recorded only: " + PENDING_FLAGS[name] if name in PENDING_FLAGS else ""
            rows.append({"question": oq, "flag": name, "default": value, "note": note})
        if output_format == "json":
            click.echo(to_json(rows))
            return
        for row in rows:
            line = f"{row['question']:6} {row['flag']:38} {row['default']!s:14}"
            click.echo((line + " " + row["note"]).rstrip())
        return
    catalog = [r for r in rules_catalog() if only is None or r["status"] == only]
    if output_format == "json":
        click.echo(
            to_json([{k: r[k] for k in ("id", "title", "status", "reason")} for r in catalog])
        )
        return
    for r in catalog:
        tail = f"  ({r['reason']})" if r["reason"] else ""
        click.echo(f"{r['id']:10} {r['status']:11} {r['title']}{tail}")
    counts = Counter(r["status"] for r in rules_catalog())
    click.echo(
        f"{sum(counts.values())} rules: {counts['enforced']} enforced, "
        f"{counts['descriptive']} descriptive, {counts['pending']} pending",
        err=True,
    )


@main.command()
@click.argument("logs", nargs=-1, required=True, metavar="MATCH_OR_LOG...")
@options.output_format(["text", "json"], "Output for people (text) or machines (json).")
@trust_cli.keyring_option
@pass_cli_context
@click.pass_context
def verify(
    ctx: click.Context,
    cli: CliContext,
    logs: tuple[str, ...],
    output_format: str,
    keyring: Path | None,
) -> None:
    """Check the hash chain, seal, signatures and deck commitments of logs.

    Every record carries SHA-256 over its canonical JSON and the previous
    hash; the first broken link is named with its seq and line, expected vs
    found. A log file must end with a seal that matches it (else it is
    unsealed: its end cannot be told from a cut); every signature must be
    its key's over the seal, and with --keyring at least one must be by a
    key of the ring, named as the ring names it. Deck-order commitments in
    match_started are checked against the deck_revealed salts.

    Exit status: 0 intact and sealed, 1 a chain is broken, the log is
    unsealed, a seal or signature fails or a commitment fails (or the log
    carries no hashes), 2 a file or key cannot be read.

    Example:

    \b
        vwlog verify match.jsonl
        vwlog verify --keyring keys/ signed.jsonl
        vwlog verify --format json exported/*.jsonl
        vwlog verify sim-7-00001
    """
    bad = 0
    out = []
    held = trust_cli.trust_options(cli, None, None, keyring)
    for path in logs:
        integrity = None
        if Path(path).exists() or path == "-":
            report = verify_log(path)
            if path != "-":
                integrity = check_integrity(path, held).integrity
        else:
            from vwlog.cli.matches import open_store
            from vwlog.services.matches import verify_match

            with open_store(cli) as store:
                report = verify_match(store, path)
        bad += not report.ok or (integrity is not None and not integrity.ok)
        if output_format == "json":
            out.append(
                {
                    "source": report.source,
                    "match_id": report.match_id,
                    "ok": report.ok,
                    "sealed": report.sealed,
                    "records": report.records,
                    "head_hash": report.head_hash,
                    "broken": None
                    if report.broken is None
                    else {
                        "seq": report.broken.seq,
                        "line": report.broken.line,
                        "reason": report.broken.reason,
                        "expected": report.broken.expected,
                        "found": report.broken.found,
                    },
                    "commitments": [
                        {"player": c.player, "status": c.status} for c in report.commitments
                    ],
                    "integrity": trust_cli.integrity_dict(integrity),
                }
            )
            continue
        if not report.sealed:
            click.echo(f"{report.source}: carries no hashes; nothing to verify")
            continue
        if report.broken is None:
            click.echo(
                f"{report.source}: chain intact · {report.records:,} records · head "
                f"{(report.head_hash or '')[:16]}"
            )
        else:
            b = report.broken
            where = f"seq {b.seq}, line {b.line}" if b.seq is not None else f"line {b.line}"
            click.echo(f"{report.source}: BROKEN at {where}: {b.reason}")
            if b.expected or b.found:
                click.echo(f"    expected {b.expected}\n    found    {b.found}")
        for c in report.commitments:
            click.echo(f"    deck commitment of {c.player}: {c.status}")
        if integrity is not None:
            click.echo(f"    seal: {integrity.seal}")
            for s in integrity.signatures:
                known = f" (keyring: {s.known_as})" if s.known_as else ""
                who = trust_cli.plain(s.signer + known)
                click.echo(f"    signed by {who}, key {s.key_id}: {s.status}")
            for problem in integrity.problems:
                if "hash chain" not in problem:
                    click.echo(f"    {trust_cli.plain(problem)}")
    if output_format == "json":
        click.echo(to_json(out))
    if bad:
        ctx.exit(1)


@main.command()
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run.")
@click.option("--matches", "-n", type=click.IntRange(1, 1_000_000), default=1, show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option(
    "--teams",
    type=click.IntRange(2, 4),
    help="Number of teams (Tag Team: --players 4 --teams 2; 3 on 3 style splits).",
)
@click.option(
    "--cards",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Card pool JSON (default: the packaged sample pool).",
)
@click.option(
    "--decks",
    "decks",
    multiple=True,
    metavar="DECK",
    help="Deck list file or packaged deck name, one per seat (repeat); default: random decks.",
)
@click.option(
    "--policy", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True
)
@click.option("--max-turns", type=click.IntRange(1, 100_000), default=200, show_default=True)
@click.option(
    "-o",
    "--out",
    type=click.Path(path_type=Path),
    help="Directory for the logs (or a .jsonl file for one match); default: a summary only.",
)
@ruleset_file_option
@set_option
def simulate(
    seed: int,
    matches: int,
    players: int,
    teams: int | None,
    cards: Path | None,
    decks: tuple[str, ...],
    policy: str,
    max_turns: int,
    out: Path | None,
    ruleset_file: Path | None,
    sets: tuple[str, ...],
) -> None:
    """Generate complete legal matches from a seed, in play mode.

    Every decision is chosen among the engine's legal decisions and every
    consequence is the one the rules demand, so each match validates clean.
    The same seed gives the same bytes. Prints the distribution of victory
    types at the end. A match ends at the first victory (most within 60
    turns); for a long one, raise the victory thresholds with --set, as the
    last example does (13,532 events, 160 turns, no winner).

    Example:

    \b
        vwlog simulate --seed 7 --matches 200 -o corpus/
        vwlog simulate --seed 1 --players 4 --teams 2 -o tag.jsonl
        vwlog simulate --seed 5 --max-turns 160 --policy random \\
            --set victory_vp=1000 --set victory_honor=1000000 \\
            --set victory_territories=1000 -o long.jsonl
    """
    pool = load_pool(cards)
    deck_lists = tuple(load_deck(d).expand() for d in decks) if decks else None
    base = load_ruleset(ruleset_file) if ruleset_file else Ruleset()
    ruleset = apply_overrides(base, parse_overrides(sets))
    if out is None and matches > 1:
        raise UsageError("give -o DIR to keep more than one generated match")
    spec = SimulationSpec(
        seed=seed,
        matches=matches,
        players=players,
        teams=teams,
        decks=deck_lists,
        policy="random" if policy == "random" else "greedy",
        max_turns=max_turns,
        ruleset=ruleset,
    )
    victories: Counter[str] = Counter()
    with progress(matches, "simulating", enabled=matches > 1) as bar:

        def seen(match: GeneratedMatch, _path: Path | None) -> None:
            victories[match.victory or "UNFINISHED"] += 1
            bar.update(1)

        results = simulate_to(pool, spec, out, on_match=seen)
    if out is None:
        header, records = close_records(results[0].header, results[0].records, published_for(pool))
        write_log("-", header, records)
        return
    where = out if (out.suffix == ".jsonl" and matches == 1) else out / "*.jsonl"
    click.echo(f"wrote {matches} match{'es' if matches != 1 else ''} to {where}", err=True)
    click.echo("victory types:")
    for victory in ("MILITARY", "POLITICAL", "ABSOLUTE", "CONCESSION", "UNFINISHED"):
        share = victories[victory] / matches
        click.echo(f"  {victory.lower():11} {victories[victory]:6}  {share:6.1%}")
