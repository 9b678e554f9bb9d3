"""Judging the consequences a log records against those the rules demand: a missing one, one
the rules do not demand now, or one with the wrong values ("the defender's total was 7, not
9"; "the Province prov1 does not fall: 7 is not greater than 2 + 6").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from vwlog.games import event_text
from vwlog.games.common import violation
from vwlog.games.l5r.events import (
    ArmyDestroyed,
    AttackPhaseEnded,
    AttackPhaseStarted,
    BattleStarted,
    BattleWithoutOutcome,
    DefendersSentHome,
    HonorGained,
    ProvinceDestroyed,
    ResolutionStarted,
)
from vwlog.games.l5r.expect import RULE_OF, owed_battlefields
from vwlog.games.l5r.resolution import already_resolved, army, force, limit_flag, plan, same
from vwlog.games.l5r.ruleset import L5rRuleset
from vwlog.games.l5r.state import Battle, Board
from vwlog.model.text import Msg, msg
from vwlog.model.violation import Violation

SIDES: Final = {"ATTACKER": msg("attacker"), "DEFENDER": msg("defender")}
"""A side as a violation says it, in the active language."""
SCOPES: Final = {"TURN": msg("turn"), "ROUND": msg("round")}
"""A limit's scope as a violation says it."""


def side_word(side: str) -> Msg | str:
    """``ATTACKER``/``DEFENDER`` as a violation says it (``attacker``)."""
    return SIDES.get(side, side.lower())


def _forces(b: Battle | None) -> tuple[int, int] | None:
    if b is None or not b.plan or not isinstance(b.plan[0], ResolutionStarted):
        return None
    return b.plan[0].attacker_force, b.plan[0].defender_force


def _resolving(s: Board) -> Battle | None:
    b = s.battle
    return b if b is not None and b.segment == "RESOLUTION" else None


ALTERNATIVES: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("province_counts_for_honor", (False, True)),
    ("tie_honor_multiplier", (1, 2)),
    ("army_cards", ("UNITS_AND_ATTACHMENTS", "UNITS_ONLY")),
    ("zero_tie_with_units", ("TIE", "NO_OUTCOME")),
    ("attackers_home_timing", ("AFTER_RESOLUTION_END", "LAST_RESOLUTION_EFFECT")),
    ("personality_limit_scope", ("TURN", "ROUND")),
    ("resolution_limit_applies_to", ("PERSONALITY", "ALL_UNITS")),
)
"""The flags a Resolution's plan depends on, with their readings."""


def deciding_flag(rs: L5rRuleset, s: Board, e: Any) -> str | None:
    """The flag under another reading of which the Resolution would hold ``e`` where the log
    has it: the flag the verdict rests on (``None``: ``e`` is wrong under every reading)."""
    b = _resolving(s)
    if b is None or b.origin is None:
        return None
    for name, values in ALTERNATIVES:
        for value in values:
            if value == getattr(rs, name):
                continue
            other = rs.model_copy(update={name: value})
            alt = plan(replace(b.origin, ruleset=other), b)
            if any(same(c, e) for c in _group(alt, b.step)):
                return name
    return None


def _group(planned: tuple[Any, ...], step: int) -> tuple[Any, ...]:
    """The consequences a plan allows at ``step``: a run of one kind comes in any order."""
    run = planned[step : step + 1]
    for later in planned[step + 1 :]:
        if not run or type(later) is not type(run[0]):
            break
        run += (later,)
    return run


def _honor_rule(b: Battle | None) -> str:
    forces = _forces(b)
    return "L5R-RES-9" if forces is not None and forces[0] == forces[1] else "L5R-RES-8"


def _army_rule(b: Battle | None, side: str) -> str:
    forces = _forces(b)
    if forces is not None and forces[0] == forces[1]:
        return "L5R-RES-9"
    return "L5R-RES-4" if side == "DEFENDER" else "L5R-RES-7"


def missing(rs: L5rRuleset, s: Board, c: Any, e: Any) -> Violation:
    """``c`` was owed before ``e``."""
    b = _resolving(s)
    rule, flag = RULE_OF.get(type(c), "L5R-RES-11"), deciding_flag(rs, s, e)
    if isinstance(c, ArmyDestroyed):
        rule = _army_rule(b, c.side)
    elif isinstance(c, HonorGained):
        rule = _honor_rule(b)
    elif isinstance(c, ProvinceDestroyed) and b is not None:
        return _fell(rs, s, b, c, e)
    return violation(
        rule,
        "{expected} is owed before {actual}",
        flag=flag,
        want=c,
        got=e,
        expected=event_text(c),
        actual=str(getattr(e, "type", "")),
    )


def _fell(rs: L5rRuleset, s: Board, b: Battle, c: ProvinceDestroyed, e: Any) -> Violation:
    a, d = _forces(b) or (0, 0)
    province = s.provinces.get(c.province)
    strength = province.strength if province is not None else 0
    return violation(
        "L5R-RES-5",
        "the Province {province} falls: {attacker} is greater than {defender} + {strength}",
        want=c,
        got=e,
        province=c.province,
        attacker=a,
        defender=d,
        strength=strength,
    )


def unexpected(rs: L5rRuleset, s: Board, e: Any, want: Any = None) -> Violation:
    """``e``, a consequence the rules do not demand now (``want``: what they demand, if
    anything)."""
    b = s.battle
    kind = str(getattr(e, "type", ""))
    if isinstance(e, ResolutionStarted):
        return violation("L5R-CMB-3", "Combat goes on until both players pass in a row", got=e)
    if isinstance(e, ProvinceDestroyed) and _resolving(s) is not None and b is not None:
        a, d = _forces(b) or (0, 0)
        province = s.province_at(b.battlefield)
        return violation(
            "L5R-RES-5",
            "the Province {province} does not fall: {attacker} is not greater than "
            "{defender} + {strength}",
            want=want,
            got=e,
            province=province.id if province else e.province,
            attacker=a,
            defender=d,
            strength=province.strength if province else 0,
        )
    if isinstance(e, DefendersSentHome | AttackPhaseEnded) and s.in_phase and b is None:
        left = sorted(owed_battlefields(rs, s))
        if left:
            rule = "L5R-RES-12" if isinstance(e, DefendersSentHome) else "L5R-BTL-6"
            return violation(
                rule,
                "the Attack phase still owes a battle at {battlefields}",
                flag="battles_owed",
                got=e,
                battlefields=", ".join(left),
            )
    if isinstance(e, AttackPhaseStarted) and b is not None:
        return violation("L5R-BTL-5", "battle {battle} has not ended", got=e, battle=b.number)
    rule = RULE_OF.get(type(e), "L5R-RES-3")
    if isinstance(e, ArmyDestroyed):
        rule = "L5R-RES-3"
    elif isinstance(e, AttackPhaseStarted):
        rule = "L5R-BTL-6"
    flag = deciding_flag(rs, s, e)
    return violation(
        rule, "the rules do not demand {event} now", flag=flag, want=want, got=e, event=kind
    )


OUTCOMES = (ArmyDestroyed, ProvinceDestroyed, HonorGained, BattleWithoutOutcome, DefendersSentHome)
"""The consequences a Resolution may or may not hold: one the plan does not hold is itself
the error ("the Province does not fall", "the defenders stay until the end of the Attack
phase"); any other stands where an owed one was left out."""


def consequence(rs: L5rRuleset, s: Board, exp_consequences: tuple[Any, ...], e: Any) -> Violation:
    """The verdict on a consequence the rules do not demand as logged."""
    like = next((c for c in exp_consequences if type(c) is type(e)), None)
    if like is not None:
        return mismatch(rs, s, like, e)
    if not exp_consequences:
        return unexpected(rs, s, e)
    first = exp_consequences[0]
    b = _resolving(s)
    if isinstance(first, BattleWithoutOutcome):
        return missing(rs, s, first, e)
    if b is not None:
        later = any(type(c) is type(e) for c in b.plan[b.step :])
        if later or not isinstance(e, OUTCOMES):
            return missing(rs, s, first, e)
    elif isinstance(first, DefendersSentHome) and isinstance(e, AttackPhaseEnded):
        return missing(rs, s, first, e)
    return unexpected(rs, s, e, first)


def mismatch(rs: L5rRuleset, s: Board, c: Any, e: Any) -> Violation:
    """``e`` stands where the rules demand ``c``, of its type, with other values."""
    b = _resolving(s)
    if isinstance(c, ResolutionStarted) and b is not None:
        return _wrong_forces(rs, s, b, c, e)
    if isinstance(c, ArmyDestroyed):
        return replace(_wrong_army(s, b, c, e), flag=deciding_flag(rs, s, e))
    if isinstance(c, ProvinceDestroyed):
        rule = "L5R-RES-5" if c.province != e.province else "L5R-RES-6"
        return violation(rule, "the rules demand {expected}", want=c, got=e, expected=event_text(c))
    flag = deciding_flag(rs, s, e)
    if isinstance(c, HonorGained):
        return violation(
            _honor_rule(b),
            "{player} gains {amount} honor for {count} destroyed cards, not {actual}",
            flag=flag,
            want=c,
            got=e,
            player=c.player,
            amount=c.amount,
            count=c.cards_destroyed,
            actual=event_text(e),
        )
    rule = RULE_OF.get(type(c), "L5R-RES-11")
    if isinstance(c, BattleStarted) and c.cause is not None:
        rule = "L5R-BTL-4"
        if rs.effect_battle_roles == "CONTROLLER_ATTACKS" and c.battlefield == e.battlefield:
            flag = "effect_battle_roles"
    return violation(
        rule, "the rules demand {expected}", flag=flag, want=c, got=e, expected=event_text(c)
    )


def _wrong_army(s: Board, b: Battle | None, c: ArmyDestroyed, e: ArmyDestroyed) -> Violation:
    forces = _forces(b) or (0, 0)
    if c.side != e.side:
        return violation(
            "L5R-RES-3",
            "the Forces were {attacker} to {defender}: the {side} army is destroyed",
            want=c,
            got=e,
            attacker=forces[0],
            defender=forces[1],
            side=side_word(c.side),
        )
    return violation(
        _army_rule(b, c.side),
        "the {side} army is {cards}, not {logged}",
        want=c,
        got=e,
        side=side_word(c.side),
        cards=", ".join(c.cards),
        logged=", ".join(e.cards) or msg("nothing"),
    )


def _wrong_forces(
    rs: L5rRuleset, s: Board, b: Battle, c: ResolutionStarted, e: ResolutionStarted
) -> Violation:
    for side, player, want, got in (
        (side_word("ATTACKER"), b.attacker, c.attacker_force, e.attacker_force),
        (side_word("DEFENDER"), b.defender, c.defender_force, e.defender_force),
    ):
        if want == got:
            continue
        everyone = army(s, b, player, rs, all_units=True)
        if not everyone:
            return violation(
                "L5R-RES-2",
                "the {side} has no unit in the battle: its Force is 0, not {got_force}",
                want=c,
                got=e,
                side=side,
                got_force=got,
            )
        if force(everyone) == got and any(already_resolved(s, u, rs) for u in everyone):
            done = [u.id for u in everyone if already_resolved(s, u, rs)]
            return violation(
                "L5R-CMB-8",
                "the {side}'s total was {want_force}, not {got_force}: {units} already took part "
                "in a Resolution",
                flag=deciding_flag(rs, s, e) or limit_flag(s, done[0]),
                want=c,
                got=e,
                side=side,
                want_force=want,
                got_force=got,
                units=", ".join(done),
            )
        return violation(
            "L5R-RES-1",
            "the {side}'s total was {want_force}, not {got_force}",
            flag=deciding_flag(rs, s, e),
            want=c,
            got=e,
            side=side,
            want_force=want,
            got_force=got,
        )
    return violation(
        "L5R-RES-1", "the rules demand {expected}", want=c, got=e, expected=event_text(c)
    )


__all__ = ["consequence", "mismatch", "missing", "unexpected", "violation"]
