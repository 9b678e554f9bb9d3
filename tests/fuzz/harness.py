"""Run every command that reads a log on one file and say how each ended.

A command may accept the file (exit 0), find violations or a broken chain (exit 1), refuse it
as input (exit 2 with a one-line ``Error: ...``) or judge it UNVERIFIED (exit 3); it may never
end in a traceback, which click's
runner shows as an exception other than `SystemExit`.
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING

from click.testing import CliRunner

from vwlog.cli import main

if TYPE_CHECKING:
    from pathlib import Path

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("validate", "{log}"),
    ("verify", "{log}"),
    ("replay", "{log}"),
    ("show", "{log}"),
    ("report", "{log}", "-o", "{out}/report.md"),
    ("diff", "{log}", "{log}"),
    ("stats", "{log}"),
    ("next", "{log}"),
    ("sign", "{log}", "--key", "{key}", "-o", "{out}/signed.jsonl"),
    ("import", "{log}"),
)
"""The commands that read a log file, with ``{log}``, ``{out}`` and ``{key}`` (a signing key)
to fill in; ``import`` last (`run_all` goes on with what it stored)."""
FORMATS: tuple[tuple[str, ...], ...] = (
    ("validate", "--format", "json", "{log}"),
    ("verify", "--format", "json", "{log}"),
    ("replay", "{log}", "--board"),
    ("stats", "--per-match", "--format", "json", "{log}"),
    ("next", "{log}", "--format", "json"),
)
"""The same commands with their other outputs (JSON, the board), which read other fields."""
STORED: tuple[tuple[str, ...], ...] = (
    ("verify", "{id}"),
    ("show", "{id}"),
    ("replay", "{id}"),
    ("next", "{id}"),
    ("export", "{id}", "-o", "{out}/exported.jsonl"),
    ("stats",),
)
"""The commands run on a match the ``import`` above stored."""
EXITS = (0, 1, 2, 3)
"""The exit statuses a command may end with: success, findings, an input or usage error, and 3
for a record judged UNVERIFIED (legal only under definitions nobody published)."""
DEFECT = "internal error"
"""How a command says it met a defect of its own instead of a traceback (a batch import goes
on with the next log): as much a finding of the fuzzer as a traceback."""


@dataclass(frozen=True)
class Outcome:
    """How one command ended."""

    args: tuple[str, ...]
    exit_code: int
    stderr: str
    exception: BaseException | None
    stdout: str = ""

    def describe(self) -> str:
        said = f"vwlog {' '.join(self.args)} -> {self.exit_code}: {self.exception!r}"
        if self.exception is not None and self.exception.__traceback__ is not None:
            frames = traceback.extract_tb(self.exception.__traceback__)[-3:]
            said += " at " + " < ".join(f"{f.filename}:{f.lineno}" for f in reversed(frames))
        return said


def run(args: list[str], store: Path) -> Outcome:
    """Run one command in-process; an uncaught exception is kept, not raised."""
    result = CliRunner().invoke(main, ["--store", str(store), *args], catch_exceptions=True)
    exception = result.exception
    if isinstance(exception, SystemExit):
        exception = None
    return Outcome(tuple(args), result.exit_code, result.stderr, exception, result.stdout)


def signing_key(work: Path) -> Path:
    """A signing key in ``work`` (made once), for ``sign``."""
    key = work / "keys" / "fuzz.key"
    if not key.exists():
        done = CliRunner().invoke(main, ["keys", "create", "fuzz", "--dir", str(key.parent)])
        assert done.exit_code == 0, done.output
    return key


def fill(command: tuple[str, ...], log: Path, work: Path, key: Path) -> list[str]:
    """``command`` with its placeholders filled in."""
    values = {"log": str(log), "out": str(work), "key": str(key)}
    return [part.format(**values) for part in command]


def run_all(log: Path, work: Path, *, formats: bool = True) -> list[Outcome]:
    """Every command on ``log`` (and, when it was imported, on the stored match); with
    ``formats``, its other outputs too."""
    store = work / "store.db"
    key = signing_key(work)
    commands = (*FORMATS, *COMMANDS) if formats else COMMANDS
    outcomes = [run(fill(command, log, work, key), store) for command in commands]
    imported = outcomes[-1].exit_code in (0, 1) and outcomes[-1].exception is None
    if imported:
        from vwlog.store import MatchStore

        with MatchStore.open(str(store)) as opened:
            ids = opened.match_ids()
        for match_id in ids:
            for command in STORED:
                args = [part.format(id=match_id, out=str(work)) for part in command]
                outcomes.append(run(args, store))
    return outcomes


def problems(outcomes: list[Outcome]) -> list[str]:
    """What went wrong: tracebacks, unknown exit codes, an exit 2 without a one-line error, a
    defect reported as one."""
    found = []
    for outcome in outcomes:
        if outcome.exception is not None or outcome.exit_code not in EXITS:
            found.append(outcome.describe())
        elif DEFECT in outcome.stderr or "Traceback" in outcome.stderr:
            found.append(f"{outcome.describe()}: {outcome.stderr.strip()[:500]!r}")
        elif (
            outcome.exit_code == 2
            and not outcome.stderr.lstrip().startswith(("Error:", "Usage:"))
            and not said_in_json(outcome.stdout)
        ):
            found.append(f"{outcome.describe()} without an 'Error:' line: {outcome.stderr!r}")
    return found


def said_in_json(stdout: str) -> bool:
    """Whether a command's JSON output says why it could not read an input (``--format json``
    keeps an unreadable log's ``error`` in the document, beside the others, instead of a line
    on standard error)."""
    try:
        document = json.loads(stdout)
    except ValueError:
        return False
    items = document if isinstance(document, list) else [document]
    return any(isinstance(item, dict) and isinstance(item.get("error"), str) for item in items)
