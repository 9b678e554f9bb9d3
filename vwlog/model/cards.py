"""Card definitions, the machine-readable skill vocabulary, and the ruleset.

A match log embeds the definitions of every card it uses (`MatchStarted.cards`), so a log is
self-contained and its hash covers the card text it was judged under. The `Ruleset` holds one
named field per open question of RULES.md §14 (OQ-1 … OQ-32) plus the setup parameters; its
defaults are the digest's proposals.
"""

from __future__ import annotations

import threading
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from vwlog.model.bounds import INT_MAX, LogInt
from vwlog.model.types import (
    CardType,
    Expiry,
    Faction,
    Keyword,
    Restriction,
    Side,
    SkillKind,
    Stat,
    Terrain,
    TriggerWhen,
    Zone,
)

if TYPE_CHECKING:
    from collections.abc import Sequence


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class Target(StrEnum):
    """Who or what an effect applies to."""

    SELF = "SELF"
    """The card whose skill results."""
    CONTROLLER = "CONTROLLER"
    """The controller of the skill's card (gold, honor, draw)."""
    EACH_OPPONENT = "EACH_OPPONENT"
    """Every opponent of the controller (gold, honor)."""
    OWN_FOLLOWER = "OWN_FOLLOWER"
    """A Follower of the controller, chosen when the skill is registered."""
    OPPOSING_FOLLOWER = "OPPOSING_FOLLOWER"
    """An opponent's Follower, chosen when the skill is registered."""
    OPPOSING_TERRITORY = "OPPOSING_TERRITORY"
    """An opponent's Territory, chosen when the skill is registered."""
    OWN_TERRITORY = "OWN_TERRITORY"
    """A Territory of the controller, chosen when the skill is registered."""
    AN_OPPONENT = "AN_OPPONENT"
    """One opponent of the controller, chosen when the skill results (a ``look``)."""


class EffectSpec(_Frozen):
    """One machine-readable effect of a skill.

    The engine derives most results exactly. Four kinds leave the controller a choice when the
    skill results, and the check accepts every result the choice allows (`CHOICE_KINDS`):
    ``return`` (which card), ``look`` (nothing to log), ``bottom`` (whether the cards go to the
    bottom) and ``reorder`` (the new order).
    """

    kind: Literal[
        "stat",
        "gold",
        "honor",
        "draw",
        "damage",
        "move",
        "unslide",
        "return",
        "look",
        "bottom",
        "reorder",
    ]
    """What the effect does. ``return``: the controller puts one card of ``card_type`` (any
    type when unset) from their ``from_zone`` into ``to_zone``, logged as ``card_moved`` with
    both zones; nothing when there is no such card. ``look``: the controller looks at the
    ``from_zone`` of ``target`` (a hand); nothing is logged. ``bottom``: the controller looks
    at the top ``amount`` cards of their Fate Deck and may put any of them on the bottom, each
    logged as ``card_moved`` from FATE_DECK to FATE_DECK with ``bottom``. ``reorder``: the top
    ``amount`` cards of the controller's Fate Deck go back in any order, logged as one
    ``deck_reordered`` (or nothing, when the order stays)."""
    target: Target = Target.SELF
    """Whom it affects."""
    amount: LogInt = 0
    """Stat delta, gold, honor, cards drawn, damage dealt, or cards looked at (``bottom``,
    ``reorder``)."""
    stat: Stat | None = None
    """The stat a ``stat`` effect changes."""
    expires: Expiry = Expiry.END_OF_TURN
    """When a ``stat`` effect ends (R-SKL-11)."""
    to_zone: Zone | None = None
    """Destination of a ``move`` or ``return`` effect (HAND, FATE_DECK, SUBDECK, GRAVEYARD)."""
    from_zone: Zone | None = None
    """The zone a ``return`` takes a card from, or a ``look`` looks at."""
    card_type: CardType | None = None
    """The type of card a ``return`` may choose."""


CHOICE_KINDS = frozenset({"return", "look", "bottom", "reorder"})
"""Effect kinds whose result the controller chooses when the skill results."""


class Condition(_Frozen):
    """A condition that must hold for a skill to apply, checked continuously (R-SKL-5)."""

    controls_territory_faction: tuple[Faction, ...] = ()
    """The controller controls a Territory of one of these factions."""
    min_honor: LogInt | None = None
    """The controller has at least this much honor."""


class AuraSpec(_Frozen):
    """A continuous stat change from an aura skill (R-SKL-4); never on the register."""

    scope: Literal["ATTACKING_TOGETHER", "SAME_TERRITORY", "OWN_FOLLOWERS"]
    """Which Followers are affected (the source itself excluded)."""
    side: Side | None = None
    """Only Followers of this side, if set."""
    stat: Stat
    """The stat changed."""
    amount: LogInt
    """The change."""


class SkillDef(_Frozen):
    """A skill printed on a card (RULES.md §9)."""

    id: str
    """Identifier unique within the card, for example ``"s1"``."""
    kind: SkillKind
    """Static, active, trigger or aura (R-SKL-1..4)."""
    text: str
    """The skill's text as printed."""
    cost_gold: int = Field(default=0, ge=0, le=INT_MAX)
    """Gold paid before registering (R-REG-3)."""
    cost_slide: bool = False
    """Whether sliding the card is part of the cost (R-SKL-2)."""
    restriction: Restriction = Restriction.NONE
    """How often it may be used (R-SKL-6)."""
    restriction_uses: int = Field(default=1, ge=1, le=100)
    """How many uses the restriction allows in its scope ("telah menggunakan sejumlah variabel
    restriksinya", R-SKL-6): once per turn is 1, "twice per turn" is 2."""
    trigger: TriggerWhen | None = None
    """For trigger skills: the moment they wait for (R-REG-4)."""
    condition: Condition | None = None
    """A condition that must hold (R-SKL-5)."""
    effects: tuple[EffectSpec, ...] | None = None
    """Machine-readable effects; ``None`` means text only, so results are trusted as logged."""
    keywords: tuple[Keyword, ...] = ()
    """Keywords a static skill grants while its condition holds."""
    aura: AuraSpec | None = None
    """The continuous change an aura skill makes."""

    @property
    def target(self) -> Target | None:
        """The kind of target a player chooses when registering, if any."""
        for effect in self.effects or ():
            if effect.target in _CHOSEN:
                return effect.target
        return None


_CHOSEN = frozenset(
    {Target.OWN_FOLLOWER, Target.OPPOSING_FOLLOWER, Target.OPPOSING_TERRITORY, Target.OWN_TERRITORY}
)


class CardDef(_Frozen):
    """The definition of one card (RULES.md §2)."""

    id: str
    """Stable identifier, for example ``"iron-guard"``."""
    name: str
    """Printed name including any suffix, for example ``"Necromancer(Male)"``."""
    type: CardType
    """Territory, Follower, Relic, Rune or Action."""
    side: Side | None = None
    """Human or Frameless (R-GEN-3)."""
    faction: Faction | None = None
    """Faction, where the card has one."""
    cost: int = Field(default=0, ge=0, le=INT_MAX)
    """Gold cost to summon (R-CARD-11)."""
    honor_req: int = Field(default=0, ge=0, le=INT_MAX)
    """Honor the controller must have to summon it (R-CARD-10, a threshold by default)."""
    atk: int = Field(default=0, ge=0, le=INT_MAX)
    """Follower ATK (R-CARD-4)."""
    def_: int = Field(default=0, ge=0, le=INT_MAX, alias="def")
    """Follower DEF (R-CARD-4; no combat function by default, OQ-3)."""
    vit: int = Field(default=0, ge=0, le=INT_MAX)
    """Follower VIT: damage at or above it is fatal (R-CMB-26)."""
    defense: int = Field(default=0, ge=0, le=INT_MAX)
    """Territory defense: damage at or above it destroys it (R-CMB-30)."""
    capacity: int = Field(default=0, ge=0, le=INT_MAX)
    """Territory capacity: how many Property cards it holds (R-CARD-2)."""
    produce: int = Field(default=0, ge=0, le=INT_MAX)
    """Territory gold produce (R-PRO-1)."""
    terrain: Terrain | None = None
    """Territory terrain (Naval and Aerial need a permitting skill to attack, R-CMB-10)."""
    category: str | None = None
    """Category tag such as ``"Gaia"``."""
    creature_types: tuple[str, ...] = ()
    """Creature types, for example ``("Dragon",)``."""
    keywords: tuple[Keyword, ...] = ()
    """Printed keywords (Raze, Cavalry, Rush, …)."""
    skills: tuple[SkillDef, ...] = ()
    """Printed skills."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", use_attribute_docstrings=True, populate_by_name=True
    )

    def skill(self, skill_id: str) -> SkillDef | None:
        """The skill with this id, or ``None``."""
        for s in self.skills:
            if s.id == skill_id:
                return s
        return None


class CardPool(_Frozen):
    """A named set of card definitions."""

    name: str
    """Name of the pool, for example ``"vwlog sample pool"``."""
    cards: tuple[CardDef, ...]
    """The definitions."""


class Ruleset(_Frozen):
    """Named flags for every open question of RULES.md §14, plus setup parameters.

    Each field's default is the digest's proposal; a tournament may pin its own reading. A match
    log names its ruleset in `MatchStarted`, so every stored match can be re-checked against
    another interpretation.
    """

    id: str = "vw-default"
    """Name of this interpretation."""
    version: LogInt = 1
    """Revision of this interpretation."""

    # setup (OQ-1, OQ-2)
    opening_hand: int = Field(default=5, ge=0, le=60)
    """OQ-1: cards each player draws before the first turn."""
    starting_gold: int = Field(default=6, ge=0, le=1000)
    """OQ-1: gold each player starts with."""
    starting_honor: int = Field(default=0, ge=0, le=1000)
    """OQ-1: honor each player starts with."""
    starting_vp: int = Field(default=0, ge=0, le=10)
    """OQ-1: Victory Points each player starts with."""
    mulligan: bool = False
    """OQ-1: whether a mulligan exists (none is defined by default)."""
    min_deck_size: LogInt | None = None
    """OQ-2: smallest legal Fate Deck, if the ruleset sets one."""
    max_copies: LogInt | None = None
    """OQ-2: most copies of one card in a deck, if the ruleset sets one."""

    # victory and limits
    hand_limit: LogInt = 7
    """R-END-3: the hand size kept in the End Phase."""
    victory_vp: LogInt = 3
    """R-VIC-1: Victory Points for a Military Victory."""
    victory_honor: LogInt = 100
    """R-VIC-2: honor for a Political Victory."""
    victory_territories: LogInt = 5
    """R-VIC-3: Territories controlled for an Absolute Victory."""

    # open questions
    def_reduces_damage: bool = False
    """OQ-3: Follower DEF reduces combat damage received."""
    summon_from_subdeck: bool = False
    """OQ-4: cards may be summoned from the subdeck (by default only card text takes them out)."""
    relics_use_capacity: bool = True
    """OQ-5: Relics and Runes count against a Territory's capacity."""
    summon_needs_empty_register: bool = True
    """OQ-6: Territory and Property summons need an empty register (they use it, respondable)."""
    honor_per_territory_destroyed: LogInt = 0
    """OQ-7: honor the destroying player gains per Territory destroyed (0: honor only by
    effects)."""
    requirements_continuous: bool = False
    """OQ-8: honor requirements are re-checked when a card's skill is registered."""
    vp_outside_combat: bool = True
    """OQ-9: a skill effect outside combat that destroys an opponent's last Territory scores a VP
    for the effect's controller (never for destroying one's own)."""
    produce_is_gain_gold: bool = False
    """OQ-10: the Produce step counts as gaining gold for triggers."""
    second_player_first_supply_reduced: bool = False
    """OQ-11: the second player's first Supply is also reduced."""
    naval_aerial_need_skill: bool = True
    """OQ-12: attacking a Naval or Aerial Territory needs a permitting skill."""
    deploy_phase_window: bool = True
    """OQ-13: the Deploy Phase has a priority window after the redeploys."""
    unplaceable_to_graveyard: bool = False
    """OQ-14: Return Home/Stray Followers that cannot be placed go to the Graveyard at the end of
    the Unslide step (by default they stay Return Home/Stray)."""
    fizzle_when_target_gone: bool = True
    """Recorded only, superseded by target_gone (OQ-15): its false voided the whole object, the
    opposite of its name."""
    target_gone: Literal["PART", "WHOLE"] | None = None
    """OQ-15: a locked target has left play at result: only the parts aimed at it do nothing
    (PART, the reading when absent) or the whole object does nothing (WHOLE)."""
    triggers_active_first: bool = True
    """OQ-16: simultaneous triggers: the active player's first, then the others in turn order."""
    attack_target_mode: Literal["PER_ATTACKER", "SINGLE"] = "PER_ATTACKER"
    """OQ-17: one target Territory per attacker, or one for the whole attack."""
    cavalry_only_blocks_elsewhere: bool = True
    """OQ-18: only Followers guarding the attacked Territory may block, plus Cavalry ones."""
    many_blockers_per_attacker: bool = True
    """OQ-19: several blockers may block one attacker (each blocker blocks one attacker)."""
    raze_lethal_first: bool = True
    """OQ-20: Raze must assign each blocker's remaining VIT before sending damage to the
    Territory."""
    relics_become_stray: bool = True
    """OQ-21: Relics and Runes in a destroyed Territory become Stray (else to the Graveyard)."""
    restriction_key: Literal["NAME", "CARD"] = "NAME"
    """OQ-22: recorded only. Restriction records follow the seed (R-SKL-10): per property in
    play, carried by name through hand, Fate Deck and subdeck; neither value of this flag is
    faithful, so it no longer changes verdicts."""
    deck_out_loses: bool = False
    """OQ-23: a player who must draw from an empty Fate Deck loses."""
    simultaneous_victory_active_first: bool = True
    """OQ-24: when several players win at once, the active player's team wins first."""
    team_wins_together: bool = True
    """OQ-25: in team formats a team wins when any member meets a condition."""
    force_is_raze: bool = False
    """OQ-26: treat the undefined Force keyword as Raze (by default it has no behaviour)."""
    cycle_is_controller_turn: bool = True
    """OQ-27: a cycle runs from the start of the controller's turn to the start of their next
    (else a cycle is one turn of any player)."""
    fatigue_until_turn_change: bool = True
    """OQ-28: a Follower is Fatigued from entering play until the next turn change."""
    fatigued_attacker_returns_home: bool = False
    """OQ-29: a Fatigued Follower that entered battle but did not attack becomes Return Home."""
    raze_destroys_in_step7: bool = False
    """OQ-30: Territories with fatal damage are destroyed already in step 7."""
    hand_limit_all_players: bool = False
    """OQ-31: the hand limit applies to every player, not only the active one."""
    destroyed_guards_become_stray: bool = True
    """OQ-32: guards of a destroyed Territory become Stray (else they go to the Graveyard)."""
    result_order: Literal["LIFO", "FIFO"] = "LIFO"
    """OQ-34: when all players pass with objects on the register, the most recently registered
    object results first (LIFO), or the earliest (FIFO)."""
    window_closes_after: Literal["ALL_PLAYERS", "TWO_PASSES"] = "ALL_PLAYERS"
    """OQ-33: a priority window closes when every live player has passed in succession, or
    already after two passes in succession (the same in a duel; fewer passes with three or
    more players)."""

    # readings added after the first release: absent (None) means the default reading, so
    # rulesets published before them keep their content hash
    priority_after_registration: Literal["REGISTRANT", "ACTIVE"] | None = None
    """OQ-35: after a player registers a summon or an active skill, that player holds priority
    (REGISTRANT, the reading when absent), or the active player does, as after a result
    (ACTIVE)."""
    fatal_damage_at: Literal["AT_ONCE", "COMBAT_STEPS"] | None = None
    """OQ-36: a Follower with fatal damage goes to the Graveyard at once, whatever dealt it
    (AT_ONCE, the reading when absent), or in the Combat Phase only in step 7, where the seed
    describes it (COMBAT_STEPS); outside the Combat Phase always at once."""
    preparation_window: bool | None = None
    """OQ-37: the Preparation Phase ends with a priority window after the Unslide step, in which
    Actions and Lair cards may be summoned but no skill used (absent: no window)."""
    battle_from: Literal["GUARDING", "IN_PLAY"] | None = None
    """OQ-38: the active player's Followers that may enter battle: those guarding a Territory
    (GUARDING, the reading when absent), or any unslid Follower in play, Stray ones included
    (IN_PLAY)."""

    territory_fatal_damage_at: Literal["STEP_9", "AT_ONCE"] | None = None
    """OQ-39: a Territory a skill leaves with fatal damage in the Combat Phase goes to the
    Graveyard in step 9, together with the Territories the step's ATK damage makes fatal, once
    that damage has resulted (STEP_9, the reading when absent), or at once, as outside the
    Combat Phase (AT_ONCE)."""

    # trust (not an open question of the digest)
    accept_trusted_effects: bool | None = None
    """Accept the effects a log claims for skills the published pool leaves text only (else
    each such result is R-TRUST-3); absent means not accepted. They are listed either way."""


DEFAULT_RULESET = Ruleset()
"""The digest's proposed interpretation."""

OPEN_QUESTION_FLAGS: dict[str, str] = {
    "OQ-1": "opening_hand",
    "OQ-2": "min_deck_size",
    "OQ-3": "def_reduces_damage",
    "OQ-4": "summon_from_subdeck",
    "OQ-5": "relics_use_capacity",
    "OQ-6": "summon_needs_empty_register",
    "OQ-7": "honor_per_territory_destroyed",
    "OQ-8": "requirements_continuous",
    "OQ-9": "vp_outside_combat",
    "OQ-10": "produce_is_gain_gold",
    "OQ-11": "second_player_first_supply_reduced",
    "OQ-12": "naval_aerial_need_skill",
    "OQ-13": "deploy_phase_window",
    "OQ-14": "unplaceable_to_graveyard",
    "OQ-15": "target_gone",
    "OQ-16": "triggers_active_first",
    "OQ-17": "attack_target_mode",
    "OQ-18": "cavalry_only_blocks_elsewhere",
    "OQ-19": "many_blockers_per_attacker",
    "OQ-20": "raze_lethal_first",
    "OQ-21": "relics_become_stray",
    "OQ-22": "restriction_key",
    "OQ-23": "deck_out_loses",
    "OQ-24": "simultaneous_victory_active_first",
    "OQ-25": "team_wins_together",
    "OQ-26": "force_is_raze",
    "OQ-27": "cycle_is_controller_turn",
    "OQ-28": "fatigue_until_turn_change",
    "OQ-29": "fatigued_attacker_returns_home",
    "OQ-30": "raze_destroys_in_step7",
    "OQ-31": "hand_limit_all_players",
    "OQ-32": "destroyed_guards_become_stray",
    "OQ-33": "window_closes_after",
    "OQ-34": "result_order",
    "OQ-35": "priority_after_registration",
    "OQ-36": "fatal_damage_at",
    "OQ-37": "preparation_window",
    "OQ-38": "battle_from",
    "OQ-39": "territory_fatal_damage_at",
}
"""Which `Ruleset` field answers which open question."""

SECOND_FLAGS: dict[str, str] = {
    "mulligan": "OQ-1",
    "fizzle_when_target_gone": "OQ-15",
}
"""Flags that answer an open question beside the one `OPEN_QUESTION_FLAGS` names for it."""

ABSENT_MEANS: dict[str, object] = {
    "target_gone": "PART",
    "priority_after_registration": "REGISTRANT",
    "fatal_damage_at": "AT_ONCE",
    "preparation_window": False,
    "battle_from": "GUARDING",
    "territory_fatal_damage_at": "STEP_9",
}
"""The reading a flag added after the first release has when a ruleset leaves it out."""


def flag_reading(ruleset: Ruleset, flag: str) -> object:
    """The reading ``flag`` has under ``ruleset``: its value, or what its absence means."""
    value = getattr(ruleset, flag)
    return ABSENT_MEANS.get(flag) if value is None and flag in ABSENT_MEANS else value


# -- card definitions as JSON ----------------------------------------------------------------

_CARD_LIST: Final = TypeAdapter(tuple[CardDef, ...])
_DUMPS_KEPT: Final = 2
_dumps: dict[int, tuple[tuple[CardDef, ...], list[dict[str, Any]]]] = {}
_dumps_lock: Final = threading.Lock()


def card_dumps(cards: Sequence[CardDef]) -> list[dict[str, Any]]:
    """The JSON forms of card definitions, in order (aliases, ``None`` fields left out), made
    in one call for the whole list (a call per card costs half as much again).

    The lists of the last two tuples asked for are kept, by identity: a log's embedded cards
    are matched with the built-in pools, compared with the published pool and hashed for its
    seal. Read-only: the lists are shared.
    """
    if type(cards) is not tuple:
        made: list[dict[str, Any]] = _CARD_LIST.dump_python(
            tuple(cards), mode="json", by_alias=True, exclude_none=True
        )
        return made
    kept = _dumps.get(id(cards))
    if kept is not None and kept[0] is cards:
        return kept[1]
    dumps: list[dict[str, Any]] = _CARD_LIST.dump_python(
        cards, mode="json", by_alias=True, exclude_none=True
    )
    with _dumps_lock:
        if len(_dumps) >= _DUMPS_KEPT:
            _dumps.clear()
        _dumps[id(cards)] = (cards, dumps)
    return dumps


_ONE_KEPT: Final = 4096
_one: dict[int, tuple[CardDef, dict[str, Any]]] = {}


def card_dump(card: CardDef) -> dict[str, Any]:
    """The JSON form of one card definition, as `card_dumps` makes it; kept by identity for the
    last few thousand cards asked for (a published pool's cards are compared for every log).
    Read-only: the dictionaries are shared."""
    kept = _one.get(id(card))
    if kept is not None and kept[0] is card:
        return kept[1]
    dump: dict[str, Any] = card.model_dump(mode="json", by_alias=True, exclude_none=True)
    with _dumps_lock:
        if len(_one) >= _ONE_KEPT:
            _one.clear()
        _one[id(card)] = (card, dump)
    return dump


__all__ = [
    "ABSENT_MEANS",
    "CHOICE_KINDS",
    "DEFAULT_RULESET",
    "OPEN_QUESTION_FLAGS",
    "SECOND_FLAGS",
    "AuraSpec",
    "CardDef",
    "CardPool",
    "Condition",
    "EffectSpec",
    "Ruleset",
    "SkillDef",
    "Target",
    "card_dump",
    "card_dumps",
    "flag_reading",
]
