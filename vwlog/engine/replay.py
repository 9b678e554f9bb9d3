"""The replay loop's visitors: validation, the final state, every step, several at once.

`replay` itself (`vwlog.engine.loop`, compiled where the engine is built) walks a match and
feeds a `Visitor`; subclass `BaseVisitor` to write only the hooks you need. The loop's names are
re-exported here, so ``from vwlog.engine.replay import replay, Step`` keeps working.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from vwlog.engine.loop import (
    BACKUP_MEMORY,
    LineRecord,
    Step,
    ViolationPolicy,
    Visitor,
    replay,
)
from vwlog.engine.tally import Tally
from vwlog.events.base import LogHeader
from vwlog.games import core_violation, game_of_state
from vwlog.model.errors import Violation

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.model.verdict import Integrity, Judgement, TrustedResult

R = TypeVar("R", covariant=True)


class BaseVisitor(ABC, Generic[R]):
    """A `Visitor` whose hooks do nothing: override the ones you need and `result`.

    >>> class Count(BaseVisitor[int]):
    ...     def __init__(self) -> None:
    ...         self.n = 0
    ...     def visit(self, step: Step) -> None:
    ...         self.n += 1
    ...     def result(self) -> int:
    ...         return self.n
    >>> replay([], Count())
    0
    """

    def begin_match(self, header: LogHeader | None) -> None:
        """Called once before the first event; does nothing unless overridden."""

    def visit(self, step: Step) -> None:
        """Called for every event; does nothing unless overridden."""

    def end_match(self, final: Any) -> None:
        """Called once after the last event; does nothing unless overridden."""

    @abstractmethod
    def result(self) -> R:
        """What the visitor built."""


class Fanout(BaseVisitor[tuple[Any, ...]]):
    """A visitor that feeds several visitors in one pass (hslog's composite exporter); its
    result is the tuple of theirs, in order."""

    def __init__(self, *visitors: Visitor[Any]) -> None:
        self.visitors = visitors

    def begin_match(self, header: LogHeader | None) -> None:
        """Begin every visitor."""
        for v in self.visitors:
            v.begin_match(header)

    def visit(self, step: Step) -> None:
        """Show the step to every visitor."""
        for v in self.visitors:
            v.visit(step)

    def end_match(self, final: Any) -> None:
        """End every visitor."""
        for v in self.visitors:
            v.end_match(final)

    def result(self) -> tuple[Any, ...]:
        """Every visitor's result, in order."""
        return tuple(v.result() for v in self.visitors)


# -- the validation visitor ------------------------------------------------------------------


@dataclass
class ValidationReport:
    """The outcome of validating one match."""

    match_id: str | None = None
    source: str | None = None
    events: int = 0
    decisions: int = 0
    consequences: int = 0
    effects_verified: int = 0
    """Effects of objects whose skills are machine-readable, derived and compared."""
    effects_trusted: int = 0
    """Effects of text-only skills, recorded as given and checked structurally."""
    objects_trusted: int = 0
    violations: list[Violation] = field(default_factory=list)
    voided: list[tuple[int, int]] = field(default_factory=list)
    rulings: int = 0
    turns: int = 0
    winner: str | None = None
    victory: str | None = None
    players: tuple[str, ...] = ()
    ruleset: str | None = None
    fork_parent: str | None = None
    """For a fork: the parent match."""
    fork_at: int | None = None
    """For a fork: the parent's seq it left from."""
    complete: bool = False
    """Whether the match reached a winner."""
    stopped_at: int | None = None
    """In strict mode: the seq of the first illegal event, where validation stopped."""
    owed: tuple[str, ...] = ()
    """Consequences the rules still demanded when the record ended (a sealed record must owe
    none)."""
    trusted: list[TrustedResult] = field(default_factory=list)
    """Every result whose effects could not be checked (text-only skills), in log order."""
    integrity: Integrity | None = None
    """What the verdict rests on: chain, seal, signatures, published pool and ruleset (filled
    in by the services layer; ``None`` when not checked)."""
    judgement: Judgement | None = None
    """The one verdict, its reason and the outcome as every door shows it (decided by
    `vwlog.services.verdict.judge` from the rules and the integrity result; ``None`` until
    then)."""

    @property
    def ok(self) -> bool:
        """Whether no rule was broken and the record's integrity holds (when checked)."""
        return not self.violations and (self.integrity is None or self.integrity.ok)


class Validator(BaseVisitor[ValidationReport]):
    """A visitor that builds a `ValidationReport`."""

    def __init__(self, source: str | None = None) -> None:
        self.report = ValidationReport(source=source)
        self._bind()

    def _bind(self) -> None:
        self._tally = Tally(self.report)
        if type(self).visit is Validator.visit:
            # the replay loop then calls the compiled bookkeeping itself, not this method
            self.visit = self._tally.visit  # type: ignore[method-assign]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the tally: a copy counts into its own report."""
        state = self.__dict__.copy()
        state.pop("_tally", None)
        state.pop("visit", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    def begin_match(self, header: LogHeader | None) -> None:
        """Take the match id from the header."""
        if header is not None:
            self.report.match_id = header.match_id

    def visit(self, step: Step) -> None:
        """Count the event and keep its violations (the seal and signatures are records, not
        game events: the integrity check reports them)."""
        self._tally.visit(step)

    def end_match(self, final: Any) -> None:
        """Record how the match ended."""
        game = game_of_state(final)
        summary = game.summary(final)
        self.report.turns = summary.turn
        self.report.winner = summary.winner
        self.report.victory = summary.victory
        complete = game.complete
        self.report.complete = complete(final) if complete else summary.winner is not None
        self.report.owed = game.owed(final)
        if not self.report.players:  # what the game did not note as the match started
            self.report.players = summary.players
        if self.report.ruleset is None:
            self.report.ruleset = summary.ruleset
        if not summary.started and not self.report.violations:
            # a header alone (or nothing) is no match: it cannot be called legal
            start = game.start_type.model_fields["type"].default  # type: ignore[attr-defined]
            self.report.violations.append(
                core_violation(
                    game,
                    "CORE-LOG-1",
                    "the log holds no events: a match begins with {start}",
                    start=start,
                )
            )

    def result(self) -> ValidationReport:
        """The report."""
        return self.report


class FinalState(BaseVisitor[Any]):
    """A visitor that keeps only the final state (the game's board)."""

    def __init__(self) -> None:
        self.state: Any = None

    def end_match(self, final: Any) -> None:
        """Keep the final state."""
        self.state = final

    def result(self) -> Any:
        """The final state."""
        return self.state


class Collect(BaseVisitor[list[Step]]):
    """A visitor that keeps every step (for small matches and tests)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.final: Any = None

    def visit(self, step: Step) -> None:
        """Keep the step."""
        self.steps.append(step)

    def end_match(self, final: Any) -> None:
        """Keep the final state."""
        self.final = final

    def result(self) -> list[Step]:
        """The steps."""
        return self.steps


def validate_records(
    records: Iterable[Any],
    *,
    ruleset: Any = None,
    policy: ViolationPolicy = ViolationPolicy.COLLECT,
) -> ValidationReport:
    """Validate records in memory (see `replay`).

    Raises:
        IllegalEventError: with `ViolationPolicy.STOP_AT_FIRST`, at the first illegal event.
    """
    return replay(records, Validator(), ruleset=ruleset, policy=policy)


__all__ = [
    "BACKUP_MEMORY",
    "BaseVisitor",
    "Collect",
    "Fanout",
    "FinalState",
    "LineRecord",
    "Step",
    "ValidationReport",
    "Validator",
    "ViolationPolicy",
    "Visitor",
    "replay",
    "validate_records",
]
