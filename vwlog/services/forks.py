"""Forks: start a fork of a stored match at a fork point of its game
(`vwlog.games.GameRules.is_fork_point`: for Vandaria Wars, a priority point); the tree of
forks (lineage)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vwlog.events.base import LogHeader
from vwlog.events.core import MatchForked
from vwlog.games import GameRules, rules_for
from vwlog.io import codec
from vwlog.model.errors import (
    ForkNameError,
    MatchExistsError,
    NotAPriorityPointError,
)
from vwlog.store import ImportOutcome, MatchMeta, MatchStore

if TYPE_CHECKING:
    from typing import Any

from vwlog.services.matches import state_at
from vwlog.services.storing import store_new_match

# -- forks -----------------------------------------------------------------------------------


def _fork_point(game: GameRules, state: Any) -> bool:
    """Whether the board ``state`` awaits a decision ``game`` forks at."""
    rs = game.ruleset_of(state)
    return rs is not None and game.is_fork_point(game.expect(rs, state))


def priority_seqs_near(
    store: MatchStore, match_id: str, seq: int, *, radius: int = 200
) -> tuple[int | None, int | None]:
    """The nearest fork points (for Vandaria Wars, priority points) before and after ``seq``."""
    game = rules_for(store.header(match_id).game)
    lo = max(0, seq - radius)
    state: Any = state_at(store, match_id, lo)
    before: int | None = None
    after: int | None = None
    if _fork_point(game, state) and lo < seq:
        before = lo
    for record in store.records(match_id, gt=lo, lte=seq + radius):
        state = game.fold(state, record.event, ())[0]
        if _fork_point(game, state):
            if record.seq < seq:
                before = record.seq
            elif record.seq > seq:
                after = record.seq
                break
    return before, after


_FORK_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def fork_match(store: MatchStore, match_id: str, at: int, *, name: str | None = None) -> str:
    """Start a fork of a stored match at a fork point of its game (for Vandaria Wars, a
    priority point); returns the fork's match id.

    The fork is a new match: its header names the parent, it copies the parent's first ``at``
    events (re-sealed under its own header) and records `MatchForked` as its next event.

    Raises:
        MatchNotFoundError: no such match.
        NotAPriorityPointError: ``at`` is not a priority point (the nearest ones are named).
        ForkNameError: the name is not 1 to 40 letters, digits, ``-``, ``_`` or ``.``, or
            every id it could give is taken.
        MatchExistsError: a match with the fork's id exists.
    """
    if name is not None and not _FORK_NAME.fullmatch(name):
        raise ForkNameError(
            name,
            "use 1 to 40 letters, digits, '-', '_' or '.' "
            "(it becomes part of the match id MATCH~NAME)",
        )
    parent_header = store.header(match_id)
    game = rules_for(parent_header.game)
    if not _fork_point(game, state_at(store, match_id, at)):
        before, after = priority_seqs_near(store, match_id, at)
        priority = "priority" in game.fork_kinds
        raise NotAPriorityPointError(match_id, at, before, after, priority=priority)
    existing = {m.match_id for m in store.list_matches()}
    base = f"{match_id}~{name}" if name else f"{match_id}~{at}"
    prefix = [r.model_copy(update={"hash": None}) for r in store.records(match_id, lte=at)]
    forked = MatchForked(parent=match_id, at=at, name=name)
    marker = game.record.validate_python({"seq": at + 1, "event": forked})
    for n in range(1, 10_000):
        fork_id = base if n == 1 else f"{base}.{n}"
        if fork_id in existing:
            continue
        header = codec.seal_header(
            LogHeader(
                match_id=fork_id,
                game=parent_header.game,
                created=parent_header.created,
                generator=f"vwlog fork {match_id} --at {at}",
            )
        )
        assert header.hash is not None
        records = list(codec.seal(header.hash, [*prefix, marker]))
        try:
            outcome, _ = store_new_match(store, header, records)
        except MatchExistsError:
            continue  # another writer took this id a moment ago: try the next one
        if outcome != ImportOutcome.STORED:
            continue  # an identical fork was stored by someone else: never share one
        return fork_id
    raise ForkNameError(base, "too many forks have this name")


# -- lineage ---------------------------------------------------------------------------------


@dataclass
class LineageNode:
    """A match and its forks."""

    meta: MatchMeta
    children: list[LineageNode] = field(default_factory=list)


def lineage(store: MatchStore, match_id: str) -> LineageNode:
    """The tree of forks that ``match_id`` belongs to, from its root.

    Raises:
        MatchNotFoundError: no such match.
    """
    metas = {m.match_id: m for m in store.list_matches()}
    if match_id not in metas:
        store.meta(match_id)  # raises MatchNotFoundError
    root = match_id
    seen = {root}
    while (parent := metas[root].parent) is not None and parent in metas and parent not in seen:
        root = parent
        seen.add(root)
    children: dict[str, list[str]] = {}
    for m in metas.values():
        if m.parent is not None:
            children.setdefault(m.parent, []).append(m.match_id)

    def build(mid: str) -> LineageNode:
        return LineageNode(metas[mid], [build(c) for c in sorted(children.get(mid, []))])

    return build(root)


__all__ = ["LineageNode", "fork_match", "lineage", "priority_seqs_near"]
