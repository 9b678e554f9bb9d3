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
from pathlib import Path
from typing import TYPE_CHECKING, cast

# every vwlog process imports this module first: what it needs only now and then (ast, json,
# importlib.abc, which loads importlib.resources) is imported where it is used
if TYPE_CHECKING:
    import importlib.abc
    from collections.abc import Callable, Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

COMPILED: tuple[str, ...] = (
    "vwlog.engine.loop",
    "vwlog.engine.tally",
    "vwlog.games.vw.judging",
    "vwlog.io.chain",
    "vwlog.io.codec",
    "vwlog.io.integritypass",
    "vwlog.io.logfile",
    "vwlog.model.copying",
    "vwlog.model.expect",
    "vwlog.model.markers",
    "vwlog.model.resources",
    "vwlog.model.state",
    "vwlog.model.types",
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
"""The modules mypyc compiles (the fold, the expectations, the checks and the replay loop, and
the enums they read: compiled code reads the members of a compiled enum as constants; and what
runs once per line before the replay: the log reader, with the mixin it takes ``with`` from, and
the hash chain's check, with the canonical encoding and hashing it calls)."""

BUILD_COMMAND = "python tools/build_engine.py"
"""How to (re)build the compiled engine, from a source checkout."""

ENV = "VWLOG_ENGINE"
"""``pure`` runs the Python sources even where compiled modules exist."""

_ROOT = Path(__file__).resolve().parent.parent
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)

WHEEL_INFO = Path(__file__).with_name("_engine.json")
"""Written into a wheel by its build hook (``hatch_build.py``): which engine the wheel holds and,
for a pure one, why. Absent in a source checkout."""


def wheel_info() -> dict[str, object] | None:
    """What the wheel this package was installed from says of its engine (`WHEEL_INFO`), or
    ``None`` for a source checkout."""
    try:
        text = WHEEL_INFO.read_text("utf-8")
    except (OSError, ValueError):
        return None  # a source checkout (or an unreadable file)
    import json

    try:
        info = json.loads(text)
    except ValueError:
        return None
    return info if isinstance(info, dict) else None


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
    ``partial`` (some modules are missing), ``forced`` (``VWLOG_ENGINE=pure``) or ``wheel``
    (installed from a wheel that holds the pure engine, `wheel_info` says why)."""
    if os.environ.get(ENV, "").strip().lower() == "pure":
        return "forced"
    built = [(name, extension_of(name)) for name in COMPILED]
    present = [(name, ext) for name, ext in built if ext is not None]
    info = wheel_info()
    if info is not None and info.get("engine") == "pure" and not present:
        return "wheel"
    if not present:
        return "pure"
    if len(present) != len(built):
        return "partial"
    if info is not None:
        # an installed wheel: its files' times are those of the unpacking, not of a build
        return "compiled"
    for name, ext in present:
        if source_of(name).stat().st_mtime > ext.stat().st_mtime:
            return "stale"
    return "compiled"


class _EngineFinder:
    """Finds the engine modules (`COMPILED`) its own way; any other module, as Python would (a
    meta path finder: `importlib.abc.MetaPathFinder`'s protocol)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        return self._spec(fullname, path) if fullname in _NAMES else None

    def _spec(self, fullname: str, path: Sequence[str] | None) -> ModuleSpec | None:
        raise NotImplementedError


class _Sources(_EngineFinder):
    """Finds the engine modules as Python sources, ahead of their compiled twins."""

    def _spec(self, fullname: str, path: Sequence[str] | None) -> ModuleSpec | None:
        src = source_of(fullname)
        loader = importlib.machinery.SourceFileLoader(fullname, str(src))
        is_package = src.name == "__init__.py"
        return importlib.util.spec_from_file_location(
            fullname,
            src,
            loader=loader,
            submodule_search_locations=[str(src.parent)] if is_package else None,
        )


_FILLER = "mypyc filler docstring"
_DOCSTRINGS: dict[str, dict[str, str]] = {}
"""The class docstrings of each compiled module's source, parsed once, when first needed."""


def restore_docstrings(module: ModuleType) -> list[str]:
    """Give a compiled module's classes back the docstrings of its source; the names of the
    classes restored.

    mypyc writes a filler (or nothing) where a compiled class's docstring was, and the JSON
    schemas, ``help`` and the documentation read them (the enums' docstrings describe wire
    values). Only classes whose docstring was lost are touched, and a module's source is
    parsed only if it has such a class.
    """
    name = module.__name__
    lost = {
        key: obj
        for key, obj in list(vars(module).items())
        if isinstance(obj, type) and obj.__module__ == name and obj.__doc__ in (_FILLER, "", None)
    }
    if not lost:
        return []
    docs = _DOCSTRINGS.get(name)
    if docs is None:
        import ast

        tree = ast.parse(source_of(name).read_bytes())
        docs = _DOCSTRINGS[name] = {
            node.name: doc
            for node in tree.body
            if isinstance(node, ast.ClassDef)
            and (doc := ast.get_docstring(node, clean=False)) is not None
        }
    restored = []
    for key, cls in lost.items():
        if key in docs:
            cls.__doc__ = docs[key]
            restored.append(key)
    return restored


class _Documented:
    """Loads a compiled engine module as usual, then `restore_docstrings` of every compiled
    module loaded so far: a compiled module imports the others of its build directly, past
    the import system, so this runs whenever interpreted code imports one (a loader:
    `importlib.abc.Loader`'s protocol)."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        for name in COMPILED:
            loaded = sys.modules.get(name)
            if loaded is not None:
                restore_docstrings(loaded)


class _Compiled(_EngineFinder):
    """Finds the compiled engine modules where Python would, with their docstrings kept."""

    def _spec(self, fullname: str, path: Sequence[str] | None) -> ModuleSpec | None:
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            spec.loader = cast("importlib.abc.Loader", _Documented(spec.loader))
        return spec


_PYDANTIC_FIELDS = "pydantic._internal._fields"
"""The pydantic module that reads models' attribute docstrings (see `vwlog.model.fielddocs`)."""


def _read_docstrings_once(fields: ModuleType) -> None:
    from vwlog.model.fielddocs import install

    install(fields)


class _Then:
    """A loader that runs ``then`` on the module it loaded (`importlib.abc.Loader`'s
    protocol)."""

    def __init__(self, loader: importlib.abc.Loader, then: Callable[[ModuleType], None]) -> None:
        self._loader = loader
        self._then = then

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        self._then(module)


class _PydanticFields:
    """Finds pydantic's field module as Python would, and has its attribute docstrings read
    once per module when it loads (a meta path finder)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != _PYDANTIC_FIELDS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = cast("importlib.abc.Loader", _Then(spec.loader, _read_docstrings_once))
        return spec


if _PYDANTIC_FIELDS in sys.modules:
    _read_docstrings_once(sys.modules[_PYDANTIC_FIELDS])
elif not any(isinstance(f, _PydanticFields) for f in sys.meta_path):
    sys.meta_path.insert(0, _PydanticFields())

_NAMES = frozenset(COMPILED)
STATE = _state()
"""How this process chose its engine (see `_state`)."""

if STATE != "compiled":
    if not any(isinstance(f, _Sources) for f in sys.meta_path):
        # whatever is not a complete, current build runs from source, every module alike (a
        # compiled module calling into a pure one of the same build would not link)
        sys.meta_path.insert(0, _Sources())
elif not any(isinstance(f, _Compiled) for f in sys.meta_path):
    sys.meta_path.insert(0, _Compiled())


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
    "WHEEL_INFO",
    "extension_of",
    "is_compiled",
    "restore_docstrings",
    "source_of",
    "wheel_info",
]
