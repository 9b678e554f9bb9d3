"""``tools/game_imports.py``: which core modules still import Vandaria Wars' own modules."""

from __future__ import annotations

import tomllib
from typing import TYPE_CHECKING

from tests.tools import ROOT, load_tool

if TYPE_CHECKING:
    from pathlib import Path

game_imports = load_tool("game_imports")


def _module(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_import_of_a_vw_module_is_found_wherever_it_is(tmp_path: Path) -> None:
    found = [
        "from vwlog.events import MatchStarted\n",
        "from vwlog.model.state import MatchState\n",
        "import vwlog.rules.catalog\n",
        "from vwlog import events\n",
        "if TYPE_CHECKING:\n    from vwlog.games.vw.describe import BoardView\n",
        "def f():\n    from vwlog.projections.stats import CorpusStats\n",
    ]
    for text in found:
        assert game_imports.imports_vw(_module(tmp_path, text)), text


def test_the_core_records_and_the_registry_are_no_vw_import(tmp_path: Path) -> None:
    clean = [
        "from vwlog.events import LogHeader, MatchForked, event_type\n",
        "from vwlog.events.base import BaseEvent\n",
        "from vwlog.games import GameRules, rules_for\n",
        "from vwlog.games.seats import SeatView\n",
        "from vwlog.model.verdict import Verdict\n",
        "from .sibling import thing\n",
    ]
    for text in clean:
        assert not game_imports.imports_vw(_module(tmp_path, text)), text


def test_every_core_module_the_contract_holds_is_found_clean() -> None:
    # the import contract and the survey agree: a module the contract says names no game is
    # not among those the survey lists
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    held = next(c for c in contracts["contracts"] if c["name"].startswith("the core names no game"))
    naming = {m for _, listed in game_imports.survey().values() for m in listed}
    package = ROOT / "vwlog"
    for module in held["source_modules"]:
        path = package / module.removeprefix("vwlog.").replace(".", "/")
        if path.relative_to(package).parts[0] not in game_imports.CORE_PACKAGES:
            continue
        found = [path.with_suffix(".py")] if path.with_suffix(".py").exists() else []
        files = {str(f.relative_to(package)) for f in [*found, *path.rglob("*.py")]}
        assert files, module
        assert not naming & files, module
