"""The words of event descriptions (`vwlog.games.vw.describe`): step, supply, zone and expiry
names, card names, counted cards, and the clause each effect of a result is described by, each
as a `vwlog.model.text.Msg` so the render layer can say it in another language.

Pure functions of states; no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from vwlog import events as ev
from vwlog.games.common import sees
from vwlog.model.text import Msg, msg
from vwlog.model.types import Expiry, PlacementReason, Step, SupplyOption, Zone

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.model.state import MatchState

STEP_TEXTS: dict[Step, Msg] = {
    Step.PRODUCE: msg("Produce step"),
    Step.SUPPLY: msg("Supply step"),
    Step.UNSLIDE: msg("Unslide step"),
    # one entry per combat step: the seed names each of the ten (Indonesian), English numbers them
    Step.C1: msg("Combat step 1"),
    Step.C2: msg("Combat step 2"),
    Step.C3: msg("Combat step 3"),
    Step.C4: msg("Combat step 4"),
    Step.C5: msg("Combat step 5"),
    Step.C6: msg("Combat step 6"),
    Step.C7: msg("Combat step 7"),
    Step.C8: msg("Combat step 8"),
    Step.C9: msg("Combat step 9"),
    Step.C10: msg("Combat step 10"),
    Step.END_WINDOW: msg("End step"),
    Step.END_DISCARD: msg("Hand-limit step"),
    Step.END_CLEANUP: msg("Cleanup step"),
}
"""How descriptions name each step, in any language."""

STEP_NAMES: dict[Step, str] = {step: str(text) for step, text in STEP_TEXTS.items()}
"""How descriptions name each step, in English."""

SUPPLY_TEXTS: dict[SupplyOption, Msg] = {
    SupplyOption.CARDS_2: msg("2 cards"),
    SupplyOption.GOLD_2: msg("2 gold"),
    SupplyOption.CARD_1_GOLD_1: msg("1 card and 1 gold"),
    SupplyOption.FIRST_TURN_CARD_1: msg("1 card (first turn)"),
    SupplyOption.FIRST_TURN_GOLD_1: msg("1 gold (first turn)"),
}
"""How descriptions name each supply package, in any language."""

SUPPLY_NAMES: dict[SupplyOption, str] = {k: str(v) for k, v in SUPPLY_TEXTS.items()}
"""How descriptions name each supply package, in English."""

EXPIRY_TEXTS = {
    Expiry.END_OF_TURN: msg("until end of turn"),
    Expiry.TURN_CHANGE: msg("until the turn changes"),
    Expiry.PERMANENT: msg("permanently"),
}
ZONE_TEXTS = {
    Zone.HAND: msg("to its owner's hand"),
    Zone.FATE_DECK: msg("to its owner's Fate Deck"),
    Zone.SUBDECK: msg("to its owner's subdeck"),
    Zone.GRAVEYARD: msg("to the Graveyard"),
    Zone.PLAY: msg("into play"),
    Zone.REGISTER: msg("onto the register"),
}
FROM_TEXTS = {
    Zone.HAND: msg("from its owner's hand"),
    Zone.FATE_DECK: msg("from its owner's Fate Deck"),
    Zone.SUBDECK: msg("from its owner's subdeck"),
    Zone.GRAVEYARD: msg("from the Graveyard"),
    Zone.REGISTER: msg("from the register"),
}
"""Where a card moves from, where that is said (a move out of play is not)."""
PLACEMENT_TEXTS = {
    PlacementReason.UNSLIDE_STEP: msg("in the Unslide step"),
    PlacementReason.DEPLOY_PHASE: msg("in the Deploy Phase"),
    PlacementReason.NEW_TERRITORY_STRAY: msg("from Stray"),
    PlacementReason.EFFECT: msg("by an effect"),
}


def card_name(state: MatchState, instance: str) -> str:
    """A card instance as ``Name (id)``; the bare id when the match does not know it.

    >>> from vwlog.model.state import MatchState
    >>> card_name(MatchState(), "p1-014")
    'p1-014'
    """
    defn = state.cards.get(state.instances.get(instance, ""))
    return f"{defn.name} ({instance})" if defn is not None else instance


def cards_text(state: MatchState, instances: Iterable[str]) -> str:
    return ", ".join(card_name(state, c) for c in instances)


def joined_and(parts: list[Msg | str]) -> Msg | str:
    """``a and b and c`` in any language (the parts nested, each joined by ``and``)."""
    joined = parts[0]
    for part in parts[1:]:
        joined = msg("{first} and {second}", first=joined, second=part)
    return joined


def n_cards(n: int) -> Msg:
    return msg("1 card") if n == 1 else msg("{n} cards", n=n)


def drawn(state: MatchState, player: str, cards: tuple[str, ...], viewer: str | None) -> Msg:
    if cards and sees(viewer, player):
        return msg("{count}: {cards}", count=n_cards(len(cards)), cards=cards_text(state, cards))
    return n_cards(len(cards))


def describe_effect(effect: ev.Effect, before: MatchState, *, viewer: str | None = None) -> str:
    """One clause of English for an effect inside `ObjectResulted` (see `describe`)."""
    return str(description_of_effect(effect, before, viewer=viewer))


def description_of_effect(
    effect: ev.Effect, before: MatchState, *, viewer: str | None = None
) -> Msg:
    """`describe_effect`'s clause as a template and its values."""
    s = before
    match effect:
        case ev.StatChanged():
            sign = "+" if effect.delta >= 0 else ""
            return msg(
                "{card} gets {stat} {delta} {expiry}",
                card=card_name(s, effect.card),
                stat=effect.stat.value,
                delta=f"{sign}{effect.delta}",
                expiry=EXPIRY_TEXTS[effect.expires],
            )
        case ev.GoldChanged():
            if effect.delta >= 0:
                return msg("{player} gains {n} gold", player=effect.player, n=effect.delta)
            return msg("{player} loses {n} gold", player=effect.player, n=-effect.delta)
        case ev.HonorChanged():
            if effect.delta >= 0:
                return msg("{player} gains {n} honor", player=effect.player, n=effect.delta)
            return msg("{player} loses {n} honor", player=effect.player, n=-effect.delta)
        case ev.CardsDrawn():
            return msg(
                "{player} draws {cards}",
                player=effect.player,
                cards=drawn(s, effect.player, effect.cards, viewer),
            )
        case ev.CardMoved():
            source = FROM_TEXTS.get(effect.from_zone) if effect.from_zone is not None else None
            bottom = effect.bottom and effect.to_zone == Zone.FATE_DECK
            card = card_name(s, effect.card)
            zone = ZONE_TEXTS[effect.to_zone]
            if source is not None and bottom:
                return msg(
                    "{card} moves {source} {zone} (bottom)", card=card, source=source, zone=zone
                )
            if source is not None:
                return msg("{card} moves {source} {zone}", card=card, source=source, zone=zone)
            if bottom:
                return msg("{card} moves {zone} (bottom)", card=card, zone=zone)
            return msg("{card} moves {zone}", card=card, zone=zone)
        case ev.DeckReordered():
            return msg(
                "{player} puts the top {n} cards of their Fate Deck back in another order",
                player=effect.player,
                n=len(effect.cards),
            )
        case ev.DamageDealt():
            return msg(
                "{source} deals {amount} damage to {recipient}",
                source=card_name(s, effect.source),
                amount=effect.amount,
                recipient=card_name(s, effect.recipient),
            )
        case ev.StatusChanged():
            if effect.slid:
                return msg("{card} is slid", card=card_name(s, effect.card))
            return msg("{card} is unslid", card=card_name(s, effect.card))
        case _:
            assert_never(effect)


__all__ = [
    "EXPIRY_TEXTS",
    "FROM_TEXTS",
    "PLACEMENT_TEXTS",
    "STEP_NAMES",
    "STEP_TEXTS",
    "SUPPLY_NAMES",
    "SUPPLY_TEXTS",
    "ZONE_TEXTS",
    "card_name",
    "cards_text",
    "describe_effect",
    "description_of_effect",
    "drawn",
    "joined_and",
    "n_cards",
]
