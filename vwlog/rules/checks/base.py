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

if TYPE_CHECKING:
    from vwlog.model.errors import Violation


Violations = tuple["Violation", ...]


ACCEPTS: dict[str, tuple[type[BaseEvent], ...]] = {
    "setup": (MatchStarted,),
    "supply": (SupplyChosen,),
    "deploy": (PropertyPlaced, DeploymentFinished),
    "stray": (PropertyPlaced,),
    "registration": (CardSummoned, SkillRegistered),
    "attackers": (AttackersEnteredBattle,),
    "declare": (AttackDeclared,),
    "blockers": (BlockersEnteredBattle,),
    "blocks": (BlocksAssigned,),
    "damage": (FollowerDamageAssigned,),
    "discard": (HandLimitDiscarded,),
    "priority": (PriorityPassed, CostPaid),
}
"""Which decision events answer which kind of awaited decision."""


WHAT: dict[str, str] = {
    "setup": "start the match",
    "supply": "choose a supply package",
    "deploy": "place Property or finish deploying",
    "stray": "deploy Stray Property into the new Territory",
    "registration": "register what was just paid for",
    "attackers": "choose attacking Followers",
    "declare": "declare the attack",
    "blockers": "choose blocking Followers",
    "blocks": "assign blocks",
    "damage": "distribute Follower damage",
    "discard": "discard down to the hand limit",
    "priority": "pass or register (holds priority)",
}


def summary(event: BaseEvent) -> str:
    """A compact text of an event for expected/actual fields."""
    data = event.model_dump(mode="json", exclude={"type"}, exclude_defaults=True)
    inner = " ".join(f"{k}={v}" for k, v in data.items())
    return f"{event_tag(event)}({inner})" if inner else event_tag(event)


def event_tag(event: BaseEvent) -> str:
    return event_type(event)
