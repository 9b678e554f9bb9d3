"""The validation visitor's bookkeeping per event, compiled with the engine core.

`vwlog.engine.replay.Validator` hands every step to a `Tally`; the replay loop then calls the
tally's compiled `Tally.visit` directly, instead of an interpreted method once per event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from vwlog.events import (
    DECISION_TYPES,
    TRAILER_TYPES,
    JudgeRulingIssued,
    MatchForked,
    MatchStarted,
    ObjectResulted,
)
from vwlog.rules.effects import is_trusted
from vwlog.rules.published import TrustedResult

if TYPE_CHECKING:
    from vwlog.engine.loop import Step
    from vwlog.engine.replay import ValidationReport

_TRAILER: Final = frozenset(TRAILER_TYPES)
_DECISIONS: Final = DECISION_TYPES
_NOTED: Final = frozenset({MatchStarted, ObjectResulted, JudgeRulingIssued, MatchForked})
"""Event types the validation report looks into (the rest are only counted)."""


class Tally:
    """Counts a match's events into ``report`` and keeps their violations."""

    def __init__(self, report: ValidationReport) -> None:
        self.report = report

    def visit(self, step: Step) -> None:
        """Count the event and keep its violations (the seal and signatures are records, not
        game events: the integrity check reports them)."""
        kind = type(step.event)
        if kind in _TRAILER:  # event classes are leaves: no ABCMeta isinstance per event
            return
        r = self.report
        r.events += 1
        if kind in _DECISIONS:
            r.decisions += 1
        else:
            r.consequences += 1
        if step.violations:
            r.violations.extend(step.violations)
        if kind in _NOTED:
            self._note(step)

    def _note(self, step: Step) -> None:
        """What the report keeps of a match start, a result, a ruling or a fork."""
        r = self.report
        event = step.record.event
        if isinstance(event, MatchStarted):
            r.players = tuple(s.player for s in event.seats)
            r.ruleset = f"{event.ruleset.id}@{event.ruleset.version}"
        elif isinstance(event, ObjectResulted):
            obj = next((o for o in step.before.register if o.id == event.object_id), None)
            if obj is not None and is_trusted(step.before, obj):
                r.effects_trusted += len(event.effects)
                r.objects_trusted += 1
                r.trusted.append(
                    TrustedResult(
                        seq=step.record.seq,
                        card=step.before.instances.get(obj.card) if obj.card else None,
                        skill=obj.skill,
                        effects=len(event.effects),
                        line=step.line,
                    )
                )
            else:
                r.effects_verified += len(event.effects)
        elif isinstance(event, JudgeRulingIssued):
            r.rulings += 1
        elif isinstance(event, MatchForked):
            r.fork_parent, r.fork_at = event.parent, event.at
        if step.voids is not None:  # a ruling that backed the match up
            r.voided.append(step.voids)


__all__ = ["Tally"]
