"""What one player could know at one position of a match.

`KnowledgeTracker` is a replay visitor that follows what each player has seen; `knowledge`
replays a match up to one seq and asks it: the board as that player sees it, and every card they
have seen so far (their own draws, cards that passed through public zones, revealed decks),
with where each of those cards is now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from vwlog.audit.sources import unpack
from vwlog.engine.replay import BaseVisitor, replay
from vwlog.events import DeckRevealed
from vwlog.games.vw.describe import BoardView, board_view
from vwlog.games.vw.spots import HIDDEN, NOWHERE, Spot, spot_text, spots
from vwlog.model.errors import SeqOutOfRangeError
from vwlog.projections import INITIAL

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from vwlog.engine.replay import Step
    from vwlog.engine.seek import Item
    from vwlog.model.state import MatchState

__all__ = ["Knowledge", "KnowledgeTracker", "SeenCard", "knowledge"]


@dataclass(frozen=True)
class SeenCard:
    """A card a player has seen, and where it is now."""

    id: str
    """Instance id."""
    name: str
    """Printed name."""
    owner: str
    """Its owner."""
    seq: int
    """The event after which the player first saw it."""
    how: str
    """How they saw it: ``in their hand``, ``on the register``, ``in play``, ``in a Graveyard``
    or ``deck revealed``."""
    now: Spot
    """Where it is now."""
    where: str
    """Where it is now, as a phrase."""
    public: bool = False
    """Whether every player has seen it (it passed through a public zone)."""

    @property
    def hidden(self) -> bool:
        """Whether it is in a hidden zone now (a hand, a Fate Deck, a subdeck)."""
        return self.now.zone in HIDDEN


@dataclass(frozen=True)
class Knowledge:
    """What one player could know after one event: the board as they see it, and every card
    they had seen so far with where it is now."""

    player: str
    seq: int
    board: BoardView
    """The board limited to the player's view (`vwlog.games.vw.describe.board_view`)."""
    seen: tuple[SeenCard, ...]
    """Every card the player has seen, in the order they first saw it."""

    @property
    def hidden(self) -> tuple[SeenCard, ...]:
        """Cards the player has seen that are now hidden from them: in another player's hand,
        or in any Fate Deck or subdeck."""
        return tuple(
            c
            for c in self.seen
            if c.hidden and not (c.now.zone == "HAND" and c.now.player == self.player)
        )

    def unknown_in_hand(self, other: str) -> int:
        """How many cards of ``other``'s hand the player has never seen."""
        size = next((p.hand_size for p in self.board.players if p.id == other), 0)
        known = sum(1 for c in self.hidden if c.now.zone == "HAND" and c.now.player == other)
        return size - known


class KnowledgeTracker(BaseVisitor[None]):
    """A replay visitor that follows what each player has seen.

    A card is seen by every player once it is in a public zone (in play, on the register, in a
    Graveyard) or its owner's deck order is revealed; by its owner alone while it is in their
    hand (opening hand, supply, draws by effects). What a player saw stays known even where a
    judge's back-up later voids the events that showed it.
    """

    def __init__(self) -> None:
        self.public: dict[str, tuple[int, str]] = {}
        self.private: dict[str, dict[str, tuple[int, str]]] = {}
        self.state: MatchState = INITIAL
        self.seq = 0

    def visit(self, step: Step) -> None:
        """Note the cards this event showed."""
        seq = step.record.seq
        before, after = step.before, step.after
        self.state, self.seq = after, seq
        public = self.public
        if after.permanents is not before.permanents:
            for c in after.permanents:
                if c not in public:
                    public[c] = (seq, "in play")
        if after.register is not before.register:
            for o in after.register:
                if o.card is not None and o.card not in public:
                    public[o.card] = (seq, "on the register")
        if after.players is not before.players and len(after.players) == len(before.players):
            for p_after, p_before in zip(after.players, before.players, strict=True):
                if p_after.graveyard is not p_before.graveyard:
                    for c in p_after.graveyard:
                        if c not in public:
                            public[c] = (seq, "in a Graveyard")
                if p_after.hand is not p_before.hand:
                    own = self.private.setdefault(p_after.id, {})
                    for c in p_after.hand:
                        if c not in own:
                            own[c] = (seq, "in their hand")
        event = step.record.event
        if isinstance(event, DeckRevealed) and event.player in after.commitments:
            for c in after.commitments[event.player][1]:
                if c not in public:
                    public[c] = (seq, "deck revealed")

    def result(self) -> None:
        """Nothing: read `knowledge`."""

    def knowledge(self, player: str) -> Knowledge:
        """What ``player`` could know after the last event visited.

        Raises:
            UsageError: ``player`` does not sit at this match's table.
        """
        state = self.state
        board = board_view(state, player=player, seq=self.seq)
        where = spots(state)
        merged = {**self.private.get(player, {})}
        for c, first in self.public.items():
            if c not in merged or first[0] < merged[c][0]:
                merged[c] = first
        seen = tuple(
            SeenCard(
                id=c,
                name=state.defn(c).name if c in state.instances else c,
                owner=state.owners.get(c, ""),
                seq=first[0],
                how=first[1],
                now=where.get(c, NOWHERE),
                where=spot_text(state, where.get(c, NOWHERE)),
                public=c in self.public,
            )
            for c, first in sorted(merged.items(), key=lambda kv: (kv[1][0], kv[0]))
        )
        return Knowledge(player=player, seq=self.seq, board=board, seen=seen)


class _Until:
    """Feeds a replay up to one seq and remembers whether it was reached."""

    def __init__(self, items: Iterable[Item], seq: int) -> None:
        self.items = items
        self.seq = seq
        self.first: int | None = None
        self.last: int | None = None

    def __iter__(self) -> Iterator[Item]:
        for item in self.items:
            s = unpack(item)[1].seq
            if s > self.seq:
                return
            if self.first is None:
                self.first = s
            self.last = s
            yield item

    def check(self, source: str) -> None:
        if self.last != self.seq:
            raise SeqOutOfRangeError(source, self.seq, self.first, self.last)


def knowledge(
    records: Iterable[Item], seq: int, player: str, *, source: str = "this match"
) -> Knowledge:
    """What ``player`` could know after the event ``seq``: their view of the board (their own
    hand, the public zones, the other hands and decks as counts) and every card they had seen
    so far (their own draws, cards that passed through public zones, revealed decks), each with
    where it is now.

    Replays the records up to ``seq`` through the one replay loop and stops reading there.

    Raises:
        SeqOutOfRangeError: the match has no event ``seq``.
        UsageError: the match has no player ``player``.
    """
    until = _Until(records, seq)
    tracker = KnowledgeTracker()
    replay(until, tracker)
    until.check(source)
    return tracker.knowledge(player)
