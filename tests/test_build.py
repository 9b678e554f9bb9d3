"""The two builds of the engine: the mypyc-compiled core and the pure-Python sources.

Both must judge alike: the same verdicts, traces and reports on every sample and on 300
generated matches. ``VWLOG_ENGINE=pure`` runs the sources even where a build exists, and a
build older than its sources is never run.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vwlog import build
from vwlog.render.provenance import engine_build_note, engine_name

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.jsonl"))
BUILT = build.STATE == "compiled"
needs_build = pytest.mark.skipif(
    not BUILT and not os.environ.get("VWLOG_REQUIRE_COMPILED"),
    reason=f"the compiled engine is not built here ({build.BUILD_COMMAND})",
)
_ENGINE = re.compile(r"vwlog (?:compiled engine \(mypyc\)|pure-Python engine) on \S+ [0-9.]+")


def _vwlog(*args: str, pure: bool, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_DATE_EPOCH": "0", "VWLOG_LANG": "en"}
    env.pop(build.ENV, None)
    if pure:
        env[build.ENV] = "pure"
    return subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
        check=False,
    )


def _same(args: list[str], expect_code: int | None = None) -> str:
    """Run a command under both engines; their outputs must be equal but for the engine's name."""
    pure = _vwlog(*args, pure=True)
    compiled = _vwlog(*args, pure=False)
    assert pure.returncode == compiled.returncode, (args, pure.stderr, compiled.stderr)
    if expect_code is not None:
        assert compiled.returncode == expect_code, compiled.stderr
    assert _ENGINE.sub("ENGINE", compiled.stdout) == _ENGINE.sub("ENGINE", pure.stdout), args
    assert compiled.stderr == pure.stderr, args
    return compiled.stdout


def test_version_names_the_engine_that_runs() -> None:
    pure = _vwlog("--version", pure=True)
    assert pure.returncode == 0
    assert "engine: vwlog pure-Python engine on CPython" in pure.stdout
    assert f"engine build: {build.ENV}=pure is set" in pure.stdout
    if build.is_compiled():
        assert engine_name().startswith("vwlog compiled engine (mypyc) on ")
        assert engine_build_note() is None
    else:
        assert engine_name().startswith("vwlog pure-Python engine on ")
        assert engine_build_note() is not None


def test_pure_setting_loads_every_engine_module_from_source() -> None:
    code = (
        "import importlib, vwlog.build as b\n"
        "for n in b.COMPILED: print(importlib.import_module(n).__file__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, build.ENV: "pure"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert len(out) == len(build.COMPILED)
    assert all(f.endswith(".py") for f in out), out


@needs_build
def test_the_build_is_complete_and_runs_compiled() -> None:
    """Under CI (``VWLOG_REQUIRE_COMPILED``) a missing build fails here instead of skipping."""
    assert build.STATE == "compiled", build.STATE
    assert build.is_compiled()
    import importlib

    for name in build.COMPILED:
        assert not str(importlib.import_module(name).__file__).endswith(".py"), name


_DOCSTRINGS = """
import importlib, json, vwlog.build as b
import vwlog.events, vwlog.services  # what a command loads, compiled modules through them
docs = {}
for n in b.COMPILED:
    m = importlib.import_module(n)
    for k, v in vars(m).items():
        if isinstance(v, type) and v.__module__ == n:
            docs[n + "." + k] = v.__doc__
print(json.dumps(docs))
"""


@needs_build
def test_compiled_classes_keep_the_docstrings_of_their_sources() -> None:
    """mypyc writes a filler where a class's docstring was; the schemas describe the wire
    enums by theirs, so the compiled engine takes them back from the sources."""
    runs = {}
    for pure in (True, False):
        env = {k: v for k, v in os.environ.items() if k != build.ENV}
        if pure:
            env[build.ENV] = "pure"
        out = subprocess.run(
            [sys.executable, "-c", _DOCSTRINGS], env=env, capture_output=True, text=True, check=True
        ).stdout
        runs[pure] = json.loads(out)
    pure_docs, compiled_docs = runs[True], runs[False]
    assert "vwlog.model.types.Phase" in pure_docs
    documented = {k for k, v in pure_docs.items() if v}
    assert {k: compiled_docs.get(k) for k in documented} == {k: pure_docs[k] for k in documented}


@needs_build
def test_a_build_older_than_its_sources_is_not_run(tmp_path: Path) -> None:
    # a copy of the package with its compiled modules, one source edited after the build
    shutil.copytree(ROOT / "vwlog", tmp_path / "vwlog")
    for shared in ROOT.glob("*__mypyc*"):
        shutil.copy(shared, tmp_path / shared.name)
    edited = tmp_path / "vwlog" / "rules" / "flow.py"
    built = build.extension_of("vwlog.rules.flow")
    assert built is not None
    later = built.stat().st_mtime + 10
    os.utime(edited, (later, later))
    code = "import vwlog.build as b; print(b.STATE, b.is_compiled(), b.__file__)"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop(build.ENV, None)
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["stale", "False", str(tmp_path / "vwlog" / "build.py")]


_EVERY_COMMAND = """
import sys
from click.testing import CliRunner
from vwlog.cli import main
runner = CliRunner()
for path in sys.argv[1:]:
    for args in (["validate", path, "--format", "json"], ["replay", path],
                 ["report", path, "--format", "markdown"], ["report", path, "--format", "html"]):
        result = runner.invoke(main, args)
        print("$", *args, "->", result.exit_code)
        print(result.output)
"""


def _under_both(paths: list[Path]) -> str:
    """Validate, trace and report ``paths`` in one process per engine; the outputs must be equal
    but for the engine's name."""
    args = [sys.executable, "-c", _EVERY_COMMAND, *map(str, paths)]
    outputs = []
    for pure in (True, False):
        env = {**os.environ, "SOURCE_DATE_EPOCH": "0", "VWLOG_LANG": "en"}
        env.pop(build.ENV, None)
        if pure:
            env[build.ENV] = "pure"
        done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        outputs.append(_ENGINE.sub("ENGINE", done.stdout))
    pure_out, compiled_out = outputs
    assert compiled_out == pure_out
    return compiled_out


@needs_build
def test_both_engines_judge_trace_and_report_every_sample_alike() -> None:
    out = _under_both(SAMPLES)
    assert out.count("$ validate") == len(SAMPLES)
    assert "-> 0" in out


@needs_build
def test_both_engines_find_the_same_violations() -> None:
    invalid = sorted((ROOT / "samples" / "invalid").glob("*.jsonl"))
    out = _under_both(invalid)
    assert out.count("$ validate") == len(invalid)
    assert out.count("--format json -> 1") == len(invalid)


@needs_build
@pytest.mark.slow
def test_both_engines_judge_300_generated_matches_alike(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    made = _vwlog(
        "simulate", "--seed", "21", "--matches", "300", "-j", "2", "-o", str(corpus), pure=False
    )
    assert made.returncode == 0, made.stderr
    assert len(list(corpus.glob("*.jsonl"))) == 300
    reports = json.loads(_same(["validate", str(corpus), "--format", "json"], expect_code=0))
    assert len(reports) == 300
    assert all(r["ok"] for r in reports)


def test_compiled_modules_raise_with_their_cause_kept() -> None:
    """mypyc drops a ``raise … from cause`` clause: the cause is lost. The compiled modules
    raise ``caused(error, cause) from cause`` (`vwlog.model.causes.caused`), the same on both
    builds; a bare ``from`` there would lose its cause on the compiled engine only."""
    bare: list[str] = []
    for name in build.COMPILED:
        path = build.source_of(name)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Raise) or node.cause is None:
                continue
            call = node.exc
            kept = (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == "caused"
                and len(call.args) == 2
                and ast.dump(call.args[1]) == ast.dump(node.cause)
            )
            if not kept:
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bare, bare


def test_a_compiled_module_keeps_the_cause_it_raises_with() -> None:
    """On the engine that runs (CI: the compiled one; the scan above covers the sources)."""
    from vwlog.io import codec

    with pytest.raises(codec.EncodeError) as caught:
        codec.canonical({"n": 2**64})
    assert isinstance(caught.value.__cause__, TypeError)
    assert caught.value.__suppress_context__
