"""The code base's shape, checked: modules and functions of the engine and the projections stay
readable (no module over 600 lines, no function over 80, except exhaustive ``match``
dispatchers), and every module says what it exports (``__all__``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "vwlog"

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
SIZED = ("engine", "projections")
"""The packages whose sizes are held to the limits here (the others are being cut to size)."""

DISPATCHERS = {
    "vwlog/engine/describe.py:describe",
}
"""Functions allowed to be long because they are one exhaustive ``match`` over the event union."""

WITHOUT_ALL: set[str] = set()
"""Modules allowed to go without ``__all__`` (none: every module says what it exports)."""


def modules(*packages: str) -> list[Path]:
    roots = [PACKAGE / p for p in packages] if packages else [PACKAGE]
    return sorted(p for root in roots for p in root.rglob("*.py"))


def name(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("path", modules(*SIZED), ids=name)
def test_engine_and_projection_modules_stay_under_the_size_limits(path: Path) -> None:
    source = path.read_text("utf-8")
    assert source.count("\n") <= MAX_MODULE_LINES
    long = [
        f"{f.name}: {f.end_lineno - f.lineno + 1} lines"
        for f in functions(ast.parse(source))
        if f.end_lineno is not None
        and f.end_lineno - f.lineno + 1 > MAX_FUNCTION_LINES
        and f"{name(path)}:{f.name}" not in DISPATCHERS
    ]
    assert not long


@pytest.mark.parametrize("where", sorted(DISPATCHERS))
def test_the_long_functions_are_exhaustive_match_dispatchers(where: str) -> None:
    file, function = where.split(":")
    tree = ast.parse((PACKAGE.parent / file).read_text("utf-8"))
    (found,) = [f for f in functions(tree) if f.name == function]
    (match,) = [n for n in found.body if isinstance(n, ast.Match)]
    last = match.cases[-1]
    assert isinstance(last.pattern, ast.MatchAs)
    assert last.pattern.pattern is None
    assert "assert_never" in ast.unparse(last.body[0])


@pytest.mark.parametrize("path", modules(), ids=name)
def test_every_module_says_what_it_exports(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"))
    has_all = any(
        isinstance(n, (ast.Assign, ast.AnnAssign))
        and "__all__"
        in [
            t.id
            for t in getattr(n, "targets", [getattr(n, "target", None)])
            if isinstance(t, ast.Name)
        ]
        for n in tree.body
    )
    if name(path) in WITHOUT_ALL:
        assert not has_all, f"{name(path)} has __all__ now: take it off WITHOUT_ALL"
    else:
        assert has_all
