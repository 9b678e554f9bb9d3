"""Events and boards for people and programs: one-line descriptions and the board as JSON
(the board's models live in `vwlog.games.vw.boardview`, re-exported here).

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

from vwlog import events as ev
from vwlog.events.core import core_said
from vwlog.games.common import ruleset_label
from vwlog.games.vw.boardview import (
    BoardView,
    CardView,
    PlayerView,
    PropertyView,
    RegisterObjectView,
    TerritoryView,
    board_view,
    state_json,
)
from vwlog.games.vw.phrases import (
    PLACEMENT_TEXTS,
    STEP_NAMES,
    STEP_TEXTS,
    SUPPLY_NAMES,
    SUPPLY_TEXTS,
    card_name,
    cards_text,
    describe_effect,
    description_of_effect,
    drawn,
    joined_and,
)
from vwlog.model.text import Msg, joined_commas, joined_semicolons, msg
from vwlog.model.types import CardType, ObjectKind, Phase, RulingKind

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.model.state import MatchState, RegisterObject

# -- names -----------------------------------------------------------------------------------

PHASE_NAMES: dict[Phase, Msg] = {
    Phase.PREP: msg("Preparation Phase"),
    Phase.MAIN1: msg("Main Phase 1"),
    Phase.COMBAT: msg("Combat Phase"),
    Phase.MAIN2: msg("Main Phase 2"),
    Phase.DEPLOY: msg("Deploy Phase"),
    Phase.END: msg("End Phase"),
}
"""How descriptions name each phase (``str`` of each is its English name; the seed's own
names, such as *Main Phase I*, are the catalogs')."""

# -- events ----------------------------------------------------------------------------------


def describe(event: ev.AnyEvent, before: MatchState, *, viewer: str | None = None) -> str:
    """One line of English for ``event``, read against the board ``before`` it.

    Cards are named ``Name (instance id)``. With ``viewer``, cards going into another player's
    hand (opening hands, supply, draws) are counted, not named, so a description never tells a
    player more than they could know. `description` gives the same line as a `Msg`, for the
    render layer to say in another language.

    >>> from vwlog.events import PriorityPassed
    >>> from vwlog.projections import INITIAL
    >>> describe(PriorityPassed(player="p1"), INITIAL)
    'p1 passes priority'
    """
    return str(description(event, before, viewer=viewer))


def description(event: ev.AnyEvent, before: MatchState, *, viewer: str | None = None) -> Msg:
    """`describe`'s line as a template and its values (`vwlog.model.text.Msg`)."""
    s = before
    match event:
        case ev.MatchStarted():
            return _started(event)
        case ev.OpeningHandDrawn():
            return msg(
                "{player} draws an opening hand of {cards}",
                player=event.player,
                cards=drawn(s, event.player, event.cards, viewer),
            )
        case ev.DeckRevealed():
            return msg("{player} reveals the salt of their deck commitment", player=event.player)
        case ev.Conceded():
            return msg("{player} concedes", player=event.player)
        case ev.MatchWon():
            victory = event.victory.value.lower()
            if event.team:
                return msg(
                    "{winner} (team {team}) wins the match: {victory} victory",
                    winner=event.winner,
                    team=event.team,
                    victory=victory,
                )
            return msg(
                "{winner} wins the match: {victory} victory", winner=event.winner, victory=victory
            )
        case ev.JudgeRulingIssued():
            return _ruling(event, s, viewer)
        case ev.MatchSealed() | ev.RecordSigned() | ev.MatchForked():
            return core_said(event)
        case ev.TurnStarted():
            return msg(
                "Turn {turn} begins: {player} is the active player",
                turn=event.turn,
                player=event.player,
            )
        case ev.PhaseStarted():
            return msg("{phase} begins", phase=PHASE_NAMES[event.phase])
        case ev.StepStarted():
            return msg("{step} begins", step=STEP_TEXTS[event.step])
        case ev.PriorityPassed():
            return msg("{player} passes priority", player=event.player)
        case ev.TurnEnded():
            return msg("Turn {turn} ends", turn=event.turn)
        case ev.GoldProduced():
            return msg("{player} produces {amount} gold", player=event.player, amount=event.amount)
        case ev.SupplyChosen():
            return msg(
                "{player} chooses the supply of {supply}",
                player=event.player,
                supply=SUPPLY_TEXTS[event.option],
            )
        case ev.SupplyTaken():
            return _supply_taken(s, event, viewer)
        case ev.Unslid():
            if not event.cards:
                return msg("{player} has nothing to unslide", player=event.player)
            return msg(
                "{player} unslides {cards}", player=event.player, cards=cards_text(s, event.cards)
            )
        case ev.PropertyPlaced():
            return msg(
                "{player} places {card} in {territory} {reason}",
                player=event.player,
                card=card_name(s, event.card),
                territory=card_name(s, event.territory),
                reason=PLACEMENT_TEXTS[event.reason],
            )
        case ev.DeploymentFinished():
            return msg("{player} finishes deploying", player=event.player)
        case ev.CostPaid():
            return _cost_paid(s, event)
        case ev.CardSummoned():
            return _summoned(s, event)
        case ev.SkillRegistered():
            if event.target:
                return msg(
                    "{player} registers skill {skill} of {card} as {object}, targeting {target}",
                    player=event.player,
                    skill=event.skill,
                    card=card_name(s, event.card),
                    object=event.object_id,
                    target=card_name(s, event.target),
                )
            return msg(
                "{player} registers skill {skill} of {card} as {object}",
                player=event.player,
                skill=event.skill,
                card=card_name(s, event.card),
                object=event.object_id,
            )
        case ev.SkillTriggered():
            return msg(
                "Skill {skill} of {card} triggers for {player} as {object}",
                skill=event.skill,
                card=card_name(s, event.card),
                player=event.player,
                object=event.object_id,
            )
        case ev.ObjectResulted():
            return _resulted(s, event, viewer)
        case ev.AttackersEnteredBattle():
            if not event.followers:
                return msg("{player} enters no attackers into battle", player=event.player)
            return msg(
                "{player} enters battle with {cards}",
                player=event.player,
                cards=cards_text(s, event.followers),
            )
        case ev.AttackDeclared():
            return _attacks(s, event)
        case ev.BlockersEnteredBattle():
            if not event.followers:
                return msg("{player} enters no blockers into battle", player=event.player)
            return msg(
                "{player} enters battle to block with {cards}",
                player=event.player,
                cards=cards_text(s, event.followers),
            )
        case ev.BlocksAssigned():
            return _blocks(s, event)
        case ev.FollowerDamageAssigned():
            if not event.allocations:
                return msg("{player} assigns no damage", player=event.player)
            return msg(
                "{player} assigns damage: {allocations}",
                player=event.player,
                allocations=_allocations(s, event.allocations),
            )
        case ev.CombatDamageRegistered():
            allocations = _allocations(s, event.allocations)
            if event.kind == ObjectKind.COMBAT_DAMAGE_TERRITORY:
                return msg(
                    "Territory combat damage goes on the register as {object}: {allocations}",
                    object=event.object_id,
                    allocations=allocations,
                )
            return msg(
                "Follower combat damage goes on the register as {object}: {allocations}",
                object=event.object_id,
                allocations=allocations,
            )
        case ev.FollowersDestroyed():
            return msg("Followers destroyed: {cards}", cards=cards_text(s, event.cards))
        case ev.TerritoriesDestroyed():
            return msg("Territories destroyed: {cards}", cards=cards_text(s, event.cards))
        case ev.VictoryPointGained():
            if s.has_player(event.player):
                return msg(
                    "{player} gains a Victory Point (now {vp}): {opponent} has no Territory left",
                    player=event.player,
                    vp=s.player(event.player).vp + 1,
                    opponent=event.opponent,
                )
            return msg(
                "{player} gains a Victory Point: {opponent} has no Territory left",
                player=event.player,
                opponent=event.opponent,
            )
        case ev.BecameReturnHome():
            return msg("Return Home (slid): {cards}", cards=cards_text(s, event.cards))
        case ev.BecameStray():
            return msg("Stray: {cards}", cards=cards_text(s, event.cards))
        case ev.HandLimitDiscarded():
            return msg(
                "{player} discards to the hand limit: {cards}",
                player=event.player,
                cards=cards_text(s, event.cards),
            )
        case ev.TurnCleanedUp():
            return msg("Cleanup: all damage is removed and end-of-turn effects end")
        case _:
            assert_never(event)


def _started(event: ev.MatchStarted) -> Msg:
    seats = []
    for seat in event.seats:
        text = seat.player + (f" ({seat.name})" if seat.name else "")
        seats.append(msg("{seat} [team {team}]", seat=text, team=seat.team) if seat.team else text)
    joined = joined_commas(seats)
    n = len(event.cards)
    started = msg(
        "Match starts ({format}): {seats}; {first} goes first; ruleset {ruleset}; {cards}",
        format=event.format.value.lower().replace("_", " "),
        seats=joined,
        first=event.first_player,
        ruleset=ruleset_label(event.ruleset),
        cards=msg("1 card definition") if n == 1 else msg("{n} card definitions", n=n),
    )
    if event.shuffle == "seeded":
        return msg(
            "{started}; decks shuffled from seed {seed}: reproducible, not secret",
            started=started,
            seed=str(event.seed),
        )
    if event.shuffle == "secret":
        return msg(
            "{started}; decks shuffled in secret, each order committed ({commitments})",
            started=started,
            commitments=", ".join(
                f"{s.player} {s.deck_commitment}" for s in event.seats if s.deck_commitment
            ),
        )
    return started


def _ruling(event: ev.JudgeRulingIssued, before: MatchState, viewer: str | None) -> Msg:
    what: Msg
    match event.kind:
        case RulingKind.WARNING:
            what = msg("warning")
        case RulingKind.BACK_UP:
            what = msg("back up to seq {seq}", seq=event.back_to)
        case RulingKind.PARTIAL_FIX:
            fixes = [
                description_of_effect(e, before, viewer=viewer) for e in event.corrections or ()
            ]
            what = (
                msg("partial fix ({fixes})", fixes=joined_semicolons(fixes))
                if fixes
                else msg("partial fix")
            )
        case RulingKind.GAME_LOSS:
            what = msg("game loss for {loser}", loser=event.loser)
        case _:
            assert_never(event.kind)
    return msg(
        "Ruling by {judge}: {what}: {reason}", judge=event.judge, what=what, reason=event.reason
    )


def _supply_taken(s: MatchState, event: ev.SupplyTaken, viewer: str | None) -> Msg:
    parts: list[Msg | str] = []
    if event.cards:
        parts.append(drawn(s, event.player, event.cards, viewer))
    if event.gold:
        parts.append(msg("{gold} gold", gold=event.gold))
    if not parts:
        return msg("{player} takes nothing from the supply", player=event.player)
    return msg("{player} takes {what}", player=event.player, what=joined_and(parts))


def _cost_paid(s: MatchState, event: ev.CostPaid) -> Msg:
    """What was paid, for what: gold, slid cards (R-SKL-2), both, or nothing.

    ``p1 pays 5 gold for X``, ``p2 pays by sliding Y for skill s1 of Y``,
    ``p2 pays 2 gold and slides Y for skill s1 of Y``, ``p2 pays nothing for X``.
    """
    paid: Msg
    if event.gold and event.slid:
        paid = msg(
            "{gold} gold and slides {cards}", gold=event.gold, cards=cards_text(s, event.slid)
        )
    elif event.gold:
        paid = msg("{gold} gold", gold=event.gold)
    elif event.slid:
        paid = msg("by sliding {cards}", cards=cards_text(s, event.slid))
    else:
        paid = msg("nothing")
    what: Msg | str = card_name(s, event.card)
    if event.skill is not None:
        what = msg("skill {skill} of {card}", skill=event.skill, card=what)
    return msg("{player} pays {paid} for {what}", player=event.player, paid=paid, what=what)


def _summoned(s: MatchState, event: ev.CardSummoned) -> Msg:
    text = msg("{player} summons {card}", player=event.player, card=card_name(s, event.card))
    cost = s.pending_cost
    if cost is not None and cost.card == event.card and cost.skill is None:
        text = msg("{summon} for {gold} gold", summon=text, gold=cost.gold)
    if event.territory is not None:
        text = msg(
            "{summon} into {territory}", summon=text, territory=card_name(s, event.territory)
        )
    return msg("{summon} as {object}", summon=text, object=event.object_id)


def _attacks(s: MatchState, event: ev.AttackDeclared) -> Msg:
    if not event.attacks:
        return msg("{player} declares no attack", player=event.player)
    attacks = joined_semicolons(
        [
            msg(
                "{follower} attacks {target}",
                follower=card_name(s, a.follower),
                target=card_name(s, a.target),
            )
            for a in event.attacks
        ]
    )
    return msg("{player} declares: {attacks}", player=event.player, attacks=attacks)


def _blocks(s: MatchState, event: ev.BlocksAssigned) -> Msg:
    if not event.blocks:
        return msg("{player} assigns no blocks", player=event.player)
    by_attacker: dict[str, list[str]] = {}
    for b in event.blocks:
        by_attacker.setdefault(b.attacker, []).append(b.blocker)
    blocks = joined_semicolons(
        [
            msg(
                "{attacker} with {blockers}",
                attacker=card_name(s, attacker),
                blockers=joined_and([card_name(s, b) for b in blockers]),
            )
            for attacker, blockers in by_attacker.items()
        ]
    )
    return msg("{player} blocks {blocks}", player=event.player, blocks=blocks)


def _allocations(s: MatchState, allocations: Iterable[Any]) -> Msg | str:
    return joined_semicolons(
        [
            msg(
                "{source} {amount} to {recipient}",
                source=card_name(s, a.source),
                amount=a.amount,
                recipient=card_name(s, a.recipient),
            )
            for a in allocations
        ]
    )


def _object(s: MatchState, obj: RegisterObject) -> Msg | str:
    """What a register object is, for the line that says it results."""
    card = card_name(s, obj.card) if obj.card else None
    if obj.kind in (ObjectKind.SUMMON, ObjectKind.ACTION) and card is not None:
        return msg("summon of {card}", card=card)
    if obj.skill is not None and card is not None:
        return msg("skill {skill} of {card}", skill=obj.skill, card=card)
    if obj.kind == ObjectKind.COMBAT_DAMAGE_FOLLOWERS:
        return msg("Follower combat damage")
    if obj.kind == ObjectKind.COMBAT_DAMAGE_TERRITORY:
        return msg("Territory combat damage")
    return obj.kind.lower()


def _entered(s: MatchState, obj: RegisterObject, card: str) -> Msg:
    """What a summon that results does: enters play (where), or takes effect."""
    defn = s.cards.get(s.instances.get(card, ""))
    name = card_name(s, card)
    if defn is not None and defn.type == CardType.TERRITORY:
        return msg("{card} enters play for {player}", card=name, player=obj.controller)
    if defn is not None and defn.type == CardType.ACTION:
        return msg("{card} takes effect", card=name)
    if obj.territory is not None and obj.territory in s.permanents:
        return msg(
            "{card} enters play guarding {territory}",
            card=name,
            territory=card_name(s, obj.territory),
        )
    return msg("{card} enters play as Stray", card=name)


def _resulted(s: MatchState, event: ev.ObjectResulted, viewer: str | None) -> Msg:
    obj = next((o for o in reversed(s.register) if o.id == event.object_id), None)
    parts: list[Msg] = []
    if obj is not None and obj.kind == ObjectKind.SUMMON and obj.card is not None:
        parts.append(_entered(s, obj, obj.card))
    parts.extend(description_of_effect(e, s, viewer=viewer) for e in event.effects)
    what = joined_semicolons(parts) if parts else msg("no effect")
    text = msg("{object} results: {what}", object=event.object_id, what=what)
    if obj is not None and obj.kind != ObjectKind.SUMMON:
        text = msg("{result} [{kind}]", result=text, kind=_object(s, obj))
    return text


__all__ = [
    "PHASE_NAMES",
    "STEP_NAMES",
    "STEP_TEXTS",
    "SUPPLY_NAMES",
    "SUPPLY_TEXTS",
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
    "description",
    "description_of_effect",
    "state_json",
]
