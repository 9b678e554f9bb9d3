"""The wheel's build hook: compile the engine core (`vwlog.build.COMPILED`) with mypyc, so that
``pip install .`` and a built wheel carry the compiled engine.

The sources are copied to a temporary directory and compiled there (the checkout is left as it
was); each extension module goes into the wheel beside its source, the shared mypyc runtime at
the top of ``site-packages``. ``vwlog/_engine.json`` in the wheel says which engine was built and,
when it could not be, why: without a C compiler or the Python headers the wheel holds the pure
engine, a warning says so during the build, and ``vwlog --version`` says so afterwards.

``VWLOG_BUILD_ENGINE=pure`` builds a pure wheel on purpose. An editable install
(``pip install -e .``) compiles nothing: ``python tools/build_engine.py`` compiles a checkout in
place.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENGINE_INFO = "vwlog/_engine.json"
"""Where the wheel says which engine it holds (read by `vwlog.build`)."""

_BUILD = """
import sys
from mypyc.build import mypycify
from setuptools import setup
sources = sys.argv[1:]
setup(
    name="vwlog-engine",
    packages=[],
    py_modules=[],
    ext_modules=mypycify(sources, opt_level="3", target_dir="build/mypyc"),
    script_args=["-q", "build_ext", "--inplace", "--build-temp", "build/temp", "-j", "2"],
)
"""


def _compiled_names(root: Path) -> list[str]:
    """`vwlog.build.COMPILED`, read from the source without importing the package."""
    import ast

    tree = ast.parse((root / "vwlog" / "build.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "COMPILED":
            return [str(name) for name in ast.literal_eval(node.value)]  # type: ignore[arg-type]
    raise RuntimeError("vwlog/build.py names no COMPILED modules")


def _mypy_settings(root: Path) -> str:
    """The ``[tool.mypy]`` tables of the project's pyproject.toml (the plugins, the overrides),
    alone: setuptools must not read the project's own table. The checks that only hold where
    every library of the project is installed are off (the build environment holds those the
    compiled modules' types come from, `BUILD_REQUIRES`; the others read as ``Any``), and
    nothing in them changes the code mypyc writes."""
    kept: list[str] = []
    keep = False
    for line in (root / "pyproject.toml").read_text("utf-8").splitlines():
        if line.startswith("["):
            keep = line.lstrip("[").startswith("tool.mypy")
            if line == "[tool.mypy]":
                kept += [line, "ignore_missing_imports = true"]
                continue
        if keep and not line.startswith(_CHECK_ONLY):
            kept.append(line)
    return "\n".join(kept) + "\n"


_CHECK_ONLY = ("strict ", "strict=", "warn_unreachable", "enable_error_code")


def _reason(output: str) -> str:
    """The line of a failed build's output that says why (a compiler's ``error:``, mypy's)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    said = [line for line in lines if "error" in line.lower()] or lines[-1:]
    return said[-1][:300] if said else ""


def _source(root: Path, name: str) -> Path:
    path = root.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


BUILD_REQUIRES = [
    "mypy>=1.11",
    "setuptools>=77",
    # mypy reads the types of the libraries the compiled modules import
    "mypy_extensions>=1.0",
    "orjson>=3.10",
    "pydantic>=2.7,<3",
    "typing_extensions>=4.5",
]
"""What compiling needs in the build environment (none of it when the build is pure)."""


def _pure_asked() -> bool:
    return os.environ.get("VWLOG_BUILD_ENGINE", "").strip().lower() == "pure"


class EngineBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the engine into the wheel, or says why the wheel is pure."""

    def dependencies(self) -> list[str]:
        return [] if _pure_asked() else list(BUILD_REQUIRES)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        info_dir = Path(tempfile.mkdtemp(prefix="vwlog-engine-info-"))
        info: dict[str, Any]
        if _pure_asked():
            info = {"engine": "pure", "reason": "VWLOG_BUILD_ENGINE=pure"}
        else:
            try:
                built = self._compile(root)
            except Exception as err:  # a compiler, header or mypy problem: build a pure wheel
                reason = " ".join(str(err).split())[:300] or type(err).__name__
                info = {"engine": "pure", "reason": f"the engine could not be compiled: {reason}"}
                self.app.display_warning(
                    f"vwlog: {info['reason']}; the wheel holds the pure-Python engine"
                )
            else:
                info = {"engine": "compiled", "modules": sorted(built)}
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                build_data["force_include"].update(built.values())
        (info_dir / "_engine.json").write_text(json.dumps(info, indent=1) + "\n", "utf-8")
        build_data["force_include"][str(info_dir / "_engine.json")] = ENGINE_INFO

    def _compile(self, root: Path) -> dict[str, tuple[str, str]]:
        """Compile a copy of the package; {module: (built file, its path in the wheel)}."""
        names = _compiled_names(root)
        work = Path(tempfile.mkdtemp(prefix="vwlog-mypyc-"))
        shutil.copytree(root / "vwlog", work / "vwlog", ignore=self._ignore)
        (work / "pyproject.toml").write_text(_mypy_settings(root), "utf-8")
        sources = [str(_source(work, n).relative_to(work)) for n in names]
        done = subprocess.run(
            [sys.executable, "-c", _BUILD, *sources],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            why = _reason(done.stderr + "\n" + done.stdout)
            raise RuntimeError(why or f"mypyc exited with {done.returncode}")
        built: dict[str, tuple[str, str]] = {}
        for suffix in EXTENSION_SUFFIXES:
            for ext in work.rglob(f"*{suffix}"):
                if "build" in ext.relative_to(work).parts[:1]:
                    continue
                rel = ext.relative_to(work).as_posix()
                built[rel] = (str(ext), rel)
        stems = {k.rsplit(".", 2)[0] if k.count(".") >= 2 else k for k in built}
        missing = [
            n
            for n in names
            if _source(work, n).relative_to(work).with_suffix("").as_posix() not in stems
        ]
        if missing:
            raise RuntimeError(f"mypyc built no module for {', '.join(missing)}")
        return built

    @staticmethod
    def _ignore(directory: str, names: list[str]) -> set[str]:
        return {
            n for n in names if n == "__pycache__" or any(n.endswith(s) for s in EXTENSION_SUFFIXES)
        }
