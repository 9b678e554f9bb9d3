"""Use cases: validate, verify, simulate, rulesets, and the match store's import, seek, fork and
play. The CLI (and an API) call these.

No printing, no argument parsing: plain functions taking typed arguments and returning typed
results, so the interfaces cannot drift apart. This package only re-exports; each use case lives
in its module (`validate`, `simulate`, `rulesets`, `importing`, `matches`, `forks`, `play`,
`rebase`, `stats`, `snapshots`); verifying a log's hash chain is the line format's
(`vwlog.io.chain`), re-exported here.
"""

from __future__ import annotations

from vwlog.io.chain import (
    BrokenLink,
    Commitment,
    VerifyReport,
    sealed,
    verify_lines,
    verify_log,
)
from vwlog.services.rulesets import (
    apply_overrides,
    known_rule,
    load_ruleset,
    parse_overrides,
    rule_entry,
    rules_catalog,
)
from vwlog.services.simulate import SimulationSpec, match_path, simulate_to
from vwlog.services.validate import InputProblem, ValidationOptions, validate_log, validate_logs

__all__ = [
    "BrokenLink",
    "Commitment",
    "InputProblem",
    "SimulationSpec",
    "ValidationOptions",
    "VerifyReport",
    "apply_overrides",
    "known_rule",
    "load_ruleset",
    "match_path",
    "parse_overrides",
    "rule_entry",
    "rules_catalog",
    "sealed",
    "simulate_to",
    "validate_log",
    "validate_logs",
    "verify_lines",
    "verify_log",
]
