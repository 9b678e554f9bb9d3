"""The seal and the signatures of a record, checked (`vwlog.services.trust` judges the rest of
what a verdict rests on): the record ends with one `MatchSealed` that names the records before
it, only signatures follow it, and each signature is its key's over the seal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vwlog.events import MatchSealed, MatchStarted, RecordSigned
from vwlog.io import trust as io_trust
from vwlog.model.text import Count, Msg, msg, said_text
from vwlog.model.verdict import SignatureCheck

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from vwlog.events import EventRecord, LogHeader
    from vwlog.io.trust import PublicKey

_FIELDS = ("events", "head", "pool", "ruleset", "cards")
"""What a seal names of its record, in the order a mismatch lists them (its ``signers`` are
not derived from the record: they are checked against the signatures)."""


@dataclass
class SealCheck:
    """What checking a record's seal and signatures showed."""

    text: str
    """``sealed after N records``, ``unsealed`` or where the seal does not match."""
    sealed: bool
    """Whether the record ends with a seal that matches it."""
    problems: list[str] = field(default_factory=list)
    signatures: list[SignatureCheck] = field(default_factory=list)
    at: tuple[int, int] | None = None
    """The seal's seq and line."""
    awaiting: list[str] = field(default_factory=list)
    """The problems that say a required signer has not signed (among ``problems``)."""


@dataclass
class _Found:
    seal: EventRecord | None = None
    line: int = 0
    before: EventRecord | None = None
    problems: list[str] = field(default_factory=list)
    signatures: list[SignatureCheck] = field(default_factory=list)


def check_seal(
    header: LogHeader,
    lines: Sequence[tuple[int, EventRecord]],
    start: tuple[int, EventRecord] | None,
    keyring: Mapping[str, PublicKey] | None,
    required: Sequence[str] = (),
) -> SealCheck:
    """Check the seal of the record whose kept ``lines`` (line, record) are given, its
    ``match_started`` (``start``) and its signatures (against ``keyring``, if given): every
    signer the seal names, and every one of ``required``, must have signed."""
    found = _find(lines, keyring)
    seal = found.seal
    if seal is None:
        found.problems.append(
            said_text(msg("unsealed: the record has no seal, so its end cannot be told from a cut"))
        )
        return SealCheck(said_text(msg("unsealed")), False, found.problems, found.signatures)
    assert isinstance(seal.event, MatchSealed)
    at = (seal.seq, found.line)
    count = seal.seq - 1
    head = found.before.hash if found.before is not None else header.hash
    start_event = start[1].event if start is not None else None
    want = io_trust.seal_event(
        start_event if isinstance(start_event, MatchStarted) else None, count, head or ""
    )
    differs = [name for name in _FIELDS if getattr(want, name) != getattr(seal.event, name)]
    if differs:
        found.problems.append(said_text(_mismatch(seal, found.line, count, differs)))
        text = said_text(
            msg("seal at seq {seq}, line {line} does not match", seq=seal.seq, line=found.line)
        )
        return SealCheck(text, False, found.problems, found.signatures, at)
    found.problems += [
        said_text(
            msg(
                "the signature at seq {seq} ({signer}, key {key}) does not fit the seal",
                seq=check.seq,
                signer=check.signer,
                key=check.key_id,
            )
        )
        for check in found.signatures
        if check.status == "invalid"
    ]
    if keyring is not None and not any(s.status == "valid" for s in found.signatures):
        found.problems.append(said_text(msg("no valid signature by a key of the keyring")))
    demanded = dict.fromkeys([*(seal.event.signers or ()), *required])
    awaiting: list[str] = [
        said_text(
            msg(
                "the seal requires a signature by {signer}, and none by {signer} is there "
                "(signed by: {signed})",
                signer=name,
                signed=", ".join(_signed_by(found.signatures, keyring)) or "nobody",
            )
        )
        for name in demanded
        if not _has_signed(name, found.signatures, keyring)
    ]
    found.problems += awaiting
    text = said_text(_sealed_text(seal.event, count, found.signatures, keyring))
    return SealCheck(text, True, found.problems, found.signatures, at, awaiting)


def _sealed_text(
    seal: MatchSealed,
    count: int,
    signatures: Sequence[SignatureCheck],
    keyring: Mapping[str, PublicKey] | None,
) -> Msg:
    """``sealed after N records``, and, for a record an organiser or judge sealed
    (``sealed_by``) whose signature over the seal holds, by whom: the name the keyring gives
    their key (without a keyring, the name the signature gives itself)."""
    by = seal.sealed_by
    vouching = next(
        (v for s in signatures if by is not None and by.name in (v := _vouches(s, keyring))),
        None,
    )
    if by is None or vouching is None:
        return msg("sealed after {count} records", count=Count(count))
    if by.role == "judge":
        return msg(
            "sealed after {count} records by judge {name}", count=Count(count), name=vouching[0]
        )
    return msg(
        "sealed after {count} records by organiser {name}", count=Count(count), name=vouching[0]
    )


def _vouches(check: SignatureCheck, keyring: Mapping[str, PublicKey] | None) -> tuple[str, ...]:
    """Who a signature stands for: with a keyring, the ring's name for its key and the key's
    id (the name a signature gives itself proves nothing); without one, its name and key id.
    A signature that does not fit the seal stands for nobody."""
    if keyring is not None:
        if check.status != "valid":
            return ()
        return tuple(n for n in (check.known_as, check.key_id) if n)
    if check.status != "not checked":
        return ()
    return (check.signer, check.key_id)


def _has_signed(
    name: str, signatures: Sequence[SignatureCheck], keyring: Mapping[str, PublicKey] | None
) -> bool:
    """Whether a signature that holds stands for ``name`` (a key name or id)."""
    return any(name in _vouches(s, keyring) for s in signatures)


def _signed_by(
    signatures: Sequence[SignatureCheck], keyring: Mapping[str, PublicKey] | None
) -> list[str]:
    """The names of the signatures that hold."""
    return [v[0] for s in signatures if (v := _vouches(s, keyring))]


def _find(
    lines: Sequence[tuple[int, EventRecord]], keyring: Mapping[str, PublicKey] | None
) -> _Found:
    """The first seal, the record before it, the signatures, and what follows the seal that
    may not (a second seal, any record but a signature)."""
    found = _Found()
    last: EventRecord | None = None
    for line_no, record in lines:
        event = record.event
        seal = found.seal
        if isinstance(event, MatchSealed):
            if seal is not None:
                said = msg(
                    "a second seal at seq {seq}, line {line} (the first is at seq {first})",
                    seq=record.seq,
                    line=line_no,
                    first=seal.seq,
                )
                found.problems.append(said_text(said))
                continue
            found.seal, found.line, found.before = record, line_no, last
        elif isinstance(event, RecordSigned):
            found.signatures.append(_signature(record, seal, keyring))
        elif seal is not None and record.seq != 1:
            said = msg(
                "seq {seq} ({event}) follows the seal at seq {seal}: only signatures may",
                seq=record.seq,
                event=event.type,
                seal=seal.seq,
            )
            found.problems.append(said_text(said))
            break
        last = record
    return found


def _mismatch(seal: EventRecord, line: int, count: int, differs: list[str]) -> Msg:
    """Where a seal does not match its record, and, for its count, both counts."""
    assert isinstance(seal.event, MatchSealed)
    if "events" in differs:
        return msg(
            "the seal at seq {seq}, line {line} does not match the record ({fields}): it "
            "counts {claimed} records, the record has {count} before it",
            seq=seal.seq,
            line=line,
            fields=", ".join(differs),
            claimed=seal.event.events,
            count=count,
        )
    return msg(
        "the seal at seq {seq}, line {line} does not match the record ({fields})",
        seq=seal.seq,
        line=line,
        fields=", ".join(differs),
    )


def _signature(
    record: EventRecord, seal: EventRecord | None, keyring: Mapping[str, PublicKey] | None
) -> SignatureCheck:
    event = record.event
    assert isinstance(event, RecordSigned)
    kid = io_trust.key_id(event.key)
    holds = (
        seal is not None
        and seal.seq == event.seal
        and seal.hash is not None
        and io_trust.signature_holds(event, seal.hash)
    )
    if not holds:
        return SignatureCheck(record.seq, event.signer, kid, "invalid")
    if keyring is None:
        return SignatureCheck(record.seq, event.signer, kid, "not checked")
    known = keyring.get(event.key)
    if known is None:
        return SignatureCheck(record.seq, event.signer, kid, "unknown key")
    return SignatureCheck(record.seq, event.signer, kid, "valid", known.name)


__all__ = ["SealCheck", "check_seal"]
