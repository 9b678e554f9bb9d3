"""Records altered the ways a forger, a careless organiser or a damaged disk would alter them,
built from small samples, each under a match id of its own (so that every variant can be
uploaded to one server and imported into one store beside the others).

Each variant says which verdict it must get and the words that must open its one reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from vwlog.events import JudgeRulingIssued, MatchSealed, MatchStarted, RecordSigned
from vwlog.io import codec
from vwlog.io import trust as io_trust
from vwlog.io.logfile import read_log, write_log
from vwlog.model.types import RulingKind
from vwlog.services.trust import close_records, packaged_pool

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.events import EventRecord, LogHeader
    from vwlog.io.trust import PublishedPool

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
BASE = SAMPLES / "absolute-victory.jsonl"
"""The small sample (40 records, won by p1) the variants are made from."""


@dataclass(frozen=True)
class Variant:
    """One altered record and what every door must say of it."""

    kind: str
    path: Path
    match_id: str
    verdict: str
    reason_starts: str
    """How the one reason must begin (its English words)."""
    chain_broken: bool = False
    """Whether the hash chain is broken (then import refuses it, saying its verdict)."""


def _pool_of(records: list[EventRecord]) -> PublishedPool:
    start = records[0].event if records else None
    if isinstance(start, MatchStarted) and start.pool is not None:
        found = io_trust.builtin_registry().pools.get(start.pool.id)
        if found is not None:
            return found
    return packaged_pool()


def fresh(source: Path, match_id: str) -> tuple[LogHeader, list[EventRecord]]:
    """``source`` under another match id, sealed again as its author would seal it (a record
    every door calls what ``source`` is)."""
    header, records = read_log(source)
    body = list(records)
    return close_records(header.model_copy(update={"match_id": match_id}), body, _pool_of(body))


def _resealed(
    header: LogHeader, records: list[EventRecord], alter: Callable[[list[EventRecord]], None]
) -> tuple[LogHeader, list[EventRecord]]:
    body = list(records)
    alter(body)
    return close_records(header, body, _pool_of(body))


def _rechained(header: LogHeader, records: list[EventRecord]) -> list[EventRecord]:
    """The records chained again from the header (as a tool that rewrites hashes would)."""
    assert header.hash is not None
    return list(codec.seal(header.hash, [r.model_copy(update={"hash": None}) for r in records]))


def _cards_edited(records: list[EventRecord]) -> None:
    """The first card definition of ``match_started`` costs one more."""
    start = records[0].event
    assert isinstance(start, MatchStarted)
    card = start.cards[0]
    cards = (card.model_copy(update={"cost": card.cost + 1}), *start.cards[1:])
    records[0] = records[0].model_copy(update={"event": start.model_copy(update={"cards": cards})})


def _winner_edited(records: list[EventRecord]) -> None:
    """The match is said to be won by the other player."""
    for n, r in enumerate(records):
        if r.event.type == "match_won":
            event = r.event.model_copy(update={"winner": "p2"})
            records[n] = r.model_copy(update={"event": event})


def _write(path: Path, header: LogHeader, records: list[EventRecord]) -> Path:
    write_log(path, header, records)
    return path


def build_variants(directory: Path, tag: str, keys: Path) -> list[Variant]:
    """Every kind of altered record, written into ``directory``; ``tag`` makes the match ids
    unique to a test run, ``keys`` is where a signing key is made."""
    out: list[Variant] = []

    def named(kind: str) -> str:
        return f"tamper-{kind}-{tag}"

    # card definitions edited, then sealed again: the seal holds, the published pool does not
    mid = named("cards-resealed")
    header, records = fresh(BASE, mid)
    header, records = _resealed(header, records[:-1], _cards_edited)
    out.append(
        Variant(
            "cards-resealed",
            _write(directory / f"{mid}.jsonl", header, records),
            mid,
            "ILLEGAL",
            "R-TRUST-1 at seq 1: card 'ashen-warcamp'",
        )
    )

    # card definitions edited in place: the chain breaks at seq 1, and the pool still says so
    mid = named("cards-edited")
    header, records = fresh(BASE, mid)
    path = _write(directory / f"{mid}.jsonl", header, records)
    lines = path.read_bytes().split(b"\n")
    data = json.loads(lines[1])
    data["event"]["cards"][0]["cost"] += 1
    lines[1] = codec.canonical(data)
    path.write_bytes(b"\n".join(lines))
    out.append(
        Variant(
            "cards-edited",
            path,
            mid,
            "ILLEGAL",
            "R-TRUST-1 at seq 1: card 'ashen-warcamp'",
            chain_broken=True,
        )
    )

    # truncated: the last records and the seal cut off
    mid = named("truncated")
    header, records = fresh(BASE, mid)
    out.append(
        Variant(
            "truncated",
            _write(directory / f"{mid}.jsonl", header, records[:-3]),
            mid,
            "INCOMPLETE",
            "unsealed: the record has no seal",
        )
    )

    # an event edited, then sealed again (a forger's re-seal): the rules still see it
    mid = named("edit-resealed")
    header, records = fresh(BASE, mid)
    header, records = _resealed(header, records[:-1], _winner_edited)
    out.append(
        Variant(
            "edit-resealed",
            _write(directory / f"{mid}.jsonl", header, records),
            mid,
            "ILLEGAL",
            "R-",
        )
    )

    # a record appended after the seal, chained to it
    mid = named("appended")
    header, records = fresh(BASE, mid)
    late = JudgeRulingIssued(judge="organiser", kind=RulingKind.WARNING, reason="a late note")
    extra = next(codec.seal(records[-1].hash or "", [_record(records[-1].seq + 1, late)]))
    out.append(
        Variant(
            "appended",
            _write(directory / f"{mid}.jsonl", header, [*records, extra]),
            mid,
            "UNTRUSTED",
            f"seq {extra.seq} (judge_ruling_issued) follows the seal at seq {records[-1].seq}",
        )
    )

    # a signature that does not fit the seal
    mid = named("bad-signature")
    header, records = fresh(BASE, mid)
    io_trust.create_key(keys, "alice")
    key, name = io_trust.load_private_key(keys / "alice.key")
    signed = io_trust.sign_seal(key, name, records[-1])
    broken = signed.signature[:-2] + ("00" if signed.signature[-2:] != "00" else "11")
    forged = signed.model_copy(update={"signature": broken})
    sig = next(codec.seal(records[-1].hash or "", [_record(records[-1].seq + 1, forged)]))
    out.append(
        Variant(
            "bad-signature",
            _write(directory / f"{mid}.jsonl", header, [*records, sig]),
            mid,
            "UNTRUSTED",
            f"the signature at seq {sig.seq} (alice, key ",
        )
    )

    # a seal whose count is off by one (its own hash made to fit)
    mid = named("seal-count")
    header, records = fresh(BASE, mid)
    seal = records[-1].event
    assert isinstance(seal, MatchSealed)
    records[-1] = records[-1].model_copy(
        update={"event": seal.model_copy(update={"events": seal.events + 1})}
    )
    records = _rechained(header, records)
    count = records[-1].seq - 1
    out.append(
        Variant(
            "seal-count",
            _write(directory / f"{mid}.jsonl", header, records),
            mid,
            "UNTRUSTED",
            f"the seal at seq {records[-1].seq}, line {records[-1].seq + 1} does not match the "
            f"record (events): it counts {count + 1} records, the record has {count} before it",
        )
    )

    # a record's hash altered: the chain breaks there, nothing else is wrong
    mid = named("chain-broken")
    header, records = fresh(BASE, mid)
    records[4] = records[4].model_copy(update={"hash": "0" * 64})
    out.append(
        Variant(
            "chain-broken",
            _write(directory / f"{mid}.jsonl", header, records),
            mid,
            "UNTRUSTED",
            "hash chain broken at seq 5, line 6: hash does not match the chain",
            chain_broken=True,
        )
    )
    return out


def _record(seq: int, event: JudgeRulingIssued | RecordSigned) -> EventRecord:
    from vwlog.events import EventRecord

    return EventRecord(seq=seq, event=event)


__all__ = ["BASE", "SAMPLES", "Variant", "build_variants", "fresh"]
