"""What a verdict rests on: the verdict word, from the rules result and the integrity result
(chain, seal, signatures, published pool and ruleset), and the rows every format shows, in the
active language. Each format lays the rows out (the HTML through its template, escaped)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from vwlog.io.i18n import N_, gettext, ngettext, say

if TYPE_CHECKING:
    from vwlog.engine.replay import ValidationReport
    from vwlog.projections.stats import TrustedUse
    from vwlog.rules.published import Integrity, TrustedResult

VERDICT_WORDS = {
    "OK": N_("ok"),
    "ILLEGAL": N_("illegal"),
    "INCOMPLETE": N_("incomplete"),
    "UNTRUSTED": N_("untrusted"),
}
"""The verdict as the line at the top of a report words it."""

SIGNATURE_STATUS = {
    "valid": N_("valid"),
    "invalid": N_("invalid"),
    "unknown key": N_("unknown key"),
    "not checked": N_("not checked"),
}
"""What checking a signature showed, as shown."""

COMMITMENT_STATUS = {
    "verified": N_("verified"),
    "not revealed": N_("not revealed"),
    "mismatch": N_("mismatch"),
}
"""What checking a deck-order commitment showed, as shown."""


def verdict(report: ValidationReport) -> str:
    """``OK``, ``ILLEGAL``, ``INCOMPLETE`` (unsealed, otherwise legal) or ``UNTRUSTED``
    (the chain, seal or signatures fail)."""
    if report.violations:
        return "ILLEGAL"
    integrity = report.integrity
    if integrity is None or integrity.ok:
        return "OK"
    if not integrity.sealed and all(p.startswith("unsealed") for p in integrity.problems):
        return "INCOMPLETE"
    return "UNTRUSTED"


def verdict_line(report: ValidationReport) -> str:
    """``Verdict: illegal``, in the active language."""
    return gettext("Verdict: {verdict}").format(verdict=gettext(VERDICT_WORDS[verdict(report)]))


def signatures_text(integrity: Integrity) -> str:
    """Who signed, with which key, and whether each signature holds."""
    if not integrity.signatures:
        return gettext("none")
    parts = []
    for s in integrity.signatures:
        status = gettext(SIGNATURE_STATUS.get(s.status, s.status))
        if s.known_as in (None, s.signer):
            part = gettext("{signer} key {key}: {status}")
        else:
            part = gettext("{signer} (keyring: {known}) key {key}: {status}")
        parts.append(part.format(signer=s.signer, known=s.known_as, key=s.key_id, status=status))
    return "; ".join(parts)


def trusted_summary(trusted: list[TrustedResult]) -> str:
    """``3 results not machine-checked``."""
    n = len(trusted)
    return ngettext(
        "{count} result not machine-checked", "{count} results not machine-checked", n
    ).format(count=n)


def trusted_item(t: TrustedResult | TrustedUse) -> str:
    """One result taken as logged: its seq, card, skill and how many effects it claims."""
    return ngettext(
        "seq {seq}: {card} {skill} ({count} effect)",
        "seq {seq}: {card} {skill} ({count} effects)",
        t.effects,
    ).format(seq=t.seq, card=t.card or "?", skill=t.skill or "?", count=t.effects)


@dataclass(frozen=True, slots=True)
class RestsOn:
    """What a verdict rests on, worded in the active language (values are the log's and the
    checks' own words: escape them for the format)."""

    title: str
    verdict: str
    rows: list[tuple[str, str]]
    """Label and value: pool, ruleset, chain, seal, signatures, trusted effects."""
    trusted: list[str]
    """Each result taken as logged."""
    notes: list[tuple[str, str]]
    """``Warning`` or ``Integrity problem``, and its text."""


def rests_on(report: ValidationReport) -> RestsOn | None:
    """The rows of "What the verdict rests on" (``None`` when integrity was not checked)."""
    i = report.integrity
    if i is None:
        return None
    rows = [
        (gettext("Pool"), say(i.pool)),
        (gettext("Ruleset"), say(i.ruleset)),
        (gettext("Chain"), say(i.chain)),
        (gettext("Seal"), say(i.seal)),
        (gettext("Signatures"), signatures_text(i)),
        (gettext("Trusted effects"), trusted_summary(report.trusted)),
    ]
    notes = [(gettext("Warning"), say(w)) for w in i.warnings if not w[0].isdigit()]
    notes += [(gettext("Integrity problem"), say(p)) for p in i.problems]
    return RestsOn(
        title=gettext("What the verdict rests on"),
        verdict=verdict_line(report),
        rows=rows,
        trusted=[trusted_item(t) for t in report.trusted],
        notes=notes,
    )


__all__ = [
    "COMMITMENT_STATUS",
    "SIGNATURE_STATUS",
    "VERDICT_WORDS",
    "RestsOn",
    "rests_on",
    "signatures_text",
    "trusted_item",
    "trusted_summary",
    "verdict",
    "verdict_line",
]
