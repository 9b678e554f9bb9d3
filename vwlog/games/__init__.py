"""The seam between the core and a game (`vwlog.games.core`, re-exported here): what the
replay loop, the reader, the store and the commands ask of a game's rules (`GameRules`), and the
registry that finds a match's game. Each game is a package beside this module
(`vwlog.games.vw`, …); the core imports none of them.
"""

from vwlog.games.core import (
    CORE_RULES,
    GameRules,
    GameUnavailableError,
    MatchSummary,
    RuleEntry,
    SnapshotFormatError,
    Views,
    board_data,
    cite,
    core_violation,
    event_text,
    game_of_event,
    game_of_state,
    known,
    register,
    require_audits,
    rule_title,
    rules_for,
    unavailable,
)

__all__ = [
    "CORE_RULES",
    "GameRules",
    "GameUnavailableError",
    "MatchSummary",
    "RuleEntry",
    "SnapshotFormatError",
    "Views",
    "board_data",
    "cite",
    "core_violation",
    "event_text",
    "game_of_event",
    "game_of_state",
    "known",
    "register",
    "require_audits",
    "rule_title",
    "rules_for",
    "unavailable",
]
