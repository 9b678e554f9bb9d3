"""The validation visitor's bookkeeping per event, compiled with the engine core.

`vwlog.engine.replay.Validator` hands every step to a `Tally`; the replay loop then calls the
tally's compiled `Tally.visit` directly, instead of an interpreted method once per event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.events.core import MatchForked
from vwlog.games import GameRules, game_of_state

if TYPE_CHECKING:
    from vwlog.engine.loop import Step
    from vwlog.engine.replay import ValidationReport


class Tally:
    """Counts a match's events into ``report`` and keeps their violations."""

    def __init__(self, report: ValidationReport) -> None:
        self.report = report
        self._game: GameRules | None = None
        self._trailer: frozenset[type] = frozenset()
        self._decisions: frozenset[type] = frozenset()
        self._noted: frozenset[type] = frozenset()

    def _bind(self, board: object) -> GameRules:
        """Learn the match's game from its first board."""
        game = game_of_state(board)
        self._game = game
        self._trailer = game.trailer_types
        self._decisions = game.decision_types
        noted = set(game.noted_types)
        noted.add(MatchForked)
        if game.ruling_type is not None:
            noted.add(game.ruling_type)
        self._noted = frozenset(noted)
        return game

    def visit(self, step: Step) -> None:
        """Count the event and keep its violations (the seal and signatures are records, not
        game events: the integrity check reports them)."""
        if self._game is None:
            self._bind(step.before)
        kind = type(step.event)
        if kind in self._trailer:  # event classes are leaves: no ABCMeta isinstance per event
            return
        r = self.report
        r.events += 1
        if kind in self._decisions:
            r.decisions += 1
        else:
            r.consequences += 1
        if step.violations:
            r.violations.extend(step.violations)
        if kind in self._noted:
            self._note(step, kind)

    def _note(self, step: Step, kind: type) -> None:
        """What the report keeps of a ruling or a fork, and what the game notes."""
        r = self.report
        game = self._game
        assert game is not None
        event = step.event
        if kind is MatchForked:
            r.fork_parent, r.fork_at = event.parent, event.at  # type: ignore[attr-defined]
        elif kind is game.ruling_type:
            r.rulings += 1
        elif game.note is not None:
            game.note(r, step)
        if step.voids is not None:  # a ruling that backed the match up
            r.voided.append(step.voids)


__all__ = ["Tally"]
