"""Compile the engine core with mypyc, in place, beside its sources.

    python tools/build_engine.py           # compile (about a minute on two cores)
    python tools/build_engine.py --if-needed  # only when there is no current build
    python tools/build_engine.py --clean   # remove the compiled modules: the pure engine runs

The modules are listed in `vwlog.build.COMPILED`. Python imports an extension module ahead of
the source beside it, so after a build the compiled engine runs; ``VWLOG_ENGINE=pure`` still
runs the sources, and a source edited after the build runs as source until the next build
(``vwlog --version`` says which engine runs). Needs a C compiler, the Python headers and mypy
(the ``dev`` extra); where any of them is missing the build fails with a message and the pure
engine keeps working. Exit status: 0 built (or cleaned), 1 the build failed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_OUTER = dict(os.environ)
os.environ["VWLOG_ENGINE"] = "pure"  # importing vwlog.build must not load what is rebuilt

from vwlog.build import COMPILED, ENV, extension_of, source_of  # noqa: E402


def _state_without_env() -> str:
    """The build's state as a process without ``VWLOG_ENGINE=pure`` would see it."""
    import subprocess

    env = {k: v for k, v in _OUTER.items() if k != ENV}
    done = subprocess.run(
        [sys.executable, "-c", "import vwlog.build as b; print(b.STATE)"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip()


def clean() -> int:
    """Remove every compiled module under ``vwlog/`` (also of modules no longer listed) and the
    shared mypyc runtime; the count removed."""
    removed = 0
    for suffix in EXTENSION_SUFFIXES:
        for ext in [*(ROOT / "vwlog").rglob(f"*{suffix}"), *ROOT.glob(f"*__mypyc{suffix}")]:
            ext.unlink()
            removed += 1
    return removed


def build(opt_level: str) -> None:
    """Compile `COMPILED` in place (raises on failure)."""
    from mypyc.build import mypycify
    from setuptools import setup

    sources = [str(source_of(name).relative_to(ROOT)) for name in COMPILED]
    with tempfile.TemporaryDirectory(prefix="vwlog-mypyc-") as tmp:
        os.chdir(ROOT)
        setup(
            name="vwlog-engine",
            packages=[],
            py_modules=[],
            ext_modules=mypycify(sources, opt_level=opt_level, target_dir=tmp),
            script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp, "-j", "2"],
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument(
        "--if-needed", action="store_true", help="do nothing when a current build exists"
    )
    parser.add_argument("--opt-level", default="3", choices=["0", "1", "2", "3"])
    args = parser.parse_args(argv)
    if args.if_needed and not args.clean and _state_without_env() == "compiled":
        return 0
    removed = clean()
    if args.clean:
        print(f"removed {removed} compiled module(s): the pure-Python engine runs")
        return 0
    try:
        build(args.opt_level)
    except (Exception, SystemExit) as err:  # a compiler, header or mypy problem
        clean()
        print(
            f"the engine could not be compiled ({err}); the pure-Python engine runs",
            file=sys.stderr,
        )
        return 1
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    built = sum(extension_of(name) is not None for name in COMPILED)
    print(f"compiled {built} of {len(COMPILED)} engine modules with mypyc")
    return 0 if built == len(COMPILED) else 1


if __name__ == "__main__":
    raise SystemExit(main())
