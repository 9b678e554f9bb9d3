"""Helpers every family of the fold shares: change one player, hand priority back, mark an
action done, draw, move a card out of play, clear restriction records, find fatal damage, and
queue triggered skills.

Part of `vwlog.projections.board`; like it, these trust their input and never check legality.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.model.state import (
    HELD_ZONES,
    MatchState,
    Trigger,
    carried_key,
    condition_holds,
    record_key,
    replace,
)
from vwlog.model.types import CardType, SkillKind, Stat, TriggerWhen, Zone

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


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
    return state.with_priority(state.active, 0, state.done)


def _action_done(state: MatchState, tag: str) -> MatchState:
    return state.with_priority(state.active, 0, state.done | {tag})


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


def _is_action(state: MatchState, card: str) -> bool:
    return state.defn(card).type == CardType.ACTION


def _used(state: MatchState, controller: str, card: str, skill: str) -> MatchState:
    """A restricted skill was used: count the use on the property's record (R-SKL-6)."""
    s = state.defn(card).skill(skill) if card in state.instances else None
    if s is None or s.restriction == "NONE":
        return state
    key = record_key(controller, card, skill, str(s.restriction))
    _, uses = state.records.get(key, (card, 0))
    return replace(state, records={**state.records, key: (card, uses + 1)})


def _collect_triggers(
    state: MatchState,
    when: TriggerWhen,
    *,
    only: str | None = None,
    cards: Iterable[str] | None = None,
) -> MatchState:
    """Queue the triggered skills waiting for ``when`` on cards in play (R-REG-4); a skill whose
    condition fails or whose restriction is used up does not trigger (R-SKL-5, R-SKL-6)."""
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
                key = record_key(perm.controller, cid, s.id, str(s.restriction))
                if state.records.get(key, (cid, 0))[1] >= s.restriction_uses:
                    continue
            found.append(Trigger(perm.controller, cid, s.id))
    if not found:
        return state
    return replace(state, triggers=state.triggers + tuple(found))


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


def _records_leaving(
    state: MatchState, controller: str, card: str, zone: Zone
) -> Mapping[tuple[str, str, str, str], tuple[str, int]]:
    """A property leaving play takes its restriction records along: to the Graveyard they end
    (R-SKL-9, the next copy is new); back to hand, Fate Deck or subdeck they stay with its name,
    for the next copy its controller brings into play (R-SKL-8)."""
    mine = {r: v for r, v in state.records.items() if r[0] == controller and r[1] == card}
    if not mine:
        return state.records
    records = {r: v for r, v in state.records.items() if r not in mine}
    if zone != Zone.GRAVEYARD:
        name = state.defn(card).name
        for (who, _, skill, scope), (_, uses) in mine.items():
            records[carried_key(who, name, skill, scope)] = (card, uses)
    return records


def _records_entering(
    state: MatchState, controller: str, card: str
) -> Mapping[tuple[str, str, str, str], tuple[str, int]]:
    """A property entering play is recognised by a record carried by its name (R-SKL-8)."""
    name = state.defn(card).name
    carried = {
        r: v
        for r, v in state.records.items()
        if r[0] == controller and r[1] == carried_key(controller, name, r[2], r[3])[1]
    }
    if not carried:
        return state.records
    records = {r: v for r, v in state.records.items() if r not in carried}
    for (who, carried_name, skill, scope), (_, uses) in carried.items():
        # the user is the name now: the record was inherited, whichever copy comes back
        records[record_key(who, card, skill, scope)] = (carried_name, uses)
    return records


def _to_graveyard(state: MatchState, cards: Iterable[str]) -> MatchState:
    """Cards in play go to their owners' Graveyards at once."""
    st = state
    for card in cards:
        st = _move_from_play(st, card, Zone.GRAVEYARD)
    return st


def _move_from_play(
    state: MatchState, card: str, zone: Zone, *, bottom: bool = False
) -> MatchState:
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
        zones["deck"] = (*p.deck, card) if bottom else (card, *p.deck)
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
    return replace(st, records=_records_leaving(st, perm.controller, card, zone))


def _move_out_of_play(
    state: MatchState, card: str, from_zone: Zone, to_zone: Zone, *, bottom: bool = False
) -> MatchState:
    """A card moves between two of its owner's zones out of play (the Graveyard to the hand,
    the top of the Fate Deck to its bottom); a card that is not there stays where it is."""
    owner = state.owners.get(card)
    source, target = HELD_ZONES.get(from_zone), HELD_ZONES.get(to_zone)
    if owner is None or source is None or target is None:
        return state
    p = state.player(owner)
    held: tuple[str, ...] = getattr(p, source)
    if card not in held:
        return state
    st = _player(state, owner, **{source: tuple(c for c in held if c != card)})
    rest: tuple[str, ...] = getattr(st.player(owner), target)
    if to_zone == Zone.FATE_DECK and not bottom:
        return _player(st, owner, deck=(card, *rest))
    return _player(st, owner, **{target: (*rest, card)})


__all__: list[str] = []
