"""The match generator: complete legal matches from a seed, in play mode.

Every decision comes from `legal_decisions` and every consequence from `next_consequences`
(through `vwlog.games.vw.play`); a policy only *chooses* among legal decisions, so the generator
holds no rules of its own. The same seed gives the same bytes.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Required, TypedDict, Unpack

from vwlog import events as ev
from vwlog.events.match import Shuffle, deck_commitment
from vwlog.games.vw.chance import advance_by_chance, play_by_chance
from vwlog.games.vw.play import advance, play
from vwlog.games.vw.policies import (
    REGISTRATIONS_PER_WINDOW,
    GreedyPolicy,
    Policy,
    PolicyName,
    RandomPolicy,
    make_policy,
)
from vwlog.model.cards import DEFAULT_RULESET, CardPool, Ruleset
from vwlog.model.types import CardType, MatchFormat
from vwlog.projections import INITIAL, evolve
from vwlog.rules import expect, legal_decisions

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from vwlog.model.state import MatchState

DECK_SIZE = 40
"""Cards in a random deck."""
MAX_COPIES = 3
"""Copies of one card in a random deck."""
ID_BYTES = 6
"""Random bytes in an instance id of a secretly shuffled match (12 hex digits)."""
SALT_BYTES = 32
"""Random bytes of a seat's salt in a secretly shuffled match (64 hex digits)."""


@dataclass(frozen=True, slots=True)
class GeneratedMatch:
    """One generated match."""

    header: ev.LogHeader
    records: tuple[ev.EventRecord, ...]
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
) -> ev.MatchStarted:
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
        seat = ev.Seat(
            player=player,
            name=f"Player {i + 1}",
            team=teams[i] if teams else None,
            deck=tuple(ev.CardInstance(id=id_, card=c) for id_, c in zip(ids, cards, strict=True)),
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
    return ev.MatchStarted(
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
        start: ev.MatchStarted,
        policy: Policy,
        *,
        match_id: str,
        max_turns: int = 200,
        generator: str | None = None,
        chance: random.Random | None = None,
    ) -> None:
        self.start = start
        self.policy = policy
        self.max_turns = max_turns
        self.chance = chance
        """Draws the choices the rules leave among consequences (`vwlog.games.vw.chance`);
        ``None``: the first of each is taken, as `vwlog.games.vw.play` does."""
        self.drawn: Counter[str] = Counter()
        """How many choices among consequences ``chance`` drew, by kind."""
        self.header = ev.LogHeader(match_id=match_id, generator=generator)
        """The log's header (unsealed)."""
        self.state: MatchState = INITIAL
        """The state after the records yielded so far (the final state once they are all)."""

    def whole(self) -> GeneratedMatch:
        """Play the match through, keeping every record (what `generate` returns)."""
        records = tuple(self.records())
        return GeneratedMatch(header=self.header, records=records, state=self.state)

    def records(self) -> Iterator[ev.EventRecord]:
        """Play the match, yielding its records (seq 1, 2, 3, ...) as they are made."""
        for seq, event in enumerate(self._events(), start=1):
            yield ev.EventRecord(seq=seq, event=event)

    def _events(self) -> Iterator[ev.AnyEvent]:
        start, ruleset = self.start, self.start.ruleset
        state = evolve(INITIAL, start)
        self.state = state
        yield start
        chance = self.chance
        state, more = (
            advance(ruleset, state)
            if chance is None
            else advance_by_chance(ruleset, state, chance, self.drawn)
        )
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
            if chance is None:
                state, applied = play(ruleset, state, decision)
            else:
                state, applied = play_by_chance(ruleset, state, decision, chance, self.drawn)
            self.state = state
            yield from applied


class GenerationOptions(TypedDict, total=False):
    """What `Generation` takes beside the start and the policy (and `generate` with them)."""

    match_id: Required[str]
    max_turns: int
    generator: str | None
    chance: random.Random | None


def generate(
    start: ev.MatchStarted, policy: Policy, **options: Unpack[GenerationOptions]
) -> GeneratedMatch:
    """Play a match from ``start`` until it is won or ``max_turns`` turns have been played
    (with ``chance``, the choices among consequences drawn by it, see `Generation`)."""
    return Generation(start, policy, **options).whole()


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


class SimulationOptions(TypedDict, total=False):
    """What `simulation` takes beside the card pool (and `simulate` with it)."""

    seed: Required[int]
    index: int
    players: int
    teams: int | None
    decks: Sequence[Sequence[str]] | None
    policy: PolicyName
    max_turns: int
    ruleset: Ruleset


def simulate(
    pool: CardPool,
    *,
    on_progress: Callable[[int], None] | None = None,
    **options: Unpack[SimulationOptions],
) -> GeneratedMatch:
    """Generate match number ``index`` of a run seeded with ``seed`` (deterministic): the
    options are `simulation`'s."""
    match = simulation(pool, **options).whole()
    if on_progress is not None:
        on_progress(options.get("index", 0))
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
    its records are made while they are read.

    Every draw comes from the seed and the index: the decks, their shuffle and the first
    player, each policy decision, and each choice the rules leave among consequences (the
    order of simultaneous triggers, what a result with a choice chooses), this last from a
    stream of its own so that the decisions do not shift with it. The record says so
    (``shuffle: seeded`` with the seed, the index in the match id) and its header names the
    command that regenerates it (`regenerating`)."""
    rng = random.Random(f"vwlog:{seed}:{index}")
    chance = random.Random(f"vwlog:{seed}:{index}:choices")
    chosen = (
        [list(decks[i % len(decks)]) for i in range(players)]
        if decks
        else [random_deck(pool, rng) for _ in range(players)]
    )
    fmt = match_format_for(players, teams)
    team_names: list[str | None] | None = None
    if fmt in (MatchFormat.TAG, MatchFormat.THREE_V_THREE) and teams:
        team_names = [f"t{(i % teams) + 1}" for i in range(players)]
    start = build_start(
        pool, chosen, rng, ruleset=ruleset, teams=team_names, match_format=fmt, seed=seed
    )
    return Generation(
        start,
        make_policy(policy, rng, chance),
        match_id=f"sim-{seed}-{index:05d}",
        max_turns=max_turns,
        generator=regenerating(seed, index, players, teams, policy, max_turns),
        chance=chance,
    )


def regenerating(
    seed: int, index: int, players: int, teams: int | None, policy: PolicyName, max_turns: int
) -> str:
    """The command that generates match ``index`` of the run seeded with ``seed`` again, byte
    for byte (given the same card pool, decks and ruleset): what a generated log's header
    names as its ``generator``."""
    teamed = f" --teams {teams}" if teams else ""
    return (
        f"vwlog simulate --seed {seed} --index {index} --players {players}{teamed} "
        f"--policy {policy} --max-turns {max_turns}"
    )


__all__ = [
    "DECK_SIZE",
    "ID_BYTES",
    "MAX_COPIES",
    "REGISTRATIONS_PER_WINDOW",
    "SALT_BYTES",
    "GeneratedMatch",
    "Generation",
    "GenerationOptions",
    "GreedyPolicy",
    "Policy",
    "PolicyName",
    "RandomPolicy",
    "SimulationOptions",
    "build_start",
    "generate",
    "make_policy",
    "match_format_for",
    "random_deck",
    "regenerating",
    "simulate",
    "simulation",
]
