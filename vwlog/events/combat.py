"""The ten-step combat (RULES.md §8)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from vwlog.events.base import Consequence, Decision
from vwlog.model.types import ObjectKind


class Allocation(BaseModel):
    """Combat damage from one source to one recipient (R-CMB-19..21, R-CMB-28)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    source: str
    """The Follower whose ATK the damage comes from."""
    recipient: str
    """The Follower or Territory that receives it."""
    amount: int = Field(ge=0, le=1_000_000)
    """Damage points."""


class Attack(BaseModel):
    """One attacking Follower and the Territory it attacks (R-CMB-8)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    follower: str
    """The attacking Follower."""
    target: str
    """The attacked Territory."""


class Block(BaseModel):
    """One blocking Follower and the attacker it blocks (R-CMB-16)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    blocker: str
    """The blocking Follower."""
    attacker: str
    """The attacking Follower it blocks."""


class AttackersEnteredBattle(Decision):
    """The active player chose which Followers enter battle as attackers (R-CMB-2..5).

    A player's decision."""

    type: Literal["attackers_entered_battle"] = "attackers_entered_battle"
    player: str
    """The active player."""
    followers: tuple[str, ...] = Field(max_length=1_000)
    """The Followers; empty if none attack."""


class AttackDeclared(Decision):
    """The active player slid the attacking Followers and declared their targets (R-CMB-8,
    R-CMB-10, OQ-17).

    A player's decision."""

    type: Literal["attack_declared"] = "attack_declared"
    player: str
    """The active player."""
    attacks: tuple[Attack, ...] = Field(max_length=1_000)
    """Each attacking Follower with the Territory it attacks."""


class BlockersEnteredBattle(Decision):
    """A defending player chose which Followers enter battle as blockers (R-CMB-11..13).

    A player's decision."""

    type: Literal["blockers_entered_battle"] = "blockers_entered_battle"
    player: str
    """The defending player."""
    followers: tuple[str, ...] = Field(max_length=1_000)
    """The Followers; empty if none."""


class BlocksAssigned(Decision):
    """A defending player assigned their in-battle Followers to attackers (R-CMB-16, OQ-19).

    A player's decision."""

    type: Literal["blocks_assigned"] = "blocks_assigned"
    player: str
    """The defending player."""
    blocks: tuple[Block, ...] = Field(max_length=1_000)
    """Which blocker blocks which attacker."""


class FollowerDamageAssigned(Decision):
    """A player distributed the ATK damage of their Followers in battle: the active player first,
    then each defending player (R-CMB-19, R-CMB-20, R-CMB-39, OQ-20).

    A player's decision."""

    type: Literal["follower_damage_assigned"] = "follower_damage_assigned"
    player: str
    """The distributing player."""
    allocations: tuple[Allocation, ...] = Field(max_length=10_000)
    """Every allocation of every one of their Followers that distributes damage."""


class CombatDamageRegistered(Consequence):
    """All distributed combat damage was put on the register as one object (R-CMB-21, R-CMB-28),
    its values locked (R-CMB-25).

    A consequence the rules demand."""

    type: Literal["combat_damage_registered"] = "combat_damage_registered"
    object_id: str
    """The register object."""
    kind: Literal[ObjectKind.COMBAT_DAMAGE_FOLLOWERS, ObjectKind.COMBAT_DAMAGE_TERRITORY]
    """Follower damage (step 6) or Territory damage (step 8)."""
    allocations: tuple[Allocation, ...] = Field(max_length=10_000)
    """The damage, locked."""


class FollowersDestroyed(Consequence):
    """Every Follower with fatal damage went to the Graveyard, all at once (R-CMB-26).

    A consequence the rules demand."""

    type: Literal["followers_destroyed"] = "followers_destroyed"
    cards: tuple[str, ...]
    """The Followers, in instance-id order."""


class TerritoriesDestroyed(Consequence):
    """Every Territory with fatal damage went to the Graveyard, all at once (R-CMB-30).

    A consequence the rules demand."""

    type: Literal["territories_destroyed"] = "territories_destroyed"
    cards: tuple[str, ...]
    """The Territories, in instance-id order."""


class VictoryPointGained(Consequence):
    """A player scored a Victory Point by destroying an opponent's last Territory (R-VP-1,
    R-VP-2, R-CMB-31, OQ-9).

    A consequence the rules demand."""

    type: Literal["victory_point_gained"] = "victory_point_gained"
    player: str
    """The scoring player."""
    opponent: str
    """The opponent left without Territories."""


class BecameReturnHome(Consequence):
    """Surviving attackers became Return Home Followers, slid (R-CMB-34).

    A consequence the rules demand."""

    type: Literal["became_return_home"] = "became_return_home"
    cards: tuple[str, ...]
    """The Followers, in instance-id order."""


class BecameStray(Consequence):
    """Surviving Property of destroyed Territories became Stray (R-CMB-35, OQ-21).

    A consequence the rules demand."""

    type: Literal["became_stray"] = "became_stray"
    cards: tuple[str, ...]
    """The cards, in instance-id order."""


__all__ = [
    "Allocation",
    "Attack",
    "AttackDeclared",
    "AttackersEnteredBattle",
    "BecameReturnHome",
    "BecameStray",
    "Block",
    "BlockersEnteredBattle",
    "BlocksAssigned",
    "CombatDamageRegistered",
    "FollowerDamageAssigned",
    "FollowersDestroyed",
    "TerritoriesDestroyed",
    "VictoryPointGained",
]
