"""Rebase a fork: re-apply its parent's remaining decisions after the fork's own.

"What breaks if this block had happened?" The parent's decisions after the fork point are
played, in order, onto the fork's current board in play mode (the same
game's decisions capability, `vwlog.services.decisions.Decisions`, that ``vwlog play`` uses):
each is checked against the rules and
followed by the consequences the rules now demand, so the parent's own consequences are never
copied, only re-derived. The first decision that is no longer legal stops the rebase and is
reported with the rules it breaks.

Parent decisions that the fork already ends with (from an earlier rebase, or played the same
way) are not applied twice, so rebasing again gives the same answer and appends nothing new.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from vwlog.events import MatchForked, acting_player, event_type
from vwlog.games import GameRules, event_text, rules_for
from vwlog.model.errors import (
    MatchNotFoundError,
    MatchNotStartedError,
    NotAForkError,
    ParentNotStoredError,
)
from vwlog.model.text import SaidText, said_text
from vwlog.services.decisions import Decisions, decisions_of
from vwlog.services.matches import state_at
from vwlog.services.play import append_played

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.events import AnyEvent, EventRecord
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState
    from vwlog.store import MatchStore

Stop = Literal["done", "broken", "over", "ruling"]
"""Why a rebase ended: every parent decision re-applied (``done``), one no longer legal
(``broken``), the fork's match won before the parent's decisions ran out (``over``), or a judge
ruling of the parent reached (``ruling``: it judges the parent's record, so it is not carried
over)."""


@dataclass(frozen=True, slots=True)
class BrokenDecision:
    """The first parent decision that is no longer legal on the fork."""

    parent_seq: int
    """Its seq in the parent."""
    fork_seq: int
    """The seq it would have had in the fork."""
    event_type: str
    """Its ``type`` tag."""
    player: str | None
    """Who made it, if a player did."""
    description: str
    """One line of English, read against the parent's board before it (a `SaidText`: its
    template is kept, so `vwlog.io.i18n.say` gives it in another language)."""
    violations: tuple[Violation, ...]
    """The rules it breaks on the fork, as `check` reports them."""
    withdrawn: tuple[int, ...] = ()
    """Parent seqs of decisions that were legal but are not kept because they only start it
    (the cost paid for a summon or skill that can no longer be registered)."""

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids it breaks, in the order `check` gives them."""
        return tuple(v.rule for v in self.violations)

    @property
    def message(self) -> str:
        """Every broken rule and why, on one line."""
        return "; ".join(f"{v.rule} {v.message}" for v in self.violations)


@dataclass
class RebaseResult:
    """What `rebase` re-applied, appended, and where it stopped."""

    fork_id: str
    parent_id: str
    fork_at: int
    """The parent's priority point the fork left from."""
    considered: int
    """The parent's decisions after the fork point."""
    already: int
    """How many of them, from the first on, the fork already ended with (not applied twice)."""
    reapplied: int
    """How many of the others were re-applied and kept, from the first on."""
    appended: int
    """Events appended to the fork: the decisions and their consequences (with ``dry_run``,
    the number that would have been)."""
    head_seq: int
    """The fork's last seq afterwards (with ``dry_run``, what it would have been)."""
    stopped: Stop
    stopped_at: int | None = None
    """Parent seq of the first decision not re-applied; ``None`` when all were."""
    broken: BrokenDecision | None = None
    """The first decision no longer legal, when ``stopped`` is ``broken``."""
    winner: str | None = None
    """Who has won the fork afterwards, if anybody."""
    victory: str | None = None
    """How, if the fork is won."""
    dry_run: bool = False
    """Whether nothing was stored."""
    events: list[AnyEvent] = field(default_factory=list)
    """The events appended (or that would have been), in order."""

    @property
    def left(self) -> int:
        """Parent decisions neither on the fork before nor re-applied now."""
        return self.considered - self.already - self.reapplied


def rebase(store: MatchStore, fork_id: str, *, dry_run: bool = False) -> RebaseResult:
    """Re-apply the parent's decisions after the fork point onto the fork, in play mode.

    Each parent decision is checked on the fork's board and, if legal, applied with every
    consequence the rules then demand. The first that is no longer legal (a wrong actor
    included) stops the rebase; so does a win on the fork (the rest cannot happen) and a judge
    ruling of the parent (it judges the parent's record, not the fork's). A cost paid for a
    summon or skill that then breaks is not kept, so the fork never ends half-way through a
    decision. Unless ``dry_run``, what was re-applied is appended to the fork in one
    transaction and its catalog entry updated, as `play_decisions` does.

    Raises:
        MatchNotFoundError: no such match.
        NotAForkError: the match is not a fork.
        ParentNotStoredError: its parent is no longer stored.
        MatchNotStartedError: the fork holds no ``match_started``.
        SequenceConflictError: another writer appended to the fork first (nothing is stored).
    """
    meta = store.meta(fork_id)
    if meta.parent is None or meta.fork_at is None:
        raise NotAForkError(fork_id)
    game = rules_for(store.header(fork_id).game)
    capability = decisions_of(game, "rebase")  # a usage error for a game without decisions
    parent_id, at = meta.parent, meta.fork_at
    try:
        parent_state = state_at(store, parent_id, at)
        parent = list(store.records(parent_id, gt=at))
    except MatchNotFoundError as err:
        raise ParentNotStoredError(fork_id, parent_id) from err
    head = store.head(fork_id)
    state = state_at(store, fork_id, head.seq)
    ruleset = game.ruleset_of(state)
    if ruleset is None:
        raise MatchNotStartedError(fork_id)
    decisions = [r.event for r in parent if _is_decision(r.event)]
    own = [r.event for r in store.records(fork_id, gt=at) if _is_decision(r.event)]
    already = skip = _overlap(own, decisions)
    played = _Replayer(game, capability, ruleset, state, parent_state, head.seq)
    for record in parent:
        if played.stopped != "done":
            break
        if not _is_decision(record.event):
            played.follow(record.event)
        elif skip:
            skip -= 1
            played.follow(record.event)
        else:
            played.offer(record)
    appended = len(played.events)
    head_seq = head.seq + appended
    if appended and not dry_run:
        head_seq = append_played(store, fork_id, head, played.events, played.state).seq
    summary = game.summary(played.state)
    return RebaseResult(
        fork_id=fork_id,
        parent_id=parent_id,
        fork_at=at,
        considered=len(decisions),
        already=already,
        reapplied=played.decisions,
        appended=appended,
        head_seq=head_seq,
        stopped=played.stopped,
        stopped_at=played.stopped_at,
        broken=played.broken,
        winner=summary.winner,
        victory=summary.victory,
        dry_run=dry_run,
        events=played.events,
    )


def _is_decision(event: AnyEvent) -> bool:
    """Whether a parent event is a game decision to re-apply (a fork marker is not one)."""
    return event.DECISION and not isinstance(event, MatchForked)


def _overlap(own: Sequence[AnyEvent], parent: Sequence[AnyEvent]) -> int:
    """The most parent decisions, from the first, that the fork's own decisions end with."""
    for n in range(min(len(own), len(parent)), 0, -1):
        if own[-n] == parent[0] and own[-n:] == parent[:n]:
            return n
    return 0


class _Replayer:
    """The fork's board as parent decisions are offered to it, and where that stopped.

    A decision that leaves its player to finish it (a cost paid, awaiting the summon or skill
    it pays for) is kept only once the decision is whole, so a break rolls back to the last
    whole decision.
    """

    def __init__(
        self,
        game: GameRules,
        capability: Decisions,
        ruleset: Ruleset,
        state: MatchState,
        parent_state: MatchState,
        head_seq: int,
    ) -> None:
        self.game = game
        self.capability = capability
        self.ruleset = ruleset
        self.state = state
        self.parent_state = parent_state
        """The parent's board before the next parent event (descriptions read it)."""
        self.head_seq = head_seq
        self.events: list[AnyEvent] = []
        self.decisions = 0
        self.whole: tuple[MatchState, int, int] = (state, 0, 0)
        """Board, event count and decision count after the last whole decision."""
        self.pending: list[int] = []
        """Parent seqs of the decisions re-applied since then."""
        self.stopped: Stop = "done"
        self.stopped_at: int | None = None
        self.broken: BrokenDecision | None = None

    def follow(self, event: AnyEvent) -> None:
        """Move the parent's board past an event that is not re-applied."""
        self.parent_state = self.game.fold(self.parent_state, event, ())[0]

    def offer(self, record: EventRecord) -> None:
        """Re-apply one parent decision if it is still legal; otherwise stop, saying why."""
        event = record.event
        game = self.game
        if game.ruling_type is not None and isinstance(event, game.ruling_type):
            self._stop("ruling", record.seq)
            return
        violations = self.capability.check(self.ruleset, self.state, event)
        if violations and game.summary(self.state).winner is not None:
            self._stop("over", record.seq)
            return
        if violations:
            self.broken = BrokenDecision(
                parent_seq=record.seq,
                fork_seq=self.head_seq + len(self.events) + 1,
                event_type=event_type(event),
                player=acting_player(event) or getattr(event, "player", None),
                description=self._said(event),
                violations=violations,
                withdrawn=tuple(self.pending),
            )
            self._stop("broken", record.seq)
            return
        self.state, events = self.capability.play(self.ruleset, self.state, event)
        self.events.extend(events)
        self.decisions += 1
        self.pending.append(record.seq)
        if self.capability.whole(self.ruleset, self.state):
            self.whole = (self.state, len(self.events), self.decisions)
            self.pending.clear()
        self.follow(event)

    def _said(self, event: Any) -> str | SaidText:
        """What ``event`` did on the parent's board: the game's sentence, or the event by its
        type and fields for a game without views."""
        if self.game.views is None:
            return event_text(event)
        return said_text(self.game.views().description(event, self.parent_state))

    def _stop(self, why: Stop, seq: int) -> None:
        """Stop before parent seq ``seq``, taking back a half-made decision."""
        self.stopped = why
        self.stopped_at = self.pending[0] if self.pending else seq
        self.state, n_events, self.decisions = self.whole
        del self.events[n_events:]
        self.pending.clear()


__all__ = ["BrokenDecision", "RebaseResult", "Stop", "rebase"]
