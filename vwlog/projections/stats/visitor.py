"""`MatchMetricsVisitor`: a visitor of the one replay loop (`vwlog.engine.replay.replay`)
that folds one match into `MatchMetrics`, reading each event and the boards around it."""

from __future__ import annotations

import statistics
from array import array
from collections import Counter
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, assert_never

from vwlog import events as ev
from vwlog.model.types import CardType, SupplyOption
from vwlog.projections.stats import metrics
from vwlog.projections.stats.common import UNFINISHED, _parse_time
from vwlog.rules.effects import is_trusted

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.events import AnyEvent
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState


class ReplayStep(Protocol):
    """What the visitor reads of a `vwlog.engine.replay.Step`."""

    @property
    def record(self) -> ev.EventRecord: ...

    @property
    def before(self) -> MatchState: ...

    @property
    def after(self) -> MatchState: ...

    @property
    def violations(self) -> tuple[Violation, ...]: ...


_SUPPLY = tuple(sorted(o.value for o in SupplyOption))
"""The Supply packages, in the order a point's ``supply`` lists them."""
_COLUMNS = (*metrics.PLAYER_COUNTS, "skills_registered", "skills_triggered", *_SUPPLY, "ended")
_GOLD, _HONOR, _VP = len(_COLUMNS), len(_COLUMNS) + 1, len(_COLUMNS) + 2
"""A turn's row in `_Tally`: the counts, the sums of the per-card counts, the Supply choices
by package, whether the turn ended (``1``), then gold, honor and VP at its end."""
_ROW = _VP + 1
_AT = {name: n for n, name in enumerate(_COLUMNS)}
GOLD_PRODUCED = _AT["gold_produced"]
GOLD_SUPPLY = _AT["gold_from_supply"]
GOLD_EFFECTS = _AT["gold_from_effects"]
GOLD_SPENT = _AT["gold_spent"]
DRAWN_SUPPLY = _AT["cards_drawn_supply"]
DRAWN_EFFECTS = _AT["cards_drawn_effects"]
PLAYED = _AT["cards_played"]
DISCARDED = _AT["cards_discarded"]
TERRITORIES_SUMMONED = _AT["territories_summoned"]
TERRITORIES_LOST = _AT["territories_lost"]
FOLLOWERS_SUMMONED = _AT["followers_summoned"]
FOLLOWERS_LOST = _AT["followers_lost"]
ATTACKS = _AT["attacks_declared"]
ATTACKERS = _AT["attackers_declared"]
BLOCKS = _AT["blocks"]
DAMAGE_FOLLOWERS = _AT["damage_to_followers"]
DAMAGE_TERRITORIES = _AT["damage_to_territories"]
DEPTH = _AT["max_register_depth"]
SKILLS = _AT["skills_registered"]
TRIGGERED = _AT["skills_triggered"]
_ENDED = _AT["ended"]
_ZEROS = array("i", [0]) * _ROW


class _Tally:
    """One player's running counts while the visitor folds (mutable, private): a row of
    integers per turn (`_COLUMNS`), the per-card counts of the match, and decision times.

    A long match has a point per turn for every player, so a turn costs one row of 32-bit
    integers here (about 130 bytes), not objects: the memory of an import that measures a
    match grows by that much per turn. The per-turn points are the rows; the per-match totals
    are their sums, so the two can never disagree.
    """

    __slots__ = (
        "by_card",
        "data",
        "intervals",
        "last_decision",
        "played",
        "rows",
        "skills",
        "triggered",
    )

    def __init__(self) -> None:
        self.rows: dict[int, int] = {}
        """Where each turn's row starts in ``data``."""
        self.data: array[int] | list[int] = array("i")
        """The rows, one after another (a list once a value outgrows 32 bits)."""
        self.played: Counter[str] = Counter()
        self.skills: Counter[str] = Counter()
        self.triggered: Counter[str] = Counter()
        self.by_card = {PLAYED: self.played, SKILLS: self.skills, TRIGGERED: self.triggered}
        self.intervals: array[float] = array("d")
        self.last_decision: datetime | None = None

    def _row(self, turn: int) -> int:
        at = self.rows.get(turn)
        if at is None:
            at = self.rows[turn] = len(self.data)
            self.data.extend(_ZEROS)
        return at

    def _set(self, index: int, value: int) -> None:
        try:
            self.data[index] = value
        except OverflowError:
            self.data = list(self.data)
            self.data[index] = value

    def add(self, turn: int, column: int, amount: int = 1) -> None:
        """Count ``amount`` in a turn (anything before the first turn counts in turn 1)."""
        index = self._row(max(turn, 1)) + column
        self._set(index, self.data[index] + amount)

    def card(self, turn: int, column: int, card: str) -> None:
        """Count a card summoned (``PLAYED``), or a skill of it registered (``SKILLS``) or
        triggered (``TRIGGERED``), in a turn and by card definition."""
        self.by_card[column][card] += 1
        self.add(turn, column)

    def deepest(self, turn: int, depth: int) -> None:
        """The register was ``depth`` deep after the player put an object on it in a turn."""
        index = self._row(max(turn, 1)) + DEPTH
        if depth > self.data[index]:
            self._set(index, depth)

    def supply(self, turn: int, option: str) -> None:
        """The player chose a Supply package in a turn."""
        self.add(turn, _AT[option])

    def end(self, turn: int, gold: int, honor: int, vp: int) -> None:
        """The player's resources at the end of a turn."""
        at = self._row(turn)
        for column, value in ((_ENDED, 1), (_GOLD, gold), (_HONOR, honor), (_VP, vp)):
            self._set(at + column, value)

    def ended(self, turn: int) -> bool:
        """Whether resources were taken at the end of this turn."""
        at = self.rows.get(turn)
        return at is not None and self.data[at + _ENDED] == 1

    def total(self) -> dict[str, int]:
        """The counts of the whole match by `_COLUMNS` name: the sum of every turn's (the
        register depth: the maximum)."""
        data = self.data
        sums = [0] * len(_COLUMNS)
        for at in self.rows.values():
            for column in range(len(_COLUMNS)):
                sums[column] += data[at + column]
        sums[DEPTH] = max((data[at + DEPTH] for at in self.rows.values()), default=0)
        return dict(zip(_COLUMNS, sums, strict=True))

    def points(self, final: tuple[int, int, int]) -> Iterator[tuple[Any, ...]]:
        """One point per turn that ended or has counts, in turn order (a turn that never ended
        takes the resources at the end of the match), as the values of `TEMPO_FIELDS`."""
        data = self.data
        for turn in sorted(self.rows):
            at = self.rows[turn]
            row = data[at : at + _ROW]
            gold, honor, vp = row[_GOLD : _VP + 1] if row[_ENDED] else final
            values: dict[str, Any] = dict(zip(_COLUMNS, row, strict=False))
            values.update(
                turn=turn,
                gold=gold,
                honor=honor,
                vp=vp,
                supply={name: values[name] for name in _SUPPLY if values[name]},
            )
            yield tuple(values[name] for name in metrics.TEMPO_FIELDS)

    def tempo(self, final: tuple[int, int, int]) -> tuple[metrics.TurnPoint, ...]:
        """The points of `points` as models."""
        return tuple(
            metrics.TurnPoint(**dict(zip(metrics.TEMPO_FIELDS, values, strict=True)))
            for values in self.points(final)
        )


class MatchMetricsVisitor:
    """A replay visitor that folds one match into `MatchMetrics`.

    Feed it to `vwlog.engine.replay.replay`; it reads each event and the boards around it and never
    walks the records itself. One visitor folds one match.

    Raises:
        ValueError: from `result`, when the replay saw no ``match_started`` event.
    """

    def __init__(self) -> None:
        self._header: ev.LogHeader | None = None
        self._start: ev.MatchStarted | None = None
        self._tally: dict[str, _Tally] = {}
        self._won: ev.MatchWon | None = None
        self._events = 0
        self._decisions = 0
        self._violations = 0
        self._depth = 0
        self._final: MatchState | None = None
        self._trusted: list[metrics.TrustedUse] = []

    # -- the visitor protocol ------------------------------------------------------------------

    def begin_match(self, header: ev.LogHeader | None) -> None:
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
        if not before.started and type(event) is not ev.MatchStarted:
            # before match_started no player has a tally: the record breaks R-SET-1 (the engine
            # says so once, at its first such event) and adds nothing to the statistics
            return
        if isinstance(event, ev.ObjectResulted):
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
            if not first.ended(final.turn):
                self._snapshot(final)

    def result(self, *, tempo: bool = True) -> metrics.MatchMetrics:
        """The metrics of the match (without ``tempo``, every player's ``tempo`` left empty:
        `tempo_columns` gives the points).

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
            last = self._last(seat.player)
            won = winner is not None and (
                seat.player == winner or (team is not None and seat.team == team)
            )
            players.append(
                metrics.PlayerMetrics(
                    player=seat.player,
                    seat=seat_no,
                    order=order[seat.player],
                    team=seat.team,
                    won=won,
                    deck_id=metrics.deck_identity(cards, sub),
                    faction=metrics.deck_faction(factions),
                    deck_size=len(cards) + len(sub),
                    deck=dict(sorted(Counter(cards + sub).items())),
                    supply={o.value: t[o.value] for o in SupplyOption},
                    final_gold=last[0],
                    final_honor=last[1],
                    final_vp=last[2],
                    **{name: t[name] for name in metrics.PLAYER_COUNTS},
                    skills_registered=dict(sorted(tally.skills.items())),
                    skills_triggered=dict(sorted(tally.triggered.items())),
                    played=dict(sorted(tally.played.items())),
                    tempo=tally.tempo(last) if tempo else (),
                    decision_time=_timing(tally.intervals),
                )
            )
        return metrics.MatchMetrics(
            **metrics.header_fields(self._header),
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
                c.id: metrics.CardInfo(
                    name=c.name, type=str(c.type), faction=str(c.faction) if c.faction else None
                )
                for c in start.cards
            },
            trusted=tuple(self._trusted),
        )

    def tempo_columns(self) -> dict[str, dict[str, list[Any]]]:
        """Every player's tempo points (`PlayerMetrics.tempo`) in columns
        (`vwlog.projections.stats.tempo_columns`), by player id, built without a model per
        point: with ``result(tempo=False)``, what a catalog entry keeps.

        Raises:
            ValueError: the replay saw no ``match_started`` event.
        """
        if self._start is None or self._final is None:
            msg = "no match_started event: nothing to measure"
            raise ValueError(msg)
        return {
            player: metrics.tempo_columns(tally.points(self._last(player)))
            for player, tally in self._tally.items()
        }

    def _last(self, player: str) -> tuple[int, int, int]:
        """A player's gold, honor and VP at the end of the match."""
        final = self._final
        state = final.player(player) if final is not None and final.has_player(player) else None
        return (state.gold, state.honor, state.vp) if state else (0, 0, 0)

    # -- folding -------------------------------------------------------------------------------

    def _fold(self, event: AnyEvent, before: MatchState, after: MatchState) -> None:
        tally = self._tally
        turn = before.turn
        match event:
            case ev.MatchStarted():
                if self._start is None:
                    self._start = event
                    self._tally = {s.player: _Tally() for s in event.seats}
            case ev.GoldProduced():
                tally[event.player].add(turn, GOLD_PRODUCED, event.amount)
            case ev.SupplyChosen():
                tally[event.player].supply(turn, event.option.value)
            case ev.SupplyTaken():
                t = tally[event.player]
                t.add(turn, GOLD_SUPPLY, event.gold)
                t.add(turn, DRAWN_SUPPLY, len(event.cards))
            case ev.CostPaid():
                tally[event.player].add(turn, GOLD_SPENT, event.gold)
            case ev.CardSummoned():
                t = tally[event.player]
                defn = before.defn(event.card)
                t.card(turn, PLAYED, defn.id)
                if defn.type == CardType.TERRITORY:
                    t.add(turn, TERRITORIES_SUMMONED)
                elif defn.type == CardType.FOLLOWER:
                    t.add(turn, FOLLOWERS_SUMMONED)
                self._registered(event.player, turn, after)
            case ev.SkillRegistered():
                tally[event.player].card(turn, SKILLS, before.instances.get(event.card, event.card))
                self._registered(event.player, turn, after)
            case ev.SkillTriggered():
                card = before.instances.get(event.card, event.card)
                tally[event.player].card(turn, TRIGGERED, card)
                self._registered(event.player, turn, after)
            case ev.CombatDamageRegistered():
                self._registered(before.active, turn, after)
            case ev.ObjectResulted():
                self._resulted(event, before)
            case ev.AttackDeclared():
                if event.attacks:
                    t = tally[event.player]
                    t.add(turn, ATTACKS)
                    t.add(turn, ATTACKERS, len(event.attacks))
            case ev.BlocksAssigned():
                tally[event.player].add(turn, BLOCKS, len(event.blocks))
            case ev.HandLimitDiscarded():
                tally[event.player].add(turn, DISCARDED, len(event.cards))
            case ev.TurnEnded():
                self._snapshot(after)
            case ev.MatchWon():
                self._won = event
            case (
                ev.OpeningHandDrawn()
                | ev.DeckRevealed()
                | ev.Conceded()
                | ev.JudgeRulingIssued()
                | ev.MatchForked()
                | ev.MatchSealed()
                | ev.RecordSigned()
                | ev.TurnStarted()
                | ev.PhaseStarted()
                | ev.StepStarted()
                | ev.PriorityPassed()
                | ev.Unslid()
                | ev.PropertyPlaced()
                | ev.DeploymentFinished()
                | ev.AttackersEnteredBattle()
                | ev.BlockersEnteredBattle()
                | ev.FollowerDamageAssigned()
                | ev.FollowersDestroyed()
                | ev.TerritoriesDestroyed()
                | ev.VictoryPointGained()
                | ev.BecameReturnHome()
                | ev.BecameStray()
                | ev.TurnCleanedUp()
            ):
                pass  # no metric reads these (losses come from the board, below)
            case _:
                assert_never(event)

    def _registered(self, player: str | None, turn: int, after: MatchState) -> None:
        depth = len(after.register)
        self._depth = max(self._depth, depth)
        if player is not None and player in self._tally:
            self._tally[player].deepest(turn, depth)

    def _note_trusted(self, event: ev.ObjectResulted, seq: int, before: MatchState) -> None:
        obj = next((o for o in before.register if o.id == event.object_id), None)
        if obj is not None and is_trusted(before, obj):
            card = before.instances.get(obj.card) if obj.card else None
            self._trusted.append(
                metrics.TrustedUse(seq=seq, card=card, skill=obj.skill, effects=len(event.effects))
            )

    def _resulted(self, event: ev.ObjectResulted, before: MatchState) -> None:
        turn = before.turn
        for effect in event.effects:
            match effect:
                case ev.DamageDealt():
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
                        self._tally[who].add(turn, DAMAGE_TERRITORIES, effect.amount)
                    elif kind == CardType.FOLLOWER:
                        self._tally[who].add(turn, DAMAGE_FOLLOWERS, effect.amount)
                case ev.GoldChanged():
                    if effect.player in self._tally:
                        self._tally[effect.player].add(turn, GOLD_EFFECTS, effect.delta)
                case ev.CardsDrawn():
                    if effect.player in self._tally:
                        self._tally[effect.player].add(turn, DRAWN_EFFECTS, len(effect.cards))
                case (
                    ev.StatChanged()
                    | ev.HonorChanged()
                    | ev.CardMoved()
                    | ev.DeckReordered()
                    | ev.StatusChanged()
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
                self._tally[perm.controller].add(before.turn, TERRITORIES_LOST)
            elif kind == CardType.FOLLOWER:
                self._tally[perm.controller].add(before.turn, FOLLOWERS_LOST)

    def _snapshot(self, state: MatchState) -> None:
        for p in state.players:
            t = self._tally.get(p.id)
            if t is not None:
                t.end(state.turn, p.gold, p.honor, p.vp)

    def _time_decision(self, event: AnyEvent, at: str | None) -> None:
        player = ev.acting_player(event)
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


def _timing(intervals: array[float]) -> metrics.DecisionTiming | None:
    if not intervals:
        return None
    total = sum(intervals)
    return metrics.DecisionTiming(
        n=len(intervals),
        total=total,
        mean=total / len(intervals),
        median=statistics.median(intervals),
        max=max(intervals),
    )


__all__ = ["MatchMetricsVisitor", "ReplayStep"]
