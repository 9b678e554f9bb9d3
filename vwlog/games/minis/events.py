"""Miniatures events: the match start with its players and models, the round and turn
structure the rules demand (consequences), the players' declarations (decisions) and the dice
rolls (chance: `vwlog.events.base.Chance`, recorded with their outcome).

Every event is a frozen pydantic model with a ``type`` tag; `MinisRecord` is the core's record
envelope around their union (the core's fork, seal and signature records included).

Geometry is never computed: line of sight (``los``), Reach (``within_reach``) and
"approaching" are claims the log makes (flag ``geometry=CLAIMED``), and a roll's ``hits`` are
what the dice were recorded to score (flag ``dice=LOGGED``).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field

from vwlog.events.base import Chance, Consequence, Decision
from vwlog.events.core import MatchForked, MatchSealed, RecordSigned
from vwlog.games.common import Envelope, by_tag
from vwlog.games.minis.ruleset import MinisRuleset

_E = TypeVar("_E", bound=BaseModel)
Name = Annotated[str, Field(min_length=1, max_length=64)]
Names = Annotated[tuple[Name, ...], Field(max_length=32)]
Count = Annotated[int, Field(ge=0, le=1_000)]
Number = Annotated[int, Field(ge=1, le=1_000_000)]
Phase = Literal["STRATEGIC", "UPKEEP", "TACTICAL", "END"]
Kind = Literal["NORMAL", "SPECIAL"]
PHASES: tuple[Phase, ...] = ("STRATEGIC", "UPKEEP", "TACTICAL", "END")
"""The four phases of a turn, in order (MIN-RND-4)."""
NORMAL_ACTIONS = frozenset({"ATTACK", "MELEE ATTACK", "RANGED ATTACK", "DODGE", "PERCEIVE"})
"""Actions the fragment lets be Reactions, so Normal Actions (MIN-AS-4)."""


def make(cls: type[_E], **fields: object) -> _E:
    """An event of ``cls`` from its fields, validated (a value outside a field's words raises
    `pydantic.ValidationError`, a `ValueError`)."""
    return cls.model_validate(fields)


def is_attack(action: str) -> bool:
    """Whether ``action`` is an Attack (Attack, Melee Attack, Ranged Attack)."""
    return action.upper().endswith("ATTACK")


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class ModelDef(_Part):
    """A model of the match and its profile (MIN-AS-2)."""

    id: Name
    owner: Name
    stamina: Count
    skills: Names = ()
    awareness: bool = False
    leader: bool = False
    abilities: Names = ()
    items: Names = ()
    stratagems: Names = ()


class Allotment(_Part):
    """A model's Activation Points after the Upkeep Phase."""

    model: Name
    ap: Count


class Reaction(_Part):
    """One model's Reaction: its Normal Action, its target, the line-of-sight claim."""

    model: Name
    action: Name
    kind: Kind = "NORMAL"
    target: Name | None = None
    los: bool = True
    """Claim: the model had line of sight to the activated model during its Movement."""
    by_awareness: bool = False
    """A Dodge without line of sight, allowed by the model's Awareness."""


class MinisStarted(Consequence):
    """The match begins: players in seat order, the 1st Player, the models, the ruleset."""

    type: Literal["match_started"] = "match_started"
    players: tuple[Name, ...] = Field(min_length=2, max_length=8)
    first: Name
    models: tuple[ModelDef, ...] = Field(default=(), max_length=256)
    ruleset: MinisRuleset = MinisRuleset()


class RoundStarted(Consequence):
    """A round begins; ``first`` is its 1st Player (MIN-RND-1, -3)."""

    type: Literal["round_started"] = "round_started"
    round: Number
    first: Name


class TurnStarted(Consequence):
    """A player's turn begins with its roles (MIN-RND-1, -3)."""

    type: Literal["turn_started"] = "turn_started"
    round: Number
    turn: Number
    active: Name
    reactive: tuple[Name, ...] = Field(min_length=1, max_length=8)


class PhaseStarted(Consequence):
    """One of the four phases begins (MIN-RND-4)."""

    type: Literal["phase_started"] = "phase_started"
    phase: Phase


class Declared(Decision):
    """A model declares an Ability, Item or Stratagem in the Strategic Phase (MIN-PHS-1, -2)."""

    type: Literal["declared"] = "declared"
    player: Name
    model: Name
    kind: Literal["ABILITY", "ITEM", "STRATAGEM", "LEADER_STRATAGEM"]
    name: Name


class ApAllotted(Consequence):
    """Upkeep: each eligible model's Activation Points (MIN-PHS-3)."""

    type: Literal["ap_allotted"] = "ap_allotted"
    allotments: tuple[Allotment, ...] = Field(default=(), max_length=256)


class ModelActivated(Decision):
    """Activation Step: the Active Player activates a model, spending one AP (MIN-ACT-2)."""

    type: Literal["model_activated"] = "model_activated"
    player: Name
    model: Name


class CrouchedChanged(Decision):
    """The activated model enters or leaves the Crouched state (MIN-ACT-4)."""

    type: Literal["crouched_changed"] = "crouched_changed"
    player: Name
    model: Name
    crouched: bool


class MovementDeclared(Decision):
    """Movement Step: Normal or Special Movement and the Skills used (MIN-ACT-3)."""

    type: Literal["movement_declared"] = "movement_declared"
    player: Name
    model: Name
    kind: Literal["NORMAL", "SPECIAL", "NONE"]
    skills: Names = ()


class AoODeclared(Decision):
    """An Attack of Opportunity during the Movement (MIN-REA-4, -6)."""

    type: Literal["aoo_declared"] = "aoo_declared"
    player: Name
    model: Name
    target: Name
    ranged: bool = False
    approaching: bool | None = None
    """Claim, for a Ranged AoO: the activated model is still approaching."""


class AoOChecked(Consequence):
    """Claim: whether the target was within Reach; outside it, the Attack fails (MIN-REA-5)."""

    type: Literal["aoo_checked"] = "aoo_checked"
    model: Name
    within_reach: bool


class ReactionsDeclared(Decision):
    """Reaction Step: a Reactive Player's reacting models, none or several (MIN-ACT-5)."""

    type: Literal["reactions_declared"] = "reactions_declared"
    player: Name
    reactions: tuple[Reaction, ...] = Field(default=(), max_length=64)


class ActionDeclared(Decision):
    """Action Step: the activated model's Normal or Special Action (MIN-ACT-7)."""

    type: Literal["action_declared"] = "action_declared"
    player: Name
    model: Name
    kind: Kind
    action: Name
    targets: Names = ()
    melee: bool = False
    """Whether the Action is a Melee Attack (a Ranged AoO then owes a Confrontation)."""


class ReactionChanged(Decision):
    """A Dodge or Perceive changed to an Attack (MIN-REA-7); ``los`` and ``enemy_state`` are
    claims."""

    type: Literal["reaction_changed"] = "reaction_changed"
    player: Name
    model: Name
    to: Literal["ATTACK"] = "ATTACK"
    los: bool = True
    enemy_state: Literal["SHROUDED", "FLYING"]


class Roll(Chance):
    """Dice rolled with their outcome (MIN-ACT-8, MIN-RES-1): chance, never derived."""

    type: Literal["roll"] = "roll"
    player: Name
    model: Name
    purpose: Literal["CONFRONTATION", "DAMAGE", "PREVENTION", "OTHER"]
    dice: int = Field(ge=1, le=100)
    sides: int = Field(default=6, ge=2, le=1000)
    results: tuple[int, ...] = Field(max_length=100)
    hits: Count = 0
    target: Name | None = None
    """The model the Hits are scored against."""


class ResolutionOrdered(Decision):
    """The Active Player's order of simultaneous conflicts (MIN-RES-2)."""

    type: Literal["resolution_ordered"] = "resolution_ordered"
    player: Name
    order: tuple[Name, ...] = Field(min_length=1, max_length=64)


class WoundsApplied(Consequence):
    """Wounds and the States they cause, as the rolls were logged (MIN-RES-1)."""

    type: Literal["wounds_applied"] = "wounds_applied"
    model: Name
    wounds: Count
    states: Names = ()


class SequenceEnded(Consequence):
    """The Activation Sequence is over."""

    type: Literal["sequence_ended"] = "sequence_ended"
    model: Name


class TacticalStopped(Decision):
    """The Active Player stops activating (MIN-PHS-5)."""

    type: Literal["tactical_stopped"] = "tactical_stopped"
    player: Name


class ApDiscarded(Consequence):
    """End Phase: both players discard their unspent AP (MIN-PHS-6)."""

    type: Literal["ap_discarded"] = "ap_discarded"


class RolesSwapped(Consequence):
    """End Phase: the Roles are swapped (MIN-PHS-6)."""

    type: Literal["roles_swapped"] = "roles_swapped"


class TurnEnded(Consequence):
    """The turn is over."""

    type: Literal["turn_ended"] = "turn_ended"
    round: Number
    turn: Number


class RoundEnded(Consequence):
    """Every player's turn of the round is over (MIN-RND-2)."""

    type: Literal["round_ended"] = "round_ended"
    round: Number


class MatchEnded(Consequence):
    """The match is over between rounds; the result as the organiser records it (MIN-OQ-15)."""

    type: Literal["match_ended"] = "match_ended"
    winner: Name | None = None


MinisEvent: TypeAlias = (
    MinisStarted
    | RoundStarted
    | TurnStarted
    | PhaseStarted
    | Declared
    | ApAllotted
    | ModelActivated
    | CrouchedChanged
    | MovementDeclared
    | AoODeclared
    | AoOChecked
    | ReactionsDeclared
    | ActionDeclared
    | ReactionChanged
    | Roll
    | ResolutionOrdered
    | WoundsApplied
    | SequenceEnded
    | TacticalStopped
    | ApDiscarded
    | RolesSwapped
    | TurnEnded
    | RoundEnded
    | MatchEnded
    | MatchForked
    | MatchSealed
    | RecordSigned
)


class MinisRecord(Envelope):
    """A miniatures record: the core's envelope around this game's events."""

    event: Annotated[MinisEvent, Field(discriminator="type")]


ALL_TYPES: tuple[type[BaseModel], ...] = get_args(MinisEvent)
"""The event classes, in the order of `MinisEvent`."""
EVENT_TYPES: dict[str, type] = by_tag(ALL_TYPES)
"""The event classes by ``type`` tag."""
DECISION_TYPES = frozenset(
    {
        Declared,
        ModelActivated,
        CrouchedChanged,
        MovementDeclared,
        AoODeclared,
        ReactionsDeclared,
        ActionDeclared,
        ReactionChanged,
        ResolutionOrdered,
        TacticalStopped,
        MatchForked,
    }
)
"""The events a player decides."""
CHANCE_TYPES = frozenset({Roll})
"""The events chance decides."""

__all__ = [
    "ALL_TYPES",
    "CHANCE_TYPES",
    "DECISION_TYPES",
    "EVENT_TYPES",
    "NORMAL_ACTIONS",
    "PHASES",
    "ActionDeclared",
    "Allotment",
    "AoOChecked",
    "AoODeclared",
    "ApAllotted",
    "ApDiscarded",
    "CrouchedChanged",
    "Declared",
    "MatchEnded",
    "MinisEvent",
    "MinisRecord",
    "MinisStarted",
    "ModelActivated",
    "ModelDef",
    "MovementDeclared",
    "PhaseStarted",
    "Reaction",
    "ReactionChanged",
    "ReactionsDeclared",
    "ResolutionOrdered",
    "RolesSwapped",
    "Roll",
    "RoundEnded",
    "RoundStarted",
    "SequenceEnded",
    "TacticalStopped",
    "TurnEnded",
    "TurnStarted",
    "WoundsApplied",
    "is_attack",
    "make",
]
