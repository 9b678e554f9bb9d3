"""Play mode: apply a decision, then every consequence the rules demand, up to the next decision.

The match generator, forks and the live service all use `play`; it uses only the engine's
`check`, `evolve` and `next_consequences`, so it holds no rules of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events import AnyEvent, event_type
from vwlog.model.errors import IllegalEventError
from vwlog.projections import evolve
from vwlog.rules import check, next_consequences

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

CONSEQUENCE_LIMIT = 100_000
"""Most consequences one decision may bring (a guard against a rules bug looping)."""


def advance(ruleset: Ruleset, state: MatchState) -> tuple[MatchState, list[AnyEvent]]:
    """Apply every consequence the rules demand now, up to the next decision point.

    Where the rules leave the order of simultaneous triggers to a player (OQ-16), the first
    listed is taken.
    """
    events: list[AnyEvent] = []
    for _ in range(CONSEQUENCE_LIMIT):
        demanded = next_consequences(ruleset, state)
        if not demanded:
            return state, events
        event = demanded[0]
        state = evolve(state, event)
        events.append(event)
    raise AssertionError("consequences did not reach a decision point")  # pragma: no cover


def play(
    ruleset: Ruleset, state: MatchState, decision: AnyEvent
) -> tuple[MatchState, list[AnyEvent]]:
    """Check and apply ``decision``, then the consequences it brings.

    Returns:
        The state at the next decision point and the events applied, the decision first.

    Raises:
        IllegalEventError: the decision breaks rules here; nothing is applied.
    """
    violations = check(ruleset, state, decision)
    if violations:
        raise IllegalEventError(None, event_type(decision), violations)
    state = evolve(state, decision)
    state, events = advance(ruleset, state)
    return state, [decision, *events]


__all__ = ["CONSEQUENCE_LIMIT", "advance", "play"]
