"""Small shared helpers of the rules: building violations, card queries, eligibility.

Pure functions over frozen state; no I/O.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final, TypeVar

from vwlog.events import ACTOR_TYPES
from vwlog.model.errors import Violation
from vwlog.model.text import Msg, msg
from vwlog.model.types import CardType, Keyword, ObjectKind, RuleId, Stat, Terrain
from vwlog.rules.catalog import RULES

if TYPE_CHECKING:
    from vwlog.events import BaseEvent
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState, Permanent


_H = TypeVar("_H")


_ACTORS: Final = ACTOR_TYPES


def actor(event: BaseEvent) -> str | None:
    """The ``player`` an event names, or ``None``: `vwlog.events.acting_player` compiled with
    the engine, which asks it for most events (a call into interpreted code costs more than
    the lookup)."""
    if type(event) in _ACTORS:
        player: str | None = event.player  # type: ignore[attr-defined]
        return player
    return None


def handler_for(table: dict[type, _H], value: object) -> _H:
    """The handler ``table`` holds for ``value``'s exact type (one dict lookup; the hot path
    never pays pydantic's ABCMeta ``isinstance``); a subclass of a listed class falls back to
    its nearest listed base. A type with no handler is a programming error (``AssertionError``,
    never ``KeyError``, which the fold reads as "names something the match does not have")."""
    handler = table.get(type(value))
    if handler is not None:
        return handler
    for base in type(value).__mro__[1:]:
        if base in table:
            return table[base]
    raise AssertionError(f"no handler for {type(value).__name__}")


def violation(
    rule_id: str,
    template: str,
    *,
    flag: str | None = None,
    expected: str | None = None,
    actual: str | None = None,
    **params: object,
) -> Violation:
    """A violation citing ``rule_id``, saying ``template`` (a string literal with named
    placeholders, filled from ``params``; the catalogs translate it); for inferred or default
    rules the message says "by default" and names the ruleset flag that decides it."""
    rid = RuleId(rule_id)
    rule = RULES[rid]  # an unknown id is a programming error: fail loudly
    text: Msg = msg(template, **params)
    if flag:
        text = msg("{message} (by default; ruleset flag {flag})", message=text, flag=flag)
    elif rule.by_default:
        text = msg("{message} (by default)", message=text)
    return Violation(
        rule=rid, message=str(text), expected=expected, actual=actual, flag=flag, text=text
    )


def with_flag(v: Violation, flag: str) -> Violation:
    """``v`` naming the ruleset flag(s) its verdict rests on, in its ``flag`` field and its
    message, as `violation` says it ("… (by default; ruleset flag …)")."""
    inner: Msg | str = v.text if v.text is not None else v.message
    if isinstance(inner, Msg) and inner.template == "{message} (by default)":
        inner = dict(inner.params)["message"]  # type: ignore[assignment]  # a Msg
    text = msg("{message} (by default; ruleset flag {flag})", message=inner, flag=flag)
    return replace(v, message=str(text), flag=flag, text=text)


def card_name(state: MatchState, instance: str) -> str:
    """``"p1-07 Iron Guard"`` for messages; the bare id if unknown."""
    try:
        return f"{instance} {state.defn(instance).name}"
    except KeyError:
        return repr(instance)


def is_follower(state: MatchState, instance: str) -> bool:
    """Whether the instance is a Follower card."""
    return state.defn(instance).type == CardType.FOLLOWER


def uses_capacity(ruleset: Ruleset, state: MatchState, instance: str) -> bool:
    """Whether a Property card counts against capacity (Relics/Runes by OQ-5)."""
    t = state.defn(instance).type
    return t == CardType.FOLLOWER or (ruleset.relics_use_capacity and t.is_property)


def room(ruleset: Ruleset, state: MatchState, territory: str) -> int:
    """Remaining capacity of a Territory (R-UNS-2, R-CARD-2)."""
    used = sum(1 for g in state.guards(territory) if uses_capacity(ruleset, state, g.id))
    return state.stat(territory, Stat.CAPACITY) - used


def can_attack(state: MatchState, follower: str) -> bool:
    """Whether an in-battle attacker may be declared: not Fatigued, unless Rush (R-CMB-3)."""
    perm = state.permanents.get(follower)
    if perm is None:
        return False
    return not perm.fatigued or state.has_keyword(follower, Keyword.RUSH)


def attackable(ruleset: Ruleset, state: MatchState, follower: str) -> list[str]:
    """Territories a Follower able to attack may target: opponents' Territories, Naval and
    Aerial ones only with a permitting skill (R-CMB-10, OQ-12)."""
    perm = state.permanents.get(follower)
    if perm is None or not can_attack(state, follower):
        return []
    reach = state.has_keyword(follower, Keyword.NAVAL_AERIAL_ATTACK)
    return [
        t.id
        for opp in state.opponents(perm.controller)
        for t in state.territories(opp)
        if reach or not ruleset.naval_aerial_need_skill or not needs_naval_aerial(state, t.id)
    ]


def needs_naval_aerial(state: MatchState, territory: str) -> bool:
    """Whether attacking this Territory needs a permitting skill (R-CMB-10, OQ-12)."""
    return state.defn(territory).terrain in (Terrain.NAVAL, Terrain.AERIAL)


def attack_candidates(ruleset: Ruleset, state: MatchState, player: str) -> list[str]:
    """Followers that may enter battle as attackers: the player's unslid Followers guarding one
    of their Territories (R-CMB-4, R-CMB-5), or any of their unslid Followers in play where the
    ruleset reads R-CMB-5 so (`Ruleset.battle_from`, OQ-38)."""
    anywhere = ruleset.battle_from == "IN_PLAY"
    return [
        c.id
        for c in state.permanents.values()
        if c.controller == player
        and (c.where == "GUARD" or (anywhere and c.where != "TERRITORY"))
        and not c.slid
        and is_follower(state, c.id)
    ]


def may_block_at(ruleset: Ruleset, state: MatchState, blocker: Permanent, territory: str) -> bool:
    """Whether a Follower may block an attack on ``territory``: it guards that Territory, or it
    has Cavalry (R-CMB-13, OQ-18)."""
    if not ruleset.cavalry_only_blocks_elsewhere:
        return True
    return blocker.territory == territory or state.has_keyword(blocker.id, Keyword.CAVALRY)


def block_candidates(ruleset: Ruleset, state: MatchState, player: str) -> list[str]:
    """Followers of a defending player that may enter battle as blockers: unslid, guarding a
    Territory, and able to block at some attacked Territory of theirs (R-CMB-11..13)."""
    targets = {t for t in state.combat.attacks.values() if _controller(state, t) == player}
    return [
        c.id
        for c in state.permanents.values()
        if c.controller == player
        and c.where == "GUARD"
        and not c.slid
        and is_follower(state, c.id)
        and c.id not in state.combat.blockers
        and any(may_block_at(ruleset, state, c, t) for t in targets)
    ]


def _controller(state: MatchState, instance: str) -> str | None:
    perm = state.permanents.get(instance)
    return perm.controller if perm else None


def defenders(state: MatchState) -> list[str]:
    """Defending players: controllers of attacked Territories, in turn order from the active
    player (R-GEN-7: seat order, never "the other player")."""
    if state.active is None:
        return []
    owners = set()
    for target in state.combat.attacks.values():
        perm = state.permanents.get(target)
        if perm is not None:
            owners.add(perm.controller)
        elif target in state.owners:
            owners.add(state.owners[target])
    return [p for p in state.seat_order_from(state.active) if p in owners]


def live_attackers(state: MatchState) -> list[str]:
    """Declared attackers still in play, in declaration order."""
    return [a for a in state.combat.attacks if a in state.permanents]


def blockers_of(state: MatchState, attacker: str) -> list[str]:
    """Blockers in play assigned to an attacker, in assignment order."""
    return [b for b, a in state.combat.blocks.items() if a == attacker and b in state.permanents]


def was_blocked(state: MatchState, attacker: str) -> bool:
    """Whether any blocker was ever assigned to the attacker (R-CMB-38)."""
    return attacker in state.combat.blocks.values()


def pays_unpaid_top(state: MatchState, player: str, card: str, skill: str | None) -> bool:
    """Whether a cost paid now is the late payment of the top register object, registered
    without its costs (R-REG-3, reported there once): the same player, card and skill."""
    if not state.register:
        return False
    top = state.register[-1]
    if not top.unpaid or top.controller != player or top.card != card:
        return False
    if skill is None:
        return top.kind == ObjectKind.SUMMON
    return top.kind == ObjectKind.ACTIVE_SKILL and top.skill == skill


def paid_just_before(state: MatchState, player: str, card: str, skill: str | None) -> bool:
    """Whether the pending cost is this player's payment for this card and skill (R-REG-3)."""
    paid = state.pending_cost
    return paid is not None and (paid.player, paid.card, paid.skill) == (player, card, skill)


def next_object_id(state: MatchState) -> str:
    """The id the next object put on the register takes: ``o<N>``, N counting every object
    registered in the match, this one too (R-REG-1)."""
    return f"o{state.objects + 1}"


def has_raze(state: MatchState, follower: str) -> bool:
    """Whether a Follower has Raze now (R-CMB-20)."""
    return state.has_keyword(follower, Keyword.RAZE)


def distributes_in_step6(state: MatchState, attacker: str) -> bool:
    """Whether an attacker distributes its ATK in step 6: it has blockers, or it was blocked,
    has Raze and lost its blockers, so the rest of its ATK, all of it, goes to the attacked
    Territory (R-CMB-20: "mendistribusi sisa ATK damage-nya ke Territory yang diserang")."""
    if blockers_of(state, attacker):
        return True
    return was_blocked(state, attacker) and has_raze(state, attacker)


__all__ = [
    "actor",
    "attack_candidates",
    "attackable",
    "block_candidates",
    "blockers_of",
    "can_attack",
    "card_name",
    "defenders",
    "distributes_in_step6",
    "handler_for",
    "has_raze",
    "is_follower",
    "live_attackers",
    "may_block_at",
    "needs_naval_aerial",
    "next_object_id",
    "paid_just_before",
    "pays_unpaid_top",
    "room",
    "uses_capacity",
    "violation",
    "was_blocked",
    "with_flag",
]
