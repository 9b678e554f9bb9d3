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
from pydantic import ValidationError

from vwlog.events import GAME_EVENT, RECORD, EventRecord, LogHeader
from vwlog.events.match import deck_commitment
from vwlog.games import rules_for
from vwlog.model.causes import caused
from vwlog.model.games import DEFAULT_GAME

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from vwlog.events import AnyEvent

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
_loads: Final = orjson.loads
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
    """The JSON-compatible form of a record, ``None`` fields left out (a record of another
    game than Vandaria Wars by its own envelope's fields)."""
    data: dict[str, Any]
    if type(record) is _RECORD_CLASS:
        data = RECORD.dump_python(record, mode="json", exclude_none=True, by_alias=True)
    else:
        data = record.model_dump(mode="json", exclude_none=True, by_alias=True)
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


def parse_record(line: bytes, *, strict: bool = False, game: str | None = None) -> EventRecord:
    """Parse one record line of a match of ``game`` (absent: `DEFAULT_GAME`) with that game's
    records (`vwlog.games.GameRules.record`; raises pydantic's ``ValidationError`` on bad
    input); ``strict`` refuses what a log may not say (``"1"``, ``1.0`` or ``true`` for an
    integer).

    Raises:
        KeyError: ``game`` is not registered.
        vwlog.games.GameUnavailableError: its rules cannot be loaded.
    """
    if game is not None and game != DEFAULT_GAME:
        parsed: EventRecord = rules_for(game).record.validate_json(line, strict=strict)
        return parsed
    if strict and USUAL_FIRST:
        record = decode_record(line)
        if record is not None:
            return record
    return RECORD.validate_json(line, strict=strict)


# -- the usual record line, decoded in fewer steps -------------------------------------------

_RECORD_HEAD: Final = b'{"event":'
_HASH_HEAD: Final = b',"hash":"'
_SEQ_HEAD: Final = b'","seq":'
_HASH_DIGITS: Final = 64
_SHORTEST: Final = len(_RECORD_HEAD) + 2 + len(_HASH_HEAD) + _HASH_DIGITS + len(_SEQ_HEAD) + 2
"""The shortest line in the usual shape (``{}`` as the event, a one-digit seq)."""
_HASH_FROM: Final = len(_HASH_HEAD)
_HASH_TO: Final = _HASH_FROM + _HASH_DIGITS
_SEQ_FROM: Final = _HASH_TO + len(_SEQ_HEAD)
"""Where the hash's digits start and end, and the seq's start, from the hash member's start."""
_SEQ_MAX: Final = 10**12
"""The largest seq a record may carry (`EventRecord.seq`)."""
_SEQ_DIGITS: Final = 13
"""The digits of `_SEQ_MAX`."""
_CLOSE: Final = 125
"""The byte ``}``."""
_ZERO: Final = 48
_NINE: Final = 57
EVENTS_KEPT: Final = 2048
"""Events kept, by their JSON, for lines that repeat them (most do: passes of priority, steps
and phases starting); all are forgotten at once when the next one would not fit."""
EVENT_BYTES_KEPT: Final = 512
"""Longest event JSON kept (a match start's cards do not repeat)."""
_events: Final[dict[bytes, AnyEvent]] = {}
_validate_event: Final = GAME_EVENT.validator.validate_json
_new_object: Final = object.__new__
_RECORD_CLASS: Final = EventRecord


def usual_start(line: bytes) -> int:
    """Where the hash member starts in a line of the usual shape,
    ``{"event":…,"hash":"…","seq":N}`` with a hash of 64 ASCII letters or digits and a seq
    that is a JSON integer in 1 … 10¹²; -1 for a line of any other shape. (The event's JSON is
    not looked at: where it is one JSON value, the line is exactly an object of those three
    members.)"""
    close = len(line) - 1
    if close < _SHORTEST or line[close] != _CLOSE or not line.startswith(_RECORD_HEAD):
        return -1
    at = close - 1  # the seq's digits, read backwards from the closing brace
    while close - at <= _SEQ_DIGITS and _ZERO <= line[at] <= _NINE:
        at -= 1
    tail = at + 1 - len(_SEQ_HEAD)  # where '","seq":' starts
    start = tail - _HASH_DIGITS - len(_HASH_HEAD)  # where ',"hash":"' starts
    if (
        at == close - 1
        or close - at > _SEQ_DIGITS
        or line[at + 1] == _ZERO
        or start < len(_RECORD_HEAD)
        or line[tail : at + 1] != _SEQ_HEAD
        or line[start : start + len(_HASH_HEAD)] != _HASH_HEAD
        or usual_seq(line, start) > _SEQ_MAX
        # bytes' own test: str.isalnum asks the Unicode tables about every character
        or not line[tail - _HASH_DIGITS : tail].isalnum()
    ):
        return -1
    return start


def usual_event(line: bytes, start: int) -> bytes:
    """The event's JSON in a line of the usual shape whose hash member starts at ``start``
    (`usual_start`)."""
    return line[len(_RECORD_HEAD) : start]


def usual_hash(line: bytes, start: int) -> str:
    """The hash of a line of the usual shape whose hash member starts at ``start``."""
    return line[start + _HASH_FROM : start + _HASH_TO].decode("ascii")


def usual_seq(line: bytes, start: int) -> int:
    """The seq of a line of the usual shape whose hash member starts at ``start`` (its digits
    read as they stand: `usual_start` has checked them)."""
    seq = 0
    for at in range(start + _SEQ_FROM, len(line) - 1):
        seq = seq * 10 + line[at] - _ZERO
    return seq


def usual_body(line: bytes, start: int) -> bytes:
    """What the chain hashes of a line of the usual shape whose hash member starts at
    ``start``: the line without that member (canonical where the event's JSON is)."""
    return line[:start] + line[start + _HASH_TO + 1 :]


def is_canonical(text: bytes) -> bool:
    """Whether ``text`` is one JSON value in its canonical form."""
    try:
        return _dumps(_loads(text), option=_OPTS) == text
    except (orjson.JSONDecodeError, TypeError):
        return False


def decode_record(line: bytes) -> EventRecord | None:
    """The record of a line in the usual shape (`usual_start`), decoded in fewer steps than a
    whole validation; ``None`` for any other line, and for one whose event is not valid
    (`parse_record` then names what is wrong).

    The record is the one strict validation of the whole line makes: the event is validated
    strictly from its own JSON (a line in this shape is exactly an object of those three
    members when the event's JSON is one value), and the record is built as pydantic's
    ``model_construct`` builds one. Events are frozen models of frozen models and tuples, so
    an event whose JSON repeats is validated once and shared (`EVENTS_KEPT` of them at most).
    """
    start = usual_start(line)
    if start < 0:
        return None
    body = usual_event(line, start)
    event = _events.get(body)
    if event is None:
        try:
            event = _validate_event(body, strict=True)
        except ValidationError:
            return None
        if len(body) <= EVENT_BYTES_KEPT:
            if len(_events) >= EVENTS_KEPT:
                _events.clear()
            _events[body] = event
    record = _new_object(_RECORD_CLASS)
    # what model_construct sets; spelled out, compiled, each is one generic attribute store
    seq = usual_seq(line, start)
    digest = usual_hash(line, start)
    object.__setattr__(record, "__dict__", {"seq": seq, "at": None, "hash": digest, "event": event})
    object.__setattr__(record, "__pydantic_fields_set__", {"seq", "hash", "event"})
    object.__setattr__(record, "__pydantic_extra__", None)
    object.__setattr__(record, "__pydantic_private__", None)
    return record


USUAL_FIRST: Final = not str(globals().get("__file__", "")).endswith(".py")
"""Whether readers try `decode_record` (and the integrity pass `ChainCheck.take`) before the
whole way: only where this module is compiled. Interpreted, the byte tests cost more than the
pydantic and orjson work in C that they save (the pure engine took 175,300 instructions per
event with them, 146,800 without), so the pure engine goes the whole way; the records and
reports are the same either way."""


__all__ = [
    "EVENTS_KEPT",
    "EVENT_BYTES_KEPT",
    "USUAL_FIRST",
    "canonical",
    "chain_hash",
    "deck_commitment",
    "decode_record",
    "header_body",
    "header_bytes",
    "header_hash",
    "is_canonical",
    "parse_record",
    "record_body",
    "record_bytes",
    "record_to_dict",
    "seal",
    "seal_header",
    "usual_body",
    "usual_event",
    "usual_hash",
    "usual_seq",
    "usual_start",
]
