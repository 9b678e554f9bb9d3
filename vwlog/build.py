"""Which engine runs: the mypyc-compiled core or the pure-Python modules it is compiled from.

The engine's hot modules (`COMPILED`) are plain typed Python; ``python tools/build_engine.py``
compiles them with mypyc into extension modules beside the sources, and Python then imports
those instead. The pure modules stay the reference and the fallback:

* where nothing was compiled (or compiling failed), the sources run, as always;
* ``VWLOG_ENGINE=pure`` runs the sources even where compiled modules exist (the test suite runs
  both ways);
* a compiled module older than its source is never run: the sources run instead, so an edit
  takes effect at once and ``vwlog --version`` says the build is out of date.

`is_compiled` says which engine this process runs (``vwlog --version`` prints it).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from importlib.abc import MetaPathFinder
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

COMPILED: tuple[str, ...] = (
    "vwlog.engine.loop",
    "vwlog.model.copying",
    "vwlog.projections.board",
    "vwlog.projections.combat",
    "vwlog.projections.fold",
    "vwlog.projections.register",
    "vwlog.projections.turns",
    "vwlog.rules.checks",
    "vwlog.rules.checks.base",
    "vwlog.rules.checks.combat",
    "vwlog.rules.checks.consequences",
    "vwlog.rules.checks.decision",
    "vwlog.rules.checks.deploy",
    "vwlog.rules.checks.register",
    "vwlog.rules.checks.setup",
    "vwlog.rules.common",
    "vwlog.rules.decisions",
    "vwlog.rules.effects",
    "vwlog.rules.expectation",
    "vwlog.rules.flow",
)
"""The modules mypyc compiles (the fold, the expectations, the checks and the replay loop)."""

BUILD_COMMAND = "python tools/build_engine.py"
"""How to (re)build the compiled engine, from a source checkout."""

ENV = "VWLOG_ENGINE"
"""``pure`` runs the Python sources even where compiled modules exist."""

_ROOT = Path(__file__).resolve().parent.parent
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def source_of(name: str) -> Path:
    """The Python source of an engine module (a package's ``__init__.py``)."""
    path = _ROOT.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def extension_of(name: str) -> Path | None:
    """The compiled extension module beside the source, if one was built."""
    src = source_of(name)
    stem = src.parent / src.stem
    for suffix in _SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.exists():
            return candidate
    return None


def _state() -> str:
    """``compiled``, ``pure`` (nothing built), ``stale`` (a source changed after the build),
    ``partial`` (some modules are missing) or ``forced`` (``VWLOG_ENGINE=pure``)."""
    if os.environ.get(ENV, "").strip().lower() == "pure":
        return "forced"
    built = [(name, extension_of(name)) for name in COMPILED]
    present = [(name, ext) for name, ext in built if ext is not None]
    if not present:
        return "pure"
    if len(present) != len(built):
        return "partial"
    for name, ext in present:
        if source_of(name).stat().st_mtime > ext.stat().st_mtime:
            return "stale"
    return "compiled"


class _Sources(MetaPathFinder):
    """Finds the engine modules as Python sources, ahead of their compiled twins."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in _NAMES:
            return None
        src = source_of(fullname)
        loader = importlib.machinery.SourceFileLoader(fullname, str(src))
        is_package = src.name == "__init__.py"
        return importlib.util.spec_from_file_location(
            fullname,
            src,
            loader=loader,
            submodule_search_locations=[str(src.parent)] if is_package else None,
        )


_NAMES = frozenset(COMPILED)
STATE = _state()
"""How this process chose its engine (see `_state`)."""

if STATE != "compiled" and not any(isinstance(f, _Sources) for f in sys.meta_path):
    # whatever is not a complete, current build runs from source, every module alike (a
    # compiled module calling into a pure one of the same build would not link)
    sys.meta_path.insert(0, _Sources())


def is_compiled() -> bool:
    """Whether the replay loop this process runs is the compiled one."""
    module = sys.modules.get("vwlog.engine.loop")
    if module is None:
        import vwlog.engine.loop as module
    return not str(getattr(module, "__file__", "")).endswith(".py")


__all__ = [
    "BUILD_COMMAND",
    "COMPILED",
    "ENV",
    "STATE",
    "extension_of",
    "is_compiled",
    "source_of",
]
