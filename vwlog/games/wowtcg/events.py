"""The events of a WoW TCG match log (turns, priority windows and the chain, seed 002).

Decisions are what a player chooses (`vwlog.events.base.Decision`); consequences are what the
rules demand (`vwlog.events.base.Consequence`). What the seed only names (playing a card,
resources, combat, how a link resolves, triggers, modifiers, cards entering play or being
exhausted) is recorded as the player's claim and checked only as far as the seed reaches.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field

from vwlog.events.base import Consequence, Decision
from vwlog.events.core import MatchForked, MatchSealed, RecordSigned
from vwlog.games.common import Envelope, by_tag
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.model.bounds import LogInt

__all__ = [
    "EVENTS",
    "PLAYS",
    "AbilityTriggered",
    "CardDrawn",
    "CardSpec",
    "CardsExhausted",
    "CardsReadied",
    "CombatDeclared",
    "CombatStepEnded",
    "Conceded",
    "ExtraTurnCreated",
    "HandLimitDiscarded",
    "InspireReadied",
    "LinkAdded",
    "LinkResolved",
    "MatchStarted",
    "ModifierCreated",
    "ModifiersExpired",
    "Phase",
    "PhaseStarted",
    "PlayerLost",
    "PriorityPassed",
    "PriorityWindowClosed",
    "PriorityWindowOpened",
    "ResourcePlaced",
    "Step",
    "StepStarted",
    "TriggerAdded",
    "TurnEnded",
    "TurnSkipped",
    "TurnStarted",
    "WowEvent",
    "WowRecord",
]

Name = Annotated[str, Field(min_length=1, max_length=64)]
"""A player, card, link, trigger or modifier id."""
Names = Annotated[tuple[Name, ...], Field(max_length=200)]
"""Several ids."""
Phase = Literal["START", "ACTION", "END"]
Step = Literal["READY", "DRAW", "COMBAT", "FINAL"]


class CardSpec(BaseModel):
    """A card in play as the log declares it (WOW-AS-2): its controller, its kind, whether it
    is exhausted, and the card kind its Inspire keyword names (``None``: no Inspire)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: Name
    controller: Name
    kind: Annotated[str, Field(min_length=1, max_length=32)]
    """``hero``, ``ally``, ``weapon``, …: characters are heroes and allies."""
    exhausted: bool = False
    inspire: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    """The kind ``Inspire: [card]`` names (``ally`` for Vindicator Kaldel)."""


class MatchStarted(Consequence):
    """The match begins: players in clockwise order, the first one first (WOW-AS-1), their
    hand and deck sizes, the cards in play, and the ruleset."""

    type: Literal["match_started"] = "match_started"
    game: Literal["wowtcg"] = "wowtcg"
    players: Annotated[tuple[Name, ...], Field(min_length=2, max_length=8)]
    hands: Annotated[tuple[Annotated[int, Field(ge=0, le=1000)], ...], Field(max_length=8)]
    """Cards in each player's hand, in seat order."""
    decks: Annotated[tuple[Annotated[int, Field(ge=0, le=1000)], ...], Field(max_length=8)]
    """Cards in each player's deck, in seat order."""
    cards: Annotated[tuple[CardSpec, ...], Field(max_length=200)] = ()
    ruleset: WowRuleset = WowRuleset()


class TurnStarted(Consequence):
    type: Literal["turn_started"] = "turn_started"
    turn: LogInt
    player: Name
    extra: bool = False


class TurnSkipped(Consequence):
    """A turn replaced by nothing (WOW-XTN-3): no turn number is spent on it."""

    type: Literal["turn_skipped"] = "turn_skipped"
    player: Name
    by: Name | None = None


class ExtraTurnCreated(Consequence):
    """A modifier gives ``player`` an extra turn (claim: the modifier is card data)."""

    type: Literal["extra_turn_created"] = "extra_turn_created"
    player: Name
    by: Name | None = None


class PhaseStarted(Consequence):
    type: Literal["phase_started"] = "phase_started"
    phase: Phase


class StepStarted(Consequence):
    type: Literal["step_started"] = "step_started"
    step: Step


class CardsReadied(Consequence):
    """The current player readies every exhausted card he controls in play (WOW-STA-1)."""

    type: Literal["cards_readied"] = "cards_readied"
    player: Name
    cards: Names = ()


class InspireReadied(Decision):
    """Another player readies exhausted cards through his Inspire sources (WOW-STA-2)."""

    type: Literal["inspire_readied"] = "inspire_readied"
    player: Name
    cards: Names
    sources: Names


class ModifierCreated(Consequence):
    """A modifier is created (claim: its source is card data, WOW-AS-6)."""

    type: Literal["modifier_created"] = "modifier_created"
    id: Name
    source: Name | None = None
    duration: Literal["UNTIL_END_OF_TURN", "PERMANENT", "OTHER"] = "OTHER"
    kind: Literal["WHEN_TURN_BEGINS", "SKIP_NEXT_TURN", "MAX_HAND_SIZE", "OTHER"] = "OTHER"
    player: Name | None = None
    """Whom a skip or a hand size modifier is about."""
    amount: Annotated[int, Field(ge=0, le=1000)] | None = None
    """The maximum hand size a ``MAX_HAND_SIZE`` modifier sets."""


class AbilityTriggered(Consequence):
    """An ability or modifier triggers (claim: what triggers when is card data, WOW-AS-7)."""

    type: Literal["ability_triggered"] = "ability_triggered"
    trigger: Name
    player: Name
    """Who controls the triggered effect."""
    card: Name | None = None
    ability: Annotated[str, Field(max_length=200)] | None = None
    when: Literal["TURN_START", "PHASE_START", "STEP_START", "END_OF_TURN", "OTHER"]


class PriorityWindowOpened(Consequence):
    type: Literal["priority_window_opened"] = "priority_window_opened"


class PriorityWindowClosed(Consequence):
    type: Literal["priority_window_closed"] = "priority_window_closed"


class TriggerAdded(Consequence):
    """A pending triggered effect goes onto the chain, as a link named by the trigger."""

    type: Literal["trigger_added"] = "trigger_added"
    trigger: Name


class LinkAdded(Decision):
    """The player holding priority adds a link: a played card (from hand) or a used power."""

    type: Literal["link_added"] = "link_added"
    player: Name
    link: Name
    kind: Literal["CARD", "POWER"] = "CARD"
    card: Name
    ability: Annotated[str, Field(max_length=200)] | None = None
    instant: bool = True
    targets: Names = ()


class PriorityPassed(Decision):
    type: Literal["priority_passed"] = "priority_passed"
    player: Name


class LinkResolved(Consequence):
    """The top link of the chain resolves (how: claim, outside the seed)."""

    type: Literal["link_resolved"] = "link_resolved"
    link: Name
    effects: Annotated[tuple[Annotated[str, Field(max_length=200)], ...], Field(max_length=50)] = ()
    enters_play: Annotated[tuple[CardSpec, ...], Field(max_length=20)] = ()
    """Cards the link put into play (an ally played, say)."""


class CardsExhausted(Consequence):
    """Cards in play become exhausted (claim: costs and attacks are outside the seed)."""

    type: Literal["cards_exhausted"] = "cards_exhausted"
    cards: Names


class CardDrawn(Consequence):
    type: Literal["card_drawn"] = "card_drawn"
    player: Name
    card: Name | None = None
    """The card, when the log knows it."""


class ResourcePlaced(Decision):
    type: Literal["resource_placed"] = "resource_placed"
    player: Name
    card: Name


class CombatDeclared(Decision):
    type: Literal["combat_declared"] = "combat_declared"
    player: Name
    attacker: Name
    target: Name


class CombatStepEnded(Consequence):
    type: Literal["combat_step_ended"] = "combat_step_ended"


class HandLimitDiscarded(Decision):
    type: Literal["hand_limit_discarded"] = "hand_limit_discarded"
    player: Name
    cards: Names


class ModifiersExpired(Consequence):
    type: Literal["modifiers_expired"] = "modifiers_expired"
    modifiers: Names


class TurnEnded(Consequence):
    type: Literal["turn_ended"] = "turn_ended"
    turn: LogInt


class Conceded(Decision):
    """A player concedes (victory is outside the seed, WOW-AS-8)."""

    type: Literal["conceded"] = "conceded"
    player: Name


class PlayerLost(Consequence):
    """A player loses for drawing from an empty deck (``empty_deck_draw=LOSES``)."""

    type: Literal["player_lost"] = "player_lost"
    player: Name
    reason: Literal["EMPTY_DECK"] = "EMPTY_DECK"


WowEvent: TypeAlias = (
    MatchStarted
    | TurnStarted
    | TurnSkipped
    | ExtraTurnCreated
    | PhaseStarted
    | StepStarted
    | CardsReadied
    | InspireReadied
    | ModifierCreated
    | AbilityTriggered
    | PriorityWindowOpened
    | PriorityWindowClosed
    | TriggerAdded
    | LinkAdded
    | PriorityPassed
    | LinkResolved
    | CardsExhausted
    | CardDrawn
    | ResourcePlaced
    | CombatDeclared
    | CombatStepEnded
    | HandLimitDiscarded
    | ModifiersExpired
    | TurnEnded
    | Conceded
    | PlayerLost
    | MatchForked
    | MatchSealed
    | RecordSigned
)


class WowRecord(Envelope):
    """A WoW TCG record: the core's envelope around this game's events."""

    event: Annotated[WowEvent, Field(discriminator="type")]


EVENTS: dict[str, type] = by_tag(get_args(WowEvent))
"""The game's event classes by ``type`` tag (the core's records included)."""

PLAYS: tuple[type[BaseModel], ...] = (
    InspireReadied,
    LinkAdded,
    PriorityPassed,
    ResourcePlaced,
    CombatDeclared,
    HandLimitDiscarded,
)
"""The players' decisions the rules judge as plays (a concession and a fork are the others)."""
