"""The match generator: complete legal matches from a seed, in play mode.

Every decision comes from `legal_decisions` and every consequence from `next_consequences`
(through `vwlog.engine.play`); a policy only *chooses* among legal decisions, so the generator
holds no rules of its own. The same seed gives the same bytes.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from vwlog.engine.play import advance, play
from vwlog.events import (
    AnyEvent,
    AttackDeclared,
    AttackersEnteredBattle,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardInstance,
    CardSummoned,
    CostPaid,
    DeploymentFinished,
    EventRecord,
    LogHeader,
    MatchStarted,
    PriorityPassed,
    PropertyPlaced,
    Seat,
    SkillRegistered,
    SupplyChosen,
)
from vwlog.events.match import Shuffle, deck_commitment
from vwlog.model.cards import DEFAULT_RULESET, CardDef, CardPool, Ruleset, Target
from vwlog.model.types import CardType, MatchFormat, Phase, Stat, SupplyOption
from vwlog.projections import INITIAL, evolve
from vwlog.rules import expect, legal_decisions
from vwlog.rules.common import can_attack

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from vwlog.model.state import MatchState

PolicyName = Literal["greedy", "random"]

DECK_SIZE = 40
"""Cards in a random deck."""
MAX_COPIES = 3
"""Copies of one card in a random deck."""
REGISTRATIONS_PER_WINDOW = 6
"""A policy passes after this many registrations in one priority window (no endless loops of
free skills)."""
ID_BYTES = 6
"""Random bytes in an instance id of a secretly shuffled match (12 hex digits)."""
SALT_BYTES = 32
"""Random bytes of a seat's salt in a secretly shuffled match (64 hex digits)."""


class Policy(Protocol):
    """Chooses one of the legal decisions."""

    def choose(self, state: MatchState, player: str, options: Sequence[AnyEvent]) -> AnyEvent: ...


@dataclass(frozen=True, slots=True)
class GeneratedMatch:
    """One generated match."""

    header: LogHeader
    records: tuple[EventRecord, ...]
    state: MatchState
    """The final state."""

    @property
    def winner(self) -> str | None:
        """The winner, if the match ended."""
        return self.state.winner

    @property
    def victory(self) -> str | None:
        """The victory type, if the match ended."""
        return self.state.victory


def random_deck(pool: CardPool, rng: random.Random, size: int = DECK_SIZE) -> list[str]:
    """A random legal deck: a third Territories, the rest other cards, at most 3 copies each."""
    territories = [c.id for c in pool.cards if c.type == CardType.TERRITORY]
    others = [c.id for c in pool.cards if c.type != CardType.TERRITORY]
    deck: list[str] = []
    counts: dict[str, int] = {}

    def take(ids: list[str], n: int) -> None:
        while n > 0:
            card = rng.choice(ids)
            if counts.get(card, 0) < MAX_COPIES:
                counts[card] = counts.get(card, 0) + 1
                deck.append(card)
                n -= 1

    take(territories, size // 3)
    take(others, size - size // 3)
    return deck


def build_start(
    pool: CardPool,
    decks: Sequence[Sequence[str]],
    rng: random.Random | None,
    *,
    ruleset: Ruleset = DEFAULT_RULESET,
    teams: Sequence[str | None] | None = None,
    match_format: MatchFormat = MatchFormat.DUEL,
    seed: int | None = None,
) -> MatchStarted:
    """A `MatchStarted` with shuffled decks and the cards they use.

    With ``rng`` (a simulation, a test): the decks are shuffled and the first player drawn by
    it, instance ids are ``p1-001…`` in deck order, and the same ``rng`` state gives the same
    match. Given a ``seed`` too, the record says it was shuffled from it (``shuffle: seeded``).

    Without (``None``, a live match): a secret shuffle. The operating system's CSPRNG
    (`secrets.SystemRandom`) shuffles and draws the first player; instance ids are random per
    match (``p2-`` and 12 hex digits), so that they say nothing of the order; each seat gets a
    random salt and a public commitment to its order (`Seat.deck_commitment`), to be opened at
    the end (`DeckRevealed`).
    """
    secret = rng is None
    shuffler: random.Random = secrets.SystemRandom() if rng is None else rng
    seats = []
    used: set[str] = set()
    taken: set[str] = set()
    for i, deck in enumerate(decks):
        player = f"p{i + 1}"
        cards = list(deck)
        shuffler.shuffle(cards)
        used.update(cards)
        ids = (
            _secret_ids(player, len(cards), taken)
            if secret
            else [f"{player}-{n + 1:03d}" for n in range(len(cards))]
        )
        seat = Seat(
            player=player,
            name=f"Player {i + 1}",
            team=teams[i] if teams else None,
            deck=tuple(CardInstance(id=id_, card=c) for id_, c in zip(ids, cards, strict=True)),
        )
        if secret:
            salt = secrets.token_hex(SALT_BYTES)
            seat = seat.model_copy(
                update={"salt": salt, "deck_commitment": deck_commitment(salt, ids)}
            )
        seats.append(seat)
    first = seats[shuffler.randrange(len(seats))].player
    defs = tuple(c for c in pool.cards if c.id in used)
    shuffle: Shuffle | None = "secret" if secret else ("seeded" if seed is not None else None)
    return MatchStarted(
        format=match_format,
        seats=tuple(seats),
        first_player=first,
        ruleset=ruleset,
        cards=defs,
        shuffle=shuffle,
        seed=seed if not secret else None,
    )


def _secret_ids(player: str, count: int, taken: set[str]) -> list[str]:
    """``count`` instance ids for ``player``'s cards, random and unique in the match (``taken``
    holds those given so far, and gets these)."""
    ids: list[str] = []
    while len(ids) < count:
        candidate = f"{player}-{secrets.token_hex(ID_BYTES)}"
        if candidate not in taken:
            taken.add(candidate)
            ids.append(candidate)
    return ids


class Generation:
    """A match being generated, streamed: iterate `records` once (each record is made as the
    match is played, none is kept); `state` is then the final state.

    What `generate` returns whole, in memory that does not grow with the match.
    """

    def __init__(
        self,
        start: MatchStarted,
        policy: Policy,
        *,
        match_id: str,
        max_turns: int = 200,
        generator: str | None = None,
    ) -> None:
        self.start = start
        self.policy = policy
        self.max_turns = max_turns
        self.header = LogHeader(match_id=match_id, generator=generator)
        """The log's header (unsealed)."""
        self.state: MatchState = INITIAL
        """The state after the records yielded so far (the final state once they are all)."""

    def records(self) -> Iterator[EventRecord]:
        """Play the match, yielding its records (seq 1, 2, 3, ...) as they are made."""
        for seq, event in enumerate(self._events(), start=1):
            yield EventRecord(seq=seq, event=event)

    def _events(self) -> Iterator[AnyEvent]:
        start, ruleset = self.start, self.start.ruleset
        state = evolve(INITIAL, start)
        self.state = state
        yield start
        state, more = advance(ruleset, state)
        self.state = state
        yield from more
        while not state.over and state.turn <= self.max_turns:
            exp = expect(ruleset, state)
            player = exp.player
            if player is None:  # pragma: no cover - advance always stops at a decision
                break
            options = list(legal_decisions(ruleset, state, player))
            if not options:  # pragma: no cover - a decision point always offers something
                raise AssertionError(f"no legal decision for {player} at turn {state.turn}")
            decision = self.policy.choose(state, player, options)
            state, applied = play(ruleset, state, decision)
            self.state = state
            yield from applied


def generate(
    start: MatchStarted,
    policy: Policy,
    *,
    match_id: str,
    max_turns: int = 200,
    generator: str | None = None,
) -> GeneratedMatch:
    """Play a match from ``start`` until it is won or ``max_turns`` turns have been played."""
    generation = Generation(
        start, policy, match_id=match_id, max_turns=max_turns, generator=generator
    )
    records = tuple(generation.records())
    return GeneratedMatch(header=generation.header, records=records, state=generation.state)


# -- policies --------------------------------------------------------------------------------


class RandomPolicy:
    """Uniformly random among legal decisions, passing more often so matches move on."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._window: tuple[int, str | None, str | None, int] = (0, None, None, 0)

    def choose(self, state: MatchState, player: str, options: Sequence[AnyEvent]) -> AnyEvent:
        """Pick one option at random (passes and finishing weighted up)."""
        quiet = [o for o in options if isinstance(o, (PriorityPassed, DeploymentFinished))]
        if quiet and self.rng.random() < 0.6:
            return quiet[0]
        return self.rng.choice(list(options))


class GreedyPolicy:
    """A simple deterministic heuristic that develops, attacks, blocks and pursues honor, so
    matches end in every victory type rather than stalling."""

    PLANS = ("military", "political", "expansion")
    """Each player follows one plan, drawn from the seed: attack, pursue honor, or expand."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)
        self._registrations: dict[tuple[int, str | None, str | None, int], int] = {}
        self.plans: dict[str, str] = {}

    def plan(self, player: str) -> str:
        """The plan a player follows (drawn once, from the seed)."""
        if player not in self.plans:
            self.plans[player] = self.rng.choices(self.PLANS, weights=(4, 3, 2))[0]
        return self.plans[player]

    def choose(self, state: MatchState, player: str, options: Sequence[AnyEvent]) -> AnyEvent:
        """Choose by a fixed order of preferences."""
        first = options[0]
        if isinstance(first, SupplyChosen):
            return self._supply(state, player, options)
        if isinstance(first, AttackersEnteredBattle):
            return max(options, key=lambda o: _attack_value(state, o))
        if isinstance(first, AttackDeclared):
            if self.plan(player) == "military":
                return min(options, key=lambda o: _military_target(state, o))
            return min(options, key=lambda o: _target_score(state, o))
        if isinstance(first, BlockersEnteredBattle):
            return max(options, key=lambda o: len(o.followers))  # type: ignore[union-attr]
        if isinstance(first, BlocksAssigned):
            return max(options, key=lambda o: _block_score(state, o))
        if isinstance(first, (CardSummoned, SkillRegistered)):
            return max(options, key=lambda o: _registration_score(state, player, o))
        if isinstance(first, (PropertyPlaced, DeploymentFinished)):
            for o in options:
                if isinstance(o, PropertyPlaced) and state.permanents[o.card].where != "GUARD":
                    return o
            return next((o for o in options if isinstance(o, DeploymentFinished)), first)
        if isinstance(first, PriorityPassed):
            return self._priority(state, player, options)
        return first

    def _supply(self, state: MatchState, player: str, options: Sequence[AnyEvent]) -> AnyEvent:
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
                if isinstance(o, SupplyChosen) and o.option == want:
                    return o
        return options[0]

    def _priority(self, state: MatchState, player: str, options: Sequence[AnyEvent]) -> AnyEvent:
        window = (state.turn, str(state.phase), str(state.step), len(state.register))
        key = (state.turn, str(state.phase), str(state.step), 0)
        used = self._registrations.get(key, 0)
        passing = options[0]
        if used >= REGISTRATIONS_PER_WINDOW:
            return passing
        costs = [o for o in options if isinstance(o, CostPaid)]
        best: tuple[float, AnyEvent] | None = None
        for o in costs:
            assert isinstance(o, CostPaid)
            score = _cost_score(state, player, o, self.plan(player))
            if score > 0 and (best is None or score > best[0]):
                best = (score, o)
        del window
        if best is None:
            return passing
        self._registrations[key] = used + 1
        return best[1]


def _attack_value(state: MatchState, option: AnyEvent) -> float:
    assert isinstance(option, AttackersEnteredBattle)
    # enter with every Follower able to attack (Rush overcomes Fatigue); the others stay home
    return sum(1 if can_attack(state, f) else -1 for f in option.followers) + 0.001 * len(
        option.followers
    )


def _target_score(state: MatchState, option: AnyEvent) -> float:
    assert isinstance(option, AttackDeclared)
    score = 0.0
    for a in option.attacks:
        t = state.permanents[a.target]
        remaining = state.stat(t.id, Stat.DEFENSE) - t.damage
        guards = sum(1 for g in state.guards(t.id) if g.where == "GUARD")
        owner_left = len(state.territories(t.controller))
        score += remaining + 2 * guards + owner_left
    return score + len({a.target for a in option.attacks}) * 3


def _military_target(state: MatchState, option: AnyEvent) -> tuple[int, float]:
    """Concentrate on one Territory of the opponent closest to losing their last one."""
    assert isinstance(option, AttackDeclared)
    targets = {a.target for a in option.attacks}
    left = min(state.territory_count(state.permanents[t].controller) for t in targets)
    return (len(targets), left * 10 + _target_score(state, option))


def _block_score(state: MatchState, option: AnyEvent) -> float:
    assert isinstance(option, BlocksAssigned)
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


def _cost_score(state: MatchState, player: str, option: CostPaid, plan: str) -> float:
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


def _registration_score(state: MatchState, player: str, option: AnyEvent) -> float:
    if isinstance(option, CardSummoned):
        if option.territory is None:
            return 0.0
        from vwlog.rules.common import room

        rs = state.ruleset or DEFAULT_RULESET
        return float(room(rs, state, option.territory))
    assert isinstance(option, SkillRegistered)
    if option.target is None:
        return 0.0
    target = state.permanents[option.target]
    if target.controller == player:
        return float(state.stat(target.id, Stat.ATK))
    if target.where == "TERRITORY":
        return -float(state.stat(target.id, Stat.DEFENSE) - target.damage)
    return float(state.stat(target.id, Stat.ATK))


def make_policy(name: PolicyName, rng: random.Random) -> Policy:
    """The policy called ``name``, seeded."""
    if name == "random":
        return RandomPolicy(rng)
    return GreedyPolicy(rng)


def match_format_for(players: int, teams: int | None) -> MatchFormat:
    """The format of ``players`` seats split into ``teams`` teams (R-GEN-7): one player per
    team is free-for-all (a duel for two, Battle Royal for three or four), teams of two are
    Tag Team, two teams of three are 3 on 3.

    Raises:
        ValueError: no known format has this shape.
    """
    if not teams or teams == players:
        if players == 2:
            return MatchFormat.DUEL
        if players in (3, 4):
            return MatchFormat.BATTLE_ROYAL
    elif players == 2 * teams and teams >= 2:
        return MatchFormat.TAG
    elif teams == 2 and players == 6:
        return MatchFormat.THREE_V_THREE
    raise ValueError(
        f"no match format has {players} players in {teams or players} teams (Tag Team: teams "
        "of two; 3 on 3: two teams of three; Battle Royal: three or four players alone)"
    )


def simulate(
    pool: CardPool,
    *,
    seed: int,
    index: int = 0,
    players: int = 2,
    teams: int | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    policy: PolicyName = "greedy",
    max_turns: int = 200,
    ruleset: Ruleset = DEFAULT_RULESET,
    on_progress: Callable[[int], None] | None = None,
) -> GeneratedMatch:
    """Generate match number ``index`` of a run seeded with ``seed`` (deterministic)."""
    generation = simulation(
        pool,
        seed=seed,
        index=index,
        players=players,
        teams=teams,
        decks=decks,
        policy=policy,
        max_turns=max_turns,
        ruleset=ruleset,
    )
    match = GeneratedMatch(
        header=generation.header, records=tuple(generation.records()), state=generation.state
    )
    if on_progress is not None:
        on_progress(index)
    return match


def simulation(
    pool: CardPool,
    *,
    seed: int,
    index: int = 0,
    players: int = 2,
    teams: int | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    policy: PolicyName = "greedy",
    max_turns: int = 200,
    ruleset: Ruleset = DEFAULT_RULESET,
) -> Generation:
    """Match number ``index`` of a run seeded with ``seed``, as `simulate` makes it, streamed:
    its records are made while they are read."""
    rng = random.Random(f"vwlog:{seed}:{index}")
    chosen = (
        [list(decks[i % len(decks)]) for i in range(players)]
        if decks
        else [random_deck(pool, rng) for _ in range(players)]
    )
    fmt = match_format_for(players, teams)
    team_names: list[str | None] | None = None
    if fmt in (MatchFormat.TAG, MatchFormat.THREE_V_THREE) and teams:
        team_names = [f"t{(i % teams) + 1}" for i in range(players)]
    start = build_start(pool, chosen, rng, ruleset=ruleset, teams=team_names, match_format=fmt)
    generation = Generation(
        start,
        make_policy(policy, rng),
        match_id=f"sim-{seed}-{index:05d}",
        max_turns=max_turns,
        generator=f"vwlog simulate --seed {seed} --players {players} --policy {policy}",
    )
    return generation


__all__ = [
    "DECK_SIZE",
    "ID_BYTES",
    "MAX_COPIES",
    "REGISTRATIONS_PER_WINDOW",
    "SALT_BYTES",
    "GeneratedMatch",
    "Generation",
    "GreedyPolicy",
    "Policy",
    "PolicyName",
    "RandomPolicy",
    "build_start",
    "generate",
    "make_policy",
    "match_format_for",
    "random_deck",
    "simulate",
    "simulation",
]
