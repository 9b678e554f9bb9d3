"""What a verdict rests on: the verdict word, from the rules result and the integrity result
(chain, seal, signatures, published pool and ruleset). Each format renders the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vwlog.engine.replay import ValidationReport
    from vwlog.rules.published import Integrity


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


def signatures_text(integrity: Integrity) -> str:
    """Who signed, with which key, and whether each signature holds."""
    if not integrity.signatures:
        return "none"
    parts = []
    for s in integrity.signatures:
        who = s.signer if s.known_as in (None, s.signer) else f"{s.signer} (keyring: {s.known_as})"
        parts.append(f"{who} key {s.key_id}: {s.status}")
    return "; ".join(parts)


__all__ = ["signatures_text", "verdict"]
