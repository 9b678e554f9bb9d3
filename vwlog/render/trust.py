"""What a verdict rests on: the verdict's words and reason, as the services decided them
(`vwlog.services.verdict.judge` attaches a `Judgement` to the report; nothing here decides),
and the rows every format shows (chain, seal, signatures, published pool and ruleset), in the
active language. Each format lays the rows out (the HTML through its template, escaped)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from vwlog.io.i18n import N_, gettext, ngettext, say
from vwlog.model.verdict import Verdict
from vwlog.rules.published import house_rules_text

if TYPE_CHECKING:
    from vwlog.engine.replay import ValidationReport
    from vwlog.model.verdict import Integrity, Judgement, TrustedResult
    from vwlog.projections.stats import TrustedUse


class VerdictWords(NamedTuple):
    """How each output words one verdict (English templates, said through the catalogs)."""

    line: str
    """The word of ``Verdict: …`` at the top of a report."""
    terminal: str
    """The word a terminal report leads its summary with."""
    document: str
    """The word of a Markdown section's ``Verdict:`` item."""


VERDICT_WORDS: dict[Verdict, VerdictWords] = {
    Verdict.OK: VerdictWords(N_("ok"), N_("OK"), N_("legal")),
    Verdict.ILLEGAL: VerdictWords(N_("illegal"), N_("ILLEGAL"), N_("illegal")),
    Verdict.INCOMPLETE: VerdictWords(
        N_("incomplete"), N_("INCOMPLETE"), N_("incomplete (unsealed)")
    ),
    Verdict.UNTRUSTED: VerdictWords(N_("untrusted"), N_("UNTRUSTED"), N_("untrusted")),
    Verdict.UNVERIFIED: VerdictWords(
        N_("unverified"), N_("UNVERIFIED"), N_("unverified (definitions nobody published)")
    ),
}
"""The one wording table of the verdict (`vwlog.services.verdict.judge` decides it)."""

OWN_DEFINITIONS_WORDS = VerdictWords(
    N_("ok (under the log's own definitions, trusted as asked)"),
    N_("OK (under the log's own definitions, trusted as asked)"),
    N_("legal under the log's own definitions (trusted as asked, not published)"),
)
"""How an OK verdict that rests on the log's own definitions (``--trust-log-definitions``) is
worded: every output says so with the verdict."""

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


def judgement(report: ValidationReport) -> Judgement:
    """The judgement the services attached to ``report`` (`vwlog.services.verdict.judge`).

    Raises:
        ValueError: the report was not judged (a caller skipped the services' one verdict).
    """
    if report.judgement is None:
        raise ValueError(f"{report.source or 'a report'}: rendered without its verdict")
    return report.judgement


def verdict(report: ValidationReport) -> Verdict:
    """The verdict the services decided for ``report``: ``OK``, ``ILLEGAL``, ``INCOMPLETE``,
    ``UNTRUSTED`` or ``UNVERIFIED``."""
    return judgement(report).verdict


def verdict_word(report: ValidationReport, form: str = "line") -> str:
    """The verdict worded in the active language (``form``: a field of `VerdictWords`); a
    verdict under house rules says so (``ILLEGAL under house rules (hand_limit=2)``)."""
    judged = judgement(report)
    words = OWN_DEFINITIONS_WORDS if judged.own_definitions else VERDICT_WORDS[judged.verdict]
    word = gettext(str(getattr(words, form)))
    if judged.house_rules:
        word = gettext("{verdict} under house rules ({flags})").format(
            verdict=word, flags=house_rules_text(judged.house_rules)
        )
    return word


def house_rules_note(report: ValidationReport) -> str:
    """``judged under house rules (hand_limit=2)`` for a verdict under house rules (flags set
    otherwise than in the ruleset the record is held to), else empty: what the first line of
    every output adds."""
    judged = judgement(report)
    if not judged.house_rules:
        return ""
    return gettext("judged under house rules ({flags})").format(
        flags=house_rules_text(judged.house_rules)
    )


def verdict_reason(report: ValidationReport) -> str:
    """The one sentence that decides the verdict, in the active language."""
    return say(judgement(report).reason)


def verdict_line(report: ValidationReport) -> str:
    """``Verdict: illegal``, in the active language."""
    return gettext("Verdict: {verdict}").format(verdict=verdict_word(report))


def reason_line(report: ValidationReport) -> str:
    """``Reason: …``: the one sentence that decides the verdict, in the active language."""
    return gettext("Reason: {reason}").format(reason=verdict_reason(report))


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
    reason: str
    """``Reason: …``, the one sentence that decides the verdict."""
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
        reason=reason_line(report),
        rows=rows,
        trusted=[trusted_item(t) for t in report.trusted],
        notes=notes,
    )


__all__ = [
    "COMMITMENT_STATUS",
    "OWN_DEFINITIONS_WORDS",
    "SIGNATURE_STATUS",
    "VERDICT_WORDS",
    "RestsOn",
    "VerdictWords",
    "house_rules_note",
    "judgement",
    "reason_line",
    "rests_on",
    "signatures_text",
    "trusted_item",
    "trusted_summary",
    "verdict",
    "verdict_line",
    "verdict_reason",
    "verdict_word",
]
