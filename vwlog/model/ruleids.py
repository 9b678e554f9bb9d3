"""The shapes of rule ids, open questions and source tags, for the core and every game.

One place says what a rule id looks like, so the catalog's parser, the enforcement index, the
terminal's colouring and the report's flag table recognise the ids of any game alike:

* a **rule id** is ``GAME-AREA-n``: an upper-case game prefix (digits allowed after its first
  letter), an upper-case area and a number. VW's ``R-SET-1`` is one (prefix ``R``), as are
  ``WOW-STA-9``, ``L5R-BAT-3``, ``MIN-ACT-2`` and the core's ``CORE-LOG-1``; another game's
  open question (``L5R-OQ-6``) has the same shape;
* an **open question** is VW's ``OQ-7`` or another game's ``GAME-OQ-n`` (``L5R-OQ-6``);
* a **source tag** of a digest is ``[S000]`` (a primary source, optionally with its own rule
  number: ``[S002 §501.2b]``), ``[W1]`` (VW's web sources) or ``[R1]`` (another game's
  secondary sources); a **basis tag** is ``[INF]`` (inferred) or ``[DEF]`` (a proposed default).

The patterns are regular-expression *sources* (to be embedded in a larger expression) with
compiled forms beside them. Each compiled form refuses an id glued to a word or a hyphen
(``xR-SET-1``, ``p1-R-SET-1``), so a card instance (``p1-005``), a hash prefix or a sequence
number never reads as a rule id.

This module imports nothing from vwlog; every other layer may import it.
"""

from __future__ import annotations

import re
from typing import NewType

__all__ = [
    "BASIS",
    "CITATION",
    "CITATION_PATTERN",
    "OPEN_QUESTION",
    "OPEN_QUESTION_PATTERN",
    "RULE_ID",
    "RULE_ID_PATTERN",
    "SOURCE",
    "SOURCE_TAGS_PATTERN",
    "RuleId",
    "is_citation",
    "is_open_question",
    "is_rule_id",
]

RuleId = NewType("RuleId", str)
"""A rule id of a digest or of the core, shaped as `RULE_ID` says: VW's ``"R-CMB-26"``, another
game's ``"WOW-STA-9"``, the core's ``"CORE-LOG-1"``."""

RULE_ID = r"[A-Z][A-Z0-9]*-[A-Z]+-\d+"
"""A rule id of any game or of the core: ``R-SET-1``, ``WOW-STA-9``, ``L5R-OQ-6``,
``CORE-LOG-1``."""
OPEN_QUESTION = r"(?:[A-Z][A-Z0-9]*-)?OQ-\d+"
"""An open question of a digest: VW's ``OQ-7``, another game's ``L5R-OQ-6``."""
CITATION = rf"(?:{RULE_ID}|{OPEN_QUESTION})"
"""What a message may cite: a rule id or an open question."""
SOURCE = r"S\d{3}(?: §[\d.a-z]+)?|W\d+|R\d+"
"""The inside of one source tag: ``S000``, ``S002 §501.2b``, ``W1``, ``R1``."""
BASIS = r"INF|DEF"
"""The inside of a basis tag: ``INF`` (inferred), ``DEF`` (a proposed default)."""

_ALONE_BEFORE = r"(?<![\w-])"
_ALONE_AFTER = r"(?![\w-])"

RULE_ID_PATTERN = re.compile(rf"{_ALONE_BEFORE}{RULE_ID}{_ALONE_AFTER}")
"""A rule id standing alone in a text (`re.Pattern.findall` gives every one)."""
OPEN_QUESTION_PATTERN = re.compile(rf"{_ALONE_BEFORE}{OPEN_QUESTION}{_ALONE_AFTER}")
"""An open question standing alone in a text."""
CITATION_PATTERN = re.compile(rf"{_ALONE_BEFORE}{CITATION}{_ALONE_AFTER}")
"""A rule id or an open question standing alone in a text."""

SOURCE_TAGS_PATTERN = re.compile(
    rf"\s*(?:\[(?:S\d{{3}}|W\d+|{BASIS})[^\]]*\]|\[R\d+\])(?:\[(?:{SOURCE})\])*"
)
"""A digest's source or basis tag, with the spaces before it and the source tags that follow
it at once: ``[S000]``, ``[W1][W2]``, ``[INF]``, ``[DEF]``, ``[S002 §501.2b]``, ``[R1][R2]``.
A primary, web or basis tag may carry words up to its bracket (``[INF: …]``); ``[R1 places …]``
is prose, not a tag."""

_RULE_ID_WHOLE = re.compile(RULE_ID)
_OPEN_QUESTION_WHOLE = re.compile(OPEN_QUESTION)
_CITATION_WHOLE = re.compile(CITATION)


def is_rule_id(text: str) -> bool:
    """Whether ``text`` is exactly one rule id (of any game)."""
    return _RULE_ID_WHOLE.fullmatch(text) is not None


def is_open_question(text: str) -> bool:
    """Whether ``text`` is exactly one open question (``OQ-7``, ``L5R-OQ-6``)."""
    return _OPEN_QUESTION_WHOLE.fullmatch(text) is not None


def is_citation(text: str) -> bool:
    """Whether ``text`` is exactly one rule id or open question."""
    return _CITATION_WHOLE.fullmatch(text) is not None
