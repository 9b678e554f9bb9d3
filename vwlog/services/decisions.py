"""What is awaited at a position of a match: whose decision, of what kind, and every legal
decision, written in the decision notation (`vwlog.games.vw.notation`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vwlog.engine.replay import FinalState, replay
from vwlog.engine.seek import state_at
from vwlog.games.vw.notation import card_names, format_decision
from vwlog.rules import expect, legal_decisions
from vwlog.rules.decisions import BOUNDED_KINDS, count_legal

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.engine.seek import Item
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState
    from vwlog.store import MatchStore

__all__ = ["Awaited", "awaited", "awaited_in_log", "awaited_in_store"]


@dataclass(frozen=True, slots=True)
class Awaited:
    """The decision awaited after the event ``seq``."""

    seq: int
    turn: int
    phase: str | None
    player: str | None
    """Whose decision is awaited (``None``: nobody; the match is over or not started)."""
    kind: str | None
    """setup, supply, deploy, stray, registration, attackers, declare, blockers, blocks,
    damage, discard or priority."""
    decisions: tuple[str, ...]
    """Every legal decision, in the notation (a combinatorial choice lists a documented,
    bounded family; see `vwlog.rules.decisions`)."""
    winner: str | None = None
    over: bool = False
    total: int = 0
    """How many decisions are legal: the count of `decisions` where they are every one, more
    where a combinatorial choice lists a bounded family of them."""
    exact: bool = True
    """Whether `total` is exact (``False``: a lower bound, the whole space being too large to
    check)."""
    names: dict[str, str] = field(default_factory=dict)
    """The name of every card `decisions` name, by id."""

    @property
    def sampled(self) -> bool:
        """Whether `decisions` are fewer than the legal ones (a bounded family)."""
        return not self.exact or self.total > len(self.decisions)


def awaited(seq: int, state: MatchState, ruleset: Ruleset | None = None) -> Awaited:
    """What is awaited at ``state`` (the board after the event ``seq``); judged under
    ``ruleset`` if given, else the one the match names."""
    rs = ruleset or state.ruleset
    phase = str(state.phase) if state.phase is not None else None
    if rs is None or state.over:
        return Awaited(seq, state.turn, phase, None, None, (), state.winner, state.over)
    exp = expect(rs, state)
    player = exp.player
    decisions: tuple[str, ...] = ()
    total, exact = 0, True
    if player is not None:
        decisions = tuple(format_decision(d, rs, state) for d in legal_decisions(rs, state, player))
        total = len(decisions)
        if exp.kind in BOUNDED_KINDS:
            total, exact = count_legal(rs, state, player)
            total = max(total, len(decisions))
    kind = str(exp.kind) if exp.kind is not None else None
    return Awaited(
        seq,
        state.turn,
        phase,
        player,
        kind,
        decisions,
        state.winner,
        state.over,
        total=total,
        exact=exact,
        names=card_names(decisions, state),
    )


def awaited_in_log(
    items: Iterable[Item],
    at: int | None = None,
    *,
    ruleset: Ruleset | None = None,
    source: str = "this match",
) -> Awaited:
    """What is awaited after the event ``at`` (default: the last) of a match read from
    records, through the replay loop.

    Raises:
        UsageError: the match has no event with seq ``at``.
    """
    if at is not None:
        return awaited(at, state_at(items, at, ruleset=ruleset, source=source), ruleset)
    last = 0

    def counted() -> Iterable[Item]:
        nonlocal last
        for item in items:
            last = item[1].seq if isinstance(item, tuple) else item.seq
            yield item

    state = replay(counted(), FinalState(), ruleset=ruleset)
    return awaited(last, state, ruleset)


def awaited_in_store(
    store: MatchStore, match_id: str, at: int | None = None, *, ruleset: Ruleset | None = None
) -> Awaited:
    """What is awaited after the event ``at`` (default: the last) of a stored match, from the
    nearest snapshot.

    Raises:
        MatchNotFoundError: no such match.
        UsageError: seq ``at`` is out of range.
    """
    from vwlog.services.matches import state_at as stored_state_at

    seq = store.head(match_id).seq if at is None else at
    return awaited(seq, stored_state_at(store, match_id, seq), ruleset)
