"""Summons, costs, skills, the register and its results (RULES.md §7, §9)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from vwlog.events.base import Consequence, Decision
from vwlog.events.effects import Effect


class CostPaid(Decision):
    """A player paid every cost of a summon or an active skill before registering it (R-REG-3).

    A player's decision."""

    type: Literal["cost_paid"] = "cost_paid"
    player: str
    """Who paid."""
    card: str
    """The card summoned, or whose skill is registered."""
    skill: str | None = None
    """The skill id, when paying for an active skill."""
    gold: int = Field(default=0, ge=0, le=1_000_000)
    """Gold paid."""
    slid: tuple[str, ...] = ()
    """Cards slid as part of the cost (R-SKL-2)."""


class CardSummoned(Decision):
    """A player summoned a card from hand onto the register, its cost already paid (OQ-6,
    R-MAIN-4, R-CARD-8, R-CARD-10).

    A player's decision."""

    type: Literal["card_summoned"] = "card_summoned"
    player: str
    """The summoning player."""
    card: str
    """The card summoned."""
    object_id: str
    """The register object it becomes."""
    territory: str | None = None
    """For Property: the Territory it will guard."""


class SkillRegistered(Decision):
    """A player registered an active skill, its costs already paid (R-SKL-2, R-REG-1, R-REG-3).

    A player's decision."""

    type: Literal["skill_registered"] = "skill_registered"
    player: str
    """The controller."""
    card: str
    """The card with the skill."""
    skill: str
    """The skill id on the card."""
    object_id: str
    """The register object it becomes."""
    target: str | None = None
    """The chosen target, locked at registration (R-REG-9, OQ-15)."""


class SkillTriggered(Consequence):
    """A triggered skill met its condition and went onto the register (R-SKL-3, R-REG-4).

    A consequence the rules demand."""

    type: Literal["skill_triggered"] = "skill_triggered"
    player: str
    """The controller."""
    card: str
    """The card with the skill."""
    skill: str
    """The skill id on the card."""
    object_id: str
    """The register object it becomes."""


class ObjectResulted(Consequence):
    """The top object of the register resulted after all players passed in succession (R-REG-8),
    with its effects (R-REG-9, R-CMB-24, R-CMB-29).

    A consequence the rules demand."""

    type: Literal["object_resulted"] = "object_resulted"
    object_id: str
    """The object."""
    effects: tuple[Effect, ...] = Field(default=(), max_length=10_000)
    """What it did."""


__all__ = [
    "CardSummoned",
    "CostPaid",
    "ObjectResulted",
    "SkillRegistered",
    "SkillTriggered",
]
