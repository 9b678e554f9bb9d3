"""Canonical JSON bytes of headers and records, and the SHA-256 hash chain.

Every record is written as canonical JSON: keys sorted, no insignificant white space, ``None``
fields left out. The hash of record *n* is SHA-256 over the previous hash (the header's hash for
the first record), a newline, and the canonical JSON of record *n* without its ``hash`` field.
Because a written line *is* its canonical form, altering any byte of a log is detected: either
the line is no longer canonical or its hash no longer matches.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Final

import orjson

from vwlog.events import RECORD, EventRecord, LogHeader
from vwlog.model.causes import caused

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

_OPTS: Final = orjson.OPT_SORT_KEYS
_HEX: Final = frozenset("0123456789abcdef")
_SHA256: Final = hashlib.sha256()
"""An empty SHA-256 state, copied for every chain hash (never updated itself): a copy skips
OpenSSL's lookup of the algorithm by name, a third of the time ``hashlib.sha256(data)`` takes
on a 300-byte body."""
_copy_state: Final = _SHA256.copy
_update: Final = type(_SHA256).update
_hexdigest: Final = type(_SHA256).hexdigest
_dumps: Final = orjson.dumps
"""The functions called once per record, as constants: compiled, ``orjson.dumps`` is a lookup in
the module's attributes at every call, and ``h.update`` one in its type's."""


class EncodeError(ValueError):
    """A value that has no canonical JSON form (an integer beyond 64 bits, nesting deeper than
    255 levels, a non-string key)."""


def canonical(obj: Any) -> bytes:
    """Canonical JSON of a JSON-compatible value (sorted keys, compact).

    Raises:
        EncodeError: The value has no canonical form.
    """
    try:
        return _dumps(obj, option=_OPTS)
    except TypeError as err:  # orjson.JSONEncodeError is a TypeError
        raise caused(EncodeError(f"no canonical json form: {str(err).lower()}"), err) from err


def is_hash(value: object) -> bool:
    """Whether ``value`` has the shape of a chain hash (64 lower-case hex digits)."""
    return isinstance(value, str) and len(value) == 64 and _HEX.issuperset(value)


def record_to_dict(record: EventRecord, *, with_hash: bool = True) -> dict[str, Any]:
    """The JSON-compatible form of a record, ``None`` fields left out."""
    data: dict[str, Any] = RECORD.dump_python(record, mode="json", exclude_none=True, by_alias=True)
    if not with_hash:
        data.pop("hash", None)
    return data


def record_bytes(record: EventRecord) -> bytes:
    """The canonical line of a record (without the trailing newline)."""
    return canonical(record_to_dict(record))


def record_body(record: EventRecord) -> bytes:
    """The canonical JSON of a record without its hash: what the chain hashes."""
    return canonical(record_to_dict(record, with_hash=False))


def header_body(header: LogHeader) -> bytes:
    """The canonical JSON of a header without its hash."""
    return canonical(header.model_dump(mode="json", exclude_none=True, exclude={"hash"}))


def header_bytes(header: LogHeader) -> bytes:
    """The canonical line of a header."""
    return canonical(header.model_dump(mode="json", exclude_none=True))


def chain_hash(previous: str, body: bytes) -> str:
    """SHA-256 (hex) of the previous hash, a newline and a canonical body.

    ``previous`` is a hash, so ASCII; whatever else a damaged log puts there is hashed as
    UTF-8 (it then matches nothing), never an error.
    """
    # one buffer, one update: half the cost of three updates on a record-sized body
    h = _copy_state()
    _update(h, previous.encode("utf-8", "surrogatepass") + b"\n" + body)
    return _hexdigest(h)


def header_hash(header: LogHeader) -> str:
    """The chain's root: SHA-256 of the header's canonical JSON without its hash."""
    return hashlib.sha256(header_body(header)).hexdigest()


def seal_header(header: LogHeader) -> LogHeader:
    """The header with its hash set."""
    return header.model_copy(update={"hash": header_hash(header)})


def seal(previous: str, records: Iterable[EventRecord]) -> Iterator[EventRecord]:
    """Yield the records with chained hashes, starting from ``previous``."""
    for record in records:
        digest = chain_hash(previous, record_body(record.model_copy(update={"hash": None})))
        previous = digest
        yield record.model_copy(update={"hash": digest})


def parse_record(line: bytes, *, strict: bool = False) -> EventRecord:
    """Parse one record line (raises pydantic's ``ValidationError`` on bad input); ``strict``
    refuses what a log may not say (``"1"``, ``1.0`` or ``true`` for an integer)."""
    return RECORD.validate_json(line, strict=strict)


def deck_commitment(salt: str, card_ids: Iterable[str]) -> str:
    """SHA-256 (hex) committing to a deck order: the salt, a newline, the ids joined by commas."""
    h = hashlib.sha256(salt.encode("utf-8"))
    h.update(b"\n")
    h.update(",".join(card_ids).encode("utf-8"))
    return h.hexdigest()


__all__ = [
    "canonical",
    "chain_hash",
    "deck_commitment",
    "header_body",
    "header_bytes",
    "header_hash",
    "parse_record",
    "record_body",
    "record_bytes",
    "record_to_dict",
    "seal",
    "seal_header",
]
