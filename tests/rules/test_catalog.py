"""The rule catalog agrees with the digest, and the engine cites only rules the catalog has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vwlog.model.cards import Ruleset
from vwlog.rules.catalog import (
    NOT_ENFORCED,
    PARTIAL,
    PENDING_FLAGS,
    RULES,
    parse_rules_markdown,
    render_catalog_module,
    status,
)
from vwlog.rules.catalog_data import RULES_TABLE
from vwlog.rules.common import violation

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "vwlog"
DIGEST = ROOT / "docs" / "rules.md"
CATALOG_DATA = PACKAGE / "rules" / "catalog_data.py"
QUOTED_ID = re.compile(r"""["'](R-[A-Z]+-\d+)["']""")

ENGINE = [
    *(
        p
        for p in (PACKAGE / "rules").rglob("*.py")
        if p.name not in ("catalog.py", "catalog_data.py")
    ),
    *(PACKAGE / "projections").rglob("*.py"),
    PACKAGE / "engine" / "replay.py",
]
"""Modules that report violations (the catalog itself lists ids without citing them)."""


def cited(paths: list[Path]) -> dict[str, set[str]]:
    """Rule ids in quotes, with the files that quote them."""
    found: dict[str, set[str]] = {}
    for path in paths:
        for m in QUOTED_ID.finditer(path.read_text("utf-8")):
            found.setdefault(m.group(1), set()).add(str(path.relative_to(ROOT)))
    return found


def rows() -> list[tuple[str, str, str, str]]:
    return parse_rules_markdown(DIGEST.read_text("utf-8"))


def test_the_catalog_is_the_digest() -> None:
    parsed = rows()
    assert list(RULES_TABLE) == parsed
    assert [(r.id, r.title, r.basis, r.text) for r in RULES.values()] == parsed
    assert len(RULES) == 142  # 139 of the digest and R-TRUST-1..3


def test_the_digest_defines_every_id_it_mentions() -> None:
    text = DIGEST.read_text("utf-8")
    mentioned = set(re.findall(r"\bR-[A-Z]+-\d+\b", text))
    assert mentioned <= set(RULES)


def test_rendering_the_digest_reproduces_catalog_data_byte_for_byte() -> None:
    assert render_catalog_module(rows()) == CATALOG_DATA.read_text("utf-8")


def test_every_id_cited_in_the_package_exists() -> None:
    unknown = {
        rid: files
        for rid, files in cited([p for p in PACKAGE.rglob("*.py") if p != CATALOG_DATA]).items()
        if rid not in RULES
    }
    assert unknown == {}


def test_every_enforced_id_is_cited_by_the_engine() -> None:
    engine = cited(ENGINE)
    enforced = {r for r in RULES if status(r)[0] in ("enforced", "partial")}
    assert sorted(enforced - set(engine)) == []


def test_no_engine_module_cites_an_unenforced_rule() -> None:
    engine = cited(ENGINE)
    assert {r: engine[r] for r in NOT_ENFORCED if r in engine} == {}


def test_not_enforced_rules_exist_and_say_why() -> None:
    assert set(NOT_ENFORCED) <= set(RULES)
    for rid, (kind, why) in NOT_ENFORCED.items():
        assert kind in ("descriptive", "pending"), rid
        assert len(why) > 10, rid
    counts = {
        k: sum(1 for v in NOT_ENFORCED.values() if v[0] == k) for k in ("descriptive", "pending")
    }
    assert counts == {"descriptive": 29, "pending": 5}


def test_partial_rules_say_what_is_not_checked() -> None:
    assert set(PARTIAL) <= set(RULES)
    assert set(PARTIAL).isdisjoint(NOT_ENFORCED)
    for rid in ("R-CMB-7", "R-CMB-15", "R-CMB-28"):
        kind, why = status(rid)
        assert kind == "partial"
        assert "cannot" in why or "not checked" in why


def test_pending_flags_are_ruleset_fields() -> None:
    assert set(PENDING_FLAGS) <= set(Ruleset.model_fields)


@pytest.mark.parametrize("rid", ["R-CMB-5", "R-CMB-10", "R-VP-2", "R-END-6"])
def test_inferred_rules_say_by_default(rid: str) -> None:
    assert RULES[rid].basis == "INF"  # type: ignore[index]
    v = violation(rid, "something")
    assert v.message == "something (by default)"
    assert v.flag is None


@pytest.mark.parametrize("rid", ["R-SET-4", "R-DEP-2", "R-REG-9", "R-END-3", "R-VIC-4"])
def test_default_rules_say_by_default(rid: str) -> None:
    assert RULES[rid].basis == "DEF"  # type: ignore[index]
    assert violation(rid, "x").message.endswith("(by default)")


def test_a_flag_is_named_even_on_a_sourced_rule() -> None:
    v = violation("R-CMB-16", "x", flag="many_blockers_per_attacker")
    assert v.message == "x (by default; ruleset flag many_blockers_per_attacker)"
    assert v.flag == "many_blockers_per_attacker"


@pytest.mark.parametrize("rid", ["R-REG-6", "R-CMB-26", "R-SUP-3"])
def test_sourced_rules_do_not_say_by_default(rid: str) -> None:
    assert RULES[rid].basis == "SOURCE"  # type: ignore[index]
    assert violation(rid, "x").message == "x"


def test_an_unknown_id_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        violation("R-NOPE-1", "x")
