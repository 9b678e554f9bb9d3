"""What a verdict rests on: the hash chain, the seal, the signatures, and the published pool and
ruleset a log is held to; sealing and signing logs (publishing: `vwlog.services.publishing`).

`check_integrity` is the one place that decides whether a record can be believed. `validate`,
`report` and `verify` all call it, so they cannot disagree:

* **chain** — every record's hash chains to the header (`vwlog.services.verify_lines`);
* **seal** — the record ends with a `MatchSealed` that names the records before it (count and
  head hash) and the pool, ruleset and card hashes; only signatures may follow it. A log with no
  seal is *unsealed*: its end cannot be told from a truncation, so it is never "legal";
* **signatures** — each `RecordSigned` must be its key's Ed25519 signature over the seal; with a
  keyring, at least one must be by a key of the keyring;
* **pool and ruleset** — the embedded card definitions and flags are compared with the published
  ones (R-TRUST-1, R-TRUST-2); a log that matches nothing published is judged with the warning
  "card definitions are the log's own".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vwlog.events import (
    EventRecord,
    LogHeader,
    MatchSealed,
    MatchStarted,
)
from vwlog.games import rules_for
from vwlog.io import trust as io_trust
from vwlog.io.chain import sealed
from vwlog.io.integritypass import IntegrityPass, endings_converted
from vwlog.io.logfile import open_log, read_log, write_log
from vwlog.model.cards import card_dump, card_dumps
from vwlog.model.errors import UsageError
from vwlog.model.text import msg, said_text
from vwlog.model.verdict import Integrity, SignatureCheck, TrustedResult
from vwlog.rules.published import compare_cards, compare_ruleset, trusted_effects_violation
from vwlog.services.restson import (
    chain_problems,
    not_accepted,
    said_own_ruleset,
    said_pool,
    said_ruleset,
    unstarted_texts,
)
from vwlog.services.sealcheck import check_seal

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from vwlog.events.match import SealedBy
    from vwlog.io.chain import VerifyReport
    from vwlog.io.trust import PublicKey, PublishedPool, PublishedRuleset, Registry
    from vwlog.model.cards import CardDef, CardPool, Ruleset
    from vwlog.model.errors import Violation


@dataclass(frozen=True, slots=True)
class TrustOptions:
    """What a log is held to: the published definitions, chosen ids, a keyring."""

    registry: Registry | None = None
    """Published pools and rulesets (``None``: the packaged pool and default ruleset)."""
    pool: str | None = None
    """``--pool ID``: hold every log to this published pool."""
    ruleset: str | None = None
    """``--ruleset ID``: hold every log to this published ruleset."""
    keyring: dict[str, PublicKey] | None = None
    """Public keys by hex; with a keyring, a record must carry a valid signature by one."""
    trust_log_definitions: bool = False
    """``--trust-log-definitions``: a log whose pool or ruleset nobody published is judged OK
    under its own definitions (and says so) instead of UNVERIFIED."""
    accept_pools: tuple[str, ...] | None = field(default_factory=lambda: _accepted(ACCEPT_POOLS))
    """The published pools a tournament accepts (``None``: every published pool); a log held
    to another is UNVERIFIED. Default: ``VWLOG_ACCEPT_POOLS`` (ids separated by commas)."""
    accept_rulesets: tuple[str, ...] | None = field(
        default_factory=lambda: _accepted(ACCEPT_RULESETS)
    )
    """The published rulesets a tournament accepts, likewise (``VWLOG_ACCEPT_RULESETS``)."""
    require_signers: tuple[str, ...] = ()
    """``--require NAME``: signers (key names or ids) whose signatures a record must carry,
    beside those its seal names."""


ACCEPT_POOLS = "VWLOG_ACCEPT_POOLS"
"""The setting that names the published pools a store or service accepts."""
ACCEPT_RULESETS = "VWLOG_ACCEPT_RULESETS"
"""The setting that names the published rulesets a store or service accepts."""


def _accepted(variable: str) -> tuple[str, ...] | None:
    """The ids a setting names (``None`` when it is unset or empty: everything published)."""
    import os

    ids = tuple(i.strip() for i in os.environ.get(variable, "").split(",") if i.strip())
    return ids or None


@dataclass(slots=True)
class TrustFindings:
    """The integrity summary and the rule violations it found (R-TRUST-1/2/3)."""

    integrity: Integrity
    violations: list[Violation] = field(default_factory=list)
    chain: VerifyReport | None = None
    """The hash chain and deck commitments, as `vwlog verify` reports them."""


def registry_of(options: TrustOptions) -> Registry:
    """The registry the options name, or the built-in one."""
    return options.registry if options.registry is not None else io_trust.builtin_registry()


def check_options(options: TrustOptions) -> None:
    """Refuse ``--pool``/``--ruleset`` ids that are not published.

    Raises:
        NotPublishedError: an id names nothing published.
    """
    registry = registry_of(options)
    if options.pool is not None:
        registry.pool(options.pool)
    if options.ruleset is not None:
        registry.ruleset(options.ruleset)


def _held_pool(
    registry: Registry, options: TrustOptions, start: MatchStarted
) -> tuple[PublishedPool | None, list[str]]:
    problems: list[str] = []
    if options.pool is not None:
        return registry.pool(options.pool), problems
    if start.pool is not None:
        found = registry.pools.get(start.pool.id)
        if found is not None and found.hash != start.pool.hash:
            problems.append(
                said_text(
                    msg(
                        "match_started names pool {pool} with hash {hash}, but the published "
                        "pool's hash is {published}",
                        pool=start.pool.id,
                        hash=start.pool.hash[:16],
                        published=found.hash[:16],
                    )
                )
            )
        return found, problems
    return _builtin_for(registry, start), problems


def _builtin_for(registry: Registry, start: MatchStarted) -> PublishedPool | None:
    """For a log that names no pool: the built-in pool its cards come from. The one whose
    definitions the log repeats exactly, else the newest that has every card it names."""
    if not start.cards:
        return None
    builtin = [p for p in registry.pools.values() if p.builtin]
    builtin.sort(key=lambda p: p.id != io_trust.PACKAGED_POOL_ID)  # the newest first
    having = []
    logged = card_dumps(start.cards)
    for pool in builtin:
        cards = pool.cards()
        if all(c.id in cards for c in start.cards):
            # the same definitions: equal JSON forms (dictionaries, not pydantic's __eq__)
            if all(card_dump(cards[c.id]) == d for c, d in zip(start.cards, logged, strict=True)):
                return pool
            having.append(pool)
    return having[0] if having else None


def _held_ruleset(
    registry: Registry, options: TrustOptions, start: MatchStarted
) -> tuple[PublishedRuleset | None, list[str]]:
    problems: list[str] = []
    if options.ruleset is not None:
        return registry.ruleset(options.ruleset), problems
    named = start.ruleset_ref.id if start.ruleset_ref else io_trust.ruleset_id(start.ruleset)
    found = registry.rulesets.get(named)
    if found is not None and start.ruleset_ref is not None and found.hash != start.ruleset_ref.hash:
        problems.append(
            said_text(
                msg(
                    "match_started names ruleset {ruleset} with hash {hash}, but the published "
                    "ruleset's hash is {published}",
                    ruleset=named,
                    hash=start.ruleset_ref.hash[:16],
                    published=found.hash[:16],
                )
            )
        )
    return found, problems


def check_integrity(
    path: str | Path,
    options: TrustOptions | None = None,
    *,
    trusted: Sequence[TrustedResult] = (),
    judged_under: Ruleset | None = None,
    owed: Sequence[str] = (),
) -> TrustFindings:
    """Check what a verdict on the log at ``path`` rests on, reading it once.

    Args:
        path: the log file.
        options: what to hold it to.
        trusted: the results with unchecked effects the replay found (for R-TRUST-3).
        judged_under: the ruleset the replay judged under (its ``accept_trusted_effects``).
        owed: consequences the rules still demanded at the end of the record (a sealed record
            must owe none: a seal cannot close a match half-way through a consequence).

    Raises:
        LogFormatError: the file cannot be read as a log.
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    with open_log(path) as reader:
        gathered = IntegrityPass.of(reader)
        for line_no, raw in reader.raw_lines():
            gathered.feed(line_no, raw)
    return findings_of(gathered, options, trusted=trusted, judged_under=judged_under, owed=owed)


def findings_of(
    gathered: IntegrityPass,
    options: TrustOptions | None = None,
    *,
    trusted: Sequence[TrustedResult] = (),
    judged_under: Ruleset | None = None,
    owed: Sequence[str] = (),
) -> TrustFindings:
    """Judge what an `IntegrityPass` gathered (see `check_integrity` for the arguments).

    Raises:
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    opts = options or TrustOptions()
    chain = gathered.chain.report()
    findings = _findings(
        gathered.header, chain_report_text(chain), gathered.lines, opts, trusted, judged_under
    )
    findings.chain = chain
    if gathered.crlf_lines:  # said once, not per line
        warned = (*findings.integrity.warnings, endings_converted())
        findings.integrity = replace(findings.integrity, warnings=warned)
    if gathered.unreadable is not None:
        findings.integrity = replace(
            findings.integrity, problems=(*findings.integrity.problems, gathered.unreadable)
        )
    if owed and findings.integrity.sealed:
        problem = said_text(
            msg(
                "the seal closes the record while the rules still demand {owed}",
                owed=", ".join(dict.fromkeys(owed)),
            )
        )
        findings.integrity = replace(
            findings.integrity, problems=(*findings.integrity.problems, problem)
        )
    return findings


def chain_report_text(report: VerifyReport) -> str:
    """``intact``, ``no hashes`` or ``broken: …`` from a `VerifyReport` (a `SaidText`: said
    in the reader's language where it is shown)."""
    if not report.sealed:
        return said_text(msg("no hashes"))
    if report.broken is None:
        mismatched = [c.player for c in report.commitments if c.status == "mismatch"]
        if mismatched:
            return said_text(
                msg("broken: deck commitment mismatch for {players}", players=", ".join(mismatched))
            )
        return said_text(msg("intact"))
    b = report.broken
    where = (
        msg("seq {seq}, line {line}", seq=b.seq, line=b.line)
        if b.seq is not None
        else msg("line {line}", line=b.line)
    )
    return said_text(msg("broken at {where}: {reason}", where=where, reason=b.reason))


def _findings(
    header: LogHeader,
    chain: str,
    lines: Sequence[tuple[int, EventRecord]],
    opts: TrustOptions,
    trusted: Sequence[TrustedResult],
    judged_under: Ruleset | None,
) -> TrustFindings:
    registry = registry_of(opts)
    problems: list[str] = []
    warnings: list[str] = []
    violations: list[Violation] = []
    unpublished: list[str] = []
    problems += chain_problems(chain)
    start = next(
        ((n, r) for n, r in lines if r.seq == 1 and isinstance(r.event, MatchStarted)), None
    )
    game = rules_for(header.game)
    pool_text, ruleset_text = unstarted_texts(game)
    house: tuple[tuple[str, Any], ...] = ()
    held_pool: PublishedPool | None = None
    if start is not None:
        line_no, record = start
        event = record.event
        assert isinstance(event, MatchStarted)
        held_pool, found = _held_pool(registry, opts, event)
        problems += found
        pool_text = said_pool(held_pool, event)
        if held_pool is None:
            warnings.append(pool_text)
            if event.cards:
                unpublished.append(pool_text)
        else:
            violations += _at(compare_cards(held_pool.cards(), event.cards), record, line_no)
            unpublished += not_accepted("pool", held_pool.id, opts.accept_pools)
        held_rs, found = _held_ruleset(registry, opts, event)
        problems += found
        ruleset_text, house = said_ruleset(held_rs, event, judged_under)
        if held_rs is None:
            warnings.append(ruleset_text)
            unpublished.append(ruleset_text)
        else:
            violations += _at(compare_ruleset(held_rs.ruleset, event.ruleset), record, line_no)
            unpublished += not_accepted("ruleset", held_rs.id, opts.accept_rulesets)
        accepted = bool((judged_under or event.ruleset).accept_trusted_effects)
        if not accepted:
            cards = held_pool.cards() if held_pool is not None else {c.id: c for c in event.cards}
            violations += _unchecked_effects(trusted, cards)
    elif not game.publishes and lines and type(lines[0][1].event) is game.start_type:
        ruleset_text, house = said_own_ruleset(game, lines[0][1].event, judged_under)
    sealing = check_seal(header, lines, start, opts.keyring, opts.require_signers)
    problems += sealing.problems
    if trusted:
        warnings.append(
            f"{len(trusted)} result{'s' if len(trusted) != 1 else ''} of text-only skills "
            "taken as logged (effects not machine-checked)"
        )
    integrity = Integrity(
        chain=chain,
        sealed=sealing.sealed,
        seal=sealing.text,
        pool=pool_text,
        ruleset=ruleset_text,
        signatures=tuple(sealing.signatures),
        problems=tuple(problems),
        warnings=tuple(warnings),
        keyring=opts.keyring is not None,
        trusted_listed=len(trusted),
        seal_seq=sealing.at[0] if sealing.at is not None else None,
        seal_line=sealing.at[1] if sealing.at is not None else None,
        unpublished=tuple(unpublished),
        awaiting=tuple(sealing.awaiting),
        own_trusted=opts.trust_log_definitions,
        house_rules=house,
    )
    return TrustFindings(integrity, violations)


def _unchecked_effects(
    trusted: Sequence[TrustedResult], cards: Mapping[str, CardDef]
) -> list[Violation]:
    """R-TRUST-3 for each result that claims effects of a skill ``cards`` leave text only."""
    out = []
    for result in trusted:
        card = cards.get(result.card or "")
        skill = card.skill(result.skill or "play") if card is not None else None
        text_only = skill is None or skill.effects is None
        if text_only and result.effects:
            v = trusted_effects_violation(result)
            out.append(replace(v, seq=result.seq, line=result.line, event_type="object_resulted"))
    return out


def _at(found: list[Violation], record: EventRecord, line_no: int) -> list[Violation]:
    return [replace(v, seq=record.seq, line=line_no, event_type="match_started") for v in found]


# -- writing seals and signatures ----------------------------------------------------------------


def close_records(
    header: LogHeader,
    records: Iterable[EventRecord],
    pool: PublishedPool | None = None,
    *,
    signers: Sequence[str] = (),
    sealed_by: SealedBy | None = None,
) -> tuple[LogHeader, list[EventRecord]]:
    """Name the pool and ruleset in ``match_started``, chain the hashes and append the seal
    (requiring signatures by ``signers``, key names or ids; naming ``sealed_by``, if given).

    Any seal and signatures the records carry are dropped first (re-sealing after a change
    invalidates them).
    """
    body = io_trust.strip_trailer(records)
    if body and isinstance(body[0].event, MatchStarted):
        body[0] = body[0].model_copy(update={"event": io_trust.with_refs(body[0].event, pool)})
    head, chained = sealed(header.model_copy(update={"hash": None}), body)
    assert head.hash is not None
    start = chained[0].event if chained and isinstance(chained[0].event, MatchStarted) else None
    last = chained[-1].hash if chained else head.hash
    seal = EventRecord(
        seq=len(chained) + 1,
        event=io_trust.seal_event(start, len(chained), last or "", signers, sealed_by),
    )
    _, tail = sealed(head, [*chained, seal])
    return head, tail


def close_stream(
    header: LogHeader, records: Iterable[EventRecord], pool: PublishedPool | None = None
) -> tuple[LogHeader, Iterator[EventRecord]]:
    """`close_records` for records made one at a time (a generated match): the sealed header,
    and the records chained as they are read, followed by the seal; nothing is kept."""
    from vwlog.io import codec

    head = codec.seal_header(header.model_copy(update={"hash": None}))
    assert head.hash is not None

    def named(rs: Iterable[EventRecord]) -> Iterator[EventRecord]:
        for r in rs:
            if r.seq == 1 and isinstance(r.event, MatchStarted):
                r = r.model_copy(update={"event": io_trust.with_refs(r.event, pool)})
            yield r

    def body() -> Iterator[EventRecord]:
        first: EventRecord | None = None
        last: EventRecord | None = None
        for r in codec.seal(head.hash or "", named(records)):
            first = first or r
            last = r
            yield r
        if last is not None:
            yield seal_after(first, last)

    return head, body()


def seal_after(first: EventRecord | None, last: EventRecord) -> EventRecord:
    """The seal record chained after ``last`` (a hashed record), for a match whose first
    record is ``first``."""
    from vwlog.io import codec

    start = first.event if first is not None and isinstance(first.event, MatchStarted) else None
    seal = EventRecord(
        seq=last.seq + 1, event=io_trust.seal_event(start, last.seq, last.hash or "")
    )
    return next(codec.seal(last.hash or "", [seal]))


def packaged_pool() -> PublishedPool:
    """The packaged pool, published."""
    return io_trust.builtin_registry().pools[io_trust.PACKAGED_POOL_ID]


def published_for(pool: CardPool) -> PublishedPool | None:
    """The published pool with exactly this content among the built-in ones (the packaged
    pool and its earlier versions), if any."""
    digest = io_trust.pool_hash(pool)
    return next((p for p in io_trust.builtin_registry().pools.values() if p.hash == digest), None)


def sign_log(path: Path, key_path: Path, out: Path | None = None) -> SignatureCheck:
    """Append a signature over the log's seal, rewriting the file (or writing ``out``).

    Raises:
        LogFormatError: the log cannot be read.
        UsageError: the key is malformed, or the log has no seal or fails its checks.
    """
    key, name = io_trust.load_private_key(key_path)
    header, records = read_log(path)
    findings = check_integrity(path)
    # a signature a required signer still owes is what signing gives: it does not stop signing
    problems = [p for p in findings.integrity.problems if p not in findings.integrity.awaiting]
    if problems or not findings.integrity.sealed:
        raise UsageError(
            msg(
                "{path}: cannot sign: {value}",
                path=path,
                value="; ".join(problems) or "not sealed",
            )
        )
    seal = next(r for r in records if isinstance(r.event, MatchSealed))
    signed = io_trust.sign_seal(key, name, seal)
    head, chained = sealed(header, [*records, EventRecord(seq=len(records) + 1, event=signed)])
    write_log(out or path, head, chained)
    return SignatureCheck(len(chained), name, io_trust.key_id(signed.key), "not checked")


def seal_log(
    path: Path,
    out: Path | None = None,
    *,
    signers: Sequence[str] = (),
    registry: Registry | None = None,
    sealer: tuple[Path, str] | None = None,
) -> EventRecord:
    """Chain and seal a log, rewriting the file (or writing ``out``): its seal names the
    signers whose signatures it requires. A seal and signatures it carried are dropped (they
    were over other bytes). The seal record.

    ``sealer``: the private key file and role (``organiser`` or ``judge``) of who seals an
    outside record: the seal names them and requires their signature, which follows it.

    Raises:
        LogFormatError: the log cannot be read.
        UsageError: a signer name or the key is malformed, or the log has no records.
    """
    from vwlog.events.match import SealedBy

    for name in signers:
        io_trust.check_key_name(name)
    sealed_by: SealedBy | None = None
    if sealer is not None:
        key, key_name = io_trust.load_private_key(sealer[0])
        sealed_by = SealedBy.model_validate({"name": key_name, "role": sealer[1]})
        signers = [*signers, key_name]
    header, records = read_log(path)
    if not records:
        raise UsageError(msg("{path}: cannot seal: the log has no records", path=path))
    start = records[0].event
    pool: PublishedPool | None = None
    if isinstance(start, MatchStarted):
        reg = registry if registry is not None else io_trust.builtin_registry()
        pool = reg.pools.get(start.pool.id) if start.pool is not None else None
        pool = pool if pool is not None else _builtin_for(reg, start)
    head, chained = close_records(header, records, pool, signers=signers, sealed_by=sealed_by)
    seal = chained[-1]
    if sealer is not None:
        signed = io_trust.sign_seal(key, key_name, seal)
        head, chained = sealed(head, [*chained, EventRecord(seq=seal.seq + 1, event=signed)])
    write_log(out or path, head, chained)
    return seal


__all__ = [
    "TrustFindings",
    "TrustOptions",
    "chain_report_text",
    "check_integrity",
    "check_options",
    "close_records",
    "close_stream",
    "findings_of",
    "packaged_pool",
    "published_for",
    "registry_of",
    "seal_after",
    "seal_log",
    "sign_log",
]
