"""What the L5R rules expect next: the consequence they demand (the battle's start, the planned
Resolution, the end of the Attack phase), or whose decision of which kind.

Decision kinds: ``armies`` (the Attack phase's armies), ``battlefield`` (the next battle's
battlefield), ``opportunity`` (a Battle action or a pass: the fork points), ``resolve`` (the
action taken, resolved), ``turn`` (between Attack phases: the next phase, or a battle an
effect creates).
"""

from __future__ import annotations

from vwlog.games.l5r.events import (
    ArmyDestroyed,
    AttackersSentHome,
    AttackPhaseEnded,
    AttackPhaseStarted,
    BattleEnded,
    BattleStarted,
    BattleWithoutOutcome,
    DefendersSentHome,
    HonorGained,
    ProvinceDestroyed,
    ResolutionEnded,
    ResolutionStarted,
)
from vwlog.games.l5r.ruleset import L5rRuleset
from vwlog.games.l5r.state import Battle, Board
from vwlog.model.expect import Expect

RULE_OF: dict[type, str] = {
    ResolutionStarted: "L5R-CMB-3",
    ArmyDestroyed: "L5R-RES-4",
    ProvinceDestroyed: "L5R-RES-5",
    HonorGained: "L5R-RES-8",
    BattleWithoutOutcome: "L5R-RES-10",
    ResolutionEnded: "L5R-RES-11",
    AttackersSentHome: "L5R-RES-11",
    BattleEnded: "L5R-RES-13",
    DefendersSentHome: "L5R-RES-12",
    AttackPhaseEnded: "L5R-BTL-6",
    BattleStarted: "L5R-BTL-1",
    AttackPhaseStarted: "L5R-BTL-4",
}
"""The rule that demands each consequence."""


def chooser(rs: L5rRuleset, board: Board) -> str | None:
    """Who chooses the next battlefield of the Attack phase (L5R-OQ-12; ``None``: anyone)."""
    if rs.battlefield_chooser == "ATTACKER":
        return board.attacker
    if rs.battlefield_chooser == "DEFENDER":
        return board.defender
    return None


def owed_battlefields(rs: L5rRuleset, board: Board) -> frozenset[str]:
    """The battlefields still owed a battle this Attack phase (L5R-OQ-11)."""
    if rs.battles_owed == "AS_CHOSEN":
        return frozenset()
    fallen = {p.battlefield for p in board.provinces.values() if p.destroyed}
    return board.assigned - board.fought - fallen


def phase_end(board: Board) -> tuple[DefendersSentHome | AttackPhaseEnded, ...]:
    """What ends the Attack phase: the defenders still at a battlefield go Home, unbowed
    (L5R-RES-12), then the phase ends (L5R-BTL-6)."""
    staying = sorted(
        c.id
        for c in board.cards.values()
        if c.is_unit and c.owner == board.defender and c.at not in ("HOME", "DISCARD")
    )
    if staying:
        return (DefendersSentHome(units=tuple(staying)),)
    return (AttackPhaseEnded(turn=board.turn),)


def battle_starts(rs: L5rRuleset, board: Board, b: Battle) -> tuple[BattleStarted, ...]:
    """The battle the chosen battlefield begins (L5R-BTL-1); for a battle an effect creates,
    with the roles flag ``effect_battle_roles`` allows (L5R-OQ-14)."""
    n = board.battles + 1
    if b.cause is None or rs.effect_battle_roles == "CONTROLLER_ATTACKS":
        return (
            BattleStarted(
                battle=n,
                battlefield=b.battlefield,
                attacker=b.attacker,
                defender=b.defender,
                cause=b.cause,
            ),
        )
    return tuple(
        BattleStarted(
            battle=n, battlefield=b.battlefield, attacker=a, defender=board.other(a), cause=b.cause
        )
        for a in board.players
    )


def _in_battle(rs: L5rRuleset, board: Board, b: Battle) -> Expect:
    if b.segment == "START":
        return Expect(battle_starts(rs, board, b), rule="L5R-BTL-1")
    if b.segment == "RESOLUTION" and b.step < len(b.plan):
        nxt = b.plan[b.step]
        # a tie's two destructions, or its two honor gains, may come in either order
        group = [nxt]
        for later in b.plan[b.step + 1 :]:
            if type(later) is not type(nxt):
                break
            group.append(later)
        return Expect(tuple(group), rule=RULE_OF.get(type(nxt), "L5R-RES-11"))
    if b.pending is not None:
        return Expect(player=b.pending.player, kind="resolve", rule="L5R-CMB-2")
    return Expect(
        player=b.to_act, kind="opportunity", rule="L5R-CMB-2" if b.opened else "L5R-CMB-1"
    )


def expect(rs: L5rRuleset, board: Board) -> Expect:
    """What the rules await now."""
    if not board.started:
        return Expect(kind="start", rule="CORE-LOG-1")
    b = board.battle
    if b is not None:
        return _in_battle(rs, board, b)
    if not board.in_phase:
        p1, p2 = board.players
        nxt = board.turn + 1
        starts = (
            AttackPhaseStarted(turn=nxt, attacker=p1, defender=p2),
            AttackPhaseStarted(turn=nxt, attacker=p2, defender=p1),
        )
        return Expect(starts, kind="turn", rule="L5R-BTL-4")
    if not board.declared:
        return Expect(player=board.attacker, kind="armies", rule="L5R-BTL-2")
    if owed_battlefields(rs, board):
        return Expect(player=chooser(rs, board), kind="battlefield", rule="L5R-BTL-6")
    ends = phase_end(board)
    if rs.battles_owed == "AS_CHOSEN":
        return Expect(ends, player=chooser(rs, board), kind="battlefield", rule="L5R-BTL-6")
    return Expect(ends, rule="L5R-BTL-6")


def owed(board: Board) -> tuple[str, ...]:
    """The type tags of the consequences a record that ends here still owes (nothing between
    Attack phases)."""
    if not board.started or (board.battle is None and not board.in_phase):
        return ()
    exp = expect(board.ruleset or L5rRuleset(), board)
    return tuple(str(c.type) for c in exp.consequences[:1])


__all__ = [
    "RULE_OF",
    "battle_starts",
    "chooser",
    "expect",
    "owed",
    "owed_battlefields",
    "phase_end",
]
