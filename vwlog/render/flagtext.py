"""The meaning of each ruleset flag, as the reports' flag tables show it, in the active
language.

A flag's meaning is its field's docstring in `vwlog.model.cards.Ruleset` (the open question it
answers, ``OQ-7: …``, stripped: the table has a column for it; `vwlog.audit.report.flag_rows`).
The model stays plain data, free of the catalogs: `extract_flag_meanings` (the Babel extraction
method of ``model/cards.py``, ``babel.cfg``) reads the same docstrings from the source, and
`flag_meaning` looks the text up where a report writes it.
"""

from __future__ import annotations

import ast
import inspect
import io
import itertools
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import IO, Any

from vwlog.io.i18n import gettext
from vwlog.model.ruleids import is_citation

__all__ = [
    "Extractor",
    "Message",
    "extract_flag_meanings",
    "flag_meaning",
    "meaning_of",
    "python_and",
]


def meaning_of(description: str) -> tuple[str, str]:
    """A flag's docstring as its table shows it: the open question or rule it starts with
    (``OQ-7``, or ``""``) and the meaning after it, on one line."""
    meaning = description.replace("\n", " ")
    head, sep, tail = meaning.partition(": ")
    if sep and is_citation(head):
        return head, tail
    return "", meaning


def flag_meaning(meaning: str) -> str:
    """A flag's meaning (English, as `vwlog.audit.report.FlagRow` holds it) in the active
    language; an empty one stays empty."""
    return gettext(meaning) if meaning else ""


Message = tuple[int, str, str | tuple[str, ...], list[str]]
"""A message as a Babel extraction method yields it: line, function, text, comments."""

Extractor = Callable[
    [IO[bytes], Mapping[str, Any], Collection[str], dict[str, Any]], Iterator[Message]
]
"""A Babel extraction method: ``(fileobj, keywords, comment_tags, options)`` to messages."""


def python_and(more: Callable[[ast.Module], Iterator[Message]]) -> Extractor:
    """A Babel extraction method that yields a Python file's messages (Babel's own ``python``
    method), then the ones ``more`` finds in the file's syntax tree."""

    def extract(
        fileobj: IO[bytes],
        keywords: Mapping[str, Any],
        comment_tags: Collection[str],
        options: dict[str, Any],
    ) -> Iterator[Message]:
        from babel.messages.extract import extract_python

        source = fileobj.read()
        # Babel's annotations name another tuple than extract_python yields at run time
        yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)  # type: ignore[misc, arg-type]
        yield from more(ast.parse(source.decode(options.get("encoding", "utf-8"))))

    return extract


def _ruleset_meanings(tree: ast.Module) -> Iterator[Message]:
    for node in tree.body:
        if not (isinstance(node, ast.ClassDef) and node.name == "Ruleset"):
            continue
        for field, doc in itertools.pairwise(node.body):
            if not (
                isinstance(field, ast.AnnAssign)
                and isinstance(field.target, ast.Name)
                and field.target.id not in ("id", "version")  # not flags: no table shows them
                and isinstance(doc, ast.Expr)
                and isinstance(doc.value, ast.Constant)
                and isinstance(doc.value.value, str)
            ):
                continue
            _question, meaning = meaning_of(inspect.cleandoc(doc.value.value))
            if meaning:
                yield doc.lineno, "gettext", meaning, []


extract_flag_meanings = python_and(_ruleset_meanings)
"""Babel extraction method for ``vwlog/model/cards.py``: its Python messages, then the
meaning of every field of ``class Ruleset`` (each a ``gettext`` message), from the
docstring under the field, as pydantic reads it."""
