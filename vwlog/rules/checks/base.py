"""What the checks share: which decision events answer which awaited decision, and how an
event is summarised in a violation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events import (
    AttackDeclared,
    AttackersEnteredBattle,
    BaseEvent,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardSummoned,
    CostPaid,
    DeploymentFinished,
    FollowerDamageAssigned,
    HandLimitDiscarded,
    MatchStarted,
    PriorityPassed,
    PropertyPlaced,
    SkillRegistered,
    SupplyChosen,
    event_type,
)
from vwlog.rules.flow import DecisionKind

if TYPE_CHECKING:
    from vwlog.model.errors import Violation


Violations = tuple["Violation", ...]


ACCEPTS: dict[DecisionKind, tuple[type[BaseEvent], ...]] = {
    DecisionKind.SETUP: (MatchStarted,),
    DecisionKind.SUPPLY: (SupplyChosen,),
    DecisionKind.DEPLOY: (PropertyPlaced, DeploymentFinished),
    DecisionKind.STRAY: (PropertyPlaced,),
    DecisionKind.REGISTRATION: (CardSummoned, SkillRegistered),
    DecisionKind.ATTACKERS: (AttackersEnteredBattle,),
    DecisionKind.DECLARE: (AttackDeclared,),
    DecisionKind.BLOCKERS: (BlockersEnteredBattle,),
    DecisionKind.BLOCKS: (BlocksAssigned,),
    DecisionKind.DAMAGE: (FollowerDamageAssigned,),
    DecisionKind.DISCARD: (HandLimitDiscarded,),
    DecisionKind.PRIORITY: (PriorityPassed, CostPaid),
}
"""Which decision events answer which kind of awaited decision."""


WHAT: dict[DecisionKind, str] = {
    DecisionKind.SETUP: "start the match",
    DecisionKind.SUPPLY: "choose a supply package",
    DecisionKind.DEPLOY: "place Property or finish deploying",
    DecisionKind.STRAY: "deploy Stray Property into the new Territory",
    DecisionKind.REGISTRATION: "register what was just paid for",
    DecisionKind.ATTACKERS: "choose attacking Followers",
    DecisionKind.DECLARE: "declare the attack",
    DecisionKind.BLOCKERS: "choose blocking Followers",
    DecisionKind.BLOCKS: "assign blocks",
    DecisionKind.DAMAGE: "distribute Follower damage",
    DecisionKind.DISCARD: "discard down to the hand limit",
    DecisionKind.PRIORITY: "pass or register (holds priority)",
}


def what(kind: DecisionKind | None) -> str:
    """What a player must do for an awaited decision of this kind (``decide`` for none)."""
    return WHAT[kind] if kind is not None else "decide"


def summary(event: BaseEvent) -> str:
    """A compact text of an event for expected/actual fields."""
    data = event.model_dump(mode="json", exclude={"type"}, exclude_defaults=True)
    inner = " ".join(f"{k}={v}" for k, v in data.items())
    return f"{event_tag(event)}({inner})" if inner else event_tag(event)


def event_tag(event: BaseEvent) -> str:
    return event_type(event)


__all__ = ["ACCEPTS", "WHAT", "Violations", "event_tag", "summary", "what"]
