"""Match statistics as read models: per-match metrics folded from one replay, and corpus
aggregates that can be kept current one match at a time.

`MatchMetricsVisitor` is a visitor of the one replay loop (`vwlog.engine.replay.replay`): it sees
every event with the board before and after it and folds them into a frozen `MatchMetrics`.
`CorpusStats` aggregates many `MatchMetrics`; it is mergeable (``add`` one match, ``merge``
another aggregate), so a store can keep it current as matches are imported, and it round-trips
through JSON (``model_dump_json`` / ``model_validate_json``).

Everything here is pure: no files, no printing, no clock. Rendering lives in
`vwlog.render.statspage`.

Every win rate comes with its sample size and a Wilson 95 % confidence interval, never as a
bare percentage.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections import Counter
from datetime import date, datetime
from typing import TYPE_CHECKING, Protocol, Self, TypeVar, assert_never

from pydantic import BaseModel, ConfigDict, Field

from vwlog.events import (
    AttackDeclared,
    AttackersEnteredBattle,
    BecameReturnHome,
    BecameStray,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardMoved,
    CardsDrawn,
    CardSummoned,
    CombatDamageRegistered,
    Conceded,
    CostPaid,
    DamageDealt,
    DeckRevealed,
    DeploymentFinished,
    EventRecord,
    FollowerDamageAssigned,
    FollowersDestroyed,
    GoldChanged,
    GoldProduced,
    HandLimitDiscarded,
    HonorChanged,
    JudgeRulingIssued,
    LogHeader,
    MatchForked,
    MatchSealed,
    MatchStarted,
    MatchWon,
    ObjectResulted,
    OpeningHandDrawn,
    PhaseStarted,
    PriorityPassed,
    PropertyPlaced,
    RecordSigned,
    SkillRegistered,
    SkillTriggered,
    StatChanged,
    StatusChanged,
    StepStarted,
    SupplyChosen,
    SupplyTaken,
    TerritoriesDestroyed,
    TurnCleanedUp,
    TurnEnded,
    TurnStarted,
    Unslid,
    VictoryPointGained,
)
from vwlog.model.types import CardType, SupplyOption

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from vwlog.events import AnyEvent
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState

Z_95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""
UNFINISHED = "UNFINISHED"
"""The victory type of a match that has no winner (stopped at a turn limit, or cut short)."""
NEUTRAL = "NEUTRAL"
"""The faction of a deck none of whose cards has a faction."""

_K = TypeVar("_K")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class _Mutable(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


# -- the interval ------------------------------------------------------------------------------


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` in ``n`` trials.

    Unlike the normal approximation it stays inside [0, 1] and is honest for small samples and
    for rates near 0 or 1. With no trials the interval is the whole of [0, 1].

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)

    Raises:
        ValueError: ``n`` is negative or ``successes`` is not within 0..n.
    """
    if n < 0 or not 0 <= successes <= n:
        msg = f"wilson_interval needs 0 <= successes <= n, got {successes} of {n}"
        raise ValueError(msg)
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # Rounding can push an end a hair past p at p = 0 or 1; the true interval contains p.
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


class WinCount(_Mutable):
    """Wins out of ``n`` finished player-matches, with its rate and Wilson 95 % interval."""

    n: int = 0
    """Player-matches counted (finished matches only)."""
    wins: int = 0
    """Of those, the ones the player (or their team) won."""

    def record(self, *, won: bool) -> None:
        """Count one more player-match."""
        self.n += 1
        self.wins += won

    def absorb(self, other: WinCount) -> None:
        """Add another count to this one."""
        self.n += other.n
        self.wins += other.wins

    @property
    def rate(self) -> float | None:
        """``wins / n``, or ``None`` when ``n`` is 0."""
        return self.wins / self.n if self.n else None

    def interval(self, z: float = Z_95) -> tuple[float, float]:
        """The Wilson interval of the rate (95 % by default)."""
        return wilson_interval(self.wins, self.n, z)


# -- per-match metrics -------------------------------------------------------------------------


class TurnPoint(_Frozen):
    """One player in one turn: resources at the end of the turn (a point of a tempo curve) and
    what the player did during it.

    A turn is counted across all players, so every player has a point for every turn, their
    opponents' turns included (blocks, losses and damage happen there too). An event counts in
    the turn in progress when it happens (the board's turn number before the event; anything
    before the first turn counts in turn 1). Every count below, summed over a player's points,
    gives the per-match count of the same name in `PlayerMetrics` (``max_register_depth``: the
    maximum; ``skills_registered``/``skills_triggered``: the sum of the per-card counts).
    """

    turn: int
    """The turn number (1-based, counted across all players)."""
    gold: int
    """Gold in the pool at the end of the turn (the last turn, if the match ended in it: at the
    end of the match)."""
    honor: int
    """Honor at the end of the turn."""
    vp: int
    """Victory Points at the end of the turn."""
    gold_produced: int
    """Gold from the Produce step in this turn: the sum of ``gold_produced.amount``."""
    gold_from_supply: int
    """Gold taken in Supply in this turn: the sum of ``supply_taken.gold``."""
    gold_from_effects: int
    """Net gold from effects that resulted in this turn: the sum of ``gold_changed.delta``."""
    gold_spent: int
    """Gold paid in this turn for summons and skills: the sum of ``cost_paid.gold``."""
    supply: dict[str, int]
    """Supply choices made in this turn, by package (``supply_chosen.option``); only packages
    chosen appear (a player chooses at most once per turn of theirs)."""
    cards_drawn_supply: int
    """Cards taken in Supply in this turn (the cards of ``supply_taken``)."""
    cards_drawn_effects: int
    """Cards drawn by effects that resulted in this turn (the cards of ``cards_drawn``)."""
    cards_played: int
    """Cards summoned in this turn (``card_summoned``), of every type."""
    cards_discarded: int
    """Cards discarded to the hand limit in this turn (``hand_limit_discarded``)."""
    territories_summoned: int
    """Territory cards summoned in this turn."""
    territories_lost: int
    """Territories that left play in this turn while the player controlled them."""
    followers_summoned: int
    """Follower cards summoned in this turn."""
    followers_lost: int
    """Followers that left play in this turn while the player controlled them."""
    attacks_declared: int
    """``attack_declared`` events with at least one attack by the player in this turn (0 or 1
    in a turn of theirs, 0 otherwise)."""
    attackers_declared: int
    """Attacking Followers the player declared in this turn."""
    blocks: int
    """Blocks the player assigned in this turn (the blocks of ``blocks_assigned``)."""
    damage_to_followers: int
    """Damage the player's cards marked on Followers in this turn (as in `PlayerMetrics`)."""
    damage_to_territories: int
    """Damage the player's cards marked on Territories in this turn."""
    max_register_depth: int
    """The deepest the register was right after the player put an object on it in this turn
    (0 if they put none)."""
    skills_registered: int
    """Active skills the player registered in this turn (``skill_registered``)."""
    skills_triggered: int
    """Triggered skills of the player's cards put on the register in this turn."""

    @property
    def cards_drawn(self) -> int:
        """Cards drawn in this turn, from Supply and by effects."""
        return self.cards_drawn_supply + self.cards_drawn_effects


class DecisionTiming(_Frozen):
    """Seconds between consecutive decisions of one player, from the records' ``at`` stamps."""

    n: int
    """Intervals measured (decisions with a timestamp after the player's previous one)."""
    total: float
    """Sum of the intervals, in seconds."""
    mean: float
    """Mean interval, in seconds."""
    median: float
    """Median interval, in seconds."""
    max: float
    """Longest interval, in seconds."""


class CardInfo(_Frozen):
    """What the statistics need to know of a card definition."""

    name: str
    """Printed name."""
    type: str
    """Card type (TERRITORY, FOLLOWER, RELIC, RUNE, ACTION)."""
    faction: str | None = None
    """Faction, where the card has one."""


class PlayerMetrics(_Frozen):
    """What one player did in one match, folded from its events.

    Counts are over the whole match, as recorded (events a judge's back-up voided included).
    """

    player: str
    """Player id."""
    seat: int
    """1-based position in seat order (the order of ``match_started.seats``)."""
    order: int
    """1-based position in turn order: 1 for the first player, 2 for the next, …"""
    team: str | None = None
    """Team, in team formats."""
    won: bool = False
    """Whether the player, or their team, won the match."""
    deck_id: str
    """Identity of the deck: the first 16 hex digits of SHA-256 over the sorted multiset of
    card definition ids of the Fate Deck (and, after a ``|``, of the subdeck). Two players with
    the same cards in any order have the same ``deck_id``."""
    faction: str
    """The most common faction among the deck's cards (ties broken by name); ``NEUTRAL`` if no
    card has a faction."""
    deck_size: int
    """Cards in the Fate Deck and subdeck at the start."""
    deck: dict[str, int] = Field(default_factory=dict)
    """Copies of each card definition in the deck (Fate Deck and subdeck)."""
    gold_produced: int = 0
    """Gold from the Produce step: the sum of ``gold_produced.amount`` (R-PRO-1)."""
    gold_from_supply: int = 0
    """Gold taken in Supply: the sum of ``supply_taken.gold`` (R-SUP-4)."""
    gold_from_effects: int = 0
    """Net gold from effects: the sum of ``gold_changed.delta`` of resulted objects."""
    gold_spent: int = 0
    """Gold paid for summons and skills: the sum of ``cost_paid.gold`` (R-REG-3)."""
    supply: dict[str, int] = Field(default_factory=dict)
    """Supply choices: how many times each package was chosen (``supply_chosen.option``)."""
    final_gold: int = 0
    """Gold at the end of the match."""
    final_honor: int = 0
    """Honor at the end of the match."""
    final_vp: int = 0
    """Victory Points at the end of the match."""
    cards_drawn_supply: int = 0
    """Cards taken in Supply: the cards of ``supply_taken`` (opening hand not included)."""
    cards_drawn_effects: int = 0
    """Cards drawn by effects: the cards of ``cards_drawn`` effects."""
    cards_played: int = 0
    """Cards summoned (``card_summoned``), of every type."""
    cards_discarded: int = 0
    """Cards discarded to the hand limit (``hand_limit_discarded``, R-END-3)."""
    territories_summoned: int = 0
    """Territory cards summoned."""
    territories_lost: int = 0
    """Territories that left play while the player controlled them (destroyed, or moved out of
    play by an effect)."""
    followers_summoned: int = 0
    """Follower cards summoned."""
    followers_lost: int = 0
    """Followers that left play while the player controlled them (destroyed in combat or by an
    effect, sent to the Graveyard with their Territory, or moved out of play by an effect)."""
    attacks_declared: int = 0
    """Combats in which the player declared at least one attack (``attack_declared``)."""
    attackers_declared: int = 0
    """Attacking Followers declared: the attacks of every ``attack_declared`` (R-CMB-8)."""
    blocks: int = 0
    """Blocks assigned: the blocks of every ``blocks_assigned`` (R-CMB-16)."""
    damage_to_followers: int = 0
    """Damage the player's cards marked on Followers: the ``damage_dealt`` effects of resulted
    combat-damage and skill objects whose source the player controlled (or owned, if it had
    left play), on a Follower in play."""
    damage_to_territories: int = 0
    """Damage the player's cards marked on Territories, counted the same way."""
    max_register_depth: int = 0
    """The deepest the register was right after the player put an object on it (1 = the only
    object)."""
    skills_registered: dict[str, int] = Field(default_factory=dict)
    """Active skills registered, by card definition id (``skill_registered``)."""
    skills_triggered: dict[str, int] = Field(default_factory=dict)
    """Triggered skills put on the register, by card definition id (``skill_triggered``)."""
    played: dict[str, int] = Field(default_factory=dict)
    """Cards summoned, by card definition id."""
    tempo: tuple[TurnPoint, ...] = ()
    """One point per turn, in turn order: gold, honor and VP at the end of the turn (the last
    turn, if the match ended in it, at the end of the match) and the player's counts during the
    turn, which sum to this model's per-match counts."""
    decision_time: DecisionTiming | None = None
    """Time between consecutive decisions of this player; ``None`` when the records carry no
    usable ``at`` timestamps."""

    @property
    def cards_drawn(self) -> int:
        """Cards drawn from Supply and by effects."""
        return self.cards_drawn_supply + self.cards_drawn_effects


class MatchMetrics(_Frozen):
    """Statistics of one match, folded from its events by `MatchMetricsVisitor`."""

    match_id: str
    """The match id of the log header (``"?"`` when the records came without a header)."""
    created: str | None = None
    """When the log was written (the header's ``created``), if recorded."""
    ruleset: str
    """Id of the ruleset the match names."""
    ruleset_version: int
    """Version of that ruleset."""
    format: str
    """Match format (DUEL, TAG, …)."""
    players: tuple[PlayerMetrics, ...]
    """Every player, in seat order."""
    first_player: str
    """Who took the first turn."""
    winner: str | None = None
    """The winning player, or ``None`` if the match has no winner."""
    winning_team: str | None = None
    """The winning team, in team formats."""
    victory: str = UNFINISHED
    """How it was won (MILITARY, POLITICAL, ABSOLUTE, CONCESSION, JUDGE) or ``UNFINISHED``."""
    turns: int = 0
    """Turns started (the number of the last turn)."""
    events: int = 0
    """Event records."""
    decisions: int = 0
    """Records whose event is a player's decision."""
    violations: int = 0
    """Rule violations the replay found (0 for a legal log)."""
    max_register_depth: int = 0
    """The most objects that were on the register at once."""
    cards: dict[str, CardInfo] = Field(default_factory=dict)
    """The definitions of every card the match uses, by definition id."""

    @property
    def finished(self) -> bool:
        """Whether the match has a winner."""
        return self.winner is not None

    def player(self, player_id: str) -> PlayerMetrics:
        """The metrics of one player (``KeyError`` if they did not play)."""
        for p in self.players:
            if p.player == player_id:
                return p
        raise KeyError(player_id)


class ReplayStep(Protocol):
    """What the visitor reads of a `vwlog.engine.replay.Step`."""

    @property
    def record(self) -> EventRecord: ...

    @property
    def before(self) -> MatchState: ...

    @property
    def after(self) -> MatchState: ...

    @property
    def violations(self) -> tuple[Violation, ...]: ...


class _Counts:
    """One player's running counts over one turn while the visitor folds (mutable, private).

    The per-turn points are these counts; the per-match totals are their sums, so the two can
    never disagree.
    """

    __slots__ = (
        "attackers",
        "attacks",
        "blocks",
        "damage_followers",
        "damage_territories",
        "depth",
        "discarded",
        "drawn_effects",
        "drawn_supply",
        "followers_lost",
        "followers_summoned",
        "gold_effects",
        "gold_produced",
        "gold_spent",
        "gold_supply",
        "played",
        "skills",
        "supply",
        "territories_lost",
        "territories_summoned",
        "triggered",
    )

    def __init__(self) -> None:
        self.gold_produced = self.gold_supply = self.gold_effects = self.gold_spent = 0
        self.drawn_supply = self.drawn_effects = self.discarded = 0
        self.territories_summoned = self.territories_lost = 0
        self.followers_summoned = self.followers_lost = 0
        self.attacks = self.attackers = self.blocks = 0
        self.damage_followers = self.damage_territories = self.depth = 0
        self.supply: Counter[str] = Counter()
        self.played: Counter[str] = Counter()
        self.skills: Counter[str] = Counter()
        self.triggered: Counter[str] = Counter()

    def absorb(self, other: _Counts) -> None:
        """Add another turn's counts to these (the register depth is a maximum)."""
        for name in self.__slots__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif name == "depth":
                self.depth = max(self.depth, theirs)
            else:
                setattr(self, name, mine + theirs)

    def fields(self) -> dict[str, int]:
        """The counts that per-turn points and per-match totals name alike, by field name."""
        return {
            "gold_produced": self.gold_produced,
            "gold_from_supply": self.gold_supply,
            "gold_from_effects": self.gold_effects,
            "gold_spent": self.gold_spent,
            "cards_drawn_supply": self.drawn_supply,
            "cards_drawn_effects": self.drawn_effects,
            "cards_played": sum(self.played.values()),
            "cards_discarded": self.discarded,
            "territories_summoned": self.territories_summoned,
            "territories_lost": self.territories_lost,
            "followers_summoned": self.followers_summoned,
            "followers_lost": self.followers_lost,
            "attacks_declared": self.attacks,
            "attackers_declared": self.attackers,
            "blocks": self.blocks,
            "damage_to_followers": self.damage_followers,
            "damage_to_territories": self.damage_territories,
            "max_register_depth": self.depth,
        }

    def point(self, turn: int, gold: int, honor: int, vp: int) -> TurnPoint:
        """These counts as the point of one turn."""
        return TurnPoint(
            turn=turn,
            gold=gold,
            honor=honor,
            vp=vp,
            supply=dict(sorted((k, v) for k, v in self.supply.items() if v)),
            skills_registered=sum(self.skills.values()),
            skills_triggered=sum(self.triggered.values()),
            **self.fields(),
        )


class _Tally:
    """One player's running counts while the visitor folds (mutable, private): counts by turn,
    resources at the end of each turn, and decision times."""

    __slots__ = ("ends", "intervals", "last_decision", "turns")

    def __init__(self) -> None:
        self.turns: dict[int, _Counts] = {}
        self.ends: dict[int, tuple[int, int, int]] = {}
        self.intervals: list[float] = []
        self.last_decision: datetime | None = None

    def at(self, turn: int) -> _Counts:
        """The counts of a turn (anything before the first turn counts in turn 1)."""
        turn = max(turn, 1)
        counts = self.turns.get(turn)
        if counts is None:
            counts = self.turns[turn] = _Counts()
        return counts

    def total(self) -> _Counts:
        """The counts of the whole match: the sum of every turn's."""
        total = _Counts()
        for counts in self.turns.values():
            total.absorb(counts)
        return total

    def tempo(self, final: tuple[int, int, int]) -> tuple[TurnPoint, ...]:
        """One point per turn that ended or has counts, in turn order (a turn that never ended
        takes the resources at the end of the match)."""
        points = []
        for turn in sorted(self.ends.keys() | self.turns.keys()):
            gold, honor, vp = self.ends.get(turn, final)
            points.append(self.turns.get(turn, _Counts()).point(turn, gold, honor, vp))
        return tuple(points)


def deck_identity(fate_deck: Iterable[str], subdeck: Iterable[str] = ()) -> str:
    """The identity of a deck: a hash of its sorted card multiset, order-free.

    >>> deck_identity(["b", "a", "a"]) == deck_identity(["a", "b", "a"])
    True
    >>> deck_identity(["a"]) == deck_identity([], ["a"])
    False
    """
    text = "\n".join(sorted(fate_deck)) + "\n|\n" + "\n".join(sorted(subdeck))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def deck_faction(factions: Iterable[str | None]) -> str:
    """The most common faction among a deck's cards; ties go to the first name in alphabetical
    order, and a deck without factions is ``NEUTRAL``.

    >>> deck_faction(["ORDER", "CHAOS", None, "CHAOS", "ORDER"])
    'CHAOS'
    >>> deck_faction([None])
    'NEUTRAL'
    """
    counts = Counter(f for f in factions if f is not None)
    if not counts:
        return NEUTRAL
    return min(counts, key=lambda f: (-counts[f], f))


def _parse_time(at: str | None) -> datetime | None:
    if at is None:
        return None
    try:
        return datetime.fromisoformat(at)
    except ValueError:
        return None


class MatchMetricsVisitor:
    """A replay visitor that folds one match into `MatchMetrics`.

    Feed it to `vwlog.engine.replay.replay`; it reads each event and the boards around it and never
    walks the records itself. One visitor folds one match.

    Raises:
        ValueError: from `result`, when the replay saw no ``match_started`` event.
    """

    def __init__(self) -> None:
        self._header: LogHeader | None = None
        self._start: MatchStarted | None = None
        self._tally: dict[str, _Tally] = {}
        self._won: MatchWon | None = None
        self._events = 0
        self._decisions = 0
        self._violations = 0
        self._depth = 0
        self._final: MatchState | None = None

    # -- the visitor protocol ------------------------------------------------------------------

    def begin_match(self, header: LogHeader | None) -> None:
        """Keep the header (match id, creation time)."""
        self._header = header

    def visit(self, step: ReplayStep) -> None:
        """Fold one event."""
        record = step.record
        event = record.event
        self._events += 1
        self._violations += len(step.violations)
        if event.DECISION:
            self._decisions += 1
            self._time_decision(event, record.at)
        before, after = step.before, step.after
        if after.permanents is not before.permanents:
            self._count_losses(before, after)
        self._fold(event, before, after)

    def end_match(self, final: MatchState) -> None:
        """Take final resources, and a tempo point for a last turn that never ended."""
        self._final = final
        if final.turn and self._tally:
            first = next(iter(self._tally.values()))
            if final.turn not in first.ends:
                self._snapshot(final)

    def result(self) -> MatchMetrics:
        """The metrics of the match.

        Raises:
            ValueError: the replay saw no ``match_started`` event.
        """
        start, final = self._start, self._final
        if start is None or final is None:
            msg = "no match_started event: nothing to measure"
            raise ValueError(msg)
        winner = final.winner
        team = self._won.team if self._won is not None else None
        if team is None and winner is not None:
            team = next((s.team for s in start.seats if s.player == winner), None)
        defs = {c.id: c for c in start.cards}
        order = _turn_order([s.player for s in start.seats], start.first_player)
        players = []
        for seat_no, seat in enumerate(start.seats, start=1):
            cards = [i.card for i in seat.deck]
            sub = [i.card for i in seat.subdeck]
            factions = [
                (str(defs[c].faction) if defs[c].faction else None)
                for c in cards + sub
                if c in defs
            ]
            tally = self._tally[seat.player]
            t = tally.total()
            state = final.player(seat.player) if final.has_player(seat.player) else None
            last = (state.gold, state.honor, state.vp) if state else (0, 0, 0)
            won = winner is not None and (
                seat.player == winner or (team is not None and seat.team == team)
            )
            players.append(
                PlayerMetrics(
                    player=seat.player,
                    seat=seat_no,
                    order=order[seat.player],
                    team=seat.team,
                    won=won,
                    deck_id=deck_identity(cards, sub),
                    faction=deck_faction(factions),
                    deck_size=len(cards) + len(sub),
                    deck=dict(sorted(Counter(cards + sub).items())),
                    supply={o.value: t.supply[o.value] for o in SupplyOption},
                    final_gold=last[0],
                    final_honor=last[1],
                    final_vp=last[2],
                    **t.fields(),
                    skills_registered=dict(sorted(t.skills.items())),
                    skills_triggered=dict(sorted(t.triggered.items())),
                    played=dict(sorted(t.played.items())),
                    tempo=tally.tempo(last),
                    decision_time=_timing(tally.intervals),
                )
            )
        header = self._header
        return MatchMetrics(
            match_id=header.match_id if header is not None else "?",
            created=header.created if header is not None else None,
            ruleset=start.ruleset.id,
            ruleset_version=start.ruleset.version,
            format=str(start.format),
            players=tuple(players),
            first_player=start.first_player,
            winner=winner,
            winning_team=team,
            victory=final.victory or UNFINISHED,
            turns=final.turn,
            events=self._events,
            decisions=self._decisions,
            violations=self._violations,
            max_register_depth=self._depth,
            cards={
                c.id: CardInfo(
                    name=c.name, type=str(c.type), faction=str(c.faction) if c.faction else None
                )
                for c in start.cards
            },
        )

    # -- folding -------------------------------------------------------------------------------

    def _fold(self, event: AnyEvent, before: MatchState, after: MatchState) -> None:
        tally = self._tally
        turn = before.turn
        match event:
            case MatchStarted():
                if self._start is None:
                    self._start = event
                    self._tally = {s.player: _Tally() for s in event.seats}
            case GoldProduced():
                tally[event.player].at(turn).gold_produced += event.amount
            case SupplyChosen():
                tally[event.player].at(turn).supply[event.option.value] += 1
            case SupplyTaken():
                t = tally[event.player].at(turn)
                t.gold_supply += event.gold
                t.drawn_supply += len(event.cards)
            case CostPaid():
                tally[event.player].at(turn).gold_spent += event.gold
            case CardSummoned():
                t = tally[event.player].at(turn)
                defn = before.defn(event.card)
                t.played[defn.id] += 1
                if defn.type == CardType.TERRITORY:
                    t.territories_summoned += 1
                elif defn.type == CardType.FOLLOWER:
                    t.followers_summoned += 1
                self._registered(event.player, turn, after)
            case SkillRegistered():
                t = tally[event.player].at(turn)
                t.skills[before.instances.get(event.card, event.card)] += 1
                self._registered(event.player, turn, after)
            case SkillTriggered():
                t = tally[event.player].at(turn)
                t.triggered[before.instances.get(event.card, event.card)] += 1
                self._registered(event.player, turn, after)
            case CombatDamageRegistered():
                self._registered(before.active, turn, after)
            case ObjectResulted():
                self._resulted(event, before)
            case AttackDeclared():
                if event.attacks:
                    t = tally[event.player].at(turn)
                    t.attacks += 1
                    t.attackers += len(event.attacks)
            case BlocksAssigned():
                tally[event.player].at(turn).blocks += len(event.blocks)
            case HandLimitDiscarded():
                tally[event.player].at(turn).discarded += len(event.cards)
            case TurnEnded():
                self._snapshot(after)
            case MatchWon():
                self._won = event
            case (
                OpeningHandDrawn()
                | DeckRevealed()
                | Conceded()
                | JudgeRulingIssued()
                | MatchForked()
                | MatchSealed()
                | RecordSigned()
                | TurnStarted()
                | PhaseStarted()
                | StepStarted()
                | PriorityPassed()
                | Unslid()
                | PropertyPlaced()
                | DeploymentFinished()
                | AttackersEnteredBattle()
                | BlockersEnteredBattle()
                | FollowerDamageAssigned()
                | FollowersDestroyed()
                | TerritoriesDestroyed()
                | VictoryPointGained()
                | BecameReturnHome()
                | BecameStray()
                | TurnCleanedUp()
            ):
                pass  # no metric reads these (losses come from the board, below)
            case _:
                assert_never(event)

    def _registered(self, player: str | None, turn: int, after: MatchState) -> None:
        depth = len(after.register)
        self._depth = max(self._depth, depth)
        if player is not None and player in self._tally:
            t = self._tally[player].at(turn)
            t.depth = max(t.depth, depth)

    def _resulted(self, event: ObjectResulted, before: MatchState) -> None:
        turn = before.turn
        for effect in event.effects:
            match effect:
                case DamageDealt():
                    target = before.permanents.get(effect.recipient)
                    if target is None:
                        continue  # damage on a card no longer in play marks nothing
                    source = before.permanents.get(effect.source)
                    who = (
                        source.controller
                        if source is not None
                        else before.owners.get(effect.source)
                    )
                    if who is None or who not in self._tally:
                        continue
                    kind = before.defn(target.id).type
                    if kind == CardType.TERRITORY:
                        self._tally[who].at(turn).damage_territories += effect.amount
                    elif kind == CardType.FOLLOWER:
                        self._tally[who].at(turn).damage_followers += effect.amount
                case GoldChanged():
                    if effect.player in self._tally:
                        self._tally[effect.player].at(turn).gold_effects += effect.delta
                case CardsDrawn():
                    if effect.player in self._tally:
                        self._tally[effect.player].at(turn).drawn_effects += len(effect.cards)
                case StatChanged() | HonorChanged() | CardMoved() | StatusChanged():
                    pass  # honor is read from the board; moves out of play count as losses
                case _:
                    assert_never(effect)

    def _count_losses(self, before: MatchState, after: MatchState) -> None:
        for card_id, perm in before.permanents.items():
            if card_id in after.permanents or perm.controller not in self._tally:
                continue
            kind = before.defn(card_id).type
            if kind == CardType.TERRITORY:
                self._tally[perm.controller].at(before.turn).territories_lost += 1
            elif kind == CardType.FOLLOWER:
                self._tally[perm.controller].at(before.turn).followers_lost += 1

    def _snapshot(self, state: MatchState) -> None:
        for p in state.players:
            t = self._tally.get(p.id)
            if t is not None:
                t.ends[state.turn] = (p.gold, p.honor, p.vp)

    def _time_decision(self, event: AnyEvent, at: str | None) -> None:
        player = getattr(event, "player", None)
        if not isinstance(player, str) or player not in self._tally:
            return
        when = _parse_time(at)
        if when is None:
            return
        t = self._tally[player]
        last = t.last_decision
        t.last_decision = when
        if last is not None and (last.tzinfo is None) == (when.tzinfo is None):
            t.intervals.append((when - last).total_seconds())


def _turn_order(seats: list[str], first: str) -> dict[str, int]:
    i = seats.index(first) if first in seats else 0
    rotated = seats[i:] + seats[:i]
    return {p: n for n, p in enumerate(rotated, start=1)}


def _timing(intervals: list[float]) -> DecisionTiming | None:
    if not intervals:
        return None
    total = sum(intervals)
    return DecisionTiming(
        n=len(intervals),
        total=total,
        mean=total / len(intervals),
        median=statistics.median(intervals),
        max=max(intervals),
    )


# -- corpus aggregates -------------------------------------------------------------------------


class StatsFilter(_Frozen):
    """Which matches, and which players in them, a `CorpusStats` counts.

    Match-level filters (ruleset, since) choose matches. Player-level filters (player,
    faction) choose the player-matches ("sides") that the per-side statistics count (seat,
    turn order, faction, deck, card and tempo figures); a match counts when at least one of
    its sides is chosen.
    """

    player: str | None = None
    """Only this player's sides."""
    faction: str | None = None
    """Only sides whose deck faction is this one (case-insensitive)."""
    ruleset: str | None = None
    """Only matches under this ruleset id (``ID`` or ``ID@VERSION``)."""
    since: date | None = None
    """Only matches whose header says they were created on or after this date; matches whose
    header has no creation date are left out."""

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return any(v is not None for v in (self.player, self.faction, self.ruleset, self.since))

    def skip_reason(self, m: MatchMetrics) -> str | None:
        """Why a match is left out, or ``None`` if it is counted."""
        if self.ruleset is not None and self.ruleset not in (
            m.ruleset,
            f"{m.ruleset}@{m.ruleset_version}",
        ):
            return "other ruleset"
        if self.since is not None:
            created = _parse_time(m.created)
            if created is None:
                return "no creation date"
            if created.date() < self.since:
                return "created before --since"
        if not any(self.admits(p) for p in m.players):
            return "no player matches the filters"
        return None

    def admits(self, p: PlayerMetrics) -> bool:
        """Whether a side is counted."""
        if self.player is not None and p.player != self.player:
            return False
        return self.faction is None or p.faction.upper() == self.faction.upper()


class DeckRecord(WinCount):
    """A deck's record across the corpus."""

    faction: str
    """The deck's faction."""
    size: int
    """Cards in the deck."""
    played: int = 0
    """Player-matches with this deck, finished or not."""


class CardRecord(_Mutable):
    """One card definition across the corpus."""

    name: str
    """Printed name."""
    type: str
    """Card type."""
    faction: str | None = None
    """Faction, where it has one."""
    matches: int = 0
    """Matches in which some counted side summoned the card, finished or not."""
    played: WinCount = Field(default_factory=WinCount)
    """Finished player-matches in which the player summoned the card at least once."""
    decked: WinCount = Field(default_factory=WinCount)
    """Finished player-matches in which the card was in the player's deck."""
    summons: int = 0
    """Times it was summoned, in every counted match."""


class TempoSums(_Mutable):
    """Sums of resources at the end of one turn number across player-matches."""

    n: int = 0
    """Player-matches that reached the end of this turn (or ended in it)."""
    gold: int = 0
    """Sum of gold."""
    honor: int = 0
    """Sum of honor."""
    vp: int = 0
    """Sum of Victory Points."""

    def mean(self, name: str) -> float | None:
        """The mean of ``gold``, ``honor`` or ``vp`` (``None`` when ``n`` is 0)."""
        total: int = getattr(self, name)
        return total / self.n if self.n else None


class Summary(_Frozen):
    """Summary of a distribution of integers given as value counts."""

    n: int
    """Observations."""
    mean: float | None
    """Mean (``None`` without observations)."""
    median: float | None
    """Median (the mean of the two middle values when ``n`` is even)."""
    min: int | None
    """Smallest value."""
    max: int | None
    """Largest value."""
    buckets: tuple[tuple[int, int, int], ...]
    """Histogram as ``(low, high, count)``: values ``low <= v <= high``."""


def summarize(counts: Mapping[int, int], buckets: int = 12) -> Summary:
    """Mean, median, range and a histogram of about ``buckets`` equal-width buckets.

    >>> s = summarize({10: 1, 20: 2, 30: 1}, buckets=3)
    >>> s.mean, s.median, s.min, s.max
    (20.0, 20.0, 10, 30)
    """
    n = sum(counts.values())
    if n == 0:
        return Summary(n=0, mean=None, median=None, min=None, max=None, buckets=())
    values = sorted(counts)
    lo, hi = values[0], values[-1]
    mean = sum(v * c for v, c in counts.items()) / n
    width = max(1, math.ceil((hi - lo + 1) / max(1, buckets)))
    hist: dict[int, int] = {}
    for v, c in counts.items():
        start = lo + (v - lo) // width * width
        hist[start] = hist.get(start, 0) + c
    edges = range(lo, hi + 1, width)
    return Summary(
        n=n,
        mean=mean,
        median=_median(counts, n),
        min=lo,
        max=hi,
        buckets=tuple((s, s + width - 1, hist.get(s, 0)) for s in edges),
    )


def _median(counts: Mapping[int, int], n: int) -> float:
    def nth(k: int) -> int:  # the k-th smallest value, 0-based
        seen = 0
        for v in sorted(counts):
            seen += counts[v]
            if seen > k:
                return v
        raise AssertionError(k)

    if n % 2:
        return float(nth(n // 2))
    return (nth(n // 2 - 1) + nth(n // 2)) / 2


class CorpusStats(_Mutable):
    """Aggregates over many matches, kept current one match at a time.

    ``add`` counts one match's metrics; ``merge`` adds another aggregate built under the same
    filters. Adding matches one by one, building from all at once and merging aggregates of
    disjoint parts give equal results (all sums are integers, so order never matters). The
    model round-trips through JSON, so a store can keep it as a read model.

    Win rates count finished matches only; victory types and tempo count every match; match
    length counts finished matches.
    """

    filters: StatsFilter = Field(default_factory=StatsFilter)
    """What is counted."""
    matches: int = 0
    """Matches counted."""
    finished: int = 0
    """Of those, matches with a winner."""
    with_violations: int = 0
    """Of those, matches whose replay found rule violations."""
    sides: int = 0
    """Player-matches counted (players chosen by the filters, in counted matches)."""
    skipped: dict[str, int] = Field(default_factory=dict)
    """Matches left out, by reason."""
    rulesets: dict[str, int] = Field(default_factory=dict)
    """Matches by ``ruleset@version``."""
    formats: dict[str, int] = Field(default_factory=dict)
    """Matches by format."""
    victory_types: dict[str, int] = Field(default_factory=dict)
    """Matches by victory type (``UNFINISHED`` for no winner)."""
    winners: int = 0
    """Winning player-matches among the counted sides (a team win counts each member)."""
    turns: dict[int, int] = Field(default_factory=dict)
    """Finished matches by number of turns."""
    events: dict[int, int] = Field(default_factory=dict)
    """Finished matches by number of events."""
    seats: dict[int, WinCount] = Field(default_factory=dict)
    """Win counts by seat (1-based seat order)."""
    turn_order: dict[int, WinCount] = Field(default_factory=dict)
    """Win counts by position in turn order (1 = first player, 2 = second, …)."""
    factions: dict[str, WinCount] = Field(default_factory=dict)
    """Win counts by deck faction."""
    decks: dict[str, DeckRecord] = Field(default_factory=dict)
    """Records by deck identity."""
    cards: dict[str, CardRecord] = Field(default_factory=dict)
    """Records by card definition id."""
    supply: dict[str, int] = Field(default_factory=dict)
    """Supply choices by package, over the counted sides."""
    tempo: dict[int, TempoSums] = Field(default_factory=dict)
    """Resource sums at the end of each turn number, over the counted sides."""

    @classmethod
    def build(cls, metrics: Iterable[MatchMetrics], filters: StatsFilter | None = None) -> Self:
        """An aggregate of ``metrics`` under ``filters``."""
        stats = cls(filters=filters or StatsFilter())
        for m in metrics:
            stats.add(m)
        return stats

    def add(self, m: MatchMetrics) -> bool:
        """Count one match; returns whether the filters let it in."""
        reason = self.filters.skip_reason(m)
        if reason is not None:
            _bump(self.skipped, reason)
            return False
        finished = m.finished
        self.matches += 1
        self.finished += finished
        self.with_violations += m.violations > 0
        _bump(self.rulesets, f"{m.ruleset}@{m.ruleset_version}")
        _bump(self.formats, m.format)
        _bump(self.victory_types, m.victory)
        if finished:
            _bump(self.turns, m.turns)
            _bump(self.events, m.events)
        played_here: set[str] = set()
        for p in m.players:
            if not self.filters.admits(p):
                continue
            self.sides += 1
            self._add_side(m, p, finished=finished)
            played_here.update(p.played)
        for card_id in played_here:
            self._card(m, card_id).matches += 1
        return True

    def _add_side(self, m: MatchMetrics, p: PlayerMetrics, *, finished: bool) -> None:
        for option, count in p.supply.items():
            if count:
                _bump(self.supply, option, count)
        for point in p.tempo:
            sums = self.tempo.setdefault(point.turn, TempoSums())
            sums.n += 1
            sums.gold += point.gold
            sums.honor += point.honor
            sums.vp += point.vp
        deck = self.decks.get(p.deck_id)
        if deck is None:
            deck = self.decks[p.deck_id] = DeckRecord(faction=p.faction, size=p.deck_size)
        deck.played += 1
        for card_id, count in p.played.items():
            self._card(m, card_id).summons += count
        if not finished:
            return
        won = p.won
        self.winners += won
        self.seats.setdefault(p.seat, WinCount()).record(won=won)
        self.turn_order.setdefault(p.order, WinCount()).record(won=won)
        self.factions.setdefault(p.faction, WinCount()).record(won=won)
        deck.record(won=won)
        for card_id in p.played:
            self._card(m, card_id).played.record(won=won)
        for card_id in p.deck:
            self._card(m, card_id).decked.record(won=won)

    def _card(self, m: MatchMetrics, card_id: str) -> CardRecord:
        record = self.cards.get(card_id)
        if record is None:
            info = m.cards.get(card_id)
            record = CardRecord(
                name=info.name if info else card_id,
                type=info.type if info else "?",
                faction=info.faction if info else None,
            )
            self.cards[card_id] = record
        return record

    def merge(self, other: CorpusStats) -> Self:
        """Add another aggregate (of other matches, under the same filters) to this one.

        Raises:
            ValueError: the two aggregates were built under different filters.
        """
        if other.filters != self.filters:
            msg = f"cannot merge statistics under different filters: {other.filters!r}"
            raise ValueError(msg)
        self.matches += other.matches
        self.finished += other.finished
        self.with_violations += other.with_violations
        self.sides += other.sides
        self.winners += other.winners
        for mine, theirs in (
            (self.skipped, other.skipped),
            (self.rulesets, other.rulesets),
            (self.formats, other.formats),
            (self.victory_types, other.victory_types),
            (self.supply, other.supply),
        ):
            for key, count in theirs.items():
                _bump(mine, key, count)
        for counts, extra in ((self.turns, other.turns), (self.events, other.events)):
            for value, count in extra.items():
                _bump(counts, value, count)
        for wins, more in (
            (self.seats, other.seats),
            (self.turn_order, other.turn_order),
        ):
            for k, wc in more.items():
                wins.setdefault(k, WinCount()).absorb(wc)
        for name, wc in other.factions.items():
            self.factions.setdefault(name, WinCount()).absorb(wc)
        for deck_id, d in other.decks.items():
            mine_d = self.decks.setdefault(deck_id, DeckRecord(faction=d.faction, size=d.size))
            mine_d.absorb(d)
            mine_d.played += d.played
        for card_id, c in other.cards.items():
            mine_c = self.cards.setdefault(
                card_id, CardRecord(name=c.name, type=c.type, faction=c.faction)
            )
            mine_c.matches += c.matches
            mine_c.summons += c.summons
            mine_c.played.absorb(c.played)
            mine_c.decked.absorb(c.decked)
        for turn, s in other.tempo.items():
            t = self.tempo.setdefault(turn, TempoSums())
            t.n += s.n
            t.gold += s.gold
            t.honor += s.honor
            t.vp += s.vp
        return self

    def _sort(self) -> None:
        # Keys in a canonical order, so equal aggregates also serialise to equal JSON.
        for name in ("skipped", "rulesets", "formats", "victory_types", "supply", "factions"):
            setattr(self, name, dict(sorted(getattr(self, name).items())))
        for name in ("turns", "events", "seats", "turn_order", "tempo"):
            setattr(self, name, dict(sorted(getattr(self, name).items())))
        self.decks = dict(sorted(self.decks.items()))
        self.cards = dict(sorted(self.cards.items()))

    def canonical(self) -> Self:
        """This aggregate with every mapping in key order (for stable JSON); returns self."""
        self._sort()
        return self

    # -- derived figures -----------------------------------------------------------------------

    def victory_distribution(self) -> list[tuple[str, int, float]]:
        """``(victory type, matches, share)`` by decreasing count."""
        total = self.matches
        rows = sorted(self.victory_types.items(), key=lambda kv: (-kv[1], kv[0]))
        return [(k, c, c / total if total else 0.0) for k, c in rows]

    def length(self, what: str = "turns", buckets: int = 12) -> Summary:
        """Summary of finished matches' length in ``turns`` or ``events``."""
        counts = self.turns if what == "turns" else self.events
        return summarize(counts, buckets)

    def card_rows(self, min_n: int = 1) -> list[tuple[str, CardRecord]]:
        """Cards played in at least ``min_n`` finished player-matches, by decreasing lower end
        of the win-rate interval (a rate is only as good as its evidence), then by id."""
        rows = [(k, c) for k, c in self.cards.items() if c.played.n >= min_n]
        rows.sort(key=lambda kv: (-kv[1].played.interval()[0], kv[0]))
        return rows

    def tempo_rows(self) -> list[tuple[int, TempoSums]]:
        """Tempo sums by turn number, in order."""
        return sorted(self.tempo.items())


def _bump(counts: dict[_K, int], key: _K, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by
