"""Combat decisions: attackers, the declaration, blockers, blocks and damage (R-CMB-*)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from vwlog.events import (
    AttackDeclared,
    AttackersEnteredBattle,
    BlockersEnteredBattle,
    BlocksAssigned,
    FollowerDamageAssigned,
)
from vwlog.model.types import Keyword, Stat
from vwlog.rules.checks.base import Violations
from vwlog.rules.common import (
    attack_candidates,
    attackable,
    block_candidates,
    blockers_of,
    can_attack,
    card_name,
    distributes_in_step6,
    has_raze,
    is_follower,
    live_attackers,
    may_block_at,
    needs_naval_aerial,
    violation,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState, Permanent


def check_attackers(
    ruleset: Ruleset, state: MatchState, event: AttackersEnteredBattle
) -> Violations:
    def otherwise(f: str, perm: Permanent) -> Violation:
        return violation(
            "R-CMB-5",
            "{card} guards no Territory ({where})",
            flag="battle_from",
            card=card_name(state, f),
            where=perm.where.lower(),
        )

    allowed = set(attack_candidates(ruleset, state, event.player))
    return _entering(state, event, allowed, ("R-CMB-2", "R-CMB-4"), otherwise)


def _entering(
    state: MatchState,
    event: AttackersEnteredBattle | BlockersEnteredBattle,
    allowed: set[str],
    rules: tuple[str, str],
    otherwise: Callable[[str, Permanent], Violation],
) -> Violations:
    """Followers entering battle (attackers or blockers): each once, each a Follower of the
    player in play (``rules[0]``), unslid (``rules[1]``); what else keeps one out that may not
    enter is ``otherwise``'s to say."""
    entry, slid = rules
    out: list[Violation] = []
    if len(set(event.followers)) != len(event.followers):
        out.append(violation(entry, "a Follower enters battle once"))
    for f in event.followers:
        if f in allowed:
            continue
        perm = state.permanents.get(f)
        if perm is None or perm.controller != event.player or not is_follower(state, f):
            out.append(
                violation(
                    entry,
                    "{card} is not a Follower of {player} in play",
                    card=card_name(state, f),
                    player=event.player,
                )
            )
        elif perm.slid:
            out.append(
                violation(slid, "{card} is slid and may not enter battle", card=card_name(state, f))
            )
        else:
            out.append(otherwise(f, perm))
    return tuple(out)


def check_declare(ruleset: Ruleset, state: MatchState, event: AttackDeclared) -> Violations:
    out: list[Violation] = []
    in_battle = [a for a in state.combat.attackers if a in state.permanents]
    declared = [a.follower for a in event.attacks]
    if len(set(declared)) != len(declared):
        out.append(violation("R-CMB-8", "each attacker is declared once"))
    for a in event.attacks:
        if a.follower not in in_battle:
            out.append(
                violation(
                    "R-CMB-8",
                    "{follower} did not enter battle as an attacker",
                    follower=card_name(state, a.follower),
                )
            )
            continue
        if not can_attack(state, a.follower):
            out.append(
                violation(
                    "R-CMB-3",
                    "{follower} is Fatigued and may not attack",
                    follower=card_name(state, a.follower),
                )
            )
        terr = state.permanents.get(a.target)
        if (
            terr is None
            or terr.where != "TERRITORY"
            or terr.controller not in state.opponents(event.player)
        ):
            out.append(
                violation(
                    "R-CMB-10",
                    "{target} is not an opponent's Territory",
                    target=card_name(state, a.target),
                )
            )
        elif (
            ruleset.naval_aerial_need_skill
            and needs_naval_aerial(state, a.target)
            and not state.has_keyword(a.follower, Keyword.NAVAL_AERIAL_ATTACK)
        ):
            out.append(
                violation(
                    "R-CMB-10",
                    "{follower} cannot attack a {terrain} Territory",
                    follower=card_name(state, a.follower),
                    terrain=state.defn(a.target).terrain,
                    flag="naval_aerial_need_skill",
                )
            )
    missing = [a for a in in_battle if attackable(ruleset, state, a) and a not in declared]
    if missing:
        out.append(
            violation(
                "R-CMB-8",
                "every attacking Follower able to attack is slid and declared; missing {missing}",
                missing=", ".join(missing),
            )
        )
    if ruleset.attack_target_mode == "SINGLE" and len({a.target for a in event.attacks}) > 1:
        out.append(
            violation(
                "R-CMB-8", "one Territory is attacked per Combat Phase", flag="attack_target_mode"
            )
        )
    return tuple(out)


def check_blockers(ruleset: Ruleset, state: MatchState, event: BlockersEnteredBattle) -> Violations:
    def otherwise(f: str, perm: Permanent) -> Violation:
        if perm.where != "GUARD":
            return violation("R-CMB-5", "{card} guards no Territory", card=card_name(state, f))
        return violation(
            "R-CMB-13",
            "{card} guards no attacked Territory and has no Cavalry",
            card=card_name(state, f),
            flag="cavalry_only_blocks_elsewhere",
        )

    allowed = set(block_candidates(ruleset, state, event.player))
    return _entering(state, event, allowed, ("R-CMB-11", "R-CMB-12"), otherwise)


def check_blocks(ruleset: Ruleset, state: MatchState, event: BlocksAssigned) -> Violations:
    out: list[Violation] = []
    attacks = state.combat.attacks
    seen: set[str] = set()
    per_attacker: Counter[str] = Counter()
    for b in event.blocks:
        perm = state.permanents.get(b.blocker)
        if perm is None or perm.controller != event.player:
            out.append(
                violation(
                    "R-CMB-16",
                    "{blocker} is not {player}'s Follower",
                    blocker=card_name(state, b.blocker),
                    player=event.player,
                )
            )
            continue
        if b.blocker not in state.combat.blockers:
            out.append(
                violation(
                    "R-ZONE-7",
                    "{blocker} did not enter battle as a blocker",
                    blocker=card_name(state, b.blocker),
                )
            )
            continue
        if b.blocker in seen or b.blocker in state.combat.blocks:
            out.append(
                violation(
                    "R-CMB-16",
                    "{blocker} blocks one attacker",
                    blocker=card_name(state, b.blocker),
                    flag="many_blockers_per_attacker",
                )
            )
            continue
        seen.add(b.blocker)
        target = attacks.get(b.attacker)
        if target is None or b.attacker not in state.permanents:
            out.append(
                violation(
                    "R-CMB-16",
                    "{card} is not an attacking Follower",
                    card=card_name(state, b.attacker),
                )
            )
            continue
        if state.owners.get(target) != event.player and (
            target not in state.permanents or state.permanents[target].controller != event.player
        ):
            out.append(
                violation(
                    "R-CMB-16",
                    "{card} does not attack {player}",
                    card=card_name(state, b.attacker),
                    player=event.player,
                )
            )
            continue
        if not may_block_at(ruleset, state, perm, target):
            out.append(
                violation(
                    "R-CMB-13",
                    "{blocker} cannot block at {target} without Cavalry",
                    blocker=card_name(state, b.blocker),
                    target=card_name(state, target),
                    flag="cavalry_only_blocks_elsewhere",
                )
            )
        per_attacker[b.attacker] += 1
    if not ruleset.many_blockers_per_attacker:
        out.extend(_one_blocker_each(state, per_attacker))
    return tuple(out)


def _one_blocker_each(state: MatchState, per_attacker: Counter[str]) -> list[Violation]:
    """Attackers blocked by more than one Follower, where the ruleset allows one (OQ-19)."""
    return [
        violation(
            "R-CMB-16",
            "{card} may be blocked by one Follower only",
            card=card_name(state, attacker),
            flag="many_blockers_per_attacker",
        )
        for attacker, n in per_attacker.items()
        if n + len(blockers_of(state, attacker)) > 1
    ]


def check_damage(ruleset: Ruleset, state: MatchState, event: FollowerDamageAssigned) -> Violations:
    out: list[Violation] = []
    active = event.player == state.active
    by_source: dict[str, list[tuple[str, int]]] = {}
    for a in event.allocations:
        by_source.setdefault(a.source, []).append((a.recipient, a.amount))
    if active:
        sources = {
            a: blockers_of(state, a)
            for a in live_attackers(state)
            if distributes_in_step6(state, a)
        }
    else:
        sources = {
            b: [a]
            for b, a in state.combat.blocks.items()
            if b in state.permanents
            and a in state.permanents
            and state.permanents[b].controller == event.player
        }
    for src in by_source:
        if src not in sources:
            out.append(
                violation(
                    "R-CMB-19",
                    "{card} does not distribute damage for {player} in this battle",
                    card=card_name(state, src),
                    player=event.player,
                )
            )
    for src, blockers in sources.items():
        allocs = by_source.get(src, [])
        atk = state.stat(src, Stat.ATK)
        total = sum(n for _, n in allocs)
        if total != atk:
            out.append(
                violation(
                    "R-CMB-19",
                    "{card} distributes {total} damage; its ATK is {atk}",
                    card=card_name(state, src),
                    total=total,
                    atk=atk,
                    expected=str(atk),
                    actual=str(total),
                )
            )
        territory = state.combat.attacks.get(src) if active else None
        raze = active and has_raze(state, src)
        for recipient, _amount in allocs:
            if recipient in blockers:
                continue
            if raze and recipient == territory:
                continue
            if not active:
                out.append(
                    violation(
                        "R-CMB-39",
                        "{card} may damage only the attacker it blocks",
                        card=card_name(state, src),
                    )
                )
            elif recipient == territory:
                out.append(
                    violation(
                        "R-CMB-38",
                        "{card} is blocked and has no Raze: no damage to the Territory",
                        card=card_name(state, src),
                    )
                )
            else:
                out.append(
                    violation(
                        "R-CMB-19",
                        "{card} may damage only the Followers blocking it",
                        card=card_name(state, src),
                    )
                )
        if raze and ruleset.raze_lethal_first and territory is not None:
            out.extend(raze_lethal_first(state, allocs, blockers, territory))
    return tuple(out)


def raze_lethal_first(
    state: MatchState, allocs: list[tuple[str, int]], blockers: list[str], territory: str
) -> list[Violation]:
    """Raze sends damage on to the Territory only after each blocker got its remaining VIT
    (R-CMB-20, flag ``raze_lethal_first``)."""
    out: list[Violation] = []
    to_territory = sum(n for r, n in allocs if r == territory)
    if to_territory > 0:
        got = Counter[str]()
        for r, n in allocs:
            got[r] += n
        for b in blockers:
            need = max(0, state.stat(b, Stat.VIT) - state.permanents[b].damage)
            if got[b] < need:
                out.append(
                    violation(
                        "R-CMB-20",
                        "Raze sends damage to the Territory only after {card} gets its remaining "
                        "VIT ({need})",
                        card=card_name(state, b),
                        need=need,
                        flag="raze_lethal_first",
                    )
                )
    return out


__all__ = [
    "check_attackers",
    "check_blockers",
    "check_blocks",
    "check_damage",
    "check_declare",
    "raze_lethal_first",
]
