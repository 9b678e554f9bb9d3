"""The Resolution the rules compute (L5R-RES-1..13): each army's Force, who wins, what is
destroyed, whether the Province falls, the honor gained and who goes Home, as the list of
consequence events the log must hold, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vwlog.games.l5r.events import (
    ArmyDestroyed,
    AttackersSentHome,
    BattleEnded,
    BattleWithoutOutcome,
    DefendersSentHome,
    HonorGained,
    ProvinceDestroyed,
    ResolutionEnded,
    ResolutionStarted,
)
from vwlog.games.l5r.ruleset import L5rRuleset

if TYPE_CHECKING:
    from vwlog.games.l5r.state import Battle, Board, Card


def same(a: Any, b: Any) -> bool:
    """Whether two events are the same, lists of names compared as sets (a log may list
    cards in any order)."""
    if type(a) is not type(b):
        return False
    da, db = a.__dict__, b.__dict__
    return da.keys() == db.keys() and all(_eq(da[k], db[k]) for k in da)


def _eq(x: Any, y: Any) -> bool:
    if isinstance(x, tuple) and isinstance(y, tuple) and all(isinstance(v, str) for v in x + y):
        return sorted(x) == sorted(y)
    return bool(x == y)


def _limited(card: Card, rs: L5rRuleset) -> bool:
    return card.kind == "PERSONALITY" or rs.resolution_limit_applies_to == "ALL_UNITS"


def _scope(turn: int, rs: L5rRuleset) -> int:
    return turn if rs.personality_limit_scope == "TURN" else (turn + 1) // 2


def already_resolved(board: Board, card: Card, rs: L5rRuleset) -> bool:
    """Whether ``card`` took part in a Resolution this turn (or round) already (L5R-CMB-8)."""
    last = board.took_part.get(card.id)
    return last is not None and _limited(card, rs) and _scope(last[0], rs) == _scope(board.turn, rs)


def limit_flag(board: Board, unit: str) -> str | None:
    """The flag a verdict that ``unit`` took part in a Resolution already rests on: the one
    under another reading of which it would be free (``None``: bound under every reading)."""
    card = board.cards.get(unit)
    last = board.took_part.get(unit)
    if card is None or last is None:
        return None
    if card.kind != "PERSONALITY":
        return "resolution_limit_applies_to"
    if last[0] != board.turn:
        return "personality_limit_scope"
    if not last[1]:
        return "personality_participation"
    return None


def army(
    board: Board, b: Battle, player: str, rs: L5rRuleset, *, all_units: bool = False
) -> list[Card]:
    """``player``'s units in the battle (those that may take part in its Resolution, unless
    ``all_units``)."""
    return sorted(
        (
            c
            for c in board.cards.values()
            if c.is_unit
            and c.owner == player
            and c.at == b.battlefield
            and (all_units or not already_resolved(board, c, rs))
        ),
        key=lambda c: c.id,
    )


def force(units: list[Card]) -> int:
    """An army's Force: the unbowed units' Force (L5R-RES-1); 0 without units (L5R-RES-2)."""
    return sum(c.force for c in units if not c.bowed)


def participants(board: Board, b: Battle, rs: L5rRuleset) -> list[str]:
    """The units that take part in the Resolution starting now (L5R-OQ-3, -4)."""
    units = army(board, b, b.attacker, rs) + army(board, b, b.defender, rs)
    counted = rs.personality_participation == "COUNTED"
    return [c.id for c in units if _limited(c, rs) and not (counted and c.bowed)]


def _cards(board: Board, units: list[Card]) -> tuple[tuple[str, ...], int]:
    """The army's cards (units and their attachments) and how many count for honor."""
    ids = {c.id for c in units}
    attached = sorted(
        c.id for c in board.cards.values() if c.attached_to in ids and c.at != "DISCARD"
    )
    return tuple(sorted(ids)) + tuple(attached), len(ids) + len(attached)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the Resolution of a battle comes to."""

    attacker_force: int
    defender_force: int
    attacker_units: int
    defender_units: int
    strength: int

    @property
    def no_outcome(self) -> bool:
        """Both Forces 0 and a side without units (L5R-RES-10)."""
        zero = self.attacker_force == self.defender_force == 0
        return zero and (not self.attacker_units or not self.defender_units)

    @property
    def fell(self) -> bool:
        """The attacker's Force exceeds the defender's plus the Province's (L5R-RES-5)."""
        return self.attacker_force > self.defender_force + self.strength


def outcome(board: Board, b: Battle, rs: L5rRuleset) -> Outcome:
    """The Forces of the battle being resolved."""
    att, dfn = army(board, b, b.attacker, rs), army(board, b, b.defender, rs)
    province = board.province_at(b.battlefield)
    strength = province.strength if province is not None and not province.destroyed else 0
    return Outcome(force(att), force(dfn), len(att), len(dfn), strength)


def plan(board: Board, b: Battle) -> tuple[Any, ...]:
    """The consequences the Resolution of ``b`` demands, in order (L5R-RES-11)."""
    rs = board.ruleset or L5rRuleset()
    att, dfn = army(board, b, b.attacker, rs), army(board, b, b.defender, rs)
    o = outcome(board, b, rs)
    out: list[Any] = [
        ResolutionStarted(
            battle=b.number, attacker_force=o.attacker_force, defender_force=o.defender_force
        )
    ]
    zero_tie = o.attacker_force == o.defender_force == 0 and rs.zero_tie_with_units == "NO_OUTCOME"
    destroyed: set[str] = set()
    if o.no_outcome or zero_tie:
        out.append(BattleWithoutOutcome(battle=b.number))
    else:
        destroyed = _destruction(board, b, rs, att, dfn, o, out)
    home = tuple(_left(board, b, b.attacker, destroyed))
    sent = [AttackersSentHome(units=home)] if home else []
    if rs.attackers_home_timing == "LAST_RESOLUTION_EFFECT":
        out += [*sent, ResolutionEnded(battle=b.number)]
    else:
        out += [ResolutionEnded(battle=b.number), *sent]
    out.append(BattleEnded(battle=b.number))
    if b.cause is not None:  # a battle an effect created: its defenders go Home now [DEF]
        stay = _left(board, b, b.defender, destroyed)
        if stay:
            out.append(DefendersSentHome(units=tuple(stay)))
    return tuple(out)


def _left(board: Board, b: Battle, owner: str, destroyed: set[str]) -> list[str]:
    """The ids of ``owner``'s units left standing at the battlefield of ``b``, sorted."""
    return sorted(
        c.id
        for c in board.cards.values()
        if c.is_unit and c.owner == owner and c.at == b.battlefield and c.id not in destroyed
    )


def _destruction(
    board: Board,
    b: Battle,
    rs: L5rRuleset,
    att: list[Card],
    dfn: list[Card],
    o: Outcome,
    out: list[Any],
) -> set[str]:
    """Append the destruction and honor (L5R-RES-3..9); return the destroyed cards."""
    att_cards, att_count = _cards(board, att)
    def_cards, def_count = _cards(board, dfn)
    if rs.army_cards == "UNITS_ONLY":
        att_count, def_count = len(att), len(dfn)
    if o.attacker_force > o.defender_force:
        if def_cards:
            out.append(ArmyDestroyed(battle=b.number, side="DEFENDER", cards=def_cards))
        province = board.province_at(b.battlefield)
        fell = o.fell and province is not None and not province.destroyed
        if fell and province is not None:
            out.append(
                ProvinceDestroyed(
                    province=province.id, discarded=province.cards, regions=province.regions
                )
            )
        count = def_count + (1 if fell and rs.province_counts_for_honor else 0)
        _honor(out, b.attacker, count, 2)
        return set(def_cards)
    if o.defender_force > o.attacker_force:
        if att_cards:
            out.append(ArmyDestroyed(battle=b.number, side="ATTACKER", cards=att_cards))
        _honor(out, b.defender, att_count, 2)
        return set(att_cards)
    if att_cards:
        out.append(ArmyDestroyed(battle=b.number, side="ATTACKER", cards=att_cards))
    if def_cards:
        out.append(ArmyDestroyed(battle=b.number, side="DEFENDER", cards=def_cards))
    _honor(out, b.attacker, def_count, rs.tie_honor_multiplier)
    _honor(out, b.defender, att_count, rs.tie_honor_multiplier)
    return set(att_cards) | set(def_cards)


def _honor(out: list[Any], player: str, count: int, times: int) -> None:
    if count:
        out.append(HonorGained(player=player, amount=count * times, cards_destroyed=count))


__all__ = [
    "Outcome",
    "already_resolved",
    "army",
    "force",
    "limit_flag",
    "outcome",
    "participants",
    "plan",
    "same",
]
