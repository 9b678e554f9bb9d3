"""Use cases of live recording: start a match to be played decision by decision, and record a
judge's ruling into a stored match.

Both go through the engine's play mode and the one replay loop, like forks (`fork_match`) and
`play_decisions`; nothing here holds rules of its own.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from vwlog.events import EventRecord, JudgeRulingIssued, LogHeader
from vwlog.games.vw.play import advance
from vwlog.games.vw.simulate import build_start
from vwlog.io import codec
from vwlog.io.pools import load_deck, load_pool
from vwlog.model.cards import DEFAULT_RULESET
from vwlog.model.errors import IllegalEventError, UsageError
from vwlog.model.text import msg
from vwlog.model.types import RulingKind
from vwlog.projections import INITIAL, evolve
from vwlog.rules import check
from vwlog.services.matches import state_at
from vwlog.services.play import append_played, state_at_records
from vwlog.services.storing import store_new_match
from vwlog.store import ImportOutcome, MatchMeta, MatchStore

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.store import Head


def start_match(
    store: MatchStore,
    match_id: str,
    decks: Sequence[str],
    *,
    seed: int | None = None,
    created: str | None = None,
) -> MatchMeta:
    """Store a new match that is to be played live: its `MatchStarted` (the packaged pool,
    the named packaged decks shuffled) and every consequence up to the first decision.
    Decisions are then appended with `play_decisions`.

    Without ``seed``, the usual case: a secret shuffle (`build_start` without a generator),
    each seat's order committed with a salt; the commitments are opened when the match ends
    (`vwlog.games.vw.commitments.open_commitments`). With ``seed`` (tests, demonstrations):
    shuffled reproducibly from it, and the record says so (``shuffle: seeded``), for nothing
    in it is secret.

    Raises:
        UsageError: fewer than 2 or more than 4 decks, or the id is taken.
        CardPoolError: a deck is unknown or illegal.
        MatchExistsError: a match with this id is stored.
    """
    if not 2 <= len(decks) <= 4:
        raise UsageError(msg("a match seats 2 to 4 players, not {len}", len=len(decks)))
    pool = load_pool()
    lists = [load_deck(name, pool=pool).expand() for name in decks]
    rng = None if seed is None else random.Random(seed)
    start = build_start(pool, lists, rng, ruleset=DEFAULT_RULESET, seed=seed)
    state = evolve(INITIAL, start)
    state, consequences = advance(start.ruleset, state)
    header = codec.seal_header(
        LogHeader(match_id=match_id, created=created, generator="vwlog serve (live)")
    )
    assert header.hash is not None
    events = [start, *consequences]
    records = list(
        codec.seal(header.hash, [EventRecord(seq=i + 1, event=e) for i, e in enumerate(events)])
    )
    outcome, meta = store_new_match(store, header, records)
    if outcome != ImportOutcome.STORED:
        raise UsageError(msg("match {match_id} is already stored", match_id=repr(match_id)))
    return meta


def record_ruling(
    store: MatchStore,
    match_id: str,
    *,
    judge: str,
    kind: str,
    reason: str,
    back_to: int | None = None,
    loser: str | None = None,
    expected_seq: int | None = None,
) -> tuple[Head, JudgeRulingIssued]:
    """Append a judge's ruling to a stored match, after checking it against the rules
    (R-GEN-8: a back-up returns to a priority point, a game loss names a player, …): the new
    head and the ruling recorded.

    Raises:
        MatchNotFoundError: no such match.
        IllegalEventError: the ruling breaks a rule (nothing is stored).
        UsageError: the match has not started.
        SequenceConflictError: the match no longer ends at ``expected_seq``, or another writer
            appended first (nothing is stored).
        SealedRecordError: the match's record is sealed (a finished match, an author-sealed
            upload): a ruling after the seal is refused (nothing is stored).
    """
    from vwlog.model.errors import SequenceConflictError
    from vwlog.services.play import refuse_after_seal

    head = store.head(match_id)
    if expected_seq is not None and head.seq != expected_seq:
        raise SequenceConflictError(match_id, expected_seq + 1)
    ruling = JudgeRulingIssued(
        judge=judge, kind=RulingKind(kind), reason=reason, back_to=back_to, loser=loser
    )
    refuse_after_seal(store, match_id, head, "ruling")
    state = state_at(store, match_id, head.seq)
    if state.ruleset is None:
        raise UsageError(msg("match {match_id} has not started", match_id=repr(match_id)))
    violations = check(state.ruleset, state, ruling)
    if violations:
        raise IllegalEventError(head.seq + 1, ruling.type, violations)
    record = EventRecord(seq=head.seq + 1, event=ruling)
    after = state_at_records(store, match_id, head.seq + 1, [record])
    return append_played(store, match_id, head, [ruling], after), ruling


__all__ = ["record_ruling", "start_match"]
