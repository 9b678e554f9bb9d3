"""What an installed wheel says of its engine (``vwlog/_engine.json``, written by the wheel's
build hook, hatch_build.py): a compiled wheel runs compiled whatever the times its files were
unpacked at; a pure one says why in ``vwlog --version``. The wheel itself is built, installed
and tested by ``.ci/wheel``."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

import pytest

from vwlog import build
from vwlog.render import provenance

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def info(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "_engine.json"
    monkeypatch.setattr(build, "WHEEL_INFO", path)
    monkeypatch.delenv(build.ENV, raising=False)
    return path


def test_a_checkout_has_no_wheel_info() -> None:
    assert not build.WHEEL_INFO.exists()
    assert build.wheel_info() is None


def test_a_pure_wheel_says_why(info: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info.write_text(json.dumps({"engine": "pure", "reason": "no C compiler"}), "utf-8")
    monkeypatch.setattr(build, "extension_of", lambda name: None)
    state = build._state()
    assert state == "wheel"
    monkeypatch.setattr(build, "STATE", state)
    monkeypatch.setattr(build, "is_compiled", lambda: False)
    note = provenance.engine_build_note()
    assert note == ("engine build: this installation holds the pure-Python engine (no C compiler)")


def test_a_compiled_wheel_is_not_stale_by_the_times_of_unpacking(
    info: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip unpacks a wheel's files in its own order: a source may be younger than its
    compiled module. In a checkout that means an edit after the build (the sources run); in
    an installed wheel it means nothing."""
    ext = tmp_path / "module.so"
    ext.write_bytes(b"")
    os.utime(ext, (0, 0))  # older than every source
    monkeypatch.setattr(build, "extension_of", lambda name: ext)
    assert build._state() == "stale"  # a checkout
    info.write_text(json.dumps({"engine": "compiled", "modules": []}), "utf-8")
    assert build._state() == "compiled"  # an installed wheel


def test_unreadable_wheel_info_counts_as_none(info: Path) -> None:
    info.write_text("{not json", "utf-8")
    assert build.wheel_info() is None
    info.write_text("[1, 2]", "utf-8")
    assert build.wheel_info() is None


@pytest.fixture(scope="module")
def hook() -> ModuleType:
    pytest.importorskip("hatchling")
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_hook_compiles_what_the_checkout_compiles(hook: ModuleType) -> None:
    assert hook._compiled_names(ROOT) == list(build.COMPILED)


def test_the_hook_gives_the_compiler_only_the_mypy_settings(hook: ModuleType) -> None:
    settings = hook._mypy_settings(ROOT)
    assert settings.startswith("[tool.mypy]\n")
    assert "[project]" not in settings
    assert 'plugins = ["pydantic.mypy"]' in settings
    # what holds only where every library is installed is off; missing ones read as Any
    assert "strict" not in settings
    assert "ignore_missing_imports = true" in settings.split("\n\n")[0]


def test_a_failed_build_is_told_by_its_error_line(hook: ModuleType) -> None:
    output = "warning: x\nbuilding 'a' extension\nerror: command 'cc' failed: No such file\n"
    assert hook._reason(output) == "error: command 'cc' failed: No such file"
