"""The L5R board (frozen dataclasses) and its fold: what each event does, trusting it.

Cards are where the rules need them: ``HOME``, a battlefield's id, or ``DISCARD``. A battle
in progress is a `Battle`; its Resolution is planned when Combat ends (`Battle.plan`, the
consequences the rules demand, in order) and walked one consequence at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from vwlog.events.core import MatchForked
from vwlog.games.l5r.events import (
    UNIT_KINDS,
    ActionDef,
    ArmiesDeclared,
    ArmyDestroyed,
    AttackersSentHome,
    AttackPhaseEnded,
    AttackPhaseStarted,
    BattleActionResolved,
    BattleActionTaken,
    BattleEnded,
    BattlefieldChosen,
    BattleStarted,
    DefendersSentHome,
    HonorGained,
    L5rStarted,
    OpportunityPassed,
    ProvinceDestroyed,
    ResolutionStarted,
)
from vwlog.games.l5r.ruleset import L5rRuleset

HOME = "HOME"
DISCARD = "DISCARD"


@dataclass(frozen=True, slots=True)
class Card:
    """A card in the match: where it is and, for a unit, its Force and whether it is bowed."""

    id: str
    owner: str
    kind: str
    force: int = 0
    bowed: bool = False
    at: str = HOME
    attached_to: str | None = None
    actions: tuple[ActionDef, ...] = ()

    @property
    def is_unit(self) -> bool:
        """A Personality or a Follower (L5R-AS-2)."""
        return self.kind in UNIT_KINDS


@dataclass(frozen=True, slots=True)
class Province:
    """A Province, its battlefield and what it holds."""

    id: str
    owner: str
    strength: int
    battlefield: str
    cards: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()
    destroyed: bool = False


@dataclass(frozen=True, slots=True)
class Battle:
    """The battle being fought. ``segment``: ``START`` (chosen, not yet begun), ``COMBAT``,
    ``RESOLUTION``."""

    number: int
    battlefield: str
    attacker: str
    defender: str
    chooser: str
    cause: str | None = None
    segment: str = "START"
    to_act: str = ""
    opened: bool = False
    """Whether any opportunity was taken yet (the first is the defender's, L5R-CMB-1)."""
    passes: int = 0
    """Consecutive passes (L5R-CMB-3)."""
    pending: BattleActionTaken | None = None
    plan: tuple[Any, ...] = ()
    step: int = 0
    origin: Any = None
    """The board when Combat ended, the plan's source (a verdict asks what another reading of
    a flag would have planned from it)."""


@dataclass(frozen=True, slots=True)
class Board:
    """How an L5R match stands."""

    started: bool = False
    players: tuple[str, ...] = ()
    ruleset: L5rRuleset | None = None
    cards: Mapping[str, Card] = field(default_factory=dict)
    provinces: Mapping[str, Province] = field(default_factory=dict)
    honor: Mapping[str, int] = field(default_factory=dict)
    turn: int = 0
    attacker: str | None = None
    defender: str | None = None
    in_phase: bool = False
    declared: bool = False
    assigned: frozenset[str] = frozenset()
    """Battlefields where the attacker assigned a unit this phase (L5R-OQ-11)."""
    fought: frozenset[str] = frozenset()
    battles: int = 0
    battle: Battle | None = None
    took_part: Mapping[str, tuple[int, bool]] = field(default_factory=dict)
    """Unit -> the last turn it took part in a Resolution (L5R-CMB-8), and whether its Force
    was counted there (it was unbowed)."""

    def province_at(self, battlefield: str) -> Province | None:
        """The Province whose battlefield ``battlefield`` is."""
        return next((p for p in self.provinces.values() if p.battlefield == battlefield), None)

    def other(self, player: str) -> str:
        """The other player."""
        return next((p for p in self.players if p != player), player)


def _moved(board: Board, units: tuple[str, ...] | frozenset[str], **change: Any) -> Board:
    cards = dict(board.cards)
    for u in units:
        if u in cards:
            cards[u] = replace(cards[u], **change)
    return replace(board, cards=cards)


def _started(e: L5rStarted) -> Board:
    cards = {
        c.id: Card(c.id, c.owner, c.kind, c.force, c.bowed, HOME, c.attached_to, c.actions)
        for c in e.cards
    }
    provinces = {
        p.id: Province(p.id, p.owner, p.strength, p.battlefield, p.cards, p.regions)
        for p in e.provinces
    }
    return Board(True, e.players, e.ruleset, cards, provinces, dict.fromkeys(e.players, 0))


def _declared(board: Board, e: ArmiesDeclared) -> Board:
    cards = dict(board.cards)
    assigned = set(board.assigned)
    for a in e.assignments:
        if a.unit in cards:
            cards[a.unit] = replace(cards[a.unit], at=a.battlefield)
        if a.side == "ATTACKER":
            assigned.add(a.battlefield)
    return replace(board, cards=cards, declared=True, assigned=frozenset(assigned))


def _chosen(board: Board, e: BattlefieldChosen) -> Board:
    province = board.province_at(e.battlefield)
    if board.in_phase and e.cause is None:
        att, dfn = board.attacker or e.player, board.defender or board.other(e.player)
    else:
        dfn = province.owner if province is not None else board.other(e.player)
        att = board.other(dfn)
    battle = Battle(board.battles + 1, e.battlefield, att, dfn, e.player, e.cause)
    return replace(board, battle=battle)


def _battle_started(board: Board, e: BattleStarted) -> Board:
    battle = Battle(
        e.battle, e.battlefield, e.attacker, e.defender, "", e.cause, "COMBAT", e.defender
    )
    return replace(board, battle=battle, battles=e.battle)


def _opportunity(board: Board, b: Battle, e: BattleActionTaken | OpportunityPassed) -> Board:
    nxt = board.other(e.player)
    if isinstance(e, BattleActionTaken):
        b = replace(b, opened=True, passes=0, pending=e, to_act=nxt)
        return replace(board, battle=b)
    b = replace(b, opened=True, passes=b.passes + 1, to_act=nxt)
    if b.passes < 2:
        return replace(board, battle=b)
    from vwlog.games.l5r.resolution import plan  # the plan reads this module's board

    planned = plan(board, b)
    return replace(board, battle=replace(b, segment="RESOLUTION", plan=planned, origin=board))


def _action_resolved(board: Board, b: Battle, e: BattleActionResolved) -> Board:
    cards = dict(board.cards)
    for fx in e.effects:
        card = cards.get(fx.unit)
        if card is None:
            continue
        if fx.kind == "unit_entered_battle":
            card = replace(card, at=b.battlefield)
        elif fx.kind == "unit_bowed":
            card = replace(card, bowed=True)
        elif fx.kind == "unit_unbowed":
            card = replace(card, bowed=False)
        else:
            card = replace(card, force=max(0, card.force + fx.delta))
        cards[fx.unit] = card
    return replace(board, cards=cards, battle=replace(b, pending=None))


def _planned(board: Board, b: Battle, e: Any) -> Board:
    """Advance the Resolution past ``e``: to the next planned step, or past the planned
    consequence it stands for (a consequence the plan does not hold leaves the step)."""
    from vwlog.games.l5r.resolution import same

    rest = b.plan[b.step :]
    at = next((i for i, c in enumerate(rest) if same(c, e)), None)
    if at is None and rest and type(rest[0]) is type(e):
        at = 0
    plan = b.plan
    if at is not None and at > 0 and all(type(c) is type(e) for c in rest[:at]):
        # one of a group of the same kind (a tie's destructions) came first: keep the rest
        plan = (*plan[: b.step], rest[at], *rest[:at], *rest[at + 1 :])
        at = 0
    step = b.step if at is None else b.step + at + 1
    board = _consequence(board, b, e)
    if step >= len(plan):
        return replace(board, battle=None, fought=board.fought | {b.battlefield})
    return replace(board, battle=replace(b, step=step, plan=plan))


def _consequence(board: Board, b: Battle, e: Any) -> Board:
    rs = board.ruleset or L5rRuleset()
    if isinstance(e, ResolutionStarted):
        return _took_part(board, b, rs)
    if isinstance(e, ArmyDestroyed):
        return _moved(board, tuple(e.cards), at=DISCARD, bowed=False)
    if isinstance(e, ProvinceDestroyed):
        provinces = dict(board.provinces)
        if e.province in provinces:
            provinces[e.province] = replace(provinces[e.province], destroyed=True)
        return replace(board, provinces=provinces)
    if isinstance(e, HonorGained):
        honor = dict(board.honor)
        honor[e.player] = honor.get(e.player, 0) + e.amount
        return replace(board, honor=honor)
    if isinstance(e, AttackersSentHome):
        return _moved(board, e.units, at=HOME, bowed=True)
    if isinstance(e, DefendersSentHome):
        return _moved(board, e.units, at=HOME)
    return board


def _took_part(board: Board, b: Battle, rs: L5rRuleset) -> Board:
    from vwlog.games.l5r.resolution import participants

    took = dict(board.took_part)
    for unit in participants(board, b, rs):
        took[unit] = (board.turn, not board.cards[unit].bowed)
    return replace(board, took_part=took)


def evolve(board: Board, e: Any) -> Board:
    """The board after ``e``, trusting it."""
    if isinstance(e, L5rStarted):
        return _started(e)
    b = board.battle
    if b is not None and b.segment == "RESOLUTION":
        return _planned(board, b, e)
    if isinstance(e, AttackPhaseStarted):
        return replace(
            board,
            turn=e.turn,
            attacker=e.attacker,
            defender=e.defender,
            in_phase=True,
            declared=False,
            assigned=frozenset(),
            fought=frozenset(),
        )
    return _evolve_rest(board, b, e)


def _evolve_rest(board: Board, b: Battle | None, e: Any) -> Board:
    if isinstance(e, ArmiesDeclared):
        return _declared(board, e)
    if isinstance(e, BattlefieldChosen):
        return _chosen(board, e)
    if isinstance(e, BattleStarted):
        return _battle_started(board, e)
    if b is not None and isinstance(e, BattleActionTaken | OpportunityPassed):
        return _opportunity(board, b, e)
    if b is not None and b.segment == "COMBAT" and isinstance(e, ResolutionStarted):
        # the log ends Combat early: its Resolution is planned from here
        from vwlog.games.l5r.resolution import plan

        ended = replace(b, segment="RESOLUTION", pending=None)
        ended = replace(ended, plan=plan(board, ended), origin=board)
        return _planned(replace(board, battle=ended), ended, e)
    if b is not None and isinstance(e, BattleActionResolved):
        return _action_resolved(board, b, e)
    if isinstance(e, DefendersSentHome):
        return _moved(board, e.units, at=HOME)
    if isinstance(e, AttackPhaseEnded):
        return replace(board, in_phase=False, declared=False)
    if isinstance(e, BattleEnded | MatchForked):
        return board
    return _consequence(board, b, e) if b is not None else board


__all__ = ["DISCARD", "HOME", "Battle", "Board", "Card", "Province", "evolve"]
