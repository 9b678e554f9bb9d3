"""Turn flow: turns, phases, steps and priority (RULES.md §6, §7)."""

from __future__ import annotations

from typing import Literal

from vwlog.events.base import Consequence, Decision
from vwlog.model.bounds import LogInt
from vwlog.model.types import Phase, Step


class TurnStarted(Consequence):
    """A turn began for the next player in seat order (R-GEN-10, RULES.md §6).

    A consequence the rules demand."""

    type: Literal["turn_started"] = "turn_started"
    turn: LogInt
    """Turn number, 1-based, counted across all players."""
    player: str
    """The active player."""


class PhaseStarted(Consequence):
    """A phase began; no phase may be skipped (R-GEN-10).

    A consequence the rules demand."""

    type: Literal["phase_started"] = "phase_started"
    phase: Phase
    """The phase."""


class StepStarted(Consequence):
    """A step of the Preparation, Combat or End Phase began (R-GEN-10, R-CMB-*).

    A consequence the rules demand."""

    type: Literal["step_started"] = "step_started"
    step: Step
    """The step."""


class PriorityPassed(Decision):
    """The player holding priority passed it to the next player in turn order (R-REG-6).

    A player's decision."""

    type: Literal["priority_passed"] = "priority_passed"
    player: str
    """The passing player."""


class TurnEnded(Consequence):
    """The turn ended: stats return to their base values and turn-change effects and Fatigue end
    (R-END-5, R-END-6).

    A consequence the rules demand."""

    type: Literal["turn_ended"] = "turn_ended"
    turn: LogInt
    """The turn that ended."""


__all__ = [
    "PhaseStarted",
    "PriorityPassed",
    "StepStarted",
    "TurnEnded",
    "TurnStarted",
]
