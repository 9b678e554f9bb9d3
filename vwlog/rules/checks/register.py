"""The register: costs, summons and skill registrations (R-REG-*, R-CARD-*, R-SKL-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events import CardSummoned, CostPaid, SkillRegistered
from vwlog.model.cards import SkillDef, Target
from vwlog.model.state import condition_holds, record_key
from vwlog.model.text import msg
from vwlog.model.types import CardType, Keyword, Phase, Restriction, SkillKind
from vwlog.rules.checks.base import Violations
from vwlog.rules.common import (
    card_name,
    is_follower,
    next_object_id,
    pays_unpaid_top,
    room,
    uses_capacity,
    violation,
)

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState


def check_cost(ruleset: Ruleset, state: MatchState, event: CostPaid) -> Violations:
    """Costs paid for a summon (R-CARD-11) or for an active skill (R-REG-3, R-SKL-*)."""
    if event.card not in state.instances:
        return (violation("R-ZONE-5", "unknown card {card}", card=repr(event.card)),)
    if pays_unpaid_top(state, event.player, event.card, event.skill):
        return ()  # the late payment of an object whose registration R-REG-3 reported
    p = state.player(event.player)
    out: list[Violation] = []
    if event.gold > p.gold:
        out.append(
            violation(
                "R-GOLD-3",
                "{player} pays {gold} gold but has {gold2}",
                player=event.player,
                gold=event.gold,
                gold2=p.gold,
            )
        )
    if event.skill is None:
        return summon_cost(ruleset, state, event, out)
    return skill_cost(ruleset, state, event, out)


def summon_cost(
    ruleset: Ruleset, state: MatchState, event: CostPaid, out: list[Violation]
) -> Violations:
    """A summon from hand (R-CARD-11); the subdeck only where the ruleset allows (OQ-4)."""
    d = state.defn(event.card)
    p = state.player(event.player)
    in_sub = event.card in p.subdeck and ruleset.summon_from_subdeck
    if event.card not in p.hand and not in_sub:
        where = msg("the subdeck") if event.card in p.subdeck else msg("their hand")
        flag = "summon_from_subdeck" if event.card in p.subdeck else None
        return (
            violation(
                "R-ZONE-3" if flag else "R-ZONE-1",
                "{card} is not in {where}",
                card=card_name(state, event.card),
                where=where,
                flag=flag,
            ),
        )
    if event.gold != d.cost:
        out.append(
            violation(
                "R-CARD-11",
                "{name} costs {cost} gold, {gold} paid",
                name=d.name,
                cost=d.cost,
                gold=event.gold,
                expected=str(d.cost),
                actual=str(event.gold),
            )
        )
    if event.slid:
        out.append(violation("R-REG-3", "a summon has no slide cost"))
    if p.honor < d.honor_req:
        out.append(
            violation(
                "R-CARD-10",
                "{name} needs {honor_req} honor, {player} has {honor}",
                flag=honor_flag(state, event.player),
                name=d.name,
                honor_req=d.honor_req,
                player=event.player,
                honor=p.honor,
            )
        )
    out.extend(summon_timing(ruleset, state, event.player, d.type, d.keywords))
    if d.type.is_property and not any(
        not uses_capacity(ruleset, state, event.card) or room(ruleset, state, t.id) > 0
        for t in state.territories(event.player)
    ):
        out.append(
            violation(
                "R-CARD-2",
                "{player} has no Territory with remaining capacity for {name}",
                player=event.player,
                name=d.name,
            )
        )
    return tuple(out)


def skill_cost(
    ruleset: Ruleset, state: MatchState, event: CostPaid, out: list[Violation]
) -> Violations:
    """An active skill of a card in play: its kind, timing, costs, target, condition,
    restriction and requirements (R-SKL-1..10, R-REG-3, R-GEN-4, R-GEN-6)."""
    d = state.defn(event.card)
    perm = state.permanents.get(event.card)
    if perm is None or perm.controller != event.player:
        return (
            violation(
                "R-SKL-2",
                "{card} is not in play under {player}",
                card=card_name(state, event.card),
                player=event.player,
            ),
        )
    skill = d.skill(event.skill or "")
    if skill is None:
        return (
            violation(
                "R-SKL-2", "{name} has no skill {skill}", name=d.name, skill=repr(event.skill)
            ),
        )
    if skill.kind == SkillKind.STATIC:
        return (violation("R-SKL-1", "{name}'s static skill never uses the register", name=d.name),)
    if skill.kind == SkillKind.AURA:
        return (violation("R-SKL-4", "{name}'s aura never uses the register", name=d.name),)
    if skill.kind == SkillKind.TRIGGER:
        return (
            violation(
                "R-SKL-3",
                "{name}'s triggered skill is used automatically, not registered by a player",
                name=d.name,
            ),
        )
    if state.phase == Phase.PREP:
        out.append(violation("R-PREP-2", "no skill may be used in the Preparation Phase"))
    if event.gold != skill.cost_gold:
        out.append(
            violation(
                "R-REG-3",
                "the skill costs {cost_gold} gold, {gold} paid",
                cost_gold=skill.cost_gold,
                gold=event.gold,
                expected=str(skill.cost_gold),
                actual=str(event.gold),
            )
        )
    out.extend(_slide_cost(event, skill.cost_slide, perm.slid, d.name))
    if skill.target is not None and not valid_targets(state, event.player, skill.target):
        out.append(
            violation(
                "R-GEN-4",
                "{name}'s skill has no valid target ({target})",
                name=d.name,
                target=skill.target,
            )
        )
    if not condition_holds(state, event.player, skill.condition):
        out.append(_condition_fails(state, event.player, d.name, skill))
    out.extend(restriction_used(ruleset, state, event, skill))
    if ruleset.requirements_continuous and state.player(event.player).honor < d.honor_req:
        honor = honor_flag(state, event.player)
        out.append(
            violation(
                "R-GEN-6",
                "{name} needs {honor_req} honor, re-checked on use",
                name=d.name,
                honor_req=d.honor_req,
                flag="requirements_continuous" + (f", {honor}" if honor else ""),
            )
        )
    return tuple(out)


def _condition_fails(state: MatchState, player: str, name: str, skill: SkillDef) -> Violation:
    """R-SKL-5 for a skill whose condition does not hold; naming OQ-7's flag when only the
    honor part fails and the player's honor could hold honor for destroyed Territories."""
    short = skill.condition is not None and condition_holds(
        state, player, skill.condition.model_copy(update={"min_honor": None})
    )
    return violation(
        "R-SKL-5",
        "the condition of {name}'s skill does not hold",
        flag=honor_flag(state, player) if short else None,
        name=name,
    )


def honor_flag(state: MatchState, player: str) -> str | None:
    """The flag a verdict that ``player``'s honor falls short rests on: OQ-7's, once the player
    has destroyed other players' Territories (another reading of it would give them honor for
    those); none before."""
    return "honor_per_territory_destroyed" if state.player(player).taken else None


def _slide_cost(event: CostPaid, cost_slide: bool, slid: bool, name: str) -> list[Violation]:
    """The slide cost of an active skill is sliding the card itself, unslid (R-SKL-2)."""
    wanted = (event.card,) if cost_slide else ()
    where = {"expected": str(wanted), "actual": str(tuple(event.slid))}
    if tuple(event.slid) != wanted and cost_slide:
        return [violation("R-SKL-2", "the slide cost is sliding the card itself", **where)]
    if tuple(event.slid) != wanted:
        return [violation("R-SKL-2", "this skill has no slide cost", **where)]
    if cost_slide and slid:
        return [
            violation("R-REG-3", "{name} is already slid and cannot pay a slide cost", name=name)
        ]
    return []


def restriction_used(
    ruleset: Ruleset, state: MatchState, event: CostPaid, skill: SkillDef
) -> list[Violation]:
    """A restricted skill whose allowance is used up: R-SKL-6 for every restriction kind («tidak
    dapat meregister skillnya bila ia telah menggunakan sejumlah variabel restriksinya»), the
    cycle's reading named (OQ-27). A second id says why the record stands when something
    could be taken to have reset it: R-SKL-8 when the property took over the record of a copy
    that went back to hand, Fate Deck or subdeck; R-SKL-7 when a same-name copy went to the
    Graveyard while this once-per-match property stayed in play (the Graveyard ends only the
    record of the property that went there, R-SKL-9)."""
    if skill.restriction == Restriction.NONE:
        return []
    d = state.defn(event.card)
    user, uses = state.records.get(
        record_key(event.player, event.card, skill.id, str(skill.restriction)), (event.card, 0)
    )
    if uses < skill.restriction_uses:
        return []
    used_up = (
        msg("its allowance of 1 use is used up")
        if skill.restriction_uses == 1
        else msg("its allowance of {uses} uses is used up", uses=skill.restriction_uses)
    )
    out = [
        violation(
            "R-SKL-6",
            "{name}'s skill is restricted {restriction}: {why}",
            name=d.name,
            restriction=skill.restriction,
            why=used_up,
            flag="cycle_is_controller_turn"
            if skill.restriction == Restriction.ONCE_PER_CYCLE
            else None,
        )
    ]
    why = None
    rule = ""
    if user != event.card:
        rule = "R-SKL-8"
        why = msg(
            "a {name} of {player} used it and went back to hand, Fate Deck or subdeck; the "
            "{name} brought into play again is recognised as having used it",
            name=d.name,
            player=event.player,
        )
    elif skill.restriction == Restriction.ONCE_PER_MATCH and _copy_in_graveyard(
        state, event.player, event.card
    ):
        rule, why = "R-SKL-7", msg("the record stays absolute while it is in play")
    if why is not None:
        out.append(
            violation(
                rule,
                "{name}'s skill is restricted {restriction}: {why}",
                name=d.name,
                restriction=skill.restriction,
                why=why,
            )
        )
    return out


def _copy_in_graveyard(state: MatchState, player: str, card: str) -> bool:
    """Whether another card of ``player`` with ``card``'s name lies in their Graveyard: a
    record reset there (R-SKL-9) could be taken for this property's, which it is not."""
    name = state.defn(card).name
    return any(c != card and state.defn(c).name == name for c in state.player(player).graveyard)


def summon_timing(
    ruleset: Ruleset,
    state: MatchState,
    player: str,
    card_type: CardType,
    keywords: tuple[Keyword, ...],
) -> list[Violation]:
    """Territories and Property: the active player's own Main Phase with an empty register
    (R-MAIN-4, R-MAIN-8, OQ-6); Actions and every card with Lair, Followers included: whenever
    holding priority outside the Preparation Phase (R-CARD-8, R-CARD-2: Lair means "at any
    time", any moment at which an Action could be summoned). The Preparation Phase has no
    window by default; where the ruleset gives it one (OQ-37), it admits these only."""
    any_time = card_type == CardType.ACTION or Keyword.LAIR in keywords
    if state.phase == Phase.PREP and not ruleset.preparation_window:
        return [
            violation(
                "R-PREP-2",
                "nothing may be summoned in the Preparation Phase",
                flag="preparation_window" if any_time else None,
            )
        ]
    if any_time:
        return []
    out = []
    main = state.phase in (Phase.MAIN1, Phase.MAIN2)
    if not main or state.active != player:
        rule = "R-MAIN-8" if card_type == CardType.TERRITORY else "R-MAIN-4"
        out.append(
            violation(
                rule,
                "a {card_type} is summoned only in its controller's own Main Phase",
                card_type=card_type.lower(),
            )
        )
    elif state.register and ruleset.summon_needs_empty_register:
        out.append(
            violation(
                "R-MAIN-4",
                "a Territory or Property is summoned only with an empty register",
                flag="summon_needs_empty_register",
            )
        )
    return out


def check_object_id(state: MatchState, object_id: str) -> Violations:
    wanted = next_object_id(state)
    if object_id != wanted:
        return (
            violation(
                "R-REG-1",
                "register objects are numbered in order: expected {wanted}",
                wanted=repr(wanted),
                expected=wanted,
                actual=object_id,
            ),
        )
    return ()


def check_paid_for(state: MatchState, player: str, card: str, skill: str | None) -> Violations:
    paid = state.pending_cost
    if paid is None or paid.player != player or paid.card != card or paid.skill != skill:
        what = f"{card}/{skill}" if skill else card
        return (
            violation("R-REG-3", "costs for {what} were not paid just before", what=repr(what)),
        )
    return ()


def check_summon(ruleset: Ruleset, state: MatchState, event: CardSummoned) -> Violations:
    out = list(check_paid_for(state, event.player, event.card, None))
    out.extend(check_object_id(state, event.object_id))
    if out:
        return tuple(out)
    d = state.defn(event.card)
    if d.type.is_property:
        terr = state.permanents.get(event.territory or "")
        if terr is None or terr.where != "TERRITORY" or terr.controller != event.player:
            out.append(
                violation(
                    "R-CARD-9",
                    "Property is summoned into one of {player}'s Territories",
                    player=event.player,
                )
            )
        elif uses_capacity(ruleset, state, event.card) and room(ruleset, state, terr.id) <= 0:
            out.append(
                violation(
                    "R-CARD-2",
                    "{territory} has no remaining capacity",
                    territory=card_name(state, terr.id),
                )
            )
    elif event.territory is not None:
        rule = "R-CARD-8" if d.type == CardType.ACTION else "R-CARD-9"
        out.append(violation(rule, "a {type} does not go into a Territory", type=d.type.lower()))
    return tuple(out)


def check_register_skill(state: MatchState, event: SkillRegistered) -> Violations:
    out = list(check_paid_for(state, event.player, event.card, event.skill))
    out.extend(check_object_id(state, event.object_id))
    if out:
        return tuple(out)
    skill = state.defn(event.card).skill(event.skill)
    wanted = skill.target if skill is not None else None
    if wanted is None:
        if event.target is not None:
            out.append(violation("R-GEN-4", "this skill takes no target"))
        return tuple(out)
    target = state.permanents.get(event.target or "")
    if target is None:
        return (violation("R-GEN-4", "the skill needs a target in play ({wanted})", wanted=wanted),)
    if target.id not in valid_targets(state, event.player, wanted):
        out.append(
            violation(
                "R-GEN-4",
                "{card} is not a valid target ({wanted})",
                card=card_name(state, target.id),
                wanted=wanted,
            )
        )
    return tuple(out)


def valid_targets(state: MatchState, player: str, wanted: Target) -> list[str]:
    """Cards in play that fit a skill's target kind for ``player`` (R-GEN-4: the card says)."""
    opponents = set(state.opponents(player))
    out = []
    for perm in state.permanents.values():
        own = perm.controller == player
        is_territory = perm.where == "TERRITORY"
        fits = {
            Target.OWN_FOLLOWER: own and not is_territory and is_follower(state, perm.id),
            Target.OPPOSING_FOLLOWER: perm.controller in opponents
            and not is_territory
            and is_follower(state, perm.id),
            Target.OWN_TERRITORY: own and is_territory,
            Target.OPPOSING_TERRITORY: perm.controller in opponents and is_territory,
        }.get(wanted, False)
        if fits:
            out.append(perm.id)
    return out


__all__ = [
    "check_cost",
    "check_object_id",
    "check_paid_for",
    "check_register_skill",
    "check_summon",
    "restriction_used",
    "skill_cost",
    "summon_cost",
    "summon_timing",
    "valid_targets",
]
