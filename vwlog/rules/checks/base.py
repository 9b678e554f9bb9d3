"""What the checks share: which decision events answer which awaited decision, and how an
event is summarised in a violation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from vwlog import events as ev
from vwlog.model.text import Msg, msg
from vwlog.rules.flow import DecisionKind

if TYPE_CHECKING:
    from vwlog.model.errors import Violation


Violations = tuple["Violation", ...]


ACCEPTS: Final[dict[str, tuple[type[ev.BaseEvent], ...]]] = {
    DecisionKind.SETUP: (ev.MatchStarted,),
    DecisionKind.SUPPLY: (ev.SupplyChosen,),
    DecisionKind.DEPLOY: (ev.PropertyPlaced, ev.DeploymentFinished),
    DecisionKind.STRAY: (ev.PropertyPlaced,),
    DecisionKind.REGISTRATION: (ev.CardSummoned, ev.SkillRegistered),
    DecisionKind.ATTACKERS: (ev.AttackersEnteredBattle,),
    DecisionKind.DECLARE: (ev.AttackDeclared,),
    DecisionKind.BLOCKERS: (ev.BlockersEnteredBattle,),
    DecisionKind.BLOCKS: (ev.BlocksAssigned,),
    DecisionKind.DAMAGE: (ev.FollowerDamageAssigned,),
    DecisionKind.DISCARD: (ev.HandLimitDiscarded,),
    DecisionKind.PRIORITY: (ev.PriorityPassed, ev.CostPaid),
}
"""Which decision events answer which kind of awaited decision."""


WHAT: Final[dict[str, Msg]] = {
    DecisionKind.SETUP: msg("start the match"),
    DecisionKind.SUPPLY: msg("choose a supply package"),
    DecisionKind.DEPLOY: msg("place Property or finish deploying"),
    DecisionKind.STRAY: msg("deploy Stray Property into the new Territory"),
    DecisionKind.REGISTRATION: msg("register what was just paid for"),
    DecisionKind.ATTACKERS: msg("choose attacking Followers"),
    DecisionKind.DECLARE: msg("declare the attack"),
    DecisionKind.BLOCKERS: msg("choose blocking Followers"),
    DecisionKind.BLOCKS: msg("assign blocks"),
    DecisionKind.DAMAGE: msg("distribute Follower damage"),
    DecisionKind.DISCARD: msg("discard down to the hand limit"),
    DecisionKind.PRIORITY: msg("pass or register (holds priority)"),
}


def what(kind: str | None) -> Msg:
    """What a player must do for an awaited decision of this kind (``decide`` for none)."""
    return WHAT[kind] if kind is not None else msg("decide")


def summary(event: ev.BaseEvent) -> str:
    """A compact text of an event for expected/actual fields."""
    data = event.model_dump(mode="json", exclude={"type"}, exclude_defaults=True)
    inner = " ".join(f"{k}={v}" for k, v in data.items())
    return f"{event_tag(event)}({inner})" if inner else event_tag(event)


def event_tag(event: ev.BaseEvent) -> str:
    return ev.event_type(event)


__all__ = ["ACCEPTS", "WHAT", "Violations", "event_tag", "summary", "what"]
