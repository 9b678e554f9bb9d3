"""Synthetic matches for the store tests: sealed records and their canonical lines.

The store does not check rules, so a match here is a `MatchStarted` with two seats and a tiny
card pool followed by as many `PriorityPassed` records as a test needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from vwlog.events import CardInstance, EventRecord, LogHeader, MatchStarted, PriorityPassed, Seat
from vwlog.io import codec
from vwlog.model.cards import CardDef, Ruleset
from vwlog.model.types import CardType
from vwlog.store import MatchMeta

if TYPE_CHECKING:
    from vwlog.store import MatchStore

_CARDS = (
    CardDef(id="keep", name="Keep", type=CardType.TERRITORY, defense=5, capacity=2, produce=1),
    CardDef(id="guard", name="Guard", type=CardType.FOLLOWER, cost=1, atk=2, vit=2),
)


@dataclass(frozen=True)
class SyntheticMatch:
    """A sealed header, its records with their lines, and metadata that describes them."""

    header: LogHeader
    lines: list[tuple[bytes, EventRecord]] = field(repr=False)

    @property
    def match_id(self) -> str:
        """The header's match id."""
        return self.header.match_id

    @property
    def head_hash(self) -> str:
        """The hash of the last record (of the header without records)."""
        head = self.lines[-1][1].hash if self.lines else self.header.hash
        assert head is not None
        return head

    def meta(self, **changes: object) -> MatchMeta:
        """Metadata describing the match as the services layer would, with ``changes``."""
        values: dict[str, object] = {
            "match_id": self.match_id,
            "players": ["p1", "p2"],
            "created": self.header.created,
            "head_hash": self.head_hash,
            "events": len(self.lines),
        }
        values.update(changes)
        return MatchMeta.model_validate(values)

    def prefix(self, n: int) -> SyntheticMatch:
        """The same match cut after ``n`` records."""
        return SyntheticMatch(self.header, self.lines[:n])

    def import_into(self, store: MatchStore) -> None:
        """Import the whole match."""
        store.import_match(self.header, self.lines, self.meta())


def synthetic_match(match_id: str, events: int, *, passer: str = "p1") -> SyntheticMatch:
    """A match of ``events`` records: `MatchStarted`, then priority passes, sealed."""
    header = codec.seal_header(
        LogHeader(match_id=match_id, created="2026-01-02T03:04:05Z", generator="tests/store")
    )
    started = MatchStarted(
        seats=tuple(
            Seat(
                player=player,
                name=name,
                deck=tuple(CardInstance(id=f"{player}-{i:02}", card="guard") for i in range(3)),
            )
            # Non-ASCII names: the stored bytes must be the UTF-8 the log had, not \u escapes.
            for player, name in (("p1", "Dewi Sartika 🃏"), ("p2", "Goran Kovačević"))
        ),
        first_player="p1",
        ruleset=Ruleset(),
        cards=_CARDS,
    )
    raw = [EventRecord(seq=1, event=started)]
    raw.extend(
        EventRecord(
            seq=seq,
            at=f"2026-01-02T03:{seq // 60 % 60:02}:{seq % 60:02}Z",
            event=PriorityPassed(player=passer),
        )
        for seq in range(2, events + 1)
    )
    assert header.hash is not None
    sealed = list(codec.seal(header.hash, raw[:events]))
    return SyntheticMatch(header, [(codec.record_bytes(r), r) for r in sealed])


@cache
def big_match(events: int) -> SyntheticMatch:
    """A long match (id ``"big"``), built once per process: sealing costs ~25 µs a record."""
    return synthetic_match("big", events)


def continuation(match: SyntheticMatch, extra: int, *, passer: str = "p2") -> SyntheticMatch:
    """``match`` followed by ``extra`` more priority passes, chained from its head."""
    start = len(match.lines) + 1
    raw = [
        EventRecord(seq=seq, event=PriorityPassed(player=passer))
        for seq in range(start, start + extra)
    ]
    sealed = list(codec.seal(match.head_hash, raw))
    return SyntheticMatch(
        match.header, [*match.lines, *((codec.record_bytes(r), r) for r in sealed)]
    )


def verify_chain(header: LogHeader, lines: list[tuple[bytes, EventRecord]]) -> None:
    """Assert that the lines are canonical, numbered 1.. and chained from the header."""
    assert header.hash == codec.header_hash(header)
    previous = header.hash
    for index, (line, record) in enumerate(lines, start=1):
        assert record.seq == index
        assert line == codec.record_bytes(record)
        assert record.hash == codec.chain_hash(previous, codec.record_body(record))
        previous = record.hash
