"""`CorpusStats`: the mutable, mergeable aggregate of many matches (``add`` one match,
``merge`` another aggregate), kept current by the store's read model and round-tripping through
JSON; `StatsFilter` chooses which matches count."""

from __future__ import annotations

import math
from datetime import date
from typing import TYPE_CHECKING, Self, TypeVar

from pydantic import Field

from vwlog.projections.stats.common import _Frozen, _Mutable, _parse_time
from vwlog.projections.stats.metrics import MatchMetrics, PlayerMetrics, deck_archetype
from vwlog.projections.stats.wilson import WinCount

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


_K = TypeVar("_K")


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
    event: str | None = None
    """Only matches whose header's ``event`` tag is this one (exactly); matches without the
    tag are left out."""

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return any(
            v is not None for v in (self.player, self.faction, self.ruleset, self.since, self.event)
        )

    def skip_reason(self, m: MatchMetrics) -> str | None:
        """Why a match is left out, or ``None`` if it is counted."""
        if self.ruleset is not None and self.ruleset not in (
            m.ruleset,
            f"{m.ruleset}@{m.ruleset_version}",
        ):
            return "other ruleset"
        if self.event is not None and m.tags.get("event") != self.event:
            return "another event" if "event" in m.tags else "no event tag"
        if self.since is not None:
            created = _parse_time(m.created)
            if created is None:
                return "no creation date"
            if created.date() < self.since:
                return "created before the date asked for"
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
    with_trusted: int = 0
    """Of those, matches with results whose effects were taken as logged (text-only skills)."""
    trusted_results: int = 0
    """Results whose effects were taken as logged, over the counted matches."""
    trusted_skills: dict[str, int] = Field(default_factory=dict)
    """Those results by ``card/skill``."""
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
    matchups: dict[str, dict[str, WinCount]] = Field(default_factory=dict)
    """Win counts of each deck faction against each opponent's deck faction: for every counted
    side of a finished match and every opponent in it (a player not of its team), one result
    of the side's faction against the opponent's, won when the side won."""
    decks: dict[str, DeckRecord] = Field(default_factory=dict)
    """Records by deck identity."""
    archetypes: dict[str, WinCount] = Field(default_factory=dict)
    """Win counts by deck archetype (`deck_archetype`: its two most common factions, as in
    ``CHAOS+ORDER``):
    decks that share their factions but not every card, as generated decks never do."""
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
        self.with_trusted += bool(m.trusted)
        self.trusted_results += len(m.trusted)
        for t in m.trusted:
            _bump(self.trusted_skills, f"{t.card or '?'}/{t.skill or '?'}")
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
        against = self.matchups.setdefault(p.faction, {})
        for q in m.players:
            if q.player != p.player and (p.team is None or q.team != p.team):
                against.setdefault(q.faction, WinCount()).record(won=won)
        deck.record(won=won)
        archetype = deck_archetype(
            c.faction
            for card_id, n in p.deck.items()
            if (c := m.cards.get(card_id))
            for _ in range(n)
        )
        self.archetypes.setdefault(archetype, WinCount()).record(won=won)
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
        self.with_trusted += other.with_trusted
        self.trusted_results += other.trusted_results
        self.sides += other.sides
        self.winners += other.winners
        for mine, theirs in (
            (self.skipped, other.skipped),
            (self.rulesets, other.rulesets),
            (self.formats, other.formats),
            (self.victory_types, other.victory_types),
            (self.supply, other.supply),
            (self.trusted_skills, other.trusted_skills),
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
        for name, wc in other.archetypes.items():
            self.archetypes.setdefault(name, WinCount()).absorb(wc)
        for name, theirs_against in other.matchups.items():
            against = self.matchups.setdefault(name, {})
            for opponent, wc in theirs_against.items():
                against.setdefault(opponent, WinCount()).absorb(wc)
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
        for name in (
            "skipped",
            "rulesets",
            "formats",
            "victory_types",
            "supply",
            "factions",
            "archetypes",
        ):
            setattr(self, name, dict(sorted(getattr(self, name).items())))
        for name in ("turns", "events", "seats", "turn_order", "tempo"):
            setattr(self, name, dict(sorted(getattr(self, name).items())))
        self.matchups = {k: dict(sorted(v.items())) for k, v in sorted(self.matchups.items())}
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

    def archetype_rows(self, min_n: int = 1) -> list[tuple[str, WinCount]]:
        """Archetypes of at least ``min_n`` finished player-matches, by decreasing lower end of
        the win-rate interval, then by name."""
        rows = [(k, w) for k, w in self.archetypes.items() if w.n >= min_n]
        rows.sort(key=lambda kv: (-kv[1].interval()[0], kv[0]))
        return rows

    def matchup_rows(self, *, mirrors: bool = True) -> list[tuple[str, str, WinCount]]:
        """``(faction, opponent's faction, win count)`` in name order; without ``mirrors``,
        no faction against itself (in a duel its rate is one half by construction)."""
        return [
            (name, opponent, wc)
            for name, against in sorted(self.matchups.items())
            for opponent, wc in sorted(against.items())
            if mirrors or opponent != name
        ]

    def tempo_rows(self, min_n: int = 1) -> list[tuple[int, TempoSums]]:
        """Tempo sums by turn number, in order; only the turns that at least ``min_n``
        player-matches reached (a mean over one or two long matches is noise, not a curve)."""
        return sorted((t, s) for t, s in self.tempo.items() if s.n >= min_n)

    def tempo_cut(self, min_n: int) -> tuple[int, int, int] | None:
        """The turns `tempo_rows` leaves out under ``min_n``: ``(first, last, most n)``, or
        ``None`` when every turn is kept."""
        cut = sorted((t, s.n) for t, s in self.tempo.items() if s.n < min_n)
        if not cut:
            return None
        return cut[0][0], cut[-1][0], max(n for _t, n in cut)


def _bump(counts: dict[_K, int], key: _K, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


__all__ = [
    "CardRecord",
    "CorpusStats",
    "DeckRecord",
    "StatsFilter",
    "Summary",
    "TempoSums",
    "summarize",
]
