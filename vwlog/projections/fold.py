"""Helpers every family of the fold shares: change one player, hand priority back, mark an
action done, draw, move a card out of play, clear restriction records, find fatal damage, and
queue triggered skills.

Part of `vwlog.projections.board`; like it, these trust their input and never check legality.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.model.state import (
    MatchState,
    Trigger,
    replace,
)
from vwlog.model.types import (
    CardType,
    SkillKind,
    Stat,
    TriggerWhen,
    Zone,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


_WINDOW_ACTIVITY = "window"


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


def _is_action(state: MatchState, card: str) -> bool:
    return state.defn(card).type == CardType.ACTION


def _record_key(state: MatchState, controller: str, card: str) -> str:
    rs = state.ruleset
    if rs is not None and rs.restriction_key == "CARD":
        return card
    return state.defn(card).name


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


__all__: list[str] = []
