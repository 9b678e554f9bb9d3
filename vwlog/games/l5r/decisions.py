"""L5R's decisions capability (`vwlog.games.GameRules.decisions`, as
`vwlog.services.decisions.Decisions` reads it): the legal decisions at every position the rules
await one of (`vwlog.games.l5r.expect`), written in L5R's notation
(`vwlog.games.l5r.notation`); the rules a decision breaks (`check`, the game's judge); the
decision played with every consequence the rules then owe (`play`); and a decision chosen by a
policy (`choose`).

What each kind awaits, and what `legal` lists:

- ``armies`` (the attacker): each unit in play joins its owner's side at one of the defender's
  battlefields, or stays out: (F + 1) ** U declarations, counted exactly and listed as a bounded
  family (nobody; everyone at one battlefield; the attackers alone at one; the units spread
  over the battlefields in turn).
- ``battlefield``: every battlefield a battle may be chosen at now (and ``end`` where the
  battles are as chosen), exactly.
- ``opportunity`` (the player to act): ``pass`` and the Battle actions of the player's cards:
  without targets, on one card at the battlefield, from one of the player's units there on an
  opposing card, or bringing one of the player's units from Home. Targets and sources may be
  any subset, so the count is a lower bound (subsets of the cards at the battlefield).
- ``resolve`` (whose action awaits it): the resolution as the table's actions work
  (`vwlog.games.l5r.generate.action_resolution`); any list of effects the judge accepts is
  legal, so the count is a lower bound.
- ``turn`` (between Attack phases, nobody awaited): ``phase PLAYER`` and the battles a card of
  the player's could create (``battle BATTLEFIELD by CARD``), for a line that names its player.

Play mode applies, after a decision, every consequence the rules compute (a battle's start, the
Resolution: Force totals, destruction, a Province falling, honor, going Home; the end of the
Attack phase) and the resolution of an action taken, up to the next decision. Pure.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import partial
from typing import Any

from vwlog.events.core import MatchForked
from vwlog.games.l5r import notation
from vwlog.games.l5r.events import (
    ArmiesDeclared,
    Assignment,
    AttackPhaseStarted,
    BattleActionTaken,
    BattlefieldChosen,
    BattleStarted,
    OpportunityPassed,
    Side,
)
from vwlog.games.l5r.expect import chooser, expect, owed_battlefields
from vwlog.games.l5r.generate import action_resolution, armies
from vwlog.games.l5r.judge import judge, where
from vwlog.games.l5r.resolution import already_resolved, army, force
from vwlog.games.l5r.ruleset import L5rRuleset
from vwlog.games.l5r.state import DISCARD, HOME, Battle, Board, Card, evolve
from vwlog.model.errors import IllegalEventError
from vwlog.model.violation import Violation

LISTED = 48
"""Most decisions `legal` lists at one position (the count says how many are legal)."""
CONSEQUENCE_LIMIT = 256
"""Most consequences one decision brings (a guard: a Resolution plans fewer than a dozen)."""

names = notation.names
"""``names(decisions, state)``: what every card the decisions name is, by id."""
named = notation.named
"""``named(decision, names)``: a decision followed by what the cards it names are."""
syntax = notation.syntax
"""``syntax()``: the notation, one verb a line with an example."""


def parse(ruleset: L5rRuleset, state: Board, text: str) -> list[Any]:
    """The decision event(s) a line of the notation names at ``state``.

    Raises:
        UsageError: the line cannot be read (one line saying what is wrong).
    """
    return notation.parse(ruleset, state, text)


def check(ruleset: L5rRuleset, state: Board, decision: Any) -> tuple[Violation, ...]:
    """The rules ``decision`` breaks at ``state`` (none: it is legal), as the judge says."""
    return judge(ruleset, state, expect(ruleset, state), decision)


def _next(rs: L5rRuleset, s: Board) -> Any | None:
    """The consequence the rules owe now (the resolution of an action taken included), or
    ``None`` where a decision is awaited."""
    exp = expect(rs, s)
    b = s.battle
    if exp.kind == "resolve" and b is not None and b.pending is not None:
        return action_resolution(s, b.pending)
    if exp.kind is not None or not exp.consequences:
        return None
    if b is not None and isinstance(exp.consequences[0], BattleStarted):
        # a battle an effect creates, whose roles the log may name: the Province's owner defends
        return next((c for c in exp.consequences if c.attacker == b.attacker), exp.consequences[0])
    return exp.consequences[0]


def advance(ruleset: L5rRuleset, state: Board) -> tuple[Board, list[Any]]:
    """The board after every consequence owed now, up to the next decision, and those events."""
    events: list[Any] = []
    for _ in range(CONSEQUENCE_LIMIT):
        event = _next(ruleset, state)
        if event is None:
            break
        state = evolve(state, event)
        events.append(event)
    return state, events


def play(ruleset: L5rRuleset, state: Board, decision: Any) -> tuple[Board, list[Any]]:
    """Check and apply ``decision``, then every consequence it brings (`advance`).

    Returns:
        The board at the next decision and the events applied, the decision first.

    Raises:
        IllegalEventError: the decision breaks rules here (its violations, L5R-* ids).
    """
    found = check(ruleset, state, decision)
    if found:
        raise IllegalEventError(None, str(decision.type), found)
    state, events = advance(ruleset, evolve(state, decision))
    return state, [decision, *events]


def whole(ruleset: L5rRuleset, state: Board) -> bool:
    """Whether the decisions played up to ``state`` are whole: no action awaits its
    resolution."""
    return expect(ruleset, state).kind != "resolve"


# -- the legal decisions ---------------------------------------------------------------------


def _defender_fields(s: Board) -> list[str]:
    return sorted(
        p.battlefield for p in s.provinces.values() if p.owner == s.defender and not p.destroyed
    )


def _units(s: Board, *, home: bool = False) -> list[Card]:
    return sorted(
        (
            c
            for c in s.cards.values()
            if c.is_unit and c.at != DISCARD and (c.at == HOME or not home)
        ),
        key=lambda c: c.id,
    )


def _declared(s: Board, placed: Iterable[tuple[Card, str]]) -> ArmiesDeclared:
    def side(c: Card) -> Side:
        return "ATTACKER" if c.owner == s.attacker else "DEFENDER"

    return ArmiesDeclared(
        assignments=tuple(Assignment(unit=c.id, side=side(c), battlefield=f) for c, f in placed)
    )


def _armies(s: Board) -> tuple[list[Any], int, bool]:
    fields, units = _defender_fields(s), _units(s)
    family: list[Any] = [ArmiesDeclared(assignments=())]
    if fields and units:
        attackers = [c for c in units if c.owner == s.attacker]
        for f in fields:
            family.append(_declared(s, ((c, f) for c in units)))
            if attackers and len(attackers) < len(units):
                family.append(_declared(s, ((c, f) for c in attackers)))
        if len(fields) > 1:
            family.append(_declared(s, ((c, fields[i % len(fields)]) for i, c in enumerate(units))))
    return family, (len(fields) + 1) ** len(units), True


def _battlefields(
    rs: L5rRuleset, s: Board, player: str, exp_ends: tuple[Any, ...]
) -> tuple[list[Any], int, bool]:
    want = chooser(rs, s)
    if want is not None and want != player:
        return [], 0, True
    if rs.battles_owed == "AS_CHOSEN":
        fields = [f for f in _defender_fields(s) if f not in s.fought]
    else:
        fields = sorted(owed_battlefields(rs, s))
    family: list[Any] = [BattlefieldChosen(player=player, battlefield=f) for f in fields]
    family += list(exp_ends[:1])
    return family, len(family), True


def _at(s: Board, b: Battle) -> list[Card]:
    return sorted((c for c in s.cards.values() if where(s, c) == b.battlefield), key=lambda c: c.id)


def _actions(rs: L5rRuleset, s: Board, b: Battle, player: str) -> tuple[list[Any], int]:
    """The Battle actions in the family, and a lower bound of how many are legal."""
    here = _at(s, b)
    mine = [c.id for c in here if c.is_unit and c.owner == player]
    theirs = [c.id for c in here if c.owner != player]
    home = [c.id for c in _units(s, home=True) if c.owner == player]
    bringable = [u for u in home if not already_resolved(s, s.cards[u], rs)]
    family: list[Any] = []
    total = 0
    for card in sorted((c for c in s.cards.values() if c.owner == player), key=lambda c: c.id):
        if card.at == DISCARD:
            continue
        for action in card.actions:
            if not action.battle:
                continue

            taken = partial(BattleActionTaken, player=player, card=card.id, ability=action.name)
            if action.brings_unit:
                family += [taken(brings=(u,)) for u in bringable]
                total += 2 ** len(bringable)
            elif mine:
                family.append(taken())
                family += [taken(targets=(c.id,)) for c in here]
                family += [taken(source_unit=u, targets=(t,)) for u in mine for t in theirs]
                total += (len(here) + 1) * 2 ** len(here)
    return family, total


def _opportunity(rs: L5rRuleset, s: Board, player: str) -> tuple[list[Any], int, bool]:
    b = s.battle
    if b is None or b.to_act != player:
        return [], 0, True
    actions, total = _actions(rs, s, b, player)
    return [OpportunityPassed(player=player), *actions], 1 + total, not actions


def _between(rs: L5rRuleset, s: Board, player: str) -> tuple[list[Any], int, bool]:
    """Between Attack phases: the next phase with ``player`` attacking, or a battle a card of
    ``player``'s creates."""
    family: list[Any] = [
        AttackPhaseStarted(turn=s.turn + 1, attacker=player, defender=s.other(player))
    ]
    causes = [c for c in s.cards.values() if c.owner == player and c.at != DISCARD]
    fields = sorted(
        p.battlefield
        for p in s.provinces.values()
        if not p.destroyed and (rs.effect_battle_roles != "CONTROLLER_ATTACKS" or p.owner != player)
    )
    with_actions = sorted((c.id for c in causes if c.actions), key=str)
    family += [
        BattlefieldChosen(player=player, battlefield=f, cause=c)
        for c in with_actions
        for f in fields
    ]
    return family, 1 + len(causes) * len(fields), True


def decisions(
    rs: L5rRuleset, s: Board, player: str, kind: str | None
) -> tuple[list[Any], int, bool]:
    """Every decision of ``player``'s in the family listed at ``s`` (the events), how many
    are legal, and whether that count is exact."""
    exp = expect(rs, s)
    b = s.battle
    if kind == "armies" and player == s.attacker:
        return _armies(s)
    if kind == "battlefield":
        return _battlefields(rs, s, player, exp.consequences)
    if kind == "opportunity":
        return _opportunity(rs, s, player)
    if kind == "resolve" and b is not None and b.pending is not None and b.pending.player == player:
        return [action_resolution(s, b.pending)], 1, False
    if kind == "turn" and player in s.players:
        return _between(rs, s, player)
    return [], 0, True


def legal(
    ruleset: L5rRuleset, state: Board, player: str, kind: str | None
) -> tuple[tuple[str, ...], int, bool]:
    """``player``'s legal decisions at ``state`` in the notation (at most `LISTED`), how many
    are legal, and whether that count is exact (the module's docstring says what each kind
    lists)."""
    family, total, exact = decisions(ruleset, state, player, kind)
    said = tuple(notation.format_decision(ruleset, state, d) for d in family[:LISTED])
    return said, max(total, len(family)), exact


# -- choosing ------------------------------------------------------------------------------


def _standing(rs: L5rRuleset, s: Board, b: Battle, player: str) -> tuple[int, int, int]:
    """``player``'s Force, the other side's, and how many of ``player``'s units are in the
    battle ``b``."""
    mine = army(s, b, player, rs)
    return force(mine), force(army(s, b, s.other(player), rs)), len(mine)


def _greedy_opportunity(rs: L5rRuleset, s: Board, player: str, options: list[Any]) -> Any:
    """The action that most improves ``player``'s margin by lowering the other side's Force
    or bringing a unit in (so Combat ends: neither can go on for ever), else a pass."""
    b = s.battle
    assert b is not None
    before = _standing(rs, s, b, player)
    best, gain = options[0], 0
    for option in options[1:]:
        after_board, _ = play(rs, s, option)
        after = _standing(rs, after_board, b, player)
        if after[1] < before[1] or (after[2] > before[2] and after[0] > before[0]):
            margin = (after[0] - after[1]) - (before[0] - before[1])
            if margin > gain:
                best, gain = option, margin
    return best


def _greedy_armies(s: Board) -> ArmiesDeclared:
    """Every unbowed unit at Home to the battlefield of the defender's weakest Province."""
    live = [p for p in s.provinces.values() if p.owner == s.defender and not p.destroyed]
    if not live:
        return ArmiesDeclared(assignments=())
    weakest = min(live, key=lambda p: (p.strength, p.id)).battlefield
    return _declared(s, ((c, weakest) for c in _units(s, home=True) if not c.bowed))


def choose(
    ruleset: L5rRuleset, state: Board, player: str, rng: random.Random, policy: str
) -> Any | None:
    """A legal decision for ``player`` chosen by ``policy`` (``greedy`` or ``random``), or
    ``None`` where none of ``player``'s is awaited (between Attack phases nobody's is: a
    policy does not start the next phase)."""
    exp = expect(ruleset, state)
    awaited = exp.player or (state.attacker if exp.kind == "battlefield" else None)
    if exp.kind in (None, "start", "turn") or awaited != player:
        return None
    options, _, _ = decisions(ruleset, state, player, exp.kind)
    options = [o for o in options if not isinstance(o, MatchForked)]
    if not options:
        return None
    if exp.kind == "armies":
        return armies(rng, state) if policy == "random" else _greedy_armies(state)
    if exp.kind == "opportunity":
        if policy != "random":
            return _greedy_opportunity(ruleset, state, player, options)
        b = state.battle
        if len(options) == 1 or (b is not None and b.opened and rng.random() < 0.5):
            return options[0]
        return rng.choice(options[1:])
    return rng.choice(options) if policy == "random" else options[0]


__all__ = [
    "CONSEQUENCE_LIMIT",
    "LISTED",
    "advance",
    "check",
    "choose",
    "decisions",
    "legal",
    "named",
    "names",
    "parse",
    "play",
    "syntax",
    "whole",
]
