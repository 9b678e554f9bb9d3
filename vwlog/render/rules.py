"""Rule titles and texts as judges read them: without the digest's source tags.

The digest (docs/rules.md) marks where each sentence comes from with tags such as ``[S000]``,
``[W1][W2]`` or ``[INF]``; they help whoever maintains the digest and mean nothing to a judge
or a player, so nothing vwlog shows carries them.
"""

from __future__ import annotations

import re

from vwlog.model.types import RuleId
from vwlog.rules.catalog import RULES

__all__ = ["rule_text", "rule_title", "strip_source_tags"]

_TAG = re.compile(r"\s*\[(?:S\d{3}|W\d+|INF)\](?:\[(?:S\d{3}|W\d+|INF)\])*")
_OPEN_TAIL = re.compile(r"\s*\((?:[^()]*)$")


def strip_source_tags(text: str) -> str:
    """``text`` without the digest's source tags (``[S000]``, ``[W1]``, ``[INF]``)."""
    return _TAG.sub("", text)


def rule_title(rule: str) -> str:
    """The title of a rule id, without source tags or a dangling parenthesis (empty if the id
    is unknown)."""
    found = RULES.get(RuleId(rule))
    if found is None:
        return ""
    title = strip_source_tags(found.title).strip()
    if title.count("(") > title.count(")"):
        title = _OPEN_TAIL.sub("", title).strip()
    return title


def rule_text(rule: str) -> str:
    """The full digest text of a rule id (Markdown), without source tags (empty if unknown)."""
    found = RULES.get(RuleId(rule))
    return strip_source_tags(found.text) if found is not None else ""
