"""Decisions: is this the awaited decision, by the awaited player, and legal by its rules?"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from vwlog import events as ev
from vwlog.model.state import Marker
from vwlog.model.text import Msg, msg
from vwlog.model.types import ObjectKind, Phase, PlacementReason, Step
from vwlog.rules.checks.base import ACCEPTS, WHAT, Violations, event_tag, what
from vwlog.rules.checks.combat import (
    check_attackers,
    check_blockers,
    check_blocks,
    check_damage,
    check_declare,
)
from vwlog.rules.checks.consequences import no_preparation_priority
from vwlog.rules.checks.deploy import check_deployment_finished, check_placement, check_supply
from vwlog.rules.checks.register import check_cost, check_register_skill, check_summon
from vwlog.rules.common import actor, defenders, violation
from vwlog.rules.flow import DecisionKind, Expect

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState


def check_decision(
    ruleset: Ruleset, state: MatchState, exp: Expect, event: ev.AnyEvent
) -> Violations:
    kind = exp.kind
    player = actor(event)
    if kind is None:
        return (
            violation("R-VIC-4", "{event_tag}: nothing may happen now", event_tag=event_tag(event)),
        )
    if type(event) is _ATTACK_DECLARED and not event.attacks and no_attack_owed(state, exp, event):
        return ()
    who = who_decides(ruleset, state, event)
    if who is not None:
        # a player who may never make this decision: the rule that says who makes it, the
        # rule of the moment beside it only when the moment is wrong too
        timing = _timing(ruleset, state, exp, event)
        if timing is None or timing.rule == who.rule:
            return (who,)
        return (who, timing)
    if type(event) not in _ACCEPTS[kind]:
        return (out_of_turn(ruleset, state, exp, event),)
    if player != exp.player:
        return (_not_yours(state, exp, player),)
    check = _DECISION_CHECKS.get(type(event))
    return check(ruleset, state, exp, event) if check is not None else ()


_Check = Callable[["Ruleset", "MatchState", Expect, Any], Violations]


def _timing(
    ruleset: Ruleset, state: MatchState, exp: Expect, event: ev.AnyEvent
) -> Violation | None:
    """The violation of the moment: a decision of another kind than the awaited one, or the
    awaited kind while another player's is awaited; ``None`` when the moment is right."""
    assert exp.kind is not None
    if type(event) not in _ACCEPTS[exp.kind]:
        return out_of_turn(ruleset, state, exp, event)
    if actor(event) != exp.player:
        return _not_yours(state, exp, actor(event))
    return None


def _not_yours(state: MatchState, exp: Expect, player: str | None) -> Violation:
    """The awaited kind of decision, made by another player than the one awaited."""
    assert exp.kind is not None
    rule = exp.rule
    if exp.kind == DecisionKind.PRIORITY:
        rule = priority_rule(state)
    elif exp.kind == DecisionKind.DEPLOY and state.phase == Phase.PREP:
        rule = "R-PREP-1"
    return violation(
        rule,
        "{player} may not act now: {other} must {what}",
        player=player,
        other=exp.player,
        what=WHAT[exp.kind],
        flag="priority_after_registration" if rule == "R-REG-5" and _registered(state) else None,
        expected=exp.player,
        actual=str(player),
    )


def _registered(state: MatchState) -> bool:
    """Whether the top of the register was registered by a player just now, by another player
    than the active one: who holds priority then is a reading (OQ-35)."""
    if state.passes or not state.register:
        return False
    top = state.register[-1]
    return (
        top.id == f"o{state.objects}"
        and top.kind in (ObjectKind.ACTIVE_SKILL, ObjectKind.ACTION, ObjectKind.SUMMON)
        and top.controller != state.active
    )


def _may_defend(state: MatchState, player: str) -> bool:
    """Whether ``player`` is, or may still become, a defending player of this turn's combat:
    an opponent of the active player whose Territory is attacked (any opponent before the
    attack is declared)."""
    if state.active is None or player not in state.opponents(state.active):
        return False
    return not state.combat.attacks or player in defenders(state)


def who_decides(ruleset: Ruleset, state: MatchState, event: ev.AnyEvent) -> Violation | None:
    """A decision made by a player who may never make it here, whatever the moment: the
    violation of the rule that says who makes it (R-SUP-1, R-PREP-1, R-DEP-1, R-CMB-2, R-CMB-8,
    R-CMB-11, R-CMB-16, R-CMB-19, R-END-3); ``None`` when the player may make it (then only
    the moment can be wrong). Priority decisions are anyone's in turn (R-REG-5, R-REG-6)."""
    player, active = actor(event), state.active
    if player is None or active is None or not state.has_player(player):
        return None
    kind = type(event)
    if _KIND_OF.get(kind, DecisionKind.SETUP) in _ANYONES:
        return None  # one dict lookup for the most frequent decisions (passes, costs)
    rule = ""
    defending = False
    if kind is ev.SupplyChosen:
        rule = "R-SUP-1"
    elif kind is ev.AttackersEnteredBattle:
        rule = "R-CMB-2"
    elif kind is ev.AttackDeclared:
        rule = "R-CMB-8"
    elif kind is ev.DeploymentFinished:
        rule = "R-PREP-1" if state.phase == Phase.PREP else "R-DEP-1"
    elif kind is ev.PropertyPlaced:
        reason = event.reason  # type: ignore[union-attr]
        if reason == PlacementReason.NEW_TERRITORY_STRAY:
            return None  # the new Territory's controller, whoever's turn it is (R-MAIN-6)
        rule = "R-PREP-1" if reason == PlacementReason.UNSLIDE_STEP else "R-DEP-1"
    elif kind is ev.BlockersEnteredBattle:
        rule, defending = "R-CMB-11", True
    elif kind is ev.BlocksAssigned:
        rule, defending = "R-CMB-16", True
    elif kind is ev.FollowerDamageAssigned:
        if player == active:
            return None
        rule, defending = "R-CMB-19", True
    elif kind is ev.HandLimitDiscarded:
        if ruleset.hand_limit_all_players or player == active:
            return None
        return _only(
            "R-END-3",
            player,
            WHAT[DecisionKind.DISCARD],
            msg("the active player ({player})", player=active),
            active,
            flag="hand_limit_all_players",
        )
    else:
        return None
    what = WHAT[_KIND_OF[kind]]
    if not defending:
        if player == active:
            return None
        return _only(rule, player, what, msg("the active player ({player})", player=active), active)
    if _may_defend(state, player):
        return None
    named = defenders(state) if state.combat.attacks else state.opponents(active)
    who = msg("a defending player ({players})", players=", ".join(named) or "-")
    return _only(rule, player, what, who, ", ".join(named))


def _only(
    rule: str, player: str, what: Msg, who: Msg, expected: str, *, flag: str | None = None
) -> Violation:
    """``player`` made a decision that only ``who`` (``expected``) may make."""
    return violation(
        rule,
        "{player} may not {what}: only {who} does",
        player=player,
        what=what,
        who=who,
        flag=flag,
        expected=expected,
        actual=player,
    )


_KIND_OF: Final[dict[type, str]] = {
    cls: kind for kind, classes in reversed(ACCEPTS.items()) for cls in classes
}
"""The decision kind each decision event answers (a placement answers a deploy)."""

_ANYONES: Final = frozenset((DecisionKind.SETUP, DecisionKind.REGISTRATION, DecisionKind.PRIORITY))
"""Kinds of decision `who_decides` names no one for (it says ``None``): priority decisions are
anyone's in turn (R-REG-5, R-REG-6), and neither a registration nor the start is one player's
by turn or defence."""


def no_attack_owed(state: MatchState, exp: Expect, event: ev.AttackDeclared) -> bool:
    """An explicit empty declaration where no attacker may attack: the active player says so in
    step 3 before anyone passed (R-CMB-8 owes nothing, so it changes nothing)."""
    return (
        exp.kind == DecisionKind.PRIORITY
        and state.step == Step.C3
        and event.player == state.active
        and exp.player == state.active
        and Marker.DECLARED not in state.done
        and Marker.WINDOW not in state.done
    )


_ATTACK_DECLARED: Final = ev.AttackDeclared
"""A constant, not a name looked up in the module's dictionary at every use (compiled)."""

_DECISION_CHECKS: Final[dict[type, _Check]] = {  # a pass has nothing more to check
    ev.CostPaid: lambda rs, st, exp, e: check_cost(rs, st, e),
    ev.SupplyChosen: lambda rs, st, exp, e: check_supply(rs, st, e),
    ev.PropertyPlaced: check_placement,
    ev.DeploymentFinished: lambda rs, st, exp, e: check_deployment_finished(rs, st, e),
    ev.CardSummoned: lambda rs, st, exp, e: check_summon(rs, st, e),
    ev.SkillRegistered: lambda rs, st, exp, e: check_register_skill(st, e),
    ev.AttackersEnteredBattle: lambda rs, st, exp, e: check_attackers(rs, st, e),
    ev.AttackDeclared: lambda rs, st, exp, e: check_declare(rs, st, e),
    ev.BlockersEnteredBattle: lambda rs, st, exp, e: check_blockers(rs, st, e),
    ev.BlocksAssigned: lambda rs, st, exp, e: check_blocks(rs, st, e),
    ev.FollowerDamageAssigned: lambda rs, st, exp, e: check_damage(rs, st, e),
    ev.HandLimitDiscarded: lambda rs, st, exp, e: check_discard(rs, st, e),
}
"""The checks of each decision, by the event's exact type (one dict lookup instead of a
class-pattern ``match``, whose failed ``isinstance`` checks go through pydantic's ABCMeta).
Decisions not listed (conceding, reveals, rulings, forks) are checked before they get here."""

_ACCEPTS: Final = {kind: frozenset(classes) for kind, classes in ACCEPTS.items()}
"""`ACCEPTS` as sets of exact event classes (event classes are leaves)."""


def priority_rule(state: MatchState) -> str:
    """Who holds priority: the active player first (R-MAIN-5 in a Main Phase, R-CMB-0 in a
    combat step, R-REG-5 after triggers and results), then in turn order (R-REG-6)."""
    if state.passes > 0:
        return "R-REG-6"
    if state.phase in (Phase.MAIN1, Phase.MAIN2) and not state.register:
        return "R-MAIN-5"
    if state.phase == Phase.COMBAT and not state.register:
        return "R-CMB-0"
    return "R-REG-5"


def out_of_turn(ruleset: Ruleset, state: MatchState, exp: Expect, event: ev.AnyEvent) -> Violation:
    """A decision that does not answer what is awaited: cite the rule that forbids it here."""
    tag = event_tag(event)
    owed = msg("{player} must {what}", player=exp.player, what=what(exp.kind))
    if (
        isinstance(event, (ev.CostPaid, ev.CardSummoned, ev.SkillRegistered))
        and state.phase == Phase.PREP
    ):
        return violation("R-PREP-2", "{tag}: no skill or summon in the Preparation Phase", tag=tag)
    if isinstance(event, (ev.CardSummoned, ev.SkillRegistered)):
        return violation(
            "R-REG-3", "{tag} without its costs paid first ({owed})", tag=tag, owed=owed
        )
    if isinstance(event, ev.PropertyPlaced):
        if state.phase in (Phase.MAIN1, Phase.MAIN2):
            # a Stray card that could not be placed went to the Graveyard by OQ-14
            owner = state.owners.get(event.card)
            buried = owner is not None and event.card in state.player(owner).graveyard
            return violation(
                "R-MAIN-6",
                "Property may not be deployed in a Main Phase except Stray into a new Territory",
                flag="unplaceable_to_graveyard"
                if buried and ruleset.unplaceable_to_graveyard
                else None,
            )
        return violation(
            "R-DEP-1",
            "Property may be moved only in the Unslide step and the Deploy Phase ({owed})",
            owed=owed,
        )
    if isinstance(event, ev.AttackDeclared) and state.step == Step.C3:
        # no attacker here may attack: say why, by the rule the declaration breaks
        found = check_declare(ruleset, state, event)
        if found:
            return found[0]
    if isinstance(event, ev.AttackersEnteredBattle) and state.step not in (None, Step.C1, Step.C2):
        return violation("R-CMB-7", "attackers may enter battle only up to step 2")
    if isinstance(event, ev.BlockersEnteredBattle) and state.step not in (
        None,
        Step.C1,
        Step.C2,
        Step.C3,
        Step.C4,
    ):
        return violation("R-CMB-15", "blockers may enter battle only up to step 4")
    if isinstance(event, ev.SupplyChosen):
        return violation(
            "R-SUP-1", "a supply package is chosen once, in the Supply step ({owed})", owed=owed
        )
    if isinstance(event, ev.HandLimitDiscarded):
        return violation("R-END-3", "no hand-limit discard is due now ({owed})", owed=owed)
    if isinstance(event, ev.PriorityPassed) and state.phase == Phase.PREP:
        return no_preparation_priority()
    if isinstance(event, ev.PriorityPassed) and exp.kind != DecisionKind.PRIORITY:
        return violation(
            exp.rule, "{tag} while {owed}: no priority window is open", tag=tag, owed=owed
        )
    return violation(exp.rule, "{tag} is not allowed now: {owed}", tag=tag, owed=owed)


def check_discard(ruleset: Ruleset, state: MatchState, event: ev.HandLimitDiscarded) -> Violations:
    hand = state.player(event.player).hand
    need = len(hand) - ruleset.hand_limit
    out: list[Violation] = []
    if len(set(event.cards)) != len(event.cards) or any(c not in hand for c in event.cards):
        out.append(violation("R-END-3", "discarded cards must be distinct cards in hand"))
    if len(event.cards) != need:
        out.append(
            violation(
                "R-END-3",
                "discard down to {hand_limit}: {need} cards, not {count}",
                hand_limit=ruleset.hand_limit,
                need=need,
                count=len(event.cards),
                expected=str(need),
                actual=str(len(event.cards)),
            )
        )
    return tuple(out)


__all__ = [
    "check_decision",
    "check_discard",
    "no_attack_owed",
    "out_of_turn",
    "priority_rule",
    "who_decides",
]
