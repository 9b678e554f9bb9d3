"""Run one ``vwlog`` command on many logs in one child process (the command line's own code,
as ``python -m vwlog`` runs it), so that a test need not pay the interpreter's start for every
log: ``python -m tests.security.clibatch report LOG...`` prints a JSON list of
``{"log", "exit", "stdout", "stderr"}``, one per log, each run as ``vwlog report LOG``."""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from vwlog.cli import main


def run(command: str, logs: list[str]) -> list[dict[str, object]]:
    """``vwlog COMMAND LOG`` for each log: its exit status and outputs."""
    runner = CliRunner()
    out: list[dict[str, object]] = []
    for log in logs:
        result = runner.invoke(main, [command, log])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        out.append(
            {"log": log, "exit": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}
        )
    return out


if __name__ == "__main__":
    json.dump(run(sys.argv[1], sys.argv[2:]), sys.stdout)
