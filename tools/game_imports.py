"""Which modules of the core packages still import Vandaria Wars' own modules.

    python tools/game_imports.py           # one line a package: how many of its modules do
    python tools/game_imports.py --list    # and which

The core packages (`engine`, `io`, `store`, `audit`, `render`, `services`, `api`, `cli`) should
ask a match's game for what they need (`vwlog.games.GameRules`) instead of importing VW's
events, board, rules, statistics or views. A module counts when any import in it, at the top,
under ``TYPE_CHECKING`` or inside a function, names one of `VW_MODULES`, or names from the
`vwlog.events` package anything but the core's records (`CORE_EVENT_NAMES`). The modules that
name no game are held to it by the import contracts in ``pyproject.toml``; this script shows how
far the rest has come.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CORE_PACKAGES = ("engine", "io", "store", "audit", "render", "services", "api", "cli")

VW_MODULES = (
    "vwlog.games.vw",
    "vwlog.rules",
    "vwlog.projections",
    "vwlog.model.state",
    "vwlog.model.cards",
    "vwlog.model.types",
    "vwlog.model.board",
    "vwlog.model.markers",
    "vwlog.events.match",
    "vwlog.events.combat",
    "vwlog.events.register",
    "vwlog.events.turn",
    "vwlog.events.preparation",
    "vwlog.events.effects",
    "vwlog.events.end",
    "vwlog.events.upcast",
)
"""Vandaria Wars' modules below the games layer (its events, board, rules and statistics) and
its game package."""

CORE_EVENT_NAMES = frozenset(
    {
        "BaseEvent",
        "Decision",
        "Consequence",
        "Chance",
        "LogHeader",
        "MatchForked",
        "MatchSealed",
        "RecordSigned",
        "SealedBy",
        "FORMAT_NAME",
        "FORMAT_VERSION",
        "TAGS",
        "event_type",
    }
)
"""What the `vwlog.events` package re-exports of the core's records (`vwlog.events.base`,
`vwlog.events.core`)."""


def _names_vw(module: str, names: list[str]) -> bool:
    if any(module == m or module.startswith(m + ".") for m in VW_MODULES):
        return True
    if module == "vwlog.events":
        return any(n not in CORE_EVENT_NAMES for n in names)
    return module == "vwlog" and "events" in names


def imports_vw(path: Path) -> bool:
    """Whether the module at ``path`` imports a Vandaria Wars module anywhere in it."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if _names_vw(node.module, [a.name for a in node.names]):
                return True
        elif isinstance(node, ast.Import) and any(_names_vw(a.name, []) for a in node.names):
            return True
    return False


def survey(root: Path = ROOT) -> dict[str, tuple[int, list[str]]]:
    """Each core package: how many modules it has, and those that import VW's."""
    out = {}
    for package in CORE_PACKAGES:
        modules = sorted((root / "vwlog" / package).rglob("*.py"))
        naming = [str(m.relative_to(root / "vwlog")) for m in modules if imports_vw(m)]
        out[package] = (len(modules), naming)
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the survey."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="name the modules")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to survey")
    args = parser.parse_args(argv)
    found = survey(args.root)
    for package, (count, naming) in found.items():
        print(f"{package}: {len(naming)} of {count} modules import Vandaria Wars' modules")
        if args.list and naming:
            print("    " + " ".join(naming))
    total = sum(count for count, _ in found.values())
    print(f"in all: {sum(len(n) for _, n in found.values())} of {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
