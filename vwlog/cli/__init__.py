"""The ``vwlog`` command line: parse arguments, call the library, render, pick the exit code.

Exit codes: 0 success; 1 findings (rule violations, a broken hash chain, diverging logs, stale
schemas); 2 usage or input errors. Every `VwlogError` becomes a one-line ``Error: …`` on stderr
with exit code 2, never a traceback. Data goes to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import vwlog.cli.serve  # registers 'vwlog serve'
import vwlog.cli.tokens  # noqa: F401  (registers 'vwlog token')
from vwlog.cli import (
    dispute,
    info,
    matches,
    next,
    play,
    rebase,
    replay,
    rules,
    schema,
    show,
    simulate,
    stats,
    trust,
    validate,
    verify,
)
from vwlog.cli.base import CliContext, InputError, VwlogGroup, main, pass_cli_context

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
