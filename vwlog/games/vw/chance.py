"""The choices a generated match leaves to chance: which of simultaneous triggers goes first
(OQ-16) and what a result that leaves its controller a choice chooses (`CHOICE_KINDS`).

`vwlog.games.vw.play.advance` takes the first of each, as a recorder replaying a log must; the
match generator draws them here instead, from its seeded ``random.Random``, so every choice the
rules leave open is exercised and the same seed still gives the same match. Like `play`, this
holds no rules of its own: the consequences are the ones `next_consequences` demands, and a
chosen result is built by `chosen_effects` and checked like any logged one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events import AnyEvent, ObjectResulted
from vwlog.games.vw.play import consequences, decided
from vwlog.model.cards import CHOICE_KINDS
from vwlog.rules import check
from vwlog.rules.effects import chooses, chosen_effects, object_skill, returnable

if TYPE_CHECKING:
    import random
    from collections import Counter
    from collections.abc import Sequence

    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState, RegisterObject


def advance_by_chance(
    ruleset: Ruleset, state: MatchState, rng: random.Random, drawn: Counter[str] | None = None
) -> tuple[MatchState, list[AnyEvent]]:
    """Apply every consequence the rules demand now, up to the next decision point, as
    `vwlog.games.vw.play.advance` does, except that where the rules leave a choice ``rng``
    makes it: one of simultaneous triggers (any may come next, OQ-16), and the cards a
    result with a choice names (`chosen_result`). ``drawn`` counts the choices made
    (``trigger order``, ``result``)."""

    def pick(state: MatchState, demanded: Sequence[AnyEvent], after: int) -> AnyEvent:
        event = demanded[0]
        if len(demanded) > 1:
            event = demanded[rng.randrange(len(demanded))]
            if drawn is not None:
                drawn["trigger order"] += 1
        if type(event) is ObjectResulted:
            chosen = chosen_result(ruleset, state, event, rng)
            if drawn is not None and chosen is not event:
                drawn["result"] += 1
            event = chosen
        return event

    return consequences(ruleset, state, pick)


def play_by_chance(
    ruleset: Ruleset,
    state: MatchState,
    decision: AnyEvent,
    rng: random.Random,
    drawn: Counter[str] | None = None,
) -> tuple[MatchState, list[AnyEvent]]:
    """`vwlog.games.vw.play.play` with the consequences' choices drawn by ``rng``
    (`advance_by_chance`): check and apply ``decision``, then what it brings.

    Raises:
        IllegalEventError: the decision breaks rules here.
    """
    state, events = advance_by_chance(ruleset, decided(ruleset, state, decision), rng, drawn)
    return state, [decision, *events]


def chosen_result(
    ruleset: Ruleset, state: MatchState, demanded: ObjectResulted, rng: random.Random
) -> ObjectResulted:
    """The demanded result, or, when its object's skill leaves its controller a choice, a
    result with a choice drawn by ``rng`` (`choice_cards`), provided the rules accept it (the
    demanded one otherwise)."""
    obj = next((o for o in state.register if o.id == demanded.object_id), None)
    if obj is None or not chooses(state, obj):
        return demanded
    effects, unused = chosen_effects(state, obj, choice_cards(state, obj, rng))
    result = ObjectResulted(object_id=demanded.object_id, effects=effects)
    if unused or check(ruleset, state, result):
        return demanded
    return result


def choice_cards(state: MatchState, obj: RegisterObject, rng: random.Random) -> list[str]:
    """Cards for each part of the object's skill that leaves a choice, in the order
    `chosen_effects` takes them: a ``return`` one card it allows, a ``bottom`` some of the top
    cards of the controller's Fate Deck in some order, a ``reorder`` an order of the top cards
    (possibly the same); a ``look`` none."""
    skill = object_skill(state, obj)
    cards: list[str] = []
    if skill is None:
        return cards
    deck = state.player(obj.controller).deck
    for spec in skill.effects or ():
        if spec.kind not in CHOICE_KINDS:
            continue
        if spec.kind == "return" and spec.to_zone is not None:
            allowed = returnable(state, obj.controller, spec)
            if allowed:
                cards.append(rng.choice(allowed))
        elif spec.kind == "bottom":
            top = list(deck[: max(spec.amount, 0)])
            cards.extend(rng.sample(top, rng.randint(0, len(top))))
        elif spec.kind == "reorder":
            top = list(deck[: max(spec.amount, 0)])
            cards.extend(rng.sample(top, len(top)))
    return cards


__all__ = ["advance_by_chance", "choice_cards", "chosen_result", "play_by_chance"]
