"""Preparation Phase and deployment: produce, supply, unslide, placements (RULES.md §6.1, §6.5)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from vwlog.events.base import Consequence, Decision
from vwlog.model.types import PlacementReason, SupplyOption


class GoldProduced(Consequence):
    """The active player gained the gold produce of their Territories (R-PRO-1, R-GOLD-1).

    A consequence the rules demand."""

    type: Literal["gold_produced"] = "gold_produced"
    player: str
    """The active player."""
    amount: int = Field(ge=0, le=1_000_000)
    """Sum of the current gold produce of the Territories they control."""


class SupplyChosen(Decision):
    """The active player declared their supply package before taking it (R-SUP-1..3).

    A player's decision."""

    type: Literal["supply_chosen"] = "supply_chosen"
    player: str
    """The active player."""
    option: SupplyOption
    """Two cards, two gold, one of each, or a first-turn option."""


class SupplyTaken(Consequence):
    """The declared package was taken; not a draw or gain-gold effect (R-SUP-4).

    A consequence the rules demand."""

    type: Literal["supply_taken"] = "supply_taken"
    player: str
    """The active player."""
    cards: tuple[str, ...] = ()
    """Instance ids taken from the top of the Fate Deck (fewer if it ran out, OQ-23)."""
    gold: int = Field(default=0, ge=0, le=2)
    """Gold taken."""


class Unslid(Consequence):
    """All of the active player's slid cards were unslid (R-UNS-1).

    A consequence the rules demand."""

    type: Literal["unslid"] = "unslid"
    player: str
    """The active player."""
    cards: tuple[str, ...]
    """Every card that was slid, in instance-id order."""


class PropertyPlaced(Decision):
    """A player put Property into one of their Territories: a Return Home or Stray card, or a
    redeploy between Territories (R-UNS-2, R-UNS-3, R-MAIN-6, R-DEP-1, R-DEP-2).

    A player's decision."""

    type: Literal["property_placed"] = "property_placed"
    player: str
    """The controller."""
    card: str
    """The Follower, Relic or Rune placed."""
    territory: str
    """The Territory it now guards."""
    reason: PlacementReason
    """Unslide step, Deploy Phase, or Stray into a newly summoned Territory."""


class DeploymentFinished(Decision):
    """The active player finished placing Property in the Unslide step or the Deploy Phase
    (R-UNS-3, R-DEP-1).

    A player's decision."""

    type: Literal["deployment_finished"] = "deployment_finished"
    player: str
    """The active player."""


__all__ = [
    "DeploymentFinished",
    "GoldProduced",
    "PropertyPlaced",
    "SupplyChosen",
    "SupplyTaken",
    "Unslid",
]
