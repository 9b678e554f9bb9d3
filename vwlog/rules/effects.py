"""What a register object does when it results: effects derived from machine-readable skills
and locked combat damage (R-REG-9, R-CMB-24, R-CMB-25, R-CMB-29, OQ-3, OQ-15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog import events as ev
from vwlog.model.cards import CHOICE_KINDS, EffectSpec, SkillDef, Target
from vwlog.model.types import CardType, ObjectKind, Stat, Zone

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState, RegisterObject


def object_skill(state: MatchState, obj: RegisterObject) -> SkillDef | None:
    """The skill an object carries out: the skill registered or triggered, or an Action's
    ``play`` skill; ``None`` for summons of Territories/Property and combat damage."""
    if (
        obj.card is None
        or obj.card not in state.instances
        or obj.kind
        not in (
            ObjectKind.ACTIVE_SKILL,
            ObjectKind.TRIGGER_SKILL,
            ObjectKind.SUMMON,
        )
    ):
        return None
    d = state.defn(obj.card)
    if obj.kind == ObjectKind.SUMMON:
        return d.skill("play") if d.type == CardType.ACTION else None
    return d.skill(obj.skill or "")


def is_trusted(state: MatchState, obj: RegisterObject) -> bool:
    """Whether the object's effects are known only from card text, so results are trusted."""
    skill = object_skill(state, obj)
    return skill is not None and skill.effects is None


def chooses(state: MatchState, obj: RegisterObject) -> bool:
    """Whether the object's skill leaves its controller a choice when it results."""
    skill = object_skill(state, obj)
    return skill is not None and any(e.kind in CHOICE_KINDS for e in skill.effects or ())


def derive_effects(
    ruleset: Ruleset, state: MatchState, obj: RegisterObject
) -> tuple[ev.Effect, ...]:
    """The effects the object has when it results now.

    Combat damage results exactly as locked (R-CMB-25), skipping recipients that left play;
    skills with machine-readable effects read current state, except the target locked at
    registration; where the controller chooses (`CHOICE_KINDS`), the first choice is derived
    (the first such card in the Graveyard; nothing moved, the order kept), and
    `chosen_effects_problem` accepts every other; a part aimed at a locked target that has
    left play does nothing, the rest happens, unless the ruleset voids the whole object
    (`Ruleset.target_gone`, OQ-15). Text-only skills derive nothing (their logged effects are
    trusted).
    """
    if obj.kind in (ObjectKind.COMBAT_DAMAGE_FOLLOWERS, ObjectKind.COMBAT_DAMAGE_TERRITORY):
        out: list[ev.Effect] = []
        for a in obj.allocations:
            if a.recipient not in state.permanents or a.amount <= 0:
                continue
            amount = a.amount
            if ruleset.def_reduces_damage and state.defn(a.recipient).type == CardType.FOLLOWER:
                amount = max(0, amount - state.stat(a.recipient, Stat.DEF))
            out.append(ev.DamageDealt(source=a.source, recipient=a.recipient, amount=amount))
        return tuple(out)
    skill = object_skill(state, obj)
    if skill is None or skill.effects is None or obj.card is None:
        return ()
    if obj.target is not None and obj.target not in state.permanents:
        # OQ-15: only the parts aimed at the gone target do nothing (below, `_card` finds no
        # card), or the whole object does nothing
        if ruleset.target_gone == "WHOLE":
            return ()
    out = []
    drawn: dict[str, int] = {}
    for spec in skill.effects:
        out.extend(_effect(state, obj, spec, drawn))
    return tuple(out)


def _players(state: MatchState, obj: RegisterObject, target: Target) -> list[str]:
    if target == Target.EACH_OPPONENT:
        return state.opponents(obj.controller)
    return [obj.controller]


def _card(state: MatchState, obj: RegisterObject, target: Target) -> str | None:
    card = obj.card if target == Target.SELF else obj.target
    if card is None or card not in state.permanents:
        return None
    return card


def _effect(
    state: MatchState, obj: RegisterObject, spec: EffectSpec, drawn: dict[str, int]
) -> list[ev.Effect]:
    kind = spec.kind
    if kind == "gold":
        return [
            ev.GoldChanged(player=p, delta=spec.amount) for p in _players(state, obj, spec.target)
        ]
    if kind == "honor":
        return [
            ev.HonorChanged(player=p, delta=spec.amount) for p in _players(state, obj, spec.target)
        ]
    if kind == "return":
        cards = returnable(state, obj.controller, spec)
        if not cards or spec.to_zone is None:
            return []
        return [ev.CardMoved(card=cards[0], from_zone=spec.from_zone, to_zone=spec.to_zone)]
    if kind in CHOICE_KINDS:
        return []  # look, bottom, reorder: the first choice changes nothing
    if kind == "draw":
        out: list[ev.Effect] = []
        for p in _players(state, obj, spec.target):
            start = drawn.get(p, 0)
            deck = state.player(p).deck
            cards = deck[start : start + max(spec.amount, 0)]
            drawn[p] = start + len(cards)
            out.append(ev.CardsDrawn(player=p, cards=cards))
        return out
    card = _card(state, obj, spec.target)
    if card is None:
        return []
    if kind == "stat" and spec.stat is not None:
        return [ev.StatChanged(card=card, stat=spec.stat, delta=spec.amount, expires=spec.expires)]
    if kind == "damage":
        return [ev.DamageDealt(source=obj.card or card, recipient=card, amount=max(spec.amount, 0))]
    if kind == "move" and spec.to_zone is not None:
        return [ev.CardMoved(card=card, to_zone=spec.to_zone)]
    if kind == "unslide":
        return [ev.StatusChanged(card=card, slid=False)]
    return []


def returnable(state: MatchState, player: str, spec: EffectSpec) -> tuple[str, ...]:
    """The cards a ``return`` effect may choose: the player's cards of the spec's type in its
    ``from_zone``, in the zone's order."""
    zone = state.player(player).held(spec.from_zone or Zone.GRAVEYARD)
    if spec.card_type is None:
        return zone
    return tuple(c for c in zone if state.defn(c).type == spec.card_type)


def chosen_effects(
    state: MatchState, obj: RegisterObject, cards: Sequence[str]
) -> tuple[tuple[ev.Effect, ...], tuple[str, ...]]:
    """The effects of the object's result when its controller chooses ``cards`` (the card ids
    the choice names, taken by the parts with a choice in order): a ``return`` takes one card,
    a ``bottom`` the cards it puts on the bottom (the rest of ``cards``, at most ``amount``),
    a ``reorder`` the new order of the top cards (``amount`` of them, or as many as the Fate
    Deck holds); a ``look`` takes none. Parts without a choice are derived as usual. Returns
    the effects and the cards no part took. Whether the result is allowed is
    `chosen_effects_problem`'s to say; this only builds it."""
    skill = object_skill(state, obj)
    out: list[ev.Effect] = []
    if skill is None or skill.effects is None:
        return (), tuple(cards)
    rest = list(cards)
    drawn: dict[str, int] = {}
    for spec in skill.effects:
        if spec.kind == "return" and spec.to_zone is not None:
            if rest:
                out.append(
                    ev.CardMoved(card=rest.pop(0), from_zone=spec.from_zone, to_zone=spec.to_zone)
                )
        elif spec.kind == "bottom":
            taken, rest = rest[: spec.amount], rest[spec.amount :]
            out.extend(
                ev.CardMoved(card=c, from_zone=Zone.FATE_DECK, to_zone=Zone.FATE_DECK, bottom=True)
                for c in taken
            )
        elif spec.kind == "reorder":
            n = min(spec.amount, len(state.player(obj.controller).deck))
            taken, rest = rest[:n], rest[n:]
            if taken:
                out.append(ev.DeckReordered(player=obj.controller, cards=tuple(taken)))
        elif spec.kind not in CHOICE_KINDS:
            out.extend(_effect(state, obj, spec, drawn))
    return tuple(out), tuple(rest)


def chosen_effects_problem(
    ruleset: Ruleset, state: MatchState, obj: RegisterObject, logged: tuple[ev.Effect, ...]
) -> tuple[str, tuple[str, ...]] | None:
    """``None`` when ``logged`` is a result the skill allows, each choice of the controller
    included (`CHOICE_KINDS`); else the first misfit: the kind of the part it is in (``fixed``
    for a part without a choice, ``extra`` for effects after the last part) and the cards
    that part could name.

    A ``return`` moves one card the spec allows when there is one (nothing otherwise); a
    ``look`` logs nothing; a ``bottom`` moves some of the top cards of the controller's Fate
    Deck to its bottom, each at most once; a ``reorder`` logs one ``deck_reordered`` of the
    top cards, or nothing. Parts without a choice must be exactly what the rules derive. An
    object the ruleset voids because its target left play (`Ruleset.target_gone` WHOLE)
    allows no effect at all.
    """
    skill = object_skill(state, obj)
    if skill is None or skill.effects is None:
        return None
    if (
        obj.target is not None
        and obj.target not in state.permanents
        and ruleset.target_gone == "WHOLE"
    ):
        return ("extra", ()) if logged else None
    at = 0
    drawn: dict[str, int] = {}
    for spec in skill.effects:
        if spec.kind not in CHOICE_KINDS:
            derived = _effect(state, obj, spec, drawn)
            if tuple(logged[at : at + len(derived)]) != tuple(derived):
                return "fixed", ()
            at += len(derived)
            continue
        here = logged[at] if at < len(logged) else None
        if spec.kind == "return":
            cards = returnable(state, obj.controller, spec)
            if not cards:
                continue
            if not (
                isinstance(here, ev.CardMoved)
                and here.card in cards
                and here.from_zone == spec.from_zone
                and here.to_zone == spec.to_zone
                and not here.bottom
            ):
                return "return", cards
            at += 1
        elif spec.kind == "bottom":
            top = state.player(obj.controller).deck[: spec.amount]
            moved: set[str] = set()
            while (
                isinstance(here, ev.CardMoved)
                and here.from_zone == Zone.FATE_DECK
                and here.to_zone == Zone.FATE_DECK
                and here.bottom
            ):
                if here.card not in top or here.card in moved:
                    return "bottom", top
                moved.add(here.card)
                at += 1
                here = logged[at] if at < len(logged) else None
        elif spec.kind == "reorder":
            if isinstance(here, ev.DeckReordered):
                top = state.player(obj.controller).deck[: spec.amount]
                if here.player != obj.controller or sorted(here.cards) != sorted(top):
                    return "reorder", top
                at += 1
    if at != len(logged):
        return "extra", ()
    return None


__all__ = [
    "chooses",
    "chosen_effects",
    "chosen_effects_problem",
    "derive_effects",
    "is_trusted",
    "object_skill",
    "returnable",
]
