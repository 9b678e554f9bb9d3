"""L5R's statistics (`vwlog.games.core.Stats`): what ``vwlog stats`` measures of a battle
record.

Counted from the events as the replay folds them: Attack phases, battles and the battlefields
they were fought at, each side's Force at Resolution (totals and the largest), ties, armies and
Provinces destroyed, battles without outcome, Honor gained, opportunities passed and battle
actions taken; and who attacked first.
"""

from __future__ import annotations

from typing import Any, Final

from vwlog.games.common import Counting
from vwlog.games.core import Figure
from vwlog.games.l5r import events as ev

__all__ = ["FIGURES", "measure"]

FIGURES: Final = (
    Figure("attack_phases", "Attack phases"),
    Figure("battles", "battles"),
    Figure("battlefields", "battlefields fought at"),
    Figure("attacker_force", "attackers' Force at Resolution"),
    Figure("defender_force", "defenders' Force at Resolution"),
    Figure("largest_force", "largest army's Force", "most"),
    Figure("ties", "ties"),
    Figure("armies_destroyed", "armies destroyed"),
    Figure("provinces_destroyed", "Provinces destroyed"),
    Figure("without_outcome", "battles without outcome"),
    Figure("honor_gained", "Honor gained"),
    Figure("passes", "opportunities passed"),
    Figure("battle_actions", "battle actions taken"),
    Figure("first_attacker", "first attacker", "word"),
)
"""L5R's figures, in the order ``vwlog stats`` shows them."""

_COUNTED: Final[dict[type, str]] = {
    ev.AttackPhaseStarted: "attack_phases",
    ev.BattleStarted: "battles",
    ev.ArmyDestroyed: "armies_destroyed",
    ev.ProvinceDestroyed: "provinces_destroyed",
    ev.BattleWithoutOutcome: "without_outcome",
    ev.OpportunityPassed: "passes",
    ev.BattleActionTaken: "battle_actions",
}


class _Measure(Counting):
    """One battle record's figures, folded event by event."""

    def __init__(self) -> None:
        super().__init__(FIGURES, _COUNTED)
        self.fields: set[str] = set()

    def tally(self, event: Any, before: Any, after: Any) -> None:
        """Measure ``event`` (the boards around it are not needed)."""
        f = self.figures
        if isinstance(event, ev.AttackPhaseStarted):
            if f["first_attacker"] is None:
                f["first_attacker"] = event.attacker
        elif isinstance(event, ev.BattleStarted):
            self.fields.add(event.battlefield)
            f["battlefields"] = len(self.fields)
        elif isinstance(event, ev.ResolutionStarted):
            f["attacker_force"] += event.attacker_force
            f["defender_force"] += event.defender_force
            most = max(event.attacker_force, event.defender_force)
            f["largest_force"] = max(f["largest_force"], most)
            f["ties"] += int(event.attacker_force == event.defender_force)
        elif isinstance(event, ev.HonorGained):
            f["honor_gained"] += event.amount


def measure() -> _Measure:
    """A fresh measure of one battle record."""
    return _Measure()
