"""The decisions open to a player now: ``legal_decisions(ruleset, state, player)``.

Finite and exact for everything the rules define; where a choice is combinatorial (subsets of
attackers or blockers, block assignments, damage distributions, discards) the enumeration is
complete up to `SUBSET_LIMIT` members and otherwise a documented, representative bounded family
(every single member, all, none, all but one). Every decision yielded passes `check` (a property
test holds the two together). `count_legal` counts the whole space such a family is drawn from,
so that a person is told how many are shown of how many.
"""

from __future__ import annotations

from itertools import combinations, islice, product
from typing import TYPE_CHECKING, Final, TypeVar

from vwlog import events as ev
from vwlog.model.state import UnknownIdError
from vwlog.model.types import PlacementReason, SkillKind, Stat, SupplyOption
from vwlog.rules.checks import check_against, is_first_supply, valid_targets
from vwlog.rules.common import (
    attack_candidates,
    attackable,
    block_candidates,
    blockers_of,
    distributes_in_step6,
    has_raze,
    live_attackers,
    may_block_at,
    next_object_id,
    room,
    uses_capacity,
)
from vwlog.rules.flow import DecisionKind, Expect, expect

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

T = TypeVar("T")

SUBSET_LIMIT: Final = 6
"""Up to this many candidates, every subset is enumerated."""
PRODUCT_LIMIT: Final = 256
"""Largest number of combined choices enumerated exactly (targets, blocks, damage)."""
COUNT_BUDGET: Final = 4096
"""Most candidates `count_legal` checks before it settles for a lower bound."""
BOUNDED_KINDS: Final = frozenset(
    (
        DecisionKind.ATTACKERS,
        DecisionKind.DECLARE,
        DecisionKind.BLOCKERS,
        DecisionKind.BLOCKS,
        DecisionKind.DAMAGE,
        DecisionKind.DISCARD,
    )
)
"""The combinatorial choices, of which `legal_decisions` may yield a bounded family only."""


def legal_decisions(ruleset: Ruleset, state: MatchState, player: str) -> Iterator[ev.AnyEvent]:
    """Yield the decisions ``player`` may make now (empty if another player or the rules act)."""
    exp = expect(ruleset, state)
    if exp.player != player or exp.kind is None:
        return
    try:
        for decision in _candidates(ruleset, state, exp, player):
            if not check_against(ruleset, state, exp, decision):
                yield decision
    except UnknownIdError:
        # the board names a card the match defines nothing for (a record broke R-SET-4 or
        # R-ZONE-5 to get it there): no decision that depends on it can be priced or checked
        return


def count_legal(
    ruleset: Ruleset, state: MatchState, player: str, *, budget: int = COUNT_BUDGET
) -> tuple[int, bool]:
    """How many decisions ``player`` may make now, and whether the count is exact.

    Where `legal_decisions` yields a bounded family of a combinatorial choice, this checks
    the whole space it is drawn from (every subset, every combination, every split of the
    damage); after ``budget`` candidates the count of the legal ones found so far is a lower
    bound (the flag is ``False``).
    """
    exp = expect(ruleset, state)
    if exp.player != player or exp.kind is None:
        return 0, True
    legal = 0
    try:
        for tried, decision in enumerate(_candidates(ruleset, state, exp, player, whole=True)):
            if tried >= budget:
                return legal, False
            if not check_against(ruleset, state, exp, decision):
                legal += 1
    except UnknownIdError:
        pass  # as in `legal_decisions`: nothing that depends on an undefined card is counted
    return legal, True


def _candidates(
    ruleset: Ruleset, state: MatchState, exp: Expect, player: str, *, whole: bool = False
) -> Iterator[ev.AnyEvent]:
    """The decisions to check: the bounded family, or with ``whole`` the whole space."""
    kind = exp.kind
    if kind == DecisionKind.SUPPLY:
        options = (
            (SupplyOption.FIRST_TURN_CARD_1, SupplyOption.FIRST_TURN_GOLD_1)
            if is_first_supply(ruleset, state, player)
            else (SupplyOption.CARDS_2, SupplyOption.GOLD_2, SupplyOption.CARD_1_GOLD_1)
        )
        for option in options:
            yield ev.SupplyChosen(player=player, option=option)
        return
    if kind in (DecisionKind.DEPLOY, DecisionKind.STRAY):
        yield from _placements(ruleset, state, player, stray=kind == DecisionKind.STRAY)
        if kind == DecisionKind.DEPLOY:
            yield ev.DeploymentFinished(player=player)
        return
    if kind == DecisionKind.PRIORITY:
        yield ev.PriorityPassed(player=player)
        yield from _costs(state, player)
        return
    if kind == DecisionKind.REGISTRATION:
        yield from _registrations(ruleset, state, player)
        return
    entering = _ENTERING.get(kind) if kind is not None else None
    if entering is not None:
        candidates, enter = entering
        for subset in _subsets(candidates(ruleset, state, player), whole=whole):
            yield enter(player=player, followers=subset)
        return
    combinatorial = _COMBINATORIAL.get(kind) if kind is not None else None
    if combinatorial is not None:
        yield from combinatorial(ruleset, state, player, whole)
        return
    if kind == DecisionKind.DISCARD:
        hand = state.player(player).hand
        need = len(hand) - ruleset.hand_limit
        for cards in _bounded(combinations(hand, need), whole):
            yield ev.HandLimitDiscarded(player=player, cards=cards)


def _bounded(choices: Iterable[T], whole: bool) -> Iterable[T]:
    """The first `PRODUCT_LIMIT` choices, or with ``whole`` all of them."""
    return choices if whole else islice(choices, PRODUCT_LIMIT)


def _subsets(items: Sequence[str], *, whole: bool = False) -> Iterator[tuple[str, ...]]:
    """Every subset up to `SUBSET_LIMIT` items (or with ``whole``, however many); otherwise
    none, all, each one, all but one."""
    items = tuple(items)
    if whole or len(items) <= SUBSET_LIMIT:
        for r in range(len(items) + 1):
            yield from combinations(items, r)
        return
    yield ()
    yield items
    for x in items:
        yield (x,)
    for x in items:
        yield tuple(i for i in items if i != x)


def _placements(
    ruleset: Ruleset, state: MatchState, player: str, *, stray: bool
) -> Iterator[ev.AnyEvent]:
    if stray:
        territory = state.stray_territory
        if territory is None:
            return
        for c in state.permanents.values():
            if c.controller == player and c.where == "STRAY":
                yield ev.PropertyPlaced(
                    player=player,
                    card=c.id,
                    territory=territory,
                    reason=PlacementReason.NEW_TERRITORY_STRAY,
                )
        return
    in_prep = state.step is not None and state.phase == "PREP"
    reason = PlacementReason.UNSLIDE_STEP if in_prep else PlacementReason.DEPLOY_PHASE
    movable = ("GUARD", "RETURN_HOME", "STRAY") if in_prep else ("GUARD",)
    territories = state.territories(player)
    for c in state.permanents.values():
        if c.controller != player or c.where not in movable:
            continue
        for t in territories:
            if t.id == c.territory:
                continue
            if uses_capacity(ruleset, state, c.id) and room(ruleset, state, t.id) <= 0:
                continue
            yield ev.PropertyPlaced(player=player, card=c.id, territory=t.id, reason=reason)


def _costs(state: MatchState, player: str) -> Iterator[ev.AnyEvent]:
    p = state.player(player)
    for card in dict.fromkeys((*p.hand, *p.subdeck)):
        if state.instances.get(card) not in state.cards:
            continue  # no definition in the match (R-SET-4 at its start): nothing to pay for
        d = state.defn(card)
        if d.cost <= p.gold:
            yield ev.CostPaid(player=player, card=card, gold=d.cost)
    for perm in state.permanents.values():
        if perm.controller != player:
            continue
        for s in state.defn(perm.id).skills:
            if s.kind != SkillKind.ACTIVE or s.cost_gold > p.gold:
                continue
            if s.cost_slide and perm.slid:
                continue
            yield ev.CostPaid(
                player=player,
                card=perm.id,
                skill=s.id,
                gold=s.cost_gold,
                slid=(perm.id,) if s.cost_slide else (),
            )


def _registrations(ruleset: Ruleset, state: MatchState, player: str) -> Iterator[ev.AnyEvent]:
    paid = state.pending_cost
    if paid is None:
        return
    object_id = next_object_id(state)
    d = state.defn(paid.card)
    if paid.skill is None:
        if d.type.is_property:
            for t in state.territories(player):
                if not uses_capacity(ruleset, state, paid.card) or room(ruleset, state, t.id) > 0:
                    yield ev.CardSummoned(
                        player=player, card=paid.card, object_id=object_id, territory=t.id
                    )
        else:
            yield ev.CardSummoned(player=player, card=paid.card, object_id=object_id)
        return
    skill = d.skill(paid.skill)
    if skill is None:
        return
    wanted = skill.target
    if wanted is None:
        yield ev.SkillRegistered(
            player=player, card=paid.card, skill=paid.skill, object_id=object_id
        )
        return
    for target in valid_targets(state, player, wanted):
        yield ev.SkillRegistered(
            player=player, card=paid.card, skill=paid.skill, object_id=object_id, target=target
        )


def _declarations(
    ruleset: Ruleset, state: MatchState, player: str, whole: bool = False
) -> Iterator[ev.AnyEvent]:
    reach = {a: attackable(ruleset, state, a) for a in state.combat.attackers}
    attackers = [a for a, targets in reach.items() if targets]
    if not attackers:
        return
    targets = list(dict.fromkeys(t for a in attackers for t in reach[a]))
    seen: set[tuple[str, ...]] = set()
    # everyone who can reach it at one target first (the common case) ...
    for t in targets:
        combo = tuple(t if t in reach[a] else reach[a][0] for a in attackers)
        seen.add(combo)
        yield _declaration(player, attackers, combo)
    # ... then independent targets, when the ruleset allows one per attacker (OQ-17)
    if ruleset.attack_target_mode == "PER_ATTACKER":
        for combo in _bounded(product(*(reach[a] for a in attackers)), whole):
            if combo not in seen:
                yield _declaration(player, attackers, combo)


def _declaration(player: str, attackers: list[str], targets: Sequence[str]) -> ev.AttackDeclared:
    return ev.AttackDeclared(
        player=player,
        attacks=tuple(
            ev.Attack(follower=a, target=t) for a, t in zip(attackers, targets, strict=True)
        ),
    )


def _block_assignments(
    ruleset: Ruleset, state: MatchState, player: str, whole: bool = False
) -> Iterator[ev.AnyEvent]:
    mine = [
        b
        for b in state.combat.blockers
        if b in state.permanents
        and state.permanents[b].controller == player
        and b not in state.combat.blocks
    ]
    options: list[list[str | None]] = []
    for b in mine:
        perm = state.permanents[b]
        choices: list[str | None] = [
            a
            for a in live_attackers(state)
            if (t := state.combat.attacks[a]) in state.permanents
            and state.permanents[t].controller == player
            and may_block_at(ruleset, state, perm, t)
        ]
        choices.append(None)
        options.append(choices)
    for combo in _bounded(product(*options), whole):
        blocks = tuple(
            ev.Block(blocker=b, attacker=a)
            for b, a in zip(mine, combo, strict=True)
            if a is not None
        )
        yield ev.BlocksAssigned(player=player, blocks=blocks)


def _split(
    atk: int, recipients: Sequence[tuple[str, int]], raze_to: str | None
) -> list[list[tuple[str, int]]]:
    """Representative distributions of ``atk`` among recipients ((id, remaining VIT) pairs):
    lethal damage in order with the rest to the last (or the Territory with Raze), everything to
    each single recipient, and an even split."""
    out: list[list[tuple[str, int]]] = []
    if not recipients:
        return [[(raze_to, atk)]] if raze_to and atk else [[]]
    left = atk
    lethal: list[tuple[str, int]] = []
    for rid, need in recipients:
        give = min(left, need)
        lethal.append((rid, give))
        left -= give
    if left:
        if raze_to:
            lethal.append((raze_to, left))
        else:
            rid, give = lethal[-1]
            lethal[-1] = (rid, give + left)
    out.append(lethal)
    if not raze_to or len(recipients) == 0:
        for rid, _ in recipients:
            out.append([(rid, atk)])
        n = len(recipients)
        base, extra = divmod(atk, n)
        out.append([(rid, base + (1 if i < extra else 0)) for i, (rid, _) in enumerate(recipients)])
    unique: list[list[tuple[str, int]]] = []
    for d in out:
        cleaned = [(r, n) for r, n in d if n > 0]
        if cleaned not in unique:
            unique.append(cleaned)
    return unique


def _compositions(atk: int, recipients: Sequence[str]) -> list[list[tuple[str, int]]]:
    """Every way to split ``atk`` among ``recipients`` (zero shares left out)."""
    if not recipients:
        return [[]]
    if len(recipients) == 1:
        return [[(recipients[0], atk)] if atk else []]
    first, rest = recipients[0], recipients[1:]
    out = []
    for give in range(atk, -1, -1):
        for tail in _compositions(atk - give, rest):
            out.append([(first, give), *tail] if give else tail)
    return out


def _distributions(
    ruleset: Ruleset, state: MatchState, player: str, whole: bool = False
) -> Iterator[ev.AnyEvent]:
    if player == state.active:
        per_source = []
        for a in live_attackers(state):
            blockers = blockers_of(state, a)
            if not distributes_in_step6(state, a):
                continue
            atk = state.stat(a, Stat.ATK)
            recipients = [
                (b, max(0, state.stat(b, Stat.VIT) - state.permanents[b].damage)) for b in blockers
            ]
            raze_to = state.combat.attacks[a] if has_raze(state, a) else None
            if whole:
                ids = [b for b, _ in recipients] + ([raze_to] if raze_to else [])
                per_source.append([(a, d) for d in _compositions(atk, ids)])
            else:
                per_source.append([(a, d) for d in _split(atk, recipients, raze_to)])
    else:
        per_source = []
        for b, a in state.combat.blocks.items():
            if b in state.permanents and a in state.permanents:
                if state.permanents[b].controller == player:
                    atk = state.stat(b, Stat.ATK)
                    per_source.append([(b, [(a, atk)] if atk else [])])
    for combo in _bounded(product(*per_source), whole):
        allocations = tuple(
            ev.Allocation(source=src, recipient=r, amount=n) for src, dist in combo for r, n in dist
        )
        yield ev.FollowerDamageAssigned(player=player, allocations=allocations)


_ENTERING: Final[
    dict[
        str,
        tuple[
            Callable[[Ruleset, MatchState, str], list[str]],
            type[ev.AttackersEnteredBattle | ev.BlockersEnteredBattle],
        ],
    ]
] = {
    DecisionKind.ATTACKERS: (attack_candidates, ev.AttackersEnteredBattle),
    DecisionKind.BLOCKERS: (block_candidates, ev.BlockersEnteredBattle),
}
"""Followers entering battle: those who may, and the decision that names a subset of them."""

_COMBINATORIAL: Final[
    dict[str, Callable[[Ruleset, MatchState, str, bool], Iterator[ev.AnyEvent]]]
] = {
    DecisionKind.DECLARE: _declarations,
    DecisionKind.BLOCKS: _block_assignments,
    DecisionKind.DAMAGE: _distributions,
}
"""The combat decisions drawn from a product of choices: the bounded family, or the whole
space (the last argument)."""


__all__ = [
    "BOUNDED_KINDS",
    "COUNT_BUDGET",
    "PRODUCT_LIMIT",
    "SUBSET_LIMIT",
    "count_legal",
    "legal_decisions",
]
