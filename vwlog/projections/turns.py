"""The fold for the match and its turn structure: the match starts, turns, phases and steps
begin and end, Property is placed in the Unslide step or the Deploy phase.

Part of `vwlog.projections.board`; like it, these trust their input and never check legality.
"""

from __future__ import annotations

from vwlog.events import MatchStarted, PropertyPlaced, TurnStarted
from vwlog.model.state import NO_COMBAT, Marker, MatchState, PlayerState, replace
from vwlog.model.types import Expiry, Phase, Step, TriggerWhen
from vwlog.projections.fold import _collect_triggers, _to_graveyard


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
    first: str | None = event.first_player
    if not any(p.id == first for p in players):
        # a first player without a seat (R-SET-1, reported by check): the first turn goes to
        # the first seat, so that every player the board names is one the match has
        first = players[0].id if players else None
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
        first_player=first,
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
    # no step yet; a Territory is new only in the Main Phase it arrived in
    st = state.at_step(phase, None, None)
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
    st = state.at_step(state.phase, step, state.stray_territory)
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
        done=frozenset({Marker.TURN_ENDED}),
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


__all__: list[str] = []
