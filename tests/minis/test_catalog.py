"""The catalog against its seed: every Russian original is verbatim in the seed (whitespace
normalised), every rule has a status and the rules' ids are the digest's; the package stays
pure and within the size limits."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from vwlog.games import rules_for
from vwlog.games.minis.catalog import CATALOG, ENFORCEABLE, GEOMETRIC, NOTES

SEED = Path(__file__).with_name("seeds") / "004_042cd27321a5beb8.txt"
PACKAGE = Path(__file__).resolve().parents[2] / "vwlog" / "games" / "minis"
FORBIDDEN = ("orjson", "click", "sqlite3", "eventsourcing", "psycopg", "jinja2")
FORBIDDEN_VWLOG = ("engine", "io", "store", "services", "render", "cli", "api", "games.vw", "rules")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("rule_id", sorted(CATALOG))
def test_every_russian_original_is_verbatim_in_the_seed(rule_id: str) -> None:
    seed = SEED.read_text("utf-8")
    rule = CATALOG[rule_id]
    assert rule.original
    for quote in rule.original:
        assert quote in seed or _norm(quote) in _norm(seed), quote


def test_the_catalog_has_the_digests_rules() -> None:
    expected = (
        {f"MIN-RND-{n}" for n in range(1, 5)}
        | {f"MIN-PHS-{n}" for n in range(1, 7)}
        | {f"MIN-ACT-{n}" for n in range(1, 9)}
        | {f"MIN-REA-{n}" for n in range(1, 8)}
        | {f"MIN-RES-{n}" for n in range(1, 3)}
        | {f"MIN-TXT-{n}" for n in range(1, 7)}
    )
    assert set(CATALOG) == expected
    assert len(ENFORCEABLE) == 27
    for rid, rule in CATALOG.items():
        assert (rule.status == "descriptive") == rid.startswith("MIN-TXT-"), rid
        if rule.status == "partial":
            assert rid in NOTES, rid
    assert all(CATALOG[r].status == "partial" for r in GEOMETRIC)


def test_the_game_titles_its_rules() -> None:
    game = rules_for("minis")
    for rid, rule in CATALOG.items():
        assert game.catalog[rid] == rule.title
        assert game.entries[rid].original == rule.original


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
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
            assert not f"{name}.".startswith(f"vwlog.{layer}."), name
    source = path.read_text("utf-8")
    assert len(source.splitlines()) <= 600
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            assert (node.end_lineno or 0) - node.lineno + 1 <= 80, node.name
