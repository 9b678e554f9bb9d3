"""Play mode on a stored match: append decisions (in the notation of the match's game) and the
consequences the rules demand after each, through the game's decisions capability
(`vwlog.services.decisions.Decisions`): a game without one says so in one line."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vwlog.events import MatchForked, MatchSealed, RecordSigned
from vwlog.games import GameRules, game_of_state, rules_for, unavailable
from vwlog.io import codec
from vwlog.model.errors import (
    ChoiceError,
    IllegalEventError,
    MatchNotStartedError,
    MatchOverError,
    NotPlayableError,
    SequenceConflictError,
    UsageError,
    VwlogError,
)
from vwlog.model.text import Msg, msg
from vwlog.services.decisions import Decisions, deciding, decisions_of
from vwlog.services.seek import _backs_up_before, _replayed, state_at
from vwlog.services.snapshots import encode_snapshot, keeps_snapshots
from vwlog.services.storing import SNAPSHOT_EVERY
from vwlog.store import Head, MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from vwlog.events.base import BaseEvent, Record
    from vwlog.services.headstate import HeadStates


@dataclass
class PlayResult:
    """What `play_decisions` appended."""

    match_id: str
    appended: int
    decisions: int
    head_seq: int
    winner: str | None = None
    victory: str | None = None
    events: list[BaseEvent] = field(default_factory=list)


def play_decisions(
    store: MatchStore,
    match_id: str,
    decisions: Iterable[BaseEvent | str],
    *,
    auto: int = 0,
    policy: str = "greedy",
    seed: int = 0,
    expected_seq: int | None = None,
    choices: Mapping[str, Sequence[str]] | None = None,
    states: HeadStates | None = None,
) -> PlayResult:
    """Append decisions to a stored match in play mode: each is checked (rejected with its
    rule ids if illegal, nothing stored) and followed by every consequence the rules demand;
    then ``auto`` more decisions are chosen by the generator's policy. All of it is appended in
    one transaction, chained to the match's head.

    ``choices`` decide the results whose skill leaves the controller a choice (register object
    id → the card ids chosen: the card a ``return`` takes, the cards a ``bottom`` puts on the
    bottom, the new order of a ``reorder``); a result without an entry takes the first choice.
    Every entry must be used by a result among what is played, else nothing is stored.

    With ``states`` (a long-running service), the state at the head is taken from it when it
    holds that head, and the state after the append is kept in it.

    Raises:
        MatchNotFoundError: no such match.
        IllegalEventError: a decision breaks a rule (nothing is stored).
        UsageError: a decision cannot be parsed (its message starts "decision N of M: " when
            several are given).
        MatchOverError: the match is over.
        ChoiceError: a choice names an object that does not result here, whose skill leaves
            no choice, or more cards than it takes (nothing is stored).
        MatchNotStartedError: the match has no ``match_started``.
        NotPlayableError: a decision is a judge's ruling or a fork marker.
        GameUnavailableError: the match's game has no decisions capability (``play is not
            available for game X``), or leaves no result a choice while ``choices`` are given.
        SealedRecordError: the match's record is sealed (an author-sealed upload, a finished
            match): nothing may follow the seal but signatures.
        SequenceConflictError: another writer appended first, or the match no longer ends at
            ``expected_seq`` when one is given (nothing is stored).
    """
    head = store.head(match_id)
    if expected_seq is not None and head.seq != expected_seq:
        raise SequenceConflictError(match_id, expected_seq + 1)
    refuse_after_seal(store, match_id, head, "decisions")
    state = (
        state_at(store, match_id, head.seq)
        if states is None
        else states.state(store, match_id, head)
    )
    before = state
    played, rs = _playing(state, match_id, choices)
    game = played.game
    items = list(decisions)
    for n, item in enumerate(items, 1):
        where = f"decision {n} of {len(items)}: " if len(items) > 1 else ""
        _play_given(played, rs, item, match_id, head.seq, where)
    _play_auto(played, rs, auto, policy, seed)
    if played.choices:
        raise ChoiceError(next(iter(played.choices)), "unused")
    state = played.state
    summary = game.summary(state)
    if not played.events:
        return PlayResult(match_id, 0, 0, head.seq, summary.winner, summary.victory)
    new_head = append_played(
        store, match_id, head, played.events, state, before=before, states=states
    )
    return PlayResult(
        match_id,
        len(played.events),
        played.decisions,
        new_head.seq,
        summary.winner,
        summary.victory,
        played.events,
    )


@dataclass
class _Played:
    """The board after what was played so far, the events and the number of decisions."""

    game: GameRules
    capability: Decisions
    state: Any
    events: list[Any] = field(default_factory=list)
    decisions: int = 0
    choices: dict[str, Sequence[str]] = field(default_factory=dict)
    """Choices for results not played yet (a game whose results leave choices,
    ``chooses_results``)."""

    @property
    def over(self) -> bool:
        """Whether the match has a winner."""
        return self.game.summary(self.state).winner is not None

    def apply(self, rs: Any, decision: Any) -> None:
        """Play one decision and the consequences the rules demand after it."""
        if self.choices:
            play: Any = self.capability.play  # takes the choices (``chooses_results``)
            self.state, events = play(rs, self.state, decision, self.choices)
        else:
            self.state, events = self.capability.play(rs, self.state, decision)
        self.events.extend(events)
        self.decisions += 1


def _playing(
    state: Any, match_id: str, choices: Mapping[str, Sequence[str]] | None
) -> tuple[_Played, Any]:
    """Play mode from ``state`` through its game's decisions capability, and the ruleset.

    Raises:
        GameUnavailableError: the game has no decisions capability, or no choices of results
            while ``choices`` are given.
        MatchNotStartedError: the match has not started.
    """
    game = game_of_state(state)
    capability = decisions_of(game, "play")
    rs = game.ruleset_of(state)
    if rs is None:
        raise MatchNotStartedError(match_id)
    if choices and not getattr(capability, "chooses_results", False):
        raise unavailable(game, "choosing a result")
    return _Played(game, capability, state, choices=dict(choices or {})), rs


def _play_given(
    played: _Played, rs: Any, item: Any, match_id: str, head_seq: int, where: str
) -> None:
    """Parse one given decision (a line of the notation may hold several) and play it;
    ``where`` ("decision N of M: ") starts every error when several were given."""
    try:
        decision = (
            played.capability.parse(rs, played.state, item) if isinstance(item, str) else [item]
        )
    except UsageError as err:
        raise err.within(where) from err
    ruling = played.game.ruling_type
    for d in decision:
        if played.over:
            winner = played.game.summary(played.state).winner
            raise MatchOverError(match_id, winner).within(where)
        if ruling is not None and isinstance(d, ruling):
            raise NotPlayableError(
                "judge_ruling_issued",
                "a judge's ruling is recorded in the judge's log and imported; to go on "
                "from an earlier priority point, fork there",
            ).within(where)
        if isinstance(d, MatchForked):
            raise NotPlayableError(
                "match_forked", "a fork is made from a stored match at a priority point"
            ).within(where)
        try:
            played.apply(rs, d)
        except IllegalEventError as err:
            # name the seq the decision would have had
            raise IllegalEventError(
                head_seq + len(played.events) + err.after + 1, err.event_type, err.violations
            ) from err


def _play_auto(played: _Played, rs: Any, count: int, policy: str, seed: int) -> None:
    """Play up to ``count`` decisions chosen by the game's policy (fewer if the match ends or
    nobody has a legal decision)."""
    rng = random.Random(seed)
    for _ in range(count):
        if played.over:
            return
        player = deciding(played.game, played.capability, rs, played.state)[0]
        if player is None:
            return
        decision = played.capability.choose(rs, played.state, player, rng, policy)
        if decision is None:
            return
        played.apply(rs, decision)


class SealedRecordError(VwlogError):
    """A write after a record's seal: only signatures may follow a seal (DESIGN §7), so an
    append would leave a record every door calls untrusted. Nothing is written."""

    def __init__(self, match_id: str, seal_seq: int, what: str) -> None:
        super().__init__(match_id, seal_seq, what)
        self.match_id = match_id
        self.seal_seq = seal_seq
        self.what = what
        """``decisions`` or ``ruling``: what was refused."""

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Msg:
        """What was refused, where the seal is, and what to do instead."""
        if self.what == "ruling":
            return msg(
                "match {match} is sealed at seq {seq}: a ruling after the seal would leave a "
                "record nobody can trust, so nothing was written; fork the match at the "
                "priority point the ruling goes back to, or record the ruling in the judge's "
                "log",
                match=repr(self.match_id),
                seq=self.seal_seq,
            )
        return msg(
            "match {match} is sealed at seq {seq}: only signatures may follow a seal, so "
            "nothing was written; to go on from an earlier priority point, fork there",
            match=repr(self.match_id),
            seq=self.seal_seq,
        )


SEAL_WINDOW = 16
"""Records read at a time, backwards from the head, to find a seal (only signatures may
follow one)."""


def seal_seq(store: MatchStore, match_id: str, head: Head) -> int | None:
    """The seq of the seal that closes a stored match, if its records end with one (followed
    by nothing but signatures); ``None`` for an open record."""
    upto = head.seq
    if upto == 0:
        return None
    # the last record alone settles an open record (nearly every append): neither a seal nor
    # a signature after one
    last = next(iter(store.records(match_id, gt=upto - 1, lte=upto)), None)
    if last is not None and not isinstance(last.event, MatchSealed | RecordSigned):
        return None
    while upto > 0:
        start = max(0, upto - SEAL_WINDOW)
        tail = list(store.records(match_id, gt=start, lte=upto))
        for record in reversed(tail):
            if isinstance(record.event, MatchSealed):
                return record.seq
            if not isinstance(record.event, RecordSigned):
                return None
        upto = start
    return None


def refuse_after_seal(store: MatchStore, match_id: str, head: Head, what: str) -> None:
    """Refuse a write after the seal that closes a stored match (an author-sealed upload, a
    finished match the service sealed): every door would call the record untrusted.

    Raises:
        SealedRecordError: the match's records end with a seal (nothing is written).
    """
    sealed_at = seal_seq(store, match_id, head)
    if sealed_at is not None:
        raise SealedRecordError(match_id, sealed_at, what)


def append_played(
    store: MatchStore,
    match_id: str,
    head: Head,
    events: Sequence[BaseEvent],
    state: Any,
    *,
    before: Any = None,
    states: HeadStates | None = None,
) -> Head:
    """Append events played in play mode after ``head``, in one transaction, and describe the
    match's new end (``state``, the board after the last of them) in its catalog entry. When
    they end the match, what the game's record owes at its end is played after them
    (`GameRules.closing`; Vandaria Wars opens the deck commitments of a secret shuffle) and the
    record is sealed after it.

    ``before`` is the state at ``head`` when the caller has it (the snapshots due are then
    replayed from it, not sought again); with it, ``states`` keeps the state at the new head.

    Raises:
        SequenceConflictError: another writer appended after ``head`` (nothing is stored).
    """
    game = game_of_state(state)
    over = game.summary(state).winner is not None
    first = next(iter(store.records(match_id, lte=1)), None) if over else None
    if over and first is not None and game.closing is not None:
        # the match is over: what its record owes before the seal (VW: the openings of the
        # deck commitments of a secret shuffle)
        state, owed = game.closing(first.event, state)
        events = [*events, *owed]
    records = [
        game.record.validate_python({"seq": head.seq + i + 1, "event": e})
        for i, e in enumerate(events)
    ]
    sealed = list(codec.seal(head.hash, records))
    if over:
        # the match is won: close the record with its seal
        from vwlog.services.trust import seal_after

        sealed.append(seal_after(first, sealed[-1]))
    lines = [(codec.record_bytes(r), r) for r in sealed]
    # play mode appends only legal events, so the stored verdict of the prefix stands
    summary = game.summary(state)
    meta = store.meta(match_id).model_copy(
        update={
            "turns": summary.turn,
            "winner": summary.winner,
            "victory": summary.victory,
            "head_hash": sealed[-1].hash,
            "events": sealed[-1].seq,
        }
    )
    snapshots = [
        (r.seq, encode_snapshot(state_at_records(store, match_id, r.seq, sealed, before), r.hash))
        for r in sealed
        if r.seq % SNAPSHOT_EVERY == 0 and keeps_snapshots(game)
    ]
    new_head = store.append(match_id, lines, expected_seq=head.seq, meta=meta, snapshots=snapshots)
    if states is not None and before is not None:
        states.keep(
            match_id, new_head, state_at_records(store, match_id, new_head.seq, sealed, before)
        )
    return new_head


def state_at_records(
    store: MatchStore,
    match_id: str,
    seq: int,
    pending: Sequence[Record],
    stored: Any = None,
) -> Any:
    """The state after ``seq`` where the last records are not stored yet; ``stored``, the
    state after the stored ones when the caller has it, spares seeking it again."""
    stored_head = pending[0].seq - 1
    if seq <= stored_head:
        return state_at(store, match_id, seq)
    tail = [r for r in pending if r.seq <= seq]
    game = rules_for(store.header(match_id).game)
    if _backs_up_before(tail, stored_head, game):
        return _replayed(None, [*store.records(match_id, lte=stored_head), *tail], game)
    base = stored if stored is not None else state_at(store, match_id, stored_head)
    return _replayed(base, tail, game)


__all__ = [
    "PlayResult",
    "SealedRecordError",
    "append_played",
    "play_decisions",
    "refuse_after_seal",
    "seal_seq",
    "state_at_records",
]
