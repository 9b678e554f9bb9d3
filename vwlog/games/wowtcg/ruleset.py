"""The WoW TCG ruleset: the hand size and one flag per open question of the seed (WOW-OQ-n).

Each flag's first value is the default; a violation whose verdict rests on a flag names it
(`vwlog.model.violation.Violation.flag`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["FLAGS", "WowRuleset"]


class WowRuleset(BaseModel):
    """How a WoW TCG match is judged where the seed is silent."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str = "wowtcg"
    version: int = 1
    cr_version: Annotated[str, Field(max_length=64)] = "unknown"
    """WOW-OQ-14: the edition of the Comprehensive Rules the seed translates (free text)."""
    max_hand_size: Annotated[int, Field(ge=0, le=1000)] = 7
    """WOW-END-4: «Максимальный по умолчанию размер руки составляет семь карт.»"""
    action_phase_all_pass: Literal["ENDS", "UNJUDGED"] = "ENDS"
    """WOW-OQ-1 (502.2 is cut off): ``ENDS`` — the action phase ends and the end phase begins;
    ``UNJUDGED`` — nothing after such a window close is judged."""
    chain_resolution: Literal[
        "TOP_LINK_THEN_CURRENT", "TOP_LINK_THEN_CONTROLLER", "WHOLE_CHAIN"
    ] = "TOP_LINK_THEN_CURRENT"
    """WOW-OQ-2: all players passed with links on the chain: the top link resolves and the
    current player receives priority in the same window; or the resolved link's controller
    does; or every link resolves, top first, then the current player receives priority."""
    priority_after_link: Literal["ADDER", "NEXT_PLAYER"] = "ADDER"
    """WOW-OQ-3: who holds priority after a link is added: its adder, or the next player
    clockwise."""
    extra_turn_order: Literal["CREATED_FIRST_FIRST", "CREATED_LAST_FIRST"] = "CREATED_FIRST_FIRST"
    """WOW-OQ-4: the order of several extra turns created during one turn (the seed states
    the default: «тот, который был ранее, наступает первым»)."""
    skip_consumes_extra_turn: Literal["YES", "NO"] = "YES"
    """WOW-OQ-5: whether a skip replaces the player's next turn even when it is an extra one
    (``NO``: skips replace only his regular turns)."""
    first_turn_draw_step: Literal["STEP_SKIPPED", "DRAW_ONLY"] = "STEP_SKIPPED"
    """WOW-OQ-6: the first player's first turn has no draw step at all, or the step and its
    window without the draw."""
    inspire_source: Literal["ANY_CHARACTER", "ALLY_ONLY"] = "ANY_CHARACTER"
    """WOW-OQ-7: which cards may be Inspire sources: any character (hero or ally), or allies
    only. (The digest's ``inspire_limit`` is no flag: the seed's example fixes one card per
    source, `vwlog.games.wowtcg.catalog.SEED_WINS`.)"""
    final_step_triggers_added: Literal["AT_READY_WINDOW", "AT_READY_STEP_START"] = "AT_READY_WINDOW"
    """WOW-OQ-8: effects that triggered in the final step go onto the chain when the next
    ready step's window opens, or as that ready step begins, before the readying."""
    start_triggers_wait_for: Literal["READY_WINDOW", "NEVER_ADDED"] = "READY_WINDOW"
    """WOW-OQ-9: effects that trigger as a turn or its start phase begins go onto the chain
    at the ready step's window, or never."""
    main_actions_need_priority: Literal["YES", "NO"] = "YES"
    """WOW-OQ-10: whether playing a non-instant card, placing a resource and declaring combat
    need priority besides an empty chain."""
    resources_per_turn: Annotated[int, Field(ge=1, le=1000)] | None = 1
    """WOW-OQ-11: resources a player may place per turn (``null``: no limit)."""
    combat_model: Literal["OPAQUE", "TWO_WINDOWS"] = "OPAQUE"
    """WOW-OQ-12: a combat step is recorded from ``step_started(COMBAT)`` to
    ``combat_step_ended`` with nothing inside judged, or it holds two priority windows
    (attacker's, then defender's)."""
    empty_deck_draw: Literal["NOTHING", "LOSES"] = "NOTHING"
    """WOW-OQ-13: a player who must draw from an empty deck draws nothing, or loses."""


FLAGS: dict[str, str] = {
    "action_phase_all_pass": "WOW-OQ-1",
    "chain_resolution": "WOW-OQ-2",
    "priority_after_link": "WOW-OQ-3",
    "extra_turn_order": "WOW-OQ-4",
    "skip_consumes_extra_turn": "WOW-OQ-5",
    "first_turn_draw_step": "WOW-OQ-6",
    "inspire_source": "WOW-OQ-7",
    "final_step_triggers_added": "WOW-OQ-8",
    "start_triggers_wait_for": "WOW-OQ-9",
    "main_actions_need_priority": "WOW-OQ-10",
    "resources_per_turn": "WOW-OQ-11",
    "combat_model": "WOW-OQ-12",
    "empty_deck_draw": "WOW-OQ-13",
    "cr_version": "WOW-OQ-14",
}
"""Each flag and the open question it answers."""
