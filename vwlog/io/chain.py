"""Integrity: recompute a log's hash chain and check deck commitments against their reveals."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import orjson
from pydantic import ValidationError

from vwlog.events import DeckRevealed, EventRecord, LogHeader, MatchStarted
from vwlog.io import codec
from vwlog.io.logfile import open_log
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.text import msg, said_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.io.logfile import LogReader


# -- integrity -------------------------------------------------------------------------------

_NOT_A_RECORD: Final = said_text(msg("line altered: no longer a valid record"))
_HASH_KEY: Final = b'"hash":"'
_HASH_END: Final = b'",'
_loads: Final = orjson.loads
"""``orjson.loads`` as a constant (compiled, not looked up in the module at every line)."""


@dataclass(frozen=True, slots=True)
class BrokenLink:
    """The first place where a hash chain does not hold."""

    seq: int | None
    """The record's seq, by its position in the chain (``None`` for the header)."""
    line: int
    """The line of the file."""
    reason: str
    expected: str | None = None
    found: str | None = None


@dataclass(frozen=True, slots=True)
class Commitment:
    """A deck-order commitment and what its reveal showed."""

    player: str
    status: str
    """``verified``, ``mismatch`` or ``not revealed``."""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The outcome of checking a log's hash chain and deck commitments."""

    source: str
    match_id: str | None
    records: int
    head_hash: str | None
    broken: BrokenLink | None
    commitments: tuple[Commitment, ...] = ()
    sealed: bool = True
    """Whether the log carries hashes at all."""
    seal: str | None = None
    """For a stored match, where its chain came from: ``author`` (the log carried its hashes),
    ``import`` (sealed on import: the log carried none), ``None`` if not recorded."""
    derived: tuple[str, ...] = ()
    """For a stored match, what its catalog entry, snapshots or the statistics view say that
    the records do not (each an alteration of derived data)."""
    repaired: tuple[str, ...] = ()
    """For a stored match checked with ``repair``, what was rebuilt from the records."""

    @property
    def ok(self) -> bool:
        """Whether the chain holds, no commitment failed and the derived data agree."""
        return (
            self.sealed
            and self.broken is None
            and all(c.status != "mismatch" for c in self.commitments)
            and not self.derived
        )


def verify_log(path: str | Path) -> VerifyReport:
    """Recompute a log file's hash chain and check deck commitments against their reveals.

    Reads raw lines itself, so an altered line is reported at its seq even when the alteration
    broke its JSON. The file is opened once (a pipe works) and lines are limited as
    validation limits them.

    Raises:
        LogFormatError: the file cannot be opened or read, has no valid header, or has a line
            longer than the limit.
    """
    with open_log(path) as reader:
        return verify_lines(
            reader.name, reader.header, reader.raw_lines(), header_line=header_line(reader)
        )


def header_line(reader: LogReader) -> bytes | None:
    """The header line as the file has it, to be held to canonical form; ``None`` for a file
    of an older format version (its header is upcast: its line is not its JSON)."""
    return None if reader.upcast else reader.header_raw


def verify_lines(
    source: str,
    header: LogHeader,
    lines: Iterable[tuple[int, bytes]],
    *,
    header_line: bytes | None = None,
) -> VerifyReport:
    """Check the chain of raw record lines ``(line number, bytes)`` under ``header``.

    A line passes only in canonical form: the hash of a record written another way (``2.0``
    for ``2``, ``"5"`` for ``5``) may still match, but the line does not; nor does the header
    line (``header_line``, as read), when it is given.
    """
    check = ChainCheck(source, header, header_line)
    for line_no, raw in lines:
        check.feed(line_no, raw)
        if check.stopped:
            break
    return check.report()


_COMMITTING: Final = ("match_started", "deck_revealed")
"""The events that carry deck commitments or their reveals (a tuple: a damaged line may put an
unhashable value where the type belongs)."""
_COMMITTING_TYPES: Final = frozenset({MatchStarted, DeckRevealed})
"""Their classes, for a line read as a record already."""


class ChainCheck:
    """The hash chain and deck commitments of a log, checked one raw line at a time (so one
    read of a log can also replay it): `feed` each record line, then `report`."""

    def __init__(self, source: str, header: LogHeader, header_line: bytes | None = None) -> None:
        """``header_line``: the header line as read, held to canonical form like every record
        line (``None``: the header has no line of its own, as in the store)."""
        self.source = source
        self.header = header
        self.hashed = header.hash is not None
        self.broken: BrokenLink | None = None
        if self.hashed:
            root = codec.header_hash(header)
            if root != header.hash:
                self.broken = BrokenLink(
                    None, 1, said_text(msg("header altered")), root, header.hash
                )
            elif header_line is not None and not _canonical_line(header_line):
                # the hash still matches the header's content, but the line is written
                # another way (spaces, key order, an escape, ``1.0`` for ``1``)
                self.broken = BrokenLink(
                    None, 1, said_text(msg("header altered: not in canonical form"))
                )
        self.previous: str = header.hash or ""
        self.count = 0
        self.stopped = False
        """A line could not be read as a record: the chain ends there."""
        self._starts: dict[str, tuple[str | None, tuple[str, ...]]] = {}
        self._reveals: dict[str, str] = {}

    def feed(
        self, line_no: int, raw: bytes, record: EventRecord | None = None
    ) -> dict[str, Any] | None:
        """Check one record line; the decoded JSON object (without its ``hash``), or ``None``
        if the line is no JSON object (the chain then stops) or the log carries no hashes.

        ``record``: the line already parsed as a current-format record, if it was (a deck
        commitment is then read from it instead of parsing the line again)."""
        if not self.hashed or self.stopped:
            return None
        self.count += 1
        count = self.count
        # fast path: hash the canonical re-dump of the parsed JSON (what the writer hashed);
        # the record model is consulted only when that does not match, and for the events
        # that carry deck commitments
        try:
            data = _loads(raw)
        except orjson.JSONDecodeError:
            data = None
        if not isinstance(data, dict):
            self._break(BrokenLink(count, line_no, _NOT_A_RECORD))
            self.stopped = True
            return None
        claimed: Any = None
        if "hash" in data:  # ``data.pop("hash", None)``, without a method call (compiled)
            claimed = data["hash"]
            del data["hash"]
        try:
            body = codec.canonical(data)
        except codec.EncodeError:
            body = b""
        expected = codec.chain_hash(self.previous, body)
        if claimed == expected and self._sound(count, raw, data, claimed, body, record):
            return data
        # something is off: find out what
        canonical_line: bytes | None = None
        if claimed != expected:
            try:
                record = codec.parse_record(raw, strict=True, game=self.header.game)
                expected = codec.chain_hash(self.previous, codec.record_body(record))
                canonical_line = codec.record_bytes(record)
            except (ValidationError, codec.EncodeError):
                self._break(BrokenLink(count, line_no, _NOT_A_RECORD))
                self.stopped = True
                return None
        if self.broken is None:
            self.broken = _link_problem(
                count, line_no, data, claimed, expected, raw, canonical_line
            )
        # a claim equal to the expected hash is a hash: the shape check is for the rest
        self.previous = claimed if claimed == expected or codec.is_hash(claimed) else expected
        self._note_commitment(data, raw, record)
        return data

    def take(self, raw: bytes, record: EventRecord) -> bool:
        """Take a line of the usual shape (`codec.usual_start`) read as ``record`` already,
        if it continues the chain, is in its place and is canonical, as `feed` would: the
        usual line, without decoding it again (the event's JSON is checked for its canonical
        form once per distinct JSON). ``False`` takes nothing: `feed` the line instead."""
        if not self.hashed or self.stopped or self.broken is not None:
            return False
        start = codec.usual_start(raw)
        if start < 0:
            return False
        seq = codec.usual_seq(raw, start)
        if seq != self.count + 1 or not _canonical_event(codec.usual_event(raw, start)):
            return False
        claimed = codec.usual_hash(raw, start)
        if codec.chain_hash(self.previous, codec.usual_body(raw, start)) != claimed:
            return False
        self.count = seq
        self.previous = claimed
        if type(record.event) in _COMMITTING_TYPES:
            self._commitment(raw, record)
        return True

    def _sound(
        self,
        count: int,
        raw: bytes,
        data: dict[str, Any],
        claimed: str,
        body: bytes,
        record: EventRecord | None,
    ) -> bool:
        """Take a line whose hash continues the chain, if it is also in its place and
        canonical (or the chain broke before it, when only the hashes are followed): the
        usual line, on the fewest steps. ``False`` leaves it to the full analysis in `feed`."""
        if self.broken is None:
            if data.get("seq") != count:
                return False
            if raw != _hashed_line(data, claimed, body):
                return False
        self.previous = claimed
        self._note_commitment(data, raw, record)
        return True

    def _note_commitment(
        self, data: dict[str, Any], raw: bytes, record: EventRecord | None
    ) -> None:
        """Keep the deck commitment or reveal a line carries, if it carries one."""
        event_data = data.get("event")
        if isinstance(event_data, dict) and event_data.get("type") in _COMMITTING:
            self._commitment(raw, record)

    def _break(self, link: BrokenLink) -> None:
        if self.broken is None:
            self.broken = link

    def _commitment(self, raw: bytes, record: EventRecord | None) -> None:
        if record is None:
            try:
                record = codec.parse_record(raw, strict=True, game=self.header.game)
            except ValidationError:
                return
        event = record.event
        if isinstance(event, MatchStarted):
            for seat in event.seats:
                self._starts[seat.player] = (seat.deck_commitment, tuple(c.id for c in seat.deck))
        elif isinstance(event, DeckRevealed):
            self._reveals[event.player] = event.salt

    def report(self) -> VerifyReport:
        """What the lines fed so far show."""
        header = self.header
        if not self.hashed:
            return VerifyReport(self.source, header.match_id, 0, None, None, sealed=False)
        commitments = []
        for player, (commitment, deck) in self._starts.items():
            if commitment is None:
                continue
            salt = self._reveals.get(player)
            if salt is None:
                commitments.append(Commitment(player, "not revealed"))
            elif codec.deck_commitment(salt, deck) == commitment:
                commitments.append(Commitment(player, "verified"))
            else:
                commitments.append(Commitment(player, "mismatch"))
        return VerifyReport(
            self.source,
            header.match_id,
            self.count,
            self.previous,
            self.broken,
            commitments=tuple(commitments),
        )


CANONICAL_KEPT: Final = 2048
"""Event JSON known to be canonical, kept for the lines that repeat it; forgotten all at once
when the next one would not fit."""
_canonical: Final[set[bytes]] = set()


def _canonical_event(event: bytes) -> bool:
    """Whether an event's JSON is canonical (remembered for the JSON that is)."""
    if event in _canonical:
        return True
    if not codec.is_canonical(event):
        return False
    if len(_canonical) >= CANONICAL_KEPT:
        _canonical.clear()
    _canonical.add(event)
    return True


def _hashed_line(data: dict[str, Any], claimed: str, body: bytes) -> bytes:
    """The canonical line of ``data`` with ``hash`` set to ``claimed``, where ``body`` is the
    canonical JSON of ``data`` (``claimed`` matched the hash of ``body``: 64 hex digits).

    The usual record has an integer ``seq`` and besides it only ``at`` and ``event``, which
    sort before ``hash``: ``body`` then ends in ``"seq":`` and the integer's digits, and the
    hash member goes just before them. That is the bytes of ``body`` copied once, not the
    record encoded again; any other object is encoded again. ``b""`` if it cannot be encoded."""
    seq = data.get("seq")
    if type(seq) is int and len(data) == 1 + ("at" in data) + ("event" in data):
        cut = len(body) - len(str(seq)) - 7  # '"seq":' and '}'
        # one join: four concatenations copied the growing line four times
        return b"".join((body[:cut], _HASH_KEY, claimed.encode("ascii"), _HASH_END, body[cut:]))
    try:
        return codec.canonical({**data, "hash": claimed})
    except codec.EncodeError:
        return b""


def _canonical_line(raw: bytes) -> bool:
    """Whether ``raw`` is the canonical JSON of what it says."""
    try:
        return raw == codec.canonical(_loads(raw))
    except (orjson.JSONDecodeError, codec.EncodeError):
        return False


def _link_problem(
    count: int,
    line_no: int,
    data: dict[str, Any],
    claimed: object,
    expected: str,
    raw: bytes,
    canonical_line: bytes | None,
) -> BrokenLink | None:
    """How one line breaks the chain, if it does (named by its position in the chain, whatever
    seq the line claims)."""
    if claimed != expected:
        shown = claimed if isinstance(claimed, str) else None
        return BrokenLink(
            count, line_no, said_text(msg("hash does not match the chain")), expected, shown
        )
    if data.get("seq") != count:
        said = msg("seq altered (the line says {seq})", seq=data.get("seq"))
        return BrokenLink(count, line_no, said_text(said))
    if raw != (canonical_line or codec.canonical({**data, "hash": claimed})):
        return BrokenLink(count, line_no, said_text(msg("line altered: not in canonical form")))
    return None


def parsed_line(raw: bytes, game: str | None) -> EventRecord | None:
    """A stored line of a match of another game than `DEFAULT_GAME`, parsed with that game's
    records for the integrity pass (which reads a line it needs as Vandaria Wars'); ``None``
    for `DEFAULT_GAME` (the pass parses what it needs itself) and for a line that is no
    longer a record of the game (the chain check names it)."""
    if game is None or game == DEFAULT_GAME:
        return None
    try:
        return codec.parse_record(raw, strict=True, game=game)
    except (ValueError, KeyError):  # pydantic's ValidationError is a ValueError
        return None


def sealed(
    header: LogHeader, records: Iterable[EventRecord]
) -> tuple[LogHeader, list[EventRecord]]:
    """The header and records with their hash chain filled in."""
    head = codec.seal_header(header)
    assert head.hash is not None
    return head, list(codec.seal(head.hash, records))


__all__ = [
    "BrokenLink",
    "ChainCheck",
    "Commitment",
    "VerifyReport",
    "header_line",
    "parsed_line",
    "sealed",
    "verify_lines",
    "verify_log",
]
