"""Effects: what a register object does when it results (RULES.md §13.5 result sub-events).

Effects are recorded inside `ObjectResulted`. For skills with a machine-readable effect the engine
derives them and verifies the log; for text-only skills they are trusted as logged, checked
structurally, and counted as trusted.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from vwlog.model.types import Expiry, Stat, Zone


class _Effect(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class StatChanged(_Effect):
    """A card's stat changed until it expires (R-SKL-11, R-CARD-3)."""

    type: Literal["stat_changed"] = "stat_changed"
    card: str
    """The Follower or Territory."""
    stat: Stat
    """The stat."""
    delta: int = Field(ge=-1_000_000, le=1_000_000)
    """The change."""
    expires: Expiry = Expiry.END_OF_TURN
    """When it ends."""


class GoldChanged(_Effect):
    """A player's gold changed by an effect (not Supply, R-SUP-4)."""

    type: Literal["gold_changed"] = "gold_changed"
    player: str
    """The player."""
    delta: int = Field(ge=-1_000_000, le=1_000_000)
    """The change."""


class HonorChanged(_Effect):
    """A player's honor changed (OQ-7: only effects change honor by default)."""

    type: Literal["honor_changed"] = "honor_changed"
    player: str
    """The player."""
    delta: int = Field(ge=-1_000_000, le=1_000_000)
    """The change."""


class CardsDrawn(_Effect):
    """A player drew cards by an effect (not Supply, R-SUP-4)."""

    type: Literal["cards_drawn"] = "cards_drawn"
    player: str
    """The player."""
    cards: tuple[str, ...]
    """Instance ids drawn from the top of the Fate Deck."""


class CardMoved(_Effect):
    """A card moved by an effect: out of play (R-SKL-8, R-SKL-9), or between two zones out of
    play, such as from the Graveyard to the hand (Necromancer(Male)) or from the top of the Fate
    Deck to its bottom (Seer's Lantern)."""

    type: Literal["card_moved"] = "card_moved"
    card: str
    """The card."""
    to_zone: Zone
    """HAND, FATE_DECK, SUBDECK or GRAVEYARD."""
    from_zone: Zone | None = None
    """HAND, FATE_DECK, SUBDECK or GRAVEYARD when the card was out of play; absent (or PLAY)
    means it left play."""
    bottom: bool | None = None
    """Into the Fate Deck: at the bottom when true; absent or false, on top."""


class DeckReordered(_Effect):
    """The top cards of a player's Fate Deck were put back in another order (Glimpse of Fate)."""

    type: Literal["deck_reordered"] = "deck_reordered"
    player: str
    """The player whose Fate Deck it is."""
    cards: tuple[str, ...] = Field(max_length=1_000)
    """The top cards after the reorder, top first: the very cards that lay on top before."""


class DamageDealt(_Effect):
    """Damage was marked on a Follower or Territory (combat or skill, R-CMB-24, R-CMB-29)."""

    type: Literal["damage_dealt"] = "damage_dealt"
    source: str
    """The card the damage comes from."""
    recipient: str
    """The card receiving it."""
    amount: int = Field(ge=0, le=1_000_000)
    """Damage points."""


class StatusChanged(_Effect):
    """A card was slid or unslid by an effect."""

    type: Literal["status_changed"] = "status_changed"
    card: str
    """The card."""
    slid: bool
    """Its new slide state."""


Effect = Annotated[
    StatChanged
    | GoldChanged
    | HonorChanged
    | CardsDrawn
    | CardMoved
    | DeckReordered
    | DamageDealt
    | StatusChanged,
    Field(discriminator="type"),
]
"""Any effect."""


__all__ = [
    "CardMoved",
    "CardsDrawn",
    "DamageDealt",
    "DeckReordered",
    "Effect",
    "GoldChanged",
    "HonorChanged",
    "StatChanged",
    "StatusChanged",
]
