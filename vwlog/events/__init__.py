"""The event vocabulary: every game fact of a VW match, as one discriminated union.

Decisions are made by players; consequences are demanded by the rules (DESIGN.md §2). Each class
says which it is in ``DECISION``. Storage facts live in `EventRecord`, not in events.
"""

from __future__ import annotations

from typing import Annotated, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from vwlog.events.base import (
    FORMAT_NAME,
    FORMAT_VERSION,
    BaseEvent,
    LogHeader,
    event_type,
)
from vwlog.events.combat import (
    Allocation,
    Attack,
    AttackDeclared,
    AttackersEnteredBattle,
    BecameReturnHome,
    BecameStray,
    Block,
    BlockersEnteredBattle,
    BlocksAssigned,
    CombatDamageRegistered,
    FollowerDamageAssigned,
    FollowersDestroyed,
    TerritoriesDestroyed,
    VictoryPointGained,
)
from vwlog.events.effects import (
    CardMoved,
    CardsDrawn,
    DamageDealt,
    DeckReordered,
    Effect,
    GoldChanged,
    HonorChanged,
    StatChanged,
    StatusChanged,
)
from vwlog.events.end import HandLimitDiscarded, TurnCleanedUp
from vwlog.events.match import (
    CardInstance,
    Conceded,
    DeckRevealed,
    JudgeRulingIssued,
    MatchForked,
    MatchSealed,
    MatchStarted,
    MatchWon,
    OpeningHandDrawn,
    PublishedRef,
    RecordSigned,
    Seat,
)
from vwlog.events.preparation import (
    DeploymentFinished,
    GoldProduced,
    PropertyPlaced,
    SupplyChosen,
    SupplyTaken,
    Unslid,
)
from vwlog.events.register import (
    CardSummoned,
    CostPaid,
    ObjectResulted,
    SkillRegistered,
    SkillTriggered,
)
from vwlog.events.turn import PhaseStarted, PriorityPassed, StepStarted, TurnEnded, TurnStarted

AnyEvent: TypeAlias = (
    MatchStarted
    | OpeningHandDrawn
    | DeckRevealed
    | Conceded
    | MatchWon
    | JudgeRulingIssued
    | MatchForked
    | TurnStarted
    | PhaseStarted
    | StepStarted
    | PriorityPassed
    | TurnEnded
    | GoldProduced
    | SupplyChosen
    | SupplyTaken
    | Unslid
    | PropertyPlaced
    | DeploymentFinished
    | CostPaid
    | CardSummoned
    | SkillRegistered
    | SkillTriggered
    | ObjectResulted
    | AttackersEnteredBattle
    | AttackDeclared
    | BlockersEnteredBattle
    | BlocksAssigned
    | FollowerDamageAssigned
    | CombatDamageRegistered
    | FollowersDestroyed
    | TerritoriesDestroyed
    | VictoryPointGained
    | BecameReturnHome
    | BecameStray
    | HandLimitDiscarded
    | TurnCleanedUp
    | MatchSealed
    | RecordSigned
)
"""Every event type (the plain union, for ``match`` statements and type hints)."""

GameEvent = Annotated[AnyEvent, Field(discriminator="type")]
"""Every event type, discriminated by its ``type`` tag."""

GAME_EVENT: TypeAdapter[AnyEvent] = TypeAdapter(GameEvent)
"""Validates and dumps any event."""

EVENT_TYPES: dict[str, type[BaseEvent]] = {
    cls.model_fields["type"].default: cls for cls in get_args(AnyEvent)
}
"""Event class by type tag."""

TRAILER_TYPES: tuple[type[BaseEvent], ...] = (MatchSealed, RecordSigned)
"""Records that close a log (the seal and signatures over it): no game facts, so the rules
and the board never see them."""


class EventRecord(BaseModel):
    """The envelope of one event in a log or a store: sequence number, time, hash and the event."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    seq: int = Field(ge=1, le=10**12)
    """Sequence number, strictly increasing from 1 within a match."""
    at: str | None = Field(default=None, max_length=64)
    """When the event happened (ISO 8601), if recorded."""
    hash: str | None = Field(default=None, max_length=64)
    """SHA-256 over the canonical JSON of this record (without ``hash``) and the previous hash."""
    event: GameEvent
    """The game fact."""

    @property
    def is_decision(self) -> bool:
        """Whether the event is a player's decision."""
        return self.event.DECISION


RECORD: TypeAdapter[EventRecord] = TypeAdapter(EventRecord)
"""Validates records from JSON bytes."""


ACTOR_TYPES: frozenset[type[BaseEvent]] = frozenset(
    cls for cls in get_args(AnyEvent) if "player" in cls.model_fields
)
"""Event classes that name a ``player``."""
DECISION_TYPES: frozenset[type[BaseEvent]] = frozenset(
    cls for cls in get_args(AnyEvent) if cls.DECISION
)
"""The decision event classes (a set lookup: reading ``DECISION`` off an event passes through
pydantic's ``__getattr__`` hook)."""


def acting_player(event: BaseEvent) -> str | None:
    """The ``player`` an event names, or ``None`` for an event class without one.

    Cheaper than ``getattr(event, "player", None)``: a missing attribute of a pydantic model is
    found missing by raising and catching an ``AttributeError`` (microseconds, on the replay's
    hot path); this is one set lookup. The compiled engine calls its own copy,
    `vwlog.rules.common.actor`."""
    if type(event) in ACTOR_TYPES:
        player: str | None = event.player  # type: ignore[attr-defined]
        return player
    return None


__all__ = [
    "ACTOR_TYPES",
    "DECISION_TYPES",
    "EVENT_TYPES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "GAME_EVENT",
    "RECORD",
    "TRAILER_TYPES",
    "Allocation",
    "AnyEvent",
    "Attack",
    "AttackDeclared",
    "AttackersEnteredBattle",
    "BaseEvent",
    "BecameReturnHome",
    "BecameStray",
    "Block",
    "BlockersEnteredBattle",
    "BlocksAssigned",
    "CardInstance",
    "CardMoved",
    "CardSummoned",
    "CardsDrawn",
    "CombatDamageRegistered",
    "Conceded",
    "CostPaid",
    "DamageDealt",
    "DeckReordered",
    "DeckRevealed",
    "DeploymentFinished",
    "Effect",
    "EventRecord",
    "FollowerDamageAssigned",
    "FollowersDestroyed",
    "GameEvent",
    "GoldChanged",
    "GoldProduced",
    "HandLimitDiscarded",
    "HonorChanged",
    "JudgeRulingIssued",
    "LogHeader",
    "MatchForked",
    "MatchSealed",
    "MatchStarted",
    "MatchWon",
    "ObjectResulted",
    "OpeningHandDrawn",
    "PhaseStarted",
    "PriorityPassed",
    "PropertyPlaced",
    "PublishedRef",
    "RecordSigned",
    "Seat",
    "SkillRegistered",
    "SkillTriggered",
    "StatChanged",
    "StatusChanged",
    "StepStarted",
    "SupplyChosen",
    "SupplyTaken",
    "TerritoriesDestroyed",
    "TurnCleanedUp",
    "TurnEnded",
    "TurnStarted",
    "Unslid",
    "VictoryPointGained",
    "acting_player",
    "event_type",
]
