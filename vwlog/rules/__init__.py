"""The rules engine: what is legal, what the rules demand next, and what a player may decide.

Pure functions over frozen values; no I/O. ``evolve`` (how an event changes the board) lives in
`vwlog.projections`.
"""

from vwlog.model.cards import DEFAULT_RULESET, Ruleset
from vwlog.rules.catalog import RULES, RULES_VERSION, Rule
from vwlog.rules.checks import check, check_against
from vwlog.rules.decisions import legal_decisions
from vwlog.rules.flow import (
    DecisionKind,
    Expect,
    awaiting,
    expect,
    is_priority_point,
    next_consequences,
)

__all__ = [
    "DEFAULT_RULESET",
    "RULES",
    "RULES_VERSION",
    "DecisionKind",
    "Expect",
    "Rule",
    "Ruleset",
    "awaiting",
    "check",
    "check_against",
    "expect",
    "is_priority_point",
    "legal_decisions",
    "next_consequences",
]
