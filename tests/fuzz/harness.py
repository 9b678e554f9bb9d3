"""Run every command that reads a log on one file and say how each ended.

A command may accept the file (exit 0), find violations or a broken chain (exit 1) or refuse it
as input (exit 2 with a one-line ``Error: ...``); it may never end in a traceback, which click's
runner shows as an exception other than `SystemExit`.
"""

from __future__ import annotations

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
    ("import", "{log}"),
)
"""The commands that read a log file, with ``{log}`` and ``{out}`` to fill in."""
STORED: tuple[tuple[str, ...], ...] = (
    ("verify", "{id}"),
    ("show", "{id}"),
    ("replay", "{id}"),
    ("export", "{id}", "-o", "{out}/exported.jsonl"),
    ("stats",),
)
"""The commands run on a match the ``import`` above stored."""


@dataclass(frozen=True)
class Outcome:
    """How one command ended."""

    args: tuple[str, ...]
    exit_code: int
    stderr: str
    exception: BaseException | None

    def describe(self) -> str:
        return f"vwlog {' '.join(self.args)} -> {self.exit_code}: {self.exception!r}"


def run(args: list[str], store: Path) -> Outcome:
    """Run one command in-process; an uncaught exception is kept, not raised."""
    result = CliRunner().invoke(main, ["--store", str(store), *args], catch_exceptions=True)
    exception = result.exception
    if isinstance(exception, SystemExit):
        exception = None
    return Outcome(tuple(args), result.exit_code, result.stderr, exception)


def run_all(log: Path, work: Path) -> list[Outcome]:
    """Every command on ``log`` (and, when it was imported, on the stored match)."""
    store = work / "store.db"
    fill = {"log": str(log), "out": str(work)}
    outcomes = [run([part.format(**fill) for part in command], store) for command in COMMANDS]
    imported = outcomes[-1].exit_code in (0, 1) and outcomes[-1].exception is None
    if imported:
        from vwlog.store import MatchStore

        with MatchStore.open(str(store)) as opened:
            ids = opened.match_ids()
        for match_id in ids:
            fill["id"] = match_id
            for command in STORED:
                outcomes.append(run([part.format(**fill) for part in command], store))
    return outcomes


def problems(outcomes: list[Outcome]) -> list[str]:
    """What went wrong: tracebacks, unknown exit codes, an exit 2 without a one-line error."""
    found = []
    for outcome in outcomes:
        if outcome.exception is not None or outcome.exit_code not in (0, 1, 2):
            found.append(outcome.describe())
        elif outcome.exit_code == 2 and not outcome.stderr.lstrip().startswith(
            ("Error:", "Usage:")
        ):
            found.append(f"{outcome.describe()} without an 'Error:' line: {outcome.stderr!r}")
    return found
