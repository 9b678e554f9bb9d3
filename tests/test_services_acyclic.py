"""The use cases in `vwlog.services` import one another without a cycle: every import between
two of its modules counts, a function-level import too, so that no import placed inside a
function can hide a cycle that a module-level one would reveal."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[1] / "vwlog" / "services"


def _imports(path: Path) -> set[str]:
    """The services modules ``path`` imports, at any depth but ``if TYPE_CHECKING:``."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
                continue
            if isinstance(child, ast.ImportFrom) and child.module:
                if child.module.startswith("vwlog.services."):
                    found.add(child.module.split(".")[2])
                elif child.module == "vwlog.services":
                    found.add("__init__")
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v] & graph.keys()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def test_the_services_modules_import_one_another_without_a_cycle() -> None:
    graph = {p.stem: _imports(p) for p in SERVICES.glob("*.py")}
    assert len(graph) > 20
    assert _cycles(graph) == []


def test_the_cycle_check_finds_a_cycle_hidden_in_a_function() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
