"""Match start and end: setup, concession, judge rulings, victory, forks."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from vwlog.events.base import Consequence, Decision
from vwlog.events.core import MatchForked, MatchSealed, RecordSigned, SealedBy
from vwlog.events.effects import Effect
from vwlog.model.bounds import LogInt
from vwlog.model.cards import CardDef, Ruleset
from vwlog.model.types import MatchFormat, RulingKind, Victory

if TYPE_CHECKING:
    from collections.abc import Iterable

Shuffle: TypeAlias = Literal["seeded", "secret"]
"""How a match's decks were shuffled (`MatchStarted.shuffle`)."""


def deck_commitment(salt: str, card_ids: Iterable[str]) -> str:
    """SHA-256 (hex) committing to a deck order: the salt, a newline, the ids joined by commas."""
    h = hashlib.sha256(salt.encode("utf-8"))
    h.update(b"\n")
    h.update(",".join(card_ids).encode("utf-8"))
    return h.hexdigest()


class CardInstance(BaseModel):
    """One physical card in a match: its instance id and its definition id."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str = Field(min_length=1, max_length=64)
    """Instance id, unique within the match."""
    card: str = Field(min_length=1, max_length=200)
    """Id of its `CardDef` in the match's card pool."""


class Seat(BaseModel):
    """A player at the table (R-GEN-7)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    player: str = Field(min_length=1, max_length=64)
    """Player id used by every event of the match."""
    name: str = ""
    """Display name."""
    team: str | None = None
    """Team, in team formats (Tag Team, 3 on 3)."""
    deck: tuple[CardInstance, ...] = Field(max_length=10_000)
    """The Fate Deck, top card first (the organiser's complete record)."""
    subdeck: tuple[CardInstance, ...] = Field(default=(), max_length=10_000)
    """The subdeck (R-ZONE-3)."""
    deck_commitment: str | None = None
    """SHA-256 of the deck order committed before the match (`deck_commitment` of the salt and
    the instance ids, top first); checked against `salt` and `DeckRevealed`. Public: every
    seat may read it from the start."""
    salt: str | None = Field(default=None, max_length=128)
    """The secret the commitment is made with, in a secretly shuffled match: hashed with the
    record, so that nobody who cannot read this record can recompute its chain hash to confirm
    a guess of the deck. Hidden from every seat, like the deck, until the commitment is opened
    (`DeckRevealed`); absent in seeded and older logs."""

    def opens(self, salt: str) -> bool:
        """Whether ``salt`` opens this seat's deck commitment (``False`` without one)."""
        committed = self.deck_commitment
        return (
            committed is not None and deck_commitment(salt, (c.id for c in self.deck)) == committed
        )


class PublishedRef(BaseModel):
    """A published card pool or ruleset named by its stable id and its content hash."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str = Field(min_length=1, max_length=200)
    """Stable id, for example ``"vw-sample-pool@1"`` or ``"vw-default@1"``."""
    hash: str = Field(max_length=64)
    """SHA-256 (hex) of the definition's canonical JSON."""


class MatchStarted(Consequence):
    """The match began: seats in turn order, first player, ruleset, card pool and decks
    (R-GEN-7, R-SET-1, OQ-1, OQ-2).

    Recorded by the organiser; it is the first event of every log.

    A consequence the rules demand.
    """

    type: Literal["match_started"] = "match_started"
    format: MatchFormat = MatchFormat.DUEL
    """Duel, Tag Team, 3 on 3 or Battle Royal."""
    seats: tuple[Seat, ...] = Field(min_length=2, max_length=6)
    """Players in seat (turn) order."""
    first_player: str
    """Who takes the first turn (R-SET-1)."""
    ruleset: Ruleset
    """The interpretation of the open questions this match is judged under."""
    cards: tuple[CardDef, ...] = Field(max_length=5_000)
    """Definitions of every card used in the match."""
    pool: PublishedRef | None = None
    """The published card pool the match was played under (absent in older logs: the card
    definitions are then held to the packaged pool when they all come from it)."""
    ruleset_ref: PublishedRef | None = None
    """The published ruleset the match was played under (absent in older logs: it is then
    looked up by ``ruleset.id@ruleset.version``)."""
    shuffle: Shuffle | None = None
    """How the decks were shuffled and the first player drawn: ``secret``, by the operating
    system's CSPRNG, each seat's order committed with a salt (`Seat.salt`,
    `Seat.deck_commitment`) and opened at the end (`DeckRevealed`); or ``seeded``, from
    ``seed``: reproducible by anyone who knows or finds the seed, so the order was never a
    secret (simulations and tests). Absent where the log does not say: older logs, and logs of
    ``vwlog simulate``, whose header names its seed (``generator``)."""
    seed: LogInt | None = None
    """For a ``seeded`` shuffle: the seed."""


class OpeningHandDrawn(Consequence):
    """A player drew their opening hand from the top of their Fate Deck (R-SET-4, OQ-1).

    A consequence the rules demand."""

    type: Literal["opening_hand_drawn"] = "opening_hand_drawn"
    player: str
    """The player."""
    cards: tuple[str, ...]
    """Instance ids drawn, in order."""


class DeckRevealed(Decision):
    """A player revealed the salt of their deck commitment (hidden information, DESIGN §4);
    legal even after the match is won (R-VIC-4), from a seated player only (R-GEN-7).

    A player's decision."""

    type: Literal["deck_revealed"] = "deck_revealed"
    player: str
    """The player whose commitment is opened."""
    salt: str
    """The salt hashed with the deck order."""


class Conceded(Decision):
    """A player conceded; always legal while the match runs (RULES.md §13.7), refused once it
    is won (R-VIC-4) and from anyone not seated (R-GEN-7).

    A player's decision."""

    type: Literal["conceded"] = "conceded"
    player: str
    """The conceding player."""


class MatchWon(Consequence):
    """The match ended with a winner (R-VIC-1..4, R-VIC-6).

    A consequence the rules demand."""

    type: Literal["match_won"] = "match_won"
    winner: str
    """The winning player (in team formats, the member who met the condition)."""
    team: str | None = None
    """The winning team, in team formats."""
    victory: Victory
    """Military, political, absolute, concession or judge."""


class JudgeRulingIssued(Decision):
    """A judge recorded a ruling: a warning, a back-up to an earlier priority point, a partial fix
    or a game loss (R-GEN-8). The events a back-up voids stay in the log, marked voided.

    A player's decision."""

    type: Literal["judge_ruling_issued"] = "judge_ruling_issued"
    judge: str
    """Who ruled (name or id), the authority."""
    kind: RulingKind
    """Warning, back-up, partial fix or game loss."""
    reason: str
    """Why, in the judge's words."""
    back_to: LogInt | None = None
    """For a back-up: the seq of the priority point the game returns to."""
    loser: str | None = None
    """For a game loss: the player who loses."""
    corrections: tuple[Effect, ...] | None = None
    """For a partial fix: the effects that put the board right (gold given back, a Follower
    moved to the Graveyard, damage removed, …), applied as recorded; the events before the
    ruling stay as played. Absent for other rulings (so their lines are what they were before
    this field existed)."""


__all__ = [
    "CardInstance",
    "Conceded",
    "DeckRevealed",
    "JudgeRulingIssued",
    "MatchForked",
    "MatchSealed",
    "MatchStarted",
    "MatchWon",
    "OpeningHandDrawn",
    "RecordSigned",
    "SealedBy",
    "Seat",
    "Shuffle",
    "deck_commitment",
]
