"""Attribute docstrings of pydantic models, each module's source parsed once.

pydantic reads a model's attribute docstrings (``use_attribute_docstrings``, which the models
here set: they become the JSON Schemas' field descriptions) from the model's source: on Python
3.11 it walks the stack to the frame defining the class, tokenizes the class block from there
and parses it, for every class (`inspect.getsourcelines` parses the whole module again
each time). With the models of the events, the catalog and the statistics that was about a
fifth of a command's start-up. `attribute_docstrings` parses a module once, reads each class with
pydantic's own visitor, and gives the same answer; a class it cannot place (one defined in a
function, or two classes of one qualified name in a module) is left to pydantic.

`install` puts it in pydantic's place; `vwlog.build` does so when pydantic's field module
loads (or at once, if it already has). ``tests/test_fielddocs.py`` compares both readings
for every model of the package.
"""

from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

_MODULES: dict[str, dict[str, dict[str, str]] | None] = {}
"""Each module's classes by qualified name, each with its attribute docstrings (``None``: the
module's source cannot be read)."""


def attribute_docstrings(cls: type[Any]) -> dict[str, str] | None:
    """The attribute docstrings of ``cls`` as pydantic reads them, or ``None`` if this reader
    cannot place the class."""
    name = cls.__module__
    if name not in _MODULES:
        _MODULES[name] = _read(sys.modules.get(name))
    classes = _MODULES[name]
    if classes is None:
        return None
    found = classes.get(cls.__qualname__)
    return dict(found) if found is not None else None


def _read(module: ModuleType | None) -> dict[str, dict[str, str]] | None:
    if module is None:
        return None
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return None
    from pydantic._internal._docs_extraction import DocstringVisitor

    classes: dict[str, dict[str, str]] = {}
    twice: set[str] = set()

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue  # a class in a function is named with <locals>: left to pydantic
            if isinstance(child, ast.ClassDef):
                qualname = prefix + child.name
                if qualname in classes:
                    twice.add(qualname)
                visitor = DocstringVisitor()
                visitor.generic_visit(child)
                classes[qualname] = visitor.attrs
                walk(child, qualname + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    for qualname in twice:
        del classes[qualname]
    return classes


def install(fields: ModuleType) -> None:
    """Read attribute docstrings with `attribute_docstrings` in pydantic's field module
    ``fields`` (``pydantic._internal._fields``), falling back to its own reader; a pydantic
    without that reader is left as it is."""
    original: Callable[..., dict[str, str]] | None = getattr(
        fields, "extract_docstrings_from_cls", None
    )
    if original is None or getattr(original, "read_once", False):
        return

    def extract_docstrings_from_cls(cls: type[Any], use_inspect: bool = False) -> dict[str, str]:
        # pydantic reads a model's class block from the frame that is defining it, or (with
        # ``use_inspect``) from `inspect`: either way the class statement this reader parsed
        found = attribute_docstrings(cls)
        assert original is not None
        return found if found is not None else original(cls, use_inspect=use_inspect)

    extract_docstrings_from_cls.read_once = True  # type: ignore[attr-defined]
    extract_docstrings_from_cls.original = original  # type: ignore[attr-defined]
    fields.extract_docstrings_from_cls = extract_docstrings_from_cls  # type: ignore[attr-defined]


__all__ = ["attribute_docstrings", "install"]
