"""The Preparation and Deploy Phases: the Supply choice, Property placements and the end of
deploying."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events import DeploymentFinished, PropertyPlaced, SupplyChosen
from vwlog.model.types import Phase, PlacementReason
from vwlog.rules.checks.base import Violations
from vwlog.rules.common import card_name, is_follower, room, uses_capacity, violation
from vwlog.rules.flow import DecisionKind, Expect

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState


def is_first_supply(ruleset: Ruleset, state: MatchState, player: str) -> bool:
    """Whether this Supply step is reduced: the match's first turn, and by the ruleset also the
    other players' first turns (R-SUP-3, OQ-11)."""
    if state.turn == 1:
        return True
    return ruleset.second_player_first_supply_reduced and state.turn <= len(state.players)


def check_deployment_finished(
    ruleset: Ruleset, state: MatchState, event: DeploymentFinished
) -> Violations:
    """In the Unslide step, Return Home and Stray cards are put into Territories with remaining
    capacity before deploying ends; only those that cannot be placed stay (R-UNS-2, R-UNS-4)."""
    if state.phase != Phase.PREP:
        return ()
    rooms = {t.id: room(ruleset, state, t.id) for t in state.territories(event.player)}
    for c in state.permanents.values():
        if c.controller != event.player or c.where not in ("RETURN_HOME", "STRAY"):
            continue
        if not uses_capacity(ruleset, state, c.id) or any(n > 0 for n in rooms.values()):
            return (
                violation(
                    "R-UNS-2",
                    "{card} ({where}) must be put into a Territory with remaining capacity before "
                    "deploying ends",
                    card=card_name(state, c.id),
                    where=c.where.lower().replace("_", " "),
                ),
            )
    return ()


def check_supply(ruleset: Ruleset, state: MatchState, event: SupplyChosen) -> Violations:
    first = is_first_supply(ruleset, state, event.player)
    if first and not event.option.is_first_turn:
        return (
            violation(
                "R-SUP-3",
                "on the match's first turn the supply is 1 gold or 1 card, not {option}",
                option=event.option,
                flag="second_player_first_supply_reduced" if state.turn > 1 else None,
            ),
        )
    if not first and event.option.is_first_turn and state.turn <= len(state.players):
        return (
            violation(
                "R-SET-2",
                "only the player taking the match's first turn gets a reduced Supply; {player} "
                "takes a full package",
                player=event.player,
            ),
        )
    if not first and event.option.is_first_turn:
        return (
            violation(
                "R-SUP-1",
                "{option} is a first-turn package; take 2 cards, 2 gold or 1 of each",
                option=event.option,
            ),
        )
    return ()


def check_placement(
    ruleset: Ruleset, state: MatchState, exp: Expect, event: PropertyPlaced
) -> Violations:
    card = state.permanents.get(event.card)
    terr = state.permanents.get(event.territory)
    if card is None or card.controller != event.player or card.where == "TERRITORY":
        return (
            violation(
                "R-CARD-9",
                "{card} is not Property of {player} in play",
                card=card_name(state, event.card),
                player=event.player,
            ),
        )
    if terr is None or terr.where != "TERRITORY" or terr.controller != event.player:
        return (
            violation(
                "R-DEP-1",
                "{territory} is not a Territory of {player}",
                territory=card_name(state, event.territory),
                player=event.player,
            ),
        )
    if exp.kind == DecisionKind.STRAY:
        if card.where != "STRAY":
            return (
                violation(
                    "R-MAIN-6",
                    "only Stray Property may be deployed into the new "
                    "Territory, and it must be first",
                ),
            )
        if event.territory != state.stray_territory:
            return (
                violation(
                    "R-MAIN-6", "Stray Property must go into the newly arrived Territory only"
                ),
            )
        if event.reason != PlacementReason.NEW_TERRITORY_STRAY:
            return (violation("R-MAIN-6", "the placement reason must be NEW_TERRITORY_STRAY"),)
    elif state.phase == Phase.PREP:
        if event.reason != PlacementReason.UNSLIDE_STEP:
            return (
                violation("R-UNS-3", "placements in the Unslide step have reason UNSLIDE_STEP"),
            )
        if card.where == "GUARD" and card.territory == event.territory:
            return (
                violation("R-UNS-3", "{card} already guards there", card=card_name(state, card.id)),
            )
    else:
        if event.reason != PlacementReason.DEPLOY_PHASE:
            return (
                violation("R-DEP-1", "placements in the Deploy Phase have reason DEPLOY_PHASE"),
            )
        if card.where != "GUARD":
            return (
                violation(
                    "R-DEP-1",
                    "the Deploy Phase moves Property between Territories; {card} guards none",
                    card=card_name(state, card.id),
                ),
            )
        if card.territory == event.territory:
            return (
                violation("R-DEP-1", "{card} already guards there", card=card_name(state, card.id)),
            )
    if uses_capacity(ruleset, state, card.id) and room(ruleset, state, event.territory) <= 0:
        rule = "R-DEP-2" if state.phase == Phase.DEPLOY else "R-UNS-2"
        return (
            violation(
                rule,
                "{territory} has no remaining capacity",
                territory=card_name(state, event.territory),
                flag="relics_use_capacity" if not is_follower(state, card.id) else None,
            ),
        )
    return ()


__all__ = ["check_deployment_finished", "check_placement", "check_supply", "is_first_supply"]
