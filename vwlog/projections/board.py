"""How events change the board: ``evolve(state, event) -> state``.

Warning:
    `evolve` trusts its input, like python-chess's ``push``: it does not check legality (that is
    `vwlog.rules.check`). It never raises on an illegal but well-formed event; it records it as
    played, as far as the event makes sense, so a judge can read on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from vwlog.events import (
    AnyEvent,
    AttackDeclared,
    AttackersEnteredBattle,
    BecameReturnHome,
    BecameStray,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardMoved,
    CardsDrawn,
    CardSummoned,
    CombatDamageRegistered,
    Conceded,
    CostPaid,
    DamageDealt,
    DeckRevealed,
    DeploymentFinished,
    Effect,
    FollowerDamageAssigned,
    FollowersDestroyed,
    GoldChanged,
    GoldProduced,
    HandLimitDiscarded,
    HonorChanged,
    JudgeRulingIssued,
    MatchForked,
    MatchSealed,
    MatchStarted,
    MatchWon,
    ObjectResulted,
    OpeningHandDrawn,
    PhaseStarted,
    PriorityPassed,
    PropertyPlaced,
    RecordSigned,
    SkillRegistered,
    SkillTriggered,
    StatChanged,
    StatusChanged,
    StepStarted,
    SupplyChosen,
    SupplyTaken,
    TerritoriesDestroyed,
    TurnCleanedUp,
    TurnEnded,
    TurnStarted,
    Unslid,
    VictoryPointGained,
)
from vwlog.model.state import (
    NO_COMBAT,
    Allot,
    MatchState,
    Modifier,
    PendingCost,
    Permanent,
    PlayerState,
    RegisterObject,
    Trigger,
    Where,
    replace,
)
from vwlog.model.types import (
    CardType,
    Expiry,
    ObjectKind,
    Phase,
    RulingKind,
    SkillKind,
    Stat,
    Step,
    TriggerWhen,
    Victory,
    Zone,
)
from vwlog.rules.common import uses_capacity

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

INITIAL = MatchState()
"""The state before any event."""

_WINDOW_ACTIVITY = "window"


_VICTORY_EVENTS = (
    ObjectResulted,
    VictoryPointGained,
    TerritoriesDestroyed,
    FollowersDestroyed,
    Conceded,
    JudgeRulingIssued,
    MatchStarted,
    TurnStarted,
)
"""Events after which a victory condition may newly hold (R-VIC-4: checked at once; at the
start of each turn too, so starting resources that already meet a condition win at once)."""


def evolve(state: MatchState, event: AnyEvent) -> MatchState:
    """The board after ``event``. Exhaustive over the event union (``assert_never``).

    An event that names a player or card the match does not have (already reported by
    `check`) leaves the board as it was: the fold records as played what it can and never
    raises on a well-formed event.
    """
    try:
        after = _evolve(state, event)
    except KeyError:
        after = state
    check = isinstance(event, _VICTORY_EVENTS)
    if after.victory_check != check:
        after = replace(after, victory_check=check)
    return after


def _evolve(state: MatchState, event: AnyEvent) -> MatchState:
    match event:
        case PriorityPassed():
            done = state.done
            if _WINDOW_ACTIVITY not in done:
                done = done | {_WINDOW_ACTIVITY}
            return replace(
                state,
                priority=state.next_player(event.player),
                passes=state.passes + 1,
                done=done,
            )
        case StepStarted():
            return _step_started(state, event.step)
        case PhaseStarted():
            return _phase_started(state, event.phase)
        case MatchStarted():
            return _match_started(event)
        case OpeningHandDrawn():
            st = _draw(state, event.player, event.cards)
            done = state.done | {f"opening:{event.player}"}
            if all(f"opening:{p.id}" in done for p in state.players):
                return replace(st, done=frozenset(), opening_done=True)
            return replace(st, done=done)
        case TurnStarted():
            return _turn_started(state, event)
        case TurnEnded():
            return _turn_ended(state)
        case GoldProduced():
            st = _player(state, event.player, gold=state.player(event.player).gold + event.amount)
            return _action_done(st, "produced")
        case SupplyChosen():
            return _action_done(state, f"supply:{event.option}")
        case SupplyTaken():
            st = _draw(state, event.player, event.cards)
            st = _player(st, event.player, gold=st.player(event.player).gold + event.gold)
            return _action_done(st, "supply_taken")
        case Unslid():
            cards = set(event.cards)
            perms = {
                k: (replace(c, slid=False) if k in cards else c)
                for k, c in state.permanents.items()
            }
            return _action_done(replace(state, permanents=perms), "unslid")
        case PropertyPlaced():
            return _placed(state, event)
        case DeploymentFinished():
            return _action_done(_unplaced(state, event.player), "deployed")
        case CostPaid():
            return _cost_paid(state, event)
        case CardSummoned():
            return _summoned(state, event)
        case SkillRegistered():
            return _skill_registered(state, event)
        case SkillTriggered():
            return _skill_triggered(state, event)
        case ObjectResulted():
            return _resulted(state, event)
        case AttackersEnteredBattle():
            combat = replace(state.combat, attackers=state.combat.attackers + event.followers)
            return _action_done(replace(state, combat=combat), "attackers")
        case AttackDeclared():
            return _attack_declared(state, event)
        case BlockersEnteredBattle():
            combat = replace(state.combat, blockers=state.combat.blockers + event.followers)
            return _action_done(replace(state, combat=combat), f"blockers:{event.player}")
        case BlocksAssigned():
            return _blocks_assigned(state, event)
        case FollowerDamageAssigned():
            allots = tuple(Allot(a.source, a.recipient, a.amount) for a in event.allocations)
            combat = replace(state.combat, allocations=state.combat.allocations + allots)
            return _action_done(replace(state, combat=combat), f"damage:{event.player}")
        case CombatDamageRegistered():
            obj = RegisterObject(
                id=event.object_id,
                kind=str(event.kind),
                controller=state.active or "",
                allocations=tuple(
                    Allot(a.source, a.recipient, a.amount) for a in event.allocations
                ),
            )
            st = replace(
                state,
                register=(*state.register, obj),
                objects=state.objects + 1,
                combat=replace(state.combat, allocations=()),
            )
            return _action_done(st, "registered")
        case FollowersDestroyed():
            st = _to_graveyard(state, event.cards)
            return _reassess(replace(st, fatal=()))
        case TerritoriesDestroyed():
            return _territories_destroyed(state, event.cards)
        case VictoryPointGained():
            st = _player(state, event.player, vp=state.player(event.player).vp + 1)
            return _reset_priority(replace(st, vp_due=state.vp_due[1:]))
        case BecameReturnHome():
            cards = set(event.cards)
            perms = {
                k: (replace(c, where="RETURN_HOME", territory=None, slid=True) if k in cards else c)
                for k, c in state.permanents.items()
            }
            return _action_done(replace(state, permanents=perms), "returned")
        case BecameStray():
            cards = set(event.cards)
            perms = {
                k: (replace(c, where="STRAY", territory=None) if k in cards else c)
                for k, c in state.permanents.items()
            }
            return _reset_priority(replace(state, permanents=perms))
        case HandLimitDiscarded():
            p = state.player(event.player)
            gone = set(event.cards)
            st = _player(
                state,
                event.player,
                hand=tuple(c for c in p.hand if c not in gone),
                graveyard=p.graveyard + tuple(c for c in event.cards if c in p.hand),
            )
            return replace(st, done=st.done | {f"discarded:{event.player}"})
        case TurnCleanedUp():
            perms = {
                k: (replace(c, damage=0) if c.damage else c) for k, c in state.permanents.items()
            }
            mods = tuple(m for m in state.modifiers if m.expires != Expiry.END_OF_TURN)
            st = replace(state, permanents=perms, modifiers=mods, fatal=(), doomed=())
            return _action_done(st, "cleaned")
        case Conceded():
            st = replace(_player(state, event.player, out=True), out_by="CONCESSION")
            if state.priority == event.player:
                st = replace(st, priority=st.next_player(event.player), passes=0)
            return st
        case MatchWon():
            return replace(state, winner=event.winner, victory=str(event.victory), priority=None)
        case DeckRevealed():
            return replace(state, revealed=state.revealed | {event.player})
        case JudgeRulingIssued():
            if event.kind == RulingKind.GAME_LOSS and event.loser and state.has_player(event.loser):
                return replace(_player(state, event.loser, out=True), out_by="JUDGE")
            if event.kind == RulingKind.PARTIAL_FIX and event.corrections:
                st = state
                for effect in event.corrections:
                    st = _apply_effect(st, effect)
                return _reassess(st)
            return state
        case MatchForked() | MatchSealed() | RecordSigned():
            return state
        case _:
            assert_never(event)


# -- helpers ---------------------------------------------------------------------------------


def _player(state: MatchState, player_id: str, **changes: object) -> MatchState:
    i = state.seats[player_id]
    players = list(state.players)
    players[i] = replace(players[i], **changes)
    if "out" in changes:
        live = sum(1 for p in players if not p.out)
        return replace(state, players=tuple(players), live=live)
    return replace(state, players=tuple(players))


def _reset_priority(state: MatchState) -> MatchState:
    """After a consequence or a step action the active player receives priority (R-REG-5)."""
    return replace(state, priority=state.active, passes=0)


def _action_done(state: MatchState, tag: str) -> MatchState:
    return _reset_priority(replace(state, done=state.done | {tag}))


def _draw(state: MatchState, player_id: str, cards: Iterable[str]) -> MatchState:
    p = state.player(player_id)
    taken = [c for c in cards if c in p.deck]
    if not taken:
        return state
    gone = set(taken)
    return _player(
        state,
        player_id,
        deck=tuple(c for c in p.deck if c not in gone),
        hand=p.hand + tuple(taken),
    )


def _match_started(event: MatchStarted) -> MatchState:
    rs = event.ruleset
    cards = {c.id: c for c in event.cards}
    instances: dict[str, str] = {}
    owners: dict[str, str] = {}
    players = []
    for i, seat in enumerate(event.seats):
        for inst in (*seat.deck, *seat.subdeck):
            instances[inst.id] = inst.card
            owners[inst.id] = seat.player
        players.append(
            PlayerState(
                id=seat.player,
                seat=i,
                team=seat.team,
                gold=rs.starting_gold,
                honor=rs.starting_honor,
                vp=rs.starting_vp,
                deck=tuple(c.id for c in seat.deck),
                subdeck=tuple(c.id for c in seat.subdeck),
            )
        )
    commitments = {
        s.player: (s.deck_commitment, tuple(c.id for c in s.deck))
        for s in event.seats
        if s.deck_commitment
    }
    return MatchState(
        ruleset=rs,
        cards=cards,
        instances=instances,
        owners=owners,
        players=tuple(players),
        seats={p.id: i for i, p in enumerate(players)},
        live=len(players),
        first_player=event.first_player,
        started=True,
        commitments=commitments,
    )


def _turn_started(state: MatchState, event: TurnStarted) -> MatchState:
    player = event.player
    if player not in state.seats:
        # an unknown player (reported by check): the turn goes to whom it should
        fallback = state.next_player(state.active) if state.active else state.first_player
        event = event.model_copy(update={"player": fallback or next(iter(state.seats), "")})
    rs = state.ruleset
    records = state.records
    if rs is not None:
        # a cycle runs from the start of the controller's turn (OQ-27)
        records = {
            r: v
            for r, v in records.items()
            if r[3] != "ONCE_PER_CYCLE" or (rs.cycle_is_controller_turn and r[0] != event.player)
        }
    return replace(
        state,
        turn=event.turn,
        active=event.player,
        phase=None,
        step=None,
        done=frozenset(),
        priority=None,
        passes=0,
        records=records,
    )


def _phase_started(state: MatchState, phase: Phase) -> MatchState:
    st = replace(state, phase=phase, step=None, done=frozenset(), priority=state.active, passes=0)
    if phase == Phase.MAIN1:
        st = _collect_triggers(st, TriggerWhen.FIRST_MAIN_START, only=state.active)
    elif phase == Phase.MAIN2:
        # a log that skipped step 10 leaves orphaned guards: they are Stray from here on
        perms = state.permanents
        if any(c.where == "ORPHAN" for c in perms.values()):
            perms = {
                k: (replace(c, where="STRAY") if c.where == "ORPHAN" else c)
                for k, c in perms.items()
            }
        st = replace(st, combat=NO_COMBAT, permanents=perms)
    return st


def _step_started(state: MatchState, step: Step) -> MatchState:
    """A step begins; "at the beginning of combat", "at the end of combat" and "at the end of
    the turn" triggers of every player's cards go on the register (R-CMB-1, R-CMB-33, R-END-1:
    unlike R-MAIN-3's "your first Main Phase", they are not limited to the active player)."""
    st = replace(state, step=step, done=frozenset(), priority=state.active, passes=0)
    if step == Step.C1:
        st = _collect_triggers(st, TriggerWhen.COMBAT_START)
    elif step == Step.C10:
        st = _collect_triggers(st, TriggerWhen.COMBAT_END)
    elif step == Step.END_WINDOW:
        st = _collect_triggers(st, TriggerWhen.TURN_END)
    return st


def _turn_ended(state: MatchState) -> MatchState:
    """Turn change: stats revert, effects end, Fatigue wears off (R-END-5, R-SKL-11, OQ-28)."""
    perms = {
        k: (replace(c, fatigued=False, damage=0) if c.fatigued or c.damage else c)
        for k, c in state.permanents.items()
    }
    mods = tuple(m for m in state.modifiers if m.expires == Expiry.PERMANENT)
    records = {r: v for r, v in state.records.items() if r[3] != "ONCE_PER_TURN"}
    if state.ruleset is not None and not state.ruleset.cycle_is_controller_turn:
        records = {r: v for r, v in records.items() if r[3] != "ONCE_PER_CYCLE"}
    return replace(
        state,
        permanents=perms,
        modifiers=mods,
        records=records,
        phase=None,
        step=None,
        done=frozenset({"turn_ended"}),
        priority=None,
        passes=0,
        combat=NO_COMBAT,
        stray_territory=None,
        pending_cost=None,
    )


def _placed(state: MatchState, event: PropertyPlaced) -> MatchState:
    card = state.permanents.get(event.card)
    if card is None:
        return state
    perms = dict(state.permanents)
    perms[event.card] = replace(card, where="GUARD", territory=event.territory)
    st = replace(state, permanents=perms)
    if event.territory not in state.permanents:
        return st
    return st


def _unplaced(state: MatchState, player: str) -> MatchState:
    """At the end of the Unslide step, Return Home/Stray Followers that were not placed go to the
    Graveyard where the ruleset says so (OQ-14); by default they stay."""
    rs = state.ruleset
    if rs is None or not rs.unplaceable_to_graveyard or state.phase != Phase.PREP:
        return state
    left = [
        c.id
        for c in state.permanents.values()
        if c.controller == player and c.where in ("RETURN_HOME", "STRAY")
    ]
    return _to_graveyard(state, left) if left else state


def _cost_paid(state: MatchState, event: CostPaid) -> MatchState:
    p = state.player(event.player)
    st = _player(state, event.player, gold=max(0, p.gold - event.gold))
    if event.slid:
        slid = set(event.slid)
        perms = {k: (replace(c, slid=True) if k in slid else c) for k, c in st.permanents.items()}
        st = replace(st, permanents=perms)
    return replace(
        st,
        pending_cost=PendingCost(event.player, event.card, event.skill, event.gold, event.slid),
        done=st.done | {_WINDOW_ACTIVITY},
    )


def _summoned(state: MatchState, event: CardSummoned) -> MatchState:
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
    )
    return replace(
        st,
        register=(*st.register, obj),
        objects=st.objects + 1,
        pending_cost=None,
        priority=event.player,
        passes=0,
        done=st.done | {_WINDOW_ACTIVITY},
    )


def _is_action(state: MatchState, card: str) -> bool:
    return state.defn(card).type == CardType.ACTION


def _record_key(state: MatchState, controller: str, card: str) -> str:
    rs = state.ruleset
    if rs is not None and rs.restriction_key == "CARD":
        return card
    return state.defn(card).name


def _skill_registered(state: MatchState, event: SkillRegistered) -> MatchState:
    obj = RegisterObject(
        id=event.object_id,
        kind=ObjectKind.ACTIVE_SKILL,
        controller=event.player,
        card=event.card,
        skill=event.skill,
        target=event.target,
    )
    records = state.records
    skill = state.defn(event.card).skill(event.skill) if event.card in state.instances else None
    if skill is not None and skill.restriction != "NONE":
        key = _record_key(state, event.player, event.card)
        records = {
            **records,
            (event.player, key, event.skill, str(skill.restriction)): (event.card, state.objects),
        }
    return replace(
        state,
        register=(*state.register, obj),
        objects=state.objects + 1,
        pending_cost=None,
        records=records,
        priority=event.player,
        passes=0,
        done=state.done | {_WINDOW_ACTIVITY},
    )


def _skill_triggered(state: MatchState, event: SkillTriggered) -> MatchState:
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
    records = state.records
    skill = state.defn(event.card).skill(event.skill) if event.card in state.instances else None
    if skill is not None and skill.restriction != "NONE":
        key = _record_key(state, event.player, event.card)
        records = {
            **records,
            (event.player, key, event.skill, str(skill.restriction)): (event.card, state.objects),
        }
    return _reset_priority(
        replace(
            state,
            register=(*state.register, obj),
            objects=state.objects + 1,
            triggers=tuple(remaining),
            records=records,
        )
    )


def _collect_triggers(
    state: MatchState,
    when: TriggerWhen,
    *,
    only: str | None = None,
    cards: Iterable[str] | None = None,
) -> MatchState:
    """Queue the triggered skills waiting for ``when`` on cards in play (R-REG-4); a skill whose
    condition fails or whose restriction is used up does not trigger (R-SKL-5, R-SKL-6)."""
    from vwlog.model.state import condition_holds

    found: list[Trigger] = []
    pool: Iterable[str] = cards if cards is not None else list(state.permanents)
    for cid in pool:
        perm = state.permanents.get(cid)
        if perm is None or (only is not None and perm.controller != only):
            continue
        for s in state.defn(cid).skills:
            if s.kind != SkillKind.TRIGGER or s.trigger != when:
                continue
            if not condition_holds(state, perm.controller, s.condition):
                continue
            if s.restriction != "NONE":
                key = _record_key(state, perm.controller, cid)
                if (perm.controller, key, s.id, str(s.restriction)) in state.records:
                    continue
            found.append(Trigger(perm.controller, cid, s.id))
    if not found:
        return state
    return replace(state, triggers=state.triggers + tuple(found))


def _attack_declared(state: MatchState, event: AttackDeclared) -> MatchState:
    attacks = {a.follower: a.target for a in event.attacks}
    perms = {k: (replace(c, slid=True) if k in attacks else c) for k, c in state.permanents.items()}
    st = replace(state, permanents=perms, combat=replace(state.combat, attacks=attacks))
    st = _collect_triggers(st, TriggerWhen.ATTACKS, cards=list(attacks))
    return _action_done(st, "declared")


def _blocks_assigned(state: MatchState, event: BlocksAssigned) -> MatchState:
    blocks = dict(state.combat.blocks)
    for b in event.blocks:
        blocks[b.blocker] = b.attacker
    st = replace(state, combat=replace(state.combat, blocks=blocks))
    st = _collect_triggers(st, TriggerWhen.BLOCKS, cards=[b.blocker for b in event.blocks])
    return _action_done(st, f"blocks:{event.player}")


def _resulted(state: MatchState, event: ObjectResulted) -> MatchState:
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
        st = replace(st, done=st.done | {"resulted"})
    return _reassess(_reset_priority(st))


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
    st = replace(state, permanents=perms)
    if d.type == CardType.TERRITORY:
        counts = dict(state.territory_counts)
        counts[obj.controller] = counts.get(obj.controller, 0) + 1
        st = replace(st, territory_counts=counts)
    if d.type == CardType.TERRITORY and any(
        c.where == "STRAY" and c.controller == obj.controller for c in st.permanents.values()
    ):
        st = replace(st, stray_territory=card)
    return _collect_triggers(st, TriggerWhen.ENTERS_PLAY, cards=[card])


def _apply_effect(state: MatchState, effect: Effect) -> MatchState:
    match effect:
        case StatChanged():
            if effect.card not in state.permanents:
                return state
            mod = Modifier(effect.card, effect.stat, effect.delta, effect.expires)
            return replace(state, modifiers=(*state.modifiers, mod))
        case GoldChanged():
            if not state.has_player(effect.player):
                return state
            gold = max(0, state.player(effect.player).gold + effect.delta)
            return _player(state, effect.player, gold=gold)
        case HonorChanged():
            if not state.has_player(effect.player):
                return state
            honor = max(0, state.player(effect.player).honor + effect.delta)
            return _player(state, effect.player, honor=honor)
        case CardsDrawn():
            if not state.has_player(effect.player):
                return state
            return _draw(state, effect.player, effect.cards)
        case CardMoved():
            return _move_from_play(state, effect.card, effect.to_zone)
        case DamageDealt():
            perm = state.permanents.get(effect.recipient)
            if perm is None:
                return state
            perms = dict(state.permanents)
            perms[effect.recipient] = replace(perm, damage=perm.damage + effect.amount)
            return replace(state, permanents=perms)
        case StatusChanged():
            perm = state.permanents.get(effect.card)
            if perm is None:
                return state
            perms = dict(state.permanents)
            perms[effect.card] = replace(perm, slid=effect.slid)
            return replace(state, permanents=perms)
        case _:
            assert_never(effect)


def _reassess(state: MatchState) -> MatchState:
    """Find Followers and Territories with fatal damage now (R-CMB-26, R-CMB-30)."""
    fatal = tuple(
        c.id
        for c in state.permanents.values()
        if c.damage > 0
        and c.where != "TERRITORY"
        and state.defn(c.id).type == CardType.FOLLOWER
        and c.damage >= state.stat(c.id, Stat.VIT)
    )
    doomed = tuple(
        c.id
        for c in state.permanents.values()
        if c.damage > 0 and c.where == "TERRITORY" and c.damage >= state.stat(c.id, Stat.DEFENSE)
    )
    if fatal == state.fatal and doomed == state.doomed:
        return state
    return replace(state, fatal=fatal, doomed=doomed)


def _clear_records(
    records: Mapping[tuple[str, str, str, str], tuple[str, int]], gone: Mapping[str, set[str]]
) -> Mapping[tuple[str, str, str, str], tuple[str, int]]:
    """A card going from play to the Graveyard clears its restriction records (R-SKL-9)."""
    if not records:
        return records
    return {r: v for r, v in records.items() if r[1] not in gone.get(r[0], set())}


def _to_graveyard(state: MatchState, cards: Iterable[str]) -> MatchState:
    """Cards in play go to their owners' Graveyards at once."""
    st = state
    for card in cards:
        st = _move_from_play(st, card, Zone.GRAVEYARD)
    return st


def _move_from_play(state: MatchState, card: str, zone: Zone) -> MatchState:
    perm = state.permanents.get(card)
    if perm is None:
        return state
    perms = {k: c for k, c in state.permanents.items() if k != card}
    counts = state.territory_counts
    if perm.where == "TERRITORY":
        counts = dict(counts)
        counts[perm.controller] = counts.get(perm.controller, 0) - 1
        # guards of a Territory that leaves play become Stray (R-CMB-35 analogue)
        perms = {
            k: (replace(c, where="STRAY", territory=None) if c.territory == card else c)
            for k, c in perms.items()
        }
    owner = state.owners.get(card, perm.controller)
    p = state.player(owner)
    zones: dict[str, object] = {}
    if zone == Zone.GRAVEYARD:
        zones["graveyard"] = (*p.graveyard, card)
    elif zone == Zone.HAND:
        zones["hand"] = (*p.hand, card)
    elif zone == Zone.FATE_DECK:
        zones["deck"] = (card, *p.deck)
    elif zone == Zone.SUBDECK:
        zones["subdeck"] = (*p.subdeck, card)
    st = replace(
        state,
        permanents=perms,
        territory_counts=counts,
        modifiers=tuple(m for m in state.modifiers if m.card != card),
    )
    if zones:
        st = _player(st, owner, **zones)
    if zone == Zone.GRAVEYARD:
        key = _record_key(state, perm.controller, card)
        st = replace(st, records=_clear_records(st.records, {perm.controller: {key}}))
    return st


def _territories_destroyed(state: MatchState, cards: tuple[str, ...]) -> MatchState:
    """Territories go to the Graveyard at once (R-CMB-30); their guards become Stray, in combat
    at step 10 (R-CMB-35, OQ-21, OQ-32); an opponent left without Territories gives the destroyer
    a Victory Point (R-VP-1, R-VP-2, OQ-9)."""
    rs = state.ruleset
    before = {p.id: state.territory_count(p.id) for p in state.players}
    gone = set(cards)
    perms: dict[str, Permanent] = {}
    to_grave: list[str] = []
    in_combat = state.phase == Phase.COMBAT
    for k, c in state.permanents.items():
        if k in gone:
            perms[k] = c  # leaves play below, through the Graveyard move
            continue
        if c.territory in gone:
            is_follower = state.defn(k).type == CardType.FOLLOWER
            keeps = (rs is None or rs.destroyed_guards_become_stray) and (
                is_follower or rs is None or rs.relics_become_stray
            )
            if not keeps:
                to_grave.append(k)
                perms[k] = c
                continue
            perms[k] = replace(c, where="ORPHAN" if in_combat else "STRAY", territory=None)
        else:
            perms[k] = c
    st = replace(state, permanents=perms, doomed=())
    st = _to_graveyard(st, [*cards, *to_grave])
    combat = st.combat
    if in_combat:
        combat = replace(combat, destroyed=combat.destroyed + cards)
    scorer = state.active if in_combat else state.destroyer
    if scorer is not None and rs is not None and rs.honor_per_territory_destroyed:
        lost = sum(
            1 for c in cards if c in state.permanents and state.permanents[c].controller != scorer
        )
        if lost:
            honor = st.player(scorer).honor + lost * rs.honor_per_territory_destroyed
            st = _player(st, scorer, honor=honor)
    vp_due = list(st.vp_due)
    if scorer is not None:
        for p in state.players:
            if before[p.id] >= 1 and not st.territory_count(p.id):
                if p.id == scorer:
                    continue
                if not in_combat and rs is not None and not rs.vp_outside_combat:
                    continue
                vp_due.append((scorer, p.id))
    st = replace(st, combat=combat, vp_due=tuple(vp_due))
    return _reassess(_reset_priority(st))


def capacity_used(state: MatchState, territory: str) -> int:
    """Property guarding a Territory that counts against its capacity (OQ-5)."""
    rs = state.ruleset
    if rs is None:
        return len(state.guards(territory))
    return sum(1 for g in state.guards(territory) if uses_capacity(rs, state, g.id))


def victory_of(event: MatchWon) -> Victory:
    """The victory type of a `MatchWon` event."""
    return event.victory
