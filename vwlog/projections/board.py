"""How events change the board: ``evolve(state, event) -> state``.

Warning:
    `evolve` trusts its input, like python-chess's ``push``: it does not check legality (that is
    `vwlog.rules.check`). It never raises on an illegal but well-formed event; it records it as
    played, as far as the event makes sense, so a judge can read on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from vwlog import events as ev
from vwlog.model.state import Allot, Marker, MatchState, RegisterObject, replace
from vwlog.model.types import Expiry, RulingKind, Victory
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
from vwlog.rules.common import handler_for, uses_capacity

INITIAL: Final = MatchState()
"""The state before any event."""


_VICTORY_EVENTS: Final = frozenset(
    (
        ev.ObjectResulted,
        ev.VictoryPointGained,
        ev.TerritoriesDestroyed,
        ev.FollowersDestroyed,
        ev.Conceded,
        ev.JudgeRulingIssued,
        ev.MatchStarted,
        ev.TurnStarted,
    )
)
"""Events after which a victory condition may newly hold (R-VIC-4: checked at once; at the
start of each turn too, so starting resources that already meet a condition win at once)."""


def evolve(state: MatchState, event: ev.AnyEvent) -> MatchState:
    """The board after ``event``. Exhaustive over the event union (one handler per class).

    An event that names a player or card the match does not have (already reported by
    `check`) leaves the board as it was: the fold records as played what it can and never
    raises on a well-formed event.
    """
    try:
        after = _evolve(state, event)
    except KeyError:
        after = state
    check = type(event) in _VICTORY_EVENTS
    if after.victory_check != check:
        after = replace(after, victory_check=check)
    return after


def _evolve(state: MatchState, event: ev.AnyEvent) -> MatchState:
    return handler_for(_EVOLVE, event)(state, event)


def _ev_priority_passed(state: MatchState, event: ev.PriorityPassed) -> MatchState:
    done = state.done
    if Marker.WINDOW not in done:
        done = done | {Marker.WINDOW}
    return state.with_priority(state.next_player(event.player), state.passes + 1, done)


def _ev_step_started(state: MatchState, event: ev.StepStarted) -> MatchState:
    return _step_started(state, event.step)


def _ev_phase_started(state: MatchState, event: ev.PhaseStarted) -> MatchState:
    return _phase_started(state, event.phase)


def _ev_match_started(state: MatchState, event: ev.MatchStarted) -> MatchState:
    return _match_started(event)


def _ev_opening_hand_drawn(state: MatchState, event: ev.OpeningHandDrawn) -> MatchState:
    st = _draw(state, event.player, event.cards)
    done = state.done | {Marker.OPENING.of(event.player)}
    if all(Marker.OPENING.of(p.id) in done for p in state.players):
        return replace(st, done=frozenset(), opening_done=True)
    return replace(st, done=done)


def _ev_turn_ended(state: MatchState, event: ev.TurnEnded) -> MatchState:
    return _turn_ended(state)


def _ev_gold_produced(state: MatchState, event: ev.GoldProduced) -> MatchState:
    st = _player(state, event.player, gold=state.player(event.player).gold + event.amount)
    return _action_done(st, Marker.PRODUCED)


def _ev_supply_chosen(state: MatchState, event: ev.SupplyChosen) -> MatchState:
    return _action_done(state, Marker.SUPPLY.of(event.option))


def _ev_supply_taken(state: MatchState, event: ev.SupplyTaken) -> MatchState:
    st = _draw(state, event.player, event.cards)
    st = _player(st, event.player, gold=st.player(event.player).gold + event.gold)
    return _action_done(st, Marker.SUPPLY_TAKEN)


def _ev_unslid(state: MatchState, event: ev.Unslid) -> MatchState:
    cards = set(event.cards)
    perms = {k: (replace(c, slid=False) if k in cards else c) for k, c in state.permanents.items()}
    return _action_done(replace(state, permanents=perms), Marker.UNSLID)


def _ev_deployment_finished(state: MatchState, event: ev.DeploymentFinished) -> MatchState:
    return _action_done(_unplaced(state, event.player), Marker.DEPLOYED)


def _ev_attackers_entered_battle(state: MatchState, event: ev.AttackersEnteredBattle) -> MatchState:
    combat = replace(state.combat, attackers=state.combat.attackers + event.followers)
    return _action_done(replace(state, combat=combat), Marker.ATTACKERS)


def _ev_blockers_entered_battle(state: MatchState, event: ev.BlockersEnteredBattle) -> MatchState:
    combat = replace(state.combat, blockers=state.combat.blockers + event.followers)
    return _action_done(replace(state, combat=combat), Marker.BLOCKERS.of(event.player))


def _ev_follower_damage_assigned(state: MatchState, event: ev.FollowerDamageAssigned) -> MatchState:
    allots = tuple(Allot(a.source, a.recipient, a.amount) for a in event.allocations)
    combat = replace(state.combat, allocations=state.combat.allocations + allots)
    return _action_done(replace(state, combat=combat), Marker.DAMAGE.of(event.player))


def _ev_combat_damage_registered(state: MatchState, event: ev.CombatDamageRegistered) -> MatchState:
    obj = RegisterObject(
        id=event.object_id,
        kind=str(event.kind),
        controller=state.active or "",
        allocations=tuple(Allot(a.source, a.recipient, a.amount) for a in event.allocations),
    )
    st = replace(
        state,
        register=(*state.register, obj),
        objects=state.objects + 1,
        combat=replace(state.combat, allocations=()),
    )
    return _action_done(st, Marker.REGISTERED)


def _ev_followers_destroyed(state: MatchState, event: ev.FollowersDestroyed) -> MatchState:
    st = _to_graveyard(state, event.cards)
    return _reassess(replace(st, fatal=()))


def _ev_territories_destroyed(state: MatchState, event: ev.TerritoriesDestroyed) -> MatchState:
    return _territories_destroyed(state, event.cards)


def _ev_victory_point_gained(state: MatchState, event: ev.VictoryPointGained) -> MatchState:
    st = _player(state, event.player, vp=state.player(event.player).vp + 1)
    return _reset_priority(replace(st, vp_due=state.vp_due[1:]))


def _ev_became_return_home(state: MatchState, event: ev.BecameReturnHome) -> MatchState:
    cards = set(event.cards)
    perms = {
        k: (replace(c, where="RETURN_HOME", territory=None, slid=True) if k in cards else c)
        for k, c in state.permanents.items()
    }
    return _action_done(replace(state, permanents=perms), Marker.RETURNED)


def _ev_became_stray(state: MatchState, event: ev.BecameStray) -> MatchState:
    cards = set(event.cards)
    perms = {
        k: (replace(c, where="STRAY", territory=None) if k in cards else c)
        for k, c in state.permanents.items()
    }
    return _reset_priority(replace(state, permanents=perms))


def _ev_hand_limit_discarded(state: MatchState, event: ev.HandLimitDiscarded) -> MatchState:
    p = state.player(event.player)
    gone = set(event.cards)
    st = _player(
        state,
        event.player,
        hand=tuple(c for c in p.hand if c not in gone),
        graveyard=p.graveyard + tuple(c for c in event.cards if c in p.hand),
    )
    return replace(st, done=st.done | {Marker.DISCARDED.of(event.player)})


def _ev_turn_cleaned_up(state: MatchState, event: ev.TurnCleanedUp) -> MatchState:
    perms = {k: (replace(c, damage=0) if c.damage else c) for k, c in state.permanents.items()}
    mods = tuple(m for m in state.modifiers if m.expires != Expiry.END_OF_TURN)
    st = replace(state, permanents=perms, modifiers=mods, fatal=(), doomed=())
    return _action_done(st, Marker.CLEANED)


def _ev_conceded(state: MatchState, event: ev.Conceded) -> MatchState:
    st = replace(_player(state, event.player, out=True), out_by="CONCESSION")
    if state.priority == event.player:
        st = replace(st, priority=st.next_player(event.player), passes=0)
    return st


def _ev_match_won(state: MatchState, event: ev.MatchWon) -> MatchState:
    if not claim_holds(state, event):
        return state  # an illegal claim (R-VIC-*) is reported, never the result
    return replace(state, winner=event.winner, victory=str(event.victory), priority=None)


def _ev_deck_revealed(state: MatchState, event: ev.DeckRevealed) -> MatchState:
    return replace(state, revealed=state.revealed | {event.player})


def _ev_judge_ruling_issued(state: MatchState, event: ev.JudgeRulingIssued) -> MatchState:
    if event.kind == RulingKind.GAME_LOSS and event.loser and state.has_player(event.loser):
        return replace(_player(state, event.loser, out=True), out_by="JUDGE")
    if event.kind == RulingKind.PARTIAL_FIX and event.corrections:
        st = state
        for effect in event.corrections:
            st = _apply_effect(st, effect)
        return _reassess(st)
    return state


def _ev_unchanged(
    state: MatchState, event: ev.MatchForked | ev.MatchSealed | ev.RecordSigned
) -> MatchState:
    """A fork marker, the seal and its signatures: no game facts, the board stays."""
    return state


_EVOLVE: Final[dict[type, Callable[[MatchState, Any], MatchState]]] = {
    ev.PriorityPassed: _ev_priority_passed,
    ev.StepStarted: _ev_step_started,
    ev.PhaseStarted: _ev_phase_started,
    ev.MatchStarted: _ev_match_started,
    ev.OpeningHandDrawn: _ev_opening_hand_drawn,
    ev.TurnStarted: _turn_started,
    ev.TurnEnded: _ev_turn_ended,
    ev.GoldProduced: _ev_gold_produced,
    ev.SupplyChosen: _ev_supply_chosen,
    ev.SupplyTaken: _ev_supply_taken,
    ev.Unslid: _ev_unslid,
    ev.PropertyPlaced: _placed,
    ev.DeploymentFinished: _ev_deployment_finished,
    ev.CostPaid: _cost_paid,
    ev.CardSummoned: _summoned,
    ev.SkillRegistered: _skill_registered,
    ev.SkillTriggered: _skill_triggered,
    ev.ObjectResulted: _resulted,
    ev.AttackersEnteredBattle: _ev_attackers_entered_battle,
    ev.AttackDeclared: _attack_declared,
    ev.BlockersEnteredBattle: _ev_blockers_entered_battle,
    ev.BlocksAssigned: _blocks_assigned,
    ev.FollowerDamageAssigned: _ev_follower_damage_assigned,
    ev.CombatDamageRegistered: _ev_combat_damage_registered,
    ev.FollowersDestroyed: _ev_followers_destroyed,
    ev.TerritoriesDestroyed: _ev_territories_destroyed,
    ev.VictoryPointGained: _ev_victory_point_gained,
    ev.BecameReturnHome: _ev_became_return_home,
    ev.BecameStray: _ev_became_stray,
    ev.HandLimitDiscarded: _ev_hand_limit_discarded,
    ev.TurnCleanedUp: _ev_turn_cleaned_up,
    ev.Conceded: _ev_conceded,
    ev.MatchWon: _ev_match_won,
    ev.DeckRevealed: _ev_deck_revealed,
    ev.JudgeRulingIssued: _ev_judge_ruling_issued,
    ev.MatchForked: _ev_unchanged,
    ev.MatchSealed: _ev_unchanged,
    ev.RecordSigned: _ev_unchanged,
}
"""One handler per event class, looked up by the event's exact type: pydantic's metaclass is
an ABCMeta, so a chain of failed ``isinstance`` checks (a class-pattern ``match``) costs far
more per event than one dict lookup."""


def capacity_used(state: MatchState, territory: str) -> int:
    """Property guarding a Territory that counts against its capacity (OQ-5)."""
    rs = state.ruleset
    if rs is None:
        return len(state.guards(territory))
    return sum(1 for g in state.guards(territory) if uses_capacity(rs, state, g.id))


def victory_of(event: ev.MatchWon) -> Victory:
    """The victory type of a `MatchWon` event."""
    return event.victory


def claim_holds(state: MatchState, event: ev.MatchWon) -> bool:
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
