"""Events and boards for people and programs: one-line descriptions and the board as JSON
(the board's models live in `vwlog.engine.boardview`, re-exported here).

`describe` turns an event into one line of English, naming cards by name and instance id
("p2 blocks Dragon Knight (p1-014) with Iron Guard (p2-007)"); it reads the board *before* the
event for names and for what the event completes (the gold a summon cost, the object that
results). `board_view` / `state_json` give the board as a stable JSON document (`BoardView`),
optionally as one player could know it at that moment: their own hand, the public zones, and the
other players' hands and decks as counts only.

Both are pure functions of events and states; they read no files and print nothing. The text
board itself is ``str(state)`` (`vwlog.model.state.render`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_never

from vwlog.engine.boardview import (
    BoardView,
    CardView,
    PlayerView,
    PropertyView,
    RegisterObjectView,
    TerritoryView,
    _sees,
    board_view,
    state_json,
)
from vwlog.events import (
    AnyEvent,
    AttackDeclared,
    AttackersEnteredBattle,
    BecameReturnHome,
    BecameStray,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardMoved,
    CardsDrawn,
    CardSummoned,
    CombatDamageRegistered,
    Conceded,
    CostPaid,
    DamageDealt,
    DeckReordered,
    DeckRevealed,
    DeploymentFinished,
    Effect,
    FollowerDamageAssigned,
    FollowersDestroyed,
    GoldChanged,
    GoldProduced,
    HandLimitDiscarded,
    HonorChanged,
    JudgeRulingIssued,
    MatchForked,
    MatchSealed,
    MatchStarted,
    MatchWon,
    ObjectResulted,
    OpeningHandDrawn,
    PhaseStarted,
    PriorityPassed,
    PropertyPlaced,
    RecordSigned,
    SkillRegistered,
    SkillTriggered,
    StatChanged,
    StatusChanged,
    StepStarted,
    SupplyChosen,
    SupplyTaken,
    TerritoriesDestroyed,
    TurnCleanedUp,
    TurnEnded,
    TurnStarted,
    Unslid,
    VictoryPointGained,
)
from vwlog.model.types import (
    CardType,
    Expiry,
    ObjectKind,
    Phase,
    PlacementReason,
    RulingKind,
    Step,
    SupplyOption,
    Zone,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.model.state import MatchState, RegisterObject

# -- names -----------------------------------------------------------------------------------

PHASE_NAMES: dict[Phase, str] = {
    Phase.PREP: "Preparation Phase",
    Phase.MAIN1: "Main Phase 1",
    Phase.COMBAT: "Combat Phase",
    Phase.MAIN2: "Main Phase 2",
    Phase.DEPLOY: "Deploy Phase",
    Phase.END: "End Phase",
}
"""How descriptions name each phase."""

STEP_NAMES: dict[Step, str] = {
    Step.PRODUCE: "Produce step",
    Step.SUPPLY: "Supply step",
    Step.UNSLIDE: "Unslide step",
    **{s: f"Combat step {s.value[1:]}" for s in Step if s.value.startswith("C")},
    Step.END_WINDOW: "End step",
    Step.END_DISCARD: "Hand-limit step",
    Step.END_CLEANUP: "Cleanup step",
}
"""How descriptions name each step."""

SUPPLY_NAMES: dict[SupplyOption, str] = {
    SupplyOption.CARDS_2: "2 cards",
    SupplyOption.GOLD_2: "2 gold",
    SupplyOption.CARD_1_GOLD_1: "1 card and 1 gold",
    SupplyOption.FIRST_TURN_CARD_1: "1 card (first turn)",
    SupplyOption.FIRST_TURN_GOLD_1: "1 gold (first turn)",
}
"""How descriptions name each supply package."""

_EXPIRY = {
    Expiry.END_OF_TURN: "until end of turn",
    Expiry.TURN_CHANGE: "until the turn changes",
    Expiry.PERMANENT: "permanently",
}
_ZONE = {
    Zone.HAND: "to its owner's hand",
    Zone.FATE_DECK: "to its owner's Fate Deck",
    Zone.SUBDECK: "to its owner's subdeck",
    Zone.GRAVEYARD: "to the Graveyard",
    Zone.PLAY: "into play",
    Zone.REGISTER: "onto the register",
}
_FROM = {
    Zone.HAND: "its owner's hand",
    Zone.FATE_DECK: "its owner's Fate Deck",
    Zone.SUBDECK: "its owner's subdeck",
    Zone.GRAVEYARD: "the Graveyard",
    Zone.PLAY: "play",
    Zone.REGISTER: "the register",
}
_PLACEMENT = {
    PlacementReason.UNSLIDE_STEP: "in the Unslide step",
    PlacementReason.DEPLOY_PHASE: "in the Deploy Phase",
    PlacementReason.NEW_TERRITORY_STRAY: "from Stray",
}


def card_name(state: MatchState, instance: str) -> str:
    """A card instance as ``Name (id)``; the bare id when the match does not know it.

    >>> from vwlog.model.state import MatchState
    >>> card_name(MatchState(), "p1-014")
    'p1-014'
    """
    defn = state.cards.get(state.instances.get(instance, ""))
    return f"{defn.name} ({instance})" if defn is not None else instance


def _cards(state: MatchState, instances: Iterable[str]) -> str:
    return ", ".join(card_name(state, c) for c in instances)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _drawn(state: MatchState, player: str, cards: tuple[str, ...], viewer: str | None) -> str:
    text = _plural(len(cards), "card")
    if cards and _sees(viewer, player):
        text += f": {_cards(state, cards)}"
    return text


# -- events ----------------------------------------------------------------------------------


def describe(event: AnyEvent, before: MatchState, *, viewer: str | None = None) -> str:
    """One line of English for ``event``, read against the board ``before`` it.

    Cards are named ``Name (instance id)``. With ``viewer``, cards going into another player's
    hand (opening hands, supply, draws) are counted, not named, so a description never tells a
    player more than they could know.

    >>> from vwlog.projections import INITIAL
    >>> describe(PriorityPassed(player="p1"), INITIAL)
    'p1 passes priority'
    """
    s = before
    match event:
        case MatchStarted():
            seats = ", ".join(
                seat.player
                + (f" ({seat.name})" if seat.name else "")
                + (f" [team {seat.team}]" if seat.team else "")
                for seat in event.seats
            )
            return (
                f"Match starts ({event.format.value.lower().replace('_', ' ')}): {seats}; "
                f"{event.first_player} goes first; ruleset {event.ruleset.id}@"
                f"{event.ruleset.version}; {_plural(len(event.cards), 'card definition')}"
            )
        case OpeningHandDrawn():
            return (
                f"{event.player} draws an opening hand of "
                f"{_drawn(s, event.player, event.cards, viewer)}"
            )
        case DeckRevealed():
            return f"{event.player} reveals the salt of their deck commitment"
        case Conceded():
            return f"{event.player} concedes"
        case MatchWon():
            team = f" (team {event.team})" if event.team else ""
            return f"{event.winner}{team} wins the match: {event.victory.value.lower()} victory"
        case JudgeRulingIssued():
            return _ruling(event, s, viewer)
        case MatchSealed():
            return f"The record is sealed after {event.events} records"
        case RecordSigned():
            return f"{event.signer} signs the sealed record (key {event.key[:16]})"
        case MatchForked():
            name = f" ({event.name})" if event.name else ""
            return f"Forked from match {event.parent} at seq {event.at}{name}"
        case TurnStarted():
            return f"Turn {event.turn} begins: {event.player} is the active player"
        case PhaseStarted():
            return f"{PHASE_NAMES[event.phase]} begins"
        case StepStarted():
            return f"{STEP_NAMES[event.step]} begins"
        case PriorityPassed():
            return f"{event.player} passes priority"
        case TurnEnded():
            return f"Turn {event.turn} ends"
        case GoldProduced():
            return f"{event.player} produces {event.amount} gold"
        case SupplyChosen():
            return f"{event.player} chooses the supply of {SUPPLY_NAMES[event.option]}"
        case SupplyTaken():
            return _supply_taken(s, event, viewer)
        case Unslid():
            if not event.cards:
                return f"{event.player} has nothing to unslide"
            return f"{event.player} unslides {_cards(s, event.cards)}"
        case PropertyPlaced():
            return (
                f"{event.player} places {card_name(s, event.card)} in "
                f"{card_name(s, event.territory)} {_PLACEMENT[event.reason]}"
            )
        case DeploymentFinished():
            return f"{event.player} finishes deploying"
        case CostPaid():
            return _cost_paid(s, event)
        case CardSummoned():
            return _summoned(s, event)
        case SkillRegistered():
            target = f", targeting {card_name(s, event.target)}" if event.target else ""
            return (
                f"{event.player} registers skill {event.skill} of {card_name(s, event.card)} "
                f"as {event.object_id}{target}"
            )
        case SkillTriggered():
            return (
                f"Skill {event.skill} of {card_name(s, event.card)} triggers for {event.player} "
                f"as {event.object_id}"
            )
        case ObjectResulted():
            return _resulted(s, event, viewer)
        case AttackersEnteredBattle():
            if not event.followers:
                return f"{event.player} enters no attackers into battle"
            return f"{event.player} enters battle with {_cards(s, event.followers)}"
        case AttackDeclared():
            if not event.attacks:
                return f"{event.player} declares no attack"
            attacks = "; ".join(
                f"{card_name(s, a.follower)} attacks {card_name(s, a.target)}"
                for a in event.attacks
            )
            return f"{event.player} declares: {attacks}"
        case BlockersEnteredBattle():
            if not event.followers:
                return f"{event.player} enters no blockers into battle"
            return f"{event.player} enters battle to block with {_cards(s, event.followers)}"
        case BlocksAssigned():
            return _blocks(s, event)
        case FollowerDamageAssigned():
            if not event.allocations:
                return f"{event.player} assigns no damage"
            return f"{event.player} assigns damage: {_allocations(s, event.allocations)}"
        case CombatDamageRegistered():
            what = "Territory" if event.kind == ObjectKind.COMBAT_DAMAGE_TERRITORY else "Follower"
            return (
                f"{what} combat damage goes on the register as {event.object_id}: "
                f"{_allocations(s, event.allocations)}"
            )
        case FollowersDestroyed():
            return f"Followers destroyed: {_cards(s, event.cards)}"
        case TerritoriesDestroyed():
            return f"Territories destroyed: {_cards(s, event.cards)}"
        case VictoryPointGained():
            vp = s.player(event.player).vp + 1 if s.has_player(event.player) else None
            now = f" (now {vp})" if vp is not None else ""
            return (
                f"{event.player} gains a Victory Point{now}: {event.opponent} has no Territory left"
            )
        case BecameReturnHome():
            return f"Return Home (slid): {_cards(s, event.cards)}"
        case BecameStray():
            return f"Stray: {_cards(s, event.cards)}"
        case HandLimitDiscarded():
            return f"{event.player} discards to the hand limit: {_cards(s, event.cards)}"
        case TurnCleanedUp():
            return "Cleanup: all damage is removed and end-of-turn effects end"
        case _:
            assert_never(event)


def _ruling(event: JudgeRulingIssued, before: MatchState, viewer: str | None) -> str:
    match event.kind:
        case RulingKind.WARNING:
            what = "warning"
        case RulingKind.BACK_UP:
            what = f"back up to seq {event.back_to}"
        case RulingKind.PARTIAL_FIX:
            fixes = "; ".join(
                describe_effect(e, before, viewer=viewer) for e in event.corrections or ()
            )
            what = f"partial fix ({fixes})" if fixes else "partial fix"
        case RulingKind.GAME_LOSS:
            what = f"game loss for {event.loser}"
        case _:
            assert_never(event.kind)
    return f"Ruling by {event.judge}: {what}: {event.reason}"


def _supply_taken(s: MatchState, event: SupplyTaken, viewer: str | None) -> str:
    parts = []
    if event.cards:
        parts.append(_drawn(s, event.player, event.cards, viewer))
    if event.gold:
        parts.append(f"{event.gold} gold")
    if not parts:
        return f"{event.player} takes nothing from the supply"
    return f"{event.player} takes {' and '.join(parts)}"


def _cost_paid(s: MatchState, event: CostPaid) -> str:
    """What was paid, for what: gold, slid cards (R-SKL-2), both, or nothing.

    ``p1 pays 5 gold for X``, ``p2 pays by sliding Y for skill s1 of Y``,
    ``p2 pays 2 gold and slides Y for skill s1 of Y``, ``p2 pays nothing for X``.
    """
    if event.gold and event.slid:
        paid = f"{event.gold} gold and slides {_cards(s, event.slid)}"
    elif event.gold:
        paid = f"{event.gold} gold"
    elif event.slid:
        paid = f"by sliding {_cards(s, event.slid)}"
    else:
        paid = "nothing"
    what = card_name(s, event.card)
    if event.skill is not None:
        what = f"skill {event.skill} of {what}"
    return f"{event.player} pays {paid} for {what}"


def _summoned(s: MatchState, event: CardSummoned) -> str:
    text = f"{event.player} summons {card_name(s, event.card)}"
    cost = s.pending_cost
    if cost is not None and cost.card == event.card and cost.skill is None:
        text += f" for {cost.gold} gold"
    if event.territory is not None:
        text += f" into {card_name(s, event.territory)}"
    return f"{text} as {event.object_id}"


def _blocks(s: MatchState, event: BlocksAssigned) -> str:
    if not event.blocks:
        return f"{event.player} assigns no blocks"
    by_attacker: dict[str, list[str]] = {}
    for b in event.blocks:
        by_attacker.setdefault(b.attacker, []).append(b.blocker)
    blocks = "; ".join(
        f"{card_name(s, attacker)} with {' and '.join(card_name(s, b) for b in blockers)}"
        for attacker, blockers in by_attacker.items()
    )
    return f"{event.player} blocks {blocks}"


def _allocations(s: MatchState, allocations: Iterable[Any]) -> str:
    return "; ".join(
        f"{card_name(s, a.source)} {a.amount} to {card_name(s, a.recipient)}" for a in allocations
    )


def _object(s: MatchState, obj: RegisterObject) -> str:
    """What a register object is, for the line that says it results."""
    card = card_name(s, obj.card) if obj.card else None
    if obj.kind in (ObjectKind.SUMMON, ObjectKind.ACTION) and card is not None:
        return f"summon of {card}"
    if obj.skill is not None and card is not None:
        return f"skill {obj.skill} of {card}"
    if obj.kind == ObjectKind.COMBAT_DAMAGE_FOLLOWERS:
        return "Follower combat damage"
    if obj.kind == ObjectKind.COMBAT_DAMAGE_TERRITORY:
        return "Territory combat damage"
    return obj.kind.lower()


def _resulted(s: MatchState, event: ObjectResulted, viewer: str | None) -> str:
    obj = next((o for o in reversed(s.register) if o.id == event.object_id), None)
    parts: list[str] = []
    if obj is not None and obj.kind == ObjectKind.SUMMON and obj.card is not None:
        defn = s.cards.get(s.instances.get(obj.card, ""))
        name = card_name(s, obj.card)
        if defn is not None and defn.type == CardType.TERRITORY:
            parts.append(f"{name} enters play for {obj.controller}")
        elif defn is not None and defn.type == CardType.ACTION:
            parts.append(f"{name} takes effect")
        elif obj.territory is not None and obj.territory in s.permanents:
            parts.append(f"{name} enters play guarding {card_name(s, obj.territory)}")
        else:
            parts.append(f"{name} enters play as Stray")
    parts.extend(describe_effect(e, s, viewer=viewer) for e in event.effects)
    text = f"{event.object_id} results: {'; '.join(parts) if parts else 'no effect'}"
    if obj is not None and obj.kind != ObjectKind.SUMMON:
        text += f" [{_object(s, obj)}]"
    return text


def describe_effect(effect: Effect, before: MatchState, *, viewer: str | None = None) -> str:
    """One clause of English for an effect inside `ObjectResulted` (see `describe`)."""
    s = before
    match effect:
        case StatChanged():
            sign = "+" if effect.delta >= 0 else ""
            return (
                f"{card_name(s, effect.card)} gets {effect.stat.value} {sign}{effect.delta} "
                f"{_EXPIRY[effect.expires]}"
            )
        case GoldChanged():
            verb = "gains" if effect.delta >= 0 else "loses"
            return f"{effect.player} {verb} {abs(effect.delta)} gold"
        case HonorChanged():
            verb = "gains" if effect.delta >= 0 else "loses"
            return f"{effect.player} {verb} {abs(effect.delta)} honor"
        case CardsDrawn():
            return f"{effect.player} draws {_drawn(s, effect.player, effect.cards, viewer)}"
        case CardMoved():
            where = (
                "" if effect.from_zone in (None, Zone.PLAY) else f" from {_FROM[effect.from_zone]}"
            )
            end = " (bottom)" if effect.bottom and effect.to_zone == Zone.FATE_DECK else ""
            return f"{card_name(s, effect.card)} moves{where} {_ZONE[effect.to_zone]}{end}"
        case DeckReordered():
            return (
                f"{effect.player} puts the top {len(effect.cards)} cards of their Fate Deck "
                "back in another order"
            )
        case DamageDealt():
            return (
                f"{card_name(s, effect.source)} deals {effect.amount} damage to "
                f"{card_name(s, effect.recipient)}"
            )
        case StatusChanged():
            return f"{card_name(s, effect.card)} is {'slid' if effect.slid else 'unslid'}"
        case _:
            assert_never(effect)


__all__ = [
    "PHASE_NAMES",
    "STEP_NAMES",
    "SUPPLY_NAMES",
    "BoardView",
    "CardView",
    "PlayerView",
    "PropertyView",
    "RegisterObjectView",
    "TerritoryView",
    "board_view",
    "card_name",
    "describe",
    "describe_effect",
    "state_json",
]
