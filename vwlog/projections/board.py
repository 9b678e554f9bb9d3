"""How events change the board: ``evolve(state, event) -> state``.

Warning:
    `evolve` trusts its input, like python-chess's ``push``: it does not check legality (that is
    `vwlog.rules.check`). It never raises on an illegal but well-formed event; it records it as
    played, as far as the event makes sense, so a judge can read on.
"""

from __future__ import annotations

from typing import assert_never

from vwlog.events import (
    AnyEvent,
    AttackDeclared,
    AttackersEnteredBattle,
    BecameReturnHome,
    BecameStray,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardSummoned,
    CombatDamageRegistered,
    Conceded,
    CostPaid,
    DeckRevealed,
    DeploymentFinished,
    FollowerDamageAssigned,
    FollowersDestroyed,
    GoldProduced,
    HandLimitDiscarded,
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
    Allot,
    Marker,
    MatchState,
    RegisterObject,
    replace,
)
from vwlog.model.types import (
    Expiry,
    RulingKind,
    Victory,
)
from vwlog.projections.combat import _attack_declared, _blocks_assigned, _territories_destroyed
from vwlog.projections.fold import (
    _action_done,
    _draw,
    _player,
    _reassess,
    _reset_priority,
    _to_graveyard,
)
from vwlog.projections.register import (
    _apply_effect,
    _cost_paid,
    _resulted,
    _skill_registered,
    _skill_triggered,
    _summoned,
)
from vwlog.projections.turns import (
    _match_started,
    _phase_started,
    _placed,
    _step_started,
    _turn_ended,
    _turn_started,
    _unplaced,
)
from vwlog.rules.common import uses_capacity

INITIAL = MatchState()
"""The state before any event."""


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
            if Marker.WINDOW not in done:
                done = done | {Marker.WINDOW}
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
            done = state.done | {Marker.OPENING.of(event.player)}
            if all(Marker.OPENING.of(p.id) in done for p in state.players):
                return replace(st, done=frozenset(), opening_done=True)
            return replace(st, done=done)
        case TurnStarted():
            return _turn_started(state, event)
        case TurnEnded():
            return _turn_ended(state)
        case GoldProduced():
            st = _player(state, event.player, gold=state.player(event.player).gold + event.amount)
            return _action_done(st, Marker.PRODUCED)
        case SupplyChosen():
            return _action_done(state, Marker.SUPPLY.of(event.option))
        case SupplyTaken():
            st = _draw(state, event.player, event.cards)
            st = _player(st, event.player, gold=st.player(event.player).gold + event.gold)
            return _action_done(st, Marker.SUPPLY_TAKEN)
        case Unslid():
            cards = set(event.cards)
            perms = {
                k: (replace(c, slid=False) if k in cards else c)
                for k, c in state.permanents.items()
            }
            return _action_done(replace(state, permanents=perms), Marker.UNSLID)
        case PropertyPlaced():
            return _placed(state, event)
        case DeploymentFinished():
            return _action_done(_unplaced(state, event.player), Marker.DEPLOYED)
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
            return _action_done(replace(state, combat=combat), Marker.ATTACKERS)
        case AttackDeclared():
            return _attack_declared(state, event)
        case BlockersEnteredBattle():
            combat = replace(state.combat, blockers=state.combat.blockers + event.followers)
            return _action_done(replace(state, combat=combat), Marker.BLOCKERS.of(event.player))
        case BlocksAssigned():
            return _blocks_assigned(state, event)
        case FollowerDamageAssigned():
            allots = tuple(Allot(a.source, a.recipient, a.amount) for a in event.allocations)
            combat = replace(state.combat, allocations=state.combat.allocations + allots)
            return _action_done(replace(state, combat=combat), Marker.DAMAGE.of(event.player))
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
            return _action_done(st, Marker.REGISTERED)
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
            return _action_done(replace(state, permanents=perms), Marker.RETURNED)
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
            return replace(st, done=st.done | {Marker.DISCARDED.of(event.player)})
        case TurnCleanedUp():
            perms = {
                k: (replace(c, damage=0) if c.damage else c) for k, c in state.permanents.items()
            }
            mods = tuple(m for m in state.modifiers if m.expires != Expiry.END_OF_TURN)
            st = replace(state, permanents=perms, modifiers=mods, fatal=(), doomed=())
            return _action_done(st, Marker.CLEANED)
        case Conceded():
            st = replace(_player(state, event.player, out=True), out_by="CONCESSION")
            if state.priority == event.player:
                st = replace(st, priority=st.next_player(event.player), passes=0)
            return st
        case MatchWon():
            if not claim_holds(state, event):
                return state  # an illegal claim (R-VIC-*) is reported, never the result
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


def capacity_used(state: MatchState, territory: str) -> int:
    """Property guarding a Territory that counts against its capacity (OQ-5)."""
    rs = state.ruleset
    if rs is None:
        return len(state.guards(territory))
    return sum(1 for g in state.guards(territory) if uses_capacity(rs, state, g.id))


def victory_of(event: MatchWon) -> Victory:
    """The victory type of a `MatchWon` event."""
    return event.victory


def claim_holds(state: MatchState, event: MatchWon) -> bool:
    """Whether the claimed winner meets the claimed condition now (R-VIC-1..4, R-VIC-6): the
    fold applies only a victory that holds, so an illegal claim never becomes the result."""
    if not state.has_player(event.winner) or state.player(event.winner).out:
        return False
    rs = state.ruleset
    p = state.player(event.winner)
    team = {q.id for q in state.players if p.team is not None and q.team == p.team}
    if rs is not None and rs.team_wins_together and team:
        members = [state.player(q) for q in sorted(team)]
    else:
        members = [p]
    match event.victory:
        case Victory.MILITARY:
            return rs is None or any(m.vp >= rs.victory_vp for m in members)
        case Victory.POLITICAL:
            return rs is None or any(m.honor >= rs.victory_honor for m in members)
        case Victory.ABSOLUTE:
            need = rs.victory_territories if rs is not None else 0
            return any(state.territory_counts.get(m.id, 0) >= need for m in members)
    live = state.live_players()
    return all(q == p.id or q in team for q in live)


__all__ = [
    "INITIAL",
    "capacity_used",
    "evolve",
    "victory_of",
]
