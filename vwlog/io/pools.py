"""Card pool and deck list files: reading them, and checking that they make sense.

This module is the I/O side of `vwlog.model.cards`: it turns JSON files (or the pool and decks
packaged under ``vwlog/data/``) into `CardPool` and `DeckList` values and reports every problem as a
one-line `CardPoolError` naming the file and the field (``cards.12.skills.0.trigger``).

Beyond what the pydantic models accept, `check_pool` enforces what the engine relies on when it
derives a skill's results (RULES.md §9, §13.5): a trigger skill names its moment, an aura its
change, a ``stat`` effect its stat, a ``move`` effect a destination zone, and a skill chooses at
most one kind of target when it is registered. `check_deck` applies the deck-construction limits
a `Ruleset` sets (OQ-2).
"""

from __future__ import annotations

import importlib.resources
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vwlog.model.cards import (
    DEFAULT_RULESET,
    CardDef,
    CardPool,
    EffectSpec,
    Ruleset,
    SkillDef,
    Target,
)
from vwlog.model.errors import CardPoolError
from vwlog.model.types import CardType, SkillKind, Stat, TriggerWhen, Zone

if TYPE_CHECKING:
    from collections.abc import Callable
    from importlib.resources.abc import Traversable

__all__ = [
    "EARLIER_POOLS",
    "DeckList",
    "cards_by_id",
    "check_deck",
    "check_pool",
    "load_deck",
    "load_earlier_pool",
    "load_pool",
    "packaged_decks",
]

_DATA = "data"
_POOL = "pool.json"
_DECKS = "decks"
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

_CHOSEN = frozenset(
    {Target.OWN_FOLLOWER, Target.OPPOSING_FOLLOWER, Target.OPPOSING_TERRITORY, Target.OWN_TERRITORY}
)
_PLAYERS = frozenset({Target.CONTROLLER, Target.EACH_OPPONENT})
_FOLLOWER_STATS = frozenset({Stat.ATK, Stat.DEF, Stat.VIT})
_TERRITORY_STATS = frozenset({Stat.DEFENSE, Stat.GOLD_PRODUCE, Stat.CAPACITY})
_MOVE_ZONES = frozenset({Zone.HAND, Zone.FATE_DECK, Zone.SUBDECK, Zone.GRAVEYARD})
_COMBAT_TRIGGERS = frozenset({TriggerWhen.ATTACKS, TriggerWhen.BLOCKS})

M = TypeVar("M", bound=BaseModel)
"""The model a data file is read as (`CardPool`, `DeckList`)."""


class DeckList(BaseModel):
    """A deck list: a name and how many copies of each card id (RULES.md OQ-2).

    The JSON form is ``{"name": "Order Aggro", "cards": {"militia-spearman": 3, ...}}``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    name: str = Field(min_length=1, max_length=200)
    """Display name, for example ``"Order Aggro"``."""
    cards: dict[Annotated[str, Field(min_length=1, max_length=200)], Annotated[int, Field(ge=1)]]
    """Copies of each card, keyed by card id, in listing order."""

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return sum(self.cards.values())

    def expand(self) -> tuple[str, ...]:
        """Every card id repeated by its count, in listing order (an unshuffled Fate Deck)."""
        return tuple(card for card, count in self.cards.items() for _ in range(count))


def load_pool(path: str | Path | None = None) -> CardPool:
    """Read a card pool file; ``None`` reads the pool packaged with vwlog.

    The pool must be valid `CardPool` JSON and pass `check_pool`.

    Raises:
        CardPoolError: the file cannot be read, is not valid JSON, does not match the `CardPool`
            model, or fails a `check_pool` check; the message names the file and the field.
    """
    if path is None:
        packaged = _data().joinpath(_POOL)
        return _checked(CardPool, packaged, str(packaged), check_pool)
    return _checked(CardPool, Path(path), str(path), check_pool)


EARLIER_POOLS = {"vw-sample-pool@1": "published/vw-sample-pool@1.json"}
"""Earlier versions of the packaged pool by published id, kept byte for byte, so a log played
under one is still held to the definitions it was played under. ``vw-sample-pool@1`` left the
skills of Necromancer(Male), Oracle of Mists, Seer's Lantern and Glimpse of Fate text only."""


def load_earlier_pool(pool_id: str) -> CardPool:
    """An earlier version of the packaged pool (`EARLIER_POOLS`).

    Raises:
        KeyError: no earlier packaged pool has that id.
    """
    packaged = _data().joinpath(EARLIER_POOLS[pool_id])
    return _checked(CardPool, packaged, str(packaged), check_pool)


def load_deck(
    path_or_name: str | Path, *, pool: CardPool | None = None, ruleset: Ruleset | None = None
) -> DeckList:
    """Read a deck list from a file, or a packaged deck by its name (``"order-aggro"``).

    A `Path`, or a string that names an existing file, ends in ``.json`` or contains a path
    separator, is read as a file; any other string is the name of a packaged deck
    (see `packaged_decks`). Given a ``pool``, the deck must also pass `check_deck` against it
    under ``ruleset`` (the default ruleset if ``None``).

    Raises:
        CardPoolError: the file cannot be read or is not a valid deck list, no packaged deck has
            that name, or the deck fails `check_deck`; the message names the file and the field.
    """
    if isinstance(path_or_name, str) and _is_deck_name(path_or_name):
        if path_or_name not in packaged_decks():
            known = ", ".join(packaged_decks())
            raise CardPoolError(
                f"deck {path_or_name!r}", f"no packaged deck of that name (packaged: {known})"
            )
        resource: Path | Traversable = _data().joinpath(_DECKS, f"{path_or_name}.json")
        source = str(resource)
    else:
        resource, source = Path(path_or_name), str(path_or_name)
    rules = ruleset or DEFAULT_RULESET
    return _checked(
        DeckList,
        resource,
        source,
        lambda deck: [] if pool is None else check_deck(pool, deck, rules),
    )


def packaged_decks() -> list[str]:
    """Names of the deck lists packaged with vwlog, sorted."""
    decks = _data().joinpath(_DECKS)
    return sorted(
        entry.name.removesuffix(".json")
        for entry in decks.iterdir()
        if entry.is_file() and entry.name.endswith(".json")
    )


def cards_by_id(pool: CardPool) -> dict[str, CardDef]:
    """The pool's definitions keyed by card id (the last one wins if an id repeats)."""
    return {card.id: card for card in pool.cards}


def check_deck(pool: CardPool, deck: DeckList, ruleset: Ruleset = DEFAULT_RULESET) -> list[str]:
    """Problems of a deck list against a pool and a ruleset's construction limits (OQ-2).

    Checks that every card id is in the pool, that no card has more copies than
    ``ruleset.max_copies`` and that the deck has at least ``ruleset.min_deck_size`` cards, each
    limit only when the ruleset sets it. Each problem is one line starting with the field, for
    example ``field 'cards.no-such-card': unknown card, not in pool 'vwlog sample pool'``; an
    empty list means the deck is legal.
    """
    known = cards_by_id(pool)
    problems: list[str] = []
    for card, count in deck.cards.items():
        if card not in known:
            problems.append(f"field 'cards.{card}': unknown card, not in pool {pool.name!r}")
        elif ruleset.max_copies is not None and count > ruleset.max_copies:
            problems.append(
                f"field 'cards.{card}': {count} copies, at most {ruleset.max_copies} allowed "
                f"(ruleset {ruleset.id!r}, max_copies, OQ-2)"
            )
    if ruleset.min_deck_size is not None and deck.size < ruleset.min_deck_size:
        problems.append(
            f"field 'cards': {deck.size} cards, at least {ruleset.min_deck_size} required "
            f"(ruleset {ruleset.id!r}, min_deck_size, OQ-2)"
        )
    return problems


def check_pool(pool: CardPool) -> list[str]:
    """Problems that make a pool unusable by the engine, beyond what the models accept.

    Each problem is one line starting with the field, for example
    ``field 'cards.3.skills.0.trigger': card 'iron-guard', skill 's1': a TRIGGER skill needs a
    trigger``; an empty list means the pool is usable. The checks:

    - card ids are unique kebab-case slugs, skill ids are unique within a card;
    - a Territory has a defense, a Follower a VIT, and neither carries the other's fields;
    - trigger skills name a ``trigger``, aura skills an ``aura``; only static skills grant
      keywords; static and aura skills have no effects (they never use the register, R-SKL-1/4);
      only active skills have costs (R-SKL-2), and only Property slides (R-CARD-7);
    - ``ATTACKS``/``BLOCKS`` triggers and ``ATTACKING_TOGETHER`` auras sit on Followers;
    - an Action has exactly one skill, the active skill ``play``, without costs of its own (its
      cost is the card's);
    - every effect fits its kind: ``stat`` names a stat that its target has, ``move`` a zone among
      HAND, FATE_DECK, SUBDECK and GRAVEYARD; gold, honor and draw go to players, the others to
      cards; ``SELF`` is never an Action;
    - a skill chooses at most one kind of target when registered (R-REG-9, OQ-15).
    """
    problems: list[str] = []
    seen: set[str] = set()
    for i, card in enumerate(pool.cards):
        where = f"cards.{i}"
        if card.id in seen:
            problems.append(f"field '{where}.id': duplicate card id {card.id!r}")
        seen.add(card.id)
        if not _SLUG.match(card.id):
            problems.append(f"field '{where}.id': card id {card.id!r} is not a kebab-case slug")
        problems.extend(_check_card(card, where))
    return problems


# --------------------------------------------------------------------------- card checks


def _check_card(card: CardDef, where: str) -> list[str]:
    problems: list[str] = []

    def bad(field: str, message: str) -> None:
        problems.append(f"field '{where}.{field}': card {card.id!r}: {message}")

    is_territory = card.type is CardType.TERRITORY
    if is_territory:
        if card.defense < 1:
            bad("defense", "a Territory needs a defense of at least 1")
        if card.terrain is None:
            bad("terrain", "a Territory needs a terrain")
    else:
        for field in ("defense", "capacity", "produce"):
            if getattr(card, field):
                bad(field, f"only Territories have {field}")
        if card.terrain is not None:
            bad("terrain", "only Territories have a terrain")
    if card.type is CardType.FOLLOWER:
        if card.vit < 1:
            bad("vit", "a Follower needs a VIT of at least 1")
    else:
        for field, key in (("atk", "atk"), ("def_", "def"), ("vit", "vit")):
            if getattr(card, field):
                bad(key, f"only Followers have {key.upper()}")
    if card.type is CardType.ACTION:
        if [s.id for s in card.skills] != ["play"]:
            bad("skills", "an Action has exactly one skill, with id 'play'")
    skill_ids: set[str] = set()
    for j, skill in enumerate(card.skills):
        if skill.id in skill_ids:
            bad(f"skills.{j}.id", f"duplicate skill id {skill.id!r}")
        skill_ids.add(skill.id)
        for field, message in _check_skill(card, skill):
            problems.append(
                f"field '{where}.skills.{j}{field}': card {card.id!r}, skill {skill.id!r}: "
                f"{message}"
            )
    return problems


def _check_skill(card: CardDef, skill: SkillDef) -> list[tuple[str, str]]:
    """Problems of one skill as (field suffix, message) pairs."""
    problems: list[tuple[str, str]] = []
    kind = skill.kind
    if kind is SkillKind.TRIGGER and skill.trigger is None:
        problems.append((".trigger", "a TRIGGER skill needs a trigger"))
    if kind is not SkillKind.TRIGGER and skill.trigger is not None:
        problems.append((".trigger", f"a {kind} skill has no trigger"))
    if skill.trigger in _COMBAT_TRIGGERS and card.type is not CardType.FOLLOWER:
        problems.append((".trigger", f"only Followers attack or block ({skill.trigger})"))
    if kind is SkillKind.AURA and skill.aura is None:
        problems.append((".aura", "an AURA skill needs an aura"))
    if kind is not SkillKind.AURA and skill.aura is not None:
        problems.append((".aura", f"a {kind} skill has no aura"))
    if (
        skill.aura is not None
        and skill.aura.scope == "ATTACKING_TOGETHER"
        and card.type is not CardType.FOLLOWER
    ):
        problems.append((".aura.scope", "only a Follower attacks together with others"))
    if kind is not SkillKind.STATIC and skill.keywords:
        problems.append((".keywords", f"only STATIC skills grant keywords, not {kind}"))
    if kind in (SkillKind.STATIC, SkillKind.AURA) and skill.effects is not None:
        problems.append((".effects", f"a {kind} skill never results, so it has no effects"))
    if kind is not SkillKind.ACTIVE and (skill.cost_gold or skill.cost_slide):
        problems.append((".cost_gold", f"only ACTIVE skills have costs, not {kind}"))
    if skill.cost_slide and not card.type.is_property:
        problems.append((".cost_slide", f"a {card.type} card cannot be slid"))
    if card.type is CardType.ACTION and skill.id == "play":
        if kind is not SkillKind.ACTIVE:
            problems.append((".kind", "an Action's 'play' skill is ACTIVE"))
        if skill.cost_gold or skill.cost_slide:
            problems.append(
                (".cost_gold", "an Action's 'play' skill costs nothing (the card does)")
            )
    chosen = {e.target for e in skill.effects or () if e.target in _CHOSEN}
    if len(chosen) > 1:
        kinds = ", ".join(sorted(chosen))
        problems.append((".effects", f"at most one kind of chosen target, not {kinds}"))
    for k, effect in enumerate(skill.effects or ()):
        for message in _check_effect(card, effect):
            problems.append((f".effects.{k}", message))
    return problems


def _check_effect(card: CardDef, effect: EffectSpec) -> list[str]:
    kind, target, stat, to_zone = effect.kind, effect.target, effect.stat, effect.to_zone
    problems: list[str] = []
    if kind in ("gold", "honor", "draw"):
        if target not in _PLAYERS:
            problems.append(f"a {kind} effect goes to CONTROLLER or EACH_OPPONENT, not {target}")
    elif kind in ("return", "bottom", "reorder"):
        if target is not Target.CONTROLLER:
            problems.append(f"a {kind} effect uses the controller's own cards (CONTROLLER)")
    elif kind == "look":
        if target not in (*_PLAYERS, Target.AN_OPPONENT):
            problems.append(f"a look effect looks at a player's cards, not at {target}")
    elif target in _PLAYERS or target is Target.AN_OPPONENT:
        problems.append(f"a {kind} effect applies to a card, not to {target}")
    if target is Target.AN_OPPONENT and kind != "look":
        problems.append(f"a {kind} effect cannot choose AN_OPPONENT (only a look can)")
    if target is Target.SELF and card.type is CardType.ACTION:
        problems.append("an Action is not in play, so it cannot be its own target (SELF)")
    if kind == "stat":
        if stat is None:
            problems.append("a stat effect needs a stat")
        else:
            allowed = _stats_of(card, target)
            if allowed is not None and stat not in allowed:
                problems.append(f"{target} has no {stat} stat")
    elif stat is not None:
        problems.append(f"a {kind} effect has no stat")
    zones = ", ".join(sorted(_MOVE_ZONES))
    if kind in ("move", "return"):
        if to_zone not in _MOVE_ZONES:
            problems.append(f"a {kind} effect needs to_zone, one of {zones}")
    elif to_zone is not None:
        problems.append(f"a {kind} effect has no to_zone")
    if kind in ("return", "look"):
        if effect.from_zone not in _MOVE_ZONES:
            problems.append(f"a {kind} effect needs from_zone, one of {zones}")
        elif effect.from_zone == to_zone:
            problems.append(f"a return effect moves a card to another zone, not {to_zone}")
    elif effect.from_zone is not None:
        problems.append(f"a {kind} effect has no from_zone")
    if effect.card_type is not None and kind != "return":
        problems.append(f"a {kind} effect has no card_type")
    if kind in ("bottom", "reorder") and effect.amount < 1:
        problems.append(f"a {kind} effect looks at 1 card or more (amount)")
    return problems


def _stats_of(card: CardDef, target: Target) -> frozenset[Stat] | None:
    """The stats a target has, or ``None`` if the target is not a card."""
    if target in (Target.OWN_FOLLOWER, Target.OPPOSING_FOLLOWER):
        return _FOLLOWER_STATS
    if target in (Target.OWN_TERRITORY, Target.OPPOSING_TERRITORY):
        return _TERRITORY_STATS
    if target is Target.SELF:
        if card.type is CardType.FOLLOWER:
            return _FOLLOWER_STATS
        if card.type is CardType.TERRITORY:
            return _TERRITORY_STATS
        return frozenset()
    return None


# --------------------------------------------------------------------------- I/O helpers


def _data() -> Traversable:
    return importlib.resources.files("vwlog").joinpath(_DATA)


def _checked(
    model: type[M], resource: Path | Traversable, source: str, check: Callable[[M], list[str]]
) -> M:
    """``resource`` read as ``model`` and held to ``check``; whatever fails is a
    `CardPoolError` naming the file as ``source`` says it: its first problem, and how many
    more."""
    try:
        data = resource.read_bytes()
    except OSError as exc:
        raise CardPoolError(source, f"cannot read file: {exc.strerror or exc}") from None
    try:
        value = model.model_validate_json(data)
    except ValidationError as exc:
        raise CardPoolError(source, _first_error(exc)) from None
    problems = check(value)
    if problems:
        raise CardPoolError(source, _summary(problems))
    return value


def _is_deck_name(text: str) -> bool:
    return bool(_SLUG.match(text)) and not Path(text).is_file()


def _first_error(exc: ValidationError) -> str:
    """One line for the first pydantic error: the dotted field path and the message."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    message = " ".join(str(first["msg"]).split())
    if first["type"] == "json_invalid":
        message = message.removeprefix("Invalid JSON: ")
        text = f"invalid JSON: {message}"
    else:
        message = message[:1].lower() + message[1:]
        path = ".".join(str(part) for part in first["loc"])
        text = f"field {path!r}: {message}" if path else message
    return text + _more(len(errors) - 1, "error")


def _summary(problems: list[str]) -> str:
    return problems[0] + _more(len(problems) - 1, "problem")


def _more(n: int, noun: str) -> str:
    return f" (and {n} more {noun}{'s' if n != 1 else ''})" if n else ""
