"""Identifiers and enums that are part of the wire format.

This module imports only the core's identifiers (`vwlog.model.ids`, `vwlog.model.ruleids`),
which it re-exports; every other layer may import it. Enum values are the digest's upper-case
wire names (RULES.md §13), so one spelling serves logs, documentation and code.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NewType

from vwlog.model.ids import MatchId
from vwlog.model.ruleids import RuleId

PlayerId = NewType("PlayerId", str)
"""Identifier of a player, unique within a match (for example ``"p1"``)."""
CardId = NewType("CardId", str)
"""Identifier of one physical card instance within a match (for example ``"p1-07"``)."""
ObjectId = NewType("ObjectId", str)
"""Identifier of one object on the register (for example ``"o12"``)."""
Seq = NewType("Seq", int)
"""Sequence number of an event record within a match, starting at 1."""


class Phase(StrEnum):
    """The six phases of a turn, in order (RULES.md §6)."""

    PREP = "PREP"
    MAIN1 = "MAIN1"
    COMBAT = "COMBAT"
    MAIN2 = "MAIN2"
    DEPLOY = "DEPLOY"
    END = "END"


class Step(StrEnum):
    """Steps of the phases that have steps (Preparation, Combat, End)."""

    PRODUCE = "PRODUCE"
    SUPPLY = "SUPPLY"
    UNSLIDE = "UNSLIDE"
    C1 = "C1"
    C2 = "C2"
    C3 = "C3"
    C4 = "C4"
    C5 = "C5"
    C6 = "C6"
    C7 = "C7"
    C8 = "C8"
    C9 = "C9"
    C10 = "C10"
    END_WINDOW = "END_WINDOW"
    END_DISCARD = "END_DISCARD"
    END_CLEANUP = "END_CLEANUP"


class CardType(StrEnum):
    """Card types (RULES.md §2)."""

    TERRITORY = "TERRITORY"
    FOLLOWER = "FOLLOWER"
    RELIC = "RELIC"
    RUNE = "RUNE"
    ACTION = "ACTION"

    @property
    def is_property(self) -> bool:
        """Whether cards of this type sit in Territories (R-CARD-9)."""
        return self in (CardType.FOLLOWER, CardType.RELIC, CardType.RUNE)


class Side(StrEnum):
    """The two sides (R-GEN-3)."""

    HUMAN = "HUMAN"
    FRAMELESS = "FRAMELESS"


class Faction(StrEnum):
    """Factions of both sides (R-GEN-3)."""

    ORDER = "ORDER"
    CHAOS = "CHAOS"
    PROSPER = "PROSPER"
    NOBLE = "NOBLE"
    MYSTIC = "MYSTIC"
    EDEN = "EDEN"
    REIGNER = "REIGNER"


class Keyword(StrEnum):
    """Keywords a card may have (RULES.md §12)."""

    RAZE = "RAZE"
    CAVALRY = "CAVALRY"
    RUSH = "RUSH"
    FORCE = "FORCE"
    NAVAL_AERIAL_ATTACK = "NAVAL_AERIAL_ATTACK"
    LAIR = "LAIR"


class Terrain(StrEnum):
    """Territory terrains (R-CARD-2)."""

    LAND = "LAND"
    NAVAL = "NAVAL"
    AERIAL = "AERIAL"


class Stat(StrEnum):
    """Modifiable stats (RULES.md §13.5 StatChanged)."""

    ATK = "ATK"
    DEF = "DEF"
    VIT = "VIT"
    DEFENSE = "DEFENSE"
    GOLD_PRODUCE = "GOLD_PRODUCE"
    CAPACITY = "CAPACITY"


class Expiry(StrEnum):
    """When a stat change ends (R-SKL-11, R-END-4, R-END-5)."""

    END_OF_TURN = "END_OF_TURN"
    TURN_CHANGE = "TURN_CHANGE"
    PERMANENT = "PERMANENT"


class Zone(StrEnum):
    """Zones a card can be in (RULES.md §3)."""

    HAND = "HAND"
    FATE_DECK = "FATE_DECK"
    SUBDECK = "SUBDECK"
    GRAVEYARD = "GRAVEYARD"
    PLAY = "PLAY"
    REGISTER = "REGISTER"


class SupplyOption(StrEnum):
    """Supply packages (R-SUP-1, R-SUP-3)."""

    CARDS_2 = "CARDS_2"
    GOLD_2 = "GOLD_2"
    CARD_1_GOLD_1 = "CARD_1_GOLD_1"
    FIRST_TURN_CARD_1 = "FIRST_TURN_CARD_1"
    FIRST_TURN_GOLD_1 = "FIRST_TURN_GOLD_1"

    @property
    def cards(self) -> int:
        """Number of cards the package gives."""
        return {"CARDS_2": 2, "CARD_1_GOLD_1": 1, "FIRST_TURN_CARD_1": 1}.get(self.value, 0)

    @property
    def gold(self) -> int:
        """Amount of gold the package gives."""
        return {"GOLD_2": 2, "CARD_1_GOLD_1": 1, "FIRST_TURN_GOLD_1": 1}.get(self.value, 0)

    @property
    def is_first_turn(self) -> bool:
        """Whether this is a reduced first-turn package (R-SUP-3)."""
        return self.value.startswith("FIRST_TURN")


class PlacementReason(StrEnum):
    """Why Property was placed into a Territory (RULES.md §13.4 PropertyPlaced).

    ``NEW_TERRITORY_STRAY`` is the one placement of a Main Phase: Stray Property into the
    Territory that just entered play (R-MAIN-6). ``EFFECT`` is in the log format because the
    digest lists it, but no skill in the effect vocabulary places Property, so a placement
    giving it is always a violation of the step's own rule (R-UNS-3, R-MAIN-6, R-DEP-1)."""

    UNSLIDE_STEP = "UNSLIDE_STEP"
    DEPLOY_PHASE = "DEPLOY_PHASE"
    NEW_TERRITORY_STRAY = "NEW_TERRITORY_STRAY"
    EFFECT = "EFFECT"


class Victory(StrEnum):
    """How a match was won (R-VIC-1..3, concession, judge)."""

    MILITARY = "MILITARY"
    POLITICAL = "POLITICAL"
    ABSOLUTE = "ABSOLUTE"
    CONCESSION = "CONCESSION"
    JUDGE = "JUDGE"


class MatchFormat(StrEnum):
    """Known match formats (R-GEN-7)."""

    DUEL = "DUEL"
    TAG = "TAG"
    THREE_V_THREE = "THREE_V_THREE"
    BATTLE_ROYAL = "BATTLE_ROYAL"


class SkillKind(StrEnum):
    """The four kinds of skill (R-SKL-1..4)."""

    STATIC = "STATIC"
    ACTIVE = "ACTIVE"
    TRIGGER = "TRIGGER"
    AURA = "AURA"


class Restriction(StrEnum):
    """How often a skill may be used (R-SKL-6)."""

    NONE = "NONE"
    ONCE_PER_TURN = "ONCE_PER_TURN"
    ONCE_PER_CYCLE = "ONCE_PER_CYCLE"
    ONCE_PER_MATCH = "ONCE_PER_MATCH"


class TriggerWhen(StrEnum):
    """Moments a triggered skill can wait for (R-REG-4, R-MAIN-3, R-CMB-*)."""

    ENTERS_PLAY = "ENTERS_PLAY"
    FIRST_MAIN_START = "FIRST_MAIN_START"
    COMBAT_START = "COMBAT_START"
    ATTACKS = "ATTACKS"
    BLOCKS = "BLOCKS"
    COMBAT_END = "COMBAT_END"
    TURN_END = "TURN_END"


class ObjectKind(StrEnum):
    """Kinds of register object (RULES.md §13.5 RegisterObjectAdded)."""

    ACTIVE_SKILL = "ACTIVE_SKILL"
    TRIGGER_SKILL = "TRIGGER_SKILL"
    SUMMON = "SUMMON"
    ACTION = "ACTION"
    COMBAT_DAMAGE_FOLLOWERS = "COMBAT_DAMAGE_FOLLOWERS"
    COMBAT_DAMAGE_TERRITORY = "COMBAT_DAMAGE_TERRITORY"


class RulingKind(StrEnum):
    """Kinds of judge ruling (dispute handling)."""

    WARNING = "WARNING"
    BACK_UP = "BACK_UP"
    PARTIAL_FIX = "PARTIAL_FIX"
    GAME_LOSS = "GAME_LOSS"


__all__ = [
    "CardId",
    "CardType",
    "Expiry",
    "Faction",
    "Keyword",
    "MatchFormat",
    "MatchId",
    "ObjectId",
    "ObjectKind",
    "Phase",
    "PlacementReason",
    "PlayerId",
    "Restriction",
    "RuleId",
    "RulingKind",
    "Seq",
    "Side",
    "SkillKind",
    "Stat",
    "Step",
    "SupplyOption",
    "Terrain",
    "TriggerWhen",
    "Victory",
    "Zone",
]
