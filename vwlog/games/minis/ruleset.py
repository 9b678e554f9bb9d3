"""The miniatures ruleset: the open questions of the activation-sequence rules (MIN-OQ-1..15),
one flag each.

Every flag's first reading is its default. A verdict that rests on a flag names it
(`vwlog.model.violation.Violation.flag`). Three readings the digest lists are not offered:
``upkeep_scope=ACTIVE_PLAYER_ONLY`` and ``aoo_cost=FREE`` contradict the seed (the Reactive
Player's models react by spending AP, and an Attack of Opportunity is a Reaction), and
``geometry=CHECKED`` / ``dice=COMMITTED`` need data the fragment does not define (positions,
terrain, a dice commitment); those flags keep their one reading so a ruleset names it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class MinisRuleset(BaseModel):
    """How the activation-sequence rules read where the text leaves a choice."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str = "minis-activation"
    version: int = 1
    active_rotation: Literal["SEAT_ORDER", "AS_LOGGED"] = "SEAT_ORDER"
    """MIN-OQ-1: with three or more players, the Active Role passes in seat order from the
    round's 1st Player (``SEAT_ORDER``), or to any player not yet Active this round."""
    first_player_each_round: Literal["FIXED", "REDETERMINED"] = "FIXED"
    """MIN-OQ-2: the 1st Player is the same every round (``FIXED``, the match's), or each
    round names its own (``REDETERMINED``, recorded in ``round_started``)."""
    upkeep_scope: Literal["ALL_PLAYERS_EVERY_TURN"] = "ALL_PLAYERS_EVERY_TURN"
    """MIN-OQ-3: every player's models get AP in every Upkeep (the only valid reading)."""
    ap_allotment: Literal["SET", "ADD"] = "SET"
    """MIN-OQ-4: Upkeep sets a model's AP to its Stamina (``SET``) or adds its Stamina."""
    activations_per_turn: Literal["WHILE_AP", "ONCE"] = "WHILE_AP"
    """MIN-OQ-5: a model may be activated again while it has AP, or once per turn."""
    eligible_for_upkeep: Literal["IN_PLAY", "AS_LOGGED"] = "IN_PLAY"
    """MIN-OQ-5: Upkeep gives AP to every model in play, or to the models the log lists."""
    strategic_declarers: Literal["ACTIVE_PLAYER_MODELS", "ALL_MODELS"] = "ACTIVE_PLAYER_MODELS"
    """MIN-OQ-6: who declares in the Strategic Phase: the Active Player's models, or any."""
    leader_stratagem_phase: Literal["OWN", "ANY"] = "OWN"
    """MIN-OQ-7: a Leader's Stratagems in its own player's Strategic Phase only, or in any."""
    movement_required: Literal["MUST_DECLARE", "MAY_SKIP"] = "MUST_DECLARE"
    """MIN-OQ-8: the activated model declares Normal or Special Movement (``MUST_DECLARE``),
    or may declare none (``MAY_SKIP``, a movement of kind ``NONE``)."""
    geometry: Literal["CLAIMED"] = "CLAIMED"
    """MIN-OQ-9: line of sight, Reach and "approaching" are claims the log makes, listed and
    counted as trusted (checking them needs positions the fragment does not define)."""
    dice: Literal["LOGGED"] = "LOGGED"
    """MIN-OQ-10: each roll is a chance event with its results; the validator checks who rolls,
    for what, and in which order, never what the dice show."""
    aoo_cost: Literal["ONE_AP"] = "ONE_AP"
    """MIN-OQ-11: an Attack of Opportunity costs the reacting model one AP (the only valid
    reading: it is a Reaction)."""
    declaration_change_cost: Literal["FREE", "ONE_AP"] = "FREE"
    """MIN-OQ-12: changing a Dodge or Perceive to an Attack (MIN-REA-7) is free, or costs an AP."""
    reaction_declaration_order: Literal["SEAT_ORDER_FROM_ACTIVE", "SIMULTANEOUS"] = (
        "SEAT_ORDER_FROM_ACTIVE"
    )
    """MIN-OQ-13: with several Reactive players, they declare in seat order after the Active
    Player, or in any order (each once)."""
    end_phase_effects: Literal["AS_LOGGED"] = "AS_LOGGED"
    """MIN-OQ-14: the End Phase's "applicable effects" are not named by the fragment."""
    confrontation: Literal["OPAQUE"] = "OPAQUE"
    """MIN-OQ-14: a Confrontation is a named group of rolls, ordered by MIN-RES-1."""
    match_end: Literal["RECORDED", "AFTER_ROUNDS"] = "RECORDED"
    """MIN-OQ-15: the organiser records the end between rounds (``RECORDED``), or the match
    ends after ``rounds`` rounds."""
    rounds: int = Field(default=4, ge=1, le=1000)
    """The number of rounds under ``match_end=AFTER_ROUNDS``."""


DEFAULT_RULESET = MinisRuleset()
"""The ruleset a match is judged under when it names none."""

ALTERNATIVES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("active_rotation", ("SEAT_ORDER", "AS_LOGGED")),
    ("first_player_each_round", ("FIXED", "REDETERMINED")),
    ("ap_allotment", ("SET", "ADD")),
    ("activations_per_turn", ("WHILE_AP", "ONCE")),
    ("eligible_for_upkeep", ("IN_PLAY", "AS_LOGGED")),
    ("strategic_declarers", ("ACTIVE_PLAYER_MODELS", "ALL_MODELS")),
    ("leader_stratagem_phase", ("OWN", "ANY")),
    ("movement_required", ("MUST_DECLARE", "MAY_SKIP")),
    ("declaration_change_cost", ("FREE", "ONE_AP")),
    ("reaction_declaration_order", ("SEAT_ORDER_FROM_ACTIVE", "SIMULTANEOUS")),
    ("match_end", ("RECORDED", "AFTER_ROUNDS")),
)
"""The flags with more than one reading, and their readings."""

__all__ = ["ALTERNATIVES", "DEFAULT_RULESET", "MinisRuleset"]
