"""vwlog: event-sourced replay and audit of Vandaria Wars matches.

The names below are the library's public face; each is importable from ``vwlog`` directly
(``from vwlog import read_log, replay, BaseVisitor``) and lives in the layer that owns it:

* reading and writing logs: `read_log`, `open_log`, `write_log`, `LogHeader`, `EventRecord`;
* the one replay loop and its visitors: `replay`, `BaseVisitor`, `Visitor`, `Step`, `Fanout`,
  `ViolationPolicy`, `Validator`, `ValidationReport`, `validate_records`;
* positions: `state_at`, `priority_points`, `Timeline`, `describe`;
* the engine's pure functions: `check`, `evolve`, `expect`, `next_consequences`,
  `legal_decisions`, `play`, and the values they work on (`MatchState`, `INITIAL`, `Ruleset`,
  `DEFAULT_RULESET`, `GAME_EVENT`);
* storage: `MatchStore` (SQLite, PostgreSQL or memory, by URL) and `import_log`, which
  validates a log and stores it in one transaction;
* results and errors: `Violation`, `VwlogError` and its subclasses.

Names are imported on first use, so ``import vwlog`` stays cheap (the store's database
libraries load only when `MatchStore` is asked for).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from vwlog import build as _build  # noqa: F401  # first: it decides between the compiled and the pure engine

__version__ = "0.1.0"

_HOMES: dict[str, str] = {
    # io: logs
    "open_log": "vwlog.io.logfile",
    "read_log": "vwlog.io.logfile",
    "write_log": "vwlog.io.logfile",
    # events
    "AnyEvent": "vwlog.events",
    "EventRecord": "vwlog.events",
    "GAME_EVENT": "vwlog.events",
    "LogHeader": "vwlog.events",
    # engine: the loop, visitors, positions, play
    "BaseVisitor": "vwlog.engine.replay",
    "Collect": "vwlog.engine.replay",
    "Fanout": "vwlog.engine.replay",
    "FinalState": "vwlog.engine.replay",
    "Step": "vwlog.engine.replay",
    "ValidationReport": "vwlog.engine.replay",
    "Validator": "vwlog.engine.replay",
    "ViolationPolicy": "vwlog.engine.replay",
    "Visitor": "vwlog.engine.replay",
    "replay": "vwlog.engine.replay",
    "validate_records": "vwlog.engine.replay",
    "PriorityPoint": "vwlog.engine.seek",
    "Timeline": "vwlog.engine.seek",
    "priority_points": "vwlog.engine.seek",
    "state_at": "vwlog.engine.seek",
    "describe": "vwlog.games.vw.describe",
    "play": "vwlog.games.vw.play",
    # rules and projections
    "check": "vwlog.rules",
    "expect": "vwlog.rules",
    "legal_decisions": "vwlog.rules",
    "next_consequences": "vwlog.rules",
    "INITIAL": "vwlog.projections",
    "evolve": "vwlog.projections",
    # model
    "DEFAULT_RULESET": "vwlog.model.cards",
    "Ruleset": "vwlog.model.cards",
    "MatchState": "vwlog.model.state",
    "Violation": "vwlog.model.errors",
    "VwlogError": "vwlog.model.errors",
    "LogFormatError": "vwlog.model.errors",
    "IllegalEventError": "vwlog.model.errors",
    "MatchNotFoundError": "vwlog.model.errors",
    "UsageError": "vwlog.model.errors",
    "DecisionSyntaxError": "vwlog.model.errors",
    "NotAPriorityPointError": "vwlog.model.errors",
    "SeqOutOfRangeError": "vwlog.model.errors",
    "RulesetOverrideError": "vwlog.model.errors",
    "UnknownPlayerError": "vwlog.model.errors",
    # store
    "MatchStore": "vwlog.store",
    "import_log": "vwlog.services.importing",
}
"""Where each public name lives."""

__all__ = [
    "DEFAULT_RULESET",
    "GAME_EVENT",
    "INITIAL",
    "AnyEvent",
    "BaseVisitor",
    "Collect",
    "DecisionSyntaxError",
    "EventRecord",
    "Fanout",
    "FinalState",
    "IllegalEventError",
    "LogFormatError",
    "LogHeader",
    "MatchNotFoundError",
    "MatchState",
    "MatchStore",
    "NotAPriorityPointError",
    "PriorityPoint",
    "Ruleset",
    "RulesetOverrideError",
    "SeqOutOfRangeError",
    "Step",
    "Timeline",
    "UnknownPlayerError",
    "UsageError",
    "ValidationReport",
    "Validator",
    "Violation",
    "ViolationPolicy",
    "Visitor",
    "VwlogError",
    "__version__",
    "check",
    "describe",
    "evolve",
    "expect",
    "import_log",
    "legal_decisions",
    "next_consequences",
    "open_log",
    "play",
    "priority_points",
    "read_log",
    "replay",
    "state_at",
    "validate_records",
    "write_log",
]
"""The public names; a test checks that each has a home in `_HOMES`."""

if TYPE_CHECKING:
    from vwlog.engine.replay import (
        BaseVisitor,
        Collect,
        Fanout,
        FinalState,
        Step,
        ValidationReport,
        Validator,
        ViolationPolicy,
        Visitor,
        replay,
        validate_records,
    )
    from vwlog.engine.seek import PriorityPoint, Timeline, priority_points, state_at
    from vwlog.events import GAME_EVENT, AnyEvent, EventRecord, LogHeader
    from vwlog.games.vw.describe import describe
    from vwlog.games.vw.play import play
    from vwlog.io.logfile import open_log, read_log, write_log
    from vwlog.model.cards import DEFAULT_RULESET, Ruleset
    from vwlog.model.errors import (
        DecisionSyntaxError,
        IllegalEventError,
        LogFormatError,
        MatchNotFoundError,
        NotAPriorityPointError,
        RulesetOverrideError,
        SeqOutOfRangeError,
        UnknownPlayerError,
        UsageError,
        Violation,
        VwlogError,
    )
    from vwlog.model.state import MatchState
    from vwlog.projections import INITIAL, evolve
    from vwlog.rules import check, expect, legal_decisions, next_consequences
    from vwlog.services.importing import import_log
    from vwlog.store import MatchStore


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        msg = f"module 'vwlog' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
