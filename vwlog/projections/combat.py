"""The fold for combat: attacks declared, blocks assigned, Territories destroyed with their
guards and Victory Points (R-CMB-*, R-VP-*).

Part of `vwlog.projections.board`; like it, these trust their input and never check legality.
"""

from __future__ import annotations

from vwlog.events import AttackDeclared, BlocksAssigned
from vwlog.model.state import Marker, MatchState, Permanent, replace
from vwlog.model.types import CardType, Phase, TriggerWhen
from vwlog.projections.fold import (
    _action_done,
    _collect_triggers,
    _player,
    _reassess,
    _reset_priority,
    _to_graveyard,
)


def _attack_declared(state: MatchState, event: AttackDeclared) -> MatchState:
    attacks = {a.follower: a.target for a in event.attacks}
    perms = {k: (replace(c, slid=True) if k in attacks else c) for k, c in state.permanents.items()}
    st = replace(state, permanents=perms, combat=replace(state.combat, attacks=attacks))
    st = _collect_triggers(st, TriggerWhen.ATTACKS, cards=list(attacks))
    return _action_done(st, Marker.DECLARED)


def _blocks_assigned(state: MatchState, event: BlocksAssigned) -> MatchState:
    blocks = dict(state.combat.blocks)
    for b in event.blocks:
        blocks[b.blocker] = b.attacker
    st = replace(state, combat=replace(state.combat, blocks=blocks))
    st = _collect_triggers(st, TriggerWhen.BLOCKS, cards=[b.blocker for b in event.blocks])
    return _action_done(st, Marker.BLOCKS.of(event.player))


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
    if scorer is not None:
        lost = sum(
            1 for c in cards if c in state.permanents and state.permanents[c].controller != scorer
        )
        if lost:  # counted under every reading of OQ-7, so a verdict on honor can name it
            per = rs.honor_per_territory_destroyed if rs is not None else 0
            p = st.player(scorer)
            st = _player(st, scorer, honor=p.honor + lost * per, taken=p.taken + lost)
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


__all__: list[str] = []
