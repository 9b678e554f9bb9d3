"""The ``vwlog`` command line: parse arguments, call the library, render, pick the exit code.

Exit codes: 0 success; 1 findings (rule violations, a broken hash chain, diverging logs, stale
schemas); 2 usage or input errors. Every `VwlogError` becomes a one-line ``Error: …`` on stderr
with exit code 2, never a traceback. Data goes to stdout, diagnostics to stderr.

The command modules are imported when their command runs (`vwlog.cli.registry`), not with this
package: ``vwlog --help`` starts without the engine. ``vwlog.cli.validate`` and the others are
still attributes of the package, imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from vwlog.cli.base import CliContext, InputError, VwlogGroup, main, pass_cli_context
from vwlog.cli.registry import COMMANDS

_COMMAND_MODULES = frozenset(
    entry.target.partition(":")[0].rpartition(".")[2] for entry in COMMANDS.values()
)
"""The modules of `vwlog.cli` that hold commands (from the registry, which a test checks)."""


def __getattr__(name: str) -> Any:
    """A command module, imported on first use (``vwlog.cli.validate``)."""
    if name in _COMMAND_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CliContext",
    "InputError",
    "VwlogGroup",
    "dispute",
    "info",
    "main",
    "matches",
    "next",
    "pass_cli_context",
    "play",
    "rebase",
    "replay",
    "rules",
    "schema",
    "show",
    "simulate",
    "stats",
    "trust",
    "validate",
    "verify",
]
