"""The one verdict on a record: `judge` decides it, and every door asks it.

`vwlog validate`, `verify`, `report` and `import`, the service's ``/validation`` and
``/integrity``, the viewer (through those two) and the statistics' notion of a valid match all
show the `Judgement` that `judge` attaches to a `ValidationReport`: nothing else decides a
verdict, so two doors cannot disagree on the same bytes.

What it rests on, from the most serious down (the first that applies decides, and its sentence
is the one reason every door gives):

* **ILLEGAL** — a rule is broken, the trust rules included (card definitions or ruleset flags
  that differ from the published ones, R-TRUST-1/2, and effects nobody can check, R-TRUST-3);
  the reason is the first violation in the record's order;
* **UNTRUSTED** — the record is not what was sealed: the hash chain is broken, the seal does not
  match the records, something other than a signature follows the seal, a signature does not
  fit the seal, or a keyring was given and no key of it signed; the reason is the first such
  problem (the chain before the seal, the seal before the signatures);
* **UNVERIFIED** — legal and intact, but under card definitions or a ruleset nobody published
  (the log's own, whatever id it gives them) or that the store does not accept
  (``VWLOG_ACCEPT_POOLS``/``VWLOG_ACCEPT_RULESETS``, ``--accept-pool``/``--accept-ruleset``):
  "legal" would only mean legal under rules the log wrote for itself;
* **INCOMPLETE** — legal and intact as far as it goes, but unsealed (its end cannot be told
  from a cut);
* **OK** — none of these. With ``--trust-log-definitions`` a record that would be UNVERIFIED
  only for its own definitions is OK, and its reason (and the word every output leads with)
  says that it rests on the log's own definitions.

A record that is not intact is never *complete*: its ``winner`` is withheld (``None``; the
winner its records name is kept as ``claimed_winner``, shown flagged) wherever the outcome is
shown — the JSON of ``validate`` and ``/validation``, the catalog entry ``import`` stores, and
the statistics, which leave such a match out (`counts_as_valid`).

A record judged under house rules (flags set otherwise than in the ruleset it is held to, by
``--set`` or a ruleset file) keeps the verdict those rules give, and its `Judgement` names the
flags (``house_rules``): every output says so in its first line, and each violation of a rule
that reads such a flag says it was set so rather than "by default" (`house_labelled`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from vwlog.engine.replay import ValidationReport
from vwlog.model.text import msg, said_text
from vwlog.model.verdict import Judgement, Verdict

if TYPE_CHECKING:
    from vwlog.io.chain import VerifyReport
    from vwlog.model.verdict import Integrity
    from vwlog.store import MatchMeta

UNSEALED_PREFIX = "unsealed"
"""How the problem of a record that lacks its seal starts (`vwlog.services.trust`)."""
NO_HASHES_PREFIX = "no hash chain"
"""How the problem of a record that carries no hashes starts (`vwlog.services.trust`)."""


def _found_nothing_wrong(problem: str) -> bool:
    """Whether an integrity problem only says what is missing (no seal, no hashes), not that
    something fails."""
    return problem.startswith((UNSEALED_PREFIX, NO_HASHES_PREFIX))


def failing_problem(integrity: Integrity) -> str | None:
    """The first integrity problem that says something fails (the chain, the seal, a
    signature), ``None`` when the record is intact: nothing found fails (a missing seal or
    missing hashes fail nothing; they only leave the record unvouched)."""
    return next((p for p in integrity.problems if not _found_nothing_wrong(p)), None)


def judge(report: ValidationReport) -> Judgement:
    """The verdict on a validated record, with the one sentence that decides it.

    ``report`` must carry its integrity result (`vwlog.services.validate.with_findings`); one
    without it (integrity not checked) is judged UNTRUSTED and not intact: nothing vouches
    for its bytes.

    *Intact* means nothing found fails: the chain, the seal and the signatures hold as far as
    the record has them. A record with no hashes is intact but UNTRUSTED (nothing vouches for
    it); one with no seal is intact and INCOMPLETE.
    """
    integrity = report.integrity
    failing: str | None
    if integrity is None:
        intact = False
        failing = said_text(msg("the record's chain, seal and signatures were not checked"))
        missing: tuple[str, ...] = ()
    else:
        failing = failing_problem(integrity)
        intact = failing is None
        missing = integrity.problems
    reason: str
    own = False
    unhashed = next((p for p in missing if p.startswith(NO_HASHES_PREFIX)), None)
    if report.violations:
        first = min(report.violations, key=lambda v: v.seq or 0)
        message = first.text if first.text is not None else first.message
        if first.seq is not None:
            said = msg(
                "{rule} at seq {seq}: {message}", rule=first.rule, seq=first.seq, message=message
            )
        else:
            said = msg("{rule}: {message}", rule=first.rule, message=message)
        verdict, reason = Verdict.ILLEGAL, said_text(said)
    elif failing is not None:
        verdict, reason = Verdict.UNTRUSTED, failing
    elif unhashed is not None:
        verdict, reason = Verdict.UNTRUSTED, unhashed
    elif integrity is not None and integrity.unpublished and not integrity.own_trusted:
        verdict = Verdict.UNVERIFIED
        reason = said_text(
            msg(
                "no rule is broken, but only under definitions nobody published or the store "
                "does not accept: {what}",
                what="; ".join(integrity.unpublished),
            )
        )
    elif missing:
        verdict, reason = Verdict.INCOMPLETE, missing[0]
    else:
        assert integrity is not None
        verdict = Verdict.OK
        if integrity.unpublished:
            own = True
            reason = said_text(
                msg(
                    "no rule is broken under the log's own definitions, trusted as asked "
                    "({what}), and the record is intact: {seal}",
                    what="; ".join(integrity.unpublished),
                    seal=integrity.seal,
                )
            )
        else:
            reason = said_text(
                msg("no rule is broken and the record is intact: {seal}", seal=integrity.seal)
            )
    return Judgement(
        verdict=verdict,
        reason=reason,
        intact=intact,
        complete=report.complete and intact,
        winner=report.winner if intact else None,
        victory=report.victory if intact else None,
        claimed_winner=report.winner,
        seal_seq=_seal_seq(integrity),
        own_definitions=own,
        house_rules=integrity.house_rules if integrity is not None else (),
    )


def _seal_seq(integrity: Integrity | None) -> int | None:
    """The seal's seq, as the integrity result gives it."""
    return None if integrity is None else integrity.seal_seq


def judged(report: ValidationReport) -> ValidationReport:
    """``report`` with its `Judgement` attached (the same object)."""
    report.judgement = judge(report)
    return report


@dataclass(frozen=True, slots=True)
class StoredVerdict:
    """What a stored match's catalog entry keeps of its verdict."""

    verdict: Verdict | None
    reason: str | None


def stored_verdict(meta: MatchMeta) -> StoredVerdict:
    """The verdict kept in a catalog entry when the match was stored (``None`` for entries
    stored before vwlog kept it, and for matches recorded by the service, which chains and
    seals them itself)."""
    try:
        verdict = Verdict(meta.verdict) if meta.verdict is not None else None
    except ValueError:
        verdict = None
    return StoredVerdict(verdict, meta.reason)


def as_imported(derived: MatchMeta, stored: MatchMeta) -> MatchMeta:
    """A catalog entry derived again from a match's records, with the verdict its import gave
    the file (a fact of the import, like where its seal came from): kept, and applied as
    `vwlog.services.importing.judged_meta` applied it (flagged and without a winner when the
    record was not intact)."""
    update: dict[str, object] = {
        "verdict": stored.verdict,
        "reason": stored.reason,
        "intact": stored.intact,
    }
    if stored.intact is False:
        update |= {"winner": None, "victory": None, "flagged": True}
    return derived.model_copy(update=update)


def counts_as_valid(meta: MatchMeta) -> bool:
    """Whether statistics count a stored match: every match but one whose record was not
    intact when it was stored (its outcome nobody can vouch for). An illegal match is counted,
    with its violations, and so is an UNVERIFIED one (intact, legal under its own definitions:
    its verdict is kept in its catalog entry, and a store that accepts only some pools and
    rulesets stores no other)."""
    return meta.intact is not False


def verify_verdict(chain: VerifyReport, report: ValidationReport) -> bool:
    """Whether ``vwlog verify`` succeeds on a record: its verdict is OK and the store's derived
    data (catalog entry, snapshots, statistics view) agree with its records."""
    judgement = report.judgement
    return judgement is not None and judgement.verdict is Verdict.OK and not chain.derived


__all__ = [
    "StoredVerdict",
    "as_imported",
    "counts_as_valid",
    "failing_problem",
    "judge",
    "judged",
    "stored_verdict",
    "verify_verdict",
]
