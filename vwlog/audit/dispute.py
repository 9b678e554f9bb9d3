"""Dispute tools: where two records of one match part, what a player could know, a judge's report.

Three tools for judges and organisers settling a disputed game:

* `diff_matches` reads two records of the same match side by side (two players' files, a stored
  match and an export), finds the first event where they part in one pass over each, and explains
  it: the two events described, which of them the rules allow from the common prefix, and what
  each does to the board over the next few events (a card's zone, damage and slide state, the
  players' resources, the register, the position in the turn).
* `knowledge` tells what one player could know at one position: the board as they see it, and
  every card they have seen so far (their own draws, cards that passed through public zones),
  with where each of those cards is now.
* `build_report` makes one document of a match for a dispute: header, ruleset, hash chain and
  deck commitments, validation, every violation with its rule's digest text, the board and the
  events around it, the judges' rulings with the events a back-up voided, and optionally one
  position in detail; `report_markdown` and `report_html` render it (the HTML draws the boards
  with CSS, no script and no external resource).

All of it stands on the one replay loop (`vwlog.engine.replay.replay`) and on `describe`; nothing
here reads a file but through `vwlog.io.logfile`, and nothing prints.
"""

from __future__ import annotations

import html
import itertools
import re
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from vwlog.engine.describe import (
    PHASE_NAMES,
    STEP_NAMES,
    BoardView,
    PropertyView,
    board_view,
    card_name,
    describe,
)
from vwlog.engine.replay import BaseVisitor, ValidationReport, Validator, replay
from vwlog.engine.seek import state_at as seek_state_at
from vwlog.events import (
    DeckRevealed,
    EventRecord,
    JudgeRulingIssued,
    MatchStarted,
    event_type,
)
from vwlog.io import codec
from vwlog.io.logfile import open_log
from vwlog.model.cards import OPEN_QUESTION_FLAGS, Ruleset
from vwlog.model.errors import UsageError, Violation
from vwlog.model.types import RuleId, RulingKind
from vwlog.projections import INITIAL, evolve
from vwlog.rules import DEFAULT_RULESET, check
from vwlog.rules.catalog import RULES

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

    from vwlog.engine.replay import Step
    from vwlog.engine.seek import Item
    from vwlog.events import AnyEvent, LogHeader
    from vwlog.model.state import MatchState

DIFF_WINDOW = 50
"""Most events of each record that `diff_matches` follows after the divergence."""
CONTEXT = 5
"""Events shown before and after a violation or a chosen position in a report."""
DETAILED_VIOLATIONS = 25
"""Violations a report shows with their board; the rest are listed in a table."""
VOID_MEMORY = 256
"""Events a report remembers to describe what a judge's back-up voided."""


# -- reading a match -------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchSource:
    """A recorded match that can be read from the start as often as needed.

    ``open`` returns a fresh iterator of records (or ``(line, record)`` pairs) each time it is
    called; a log file is re-opened, a stored match re-queried.
    """

    name: str
    """How messages name the record (a file name, ``store:<id>``)."""
    header: LogHeader | None
    """The log header, when there is one."""
    open: Callable[[], Iterator[Item]]
    """A fresh iterator over the records, in seq order."""


def log_source(path: str | Path) -> MatchSource:
    """A log file as a `MatchSource` (its header is read now).

    Raises:
        LogFormatError: the file cannot be opened or its header is malformed (a malformed record
            is raised while iterating).
    """
    with open_log(path) as reader:
        header = reader.header
        name = reader.name

    def items() -> Iterator[Item]:
        with open_log(path) as log:
            for line in log:
                yield line.line_no, line.record

    return MatchSource(name=name, header=header, open=items)


@contextmanager
def reading(source: MatchSource) -> Iterator[Iterator[Item]]:
    """Open ``source`` for one read; the file (or query) is closed however the read ends."""
    items = source.open()
    try:
        yield items
    finally:
        close = getattr(items, "close", None)
        if close is not None:
            close()


def records_source(
    name: str, records: Sequence[EventRecord], header: LogHeader | None = None
) -> MatchSource:
    """Records held in memory as a `MatchSource`."""
    return MatchSource(name=name, header=header, open=lambda: iter(records))


def _unpack(item: Item) -> tuple[int | None, EventRecord]:
    if isinstance(item, EventRecord):
        return None, item
    return item


def rule_title(rule: str) -> str:
    """The title of a rule id in the catalog (empty if unknown)."""
    found = RULES.get(RuleId(rule))
    return found.title if found is not None else ""


def rule_text(rule: str) -> str:
    """The full digest text of a rule id, as Markdown (empty if unknown)."""
    found = RULES.get(RuleId(rule))
    return found.text if found is not None else ""


def _counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and the noun that agrees with it (``1 event``, ``2 events``)."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


# -- where a card is -------------------------------------------------------------------------

Zone = Literal[
    "HAND",
    "FATE_DECK",
    "SUBDECK",
    "GRAVEYARD",
    "TERRITORY",
    "GUARD",
    "RETURN_HOME",
    "STRAY",
    "ORPHAN",
    "REGISTER",
    "NONE",
]
IN_PLAY: frozenset[str] = frozenset({"TERRITORY", "GUARD", "RETURN_HOME", "STRAY", "ORPHAN"})
HIDDEN: frozenset[str] = frozenset({"HAND", "FATE_DECK", "SUBDECK"})


@dataclass(frozen=True, slots=True)
class Spot:
    """Where one card is and in what condition."""

    zone: Zone
    """Its zone, or its position in play."""
    player: str | None = None
    """Owner (hand, decks, Graveyard) or controller (in play, on the register)."""
    territory: str | None = None
    """For a guard: the Territory it guards."""
    damage: int = 0
    """Damage marked (in play)."""
    slid: bool = False
    """Slid (in play)."""

    def moved(self, other: Spot) -> bool:
        """Whether ``other`` is somewhere else (zone, player or Territory), not just changed."""
        return (self.zone, self.player, self.territory) != (
            other.zone,
            other.player,
            other.territory,
        )

    def as_json(self) -> dict[str, Any]:
        """The spot as JSON-ready data."""
        return {
            "zone": self.zone,
            "player": self.player,
            "territory": self.territory,
            "damage": self.damage,
            "slid": self.slid,
        }


NOWHERE = Spot("NONE")


def spots(state: MatchState) -> dict[str, Spot]:
    """Where every card of the match is on this board."""
    out: dict[str, Spot] = {}
    for p in state.players:
        for c in p.hand:
            out[c] = Spot("HAND", p.id)
        for c in p.deck:
            out[c] = Spot("FATE_DECK", p.id)
        for c in p.subdeck:
            out[c] = Spot("SUBDECK", p.id)
        for c in p.graveyard:
            out[c] = Spot("GRAVEYARD", p.id)
    for o in state.register:
        if o.card is not None and o.card not in state.permanents:
            out[o.card] = Spot("REGISTER", o.controller)
    for perm in state.permanents.values():
        out[perm.id] = Spot(perm.where, perm.controller, perm.territory, perm.damage, perm.slid)
    return out


def spot_text(state: MatchState, spot: Spot) -> str:
    """Where a card is, as a phrase (``"guarding Warcamp (p2-003)"``)."""
    p = spot.player or "?"
    match spot.zone:
        case "HAND":
            text = f"in {p}'s hand"
        case "FATE_DECK":
            text = f"in {p}'s Fate Deck"
        case "SUBDECK":
            text = f"in {p}'s subdeck"
        case "GRAVEYARD":
            text = f"in {p}'s Graveyard"
        case "TERRITORY":
            text = f"in play as {p}'s Territory"
        case "GUARD":
            text = f"guarding {card_name(state, spot.territory or '?')}"
        case "ORPHAN":
            text = f"guarding the destroyed {card_name(state, spot.territory or '?')}"
        case "RETURN_HOME":
            text = f"Return Home ({p})"
        case "STRAY":
            text = f"Stray ({p})"
        case "REGISTER":
            text = "on the register"
        case _:
            text = "nowhere on the board"
    return text


def _move_text(state: MatchState, before: Spot, after: Spot) -> str:
    p = after.player or "?"
    match after.zone:
        case "GRAVEYARD":
            return f"goes to {p}'s Graveyard"
        case "HAND":
            if before.zone in ("FATE_DECK", "SUBDECK"):
                return f"is drawn into {p}'s hand"
            return f"returns to {p}'s hand"
        case "FATE_DECK" | "SUBDECK":
            return f"goes {spot_text(state, after).replace('in ', 'into ', 1)}"
        case "REGISTER":
            return "goes on the register"
        case "GUARD":
            where = card_name(state, after.territory or "?")
            if before.zone in IN_PLAY:
                return f"is placed in {where}"
            return f"enters play guarding {where}"
        case "TERRITORY":
            return f"enters play as {p}'s Territory"
        case "RETURN_HOME":
            return "Returns Home"
        case "STRAY":
            return "becomes Stray"
        case "ORPHAN":
            return "loses the Territory it guards"
        case _:
            return "leaves the board"


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# -- diff ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffEvent:
    """One event of a record, described against the board before it."""

    seq: int
    line: int | None
    type: str
    decision: bool
    text: str
    """One line of English (`vwlog.engine.describe.describe`)."""
    violations: tuple[Violation, ...] = ()
    """The rules it breaks where it stands (for a divergent event: from the common prefix)."""
    event: AnyEvent | None = None

    def as_json(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        return {
            "seq": self.seq,
            "line": self.line,
            "type": self.type,
            "decision": self.decision,
            "text": self.text,
            "event": self.event.model_dump(mode="json") if self.event is not None else None,
            "violations": [_violation_json(v) for v in self.violations],
        }


def _violation_json(v: Violation) -> dict[str, Any]:
    return {
        "rule": v.rule,
        "title": rule_title(v.rule),
        "message": v.message,
        "seq": v.seq,
        "expected": v.expected,
        "actual": v.actual,
    }


@dataclass(frozen=True)
class Difference:
    """One thing that differs between the two records' boards."""

    subject: Literal["card", "player", "position", "register", "result"]
    key: str
    """The card instance, the player, or the field."""
    when: Literal["after", "window"]
    """``after``: right after the divergent event; ``window``: over the events that follow."""
    text: str
    """The difference in one sentence."""
    a: Any
    """JSON-ready value in A."""
    b: Any
    """JSON-ready value in B."""

    def as_json(self) -> dict[str, Any]:
        """The difference as JSON-ready data."""
        return {
            "subject": self.subject,
            "key": self.key,
            "when": self.when,
            "text": self.text,
            "a": self.a,
            "b": self.b,
        }


@dataclass(frozen=True)
class RecordSide:
    """One of the two records."""

    name: str
    match_id: str | None
    events: int
    """Events in the record."""


@dataclass(frozen=True)
class Divergence:
    """The first event where two records part, and what follows from it."""

    seq: int
    position: str
    """Where the match stood: turn, active player, phase and step, priority."""
    a: DiffEvent
    """A's event at ``seq``, judged on the common board."""
    b: DiffEvent
    """B's event at ``seq``, judged on the common board."""
    then_a: tuple[DiffEvent, ...]
    """A's events after the divergent one, to the end of the window."""
    then_b: tuple[DiffEvent, ...]
    """B's events after the divergent one, to the end of the window."""
    differences: tuple[Difference, ...]
    """What differs on the board, cards first."""
    agree_again: tuple[int, int] | None = None
    """The seqs (in A, in B) from which the records agree again, if they do within the window;
    the events before them are where the records differ."""
    altered_a: str | None = None
    """Set when A's divergent record does not match A's own hash chain (altered after sealing)."""
    altered_b: str | None = None
    """The same for B."""

    @property
    def window_end(self) -> tuple[int, int]:
        """The last seq followed in A and in B."""
        return (
            self.then_a[-1].seq if self.then_a else self.seq,
            self.then_b[-1].seq if self.then_b else self.seq,
        )

    @property
    def stretch(self) -> tuple[tuple[DiffEvent, ...], tuple[DiffEvent, ...]]:
        """The events of A and of B from the divergence to where they agree again (to the end
        of the window if they do not)."""
        all_a, all_b = (self.a, *self.then_a), (self.b, *self.then_b)
        if self.agree_again is None:
            return all_a, all_b
        ka, kb = self.agree_again
        return (
            tuple(e for e in all_a if e.seq < ka),
            tuple(e for e in all_b if e.seq < kb),
        )


@dataclass(frozen=True)
class DiffReport:
    """The outcome of comparing two records of one match."""

    a: RecordSide
    b: RecordSide
    common: int
    """Events the two records share from the start."""
    outcome: Literal["identical", "prefix", "diverged"]
    divergence: Divergence | None = None
    continuation: tuple[DiffEvent, ...] = ()
    """For a prefix: the first events the longer record goes on with."""

    @property
    def longer(self) -> Literal["A", "B"] | None:
        """Which record goes on past the other's end (a prefix), if any."""
        if self.outcome != "prefix":
            return None
        return "A" if self.a.events > self.b.events else "B"

    @property
    def same(self) -> bool:
        """Whether the records hold the same events."""
        return self.outcome == "identical"


def _differing_start(a: MatchStarted, b: MatchStarted) -> str:
    """What differs between two ``match_started`` events, in a few words."""
    parts: list[str] = []
    if a.format != b.format:
        parts.append(f"format ({a.format} vs {b.format})")
    if [s.player for s in a.seats] != [s.player for s in b.seats]:
        seats_a = ", ".join(s.player for s in a.seats)
        seats_b = ", ".join(s.player for s in b.seats)
        parts.append(f"seats ({seats_a} vs {seats_b})")
    else:
        for sa, sb in zip(a.seats, b.seats, strict=True):
            for label, va, vb in (
                ("deck", sa.deck, sb.deck),
                ("subdeck", sa.subdeck, sb.subdeck),
                ("team", sa.team, sb.team),
                ("name", sa.name, sb.name),
                ("deck commitment", sa.deck_commitment, sb.deck_commitment),
            ):
                if va != vb:
                    parts.append(f"{sa.player}'s {label}")
    if a.first_player != b.first_player:
        parts.append(f"first player ({a.first_player} vs {b.first_player})")
    if a.ruleset != b.ruleset:
        parts.append(
            f"ruleset ({a.ruleset.id}@{a.ruleset.version} vs {b.ruleset.id}@{b.ruleset.version})"
            if (a.ruleset.id, a.ruleset.version) != (b.ruleset.id, b.ruleset.version)
            else "ruleset flags"
        )
    if a.cards != b.cards:
        parts.append("card pool")
    return ", ".join(parts) or "their details"


@dataclass(frozen=True, slots=True)
class Folded:
    """One event of a record folded as recorded, with the boards before and after it."""

    record: EventRecord
    line: int | None
    before: MatchState
    after: MatchState


def _pos_key(state: MatchState) -> tuple[object, ...]:
    return (state.turn, state.phase)


def position_text(state: MatchState) -> str:
    """Where a match stands: ``turn 7 · p1 active · Combat Phase, Combat step 6 · p1 holds
    priority``."""
    if not state.started:
        return "before the match"
    if state.turn == 0:
        parts = ["before the first turn"]
    else:
        parts = [f"turn {state.turn}"]
        if state.active:
            parts.append(f"{state.active} active")
    if state.phase is not None:
        where = PHASE_NAMES[state.phase]
        if state.step is not None:
            where += f", {STEP_NAMES[state.step]}"
        parts.append(where)
    if state.priority:
        parts.append(f"{state.priority} holds priority")
    if state.winner:
        parts.append(f"won by {state.winner} ({state.victory})")
    return " · ".join(parts)


def _described(
    record: EventRecord,
    line: int | None,
    before: MatchState,
    violations: tuple[Violation, ...] = (),
    *,
    viewer: str | None = None,
) -> DiffEvent:
    return DiffEvent(
        seq=record.seq,
        line=line,
        type=event_type(record.event),
        decision=record.event.DECISION,
        text=describe(record.event, before, viewer=viewer),
        violations=violations,
        event=record.event,
    )


def _judged(fold: Folded) -> DiffEvent:
    """A divergent event, judged from the common board it was played on."""
    before = fold.before
    rs = before.ruleset or DEFAULT_RULESET
    found = check(rs, before, fold.record.event)
    located = tuple(
        v.located(
            seq=fold.record.seq,
            line=fold.line,
            event_type=event_type(fold.record.event),
            turn=before.turn or None,
            phase=str(before.phase) if before.phase else None,
            step=str(before.step) if before.step else None,
            priority=before.priority,
        )
        for v in found
    )
    return _described(fold.record, fold.line, before, located)


def _restore(source: MatchSource, back_to: int | None, state: MatchState) -> MatchState:
    """The board a judge's back-up returns to: the record replayed up to ``back_to`` (the same
    board the replay loop restores); ``state`` unchanged when ``back_to`` is not in the match."""
    if back_to is None or back_to < 0:
        return state
    with reading(source) as items:
        try:
            return seek_state_at(items, back_to, source=source.name)
        except UsageError:
            return state


def _fold(source: MatchSource, items: Sequence[Item], initial: MatchState) -> list[Folded]:
    """Fold records on from ``initial``, as recorded; a judge's back-up restores its board."""
    out: list[Folded] = []
    state = initial
    for item in items:
        line, record = _unpack(item)
        event = record.event
        if isinstance(event, JudgeRulingIssued) and event.kind == RulingKind.BACK_UP:
            after = _restore(source, event.back_to, state)
        else:
            after = evolve(state, event)
        out.append(Folded(record, line, state, after))
        state = after
    return out


def _window_end(folds: Sequence[Folded], origin: tuple[object, ...]) -> int:
    """The index of the window's last event: the one that starts the next phase (so a combat
    decision is followed through the damage, the deaths and Return Home), ends the match, or
    the last one folded."""
    for k, fold in enumerate(folds):
        after = fold.after
        if after.over or _pos_key(after) != origin:
            return k
    return len(folds) - 1


AGREEMENT = 3
"""Events in a row two records must share to agree again after a divergence."""


def _agree_again(
    a: Sequence[AnyEvent], b: Sequence[AnyEvent], *, ended_a: bool, ended_b: bool
) -> tuple[int, int] | None:
    """The first positions (fewest events skipped in all, then the most even split) from which
    ``a`` and ``b`` hold the same `AGREEMENT` events in a row, or both end together."""
    na, nb = len(a), len(b)
    for total in range(1, na + nb + 1):
        lo, hi = max(0, total - nb), min(total, na)
        for i in sorted(range(lo, hi + 1), key=lambda i: abs(2 * i - total)):
            j = total - i
            k = 0
            while k < AGREEMENT and i + k < na and j + k < nb and a[i + k] == b[j + k]:
                k += 1
            if k == AGREEMENT or (i + k == na and j + k == nb and ended_a and ended_b):
                return i, j
    return None


def _chain_note(previous: str | None, record: EventRecord) -> str | None:
    """Why ``record`` no longer fits its hash chain, if it does not (``None`` if it fits or the
    record carries no hashes)."""
    if previous is None or record.hash is None:
        return None
    expected = codec.chain_hash(previous, codec.record_body(record))
    if expected == record.hash:
        return None
    return (
        f"the record at seq {record.seq} does not match its hash chain: it was altered after "
        "it was sealed (see 'vwlog verify')"
    )


def diff_matches(a: MatchSource, b: MatchSource, *, window: int = DIFF_WINDOW) -> DiffReport:
    """Compare two records of the same match and explain their first divergence.

    Both records are read once, side by side, aligned by seq; the common prefix is folded with
    `evolve` as it is read (the two records' boards are one board until they part). At the first
    pair of events that differ, both events are judged (`vwlog.rules.check`) on the common
    board, and each record is folded on, as recorded, for up to ``window`` more events (to the
    start of the next phase) to say what differs on the board. A
    judge's back-up restores the board it names, as the replay loop does (by replaying that
    record up to it: one more read, only where a back-up occurs).

    Boards are folded as recorded: where a record omits a consequence the rules demand, its
    board goes on without it (what the record claims), and the omission is the violation named
    for its event.

    Records of different matches (their ``match_started`` events differ) are refused; the
    header match ids may differ (each player's own file).

    Raises:
        UsageError: the records are of different matches.
        LogFormatError: a record cannot be read.
    """
    if window < 1:
        raise UsageError(f"the window must be at least 1 event, not {window}")
    state = INITIAL
    common = 0
    prev_a = a.header.hash if a.header is not None else None
    prev_b = b.header.hash if b.header is not None else None
    pending_a: Item | None = None
    pending_b: Item | None = None
    with reading(a) as items_a, reading(b) as items_b:
        fold = evolve
        for item_a, item_b in itertools.zip_longest(items_a, items_b):
            if item_a is None or item_b is None:
                pending_a, pending_b = item_a, item_b
                break
            rec_a = item_a if isinstance(item_a, EventRecord) else item_a[1]
            rec_b = item_b if isinstance(item_b, EventRecord) else item_b[1]
            event = rec_a.event
            if event != rec_b.event:
                if common == 0 and isinstance(event, MatchStarted):
                    other = rec_b.event
                    if isinstance(other, MatchStarted):
                        raise UsageError(
                            f"{a.name} and {b.name} are records of different matches: their "
                            f"match_started events differ in {_differing_start(event, other)}"
                        )
                pending_a, pending_b = item_a, item_b
                break
            if rec_a.seq != rec_b.seq:
                raise UsageError(
                    f"{a.name} and {b.name} number their events differently "
                    f"(seq {rec_a.seq} against seq {rec_b.seq})"
                )
            if type(event) is JudgeRulingIssued and event.kind == RulingKind.BACK_UP:
                state = _restore(a, event.back_to, state)
            else:
                state = fold(state, event)
            prev_a, prev_b = rec_a.hash, rec_b.hash
            common += 1
        rest_a = [pending_a] if pending_a is not None else []
        rest_b = [pending_b] if pending_b is not None else []
        rest_a.extend(itertools.islice(items_a, window - 1))
        rest_b.extend(itertools.islice(items_b, window - 1))
        total_a = common + len(rest_a) + sum(1 for _ in items_a)
        total_b = common + len(rest_b) + sum(1 for _ in items_b)
    side_a = RecordSide(a.name, a.header.match_id if a.header else None, total_a)
    side_b = RecordSide(b.name, b.header.match_id if b.header else None, total_b)
    if not rest_a and not rest_b:
        return DiffReport(side_a, side_b, common, "identical")
    origin = _pos_key(state)
    if not rest_a or not rest_b:
        longer, rest = (b, rest_b) if not rest_a else (a, rest_a)
        folded = _fold(longer, rest, state)
        folded = folded[: max(_window_end(folded, origin), CONTEXT - 1) + 1]
        then = [_judged(folded[0])] + [_described(f.record, f.line, f.before) for f in folded[1:]]
        return DiffReport(side_a, side_b, common, "prefix", continuation=tuple(then))
    fold_a = _fold(a, rest_a, state)
    fold_b = _fold(b, rest_b, state)
    agree = _agree_again(
        [f.record.event for f in fold_a],
        [f.record.event for f in fold_b],
        ended_a=total_a == common + len(rest_a),
        ended_b=total_b == common + len(rest_b),
    )
    end_a, end_b = _window_end(fold_a, origin), _window_end(fold_b, origin)
    if agree is None:
        settled_a, settled_b = 0, 0
    else:
        i, j = agree
        end_a, end_b = max(end_a, i - 1), max(end_b, j - 1)
        settled_a, settled_b = max(i - 1, 0), max(j - 1, 0)
    fold_a, fold_b = fold_a[: end_a + 1], fold_b[: end_b + 1]
    rec_a, rec_b = fold_a[0].record, fold_b[0].record
    divergence = Divergence(
        seq=rec_a.seq,
        position=position_text(state),
        a=_judged(fold_a[0]),
        b=_judged(fold_b[0]),
        then_a=tuple(_described(f.record, f.line, f.before) for f in fold_a[1:]),
        then_b=tuple(_described(f.record, f.line, f.before) for f in fold_b[1:]),
        differences=tuple(
            board_differences(
                state,
                fold_a,
                fold_b,
                settled=(
                    fold_a[settled_a].after if agree is None or agree[0] else state,
                    fold_b[settled_b].after if agree is None or agree[1] else state,
                ),
            )
        ),
        agree_again=None if agree is None else (rec_a.seq + agree[0], rec_b.seq + agree[1]),
        altered_a=_chain_note(prev_a, rec_a),
        altered_b=_chain_note(prev_b, rec_b),
    )
    return DiffReport(side_a, side_b, common, "diverged", divergence=divergence)


def diff_logs(path_a: str | Path, path_b: str | Path, *, window: int = DIFF_WINDOW) -> DiffReport:
    """`diff_matches` for two log files.

    Raises:
        UsageError: the records are of different matches.
        LogFormatError: a file cannot be read.
    """
    return diff_matches(log_source(path_a), log_source(path_b), window=window)


# -- what differs on the board ---------------------------------------------------------------


def _trajectories(
    start: Mapping[str, Spot], steps: Sequence[Folded]
) -> dict[str, list[tuple[int | None, Spot]]]:
    """Every card's spots from ``start`` through the steps, one entry per change."""
    paths: dict[str, list[tuple[int | None, Spot]]] = {
        c: [(None, spot)] for c, spot in start.items()
    }
    for step in steps:
        now = spots(step.after)
        for c in paths.keys() | now.keys():
            spot = now.get(c, NOWHERE)
            path = paths.setdefault(c, [(None, NOWHERE)])
            if path[-1][1] != spot:
                path.append((step.record.seq, spot))
    return paths


def _story(
    state: MatchState,
    path: Sequence[tuple[int | None, Spot]],
    other: Sequence[tuple[int | None, Spot]],
) -> str:
    """What happens to a card along ``path``, told against the ``other`` record's path."""
    parts: list[str] = []
    in_play = [s for _, s in path if s.zone in IN_PLAY]
    other_in_play = [s for _, s in other if s.zone in IN_PLAY]
    if in_play:
        last = in_play[-1]
        ref = other_in_play[-1] if other_in_play else None
        if last.damage or (ref is not None and ref.damage):
            parts.append(f"has {last.damage} damage" if last.damage else "has no damage")
        if ref is not None and last.slid != ref.slid:
            parts.append("is slid" if last.slid else "is not slid")
    moves = [
        f"{_move_text(state, before, after)} at seq {seq}"
        for (_, before), (seq, after) in itertools.pairwise(path)
        if before.moved(after)
    ]
    parts.extend(moves)
    end = path[-1][1]
    if not moves:
        if end.zone in IN_PLAY and other[-1][1].zone not in IN_PLAY:
            parts.append(f"survives, {spot_text(state, end)}")
        elif not parts or end.moved(other[-1][1]):
            parts.append(f"stays {spot_text(state, end)}")
    return _join(parts)


def _player_values(state: MatchState) -> dict[str, dict[str, Any]]:
    return {
        p.id: {
            "gold": p.gold,
            "honor": p.honor,
            "Victory Points": p.vp,
            "hand": len(p.hand),
            "Fate Deck": len(p.deck),
            "Graveyard": len(p.graveyard),
            "out": p.out,
        }
        for p in state.players
    }


def _count(label: str, n: int) -> str:
    if label in ("hand", "Fate Deck", "Graveyard"):
        return f"{n} card{'s' if n != 1 else ''}"
    return str(n)


def _register_text(state: MatchState) -> list[str]:
    return [
        f"{o.id} {o.kind.lower()} by {o.controller}"
        + (f" ({card_name(state, o.card)})" if o.card else "")
        for o in state.register
    ]


def _state_differences(
    a: MatchState, b: MatchState, when: Literal["after", "window"]
) -> list[Difference]:
    out: list[Difference] = []
    values_a, values_b = _player_values(a), _player_values(b)
    for pid, va in values_a.items():
        vb = values_b.get(pid, {})
        for label, x in va.items():
            y = vb.get(label)
            if x == y:
                continue
            if label == "out":
                text = f"{pid} is {'out of' if x else 'still in'} the match in A, "
                text += f"{'out of' if y else 'still in'} it in B"
            else:
                text = f"{pid}'s {label}: {_count(label, x)} in A, {_count(label, y or 0)} in B"
            out.append(Difference("player", f"{pid}.{label}", when, text, x, y))
    pos_a, pos_b = position_text(a), position_text(b)
    if (a.turn, a.active, a.phase, a.step, a.priority) != (
        b.turn,
        b.active,
        b.phase,
        b.step,
        b.priority,
    ):
        out.append(
            Difference("position", "position", when, f"A is at {pos_a}; B at {pos_b}", pos_a, pos_b)
        )
    reg_a, reg_b = _register_text(a), _register_text(b)
    if reg_a != reg_b:
        text = (
            f"the register holds {'; '.join(reg_a) or 'nothing'} in A, "
            f"{'; '.join(reg_b) or 'nothing'} in B"
        )
        out.append(Difference("register", "register", when, text, reg_a, reg_b))
    if (a.winner, a.victory) != (b.winner, b.victory):
        won_a = f"won by {a.winner} ({a.victory})" if a.winner else "not won yet"
        won_b = f"won by {b.winner} ({b.victory})" if b.winner else "not won yet"
        out.append(
            Difference(
                "result",
                "winner",
                when,
                f"the match is {won_a} in A, {won_b} in B",
                a.winner,
                b.winner,
            )
        )
    return out


def board_differences(
    common: MatchState,
    steps_a: Sequence[Folded],
    steps_b: Sequence[Folded],
    *,
    settled: tuple[MatchState, MatchState] | None = None,
) -> list[Difference]:
    """What differs between two records from a common board on: each card whose path differs
    (zone, damage, slide state, with the seq of each move), then the players, the position, the
    register and the result right after the first step and at the end of each window."""
    names = steps_a[-1].after if steps_a else common
    start = spots(common)
    paths_a = _trajectories(start, steps_a)
    paths_b = _trajectories(start, steps_b)
    cards: list[tuple[int, str, Difference]] = []
    for c in paths_a.keys() | paths_b.keys():
        pa = paths_a.get(c, [(None, NOWHERE)])
        pb = paths_b.get(c, [(None, NOWHERE)])
        if [s for _, s in pa] == [s for _, s in pb]:
            continue
        first = min((seq for seq, _ in (*pa[1:], *pb[1:]) if seq is not None), default=0)
        text = (
            f"in A, {card_name(names, c)} {_story(names, pa, pb)}; in B it {_story(names, pb, pa)}"
        )
        cards.append(
            (
                first,
                c,
                Difference(
                    "card",
                    c,
                    "window",
                    text,
                    [{"seq": seq, **s.as_json()} for seq, s in pa],
                    [{"seq": seq, **s.as_json()} for seq, s in pb],
                ),
            )
        )
    out = [d for _, _, d in sorted(cards, key=lambda t: (t[0], t[1]))]
    if settled is not None:
        after_a, after_b = settled
    else:
        after_a = steps_a[0].after if steps_a else common
        after_b = steps_b[0].after if steps_b else common
    right_after = _state_differences(after_a, after_b, "after")
    out.extend(right_after)
    end_a = steps_a[-1].after if steps_a else common
    end_b = steps_b[-1].after if steps_b else common
    seen = {(d.key, repr(d.a), repr(d.b)) for d in right_after}
    out.extend(
        d
        for d in _state_differences(end_a, end_b, "window")
        if (d.key, repr(d.a), repr(d.b)) not in seen
    )
    return out


# -- rendering a diff ------------------------------------------------------------------------


def _side_line(label: str, side: RecordSide) -> str:
    match = f" · match {side.match_id}" if side.match_id else ""
    return f"{label}: {side.name}{match} · {_counted(side.events, 'event')}"


def _legality(label: str, event: DiffEvent) -> list[str]:
    if not event.violations:
        return [f"  {label}: legal"]
    lines = []
    for v in event.violations:
        lines.append(f"  {label}: {v.rule} {rule_title(v.rule)}: {v.message}")
        if v.expected is not None:
            lines.append(f"     expected {v.expected}; got {v.actual}")
    return lines


def diff_text(report: DiffReport, *, then: int = 5) -> str:
    """The diff for people: where the records part, which event is legal, what differs."""
    lines = [_side_line("A", report.a), _side_line("B", report.b)]
    if report.outcome == "identical":
        lines.append(f"identical: {_counted(report.common, 'event')}")
        return "\n".join(lines)
    if report.outcome == "prefix":
        short, long_ = ("A", "B") if report.longer == "B" else ("B", "A")
        longer = report.b if long_ == "B" else report.a
        more = longer.events - report.common
        lines.append(
            f"{short} ends at seq {report.common}; {long_} continues with "
            f"{_counted(more, 'more event')}:"
        )
        for e in report.continuation[:then]:
            flag = "" if not e.violations else f"  [{', '.join(v.rule for v in e.violations)}]"
            lines.append(f"  {e.seq:>6}  {e.text}{flag}")
        if more > then:
            lines.append("  …")
        return "\n".join(lines)
    d = report.divergence
    assert d is not None
    lines.append(
        f"diverge at seq {d.seq}, after {_counted(report.common, 'common event')} ({d.position})"
    )
    lines.append(f"  A {d.a.seq}: {d.a.text}")
    lines.append(f"  B {d.b.seq}: {d.b.text}")
    lines.append("legality from the common prefix:")
    lines.extend(_legality("A", d.a))
    lines.extend(_legality("B", d.b))
    for label, note in (("A", d.altered_a), ("B", d.altered_b)):
        if note:
            lines.append(f"integrity: in {label}, {note}")
    if d.agree_again is not None:
        again_a, again_b = d.agree_again
        where = (
            f"seq {again_a}" if again_a == again_b else f"seq {again_a} in A, seq {again_b} in B"
        )
        lines.append(f"the records agree again from {where}; until then:")
    else:
        lines.append("the records do not agree again within the window; from the divergence:")
    stretch_a, stretch_b = d.stretch
    for label, events in (("A", stretch_a), ("B", stretch_b)):
        if not events:
            lines.append(f"  {label}: nothing (the other record's events are missing here)")
        for k, e in enumerate(events[:then]):
            lead = f"  {label}:" if k == 0 else "    "
            lines.append(f"{lead} {e.seq:>5}  {e.text}")
        if len(events) > then:
            lines.append(f"     … {len(events) - then} more to seq {events[-1].seq}")
    end_a, end_b = d.window_end
    span = f"seq {end_a}" if end_a == end_b else f"seq {end_a} in A, seq {end_b} in B"
    lines.append(f"what differs on the board (followed to {span}):")
    if not d.differences:
        lines.append("  nothing")
    settle = (
        "when the records agree again" if d.agree_again is not None else f"right after seq {d.seq}"
    )
    for diff in d.differences:
        tail = ""
        if diff.subject != "card":
            tail = f" ({settle})" if diff.when == "after" else f" (at {span})"
        lines.append(f"  - {diff.text}{tail}")
    return "\n".join(lines)


def diff_json(report: DiffReport) -> dict[str, Any]:
    """The diff as JSON-ready data."""
    d = report.divergence

    def side(s: RecordSide) -> dict[str, Any]:
        return {"source": s.name, "match_id": s.match_id, "events": s.events}

    return {
        "outcome": report.outcome,
        "a": side(report.a),
        "b": side(report.b),
        "common": report.common,
        "longer": report.longer,
        "continuation": [e.as_json() for e in report.continuation],
        "divergence": None
        if d is None
        else {
            "seq": d.seq,
            "position": d.position,
            "a": d.a.as_json(),
            "b": d.b.as_json(),
            "legal": {"a": not d.a.violations, "b": not d.b.violations},
            "altered": {"a": d.altered_a, "b": d.altered_b},
            "window_end": {"a": d.window_end[0], "b": d.window_end[1]},
            "agree_again": None
            if d.agree_again is None
            else {"a": d.agree_again[0], "b": d.agree_again[1]},
            "then_a": [e.as_json() for e in d.then_a],
            "then_b": [e.as_json() for e in d.then_b],
            "differences": [x.as_json() for x in d.differences],
        },
    }


# -- what a player could know ----------------------------------------------------------------


@dataclass(frozen=True)
class SeenCard:
    """A card a player has seen, and where it is now."""

    id: str
    """Instance id."""
    name: str
    """Printed name."""
    owner: str
    """Its owner."""
    seq: int
    """The event after which the player first saw it."""
    how: str
    """How they saw it: ``in their hand``, ``on the register``, ``in play``, ``in a Graveyard``
    or ``deck revealed``."""
    now: Spot
    """Where it is now."""
    where: str
    """Where it is now, as a phrase."""
    public: bool = False
    """Whether every player has seen it (it passed through a public zone)."""

    @property
    def hidden(self) -> bool:
        """Whether it is in a hidden zone now (a hand, a Fate Deck, a subdeck)."""
        return self.now.zone in HIDDEN

    def as_json(self) -> dict[str, Any]:
        """The card as JSON-ready data."""
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "seen_at": self.seq,
            "how": self.how,
            "now": self.now.as_json(),
            "where": self.where,
            "public": self.public,
        }


@dataclass(frozen=True)
class Knowledge:
    """What one player could know after one event: the board as they see it, and every card
    they had seen so far with where it is now."""

    player: str
    seq: int
    board: BoardView
    """The board limited to the player's view (`vwlog.engine.describe.board_view`)."""
    seen: tuple[SeenCard, ...]
    """Every card the player has seen, in the order they first saw it."""

    @property
    def hidden(self) -> tuple[SeenCard, ...]:
        """Cards the player has seen that are now hidden from them: in another player's hand,
        or in any Fate Deck or subdeck."""
        return tuple(
            c
            for c in self.seen
            if c.hidden and not (c.now.zone == "HAND" and c.now.player == self.player)
        )

    def unknown_in_hand(self, other: str) -> int:
        """How many cards of ``other``'s hand the player has never seen."""
        size = next((p.hand_size for p in self.board.players if p.id == other), 0)
        known = sum(1 for c in self.hidden if c.now.zone == "HAND" and c.now.player == other)
        return size - known

    def as_json(self) -> dict[str, Any]:
        """The knowledge view as JSON-ready data."""
        return {
            "player": self.player,
            "seq": self.seq,
            "board": self.board.model_dump(mode="json", by_alias=True),
            "seen": [c.as_json() for c in self.seen],
            "hidden_known": [c.id for c in self.hidden],
        }


class KnowledgeTracker(BaseVisitor[None]):
    """A replay visitor that follows what each player has seen.

    A card is seen by every player once it is in a public zone (in play, on the register, in a
    Graveyard) or its owner's deck order is revealed; by its owner alone while it is in their
    hand (opening hand, supply, draws by effects). What a player saw stays known even where a
    judge's back-up later voids the events that showed it.
    """

    def __init__(self) -> None:
        self.public: dict[str, tuple[int, str]] = {}
        self.private: dict[str, dict[str, tuple[int, str]]] = {}
        self.state: MatchState = INITIAL
        self.seq = 0

    def visit(self, step: Step) -> None:
        """Note the cards this event showed."""
        seq = step.record.seq
        before, after = step.before, step.after
        self.state, self.seq = after, seq
        public = self.public
        if after.permanents is not before.permanents:
            for c in after.permanents:
                if c not in public:
                    public[c] = (seq, "in play")
        if after.register is not before.register:
            for o in after.register:
                if o.card is not None and o.card not in public:
                    public[o.card] = (seq, "on the register")
        if after.players is not before.players and len(after.players) == len(before.players):
            for p_after, p_before in zip(after.players, before.players, strict=True):
                if p_after.graveyard is not p_before.graveyard:
                    for c in p_after.graveyard:
                        if c not in public:
                            public[c] = (seq, "in a Graveyard")
                if p_after.hand is not p_before.hand:
                    own = self.private.setdefault(p_after.id, {})
                    for c in p_after.hand:
                        if c not in own:
                            own[c] = (seq, "in their hand")
        event = step.record.event
        if isinstance(event, DeckRevealed) and event.player in after.commitments:
            for c in after.commitments[event.player][1]:
                if c not in public:
                    public[c] = (seq, "deck revealed")

    def result(self) -> None:
        """Nothing: read `knowledge`."""

    def knowledge(self, player: str) -> Knowledge:
        """What ``player`` could know after the last event visited.

        Raises:
            UsageError: ``player`` does not sit at this match's table.
        """
        state = self.state
        board = board_view(state, player=player, seq=self.seq)
        where = spots(state)
        merged = {**self.private.get(player, {})}
        for c, first in self.public.items():
            if c not in merged or first[0] < merged[c][0]:
                merged[c] = first
        seen = tuple(
            SeenCard(
                id=c,
                name=state.defn(c).name if c in state.instances else c,
                owner=state.owners.get(c, ""),
                seq=first[0],
                how=first[1],
                now=where.get(c, NOWHERE),
                where=spot_text(state, where.get(c, NOWHERE)),
                public=c in self.public,
            )
            for c, first in sorted(merged.items(), key=lambda kv: (kv[1][0], kv[0]))
        )
        return Knowledge(player=player, seq=self.seq, board=board, seen=seen)


class _Until:
    """Feeds a replay up to one seq and remembers whether it was reached."""

    def __init__(self, items: Iterable[Item], seq: int) -> None:
        self.items = items
        self.seq = seq
        self.first: int | None = None
        self.last: int | None = None

    def __iter__(self) -> Iterator[Item]:
        for item in self.items:
            s = _unpack(item)[1].seq
            if s > self.seq:
                return
            if self.first is None:
                self.first = s
            self.last = s
            yield item

    def check(self, source: str) -> None:
        if self.last != self.seq:
            if self.first is None or self.last is None:
                raise UsageError(f"no event with seq {self.seq} in {source}: it has no events")
            raise UsageError(
                f"no event with seq {self.seq} in {source} (its seqs run {self.first}..{self.last})"
            )


def knowledge(
    records: Iterable[Item], seq: int, player: str, *, source: str = "this match"
) -> Knowledge:
    """What ``player`` could know after the event ``seq``: their view of the board (their own
    hand, the public zones, the other hands and decks as counts) and every card they had seen
    so far (their own draws, cards that passed through public zones, revealed decks), each with
    where it is now.

    Replays the records up to ``seq`` through the one replay loop and stops reading there.

    Raises:
        UsageError: the match has no event ``seq``, or no player ``player``.
    """
    until = _Until(records, seq)
    tracker = KnowledgeTracker()
    replay(until, tracker)
    until.check(source)
    return tracker.knowledge(player)


def voided_markdown(report: ValidationReport) -> str:
    """The events a judge's back-up voided, as a Markdown list (empty when none): for
    ``vwlog validate --format markdown``, beside its violation table."""
    if not report.voided:
        return ""
    lines = [
        "Voided by judges' back-ups (the events stay in the log; play went on from the "
        "restored board):",
        "",
    ]
    for start, end in report.voided:
        n = end - start + 1
        lines.append(f"- seq {start}..{end} ({n} event{'s' if n != 1 else ''})")
    return "\n".join(lines) + "\n"


# -- the report ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Integrity:
    """What checking a record's hash chain and deck commitments found (from
    `vwlog.services.verify_log` or `vwlog.services.matches.verify_match`)."""

    sealed: bool
    """Whether the record carries hashes at all."""
    head_hash: str | None
    """The hash of the last record (the chain's head)."""
    records: int
    """Records checked."""
    broken_seq: int | None = None
    """The seq of the first broken link, if the chain breaks at a record."""
    broken_line: int | None = None
    """Its line in the file."""
    broken_reason: str | None = None
    """Why the chain breaks there; ``None`` when it holds."""
    commitments: tuple[tuple[str, str], ...] = ()
    """(player, ``verified`` / ``mismatch`` / ``not revealed``) per deck commitment."""

    @property
    def intact(self) -> bool:
        """Whether the chain holds."""
        return self.sealed and self.broken_reason is None


@dataclass(frozen=True)
class EventLine:
    """One event in a report, described against the board before it."""

    seq: int
    line: int | None
    type: str
    decision: bool
    text: str
    rules: tuple[str, ...] = ()
    """Rule ids it breaks."""


@dataclass
class Moment:
    """A position shown in detail: a board and the events around it."""

    seq: int
    board: MatchState
    board_label: str
    """What the board is (``before seq 193``, ``after seq 412``)."""
    event: EventLine
    before: list[EventLine]
    after: list[EventLine] = field(default_factory=list)
    violations: tuple[Violation, ...] = ()
    highlight: frozenset[str] = frozenset()
    """Cards named by the event, marked on the drawn board."""


@dataclass
class RulingEntry:
    """A judge's ruling in the log."""

    seq: int
    judge: str
    kind: str
    reason: str
    back_to: int | None
    loser: str | None
    voids: tuple[int, int] | None
    """For a back-up: the seqs it voided (inclusive)."""
    voided: list[EventLine] = field(default_factory=list)
    """The voided events the report could still describe."""
    unlisted: int = 0
    """Voided events older than the report's memory, counted only."""


@dataclass
class DisputeReport:
    """Everything `report_markdown` and `report_html` show about one match."""

    source: str
    header: LogHeader | None
    started: MatchStarted | None
    validation: ValidationReport
    integrity: Integrity | None
    moments: list[Moment]
    """The first `DETAILED_VIOLATIONS` violating events, with boards and context."""
    rulings: list[RulingEntry]
    final: MatchState
    at: Moment | None = None
    knowledge: dict[str, Knowledge] = field(default_factory=dict)
    """With ``at``: what each player could know there."""

    @property
    def match_id(self) -> str | None:
        """The match id of the header."""
        return self.header.match_id if self.header is not None else self.validation.match_id

    def voided_by(self, seq: int) -> int | None:
        """The seq of the back-up ruling that voided event ``seq``, if one did."""
        for r in self.rulings:
            if r.voids is not None and r.voids[0] <= seq <= r.voids[1]:
                return r.seq
        return None


def _named_cards(state: MatchState, event: AnyEvent) -> frozenset[str]:
    """The card instances an event names (for marking them on a board)."""
    found: set[str] = set()
    stack: list[object] = [event.model_dump()]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if value in state.instances:
                found.add(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return frozenset(found)


def _line(step: Step) -> EventLine:
    record = step.record
    return EventLine(
        seq=record.seq,
        line=step.line,
        type=event_type(record.event),
        decision=record.event.DECISION,
        text=describe(record.event, step.before),
        rules=tuple(v.rule for v in step.violations),
    )


class _Collector(BaseVisitor[ValidationReport]):
    """The report's one replay visitor: validation, violations in context, rulings, the chosen
    position and what the players knew there."""

    def __init__(self, source: str, at: int | None) -> None:
        self.validator = Validator(source=source)
        self.recent: deque[Step] = deque(maxlen=VOID_MEMORY)
        self.moments: list[Moment] = []
        self.waiting: list[Moment] = []
        self.rulings: list[RulingEntry] = []
        self.started: MatchStarted | None = None
        self.at = at
        self.at_moment: Moment | None = None
        self.tracker = KnowledgeTracker() if at is not None else None
        self.knowledge: dict[str, Knowledge] = {}
        self.final: MatchState = INITIAL

    def begin_match(self, header: LogHeader | None) -> None:
        """Begin validating."""
        self.validator.begin_match(header)

    def visit(self, step: Step) -> None:
        """Validate the step and keep what the report shows of it."""
        self.validator.visit(step)
        record = step.record
        event = record.event
        if self.waiting:
            line = _line(step)
            for m in self.waiting:
                m.after.append(line)
            self.waiting = [m for m in self.waiting if len(m.after) < CONTEXT]
        if self.tracker is not None and self.at is not None and record.seq <= self.at:
            self.tracker.visit(step)
        if isinstance(event, MatchStarted) and self.started is None:
            self.started = event
        if step.violations and len(self.moments) < DETAILED_VIOLATIONS:
            moment = Moment(
                seq=record.seq,
                board=step.before,
                board_label=f"before seq {record.seq}",
                event=_line(step),
                before=[_line(s) for s in list(self.recent)[-CONTEXT:]],
                violations=step.violations,
                highlight=_named_cards(step.before, event),
            )
            self.moments.append(moment)
            self.waiting.append(moment)
        if isinstance(event, JudgeRulingIssued):
            self.rulings.append(self._ruling(step, event))
        if self.at is not None and record.seq == self.at:
            moment = Moment(
                seq=record.seq,
                board=step.after,
                board_label=f"after seq {record.seq}",
                event=_line(step),
                before=[_line(s) for s in list(self.recent)[-CONTEXT:]],
                violations=step.violations,
                highlight=_named_cards(step.after, event),
            )
            self.at_moment = moment
            self.waiting.append(moment)
            if self.tracker is not None:
                self.knowledge = {p.id: self.tracker.knowledge(p.id) for p in step.after.players}
        self.recent.append(step)

    def _ruling(self, step: Step, event: JudgeRulingIssued) -> RulingEntry:
        entry = RulingEntry(
            seq=step.record.seq,
            judge=event.judge,
            kind=str(event.kind),
            reason=event.reason,
            back_to=event.back_to,
            loser=event.loser,
            voids=step.voids,
        )
        if step.voids is not None:
            start, end = step.voids
            kept = [s for s in self.recent if start <= s.record.seq <= end]
            entry.voided = [_line(s) for s in kept]
            entry.unlisted = (end - start + 1) - len(kept)
        return entry

    def end_match(self, final: MatchState) -> None:
        """Finish validating."""
        self.validator.end_match(final)
        self.final = final

    def result(self) -> ValidationReport:
        """The validation report."""
        return self.validator.result()


def build_report(
    source: MatchSource, *, integrity: Integrity | None = None, at: int | None = None
) -> DisputeReport:
    """Gather a dispute report of a match in one replay: validation, every violation with the
    board before it and the events around it, the judges' rulings with the events a back-up
    voided, and with ``at`` the board after that event, the events around it and what each
    player could know there.

    Args:
        source: the match.
        integrity: what checking its hash chain and deck commitments found (the caller runs
            `vwlog.services.verify_log` or `verify_match`, which read raw bytes).
        at: a seq to show in detail.

    Raises:
        UsageError: the match has no event ``at``.
        LogFormatError: the record cannot be read.
    """
    collector = _Collector(source.name, at)
    last = 0
    first: int | None = None

    def counted() -> Iterator[Item]:
        nonlocal last, first
        with reading(source) as items:
            for item in items:
                last = _unpack(item)[1].seq
                if first is None:
                    first = last
                yield item

    validation = replay(counted(), collector, header=source.header)
    if at is not None and collector.at_moment is None:
        raise UsageError(
            f"no event with seq {at} in {source.name}"
            + (f" (its seqs run {first}..{last})" if first is not None else ": it has no events")
        )
    return DisputeReport(
        source=source.name,
        header=source.header,
        started=collector.started,
        validation=validation,
        integrity=integrity,
        moments=collector.moments,
        rulings=collector.rulings,
        final=collector.final,
        at=collector.at_moment,
        knowledge=collector.knowledge,
    )


# -- rendering the report --------------------------------------------------------------------

_FLAG_QUESTION = {name: oq for oq, name in OPEN_QUESTION_FLAGS.items()}


@dataclass(frozen=True)
class FlagRow:
    """One ruleset flag or parameter, beside its default."""

    name: str
    question: str
    """The open question it answers (``OQ-7``), or the rule it parameterises."""
    value: Any
    default: Any
    meaning: str

    @property
    def changed(self) -> bool:
        """Whether the ruleset sets it away from the default."""
        return bool(self.value != self.default)


def flag_rows(ruleset: Ruleset) -> list[FlagRow]:
    """Every flag and parameter of ``ruleset`` with its default and meaning, in field order."""
    defaults = Ruleset()
    rows = []
    for name, info in Ruleset.model_fields.items():
        if name in ("id", "version"):
            continue
        meaning = (info.description or "").replace("\n", " ")
        question = _FLAG_QUESTION.get(name, "")
        head, sep, tail = meaning.partition(": ")
        if sep and len(head) <= 10 and head.startswith(("OQ-", "R-")):
            question = question or head
            meaning = tail
        rows.append(
            FlagRow(name, question, getattr(ruleset, name), getattr(defaults, name), meaning)
        )
    return rows


def _summary(r: ValidationReport) -> str:
    n = len(r.violations)
    ending = f"won by {r.winner} ({r.victory})" if r.winner else "no winner yet"
    return (
        f"{r.events:,} events ({r.decisions:,} decisions, {r.consequences:,} consequences) · "
        f"{_counted(r.turns, 'turn')} · {ending} · effects {r.effects_verified:,} verified, "
        f"{r.effects_trusted:,} trusted · {_counted(n, 'violation')}"
    )


def _seat_rows(started: MatchStarted) -> list[tuple[str, str, str, str, str]]:
    """(seat, player, name, team, deck) per seat."""
    return [
        (
            str(i + 1),
            s.player,
            s.name,
            s.team or "",
            f"{len(s.deck)} cards" + (f" + {len(s.subdeck)} subdeck" if s.subdeck else ""),
        )
        for i, s in enumerate(started.seats)
    ]


def _integrity_lines(integrity: Integrity | None) -> list[tuple[str, str]]:
    if integrity is None:
        return [("Hash chain", "not checked")]
    if not integrity.sealed:
        return [("Hash chain", "the record carries no hashes: nothing to verify")]
    rows = [("Head hash", integrity.head_hash or "")]
    if integrity.broken_reason is None:
        rows.append(("Hash chain", f"intact ({integrity.records:,} records)"))
    else:
        where = (
            f"seq {integrity.broken_seq}, line {integrity.broken_line}"
            if integrity.broken_seq is not None
            else f"line {integrity.broken_line}"
        )
        rows.append(("Hash chain", f"BROKEN at {where}: {integrity.broken_reason}"))
    if integrity.commitments:
        rows.append(
            (
                "Deck commitments",
                "; ".join(f"{player}: {status}" for player, status in integrity.commitments),
            )
        )
    else:
        rows.append(("Deck commitments", "none committed"))
    return rows


def _ruling_title(r: RulingEntry) -> str:
    what = r.kind.replace("_", " ").lower()
    if r.kind == RulingKind.BACK_UP:
        what += f" to seq {r.back_to}"
    if r.kind == RulingKind.GAME_LOSS and r.loser:
        what += f" for {r.loser}"
    return f"seq {r.seq}: {what}, by {r.judge}"


def _where(v: Violation) -> str:
    parts = [f"seq {v.seq}"]
    if v.line is not None:
        parts.append(f"line {v.line}")
    if v.turn is not None:
        pos = f"turn {v.turn}"
        if v.phase:
            pos += f", {v.phase}" + (f"/{v.step}" if v.step else "")
        parts.append(pos)
    if v.priority:
        parts.append(f"priority {v.priority}")
    if v.event_type:
        parts.append(v.event_type)
    return " · ".join(parts)


# -- Markdown --------------------------------------------------------------------------------


def _md(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _md_rule_text(rule: str) -> list[str]:
    """A rule's digest text as a Markdown block quote and a blank line (nothing if unknown)."""
    text = rule_text(rule)
    if not text:
        return []
    return [*(f"> {line}" for line in text.split("\n")), ""]


def _md_events(report: DisputeReport, m: Moment) -> list[str]:
    lines = ["| Seq | | Event |", "|---:|---|---|"]
    for e in [*m.before, m.event, *m.after]:
        marks = []
        if e.rules:
            marks.append("⚠ " + ", ".join(e.rules))
        voided = report.voided_by(e.seq)
        if voided is not None:
            marks.append(f"voided (seq {voided})")
        seq = f"**{e.seq}**" if e.seq == m.seq else str(e.seq)
        text = f"**{_md(e.text)}**" if e.seq == m.seq else _md(e.text)
        lines.append(f"| {seq} | {_md(' · '.join(marks))} | {text} |")
    return lines


def hidden_lines(k: Knowledge, *, none_known: bool = False) -> list[str]:
    """What the viewer knows of hidden cards, one line each: every other hand with the cards
    of it they have seen (``, none known`` after a hand of which they know nothing, with
    ``none_known``), then the seen cards that are in a deck now."""
    lines = []
    for p in k.board.players:
        if p.id == k.player:
            continue
        known = [c for c in k.hidden if c.now.zone == "HAND" and c.now.player == p.id]
        text = f"{p.id}'s hand: {p.hand_size} card{'s' if p.hand_size != 1 else ''}"
        if known:
            text += ", known: " + ", ".join(
                f"{c.name} ({c.id}, seen {c.how} at seq {c.seq})" for c in known
            )
        elif none_known and p.hand_size:
            text += ", none known"
        lines.append(text)
    decks = [c for c in k.hidden if c.now.zone != "HAND"]
    if decks:
        lines.append(
            "seen, now in a deck: "
            + ", ".join(f"{c.name} ({c.id}) {c.where}, seen {c.how} at seq {c.seq}" for c in decks)
        )
    return lines


def _md_knowledge(k: Knowledge) -> list[str]:
    me = next((p for p in k.board.players if p.id == k.player), None)
    hand = ", ".join(f"{c.name} ({c.id})" for c in (me.hand or [])) if me else ""
    lines = [
        f"#### What {k.player} could know",
        "",
        f"- Own hand ({me.hand_size if me else 0}): {hand or 'empty'}",
    ]
    lines += [f"- {line.replace('seen, now', 'Seen, now', 1)}" for line in hidden_lines(k)]
    own = sum(1 for c in k.seen if not c.public)
    lines.append(
        f"- Cards seen so far: {len(k.seen)} ({own} only in their own hand, "
        f"{len(k.seen) - own} in public zones)"
    )
    lines.append("")
    return lines


def report_markdown(report: DisputeReport) -> str:
    """The report as one Markdown document (boards as text)."""
    r = report.validation
    out: list[str] = [f"# Dispute report: match `{report.match_id}`", ""]
    out += [f"Source: `{report.source}`", ""]
    out += ["## Match", "", "| | |", "|---|---|"]
    header = report.header
    out.append(f"| Match id | `{_md(report.match_id)}` |")
    if header is not None and header.created:
        out.append(f"| Created | {_md(header.created)} |")
    if header is not None and header.generator:
        out.append(f"| Written by | {_md(header.generator)} |")
    started = report.started
    if started is not None:
        out.append(f"| Format | {started.format.value.replace('_', ' ').title()} |")
        out.append(f"| First player | {started.first_player} |")
        out.append(f"| Card pool | {len(started.cards)} definitions |")
    won = f"won by {r.winner} ({r.victory})" if r.winner else "no winner"
    out += [f"| Result | {won} after {_counted(r.turns, 'turn')} |", ""]
    if started is not None:
        out += ["| Seat | Player | Name | Team | Deck |", "|---:|---|---|---|---|"]
        out += [f"| {' | '.join(_md(x) for x in row)} |" for row in _seat_rows(started)]
        out.append("")
        rows = flag_rows(started.ruleset)
        changed = [f for f in rows if f.changed]
        rs = started.ruleset
        out += ["## Ruleset", "", f"`{rs.id}@{rs.version}`: "]
        if changed:
            differ = "differs" if len(changed) == 1 else "differ"
            out[-1] += f"{_counted(len(changed), 'flag')} {differ} from the defaults."
            out += ["", "| Flag | Question | Value | Default |", "|---|---|---|---|"]
            out += [f"| `{f.name}` | {f.question} | `{f.value}` | `{f.default}` |" for f in changed]
        else:
            out[-1] += "every flag at its default."
        out += ["", "<details><summary>All flags</summary>", ""]
        out += ["| Flag | Question | Value | Default | Meaning |", "|---|---|---|---|---|"]
        out += [
            f"| `{f.name}` | {f.question} | `{f.value}` | `{f.default}` | {_md(f.meaning)} |"
            for f in rows
        ]
        out += ["", "</details>", ""]
    out += ["## Integrity", ""]
    out += [
        f"- {k}: {v if k != 'Head hash' else '`' + v + '`'}"
        for k, v in _integrity_lines(report.integrity)
    ]
    out += ["", "## Validation", ""]
    out.append(f"- Verdict: **{'legal' if r.ok else 'illegal'}**")
    out.append(f"- {_summary(r)}")
    out.append(f"- Ruleset judged under: `{r.ruleset}`")
    for start, end in r.voided:
        out.append(f"- Voided by a judge's back-up: seq {start}..{end}")
    out.append("")
    if r.violations:
        out += [f"## Violations ({len(r.violations)})", ""]
        for i, m in enumerate(report.moments, 1):
            for v in m.violations:
                out.append(f"### {i}. {v.rule}: {_md(rule_title(v.rule))}")
                out += ["", *_md_rule_text(v.rule), f"- {_where(v)}", f"- {v.message}"]
                if v.expected is not None:
                    out.append(f"- Expected `{v.expected}`, found `{v.actual}`")
                if v.flag:
                    out.append(f"- Decided by the ruleset flag `{v.flag}`")
                voided = report.voided_by(m.seq)
                if voided is not None:
                    out.append(f"- Voided by the judge's back-up at seq {voided}")
                out.append("")
            out += [f"Board {m.board_label}:", "", "```text", str(m.board), "```", ""]
            out += [f"Events around seq {m.seq}:", ""]
            out += [*_md_events(report, m), ""]
        rest = [v for v in r.violations if v.seq not in {m.seq for m in report.moments}]
        if rest:
            out += [f"{_counted(len(rest), 'more violation')} (without boards):", ""]
            out += ["| Rule | Title | Seq | Message |", "|---|---|---:|---|"]
            out += [
                f"| {v.rule} | {_md(rule_title(v.rule))} | {v.seq} | {_md(v.message)} |"
                for v in rest
            ]
            out += ["", "The rules they break:", ""]
            for rid in dict.fromkeys(v.rule for v in rest):
                head, *more = rule_text(rid).split("\n")
                out.append(f"- **{rid}** ({rule_title(rid)}): {head}")
                out += [f"  {line}" for line in more]
            out.append("")
    out += ["## Judge rulings", ""]
    if not report.rulings:
        out += ["None.", ""]
    for ruling in report.rulings:
        out += [f"### {_md(_ruling_title(ruling))}", "", f"> {_md(ruling.reason)}", ""]
        if ruling.voids is not None:
            start, end = ruling.voids
            out += [
                f"Voided seq {start}..{end}; play goes on from the board after seq "
                f"{ruling.back_to}:",
                "",
            ]
            out += ["| Seq | Voided event |", "|---:|---|"]
            out += [f"| {e.seq} | ~~{_md(e.text)}~~ |" for e in ruling.voided]
            if ruling.unlisted:
                out.append(f"| … | {_counted(ruling.unlisted, 'earlier event')} not listed |")
            out.append("")
        elif ruling.kind == RulingKind.BACK_UP:
            out += ["The back-up names no recent priority point: nothing was voided.", ""]
    if report.at is not None:
        m = report.at
        out += [f"## Position at seq {m.seq}", "", f"Board {m.board_label}:", ""]
        out += ["```text", str(m.board), "```", ""]
        out += [f"Events around seq {m.seq}:", "", *_md_events(report, m), ""]
        for k in report.knowledge.values():
            out += _md_knowledge(k)
    return "\n".join(out).rstrip() + "\n"


# -- HTML ------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;
  max-width:1240px;padding:0 16px;color:#1d2330;background:#f6f7f9}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;
  border-bottom:2px solid #d5d9e0;padding-bottom:3px}h3{font-size:16px;margin:18px 0 6px}
h4{margin:12px 0 4px}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eceff3;padding:0 3px;
  border-radius:3px}
table{border-collapse:collapse;margin:6px 0;background:#fff}
th,td{border:1px solid #d5d9e0;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eceff3}
.ok{color:#2b8a3e;font-weight:700}.bad{color:#c92a2a;font-weight:700}
.violation{border-left:4px solid #c92a2a;background:#fff;padding:6px 12px;margin:14px 0}
.ruling{border-left:4px solid #5f3dc4;background:#fff;padding:6px 12px;margin:14px 0}
.reason{font-style:italic;color:#495057}
blockquote.rule{margin:6px 0 8px;padding:2px 12px;border-left:3px solid #adb5bd;
  background:#f8f9fa;color:#343a40}blockquote.rule p{margin:4px 0}
blockquote.rule ul{margin:2px 0 4px 18px;padding:0}dd{margin:0 0 8px 16px}
tr.focus td{background:#fff3bf;font-weight:600}tr.voided td{color:#868e96;
  text-decoration:line-through}
.board{border:1px solid #c4cad4;border-radius:8px;background:#fff;padding:10px;margin:10px 0}
.board .pos{font-weight:600;margin-bottom:8px}
.players{display:flex;flex-wrap:wrap;gap:10px}
.player{flex:1 1 360px;border:2px solid #c9d1dc;border-radius:8px;padding:8px;
  background:#fbfcfd}
.player.active{border-color:#2b6cb0;box-shadow:0 0 0 2px #d0e2f5}
.player.out{opacity:.5}
.player h4{margin:0 0 4px;font-size:15px}
.res span{display:inline-block;margin-right:10px;white-space:nowrap}
.territories{display:flex;flex-wrap:wrap;gap:10px;margin-top:8px}
.territory{position:relative;border:2px solid #8a6d3b;background:#fdf6e3;border-radius:6px;
  padding:6px 8px;min-width:170px}
.territory .name{font-weight:700}.territory .stats{font-size:12px;color:#5c4a23}
.guards{display:flex;flex-wrap:wrap;gap:8px;margin-top:6px;min-height:20px}
.card{position:relative;width:104px;min-height:70px;border:1px solid #50606f;border-radius:6px;
  background:#e7eef6;padding:4px 5px;font-size:12px;box-sizing:border-box}
.card .cname{font-weight:600;line-height:1.2}.card .cid{color:#5c6b7a;font-size:11px}
.card .stats{font-weight:700;margin-top:2px}
.card.slid{transform:rotate(10deg);background:#dcdfe3;border-style:dashed}
.card.hl,.territory.hl{outline:3px solid #e8590c;outline-offset:2px}
.dmg{position:absolute;top:-9px;right:-9px;background:#c92a2a;color:#fff;border-radius:11px;
  min-width:22px;height:22px;text-align:center;font-weight:700;font-size:12px;line-height:22px}
.tag{display:inline-block;font-size:10px;border-radius:3px;padding:0 4px;margin:1px 1px 0 0;
  background:#dee2e6}.tag.atk{background:#ffd8a8}.tag.blk{background:#a5d8ff}
.zone{margin-top:8px;font-size:12px}.zone .guards{margin-top:4px}
.hand{margin-top:8px;font-size:12px;color:#343a40}
.register{margin-top:10px;font-size:13px}.register ol{margin:2px 0 0 18px;padding:0}
.knowledge{display:flex;flex-wrap:wrap;gap:12px}.knowledge>div{flex:1 1 360px;background:#fff;
  border:1px solid #d5d9e0;border-radius:6px;padding:6px 10px}
details{margin:8px 0}summary{cursor:pointer;font-weight:600}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"\*([^*]+)\*"), r"<em>\1</em>"),
)


def _html_inline(text: str) -> str:
    """A line of the digest's Markdown as HTML: escaped, then code, bold and italics."""
    out = _e(text)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _html_rule_text(rule: str) -> str:
    """A rule's digest text as an HTML block quote: a paragraph per line, ``- `` lines as a
    list (empty if the rule is unknown)."""
    text = rule_text(rule)
    if not text:
        return ""
    parts: list[str] = []
    items: list[str] = []
    for line in text.split("\n"):
        if line.startswith("- "):
            items.append(f"<li>{_html_inline(line[2:])}</li>")
            continue
        if items:
            parts.append(f"<ul>{''.join(items)}</ul>")
            items = []
        parts.append(f"<p>{_html_inline(line)}</p>")
    if items:
        parts.append(f"<ul>{''.join(items)}</ul>")
    return f'<blockquote class="rule" data-rule="{_e(rule)}">{"".join(parts)}</blockquote>'


def _html_card(p: PropertyView, highlight: frozenset[str]) -> str:
    classes = ["card"]
    if p.slid:
        classes.append("slid")
    if p.id in highlight:
        classes.append("hl")
    stats = f'<div class="stats">{p.atk}/{p.def_}/{p.vit}</div>' if p.atk is not None else ""
    tags = []
    if p.type != "FOLLOWER":
        tags.append(p.type.lower())
    if p.slid:
        tags.append("slid")
    if p.fatigued:
        tags.append("fatigued")
    tag_html = "".join(f'<span class="tag">{t}</span>' for t in tags)
    if p.attacking:
        tag_html += f'<span class="tag atk">attacks {_e(p.attacking)}</span>'
    if p.blocking:
        tag_html += f'<span class="tag blk">blocks {_e(p.blocking)}</span>'
    dmg = f'<span class="dmg" title="damage">{p.damage}</span>' if p.damage else ""
    return (
        f'<div class="{" ".join(classes)}" data-card="{_e(p.id)}">{dmg}'
        f'<div class="cname">{_e(p.name)}</div><div class="cid">{_e(p.id)}</div>'
        f"{stats}{tag_html}</div>"
    )


def board_html(
    state: MatchState, *, seq: int, label: str, highlight: frozenset[str] = frozenset()
) -> str:
    """A board drawn with HTML and CSS: a box per player with resources, Territories with their
    guards (damage, slid, attacking or blocking), Return Home and Stray, the hands as the full
    record shows them, and the register. ``highlight`` marks cards (those an event names)."""
    view = board_view(state, seq=seq)
    parts = [
        f'<div class="board" id="board-{seq}" data-seq="{seq}">',
        f'<div class="pos">Board {_e(label)}: {_e(position_text(state))}</div>',
        '<div class="players">',
    ]
    for p in view.players:
        classes = ["player"] + (["active"] if p.active else []) + (["out"] if p.out else [])
        team = f" · team {_e(p.team)}" if p.team else ""
        parts.append(f'<section class="{" ".join(classes)}" data-player="{_e(p.id)}">')
        parts.append(
            f"<h4>{_e(p.id)}{team}{' · active' if p.active else ''}"
            f"{' · priority' if view.priority == p.id else ''}{' · OUT' if p.out else ''}</h4>"
        )
        parts.append(
            f'<div class="res"><span>gold <b>{p.gold}</b></span><span>honor <b>{p.honor}</b>'
            f"</span><span>VP <b>{p.vp}</b></span><span>hand {p.hand_size}</span>"
            f"<span>deck {p.deck_size}</span><span>graveyard {len(p.graveyard)}</span></div>"
        )
        parts.append('<div class="territories">')
        for t in p.territories:
            hl = " hl" if t.id in highlight else ""
            dmg = f'<span class="dmg" title="damage">{t.damage}</span>' if t.damage else ""
            parts.append(
                f'<div class="territory{hl}" data-card="{_e(t.id)}">{dmg}'
                f'<div class="name">{_e(t.name)} <span class="cid">{_e(t.id)}</span></div>'
                f'<div class="stats">defense {t.defense} · capacity {t.capacity_used}/'
                f"{t.capacity} · gold {t.gold_produce}{' · slid' if t.slid else ''}</div>"
                '<div class="guards">'
                + "".join(_html_card(g, highlight) for g in t.guards)
                + "</div></div>"
            )
        if not p.territories:
            parts.append('<div class="zone">no Territory</div>')
        parts.append("</div>")
        for label_, cards in (("Return Home", p.return_home), ("Stray", p.stray)):
            if cards:
                parts.append(
                    f'<div class="zone">{label_}:<div class="guards">'
                    + "".join(_html_card(c, highlight) for c in cards)
                    + "</div></div>"
                )
        if p.hand:
            parts.append(
                '<div class="hand">hand: '
                + ", ".join(f"{_e(c.name)} <small>{_e(c.id)}</small>" for c in p.hand)
                + "</div>"
            )
        if p.graveyard:
            parts.append(
                '<div class="hand">graveyard: '
                + ", ".join(f"{_e(c.name)} <small>{_e(c.id)}</small>" for c in p.graveyard)
                + "</div>"
            )
        parts.append("</section>")
    parts.append("</div>")
    if view.register_:
        parts.append('<div class="register">Register (top last):<ol>')
        for o in view.register_:
            card = f" {_e(o.card.name)} ({_e(o.card.id)})" if o.card else ""
            target = f" → {_e(o.target)}" if o.target else ""
            parts.append(
                f"<li>{_e(o.id)} {_e(o.kind.lower())} by {_e(o.controller)}{card}{target}</li>"
            )
        parts.append("</ol></div>")
    parts.append("</div>")
    return "".join(parts)


def _html_events(report: DisputeReport, m: Moment) -> str:
    rows = ['<table class="events"><tr><th>Seq</th><th></th><th>Event</th></tr>']
    for e in [*m.before, m.event, *m.after]:
        marks = []
        if e.rules:
            marks.append("⚠ " + ", ".join(e.rules))
        voided = report.voided_by(e.seq)
        classes = []
        if voided is not None:
            marks.append(f"voided by seq {voided}")
            classes.append("voided")
        if e.seq == m.seq:
            classes.append("focus")
        cls = f' class="{" ".join(classes)}"' if classes else ""
        rows.append(
            f"<tr{cls}><td>{e.seq}</td><td>{_e(' · '.join(marks))}</td><td>{_e(e.text)}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _html_knowledge(k: Knowledge) -> str:
    me = next((p for p in k.board.players if p.id == k.player), None)
    hand = ", ".join(f"{_e(c.name)} ({_e(c.id)})" for c in (me.hand or [])) if me else ""
    items = [f"<li>Own hand ({me.hand_size if me else 0}): {hand or 'empty'}</li>"]
    for p in k.board.players:
        if p.id == k.player:
            continue
        known = [c for c in k.hidden if c.now.zone == "HAND" and c.now.player == p.id]
        text = f"{_e(p.id)}'s hand: {p.hand_size} card{'s' if p.hand_size != 1 else ''}"
        if known:
            text += ", known: " + ", ".join(
                f"{_e(c.name)} ({_e(c.id)}, seen {_e(c.how)} at seq {c.seq})" for c in known
            )
        items.append(f"<li>{text}</li>")
    decks = [c for c in k.hidden if c.now.zone != "HAND"]
    if decks:
        items.append(
            "<li>Seen, now in a deck: "
            + ", ".join(
                f"{_e(c.name)} ({_e(c.id)}) {_e(c.where)}, seen {_e(c.how)} at seq {c.seq}"
                for c in decks
            )
            + "</li>"
        )
    own = sum(1 for c in k.seen if not c.public)
    items.append(
        f"<li>Cards seen so far: {len(k.seen)} ({own} only in their own hand, "
        f"{len(k.seen) - own} in public zones)</li>"
    )
    return (
        f'<div data-player="{_e(k.player)}"><h4>What {_e(k.player)} could know</h4>'
        f"<ul>{''.join(items)}</ul></div>"
    )


def report_html(report: DisputeReport) -> str:
    """The report as one self-contained HTML page: inline CSS, no script, nothing fetched; each
    board at a violation (and at ``--at``) is drawn as boxes per player."""
    r = report.validation
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Dispute report: {_e(report.match_id)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>Dispute report: match <code>{_e(report.match_id)}</code></h1>",
        f"<div>Source: <code>{_e(report.source)}</code></div>",
        "<h2>Match</h2><table>",
    ]
    header = report.header
    rows: list[tuple[str, str]] = [("Match id", f"<code>{_e(report.match_id)}</code>")]
    if header is not None and header.created:
        rows.append(("Created", _e(header.created)))
    if header is not None and header.generator:
        rows.append(("Written by", _e(header.generator)))
    started = report.started
    if started is not None:
        rows.append(("Format", _e(started.format.value.replace("_", " ").title())))
        rows.append(("First player", _e(started.first_player)))
        rows.append(("Card pool", f"{len(started.cards)} definitions"))
    won = f"won by {r.winner} ({r.victory})" if r.winner else "no winner"
    rows.append(("Result", _e(f"{won} after {_counted(r.turns, 'turn')}")))
    out += [f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows]
    out.append("</table>")
    if started is not None:
        out.append(
            "<table><tr><th>Seat</th><th>Player</th><th>Name</th><th>Team</th><th>Deck</th></tr>"
        )
        out += [
            "<tr>" + "".join(f"<td>{_e(x)}</td>" for x in row) + "</tr>"
            for row in _seat_rows(started)
        ]
        out.append("</table>")
        rs = started.ruleset
        flags = flag_rows(rs)
        changed = [f for f in flags if f.changed]
        out.append(f"<h2>Ruleset</h2><p><code>{_e(rs.id)}@{rs.version}</code>: ")
        if changed:
            out.append(
                f"{len(changed)} flag{'s' if len(changed) != 1 else ''} differ from the "
                "defaults.</p>"
            )
            out.append(
                "<table><tr><th>Flag</th><th>Question</th><th>Value</th><th>Default</th></tr>"
            )
            out += [
                f"<tr><td><code>{_e(f.name)}</code></td><td>{_e(f.question)}</td>"
                f"<td><code>{_e(f.value)}</code></td><td><code>{_e(f.default)}</code></td></tr>"
                for f in changed
            ]
            out.append("</table>")
        else:
            out.append("every flag at its default.</p>")
        out.append(
            "<details><summary>All flags</summary><table><tr><th>Flag</th>"
            "<th>Question</th><th>Value</th><th>Default</th><th>Meaning</th></tr>"
        )
        out += [
            f"<tr><td><code>{_e(f.name)}</code></td><td>{_e(f.question)}</td>"
            f"<td><code>{_e(f.value)}</code></td><td><code>{_e(f.default)}</code></td>"
            f"<td>{_e(f.meaning)}</td></tr>"
            for f in flags
        ]
        out.append("</table></details>")
    out.append("<h2>Integrity</h2><table>")
    for key, value in _integrity_lines(report.integrity):
        cls = ' class="bad"' if value.startswith("BROKEN") or "mismatch" in value else ""
        cell = f"<code>{_e(value)}</code>" if key == "Head hash" else _e(value)
        out.append(f"<tr><th>{_e(key)}</th><td{cls}>{cell}</td></tr>")
    out.append("</table><h2>Validation</h2>")
    verdict = '<span class="ok">legal</span>' if r.ok else '<span class="bad">illegal</span>'
    out.append(
        f"<p>Verdict: {verdict} · {_e(_summary(r))} · judged under <code>{_e(r.ruleset)}</code></p>"
    )
    if r.voided:
        out.append(
            "<ul>"
            + "".join(f"<li>Voided by a judge's back-up: seq {a}..{b}</li>" for a, b in r.voided)
            + "</ul>"
        )
    if r.violations:
        out.append(f"<h2>Violations ({len(r.violations)})</h2>")
        for i, m in enumerate(report.moments, 1):
            out.append(f'<div class="violation" id="violation-{m.seq}">')
            for v in m.violations:
                out.append(f"<h3>{i}. {_e(v.rule)}: {_e(rule_title(v.rule))}</h3>")
                out.append(_html_rule_text(v.rule))
                out.append(f"<div>{_e(_where(v))}</div><p>{_e(v.message)}</p>")
                if v.expected is not None:
                    out.append(
                        f"<p>Expected <code>{_e(v.expected)}</code>, found "
                        f"<code>{_e(v.actual)}</code></p>"
                    )
                if v.flag:
                    out.append(f"<p>Decided by the ruleset flag <code>{_e(v.flag)}</code></p>")
                voided = report.voided_by(m.seq)
                if voided is not None:
                    out.append(f"<p>Voided by the judge's back-up at seq {voided}</p>")
            out.append(board_html(m.board, seq=m.seq, label=m.board_label, highlight=m.highlight))
            out.append(f"<h4>Events around seq {m.seq}</h4>{_html_events(report, m)}</div>")
        shown = {m.seq for m in report.moments}
        rest = [v for v in r.violations if v.seq not in shown]
        if rest:
            out.append(
                f"<p>{_counted(len(rest), 'more violation')} (without boards):</p><table><tr>"
                "<th>Rule</th><th>Title</th><th>Seq</th><th>Message</th></tr>"
            )
            out += [
                f"<tr><td>{_e(v.rule)}</td><td>{_e(rule_title(v.rule))}</td><td>{v.seq}</td>"
                f"<td>{_e(v.message)}</td></tr>"
                for v in rest
            ]
            out.append("</table><p>The rules they break:</p><dl>")
            out += [
                f"<dt>{_e(rid)}: {_e(rule_title(rid))}</dt><dd>{_html_rule_text(rid)}</dd>"
                for rid in dict.fromkeys(v.rule for v in rest)
            ]
            out.append("</dl>")
    out.append("<h2>Judge rulings</h2>")
    if not report.rulings:
        out.append("<p>None.</p>")
    for ruling in report.rulings:
        out.append(
            f'<div class="ruling" id="ruling-{ruling.seq}"><h3>{_e(_ruling_title(ruling))}</h3>'
            f'<p class="reason">{_e(ruling.reason)}</p>'
        )
        if ruling.voids is not None:
            a, b = ruling.voids
            out.append(
                f"<p>Voided seq {a}..{b}; play goes on from the board after seq "
                f"{ruling.back_to}.</p><table><tr><th>Seq</th><th>Voided event</th></tr>"
            )
            out += [
                f'<tr class="voided"><td>{e.seq}</td><td>{_e(e.text)}</td></tr>'
                for e in ruling.voided
            ]
            if ruling.unlisted:
                out.append(
                    f"<tr><td>…</td><td>{_counted(ruling.unlisted, 'earlier event')} not listed"
                    "</td></tr>"
                )
            out.append("</table>")
        elif ruling.kind == RulingKind.BACK_UP:
            out.append("<p>The back-up names no recent priority point: nothing was voided.</p>")
        out.append("</div>")
    if report.at is not None:
        m = report.at
        out.append(f'<h2 id="at-{m.seq}">Position at seq {m.seq}</h2>')
        out.append(board_html(m.board, seq=m.seq, label=m.board_label, highlight=m.highlight))
        out.append(f"<h4>Events around seq {m.seq}</h4>{_html_events(report, m)}")
        out.append('<h3>What each player could know</h3><div class="knowledge">')
        out += [_html_knowledge(k) for k in report.knowledge.values()]
        out.append("</div>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
