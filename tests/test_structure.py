"""The code base's shape, checked: modules and functions of every package stay readable (no
module over 600 lines, no function over 80, except exhaustive ``match`` dispatchers and the
listed exceptions, each with its reason), and every module says what it exports (``__all__``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "vwlog"

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
SIZED = (
    "api",
    "audit",
    "cli",
    "engine",
    "events",
    "games",
    "io",
    "model",
    "projections",
    "render",
    "rules",
    "services",
    "store",
)
"""The packages whose sizes are held to the limits here: all of them."""

OVERSIZED: dict[str, str] = {}
"""Known breaches of the limits (a module, or ``module:function``), each with its reason. The
list may only shrink: a listed item that fits the limits again fails the last test here."""

DISPATCHERS = {
    "vwlog/games/vw/describe.py:description",
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


def breaches(path: Path) -> list[str]:
    """What in ``path`` exceeds the limits: the module itself and each long function."""
    source = path.read_text("utf-8")
    found = [name(path)] if source.count("\n") > MAX_MODULE_LINES else []
    found += [
        f"{name(path)}:{f.name}"
        for f in functions(ast.parse(source))
        if f.end_lineno is not None
        and f.end_lineno - f.lineno + 1 > MAX_FUNCTION_LINES
        and f"{name(path)}:{f.name}" not in DISPATCHERS
    ]
    return found


@pytest.mark.parametrize("path", modules(*SIZED), ids=name)
def test_modules_and_functions_stay_under_the_size_limits(path: Path) -> None:
    assert [b for b in breaches(path) if b not in OVERSIZED] == []


def test_every_package_is_sized() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert packages <= set(SIZED)


def test_the_listed_breaches_still_breach() -> None:
    found = {b for path in modules(*SIZED) for b in breaches(path)}
    assert sorted(set(OVERSIZED) - found) == []


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
