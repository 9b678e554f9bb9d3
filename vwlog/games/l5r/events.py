"""L5R battle events: the match start with its cards and Provinces, the players' decisions
(armies, battlefields, Battle actions, passes) and the consequences the rules demand (Force
totals, destruction, a Province falling, honor, units going Home).

Every event is a frozen pydantic model with a ``type`` tag; `L5rRecord` is the core's record
envelope around their union (the core's fork, seal and signature records included).

Against the rules digest's vocabulary: ``match_started`` names the two ``players`` and carries
the cards and Provinces (there is no separate pool); ``battle_action_resolved`` names its
action by ``card`` and ``ability`` (one action awaits resolution at a time); a battle outside
the Attack phase is chosen with the card whose effect creates it (``battlefield_chosen.cause``).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field

from vwlog.events.base import Consequence, Decision
from vwlog.events.core import MatchForked, MatchSealed, RecordSigned
from vwlog.games.common import Envelope, by_tag
from vwlog.games.l5r.ruleset import L5rRuleset

Name = Annotated[str, Field(min_length=1, max_length=64)]
Count = Annotated[int, Field(ge=0, le=1_000_000)]
Side = Literal["ATTACKER", "DEFENDER"]
CardKind = Literal["PERSONALITY", "FOLLOWER", "ATTACHMENT", "STRATEGY", "OTHER"]
UNIT_KINDS = frozenset({"PERSONALITY", "FOLLOWER"})
"""The kinds of card that are units (L5R-AS-2)."""


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class ActionDef(_Part):
    """An action printed on a card (L5R-AS-6)."""

    name: Name
    battle: bool = True
    """Whether it has the Battle designator (L5R-CMB-4)."""
    brings_unit: bool = False
    """Whether it can bring a unit into the current battle (L5R-CMB-7)."""


class CardDef(_Part):
    """A card of the match as it starts."""

    id: Name
    owner: Name
    kind: CardKind
    force: Count = 0
    bowed: bool = False
    attached_to: Name | None = None
    """The unit an attachment is attached to."""
    actions: tuple[ActionDef, ...] = Field(default=(), max_length=16)


class ProvinceDef(_Part):
    """A Province of a player and the battlefield it has (L5R-AS-4)."""

    id: Name
    owner: Name
    strength: Count
    battlefield: Name
    cards: tuple[Name, ...] = Field(default=(), max_length=64)
    regions: tuple[Name, ...] = Field(default=(), max_length=64)


class Assignment(_Part):
    """One unit sent to a battlefield on one side (L5R-AS-10)."""

    unit: Name
    side: Side
    battlefield: Name


class Effect(_Part):
    """One effect of a resolved Battle action (trusted as logged, L5R-AS-6)."""

    kind: Literal["unit_entered_battle", "unit_bowed", "unit_unbowed", "force_changed"]
    unit: Name
    delta: int = Field(default=0, ge=-1000, le=1000)


class L5rStarted(Consequence):
    """The match begins: two players, their cards and Provinces, the ruleset."""

    type: Literal["match_started"] = "match_started"
    players: tuple[Name, Name]
    cards: tuple[CardDef, ...] = Field(default=(), max_length=512)
    provinces: tuple[ProvinceDef, ...] = Field(default=(), max_length=32)
    ruleset: L5rRuleset = L5rRuleset()


class AttackPhaseStarted(Consequence):
    """The attacker's Attack phase begins."""

    type: Literal["attack_phase_started"] = "attack_phase_started"
    turn: int = Field(ge=1, le=1_000_000)
    attacker: Name
    defender: Name


class ArmiesDeclared(Decision):
    """The armies and their battlefields, as the earlier steps fixed them (L5R-AS-10)."""

    type: Literal["armies_declared"] = "armies_declared"
    assignments: tuple[Assignment, ...] = Field(max_length=256)


class BattlefieldChosen(Decision):
    """A player chooses where the next battle is fought (L5R-BTL-1)."""

    type: Literal["battlefield_chosen"] = "battlefield_chosen"
    player: Name
    battlefield: Name
    cause: Name | None = None
    """The card whose effect creates a battle outside the Attack phase (L5R-BTL-4)."""


class BattleStarted(Consequence):
    """Both sides enter the battle at the chosen battlefield."""

    type: Literal["battle_started"] = "battle_started"
    battle: int = Field(ge=1, le=1_000_000)
    battlefield: Name
    attacker: Name
    defender: Name
    cause: Name | None = None


class BattleActionTaken(Decision):
    """A player's opportunity: a Battle action."""

    type: Literal["battle_action_taken"] = "battle_action_taken"
    player: Name
    card: Name
    ability: Name
    source_unit: Name | None = None
    targets: tuple[Name, ...] = Field(default=(), max_length=32)
    brings: tuple[Name, ...] = Field(default=(), max_length=32)


class BattleActionResolved(Consequence):
    """What the action did (trusted as logged where no card data says otherwise)."""

    type: Literal["battle_action_resolved"] = "battle_action_resolved"
    card: Name
    ability: Name
    effects: tuple[Effect, ...] = Field(default=(), max_length=64)


class OpportunityPassed(Decision):
    """A player's opportunity: a pass."""

    type: Literal["opportunity_passed"] = "opportunity_passed"
    player: Name


class ResolutionStarted(Consequence):
    """Combat is over; each army's Force (L5R-RES-1, -2)."""

    type: Literal["resolution_started"] = "resolution_started"
    battle: int = Field(ge=1, le=1_000_000)
    attacker_force: Count
    defender_force: Count


class ArmyDestroyed(Consequence):
    """Every card of one army is destroyed (L5R-RES-4, -7, -9)."""

    type: Literal["army_destroyed"] = "army_destroyed"
    battle: int = Field(ge=1, le=1_000_000)
    side: Side
    cards: tuple[Name, ...] = Field(max_length=256)


class ProvinceDestroyed(Consequence):
    """The Province of the battlefield falls; its cards and Regions are discarded (L5R-RES-5,
    -6)."""

    type: Literal["province_destroyed"] = "province_destroyed"
    province: Name
    discarded: tuple[Name, ...] = Field(default=(), max_length=64)
    regions: tuple[Name, ...] = Field(default=(), max_length=64)


class HonorGained(Consequence):
    """Family Honor for the opposing cards a player destroyed (L5R-RES-8, -9)."""

    type: Literal["honor_gained"] = "honor_gained"
    player: Name
    amount: Count
    cards_destroyed: Count


class BattleWithoutOutcome(Consequence):
    """Both Forces 0 and a side without units: nothing happens (L5R-RES-10)."""

    type: Literal["battle_without_outcome"] = "battle_without_outcome"
    battle: int = Field(ge=1, le=1_000_000)


class ResolutionEnded(Consequence):
    """The Resolution's effects are carried out (L5R-RES-11)."""

    type: Literal["resolution_ended"] = "resolution_ended"
    battle: int = Field(ge=1, le=1_000_000)


class AttackersSentHome(Consequence):
    """The attacking units at the battlefield bow and go Home (L5R-RES-11)."""

    type: Literal["attackers_sent_home"] = "attackers_sent_home"
    units: tuple[Name, ...] = Field(max_length=256)


class BattleEnded(Consequence):
    """The battle is over (L5R-RES-13)."""

    type: Literal["battle_ended"] = "battle_ended"
    battle: int = Field(ge=1, le=1_000_000)


class DefendersSentHome(Consequence):
    """The defending units go Home, unbowed (L5R-RES-12)."""

    type: Literal["defenders_sent_home"] = "defenders_sent_home"
    units: tuple[Name, ...] = Field(max_length=256)


class AttackPhaseEnded(Consequence):
    """The last battle is resolved: the Attack phase ends (L5R-BTL-6)."""

    type: Literal["attack_phase_ended"] = "attack_phase_ended"
    turn: int = Field(ge=1, le=1_000_000)


L5rEvent: TypeAlias = (
    L5rStarted
    | AttackPhaseStarted
    | ArmiesDeclared
    | BattlefieldChosen
    | BattleStarted
    | BattleActionTaken
    | BattleActionResolved
    | OpportunityPassed
    | ResolutionStarted
    | ArmyDestroyed
    | ProvinceDestroyed
    | HonorGained
    | BattleWithoutOutcome
    | ResolutionEnded
    | AttackersSentHome
    | BattleEnded
    | DefendersSentHome
    | AttackPhaseEnded
    | MatchForked
    | MatchSealed
    | RecordSigned
)


class L5rRecord(Envelope):
    """An L5R record: the core's envelope around this game's events."""

    event: Annotated[L5rEvent, Field(discriminator="type")]


ALL_TYPES: tuple[type[BaseModel], ...] = get_args(L5rEvent)
"""The event classes, in the order of `L5rEvent`."""
EVENT_TYPES: dict[str, type] = by_tag(ALL_TYPES)
"""The event classes by ``type`` tag."""
DECISION_TYPES = frozenset(
    {ArmiesDeclared, BattlefieldChosen, BattleActionTaken, OpportunityPassed, MatchForked}
)
"""The events a player decides."""

__all__ = [
    "ALL_TYPES",
    "DECISION_TYPES",
    "EVENT_TYPES",
    "UNIT_KINDS",
    "ActionDef",
    "ArmiesDeclared",
    "ArmyDestroyed",
    "Assignment",
    "AttackPhaseEnded",
    "AttackPhaseStarted",
    "AttackersSentHome",
    "BattleActionResolved",
    "BattleActionTaken",
    "BattleEnded",
    "BattleStarted",
    "BattleWithoutOutcome",
    "BattlefieldChosen",
    "CardDef",
    "CardKind",
    "DefendersSentHome",
    "Effect",
    "HonorGained",
    "L5rEvent",
    "L5rRecord",
    "L5rStarted",
    "OpportunityPassed",
    "ProvinceDestroyed",
    "ResolutionEnded",
    "ResolutionStarted",
    "Side",
]
