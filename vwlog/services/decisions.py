"""What is awaited at a position of a match: whose decision, of what kind, and every legal
decision, written in the game's notation, through the game's decisions capability
(`vwlog.games.GameRules.decisions`, read as `Decisions`): a game without one cannot say its
legal decisions, and a command that needs them says so in one line (`decisions_of`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from vwlog.engine.replay import FinalState, replay
from vwlog.engine.seek import position, state_at
from vwlog.games import GameRules, game_of_state, unavailable
from vwlog.model.games import DEFAULT_GAME

if TYPE_CHECKING:
    import random
    from collections.abc import Iterable, Mapping

    from vwlog.engine.seek import Item
    from vwlog.store import MatchStore

__all__ = [
    "Awaited",
    "Decisions",
    "awaited",
    "awaited_in_log",
    "awaited_in_store",
    "deciding",
    "decisions_of",
]


class Decisions(Protocol):
    """A game's decisions capability, as ``next`` and ``play`` read it."""

    def legal(
        self, ruleset: Any, state: Any, player: str, kind: str | None
    ) -> tuple[tuple[str, ...], int, bool]:
        """``player``'s legal decisions in the notation, how many are legal, and whether
        that count is exact."""
        ...

    def names(self, decisions: Iterable[str], state: Any) -> dict[str, str]:
        """The names of the cards (pieces) the decisions name, by id."""
        ...

    def named(self, decision: str, names: Mapping[str, str]) -> str:
        """A decision followed by the names of what it names."""
        ...

    def syntax(self) -> str:
        """The notation, for the help of ``play``."""
        ...

    def check(self, ruleset: Any, state: Any, decision: Any) -> tuple[Any, ...]:
        """The rules ``decision`` breaks at ``state`` (none: it is legal)."""
        ...

    def play(self, ruleset: Any, state: Any, decision: Any) -> tuple[Any, list[Any]]:
        """The board after ``decision`` and the consequences it brings, and the events
        applied: the decision first, unless the rules owed consequences before it (a record
        that stops before them: they come first).

        Raises:
            vwlog.model.errors.IllegalEventError: the decision breaks rules (``after``: the
                events that would have come before it).
        """
        ...

    def whole(self, ruleset: Any, state: Any) -> bool:
        """Whether the decisions played up to ``state`` are whole (none awaits its rest)."""
        ...

    def parse(self, ruleset: Any, state: Any, text: str) -> list[Any]:
        """The decision event(s) a line of the notation names at ``state``.

        Raises:
            vwlog.model.errors.UsageError: the line cannot be read (one line saying what is
                wrong).
        """
        ...

    def choose(
        self, ruleset: Any, state: Any, player: str, rng: random.Random, policy: str
    ) -> Any | None:
        """A legal decision for ``player`` at ``state``, chosen by ``policy`` (``greedy`` or
        ``random``) with draws from ``rng``; ``None`` when ``player`` has none (automatic
        play)."""
        ...


def deciding(game: GameRules, capability: Decisions, ruleset: Any, state: Any) -> tuple[Any, Any]:
    """Whose decision is awaited at ``state``, and of what kind (``(None, None)``: nobody's):
    the one the rules await, else one they do not wait for but offer (WoW TCG's Inspire, as
    the ready step begins), which a capability says through its optional
    ``awaits(ruleset, state) -> (player, kind) | None``."""
    exp = game.expect(ruleset, state)
    if exp.player is not None:
        return exp.player, exp.kind
    optional = getattr(capability, "awaits", None)
    found = optional(ruleset, state) if optional is not None else None
    return (found[0], found[1]) if found is not None else (None, exp.kind)


def decisions_of(game: GameRules, what: str) -> Decisions:
    """``game``'s decisions capability: the one its rules name (an object, or a function that
    loads it).

    Raises:
        GameUnavailableError: the game has none (``{what} is not available for game X``).
    """
    found = game.decisions
    if found is None:
        raise unavailable(game, what)
    if not hasattr(found, "legal") and callable(found):
        found = found()
    return cast("Decisions", found)


@dataclass(frozen=True, slots=True)
class Awaited:
    """The decision awaited after the event ``seq``."""

    seq: int
    turn: int
    phase: str | None
    player: str | None
    """Whose decision is awaited (``None``: nobody; the match is over or not started)."""
    kind: str | None
    """The game's word: for Vandaria Wars setup, supply, deploy, stray, registration,
    attackers, declare, blockers, blocks, damage, discard or priority; for WoW TCG priority,
    discard or inspire."""
    decisions: tuple[str, ...]
    """Every legal decision, in the notation (a combinatorial choice lists a documented,
    bounded family; see `vwlog.rules.decisions`)."""
    winner: str | None = None
    over: bool = False
    total: int = 0
    """How many decisions are legal: the count of `decisions` where they are every one, more
    where a combinatorial choice lists a bounded family of them."""
    exact: bool = True
    """Whether `total` is exact (``False``: a lower bound, the whole space being too large to
    check)."""
    names: dict[str, str] = field(default_factory=dict)
    """The name of every card `decisions` name, by id."""
    game: str = DEFAULT_GAME
    """The id of the match's game (`vwlog.games.rules_for`)."""

    @property
    def sampled(self) -> bool:
        """Whether `decisions` are fewer than the legal ones (a bounded family)."""
        return not self.exact or self.total > len(self.decisions)


def awaited(seq: int, state: Any, ruleset: Any = None) -> Awaited:
    """What is awaited at ``state`` (the board after the event ``seq``, of any game); judged
    under ``ruleset`` (of the game) if given, else the one the match names.

    Raises:
        GameUnavailableError: the match's game has no decisions capability.
    """
    game = game_of_state(state)
    decisions_capability = decisions_of(game, "next")
    rs = ruleset or game.ruleset_of(state)
    summary = game.summary(state)
    where = position(state, game)
    over = summary.winner is not None
    if rs is None or over:
        return Awaited(
            seq, where.turn, where.phase, None, None, (), summary.winner, over, game=game.id
        )
    player, awaited_kind = deciding(game, decisions_capability, rs, state)
    decisions: tuple[str, ...] = ()
    total, exact = 0, True
    if player is not None:
        decisions, total, exact = decisions_capability.legal(rs, state, player, awaited_kind)
    kind = str(awaited_kind) if awaited_kind is not None else None
    return Awaited(
        seq,
        where.turn,
        where.phase,
        player,
        kind,
        decisions,
        summary.winner,
        over,
        total=total,
        exact=exact,
        names=decisions_capability.names(decisions, state),
        game=game.id,
    )


def awaited_in_log(
    items: Iterable[Item],
    at: int | None = None,
    *,
    ruleset: Any = None,
    source: str = "this match",
) -> Awaited:
    """What is awaited after the event ``at`` (default: the last) of a match read from
    records, through the replay loop.

    Raises:
        UsageError: the match has no event with seq ``at``.
    """
    if at is not None:
        return awaited(at, state_at(items, at, ruleset=ruleset, source=source), ruleset)
    last = 0

    def counted() -> Iterable[Item]:
        nonlocal last
        for item in items:
            last = item[1].seq if isinstance(item, tuple) else item.seq
            yield item

    state = replay(counted(), FinalState(), ruleset=ruleset)
    return awaited(last, state, ruleset)


def awaited_in_store(
    store: MatchStore, match_id: str, at: int | None = None, *, ruleset: Any = None
) -> Awaited:
    """What is awaited after the event ``at`` (default: the last) of a stored match, from the
    nearest snapshot.

    Raises:
        MatchNotFoundError: no such match.
        UsageError: seq ``at`` is out of range.
    """
    from vwlog.services.matches import state_at as stored_state_at

    seq = store.head(match_id).seq if at is None else at
    return awaited(seq, stored_state_at(store, match_id, seq), ruleset)
