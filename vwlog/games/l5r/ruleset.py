"""The L5R ruleset: the open questions of the battle rules (L5R-OQ-2..14), one flag each.

Every flag's first reading is its default. A verdict that rests on a flag names it
(`vwlog.model.violation.Violation.flag`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class L5rRuleset(BaseModel):
    """How the battle rules read where the text leaves a choice."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str = "l5r-battle"
    version: int = 1
    personality_limit_scope: Literal["TURN", "ROUND"] = "TURN"
    """L5R-OQ-2: a Personality takes part in one Resolution per turn (``TURN``) or per round
    (``ROUND``, a round being two turns: turns 1-2, 3-4, ...)."""
    personality_participation: Literal["IN_ARMY", "COUNTED"] = "IN_ARMY"
    """L5R-OQ-3: who took part in a Resolution: every Personality in either army when it
    starts (``IN_ARMY``), or only the unbowed ones whose Force was counted (``COUNTED``)."""
    resolution_limit_applies_to: Literal["PERSONALITY", "ALL_UNITS"] = "PERSONALITY"
    """L5R-OQ-4: the once-per-turn limit binds Personalities only, or Followers too."""
    bring_in_exemption: Literal["WHOLE_ACTION", "BROUGHT_UNIT_ONLY"] = "WHOLE_ACTION"
    """L5R-OQ-5: an action that can bring a unit into the battle ignores the presence and
    location rules for its source and every target (``WHOLE_ACTION``), or only the units it
    brings in may be away from the battlefield (``BROUGHT_UNIT_ONLY``)."""
    tie_honor_multiplier: Literal[1, 2] = 1
    """L5R-OQ-6: honor per destroyed card on a tie."""
    army_cards: Literal["UNITS_AND_ATTACHMENTS", "UNITS_ONLY"] = "UNITS_AND_ATTACHMENTS"
    """L5R-OQ-7: which destroyed cards count for honor (attachments always leave play with
    their unit)."""
    province_counts_for_honor: bool = False
    """L5R-OQ-8: a destroyed Province counts as one more destroyed card for honor."""
    zero_tie_with_units: Literal["TIE", "NO_OUTCOME"] = "TIE"
    """L5R-OQ-9: both sides have units and both Forces are 0: an ordinary tie, or no
    outcome."""
    attackers_home_timing: Literal["AFTER_RESOLUTION_END", "LAST_RESOLUTION_EFFECT"] = (
        "AFTER_RESOLUTION_END"
    )
    """L5R-OQ-10: ``attackers_sent_home`` follows ``resolution_ended``, or precedes it."""
    battles_owed: Literal["EVERY_ASSIGNED_BATTLEFIELD", "AS_CHOSEN"] = "EVERY_ASSIGNED_BATTLEFIELD"
    """L5R-OQ-11: the Attack phase owes a battle at each battlefield where the attacker
    assigned a unit, or only the battles the log chooses."""
    battlefield_chooser: Literal["ATTACKER", "DEFENDER", "AS_LOGGED"] = "ATTACKER"
    """L5R-OQ-12: who chooses the battlefield of the next battle of the Attack phase."""
    force_read_at: Literal["RESOLUTION_START", "EACH_STEP"] = "RESOLUTION_START"
    """L5R-OQ-13: when Force and Province strength are read. No event of this log changes
    them inside a Resolution, so both readings give the same verdicts."""
    effect_battle_roles: Literal["AS_NAMED_BY_EFFECT", "CONTROLLER_ATTACKS"] = "AS_NAMED_BY_EFFECT"
    """L5R-OQ-14: in a battle an effect creates outside the Attack phase, the log names the
    attacker (either player), or the player who chose the battlefield attacks."""


DEFAULT_RULESET = L5rRuleset()
"""The ruleset a match is judged under when it names none."""

__all__ = ["DEFAULT_RULESET", "L5rRuleset"]
