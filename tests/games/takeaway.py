"""Take-away, a second game that exists only to show the core is game-independent.

Two players share a pile of counters. The player to move takes 1 to ``most`` of them, or passes
(the priority-like decision: a pass hands the move over, but nobody passes twice in a row). Who
takes the last counter wins, and the rules then demand ``game_won`` naming them. Nothing in
`vwlog` knows this game: it is registered by ``VWLOG_GAMES=takeaway=tests.games.takeaway`` (or
`vwlog.games.register`) and judged through `vwlog.games.GameRules` alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from vwlog.events.base import Consequence, Decision
from vwlog.events.core import MatchForked, MatchSealed, RecordSigned
from vwlog.games import GameRules, MatchSummary, cite
from vwlog.model.expect import Expect
from vwlog.model.violation import Violation


class TakeRuleset(BaseModel):
    """How many counters a move may take."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = "takeaway"
    version: int = 1
    most: int = Field(default=3, ge=1, le=100)


class TakeawayStarted(Consequence):
    """The match begins: two players, a pile."""

    type: Literal["takeaway_started"] = "takeaway_started"
    players: tuple[str, str]
    pile: int = Field(ge=1, le=1000)
    ruleset: TakeRuleset = TakeRuleset()


class CountersTaken(Decision):
    """The player to move takes counters."""

    type: Literal["counters_taken"] = "counters_taken"
    player: str
    count: int = Field(ge=0, le=1000)


class MovePassed(Decision):
    """The player to move hands the move over."""

    type: Literal["move_passed"] = "move_passed"
    player: str


class GameWon(Consequence):
    """Who took the last counter wins."""

    type: Literal["game_won"] = "game_won"
    player: str


TakeEvent: TypeAlias = (
    TakeawayStarted
    | CountersTaken
    | MovePassed
    | GameWon
    | MatchForked
    | MatchSealed
    | RecordSigned
)


class TakeRecord(BaseModel):
    """A take-away record: the core's envelope around this game's events."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seq: int = Field(ge=1, le=10**12)
    at: str | None = None
    hash: str | None = None
    event: Annotated[TakeEvent, Field(discriminator="type")]


@dataclass(frozen=True, slots=True)
class Pile:
    """The board: the pile, whose move, who passed last, who won."""

    started: bool = False
    players: tuple[str, ...] = ()
    pile: int = 0
    to_move: str | None = None
    passed: str | None = None
    taker: str | None = None
    winner: str | None = None
    ruleset: TakeRuleset | None = None


RULES = {
    "TAKE-MOVE-1": "Only the player to move decides.",
    "TAKE-MOVE-2": "A move takes at least one counter and at most the ruleset's most.",
    "TAKE-MOVE-3": "A move takes no more counters than the pile holds.",
    "TAKE-PASS-1": "Nobody passes twice in a row.",
    "TAKE-WIN-1": "Who takes the last counter wins.",
}
"""The game's catalog."""


def expect(ruleset: TakeRuleset, s: Pile) -> Expect:
    """What the rules await: the start, the win owed, or the move of the player to move."""
    if not s.started:
        return Expect(kind="start", rule="CORE-LOG-1")
    if s.winner is not None:
        return Expect(rule="CORE-LOG-2")
    if s.pile == 0 and s.taker is not None:
        return Expect((GameWon(player=s.taker),), rule="TAKE-WIN-1")
    return Expect(player=s.to_move, kind="move", rule="TAKE-MOVE-1")


def judge(ruleset: TakeRuleset, s: Pile, exp: Expect, e: object) -> tuple[Violation, ...]:
    """The rules ``e`` breaks."""
    if not s.started:
        if isinstance(e, TakeawayStarted):
            return ()
        return (cite("CORE-LOG-1", "a match begins with takeaway_started"),)
    if s.winner is not None:
        return (cite("CORE-LOG-2", "the match is over: {winner} won", winner=s.winner),)
    if exp.consequences:
        if exp.demands(e):
            return ()
        return (cite("TAKE-WIN-1", "{player} took the last counter and wins", player=s.taker),)
    player = getattr(e, "player", None)
    if player not in s.players:
        return (cite("CORE-ID-1", "unknown player {player!r}", player=player),)
    if player != s.to_move:
        return (
            cite("TAKE-MOVE-1", "it is {who}'s move, not {player}'s", who=s.to_move, player=player),
        )
    if isinstance(e, MovePassed):
        if s.passed == player:
            return (cite("TAKE-PASS-1", "{player} passed last time", player=player),)
        return ()
    if isinstance(e, CountersTaken):
        if not 1 <= e.count <= ruleset.most:
            return (
                cite("TAKE-MOVE-2", "takes {count}: 1 to {most}", count=e.count, most=ruleset.most),
            )
        if e.count > s.pile:
            return (
                cite(
                    "TAKE-MOVE-3",
                    "takes {count}: the pile holds {pile}",
                    count=e.count,
                    pile=s.pile,
                ),
            )
        return ()
    return (cite("TAKE-MOVE-1", "{type} is not a move", type=getattr(e, "type", "?")),)


def _other(s: Pile, player: str) -> str:
    return next((p for p in s.players if p != player), player)


def evolve(s: Pile, e: object) -> Pile:
    """The board after ``e`` (trusting it)."""
    if isinstance(e, TakeawayStarted):
        return Pile(True, e.players, e.pile, e.players[0], None, None, None, e.ruleset)
    if isinstance(e, CountersTaken):
        pile = max(0, s.pile - e.count)
        return replace(s, pile=pile, to_move=_other(s, e.player), passed=None, taker=e.player)
    if isinstance(e, MovePassed):
        return replace(s, to_move=_other(s, e.player), passed=e.player)
    if isinstance(e, GameWon):
        return replace(s, winner=e.player, to_move=None)
    return s


def fold(s: Pile, e: object, found: tuple[Violation, ...]) -> tuple[Pile, tuple[Violation, ...]]:
    """The fold, which never raises."""
    return evolve(s, e), found


def summary(s: Pile) -> MatchSummary:
    """How the match stands."""
    rs = s.ruleset
    return MatchSummary(
        s.started,
        s.players,
        0,
        s.winner,
        "last counter" if s.winner else None,
        f"{rs.id}@{rs.version}" if rs else None,
    )


def owed(s: Pile) -> tuple[str, ...]:
    """The consequences owed when the record ends."""
    return ("game_won",) if s.started and s.winner is None and s.pile == 0 else ()


EVENTS: dict[str, type] = {
    cls.model_fields["type"].default: cls
    for cls in (
        TakeawayStarted,
        CountersTaken,
        MovePassed,
        GameWon,
        MatchForked,
        MatchSealed,
        RecordSigned,
    )
}

GAME = GameRules(
    id="takeaway",
    name="Take-away",
    record=TypeAdapter(TakeRecord),
    event_types=EVENTS,
    decision_types=frozenset({CountersTaken, MovePassed, MatchForked}),
    trailer_types=frozenset({MatchSealed, RecordSigned}),
    start_type=TakeawayStarted,
    fork_kinds=frozenset({"move"}),
    initial=Pile(),
    default_ruleset=TakeRuleset(),
    expect=expect,
    judge=judge,
    fold=fold,
    locate=lambda v, s: v,
    summary=summary,
    owed=owed,
    catalog=RULES,
)
"""Take-away's rules, as the core calls them."""
