"""Play mode: apply a decision, then every consequence the rules demand, up to the next decision.

The match generator, forks and the live service all use `play`; it uses only the engine's
`check`, `evolve` and `next_consequences`, so it holds no rules of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events import AnyEvent, ObjectResulted, event_type
from vwlog.model.errors import ChoiceError, IllegalEventError
from vwlog.projections import evolve
from vwlog.rules import check, next_consequences
from vwlog.rules.effects import chooses, chosen_effects

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

Choices = dict[str, "Sequence[str]"]
"""Choices for results (`vwlog.rules.effects.CHOICE_KINDS`): register object id → the card
ids chosen. `advance` takes each one out as its object results."""

CONSEQUENCE_LIMIT = 100_000
"""Most consequences one decision may bring (a guard against a rules bug looping)."""


def advance(
    ruleset: Ruleset, state: MatchState, choices: Choices | None = None
) -> tuple[MatchState, list[AnyEvent]]:
    """Apply every consequence the rules demand now, up to the next decision point.

    Where the rules leave the order of simultaneous triggers to a player (OQ-16), the first
    listed is taken. A result whose skill leaves its controller a choice takes the first one,
    unless ``choices`` has an entry for the object: then the result is built from the cards
    chosen and checked like any logged result (the entry is removed from ``choices``).

    Raises:
        IllegalEventError: a chosen result is not one the skill allows.
        ChoiceError: a choice names an object whose skill leaves no choice, or more cards
            than it takes.
    """

    def pick(state: MatchState, demanded: Sequence[AnyEvent], after: int) -> AnyEvent:
        event = demanded[0]
        if choices and type(event) is ObjectResulted and event.object_id in choices:
            cards = choices.pop(event.object_id)
            return _chosen(ruleset, state, event, cards, after=after)
        return event

    return consequences(ruleset, state, pick)


def consequences(
    ruleset: Ruleset,
    state: MatchState,
    pick: Callable[[MatchState, Sequence[AnyEvent], int], AnyEvent],
) -> tuple[MatchState, list[AnyEvent]]:
    """Apply every consequence the rules demand now, up to the next decision point: each time
    the one ``pick`` makes of those demanded (given the state and how many came before)."""
    events: list[AnyEvent] = []
    for _ in range(CONSEQUENCE_LIMIT):
        demanded = next_consequences(ruleset, state)
        if not demanded:
            return state, events
        event = pick(state, demanded, len(events))
        state = evolve(state, event)
        events.append(event)
    raise AssertionError("consequences did not reach a decision point")  # pragma: no cover


def _chosen(
    ruleset: Ruleset,
    state: MatchState,
    demanded: ObjectResulted,
    cards: Sequence[str],
    *,
    after: int,
) -> ObjectResulted:
    obj = next((o for o in state.register if o.id == demanded.object_id), None)
    if obj is None or not chooses(state, obj):
        raise ChoiceError(demanded.object_id, "no choice")
    effects, unused = chosen_effects(state, obj, cards)
    if unused:
        raise ChoiceError(demanded.object_id, "too many")
    result = ObjectResulted(object_id=demanded.object_id, effects=effects)
    violations = check(ruleset, state, result)
    if violations:
        raise IllegalEventError(None, event_type(result), violations, after=after)
    return result


def play(
    ruleset: Ruleset, state: MatchState, decision: AnyEvent, choices: Choices | None = None
) -> tuple[MatchState, list[AnyEvent]]:
    """Check and apply ``decision``, then the consequences it brings (with ``choices`` for
    results that leave one, see `advance`).

    Returns:
        The state at the next decision point and the events applied, the decision first.

    Raises:
        IllegalEventError: the decision, or a chosen result, breaks rules here.
        ChoiceError: a choice cannot apply to its object.
    """
    state = decided(ruleset, state, decision)
    try:
        state, events = advance(ruleset, state, choices)
    except IllegalEventError as err:  # a chosen result, after the decision
        raise IllegalEventError(None, err.event_type, err.violations, after=err.after + 1) from err
    return state, [decision, *events]


def decided(ruleset: Ruleset, state: MatchState, decision: AnyEvent) -> MatchState:
    """The board after ``decision``, checked first.

    Raises:
        IllegalEventError: the decision breaks rules here.
    """
    violations = check(ruleset, state, decision)
    if violations:
        raise IllegalEventError(None, event_type(decision), violations)
    return evolve(state, decision)


__all__ = ["CONSEQUENCE_LIMIT", "Choices", "advance", "consequences", "decided", "play"]
