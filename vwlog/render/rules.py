"""Rule titles and texts as judges read them: without the digest's source tags.

The digest (docs/rules.md) marks where each sentence comes from with tags such as ``[S000]``,
``[W1][W2]`` or ``[INF]``; they help whoever maintains the digest and mean nothing to a judge
or a player, so nothing vwlog shows carries them.

In Indonesian (`vwlog.io.i18n`) the titles and texts come from ``vwlog/data/rules.id.toml``: the
seed's own sentences, quoted word for word, where the rule comes from the original rules, and a
careful translation of the digest elsewhere. `rule_original` gives the Indonesian text beside
the English one (``--quote-original``).
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from vwlog.games import rule_title as game_rule_title
from vwlog.io.i18n import N_, active_language, gettext
from vwlog.model.ruleids import SOURCE
from vwlog.model.types import RuleId
from vwlog.render.flagtext import Message, python_and
from vwlog.rules.catalog import RULES, Rule

__all__ = [
    "IndonesianRule",
    "extract_reasons",
    "indonesian_rules",
    "original_beside",
    "quoting_original",
    "rule_detail_lines",
    "rule_original",
    "rule_reason",
    "rule_text",
    "rule_title",
    "strip_source_tags",
]


@dataclass(frozen=True, slots=True)
class IndonesianRule:
    """One rule in Bahasa Indonesia."""

    title: str
    quote: str
    """The seed's sentences, word for word (one per line); empty when the rule does not come
    from the original rules."""
    seed: str
    """Which seed ``quote`` comes from (``S000`` turn structure, ``S003`` skills), or empty."""
    text: str
    """The digest translated (the whole rule, or what it adds to the quote)."""

    @property
    def body(self) -> str:
        """What a report shows: the quote, then the translation."""
        return "\n".join(part for part in (self.quote, self.text) if part)


@cache
def indonesian_rules() -> dict[str, IndonesianRule]:
    """Every rule id's Indonesian title and text (``vwlog/data/rules.id.toml``)."""
    raw = tomllib.loads(
        resources.files("vwlog").joinpath("data", "rules.id.toml").read_text(encoding="utf-8")
    )
    return {
        rid: IndonesianRule(
            title=str(entry["title"]),
            quote=str(entry.get("quote", "")),
            seed=str(entry.get("seed", "")),
            text=str(entry.get("text", "")),
        )
        for rid, entry in raw.items()
    }


def _indonesian(rule: str) -> IndonesianRule | None:
    if active_language() != "id":
        return None
    return indonesian_rules().get(rule)


_TAG = re.compile(rf"\s*\[(?:{SOURCE}|INF)\](?:\[(?:{SOURCE}|INF)\])*")
_OPEN_TAIL = re.compile(r"\s*\((?:[^()]*)$")


def strip_source_tags(text: str) -> str:
    """``text`` without the digest's source tags (``[S000]``, ``[W1]``, ``[INF]``; another
    game's ``[S002 §501.2b]``, ``[R1]``)."""
    return _TAG.sub("", text)


def rule_title(rule: str) -> str:
    """The title of a rule id, without source tags or a dangling parenthesis (empty if the id
    is unknown)."""
    found = _digest_rule(rule, lambda translated: translated.title)
    if isinstance(found, str):
        return found
    title = strip_source_tags(found.title).strip()
    if title.count("(") > title.count(")"):
        title = _OPEN_TAIL.sub("", title).strip()
    return title


REASON_TABLES = ("NOT_ENFORCED", "PARTIAL", "PENDING_FLAGS")
"""The tables of `vwlog.rules.catalog` whose values say why a rule or a flag is not (wholly)
applied: their sentences are messages of the catalogs (`extract_reasons`)."""


def rule_reason(reason: str) -> str:
    """Why a rule is not (wholly) enforced, or a flag not applied (a sentence of
    `vwlog.rules.catalog`), in the active language; empty stays empty."""
    return gettext(reason) if reason else ""


def _reasons(tree: ast.Module) -> Iterator[Message]:
    target: ast.expr
    value: ast.expr | None
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id in REASON_TABLES and value):
            continue
        for entry in ast.literal_eval(value).values():
            reason = entry[1] if isinstance(entry, tuple) else entry
            if reason:
                yield node.lineno, "gettext", reason, []


extract_reasons = python_and(_reasons)
"""Babel extraction method for ``vwlog/rules/catalog.py``: its Python messages, then every
reason of its `REASON_TABLES` (each a ``gettext`` message), read from the source as
literals: the engine's tables stay plain data, free of the catalogs."""


def rule_text(rule: str) -> str:
    """The full text of a rule id (Markdown), without source tags (empty if unknown): the
    English digest, or in Indonesian the seed's sentences and the translation."""
    found = _digest_rule(rule, lambda translated: translated.body)
    return found if isinstance(found, str) else strip_source_tags(found.text)


def _digest_rule(rule: str, indonesian: Callable[[IndonesianRule], str]) -> Rule | str:
    """The digest's rule of this id, or what shows instead: for another game's rule id its
    title (empty if unknown), in Indonesian ``indonesian`` of the translation."""
    found = RULES.get(RuleId(rule))
    if found is None:
        return strip_source_tags(game_rule_title(rule) or "").strip()
    translated = _indonesian(rule)
    return found if translated is None else indonesian(translated)


def rule_original(rule: str) -> str:
    """The rule in Indonesian, to quote beside the English digest: the seed's own sentences
    where the rule comes from the original rules, else the translation (empty if unknown)."""
    found = indonesian_rules().get(rule)
    if found is None or RuleId(rule) not in RULES:
        return ""
    return found.quote or found.text


_QUOTE_ORIGINAL: ContextVar[bool] = ContextVar("vwlog_quote_original", default=False)


@contextmanager
def quoting_original(on: bool = True) -> Iterator[None]:
    """Inside the block, reports in English quote each rule's Indonesian original beside the
    digest (``vwlog report --quote-original``)."""
    token = _QUOTE_ORIGINAL.set(on)
    try:
        yield
    finally:
        _QUOTE_ORIGINAL.reset(token)


def original_beside(rule: str) -> tuple[str, str]:
    """What to show beside a rule's English text when quoting originals: (label, Indonesian
    text); the seed's words where the rule comes from the original rules, else the careful
    translation. ``("", "")`` when not quoting or the report is already in Indonesian."""
    if not _QUOTE_ORIGINAL.get() or active_language() == "id":
        return "", ""
    found = indonesian_rules().get(rule)
    if found is None or RuleId(rule) not in RULES:
        return "", ""
    if found.quote:
        return gettext("Indonesian original:"), found.quote
    return gettext("In Indonesian:"), found.text


BASIS_WORDS = {
    "SOURCE": N_("stated by the original rules"),
    "INF": N_("inferred from the original rules"),
    "DEF": N_("a proposed default where the original rules are silent"),
}
"""What a rule's basis means, as `rule_detail_lines` says it."""


def rule_detail_lines(entry: Mapping[str, Any]) -> list[str]:
    """One rule as a terminal shows it (`vwlog.services.rulesets.rule_entry`): the id and
    title, status and basis, the whole text, the rule in Indonesian (the seed's sentences
    where there are some), the flags it reads, the events it checks and where it is enforced,
    in the active language; the text is the catalog's (escape it for the terminal)."""
    rid = str(entry["id"])
    out = [f"{rid}  {entry['title']}"]
    status = str(entry["status"])
    reason = rule_reason(str(entry["reason"]))
    out.append("  " + gettext("status: {status}").format(status=status))
    if reason:
        out.append("    " + reason)
    basis = gettext(BASIS_WORDS.get(str(entry["basis"]), str(entry["basis"])))
    out.append("  " + gettext("basis: {basis}").format(basis=basis))
    out += ["", *(f"  {line}" for line in str(entry["text"]).split("\n")), ""]
    original = entry.get("indonesian")
    if original and active_language() != "id":
        if original.get("quote"):
            label = gettext("In the original rules (seed {seed}):").format(seed=original["seed"])
            said = str(original["quote"])
        else:
            label, said = gettext("In Indonesian (translated):"), str(original["text"] or "")
        out += [f"  {label}", *(f"    {line}" for line in said.split("\n")), ""]
    none = gettext("none")
    flags = ", ".join(entry["flags"]) or none
    events = ", ".join(entry["events"]) or none
    out.append("  " + gettext("ruleset flags it reads: {flags}").format(flags=flags))
    out.append("  " + gettext("events it checks: {events}").format(events=events))
    places = list(
        dict.fromkeys(
            f"{site['module']}.{site['function']}" if site["function"] else str(site["module"])
            for site in entry["enforced_in"]
        )
    )
    if not places:
        out.append("  " + gettext("enforced in: no engine function cites it"))
    else:
        label = gettext("enforced in:")
        out.append(f"  {label} {places[0]}")
        out += [f"  {' ' * len(label)} {place}" for place in places[1:]]
    return out
