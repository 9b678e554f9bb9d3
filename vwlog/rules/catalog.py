"""The rule catalog: every rule id of the digest with its title, basis and enforcement status.

The table of ids and titles is generated from ``docs/rules.md`` (the product copy of the digest)
into `catalog_data`; a test checks that the two agree and that every rule id cited anywhere in
the package exists here. ``python -m vwlog.rules.catalog docs/rules.md`` regenerates it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from vwlog.rules.catalog_data import RULES_TABLE
from vwlog.types import RuleId

RULES_VERSION = "digest-2026-11"
"""Revision of the rules digest the catalog was built from."""

Basis = Literal["SOURCE", "INF", "DEF"]
Status = Literal["enforced", "descriptive", "pending"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the digest."""

    id: RuleId
    title: str
    basis: Basis
    """``SOURCE`` when a primary source states it, ``INF`` inferred, ``DEF`` a proposed default."""

    @property
    def by_default(self) -> bool:
        """Whether the rule holds only by inference or default (messages say "by default")."""
        return self.basis != "SOURCE"


RULES: dict[RuleId, Rule] = {
    RuleId(rid): Rule(RuleId(rid), title, basis)  # type: ignore[arg-type]  # generated literals
    for rid, title, basis in RULES_TABLE
}
"""Every rule id of the digest."""

RULE_ID_PATTERN = re.compile(r"\bR-[A-Z]+-\d+\b")


def parse_rules_markdown(text: str) -> list[tuple[str, str, str]]:
    """Extract (id, title, basis) for every rule defined in the digest's Markdown text."""
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    pattern = re.compile(r"\*\*(R-[A-Z]+-\d+)(?:\s+\(([^)]*)\)|\s+([^*]+))?\*\*\s*(.*)$", re.M)
    for m in pattern.finditer(text):
        rid, paren, named, rest = m.groups()
        if rid in seen:
            continue
        seen.add(rid)
        head = rest[:400]
        first_source = min(
            (i for i in (head.find("[S0"), head.find("[W")) if i >= 0), default=10**6
        )
        if "[DEF]" in rest:
            basis = "DEF"
        elif "[INF" in head and head.find("[INF") < first_source:
            basis = "INF"
        else:
            basis = "SOURCE"
        if paren:
            title = paren
        elif named:
            title = named.strip()
        else:
            t = re.sub(r"\[[^\]]*\]", "", rest).replace("**", "").strip()
            t = re.split(r"(?<=[.;:])\s", t)[0].rstrip(".;:")
            title = t if len(t) <= 90 else t[:87].rsplit(" ", 1)[0] + "…"
        found.append((rid, title.strip(), basis))
    return found


def render_catalog_module(rows: list[tuple[str, str, str]]) -> str:
    """The source text of `catalog_data` for these rows."""
    out = [
        '"""Rule ids, short titles and source basis, generated from docs/rules.md.',
        "",
        "Regenerate with ``python -m vwlog.rules.catalog docs/rules.md`` after editing the",
        "document; a test checks that this table matches it.",
        '"""',
        "",
        "RULES_TABLE: tuple[tuple[str, str, str], ...] = (",
    ]
    out.extend(f"    ({rid!r}, {title!r}, {basis!r})," for rid, title, basis in rows)
    out.append(")")
    return "\n".join(out) + "\n"


def rule(rule_id: str) -> Rule:
    """The rule with this id (raises ``KeyError`` for an unknown id)."""
    return RULES[RuleId(rule_id)]


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    import sys
    from pathlib import Path

    source = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules.md")
    target = Path(__file__).with_name("catalog_data.py")
    target.write_text(render_catalog_module(parse_rules_markdown(source.read_text("utf-8"))))
