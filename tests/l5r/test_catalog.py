"""The catalog against its seed: every Croatian original is verbatim in the seed (whitespace
normalised), every rule has a status, and the game lists the titles; the package stays pure
and within the size limits."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from vwlog.games import rules_for
from vwlog.games.l5r.catalog import CATALOG, ENFORCEABLE, NOTES

SEED = Path(__file__).with_name("seeds") / "001_b10cf56d30126b73.txt"
PACKAGE = Path(__file__).resolve().parents[2] / "vwlog" / "games" / "l5r"
FORBIDDEN = ("orjson", "click", "sqlite3", "eventsourcing", "psycopg", "jinja2")
FORBIDDEN_VWLOG = ("engine", "io", "store", "services", "render", "cli", "api", "games.vw")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("rule_id", sorted(CATALOG))
def test_every_original_is_verbatim_in_the_seed(rule_id: str) -> None:
    seed = _norm(SEED.read_text("utf-8"))
    rule = CATALOG[rule_id]
    assert rule.original
    for quote in rule.original:
        assert _norm(quote) in seed, quote


def test_the_catalog_has_the_digests_rules() -> None:
    ids = set(CATALOG)
    expected = (
        {f"L5R-BTL-{n}" for n in range(1, 7)}
        | {f"L5R-CMB-{n}" for n in range(1, 9)}
        | {f"L5R-RES-{n}" for n in range(1, 14)}
        | {f"L5R-TXT-{n}" for n in range(1, 12)}
    )
    assert ids == expected
    assert len(ENFORCEABLE) == 27
    assert {r.status for r in CATALOG.values()} <= {"enforced", "partial", "pending", "descriptive"}
    for rid, rule in CATALOG.items():
        assert (rule.status == "descriptive") == rid.startswith("L5R-TXT-"), rid
        if rule.status == "partial":
            assert rid in NOTES, rid


def test_the_game_titles_its_rules() -> None:
    game = rules_for("l5r")
    assert game.id == "l5r"
    for rid, rule in CATALOG.items():
        assert game.catalog[rid] == rule.title


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_package_is_pure_and_within_the_size_limits(path: Path) -> None:
    for name in _imports(path):
        assert name.split(".")[0] not in FORBIDDEN, name
        for layer in FORBIDDEN_VWLOG:
            assert f"{name}.".startswith(f"vwlog.{layer}.") is False, name
    source = path.read_text("utf-8")
    assert len(source.splitlines()) <= 600
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            assert (node.end_lineno or 0) - node.lineno + 1 <= 80, node.name
