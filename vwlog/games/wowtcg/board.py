"""The WoW TCG board a replay folds (digest §7): seats, the turn and where in it the match is,
the priority window and the chain, hands, decks, cards in play and modifiers. Immutable.

``at`` names the point of the turn's script the match has reached:

``BETWEEN`` (before a turn), ``TURN`` (turn begun), ``START`` (start phase begun), ``READY``
(ready step begun), ``READIED`` (cards readied), ``READY_DONE`` (ready window closed),
``DRAW`` (draw step begun), ``DRAWN``, ``START_DONE``, ``ACTION`` (action phase begun),
``COMBAT_DECLARED``, ``COMBAT`` (in a combat step, no window open), ``ACTION_DONE``, ``END``,
``END_DONE``, ``FINAL`` (final step), ``WINDOW`` (a priority window is open: ``phase`` and
``step`` say whose), ``UNJUDGED`` and ``OVER``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from vwlog.games.wowtcg.ruleset import WowRuleset

__all__ = ["Board", "Card", "Link", "Modifier", "Trigger"]


@dataclass(frozen=True, slots=True)
class Card:
    """A card in play."""

    id: str
    controller: str
    kind: str
    exhausted: bool = False
    inspire: str | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """A link of the chain."""

    id: str
    controller: str
    instant: bool = True


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered effect waiting for a window (``when``: the moment it triggered at)."""

    id: str
    controller: str
    when: str


@dataclass(frozen=True, slots=True)
class Modifier:
    """A modifier in force."""

    id: str
    duration: str
    kind: str
    player: str | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """The board of a WoW TCG match."""

    started: bool = False
    ruleset: WowRuleset | None = None
    players: tuple[str, ...] = ()
    hands: tuple[int, ...] = ()
    decks: tuple[int, ...] = ()
    cards: tuple[Card, ...] = ()
    turn: int = 0
    current: str | None = None
    extra: bool = False
    """Whether the current turn is an extra turn."""
    rotation: str | None = None
    """The player whose regular turn came (or was skipped) last."""
    first_turn_taken: bool = False
    queue: tuple[str, ...] = ()
    """Players of the extra turns still to come, next first."""
    created: tuple[str, ...] = ()
    """Players of the extra turns created this turn, in creation order."""
    skips: tuple[int, ...] = ()
    """Turns each seat still has to skip."""
    skipped_run: frozenset[str] = frozenset()
    """Players who skipped a turn and have not taken one since (WOW-XTN-4)."""
    at: str = "BETWEEN"
    phase: str | None = None
    step: str | None = None
    moments: frozenset[str] = frozenset()
    """The beginnings (``TURN_START``, …) still open: no window has opened since."""
    holder: str | None = None
    holder_by: str | None = None
    """The flag that gave the holder priority (``chain_resolution``, ``priority_after_link``),
    ``None`` when the seed did."""
    passes: int = 0
    chain: tuple[Link, ...] = ()
    added: int = 0
    """Links players added so far in the match (new ids in play mode count on from it)."""
    pending: tuple[Trigger, ...] = ()
    """Triggered effects waiting for the next window."""
    carried: tuple[Trigger, ...] = ()
    """Effects that triggered in the final step, for the next ready step (WOW-TRG-4)."""
    dropped: frozenset[str] = frozenset()
    """Triggers never added (``start_triggers_wait_for=NEVER_ADDED``)."""
    resolving: bool = False
    """Whether all players passed with links on the chain: a link must resolve."""
    combat_windows: int = 0
    resources: int = 0
    inspired: frozenset[str] = frozenset()
    """Inspire sources used in this ready step."""
    inspired_players: frozenset[str] = frozenset()
    modifiers: tuple[Modifier, ...] = ()
    discarded: bool = False
    winner: str | None = None
    victory: str | None = None

    def seat(self, player: str | None) -> int:
        """The seat of ``player`` (``-1``: not at the match)."""
        return self.players.index(player) if player in self.players else -1

    def after(self, player: str | None) -> str:
        """The next player clockwise after ``player``."""
        i = self.seat(player)
        return self.players[(i + 1) % len(self.players)]

    def hand(self, player: str | None) -> int:
        i = self.seat(player)
        return self.hands[i] if i >= 0 else 0

    def card(self, card_id: str) -> Card | None:
        return next((c for c in self.cards if c.id == card_id), None)

    def max_hand(self, player: str | None) -> int:
        """The player's maximum hand size: the ruleset's, or the last modifier setting it."""
        size = self.ruleset.max_hand_size if self.ruleset else 7
        for m in self.modifiers:
            if m.kind == "MAX_HAND_SIZE" and m.player == player and m.amount is not None:
                size = m.amount
        return size

    def until_end_of_turn(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.modifiers if m.duration == "UNTIL_END_OF_TURN")

    def with_seat(self, field: str, player: str | None, delta: int) -> Board:
        """The board with ``delta`` added to ``player``'s count in ``field`` (never below 0)."""
        i = self.seat(player)
        if i < 0:
            return self
        values = list(getattr(self, field))
        values[i] = max(0, values[i] + delta)
        changed: dict[str, Any] = {field: tuple(values)}
        return replace(self, **changed)

    @property
    def window(self) -> bool:
        return self.at == "WINDOW"
