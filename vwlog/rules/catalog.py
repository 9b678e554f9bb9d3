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
from typing import TYPE_CHECKING, Literal

from vwlog.model.ruleids import RULE_ID, RULE_ID_PATTERN, SOURCE_TAGS_PATTERN
from vwlog.model.types import RuleId
from vwlog.rules.catalog_data import RULES_TABLE

if TYPE_CHECKING:
    from markdown_it.token import Token

RULES_VERSION = "digest-2026-11"
"""Revision of the rules digest the catalog was built from."""

Basis = Literal["SOURCE", "INF", "DEF"]
Status = Literal["enforced", "partial", "descriptive", "pending"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the digest."""

    id: RuleId
    title: str
    """A title: the rule's name, or the opening sentence of its text, whole (never cut)."""
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


Row = tuple[str, str, str, str]
"""One rule of the digest: (id, title, basis, text)."""

_DEFINITION = re.compile(rf"^({RULE_ID})(?:\s+\((.*)\)|\s+(.+))?$")
"""The bold text that defines a rule: its id (of any game: `vwlog.model.ruleids`), optionally
with a name in parentheses or plain."""
SOURCE_TAG = SOURCE_TAGS_PATTERN
"""A source or basis tag of the digest (``[S000]``, ``[W1][W2]``, ``[INF]``, ``[DEF]``…; another
game's ``[S002 §501.2b]``, ``[R1]``), with the spaces before it."""
_SOURCE_OPENS = re.compile(r"\[(?:S0|W|R\d)")
"""Where a source tag opens (``[S0…``, ``[W…``, ``[R1…``)."""


def _basis(rest: str) -> str:
    """``DEF`` when the rule is a proposed default, ``INF`` when it opens with an inference
    (before any source tag), else ``SOURCE``."""
    head = rest[:400]
    opens = _SOURCE_OPENS.search(head)
    first_source = opens.start() if opens is not None else 10**6
    if "[DEF]" in rest:
        return "DEF"
    if "[INF" in head and head.find("[INF") < first_source:
        return "INF"
    return "SOURCE"


def strip_tags(text: str) -> str:
    """``text`` without source and basis tags, spacing tidied where a tag stood."""
    out = SOURCE_TAG.sub("", text)
    out = re.sub(r"[ \t]+([.;,:)])", r"\1", out)
    out = re.sub(r"\([ \t]*\)", "", out)
    return "\n".join(re.sub(r"(?<=\S)[ \t]{2,}", " ", line).rstrip() for line in out.split("\n"))


def _plain(markdown: str) -> str:
    """The words of one line of Markdown: emphasis, code marks and tags removed."""
    text = strip_tags(markdown)
    text = re.sub(r"\*\*|__|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)|`", "", text)
    return " ".join(text.split())


def _first_sentence(text: str) -> str:
    """The opening sentence of ``text``: up to the first ``.``, ``;`` or ``:`` outside
    parentheses and quotes that ends a clause, whole however long (a title is never cut: a
    list wraps it)."""
    depth, quoted, end = 0, False, len(text)
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == '"':
            quoted = not quoted
        elif (
            ch in ".;:"
            and depth == 0
            and not quoted
            and (i + 1 == len(text) or text[i + 1] == " ")
            and not text[max(0, i - 3) : i + 1].endswith(("e.g.", "i.e."))
        ):
            end = i
            break
    return text[:end].strip()


def _title(name: str | None, first_line: str, heading: str) -> str:
    """A title a judge can read: the rule's own name when it reads as one (``Fate Deck``,
    ``sides and factions``), otherwise its opening sentence; when neither stands alone
    (``passing``, ``Then R-CMB-0``) the section it belongs to is named first."""
    sentence = _first_sentence(_plain(first_line))
    if name and (name[0].isupper() or " " in name.strip()):
        title = _plain(name)
    elif len(sentence.split()) >= 4:
        title = sentence
    elif name:
        title = f"{heading}: {_plain(name)}" if heading else _plain(name)
    else:
        title = f"{heading}: {sentence[:1].lower()}{sentence[1:]}" if heading else sentence
    return title[:1].upper() + title[1:]


def _dedent(lines: list[str]) -> list[str]:
    cut = min((len(x) - len(x.lstrip(" ")) for x in lines if x.strip()), default=0)
    return [x[cut:].rstrip() for x in lines]


def parse_rules_markdown(text: str) -> list[Row]:
    """(id, title, basis, text) for every rule defined in the digest's Markdown.

    The document is parsed with markdown-it: a rule is defined by the first **bold** text that
    is its id, optionally with a name (``**R-GEN-3 (sides and factions)**``,
    ``**R-ZONE-1 Hand**``). Its text is the rest of that paragraph and, when the bold text
    opens a list item, everything else in the item (sub-items, continued paragraphs), as
    Markdown without source tags.
    """
    from markdown_it import MarkdownIt  # the generator's dependency; the engine never parses

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    source = text.split("\n")
    found: list[Row] = []
    seen: set[str] = set()
    items: list[tuple[int, int]] = []
    heading = ""
    for i, tok in enumerate(tokens):
        if tok.type == "list_item_open" and tok.map:
            items.append((tok.map[0], tok.map[1]))
        elif tok.type == "list_item_close":
            items.pop()
        elif tok.type == "inline" and tokens[i - 1].type == "heading_open":
            heading = re.sub(r"^[\d.]+\s+", "", _plain(tok.content))
            heading = heading.split(" — see")[0].split(" [")[0].strip()
        elif tok.type == "inline" and tok.children and tok.map:
            row = _defined_here(tok, tokens[i - 1], items, source, heading, seen)
            if row is not None:
                seen.add(row[0])
                found.append(row)
    return found


def _defined_here(
    tok: Token,
    before: Token,
    items: list[tuple[int, int]],
    source: list[str],
    heading: str,
    seen: set[str],
) -> Row | None:
    """The rule a paragraph defines, if its bold text is a rule id not seen before."""
    kids = tok.children or []
    for k, child in enumerate(kids[:-2]):
        if child.type != "strong_open" or kids[k + 2].type != "strong_close":
            continue
        m = _DEFINITION.match(kids[k + 1].content.strip())
        if m is None or m.group(1) in seen:
            continue
        rid, paren, named = m.groups()
        name = paren or named
        marker = f"**{kids[k + 1].content}**"
        rest = tok.content[tok.content.index(marker) + len(marker) :]
        first_line, _, _ = rest.partition("\n")
        if name:
            first_line = re.sub(r"^\s*[—:]\s*", "", first_line)
        opens_item = (
            before.type == "paragraph_open"
            and all(c.type == "text" and not c.content.strip() for c in kids[:k])
            and bool(items)
        )
        more: list[str] = []
        if opens_item and tok.map is not None and tok.map[0] == items[-1][0]:
            more = source[tok.map[0] + 1 : items[-1][1]]
        else:
            more = rest.split("\n")[1:]
        while more and not more[-1].strip():
            more.pop()
        body = "\n".join(x for x in (first_line.strip(), *_dedent(more)) if x.strip())
        return (rid, _title(name, first_line, heading), _basis(rest), strip_tags(body).strip())
    return None


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
    out.extend([")", "", '__all__ = ["RULES_TABLE"]'])
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
    "R-SKL-10": (
        "descriptive",
        "how the records are kept; a used-up allowance cites R-SKL-6 (with R-SKL-7 or R-SKL-8 "
        "beside it when the record was kept against a reset or inherited)",
    ),
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
    "fatigue_until_turn_change": "a Follower with Lair may enter play in an opponent's turn, "
    "but Fatigue only forbids attacking, which happens in its controller's own turn, and both "
    "readings end Fatigue before that turn; so both give the same verdicts",
    "restriction_key": "superseded: records follow the seed (per property in play, carried by "
    "name through hand, Fate Deck and subdeck, R-SKL-10); neither value is faithful",
    "deck_out_loses": "a loss by deck-out is not yet applied (R-VIC-5)",
    "fizzle_when_target_gone": "superseded by target_gone (OQ-15): its false voided the whole "
    "object, the opposite of its name",
}
"""Ruleset flags recorded in `Ruleset` whose alternative reading the engine does not apply yet;
every other flag changes verdicts (a test shows both settings on one log)."""


PARTIAL: dict[str, str] = {
    "R-CMB-7": "enforced only as timing (attackers enter battle up to step 2); no effect in the "
    "card vocabulary can slide or cancel an attacking Follower, so that part cannot be broken",
    "R-CMB-15": "enforced only as timing (blockers enter battle up to step 4); no effect in the "
    "card vocabulary can slide or cancel a blocking Follower, so that part cannot be broken",
    "R-CMB-28": "unblocked combat damage to the attacked Territory is enforced; skill damage to a "
    "Territory in combat has no trigger moment in the log format, so its timing is not checked",
}
"""Rules the engine enforces in part, with what it cannot check and why: these stay cited by
the engine and broken by a test, and `vwlog rules` says which part is checked."""


def status(rule_id: str) -> tuple[Status, str]:
    """The enforcement status of a rule and, when not fully enforced, why."""
    if rule_id in PARTIAL:
        return ("partial", PARTIAL[rule_id])
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

__all__ = [
    "NOT_ENFORCED",
    "PARTIAL",
    "PENDING_FLAGS",
    "RULES",
    "RULES_VERSION",
    "RULE_ID_PATTERN",
    "SOURCE_TAG",
    "Basis",
    "Row",
    "Rule",
    "Status",
    "parse_rules_markdown",
    "render_catalog_module",
    "rule",
    "status",
    "strip_tags",
]
