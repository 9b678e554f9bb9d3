"""Judging L5R events: the match start, the players' decisions (armies, battlefields,
opportunities) and the consequences (`vwlog.games.l5r.consequences`); the catch-up of
consequences a log left out.
"""

from __future__ import annotations

from typing import Any

from vwlog.events.core import MatchForked
from vwlog.games.common import wrong
from vwlog.games.l5r.consequences import SCOPES, consequence, missing, side_word, violation
from vwlog.games.l5r.events import (
    DECISION_TYPES,
    ArmiesDeclared,
    BattleActionResolved,
    BattleActionTaken,
    BattlefieldChosen,
    L5rStarted,
)
from vwlog.games.l5r.expect import chooser, expect, owed_battlefields
from vwlog.games.l5r.resolution import already_resolved, limit_flag, same
from vwlog.games.l5r.ruleset import L5rRuleset
from vwlog.games.l5r.state import DISCARD, Battle, Board, Card, evolve
from vwlog.model.expect import Expect
from vwlog.model.violation import Violation

CATCH_UP_LIMIT = 64
"""Most consequences one catch-up applies (a Resolution plans fewer than a dozen)."""


def judge(rs: L5rRuleset, s: Board, exp: Expect, e: Any) -> tuple[Violation, ...]:
    """The rules ``e`` breaks, most specific first; never raises."""
    t = type(e)
    if not s.started:
        if t is L5rStarted:
            return _start(e)
        return wrong("CORE-LOG-1", "a match begins with match_started")
    if t is L5rStarted:
        return wrong("CORE-LOG-1", "the match has already started")
    if t is MatchForked:
        if exp.kind == "opportunity":
            return ()
        return wrong("CORE-FORK-1", "a match is forked only at an opportunity")
    if any(same(c, e) for c in exp.consequences):
        return ()
    if t in DECISION_TYPES:
        player = getattr(e, "player", None)
        if player is not None and player not in s.players:
            return wrong("CORE-ID-1", "unknown player {player}", player=player)
        if exp.kind is None and exp.consequences:
            return (missing(rs, s, exp.consequences[0], e),)
        return _decision(rs, s, exp, e)
    if t is BattleActionResolved:
        return _resolved(rs, s, e)
    return (consequence(rs, s, exp.consequences, e),)


def _start(e: L5rStarted) -> tuple[Violation, ...]:
    found: list[Violation] = []
    if e.players[0] == e.players[1]:
        found.append(violation("CORE-ID-1", "a match has two different players"))
    ids = [c.id for c in e.cards]
    for name in sorted({i for i in ids if ids.count(i) > 1}):
        found.append(violation("CORE-ID-2", "card {card} is listed twice", card=name))
    for owner in sorted(
        {c.owner for c in e.cards} | {p.owner for p in e.provinces} - set(e.players)
    ):
        if owner not in e.players:
            found.append(violation("CORE-ID-1", "unknown player {player}", player=owner))
    return tuple(found)


def _decision(rs: L5rRuleset, s: Board, exp: Expect, e: Any) -> tuple[Violation, ...]:
    if isinstance(e, ArmiesDeclared):
        return _armies(s, exp, e)
    if isinstance(e, BattlefieldChosen):
        return _battlefield(rs, s, exp, e)
    return _opportunity(rs, s, exp, e)


def _armies(s: Board, exp: Expect, e: ArmiesDeclared) -> tuple[Violation, ...]:
    if exp.kind != "armies":
        if not s.in_phase:
            return wrong("L5R-BTL-4", "armies are declared in an Attack phase")
        return wrong("L5R-BTL-2", "the armies are declared once, before the first battle")
    found: list[Violation] = []
    seen: set[str] = set()
    for a in e.assignments:
        card = s.cards.get(a.unit)
        player = s.attacker if a.side == "ATTACKER" else s.defender
        province = s.province_at(a.battlefield)
        if card is None:
            found.append(violation("CORE-ID-2", "unknown card {card}", card=a.unit))
        elif not card.is_unit or card.at == DISCARD:
            found.append(
                violation("L5R-BTL-2", "{card} is no Personality or Follower in play", card=a.unit)
            )
        elif card.owner != player:
            found.append(
                violation(
                    "L5R-BTL-2",
                    "{card} is {owner}'s: it cannot join the {side} army",
                    card=a.unit,
                    owner=card.owner,
                    side=side_word(a.side),
                )
            )
        elif province is None or province.owner != s.defender or province.destroyed:
            found.append(
                violation(
                    "L5R-BTL-2",
                    "{battlefield} is not a battlefield of the defender {defender}",
                    battlefield=a.battlefield,
                    defender=s.defender,
                )
            )
        elif a.unit in seen:
            found.append(violation("L5R-BTL-2", "{card} is assigned twice", card=a.unit))
        seen.add(a.unit)
    return tuple(found)


def _battlefield(
    rs: L5rRuleset, s: Board, exp: Expect, e: BattlefieldChosen
) -> tuple[Violation, ...]:
    b = s.battle
    if b is not None:
        return wrong(
            "L5R-BTL-5",
            "battle {battle} at {battlefield} has not ended",
            battle=b.number if b.segment != "START" else s.battles + 1,
            battlefield=b.battlefield,
        )
    if not s.in_phase:
        return _effect_battle(rs, s, e)
    if e.cause is not None:
        return wrong(
            "L5R-BTL-4",
            "a battle of the Attack phase is chosen, not created by {cause}",
            cause=e.cause,
        )
    if exp.kind == "armies":
        return wrong("L5R-BTL-2", "the armies are declared before a battlefield is chosen")
    want = chooser(rs, s)
    if want is not None and e.player != want:
        return wrong(
            "L5R-BTL-1",
            "{chooser} chooses the battlefield, not {player}",
            flag="battlefield_chooser",
            chooser=want,
            player=e.player,
        )
    return _battlefield_place(rs, s, e)


def _battlefield_place(rs: L5rRuleset, s: Board, e: BattlefieldChosen) -> tuple[Violation, ...]:
    province = s.province_at(e.battlefield)
    if province is None or province.owner != s.defender or province.destroyed:
        return wrong(
            "L5R-BTL-1",
            "{battlefield} is not a battlefield of the defender {defender}",
            battlefield=e.battlefield,
            defender=s.defender,
        )
    if e.battlefield in s.fought:
        return wrong(
            "L5R-BTL-5",
            "a battle was already fought at {battlefield} this Attack phase",
            battlefield=e.battlefield,
        )
    if rs.battles_owed == "EVERY_ASSIGNED_BATTLEFIELD" and e.battlefield not in owed_battlefields(
        rs, s
    ):
        return wrong(
            "L5R-BTL-1",
            "no battle is owed at {battlefield}: the attacker assigned no unit there",
            flag="battles_owed",
            battlefield=e.battlefield,
        )
    return ()


def _effect_battle(rs: L5rRuleset, s: Board, e: BattlefieldChosen) -> tuple[Violation, ...]:
    if e.cause is None:
        return wrong(
            "L5R-BTL-4",
            "no Attack phase is running: a battle outside it names the effect that creates it",
        )
    card = s.cards.get(e.cause)
    if card is None or card.owner != e.player or card.at == DISCARD:
        return wrong(
            "L5R-BTL-4",
            "{cause} is not a card {player} has in play",
            cause=e.cause,
            player=e.player,
        )
    province = s.province_at(e.battlefield)
    if province is None or province.destroyed:
        return wrong("L5R-BTL-1", "no battlefield {battlefield}", battlefield=e.battlefield)
    if rs.effect_battle_roles == "CONTROLLER_ATTACKS" and province.owner == e.player:
        return wrong(
            "L5R-BTL-4",
            "{player} attacks: the battlefield must be the other player's",
            flag="effect_battle_roles",
            player=e.player,
        )
    return ()


def _opportunity(rs: L5rRuleset, s: Board, exp: Expect, e: Any) -> tuple[Violation, ...]:
    b = s.battle
    if b is None:
        return wrong("L5R-BTL-3", "no battle is being fought")
    if exp.kind != "opportunity":
        if b.segment == "START":
            return wrong(
                "L5R-BTL-1",
                "the battle at {battlefield} has not begun",
                battlefield=b.battlefield,
            )
        if b.segment == "RESOLUTION":
            return wrong("L5R-CMB-3", "both players passed in a row: Combat is over")
        pending = b.pending
        return wrong(
            "L5R-CMB-2",
            "the action of {card} is resolved before the next opportunity",
            card=pending.card if pending is not None else "?",
        )
    if e.player != b.to_act:
        if not b.opened:
            return wrong(
                "L5R-CMB-1",
                "the defender {defender} has the first opportunity, not {player}",
                defender=b.to_act,
                player=e.player,
            )
        return wrong(
            "L5R-CMB-2",
            "the opportunity is {who}'s, not {player}'s",
            who=b.to_act,
            player=e.player,
        )
    if isinstance(e, BattleActionTaken):
        return _action(rs, s, b, e)
    return ()


def where(s: Board, card: Card) -> str:
    """Where a card is: an attachment is where its unit is."""
    if card.attached_to is not None and card.attached_to in s.cards:
        return s.cards[card.attached_to].at
    return card.at


def _action(rs: L5rRuleset, s: Board, b: Battle, e: BattleActionTaken) -> tuple[Violation, ...]:
    card = s.cards.get(e.card)
    if card is None or card.owner != e.player or card.at == DISCARD:
        return wrong(
            "CORE-ID-2", "{player} has no card {card} in play", player=e.player, card=e.card
        )
    ability = next((a for a in card.actions if a.name == e.ability), None)
    if ability is None:
        return wrong("CORE-ID-2", "{card} has no action {ability}", card=e.card, ability=e.ability)
    if not ability.battle:
        return wrong(
            "L5R-CMB-4",
            "{ability} of {card} is not a Battle action",
            card=e.card,
            ability=e.ability,
        )
    if e.brings and not ability.brings_unit:
        return wrong(
            "L5R-CMB-7",
            "{ability} of {card} cannot bring a unit into the battle",
            card=e.card,
            ability=e.ability,
        )
    for name in (*e.brings, *e.targets, *((e.source_unit,) if e.source_unit else ())):
        if name not in s.cards:
            return wrong("CORE-ID-2", "unknown card {card}", card=name)
    for name in e.brings:
        brought = s.cards[name]
        if already_resolved(s, brought, rs):
            return (_resolved_before(rs, s, name),)
    return _presence_and_location(rs, s, b, e, exempt=ability.brings_unit)


def _resolved_before(rs: L5rRuleset, s: Board, name: str) -> Violation:
    return violation(
        "L5R-CMB-8",
        "{card} already took part in the Resolution of a battle this {scope}",
        flag=limit_flag(s, name),
        card=name,
        scope=SCOPES.get(rs.personality_limit_scope, rs.personality_limit_scope.lower()),
    )


def _presence_and_location(
    rs: L5rRuleset, s: Board, b: Battle, e: BattleActionTaken, *, exempt: bool
) -> tuple[Violation, ...]:
    """The presence rule (L5R-CMB-5) and the location rule (L5R-CMB-6), with the exemption
    of an action that can bring a unit in (L5R-CMB-7, flag ``bring_in_exemption``)."""
    if exempt and rs.bring_in_exemption == "WHOLE_ACTION":
        return ()
    flag = "bring_in_exemption" if exempt else None
    if not exempt and not any(
        c.is_unit and c.owner == e.player and c.at == b.battlefield for c in s.cards.values()
    ):
        return wrong(
            "L5R-CMB-5",
            "{player} has no unit in the battle at {battlefield}",
            player=e.player,
            battlefield=b.battlefield,
        )
    names = ((e.source_unit,) if e.source_unit else ()) + tuple(
        t for t in e.targets if t not in e.brings
    )
    for name in names:
        if where(s, s.cards[name]) != b.battlefield:
            return wrong(
                "L5R-CMB-6",
                "{card} is not at the battlefield {battlefield}",
                flag=flag,
                card=name,
                battlefield=b.battlefield,
            )
    return ()


def _resolved(rs: L5rRuleset, s: Board, e: BattleActionResolved) -> tuple[Violation, ...]:
    b = s.battle
    pending = b.pending if b is not None else None
    if pending is None:
        return wrong("L5R-CMB-2", "no action awaits its resolution")
    if (e.card, e.ability) != (pending.card, pending.ability):
        return wrong(
            "L5R-CMB-2",
            "the action awaiting its resolution is {ability} of {card}",
            card=pending.card,
            ability=pending.ability,
        )
    for fx in e.effects:
        unit = s.cards.get(fx.unit)
        if unit is None:
            return wrong("CORE-ID-2", "unknown card {card}", card=fx.unit)
        if fx.kind != "unit_entered_battle":
            continue
        if fx.unit not in pending.brings:
            return wrong(
                "L5R-CMB-7",
                "the action did not name {card} to bring into the battle",
                card=fx.unit,
            )
        if already_resolved(s, unit, rs):
            return (_resolved_before(rs, s, fx.unit),)
    return ()


def catch_up(rs: L5rRuleset, s: Board, e: Any) -> Board:
    """The board after the consequences a log left out before ``e``, if applying them makes
    ``e`` fit; otherwise ``s`` as it is (a consequence of the demanded type with other values
    is no omission)."""
    st = s
    for _ in range(CATCH_UP_LIMIT):
        exp = expect(rs, st)
        if any(same(c, e) for c in exp.consequences):
            return st
        if not exp.consequences or any(type(c) is type(e) for c in exp.consequences):
            return st if st is not s and not judge(rs, st, exp, e) else s
        if exp.kind is not None and not judge(rs, st, exp, e):
            return st
        st = evolve(st, exp.consequences[0])
    return s


__all__ = ["catch_up", "judge", "where"]
