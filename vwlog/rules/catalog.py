"""The rule catalog: every rule id of the digest with its title, text, basis and status.

The table of ids, titles, bases and full texts is generated from ``docs/rules.md`` (the product
copy of the digest) into `catalog_data`, so the engine never reads the document at run time; a
test checks that the two agree byte for byte and that every rule id cited anywhere in the
package exists here. After editing the document, regenerate the table with::

    python -m vwlog.rules.catalog docs/rules.md
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from vwlog.model.types import RuleId
from vwlog.rules.catalog_data import RULES_TABLE

RULES_VERSION = "digest-2026-11"
"""Revision of the rules digest the catalog was built from."""

Basis = Literal["SOURCE", "INF", "DEF"]
Status = Literal["enforced", "descriptive", "pending"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the digest."""

    id: RuleId
    title: str
    """A short title: the rule's name, or the opening of its text cut to 90 characters."""
    basis: Basis
    """``SOURCE`` when a primary source states it, ``INF`` inferred, ``DEF`` a proposed default."""
    text: str
    """The rule's full text in the digest, as Markdown with its source tags: the rest of the
    line that defines it (after its name, if it has one) and the lines indented under it
    (sub-items, continued paragraphs), dedented and joined with newlines."""

    @property
    def by_default(self) -> bool:
        """Whether the rule holds only by inference or default (messages say "by default")."""
        return self.basis != "SOURCE"


RULES: dict[RuleId, Rule] = {
    RuleId(rid): Rule(RuleId(rid), title, basis, text)  # type: ignore[arg-type]  # generated
    for rid, title, basis, text in RULES_TABLE
}
"""Every rule id of the digest."""

RULE_ID_PATTERN = re.compile(r"\bR-[A-Z]+-\d+\b")


Row = tuple[str, str, str, str]
"""One rule of the digest: (id, title, basis, text)."""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _following_lines(text: str, start: int, end: int) -> str:
    """The lines after the one holding ``text[start:end]`` that are indented deeper than it
    (up to the first blank or shallower line), dedented to their shallowest line."""
    line_start = text.rfind("\n", 0, start) + 1
    depth = _indent(text[line_start:end])
    lines: list[str] = []
    for line in text[end:].split("\n")[1:]:
        if not line.strip() or _indent(line) <= depth:
            break
        lines.append(line.rstrip())
    cut = min((_indent(line) for line in lines), default=0)
    return "\n".join(line[cut:] for line in lines)


def parse_rules_markdown(text: str) -> list[Row]:
    """Extract (id, title, basis, text) for every rule defined in the digest's Markdown text.

    A rule is defined where its id first appears in bold (``**R-SUP-1**``, optionally with a
    name: ``**R-GEN-3 (sides and factions)**``, ``**R-ZONE-1 Hand**``). Its text is the rest of
    that line (without the dash or colon after a name) and the lines indented under it.
    """
    found: list[Row] = []
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
        body = rest.strip()
        if paren or named:
            body = body.lstrip("—:").strip()
        more = _following_lines(text, m.start(), m.end())
        found.append((rid, title.strip(), basis, "\n".join(x for x in (body, more) if x)))
    return found


def render_catalog_module(rows: list[Row]) -> str:
    """The source text of `catalog_data` for these rows."""
    out = [
        '"""Rule ids, short titles, source basis and full texts, generated from docs/rules.md.',
        "",
        "Regenerate with ``python -m vwlog.rules.catalog docs/rules.md`` after editing the",
        "document; a test checks that this table matches it.",
        '"""',
        "",
        "RULES_TABLE: tuple[tuple[str, str, str, str], ...] = (",
    ]
    out.extend(f"    {row!r}," for row in rows)
    out.append(")")
    return "\n".join(out) + "\n"


NOT_ENFORCED: dict[str, tuple[Status, str]] = {
    "R-GEN-1": ("descriptive", "setting and theme: nothing a log can break"),
    "R-GEN-2": ("descriptive", "setting and history: nothing a log can break"),
    "R-GEN-3": (
        "descriptive",
        "sides and factions are card data; deck rules per faction are unknown (OQ-2)",
    ),
    "R-GEN-5": (
        "descriptive",
        "the fold removes all damage at the End Phase cleanup (R-END-4), "
        "which is enforced; no event can keep damage",
    ),
    "R-GEN-9": ("descriptive", "warns against mixing in another game's rules"),
    "R-CARD-1": ("descriptive", "what Territories represent"),
    "R-CARD-3": (
        "descriptive",
        "defense modifications revert at turn change in the fold; no event can keep them",
    ),
    "R-CARD-4": ("descriptive", "defines ATK/DEF/VIT; breaking their use is R-CMB-19/26"),
    "R-CARD-5": ("descriptive", "card tags and suffixes are card data"),
    "R-CARD-6": ("descriptive", "lists Follower states; each is checked by its own rule"),
    "R-CARD-7": ("descriptive", "what Relics and Runes are; placement is R-UNS-2/R-DEP-1"),
    "R-ZONE-4": (
        "descriptive",
        "the Graveyard as a zone; moves into it are consequences "
        "checked by R-CMB-26/30 and R-END-3",
    ),
    "R-ZONE-6": (
        "descriptive",
        "the register as a zone; what may enter it is R-REG-1, R-SKL-1 and R-SKL-4",
    ),
    "R-ZONE-8": (
        "descriptive",
        "per-player counters exist; their changes are checked by the rules that change them",
    ),
    "R-SET-3": (
        "descriptive",
        "an inference that starting resources must exist; they are ruleset parameters (OQ-1)",
    ),
    "R-GOLD-2": ("descriptive", "Supply gold is part of the package (R-SUP-1/2, enforced)"),
    "R-GOLD-4": (
        "descriptive",
        "an example of card design; such skills are ordinary active skills",
    ),
    "R-HON-2": ("descriptive", "the same requirement as R-CARD-10, which is enforced"),
    "R-HON-3": ("descriptive", "states that the sources do not describe honor gain (OQ-7)"),
    "R-SUP-4": (
        "pending",
        "the card vocabulary has no 'when you draw' or 'when you gain gold' "
        "trigger yet, so there is nothing Supply could wrongly trigger",
    ),
    "R-UNS-4": (
        "descriptive",
        "unplaceable Return Home/Stray cards stay where they are; no event is owed (OQ-14)",
    ),
    "R-MAIN-1": ("descriptive", "permission; the prohibition before it is R-PREP-2"),
    "R-MAIN-7": ("descriptive", "strategy advice"),
    "R-REG-2": (
        "descriptive",
        "lists actions that bypass the register; each has its own event and rule",
    ),
    "R-REG-11": (
        "descriptive",
        "the End Phase window is the step END_WINDOW; closing it early is R-END-2",
    ),
    "R-CMB-6": ("pending", "the card vocabulary has no 'when attackers enter battle' trigger"),
    "R-CMB-14": ("pending", "the card vocabulary has no 'when blockers enter battle' trigger"),
    "R-CMB-18": ("descriptive", "blocking slides nothing; no event slides blockers"),
    "R-CMB-22": ("pending", "the card vocabulary has no 'on damage distribution' trigger"),
    "R-CMB-37": ("descriptive", "a consequence of R-CMB-34 and R-CMB-12, both enforced"),
    "R-SKL-9": ("descriptive", "a permission (the Graveyard resets the record); tested as legal"),
    "R-SKL-11": (
        "descriptive",
        "effect durations are applied by the fold at cleanup and turn change",
    ),
    "R-VIC-5": (
        "pending",
        "deck-out is not described; the ruleset flag deck_out_loses is "
        "recorded but a loss by deck-out is not yet applied",
    ),
}
"""Rules the engine does not enforce, with the reason; every other rule is enforced, cited by
the engine and broken by a test that asserts its id."""


PENDING_FLAGS: dict[str, str] = {
    "mulligan": "no mulligan procedure is defined anywhere; the flag is recorded only",
    "produce_is_gain_gold": "the card vocabulary has no 'when you gain gold' trigger yet",
    "fatigue_until_turn_change": "no Follower can enter play outside its controller's turn in "
    "the current card vocabulary, so both readings give the same verdicts",
    "deck_out_loses": "a loss by deck-out is not yet applied (R-VIC-5)",
}
"""Ruleset flags recorded in `Ruleset` whose alternative reading the engine does not apply yet;
every other flag changes verdicts (a test shows both settings on one log)."""


def status(rule_id: str) -> tuple[Status, str]:
    """The enforcement status of a rule and, when not enforced, why."""
    return NOT_ENFORCED.get(rule_id, ("enforced", ""))


def rule(rule_id: str) -> Rule:
    """The rule with this id (raises ``KeyError`` for an unknown id)."""
    return RULES[RuleId(rule_id)]


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    import sys
    from pathlib import Path

    source = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules.md")
    target = Path(__file__).with_name("catalog_data.py")
    target.write_text(render_catalog_module(parse_rules_markdown(source.read_text("utf-8"))))
