"""The generator's policies: how a generated player chooses among the legal decisions.

A policy only *chooses*; the decisions are the engine's (`legal_decisions`), so no policy holds
rules of its own. Every choice a policy makes comes from the random generators it is given, so
a seed gives the same match.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal, Protocol

from vwlog import events as ev
from vwlog.model.cards import DEFAULT_RULESET, CardDef, Target
from vwlog.model.types import CardType, Phase, Stat, SupplyOption
from vwlog.rules.common import can_attack, room

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.model.state import MatchState

PolicyName = Literal["greedy", "random"]

REGISTRATIONS_PER_WINDOW = 6
"""A policy passes after this many registrations in one priority window (no endless loops of
free skills)."""


class Policy(Protocol):
    """Chooses one of the legal decisions."""

    def choose(
        self, state: MatchState, player: str, options: Sequence[ev.AnyEvent]
    ) -> ev.AnyEvent: ...


class RandomPolicy:
    """Uniformly random among legal decisions, passing more often so matches move on."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._window: tuple[int, str | None, str | None, int] = (0, None, None, 0)

    def choose(self, state: MatchState, player: str, options: Sequence[ev.AnyEvent]) -> ev.AnyEvent:
        """Pick one option at random (passes and finishing weighted up)."""
        quiet = [o for o in options if isinstance(o, (ev.PriorityPassed, ev.DeploymentFinished))]
        if quiet and self.rng.random() < 0.6:
            return quiet[0]
        return self.rng.choice(list(options))


class GreedyPolicy:
    """A simple deterministic heuristic that develops, attacks, blocks and pursues honor, so
    matches end in every victory type rather than stalling."""

    PLANS = ("military", "political", "expansion")
    """Each player follows one plan, drawn from the seed: attack, pursue honor, or expand."""

    def __init__(
        self, rng: random.Random | None = None, chance: random.Random | None = None
    ) -> None:
        self.rng = rng or random.Random(0)
        self.chance = chance
        """Draws among options the heuristics do not rank (``None``: the first is taken)."""
        self._registrations: dict[tuple[int, str | None, str | None, int], int] = {}
        self.plans: dict[str, str] = {}

    def plan(self, player: str) -> str:
        """The plan a player follows (drawn once, from the seed)."""
        if player not in self.plans:
            self.plans[player] = self.rng.choices(self.PLANS, weights=(4, 3, 2))[0]
        return self.plans[player]

    def choose(self, state: MatchState, player: str, options: Sequence[ev.AnyEvent]) -> ev.AnyEvent:
        """Choose by a fixed order of preferences."""
        first = options[0]
        if isinstance(first, ev.SupplyChosen):
            return self._supply(state, player, options)
        if isinstance(first, ev.AttackersEnteredBattle):
            return max(options, key=lambda o: _attack_value(state, o))
        if isinstance(first, ev.AttackDeclared):
            if self.plan(player) == "military":
                return min(options, key=lambda o: _military_target(state, o))
            return min(options, key=lambda o: _target_score(state, o))
        if isinstance(first, ev.BlockersEnteredBattle):
            return max(options, key=lambda o: len(o.followers))  # type: ignore[union-attr]
        if isinstance(first, ev.BlocksAssigned):
            return max(options, key=lambda o: _block_score(state, o))
        if isinstance(first, (ev.CardSummoned, ev.SkillRegistered)):
            return max(options, key=lambda o: _registration_score(state, player, o))
        if isinstance(first, (ev.PropertyPlaced, ev.DeploymentFinished)):
            for o in options:
                if isinstance(o, ev.PropertyPlaced) and state.permanents[o.card].where != "GUARD":
                    return o
            done = next((o for o in options if isinstance(o, ev.DeploymentFinished)), None)
            return done if done is not None else self._any(options)
        if isinstance(first, ev.PriorityPassed):
            return self._priority(state, player, options)
        return self._any(options)

    def _any(self, options: Sequence[ev.AnyEvent]) -> ev.AnyEvent:
        """One of options the heuristics do not rank: drawn, or the first without ``chance``."""
        return self.chance.choice(options) if self.chance is not None else options[0]

    def _supply(
        self, state: MatchState, player: str, options: Sequence[ev.AnyEvent]
    ) -> ev.AnyEvent:
        me = state.player(player)
        hand = len(me.hand)
        no_land = not state.territory_count(player) and not any(
            state.defn(c).type == CardType.TERRITORY for c in me.hand
        )
        cards = bool(me.deck) and (hand < 4 or no_land or me.gold >= 12)
        prefer = (
            (SupplyOption.FIRST_TURN_CARD_1, SupplyOption.CARDS_2)
            if cards
            else (SupplyOption.FIRST_TURN_GOLD_1, SupplyOption.GOLD_2, SupplyOption.CARD_1_GOLD_1)
        )
        for want in prefer:
            for o in options:
                if isinstance(o, ev.SupplyChosen) and o.option == want:
                    return o
        return self._any(options)

    def _priority(
        self, state: MatchState, player: str, options: Sequence[ev.AnyEvent]
    ) -> ev.AnyEvent:
        window = (state.turn, str(state.phase), str(state.step), len(state.register))
        key = (state.turn, str(state.phase), str(state.step), 0)
        used = self._registrations.get(key, 0)
        passing = options[0]
        if used >= REGISTRATIONS_PER_WINDOW:
            return passing
        costs = [o for o in options if isinstance(o, ev.CostPaid)]
        best: tuple[float, ev.AnyEvent] | None = None
        for o in costs:
            assert isinstance(o, ev.CostPaid)
            score = _cost_score(state, player, o, self.plan(player))
            if score > 0 and (best is None or score > best[0]):
                best = (score, o)
        del window
        if best is None:
            return passing
        self._registrations[key] = used + 1
        return best[1]


def _attack_value(state: MatchState, option: ev.AnyEvent) -> float:
    assert isinstance(option, ev.AttackersEnteredBattle)
    # enter with every Follower able to attack (Rush overcomes Fatigue); the others stay home
    return sum(1 if can_attack(state, f) else -1 for f in option.followers) + 0.001 * len(
        option.followers
    )


def _target_score(state: MatchState, option: ev.AnyEvent) -> float:
    assert isinstance(option, ev.AttackDeclared)
    score = 0.0
    for a in option.attacks:
        t = state.permanents[a.target]
        remaining = state.stat(t.id, Stat.DEFENSE) - t.damage
        guards = sum(1 for g in state.guards(t.id) if g.where == "GUARD")
        owner_left = len(state.territories(t.controller))
        score += remaining + 2 * guards + owner_left
    return score + len({a.target for a in option.attacks}) * 3


def _military_target(state: MatchState, option: ev.AnyEvent) -> tuple[int, float]:
    """Concentrate on one Territory of the opponent closest to losing their last one."""
    assert isinstance(option, ev.AttackDeclared)
    targets = {a.target for a in option.attacks}
    left = min(state.territory_count(state.permanents[t].controller) for t in targets)
    return (len(targets), left * 10 + _target_score(state, option))


def _block_score(state: MatchState, option: ev.AnyEvent) -> float:
    assert isinstance(option, ev.BlocksAssigned)
    score = 0.0
    for b in option.blocks:
        atk = state.stat(b.attacker, Stat.ATK)
        vit = state.stat(b.blocker, Stat.VIT) - state.permanents[b.blocker].damage
        target = state.combat.attacks.get(b.attacker)
        threat = 0.0
        if target is not None and target in state.permanents:
            t = state.permanents[target]
            threat = 3.0 if atk >= state.stat(target, Stat.DEFENSE) - t.damage else 1.0
        score += threat + (1.0 if vit > atk else -0.5) + 0.5 * state.stat(b.blocker, Stat.ATK)
    return score


def _card_value(defn: CardDef) -> float:
    value = defn.cost + defn.atk + defn.vit
    for s in defn.skills:
        for e in s.effects or ():
            if e.kind == "honor" and e.target == Target.CONTROLLER:
                value += 2 * e.amount
    return value


def _honor_of(defn: CardDef) -> int:
    return sum(
        e.amount
        for s in defn.skills
        for e in s.effects or ()
        if e.kind == "honor" and e.target == Target.CONTROLLER
    )


def _cost_score(state: MatchState, player: str, option: ev.CostPaid, plan: str) -> float:
    d = state.defn(option.card)
    me = state.player(player)
    if option.skill is None:
        mine = state.territory_count(player)
        if d.type == CardType.TERRITORY:
            if plan == "expansion" or mine < 2:
                return 20.0 + d.produce * 2 + d.capacity - mine
            if plan == "political":
                return 4.0 + 6 * _honor_of(d) if mine < 3 else 0.0
            stalled = not any(state.territory_count(o) for o in state.opponents(player))
            return 3.0 if mine < 3 or stalled else 0.0
        if d.type.is_property:
            if plan == "military":
                return 8.0 + _card_value(d) + 2 * d.atk
            if plan == "political":
                return 5.0 + _card_value(d) + 6 * _honor_of(d)
            return 5.0 + _card_value(d)
        # Actions: only when they do something measurable for us
        return 3.0 + _card_value(d) if state.phase in (Phase.MAIN1, Phase.MAIN2) else 0.0
    skill = d.skill(option.skill)
    if skill is None or skill.effects is None:
        return 0.0
    if not (option.slid or option.gold or skill.restriction != "NONE"):
        return 0.0  # free unrestricted skills could loop forever
    value = 0.0
    for e in skill.effects:
        if e.kind == "honor" and e.target == Target.CONTROLLER:
            value += (6.0 if plan == "political" else 2.0) * e.amount
        elif e.kind == "gold" and e.target == Target.CONTROLLER:
            value += e.amount
        elif e.kind in ("damage", "move") and e.target in (
            Target.OPPOSING_FOLLOWER,
            Target.OPPOSING_TERRITORY,
        ):
            value += 4.0
        elif e.kind == "draw":
            value += 1.5 if len(me.hand) < 6 else 0.0
    if option.slid and state.phase in (Phase.MAIN1,) and value < 6:
        return 0.0  # keep attackers for combat unless the skill is worth it
    return value - option.gold * 0.5


def _registration_score(state: MatchState, player: str, option: ev.AnyEvent) -> float:
    if isinstance(option, ev.CardSummoned):
        if option.territory is None:
            return 0.0
        rs = state.ruleset or DEFAULT_RULESET
        return float(room(rs, state, option.territory))
    assert isinstance(option, ev.SkillRegistered)
    if option.target is None:
        return 0.0
    target = state.permanents[option.target]
    if target.controller == player:
        return float(state.stat(target.id, Stat.ATK))
    if target.where == "TERRITORY":
        return -float(state.stat(target.id, Stat.DEFENSE) - target.damage)
    return float(state.stat(target.id, Stat.ATK))


def make_policy(
    name: PolicyName, rng: random.Random, chance: random.Random | None = None
) -> Policy:
    """The policy called ``name``, seeded; ``chance`` draws what the greedy heuristics do not
    rank (without it, the first such option is taken)."""
    if name == "random":
        return RandomPolicy(rng)
    return GreedyPolicy(rng, chance)


__all__ = [
    "REGISTRATIONS_PER_WINDOW",
    "GreedyPolicy",
    "Policy",
    "PolicyName",
    "RandomPolicy",
    "make_policy",
]
