"""A seeded generator of legal L5R battle records: a table of cards and Provinces, then Attack
phases whose armies, battlefields and opportunities are chosen at random among the legal ones,
with every consequence as the rules demand it (`vwlog.games.l5r.expect`).

``generate(seed)`` gives the events of one record; the same seed gives the same record.
"""

from __future__ import annotations

import random
from typing import Any

from vwlog.games.l5r.events import (
    ActionDef,
    ArmiesDeclared,
    Assignment,
    BattleActionResolved,
    BattleActionTaken,
    BattlefieldChosen,
    CardDef,
    CardKind,
    Effect,
    L5rStarted,
    OpportunityPassed,
    ProvinceDef,
    Side,
)
from vwlog.games.l5r.expect import chooser, expect, owed_battlefields
from vwlog.games.l5r.resolution import already_resolved
from vwlog.games.l5r.ruleset import L5rRuleset
from vwlog.games.l5r.state import DISCARD, HOME, Battle, Board, evolve

PLAYERS = ("p1", "p2")
ACTIONS = (
    ActionDef(name="bow"),
    ActionDef(name="strike"),
    ActionDef(name="rally", brings_unit=True),
    ActionDef(name="plan", battle=False),
)
STEP_LIMIT = 2000
"""Most events one record holds (a guard: a record ends long before)."""


def _table(rng: random.Random) -> tuple[list[CardDef], list[ProvinceDef]]:
    cards: list[CardDef] = []
    provinces: list[ProvinceDef] = []
    for p in PLAYERS:
        units = [f"{p}u{i}" for i in range(rng.randint(2, 6))]
        for u in units:
            kind: CardKind = rng.choice(("PERSONALITY", "PERSONALITY", "FOLLOWER"))
            bowed = rng.random() < 0.15
            cards.append(CardDef(id=u, owner=p, kind=kind, force=rng.randint(0, 5), bowed=bowed))
        for i in range(rng.randint(0, 2)):
            cards.append(
                CardDef(id=f"{p}t{i}", owner=p, kind="ATTACHMENT", attached_to=rng.choice(units))
            )
        cards.append(CardDef(id=f"{p}s", owner=p, kind="STRATEGY", actions=ACTIONS))
        for i in range(rng.randint(1, 3)):
            provinces.append(
                ProvinceDef(
                    id=f"{p}prov{i}",
                    owner=p,
                    strength=rng.randint(1, 6),
                    battlefield=f"{p}b{i}",
                    cards=tuple(f"{p}h{i}{j}" for j in range(rng.randint(0, 2))),
                    regions=tuple(f"{p}r{i}" for _ in range(rng.randint(0, 1))),
                )
            )
    return cards, provinces


def armies(rng: random.Random, s: Board) -> ArmiesDeclared:
    fields = [
        p.battlefield for p in s.provinces.values() if p.owner == s.defender and not p.destroyed
    ]
    assigned: list[Assignment] = []
    for c in sorted(s.cards.values(), key=lambda c: c.id):
        if not c.is_unit or c.at != HOME or not fields or rng.random() < 0.3:
            continue
        side: Side = "ATTACKER" if c.owner == s.attacker else "DEFENDER"
        assigned.append(Assignment(unit=c.id, side=side, battlefield=rng.choice(fields)))
    return ArmiesDeclared(assignments=tuple(assigned))


def _battlefield(rng: random.Random, rs: L5rRuleset, s: Board) -> BattlefieldChosen | None:
    owed = sorted(owed_battlefields(rs, s))
    if rs.battles_owed == "AS_CHOSEN" and rng.random() < 0.6:
        owed = sorted(
            p.battlefield
            for p in s.provinces.values()
            if p.owner == s.defender and not p.destroyed and p.battlefield not in s.fought
        )
    if not owed:
        return None
    who = chooser(rs, s) or rng.choice(PLAYERS)
    return BattlefieldChosen(player=who, battlefield=rng.choice(owed))


def _at(s: Board, b: Battle, owner: str | None = None) -> list[str]:
    return sorted(
        c.id
        for c in s.cards.values()
        if c.is_unit and c.at == b.battlefield and (owner is None or c.owner == owner)
    )


def _opportunity(rng: random.Random, rs: L5rRuleset, s: Board, b: Battle) -> Any:
    player = b.to_act
    other = s.other(player)
    if rng.random() < 0.55:
        return OpportunityPassed(player=player)
    mine, theirs = _at(s, b, player), _at(s, b, other)
    options: list[BattleActionTaken] = []
    card = f"{player}s"
    if mine and theirs:
        source = rng.choice(mine) if rng.random() < 0.5 else None
        options.append(
            BattleActionTaken(
                player=player,
                card=card,
                ability="bow",
                source_unit=source,
                targets=(rng.choice(theirs),),
            )
        )
    if mine:
        options.append(
            BattleActionTaken(
                player=player, card=card, ability="strike", targets=(rng.choice(mine + theirs),)
            )
        )
    free = [
        c.id
        for c in s.cards.values()
        if c.is_unit and c.owner == player and c.at == HOME and not already_resolved(s, c, rs)
    ]
    if free:
        options.append(
            BattleActionTaken(
                player=player, card=card, ability="rally", brings=(rng.choice(sorted(free)),)
            )
        )
    return rng.choice(options) if options else OpportunityPassed(player=player)


def action_resolution(s: Board, taken: BattleActionTaken) -> BattleActionResolved:
    """The resolution of ``taken`` as this table's actions work (what play mode applies after
    an action, `vwlog.games.l5r.decisions`): the units it brings enter the battle; a ``bow``
    bows its targets; a ``strike`` takes 1 from the Force of an opposing target and adds 1 to
    the player's own. Any other action changes nothing beyond the units it brings."""
    effects = [Effect(kind="unit_entered_battle", unit=u) for u in taken.brings]
    for target in taken.targets:
        card = s.cards.get(target)
        if card is None:
            continue
        if taken.ability == "bow":
            effects.append(Effect(kind="unit_bowed", unit=target))
        elif taken.ability == "strike":
            delta = -1 if card.owner != taken.player else 1
            effects.append(Effect(kind="force_changed", unit=target, delta=delta))
    return BattleActionResolved(card=taken.card, ability=taken.ability, effects=tuple(effects))


def _decide(rng: random.Random, rs: L5rRuleset, s: Board, kind: str | None) -> Any:
    b = s.battle
    if kind == "armies":
        return armies(rng, s)
    if kind == "battlefield":
        return _battlefield(rng, rs, s)
    if kind == "resolve" and b is not None and b.pending is not None:
        return action_resolution(s, b.pending)
    if kind == "opportunity" and b is not None:
        if b.opened and rng.random() < 0.1 * (1 + b.number):
            return OpportunityPassed(player=b.to_act)
        return _opportunity(rng, rs, s, b)
    return None


def generate(seed: int, *, turns: int = 2, ruleset: L5rRuleset | None = None) -> list[Any]:
    """The events of a legal record: ``turns`` Attack phases, the players attacking in turn."""
    rng = random.Random(seed)
    rs = ruleset or L5rRuleset()
    cards, provinces = _table(rng)
    start = L5rStarted(players=PLAYERS, cards=tuple(cards), provinces=tuple(provinces), ruleset=rs)
    events: list[Any] = [start]
    s = evolve(Board(), start)
    for turn in range(1, turns + 1):
        attacker = PLAYERS[(turn - 1) % 2]
        phase = next(c for c in expect(rs, s).consequences if c.attacker == attacker)
        events.append(phase)
        s = evolve(s, phase)
        for _ in range(STEP_LIMIT):
            exp = expect(rs, s)
            if exp.kind == "turn":
                break
            event = _decide(rng, rs, s, exp.kind) if exp.kind is not None else None
            if event is None:
                event = exp.consequences[0]
            events.append(event)
            s = evolve(s, event)
    return events


def alive(s: Board) -> list[str]:
    """The units still in play (for a caller that wants to see the table after a record)."""
    return sorted(c.id for c in s.cards.values() if c.is_unit and c.at != DISCARD)


__all__ = ["action_resolution", "alive", "armies", "generate"]
