"""The frozen per-match metrics: one `MatchMetrics` per match, a `PlayerMetrics` per seat with
its per-turn `TurnPoint`s, and the identity and faction of a deck (docs/statistics.md)."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import TYPE_CHECKING, Any

from pydantic import Field, field_validator

from vwlog.projections.stats.common import NEUTRAL, UNFINISHED, _Frozen

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from vwlog.events import LogHeader


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

    @field_validator("tempo", mode="before")
    @classmethod
    def _tempo_from_columns(cls, value: Any) -> Any:
        """Also take the points in columns (`tempo_columns`), as a catalog entry keeps them."""
        if isinstance(value, dict):
            return tempo_rows(value)
        return value

    @property
    def cards_drawn(self) -> int:
        """Cards drawn from Supply and by effects."""
        return self.cards_drawn_supply + self.cards_drawn_effects


class TrustedUse(_Frozen):
    """A result whose effects were taken as logged: its skill's effects are text only, so no
    rule checked them (listed so that nothing in the statistics is trusted silently)."""

    seq: int
    """Seq of the ``object_resulted`` event."""
    card: str | None = None
    """The card definition id, if known."""
    skill: str | None = None
    """The skill id."""
    effects: int = 0
    """How many effects the log claims for it."""


PLAYER_COUNTS: tuple[str, ...] = tuple(
    name
    for name, field in TurnPoint.model_fields.items()
    if field.annotation is int
    and name in PlayerMetrics.model_fields
    and PlayerMetrics.model_fields[name].annotation is int
)
"""The counts that a player's `TurnPoint`s and their `PlayerMetrics` name alike (integers of the
same name in both), in `TurnPoint` order: ``gold_produced`` … ``max_register_depth``. Summed over
a player's points (``max_register_depth``: the maximum), each gives the match's count. Every
table that shows them per turn and per match (the per-match CSV, the Parquet tables) takes its
columns from here, so a count added to both models appears in all of them."""


TEMPO_FIELDS: tuple[str, ...] = tuple(TurnPoint.model_fields)
"""The fields of a `TurnPoint`, in order: the columns of `tempo_columns`."""


def tempo_columns(points: Iterable[Sequence[Any]]) -> dict[str, list[Any]]:
    """Turn points in columns: one list per field of `TEMPO_FIELDS`, one value per point, from
    points given as values in that order (in JSON mode: ``supply`` a plain dict).

    A catalog entry keeps a player's ``tempo`` so (`vwlog.store.MatchMeta.metrics`): the same
    numbers as a list of points, in a fraction of the space, and built without a model per
    turn; `PlayerMetrics` reads either form.
    """
    columns: list[list[Any]] = [[] for _ in TEMPO_FIELDS]
    for point in points:
        for column, value in zip(columns, point, strict=True):
            column.append(value)
    return dict(zip(TEMPO_FIELDS, columns, strict=True))


def tempo_rows(columns: dict[str, Any]) -> Any:
    """Points in columns (`tempo_columns`) as one mapping per point; ``columns`` unchanged when
    they are not lists of one length (validation then refuses them).

    >>> tempo_rows({"turn": [1, 2], "gold": [5, 7]})
    [{'turn': 1, 'gold': 5}, {'turn': 2, 'gold': 7}]
    """
    lists = list(columns.values())
    if not all(isinstance(c, list) for c in lists) or len({len(c) for c in lists}) > 1:
        return columns
    names = list(columns)
    return [dict(zip(names, values, strict=True)) for values in zip(*lists, strict=True)]


class MatchMetrics(_Frozen):
    """Statistics of one match, folded from its events by `MatchMetricsVisitor`."""

    match_id: str
    """The match id of the log header (``"?"`` when the records came without a header)."""
    created: str | None = None
    """When the log was written (the header's ``created``), if recorded."""
    tags: dict[str, str] = Field(default_factory=dict)
    """The tournament tags of the log header (``event``, ``round``, ``table``, ``date``) that
    it carries; empty when it carries none."""
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
    trusted: tuple[TrustedUse, ...] = ()
    """Every result whose effects were taken as logged (text-only skills), in order."""

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


def header_fields(header: LogHeader | None) -> dict[str, Any]:
    """What a match's metrics take from its log header: id, creation time, tournament tags
    (``"?"``, ``None`` and none without a header)."""
    if header is None:
        return {"match_id": "?", "created": None, "tags": {}}
    return {"match_id": header.match_id, "created": header.created, "tags": header.tags()}


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


def deck_archetype(factions: Iterable[str | None]) -> str:
    """A deck's archetype: its two most common factions (ties go to the first name in
    alphabetical order), in alphabetical order, joined by ``+``; one faction alone for a deck
    of one faction, ``NEUTRAL`` for a deck without factions.

    >>> deck_archetype(["ORDER", "EDEN", None, "EDEN", "ORDER", "CHAOS", "ORDER"])
    'EDEN+ORDER'
    >>> deck_archetype(["EDEN", "EDEN", None]), deck_archetype([None])
    ('EDEN', 'NEUTRAL')
    """
    counts = Counter(f for f in factions if f is not None)
    if not counts:
        return NEUTRAL
    return "+".join(sorted(sorted(counts, key=lambda f: (-counts[f], f))[:2]))


__all__ = [
    "TEMPO_FIELDS",
    "CardInfo",
    "DecisionTiming",
    "MatchMetrics",
    "PlayerMetrics",
    "TrustedUse",
    "TurnPoint",
    "deck_archetype",
    "deck_faction",
    "deck_identity",
    "header_fields",
    "tempo_columns",
    "tempo_rows",
]
