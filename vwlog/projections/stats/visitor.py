"""`MatchMetricsVisitor`: a visitor of the one replay loop (`vwlog.engine.replay.replay`)
that folds one match into `MatchMetrics`, reading each event and the boards around it."""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, assert_never

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
    DeckReordered,
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
from vwlog.projections.stats.common import UNFINISHED, _parse_time
from vwlog.projections.stats.metrics import (
    CardInfo,
    DecisionTiming,
    MatchMetrics,
    PlayerMetrics,
    TrustedUse,
    TurnPoint,
    deck_faction,
    deck_identity,
)
from vwlog.rules.effects import is_trusted

if TYPE_CHECKING:
    from vwlog.events import AnyEvent
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState


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
        self._trusted: list[TrustedUse] = []

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
        if isinstance(event, ObjectResulted):
            self._note_trusted(event, record.seq, before)
        try:
            if after.permanents is not before.permanents:
                self._count_losses(before, after)
            self._fold(event, before, after)
        except KeyError:
            # a record naming a card or player the match does not have is a violation
            # (R-ZONE-5, R-GEN-7) and adds nothing to the statistics
            if not step.violations:
                raise

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
            trusted=tuple(self._trusted),
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

    def _note_trusted(self, event: ObjectResulted, seq: int, before: MatchState) -> None:
        obj = next((o for o in before.register if o.id == event.object_id), None)
        if obj is not None and is_trusted(before, obj):
            card = before.instances.get(obj.card) if obj.card else None
            self._trusted.append(
                TrustedUse(seq=seq, card=card, skill=obj.skill, effects=len(event.effects))
            )

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
                case (
                    StatChanged() | HonorChanged() | CardMoved() | DeckReordered() | StatusChanged()
                ):
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


__all__ = ["MatchMetricsVisitor", "ReplayStep"]
