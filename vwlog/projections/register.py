"""The fold for the register: costs paid, cards summoned, skills registered and triggered,
objects resulting with their effects (R-REG-*, R-SKL-*).

Part of `vwlog.projections.board`; like it, these trust their input and never check legality.
"""

from __future__ import annotations

import dataclasses
from typing import assert_never

from vwlog import events as ev
from vwlog.model.state import (
    Marker,
    MatchState,
    Modifier,
    PendingCost,
    Permanent,
    RegisterObject,
    Where,
    replace,
)
from vwlog.model.types import CardType, ObjectKind, Phase, TriggerWhen, Zone
from vwlog.projections.fold import (
    _collect_triggers,
    _draw,
    _is_action,
    _move_from_play,
    _move_out_of_play,
    _player,
    _reassess,
    _records_entering,
    _reset_priority,
    _used,
)
from vwlog.rules.common import paid_just_before, pays_unpaid_top


def _cost_paid(state: MatchState, event: ev.CostPaid) -> MatchState:
    p = state.player(event.player)
    st = _player(state, event.player, gold=max(0, p.gold - event.gold))
    if event.slid:
        slid = set(event.slid)
        perms = {k: (replace(c, slid=True) if k in slid else c) for k, c in st.permanents.items()}
        st = replace(st, permanents=perms)
    if pays_unpaid_top(state, event.player, event.card, event.skill):
        # the late payment of an object registered unpaid: it pays for that object
        top = dataclasses.replace(st.register[-1], unpaid=False)
        return replace(st, register=(*st.register[:-1], top))
    return replace(
        st,
        pending_cost=PendingCost(event.player, event.card, event.skill, event.gold, event.slid),
        done=st.done | {Marker.WINDOW},
    )


def _after_registration(state: MatchState, player: str) -> str | None:
    """Who holds priority after ``player`` registers something: that player, or the active
    player as after a result where the ruleset reads R-REG-5 so (OQ-35)."""
    rs = state.ruleset
    if rs is not None and rs.priority_after_registration == "ACTIVE":
        return state.active
    return player


def _registered(state: MatchState, obj: RegisterObject, priority: str | None) -> MatchState:
    """``obj`` put on top of the register by its controller: the pending cost is settled, a
    new window opens and ``priority`` holds priority in it, no one having passed."""
    return replace(
        state,
        register=(*state.register, obj),
        objects=state.objects + 1,
        pending_cost=None,
        priority=priority,
        passes=0,
        done=state.done | {Marker.WINDOW},
    )


def _summoned(state: MatchState, event: ev.CardSummoned) -> MatchState:
    p = state.player(event.player)
    st = state
    if event.card in p.hand:
        st = _player(st, event.player, hand=tuple(c for c in p.hand if c != event.card))
    elif event.card in p.subdeck:
        st = _player(st, event.player, subdeck=tuple(c for c in p.subdeck if c != event.card))
    obj = RegisterObject(
        id=event.object_id,
        kind=ObjectKind.SUMMON,
        controller=event.player,
        card=event.card,
        skill="play" if event.card in state.instances and _is_action(state, event.card) else None,
        territory=event.territory,
        unpaid=not paid_just_before(state, event.player, event.card, None),
    )
    return _registered(st, obj, _after_registration(state, event.player))


def _skill_registered(state: MatchState, event: ev.SkillRegistered) -> MatchState:
    obj = RegisterObject(
        id=event.object_id,
        kind=ObjectKind.ACTIVE_SKILL,
        controller=event.player,
        card=event.card,
        skill=event.skill,
        target=event.target,
        unpaid=not paid_just_before(state, event.player, event.card, event.skill),
    )
    st = _used(state, event.player, event.card, event.skill)
    return _registered(st, obj, _after_registration(state, event.player))


def _skill_triggered(state: MatchState, event: ev.SkillTriggered) -> MatchState:
    obj = RegisterObject(
        id=event.object_id,
        kind=ObjectKind.TRIGGER_SKILL,
        controller=event.player,
        card=event.card,
        skill=event.skill,
    )
    remaining = list(state.triggers)
    for i, t in enumerate(remaining):
        if t.player == event.player and t.card == event.card and t.skill == event.skill:
            del remaining[i]
            break
    st = _used(state, event.player, event.card, event.skill)
    return _reset_priority(
        replace(
            st,
            register=(*state.register, obj),
            objects=state.objects + 1,
            triggers=tuple(remaining),
        )
    )


def _resulted(state: MatchState, event: ev.ObjectResulted) -> MatchState:
    obj = next((o for o in reversed(state.register) if o.id == event.object_id), None)
    register = tuple(o for o in state.register if o.id != event.object_id)
    st = replace(state, register=register)
    if obj is not None:
        st = replace(st, destroyer=obj.controller)
        if obj.kind == ObjectKind.SUMMON and obj.card is not None:
            st = _enter_play(st, obj)
    for effect in event.effects:
        st = _apply_effect(st, effect)
    if obj is not None and obj.kind == ObjectKind.SUMMON and obj.card is not None:
        if obj.card in st.instances and _is_action(st, obj.card):
            owner = obj.controller
            p = st.player(owner)
            st = _player(st, owner, graveyard=(*p.graveyard, obj.card))
    if obj is not None and obj.kind in (
        ObjectKind.COMBAT_DAMAGE_FOLLOWERS,
        ObjectKind.COMBAT_DAMAGE_TERRITORY,
    ):
        st = replace(st, done=st.done | {Marker.RESULTED})
        return _reassess(_reset_priority(st))
    st = _reassess(_reset_priority(st))
    struck = [t for t in st.doomed if t not in state.doomed]
    if struck:  # fatal damage dealt by a skill, not by combat damage (OQ-39)
        st = replace(st, done=st.done | {Marker.STRUCK.of(t) for t in struck})
    return st


def _enter_play(state: MatchState, obj: RegisterObject) -> MatchState:
    card = obj.card
    assert card is not None
    d = state.defn(card)
    if d.type == CardType.ACTION:
        return state
    perms = dict(state.permanents)
    if d.type == CardType.TERRITORY:
        perms[card] = Permanent(
            card,
            d.id,
            obj.controller,
            "TERRITORY",
            entered_turn=state.turn,
            entered_at=state.objects,
        )
    else:
        target = obj.territory
        where: Where = "GUARD" if target in state.permanents else "STRAY"
        perms[card] = Permanent(
            card,
            d.id,
            obj.controller,
            where,
            territory=target if where == "GUARD" else None,
            fatigued=d.type == CardType.FOLLOWER,
            entered_turn=state.turn,
            entered_at=state.objects,
        )
    st = replace(state, permanents=perms, records=_records_entering(state, obj.controller, card))
    if d.type == CardType.TERRITORY:
        counts = dict(state.territory_counts)
        counts[obj.controller] = counts.get(obj.controller, 0) + 1
        st = replace(st, territory_counts=counts)
    if (
        d.type == CardType.TERRITORY
        and state.phase in (Phase.MAIN1, Phase.MAIN2)
        and any(
            c.where == "STRAY" and c.controller == obj.controller for c in st.permanents.values()
        )
    ):
        # R-MAIN-6 is a rule of the Main Phases; elsewhere Stray Property waits for the Unslide
        # step (R-UNS-2)
        st = replace(st, stray_territory=card)
    return _collect_triggers(st, TriggerWhen.ENTERS_PLAY, cards=[card])


def _apply_effect(state: MatchState, effect: ev.Effect) -> MatchState:
    match effect:
        case ev.StatChanged():
            if effect.card not in state.permanents:
                return state
            mod = Modifier(effect.card, effect.stat, effect.delta, effect.expires)
            return replace(state, modifiers=(*state.modifiers, mod))
        case ev.GoldChanged():
            if not state.has_player(effect.player):
                return state
            gold = max(0, state.player(effect.player).gold + effect.delta)
            return _player(state, effect.player, gold=gold)
        case ev.HonorChanged():
            if not state.has_player(effect.player):
                return state
            honor = max(0, state.player(effect.player).honor + effect.delta)
            return _player(state, effect.player, honor=honor)
        case ev.CardsDrawn():
            if not state.has_player(effect.player):
                return state
            return _draw(state, effect.player, effect.cards)
        case ev.CardMoved():
            bottom = bool(effect.bottom)
            if effect.from_zone in (None, Zone.PLAY):
                return _move_from_play(state, effect.card, effect.to_zone, bottom=bottom)
            return _move_out_of_play(
                state, effect.card, effect.from_zone, effect.to_zone, bottom=bottom
            )
        case ev.DeckReordered():
            if not state.has_player(effect.player):
                return state
            deck = state.player(effect.player).deck
            top = deck[: len(effect.cards)]
            if sorted(top) != sorted(effect.cards):
                return state  # not a reorder of the top cards (reported by check)
            return _player(state, effect.player, deck=(*effect.cards, *deck[len(top) :]))
        case ev.DamageDealt():
            perm = state.permanents.get(effect.recipient)
            if perm is None:
                return state
            perms = dict(state.permanents)
            perms[effect.recipient] = replace(perm, damage=perm.damage + effect.amount)
            return replace(state, permanents=perms)
        case ev.StatusChanged():
            perm = state.permanents.get(effect.card)
            if perm is None:
                return state
            perms = dict(state.permanents)
            perms[effect.card] = replace(perm, slid=effect.slid)
            return replace(state, permanents=perms)
        case _:
            assert_never(effect)


__all__: list[str] = []
