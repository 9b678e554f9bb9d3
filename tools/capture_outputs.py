"""Capture what the command line says about every sample log, to compare with later.

    python tools/capture_outputs.py             # (re)write tests/golden/outputs/
    python tools/capture_outputs.py --check     # exit 1 at the first output that differs
    python tools/capture_outputs.py --check --subprocess   # the same through `python -m vwlog`

For every log under ``samples/`` (``samples/*.jsonl``, ``samples/invalid/*.jsonl`` and any other
folder of it) each command of `COMMANDS` is run as ``vwlog --lang en COMMAND ARGS SAMPLE`` from
the checkout's root, with the sample's path relative to it. Its exit status, standard output and
standard error go to one file, ``tests/golden/outputs/<sample path without .jsonl>/<command>.txt``:

    $ vwlog --lang en validate --format json samples/full-combat.jsonl
    exit status: 0
    stdout: 1357 bytes
    <the bytes of standard output>
    stderr: 0 bytes
    <the bytes of standard error>

The byte counts make the file unambiguous whatever the output holds; one file per sample and
command keeps a failing diff short and names what changed. ``git diff tests/golden/outputs``
reads as the change in what users see.

How the commands run: in this process, through click's `CliRunner` on `vwlog.cli.main`, with
``prog_name="vwlog"`` as ``python -m vwlog`` passes it. A new interpreter per command is closer
to what a user gets, but each pays vwlog's start-up: measured on 2026-12-07 on the shared
two-core machine (load average near 10), ``--check --subprocess`` took 14 min of wall time
(4 min 48 s of CPU) for the 294 outputs, against 6 to 20 s in process. What the two could
differ in (a terminal, colour, the language, the environment) is pinned below, and
``--subprocess`` runs the very same commands through ``python -m vwlog`` and compares them with
the same files, so the shortcut itself can be checked: that run found every output the same.

The environment is fixed for every command (`environment`): ``NO_COLOR=1``, ``TERM=dumb``,
``COLUMNS=80``, ``LINES=24``, ``LANG`` and ``LC_ALL`` ``C.UTF-8``, ``SOURCE_DATE_EPOCH=0`` (the
report's "generated" time, by the reproducible-builds convention vwlog follows),
``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME`` set to empty temporary folders made for this run (so
no per-user store, published pool or store key of the machine takes part), and every other
``VWLOG_*`` variable (``VWLOG_STORE``, ``VWLOG_STORE_KEY``, ``VWLOG_ACCEPT_*``,
``VWLOG_DASK_*``, ...) removed, except ``VWLOG_ENGINE``, which chooses the engine and whose
name is normalised instead.

Normalised before comparing (`normalise`), because they differ between machines or runs and say
nothing about the behaviour under test; everything else is compared byte for byte:

* the engine's name (`vwlog.render.provenance.engine_name`: ``vwlog pure-Python engine on
  CPython 3.11.7``, or the compiled engine's), in the report's provenance and in
  ``validate --format json``'s ``engine``: both engines must say the same, and the
  interpreter's release is the machine's. Becomes ``<ENGINE>``.
* the installed version of vwlog, which a release changes: ``vwlog 0.1.0`` in text becomes
  ``vwlog <VERSION>``, ``"vwlog": "0.1.0"`` in JSON ``"vwlog": "<VERSION>"``.
* the two temporary folders' absolute paths, should an output name them: ``<DATA_HOME>`` and
  ``<CONFIG_HOME>``.

No output of these commands prints a timing, so none is normalised.
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import chdir, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
OUTPUTS = ROOT / "tests" / "golden" / "outputs"
REGENERATE = "python tools/capture_outputs.py"
"""The command that rewrites the captured outputs (then review ``git diff tests/golden``)."""

COMMANDS: dict[str, tuple[str, ...]] = {
    "validate": ("validate",),
    "validate-json": ("validate", "--format", "json"),
    "replay": ("replay",),
    "replay-json": ("replay", "--format", "json"),
    "report": ("report",),
    "show": ("show",),
    "show-json": ("show", "--format", "json"),
    "verify": ("verify",),
    "verify-json": ("verify", "--format", "json"),
}
"""Name of the captured file (without ``.txt``) → the command and options before the sample.
``replay`` is the default text trace (no board: ``tests/golden/traces`` holds the legal
samples' traces with the board); ``show`` is the board after the last event."""

TRACED = frozenset({"generated-military", "generated-political", "generated-tag-team-4"})
"""Samples whose ``replay`` is not captured here: their ``tests/golden/traces`` file is already
that very output, byte for byte (``WITHOUT_BOARD`` there; a test keeps the two sets equal)."""


def commands(sample: Path) -> list[str]:
    """The commands captured for ``sample`` (`COMMANDS`, less what the traces hold)."""
    return [c for c in COMMANDS if not (c == "replay" and sample_id(sample) in TRACED)]


FIXED_ENV: dict[str, str] = {
    "NO_COLOR": "1",
    "TERM": "dumb",
    "COLUMNS": "80",
    "LINES": "24",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "SOURCE_DATE_EPOCH": "0",
}


@dataclass(frozen=True)
class Outcome:
    """What one command did."""

    status: int
    stdout: bytes
    stderr: bytes


Runner = Callable[[list[str], Mapping[str, str | None]], Outcome]
"""Runs ``vwlog ARGS`` in the root with these environment changes (``None`` removes one)."""


def samples() -> list[Path]:
    """Every sample log, relative to the root, in a stable order."""
    return sorted(p.relative_to(ROOT) for p in SAMPLES.rglob("*.jsonl"))


def sample_id(sample: Path) -> str:
    """The sample's path under ``samples/`` without ``.jsonl`` (``invalid/damage-over-atk``)."""
    return sample.relative_to("samples").with_suffix("").as_posix()


def golden(sample: Path, command: str) -> Path:
    """The file holding ``command``'s captured output for ``sample``."""
    return OUTPUTS / sample_id(sample) / f"{command}.txt"


def argv(sample: Path, command: str) -> list[str]:
    """The arguments of ``vwlog`` for ``command`` on ``sample``."""
    return ["--lang", "en", *COMMANDS[command], sample.as_posix()]


def environment(data_home: str, config_home: str) -> dict[str, str | None]:
    """The environment changes every command runs with (``None``: removed)."""
    changes: dict[str, str | None] = {
        name: None for name in os.environ if name.startswith("VWLOG_") and name != "VWLOG_ENGINE"
    }
    changes.update(FIXED_ENV)
    changes["XDG_DATA_HOME"] = data_home
    changes["XDG_CONFIG_HOME"] = config_home
    return changes


def in_process(args: list[str], env: Mapping[str, str | None]) -> Outcome:
    """``vwlog ARGS`` through click's test runner, in this process."""
    from click.testing import CliRunner

    from vwlog.cli import main

    with chdir(ROOT):
        result = CliRunner(env=env).invoke(main, args, prog_name="vwlog", catch_exceptions=False)
    return Outcome(result.exit_code, result.stdout_bytes, result.stderr_bytes)


def in_subprocess(args: list[str], env: Mapping[str, str | None]) -> Outcome:
    """``python -m vwlog ARGS`` in a new interpreter."""
    full = {k: v for k, v in os.environ.items() if env.get(k, v) is not None}
    full.update({k: v for k, v in env.items() if v is not None})
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        cwd=ROOT,
        env=full,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


@contextmanager
def fixed_environment() -> Iterator[dict[str, str | None]]:
    """The environment changes of `environment`, with temporary folders removed afterwards."""
    with (
        tempfile.TemporaryDirectory(prefix="vwlog-golden-data-") as data,
        tempfile.TemporaryDirectory(prefix="vwlog-golden-config-") as config,
    ):
        yield environment(data, config)


def normalise(text: bytes, env: Mapping[str, str | None]) -> bytes:
    """``text`` with what varies between machines and runs replaced (module docstring)."""
    from vwlog.render.provenance import provenance

    said = provenance()
    for value, mark in (
        (said.engine, "<ENGINE>"),
        (f"vwlog {said.version}", "vwlog <VERSION>"),
        (f'"vwlog": "{said.version}"', '"vwlog": "<VERSION>"'),
        (env.get("XDG_DATA_HOME"), "<DATA_HOME>"),
        (env.get("XDG_CONFIG_HOME"), "<CONFIG_HOME>"),
    ):
        if value:
            text = text.replace(value.encode(), mark.encode())
    return text


def render(sample: Path, command: str, outcome: Outcome, env: Mapping[str, str | None]) -> bytes:
    """The captured file's bytes (the format of the module docstring)."""
    out = normalise(outcome.stdout, env)
    err = normalise(outcome.stderr, env)
    head = f"$ vwlog {' '.join(argv(sample, command))}\nexit status: {outcome.status}\n"
    return b"".join(
        [
            head.encode(),
            f"stdout: {len(out)} bytes\n".encode(),
            out,
            f"stderr: {len(err)} bytes\n".encode(),
            err,
        ]
    )


def capture(sample: Path, run: Runner = in_process) -> dict[str, bytes]:
    """Every command's captured file for ``sample``, by command name."""
    with fixed_environment() as env:
        return {
            command: render(sample, command, run(argv(sample, command), env), env)
            for command in commands(sample)
        }


def difference(sample: Path, command: str, found: bytes, lines: int = 40) -> str | None:
    """A short unified diff of the committed file against ``found``; ``None`` when equal."""
    path = golden(sample, command)
    expected = path.read_bytes() if path.exists() else b""
    if expected == found:
        return None
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    if not path.exists():
        return f"{shown} is missing"
    diff = list(
        difflib.unified_diff(
            expected.decode("utf-8", "backslashreplace").splitlines(keepends=True),
            found.decode("utf-8", "backslashreplace").splitlines(keepends=True),
            fromfile=f"{shown} (committed)",
            tofile=f"vwlog {' '.join(argv(sample, command))} (now)",
        )
    )
    if not diff:  # the bytes differ where the lines cannot show it (line endings)
        return f"{shown}: the bytes differ (line endings or encoding)"
    cut = diff[:lines]
    more = [f"... {len(diff) - lines} more diff lines\n"] if len(diff) > lines else []
    return "".join(cut + more)


def strays() -> list[Path]:
    """Captured files that no sample and command would write (a sample gone or renamed)."""
    wanted = {golden(s, c) for s in samples() for c in commands(s)}
    return sorted(p for p in OUTPUTS.rglob("*.txt") if p not in wanted)


def write() -> int:
    """Rewrite every captured file; remove those of samples that are gone."""
    for sample in samples():
        for command, data in capture(sample).items():
            path = golden(sample, command)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for stray in strays():
        stray.unlink()
    count = sum(len(commands(s)) for s in samples())
    print(f"wrote {count} files under {OUTPUTS.relative_to(ROOT)}")
    return 0


def check(run: Runner) -> int:
    """Compare every command's output with its captured file; 1 at the first difference."""
    for sample in samples():
        for command, data in capture(sample, run).items():
            diff = difference(sample, command, data)
            if diff is not None:
                print(f"{sample_id(sample)}: {command} differs\n{diff}", file=sys.stderr)
                print(f"after an intended change, run: {REGENERATE}", file=sys.stderr)
                return 1
    extra = strays()
    if extra:
        print(f"captured outputs without a sample: {extra[0].relative_to(ROOT)}", file=sys.stderr)
        return 1
    count = sum(len(commands(s)) for s in samples())
    print(f"{count} outputs of {len(samples())} samples: the same")
    return 0


def main(args: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument(
        "--subprocess", action="store_true", help="run each command as python -m vwlog"
    )
    options = parser.parse_args(args)
    if options.subprocess and not options.check:
        parser.error("--subprocess goes with --check")
    if options.check:
        return check(in_subprocess if options.subprocess else in_process)
    return write()


if __name__ == "__main__":
    sys.exit(main())
