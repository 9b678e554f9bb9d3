"""vwlog records and catalog entries as eventsourcing stored events, and back.

A record is stored as the line the log file had: topic ``vwlog:<event type>:v<VERSION>`` for a
Vandaria Wars match (`vwlog.model.games.DEFAULT_GAME`) and ``vwlog:<game>.<event type>:v<VERSION>``
for a match of another game (so that no stored topic changed when games were named), ``state``
the canonical JSON bytes of the record, ``originator_id`` a UUID derived from the match
id, ``originator_version`` its sequence number. Nothing is re-serialised on the way in, so the
stored bytes are exactly what the hash chain covers; on the way out old versions are upcast and
parsed with `vwlog.io.codec.parse_record` under the match's game (its header's ``game``), which
the topic must name. The store's own entries (catalog, snapshots) have topics
in a ``vwlog-store:`` namespace that no event type can take.

eventsourcing's mapper API is loosely typed; ``Any`` stays in this module, and `RecordMapper`
offers typed methods for `vwlog.store.application`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias
from uuid import UUID, uuid5

import orjson
import pydantic
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder
from typing_extensions import override

from vwlog.events import EVENT_TYPES, BaseEvent, EventRecord, LogHeader, event_type
from vwlog.events.base import Record
from vwlog.games import GameUnavailableError, rules_for
from vwlog.io import codec
from vwlog.model.errors import StoreError
from vwlog.model.games import DEFAULT_GAME
from vwlog.store.catalog import IMPORT_FACTS, MatchMeta
from vwlog.store.localkey import tag, tag_holds

MATCH_NAMESPACE = UUID("c71bbc9a-e813-4b81-81b5-56a4d77c80a7")
"""Namespace of the uuid5 that names a match's record stream (and its snapshots)."""
CATALOG_NAMESPACE = UUID("4b346081-19b0-4dcd-b8d8-7e94005a6212")
"""Namespace of the uuid5 that names a match's catalog stream (header, then metadata)."""

REGISTERED_TOPIC = "vwlog-store:match_registered:v1"
"""Version 1 of a catalog stream: the header and the first metadata of a match."""
META_TOPIC = "vwlog-store:meta_updated:v1"
"""Later versions of a catalog stream: the metadata replaced."""
SNAPSHOT_TOPIC = "vwlog-store:snapshot:v1"
"""A snapshot: opaque bytes from the caller, at version = the seq it was taken after."""
CATALOG_TOPICS = (REGISTERED_TOPIC, META_TOPIC)
"""Topics of catalog entries, for reading the catalog from the notification log."""

_RECORD_TOPIC = re.compile(r"vwlog:(?:([a-z][a-z0-9_]*)\.)?([a-z0-9_]+):v([0-9]+)\Z")
"""A record's topic: the game (absent for `DEFAULT_GAME`), the event's type tag, its version."""

JsonObject: TypeAlias = dict[str, Any]
Upcaster: TypeAlias = Callable[[JsonObject], JsonObject]
"""Turns the JSON object of an event at version N into the same event at version N+1."""

UPCASTERS: dict[tuple[str, int], Upcaster] = {}
"""Upcasters of stored events by (event type tag, version they read)."""


def register_upcaster(tag: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register an upcaster from version ``from_version`` of event ``tag`` to the next.

    Stored records keep the bytes they were written with; the upcasters run on every read of
    an old record, in order, until the event has the version its class declares. An event of a
    game other than `DEFAULT_GAME` is registered as ``<game>.<type tag>``.
    """

    def register(upcaster: Upcaster) -> Upcaster:
        UPCASTERS[(tag, from_version)] = upcaster
        return upcaster

    return register


@functools.lru_cache(maxsize=4096)
def match_uuid(match_id: str) -> UUID:
    """The stream id of a match's records (and snapshots)."""
    return uuid5(MATCH_NAMESPACE, match_id)


@functools.lru_cache(maxsize=4096)
def catalog_uuid(match_id: str) -> UUID:
    """The stream id of a match's catalog entries."""
    return uuid5(CATALOG_NAMESPACE, match_id)


_TOPICS: dict[tuple[type[BaseEvent], str | None], tuple[int, str]] = {}


def stored_game(game: str | None) -> str | None:
    """The game a topic names for a match of ``game``: ``None`` for `DEFAULT_GAME` (its
    topics name none), else ``game``."""
    return None if game is None or game == DEFAULT_GAME else game


def topic_game(topic: str) -> str | None:
    """The game a record topic names (``None``: `DEFAULT_GAME`, or no record topic)."""
    found = _RECORD_TOPIC.match(topic)
    return found[1] if found is not None else None


def record_topic(event: BaseEvent, game: str | None = None) -> str:
    """The stored topic of an event of a match of ``game``: ``vwlog:<type tag>:v<VERSION>``
    for `DEFAULT_GAME` (or ``None``), ``vwlog:<game>.<type tag>:v<VERSION>`` for another."""
    cls = type(event)
    named = stored_game(game)
    cached = _TOPICS.get((cls, named))
    if cached is None or cached[0] != cls.VERSION:  # a VERSION can be patched in tests
        kind = event_type(event) if named is None else f"{named}.{event_type(event)}"
        cached = _TOPICS[(cls, named)] = (cls.VERSION, f"vwlog:{kind}:v{cls.VERSION}")
    return cached[1]


@dataclass(frozen=True, slots=True)
class RecordStored:
    """A record as an eventsourcing domain event: its line and what it parses to."""

    originator_id: UUID
    originator_version: int
    record: EventRecord
    line: bytes


@dataclass(frozen=True, slots=True)
class MatchRegistered:
    """First entry of a catalog stream: the match's header and metadata."""

    originator_id: UUID
    originator_version: int
    header: LogHeader
    meta: MatchMeta


@dataclass(frozen=True, slots=True)
class MetaUpdated:
    """A later catalog entry: the match's metadata, replaced."""

    originator_id: UUID
    originator_version: int
    meta: MatchMeta


@dataclass(frozen=True, slots=True)
class SnapshotTaken:
    """A snapshot of something the caller derives from a match, after record ``version``."""

    originator_id: UUID
    originator_version: int
    data: bytes


StoreEvent: TypeAlias = RecordStored | MatchRegistered | MetaUpdated | SnapshotTaken
"""Everything the store keeps, as eventsourcing domain events."""


class OrjsonTranscoder(Transcoder):
    """JSON with orjson (sorted keys) for the store's own entries; records never pass here."""

    @override
    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)

    @override
    def decode(self, data: bytes) -> Any:
        return orjson.loads(data)


ENTRIES_KEPT = 4096
"""At most this many catalog entries' readings are kept by a mapper (then it starts afresh)."""


class RecordMapper(Mapper[UUID]):
    """Maps records and catalog entries to stored events and back.

    A configured compressor or cipher (eventsourcing's ``COMPRESSOR_TOPIC``, ``CIPHER_KEY``)
    applies to every ``state``; without one, as by default, a record's ``state`` is its line.

    Catalog entries and snapshots are tagged with an HMAC under ``key`` (this installation's,
    `vwlog.store.localkey`) over their stream, version and content: a catalog entry keeps its
    tag beside its content (``"vouch"``), a snapshot in a line before the caller's bytes
    (`VOUCH_PREFIX`). Records are never tagged: their hash chain holds them.
    """

    key: bytes | None = None
    """The key that tags catalog entries and snapshots; ``None``: nothing is tagged."""

    # Writing

    def stored_record(
        self, originator_id: UUID, line: bytes, record: Record, game: str | None = None
    ) -> StoredEvent:
        """A record's line of a match of ``game`` as a stored event, without re-serialising
        it."""
        return StoredEvent(
            originator_id=originator_id,
            originator_version=record.seq,
            topic=record_topic(record.event, game),
            state=self._protect(line) if self.compressor or self.cipher else line,
        )

    def stored_registration(self, match_id: str, header: LogHeader, meta: MatchMeta) -> StoredEvent:
        """The first catalog entry of a match."""
        return self.to_stored_event(MatchRegistered(catalog_uuid(match_id), 1, header, meta))

    def stored_meta(
        self, match_id: str, version: int, meta: MatchMeta, *, vouch: bool = True
    ) -> StoredEvent:
        """A catalog entry replacing a match's metadata, at catalog version ``version``; left
        untagged with ``vouch=False`` (the writer cannot vouch for what it carries over)."""
        stored = self.to_stored_event(MetaUpdated(catalog_uuid(match_id), version, meta))
        if vouch:
            return stored
        data = self.transcoder.decode(self._unprotect(stored))
        data.pop(_VOUCH_KEY, None)
        data.pop(_FACTS_KEY, None)
        return dataclasses.replace(stored, state=self._protect(self.transcoder.encode(data)))

    def stored_snapshot(self, match_id: str, seq: int, data: bytes) -> StoredEvent:
        """A snapshot taken after record ``seq``."""
        return self.to_stored_event(SnapshotTaken(match_uuid(match_id), seq, data))

    @override
    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        event: StoreEvent = domain_event
        match event:
            case RecordStored(originator_id=oid, line=line, record=record):
                return self.stored_record(oid, line, record)
            case MatchRegistered(header=header, meta=meta):
                topic = REGISTERED_TOPIC
                meta_json = _meta_json(meta)
                state = self._tagged_entry(
                    event.originator_id,
                    event.originator_version,
                    {
                        "header": header.model_dump(mode="json", exclude_none=True),
                        "meta": meta_json,
                    },
                    meta_json,
                )
            case MetaUpdated(meta=meta):
                topic = META_TOPIC
                meta_json = _meta_json(meta)
                state = self._tagged_entry(
                    event.originator_id, event.originator_version, meta_json, meta_json
                )
            case SnapshotTaken(data=data):
                topic = SNAPSHOT_TOPIC
                found = tag(
                    self.key,
                    "snapshot",
                    *_place(event.originator_id, event.originator_version),
                    data,
                )
                state = data if found is None else VOUCH_PREFIX + found.encode() + b"\n" + data
        return StoredEvent(
            originator_id=event.originator_id,
            originator_version=event.originator_version,
            topic=topic,
            state=self._protect(state),
        )

    # Reading

    def line(self, stored: StoredEvent) -> bytes:
        """The line a record was stored with, byte for byte."""
        return self._unprotect(stored) if self.compressor or self.cipher else stored.state

    def record(self, stored: StoredEvent, game: str | None = None) -> EventRecord:
        """A stored record of a match of ``game`` (its header's), upcast to the current version
        of its event and parsed with that game's records.

        Raises:
            StoreError: The topic names another game than the match's, no known event type of
                it or a version newer than this vwlog reads, an upcaster is missing, the game's
                rules cannot be loaded, or the stored bytes do not parse.
        """
        line = self.line(stored)
        found = _RECORD_TOPIC.match(stored.topic)
        if found is None:
            raise _unreadable(stored, "not a record topic")
        named, tag, version = found[1], found[2], int(found[3])
        ours = stored_game(game)
        if named != ours:
            detail = (
                f"stored for game {named or DEFAULT_GAME}, the match is of {ours or DEFAULT_GAME}"
            )
            raise _unreadable(stored, detail)
        cls = _event_class(stored, named, tag)
        key = tag if named is None else f"{named}.{tag}"
        try:
            if version == cls.VERSION:
                return codec.parse_record(line, strict=True, game=named)
            if version > cls.VERSION:
                detail = f"written as v{version}, this vwlog reads {key} up to v{cls.VERSION}"
                raise _unreadable(stored, detail)
            upcast = _upcast(stored, key, version, cls.VERSION, line)
            return codec.parse_record(orjson.dumps(upcast), strict=True, game=named)
        except (orjson.JSONDecodeError, pydantic.ValidationError, KeyError, TypeError) as err:
            raise _unreadable(stored, str(err).splitlines()[0]) from err

    def record_hash(self, stored: StoredEvent) -> str:
        """The chain hash of a stored record, without parsing the whole record.

        Raises:
            StoreError: The stored bytes are not a record with a hash.
        """
        try:
            digest = orjson.loads(self.line(stored)).get("hash")
        except (orjson.JSONDecodeError, AttributeError) as err:
            raise _unreadable(stored, "not a JSON object") from err
        if not isinstance(digest, str):
            raise _unreadable(stored, "the record has no hash")
        return digest

    def registration(self, stored: StoredEvent) -> tuple[LogHeader, MatchMeta]:
        """The header and first metadata of a match from its first catalog entry.

        Raises:
            StoreError: The entry is not a registration or does not parse.
        """
        if stored.topic != REGISTERED_TOPIC:
            raise _unreadable(stored, f"expected {REGISTERED_TOPIC}")
        try:
            data = self.transcoder.decode(self._unprotect(stored))
            return LogHeader.model_validate(data["header"]), MatchMeta.model_validate(data["meta"])
        except (orjson.JSONDecodeError, pydantic.ValidationError, KeyError, TypeError) as err:
            raise _unreadable(stored, str(err).splitlines()[0]) from err

    def meta(self, stored: StoredEvent) -> MatchMeta:
        """The metadata in a catalog entry (a registration or an update).

        Raises:
            StoreError: The entry is not a catalog entry or does not parse.
        """
        return self.meta_vouched(stored)[0]

    def meta_vouched(self, stored: StoredEvent) -> tuple[MatchMeta, bool]:
        """The metadata in a catalog entry, and whether its tag holds under this key (the
        entry is as an installation with this key wrote it: no field of it, nor of the
        header a registration holds, was altered since).

        Raises:
            StoreError: The entry is not a catalog entry or does not parse.
        """
        return self._entry(stored)[:2]

    def facts_vouched(self, stored: StoredEvent) -> MatchMeta | None:
        """The metadata in a catalog entry if the tag of its facts of the import
        (`vwlog.store.catalog.IMPORT_FACTS`) holds under this key, else ``None``: the
        entry's other fields may have been altered (the records give them again), these not.

        Raises:
            StoreError: The entry is not a catalog entry or does not parse.
        """
        meta, _, facts = self._entry(stored)
        return meta if facts else None

    def _entry(self, stored: StoredEvent) -> tuple[MatchMeta, bool, bool]:
        # what an entry says is a function of its stream, version, topic and bytes (and this
        # mapper's key): the service reads a match's entry on every request, so the answer for
        # the same bytes is kept (at most `ENTRIES_KEPT`, then afresh)
        memo: dict[tuple[Any, ...], tuple[MatchMeta, bool, bool]]
        memo = self.__dict__.setdefault("_entries", {})
        at = (stored.originator_id, stored.originator_version, stored.topic, stored.state)
        found = memo.get(at)
        if found is None:
            found = self._read_entry(stored)
            if len(memo) >= ENTRIES_KEPT:
                memo.clear()
            memo[at] = found
        return found

    def _read_entry(self, stored: StoredEvent) -> tuple[MatchMeta, bool, bool]:
        if stored.topic not in CATALOG_TOPICS:
            raise _unreadable(stored, f"expected {META_TOPIC}")
        try:
            data = self.transcoder.decode(self._unprotect(stored))
            found = data.pop(_VOUCH_KEY, None) if isinstance(data, dict) else None
            found_facts = data.pop(_FACTS_KEY, None) if isinstance(data, dict) else None
            vouched = tag_holds(
                self.key,
                found,
                "catalog",
                *_place(stored.originator_id, stored.originator_version),
                self.transcoder.encode(data),
            )
            meta_data = data["meta"] if stored.topic == REGISTERED_TOPIC else data
            facts = tag_holds(
                self.key, found_facts, "facts", *self._facts(stored.originator_id, meta_data)
            )
            if stored.topic == REGISTERED_TOPIC:
                LogHeader.model_validate(data["header"])
            return MatchMeta.model_validate(meta_data), vouched, facts
        except (orjson.JSONDecodeError, pydantic.ValidationError, KeyError, TypeError) as err:
            raise _unreadable(stored, str(err).splitlines()[0]) from err

    def snapshot(self, stored: StoredEvent) -> bytes:
        """The caller's bytes of a stored snapshot."""
        return self.snapshot_vouched(stored)[0]

    def snapshot_vouched(self, stored: StoredEvent) -> tuple[bytes, bool]:
        """The caller's bytes of a stored snapshot, and whether its tag holds under this key
        (this installation wrote these bytes for this match and seq)."""
        state = self._unprotect(stored)
        if not state.startswith(VOUCH_PREFIX):
            return state, False
        found, _, data = state[len(VOUCH_PREFIX) :].partition(b"\n")
        place = _place(stored.originator_id, stored.originator_version)
        return data, tag_holds(self.key, found.decode(errors="replace"), "snapshot", *place, data)

    def _tagged_entry(
        self, oid: UUID | str, version: int, data: JsonObject, meta: JsonObject
    ) -> bytes:
        """A catalog entry's JSON with its tags (`meta_vouched`, `facts_vouched`), when there
        is a key."""
        content = self.transcoder.encode(data)
        found = tag(self.key, "catalog", *_place(oid, version), content)
        facts = tag(self.key, "facts", *self._facts(oid, meta))
        if found is None or facts is None:
            return content
        return self.transcoder.encode({**data, _VOUCH_KEY: found, _FACTS_KEY: facts})

    def _facts(self, oid: UUID | str, meta: Any) -> tuple[bytes, bytes]:
        """What the tag of an entry's facts of the import covers: the match, and the facts."""
        facts = {name: meta.get(name) for name in IMPORT_FACTS} if isinstance(meta, dict) else {}
        return _place(oid, 0)[0], self.transcoder.encode(facts)

    @override
    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        oid = stored_event.originator_id
        if not isinstance(oid, UUID):
            oid = UUID(oid)
        version = stored_event.originator_version
        event: StoreEvent
        if stored_event.topic == REGISTERED_TOPIC:
            header, meta = self.registration(stored_event)
            event = MatchRegistered(oid, version, header, meta)
        elif stored_event.topic == META_TOPIC:
            event = MetaUpdated(oid, version, self.meta(stored_event))
        elif stored_event.topic == SNAPSHOT_TOPIC:
            event = SnapshotTaken(oid, version, self.snapshot(stored_event))
        else:
            record = self.record(stored_event, topic_game(stored_event.topic))
            event = RecordStored(oid, version, record, self.line(stored_event))
        return event

    def _protect(self, state: bytes) -> bytes:
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return state

    def _unprotect(self, stored: StoredEvent) -> bytes:
        state = stored.state
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        return state


VOUCH_PREFIX = b"vwlog-vouch-1 "
"""How a tagged snapshot's stored bytes begin: this, the tag, a line feed, the caller's bytes."""
_VOUCH_KEY = "vouch"
"""The key of a catalog entry's tag in its stored JSON."""
_FACTS_KEY = "vouch_facts"
"""The key of the tag of a catalog entry's facts of the import in its stored JSON."""


def _place(oid: UUID | str, version: int) -> tuple[bytes, bytes]:
    """A stored event's stream and version, as tagged."""
    return str(oid if isinstance(oid, UUID) else UUID(str(oid))).encode(), str(version).encode()


def _meta_json(meta: MatchMeta) -> dict[str, Any]:
    """A catalog entry in JSON mode, its ``metrics`` (JSON already, and of a size that grows
    with the match's turns) as they are rather than copied."""
    data = meta.model_dump(mode="json", exclude={"metrics"})
    if not data["tags"]:
        del data["tags"]  # entries of untagged matches stay as they always were
    data["metrics"] = meta.metrics
    return data


def _upcast(stored: StoredEvent, tag: str, version: int, target: int, line: bytes) -> JsonObject:
    data: JsonObject = orjson.loads(line)
    event: JsonObject = data["event"]
    for step in range(version, target):
        upcaster = UPCASTERS.get((tag, step))
        if upcaster is None:
            raise _unreadable(stored, f"no upcaster for {tag} from v{step} to v{step + 1}")
        event = upcaster(event)
    data["event"] = event
    return data


def _event_class(stored: StoredEvent, game: str | None, tag: str) -> type[BaseEvent]:
    """The class of the event a record topic names: `EVENT_TYPES`' for `DEFAULT_GAME`
    (``None``), else the game's (`vwlog.games.GameRules.event_types`)."""
    if game is None:
        known: Any = EVENT_TYPES
    else:
        try:
            known = rules_for(game).event_types
        except (KeyError, GameUnavailableError) as err:
            raise _unreadable(stored, f"the rules of game {game} cannot be loaded") from err
    cls: type[BaseEvent] | None = known.get(tag)
    if cls is None:
        raise _unreadable(stored, f"unknown event type {tag!r} (stored by a newer vwlog?)")
    return cls


def _unreadable(stored: StoredEvent, detail: str) -> StoreError:
    return StoreError(
        f"stored event {stored.originator_version} of stream {stored.originator_id} "
        f"({stored.topic}) cannot be read: {detail}"
    )


__all__ = [
    "CATALOG_TOPICS",
    "META_TOPIC",
    "REGISTERED_TOPIC",
    "SNAPSHOT_TOPIC",
    "UPCASTERS",
    "MatchRegistered",
    "MetaUpdated",
    "OrjsonTranscoder",
    "RecordMapper",
    "RecordStored",
    "SnapshotTaken",
    "StoreEvent",
    "Upcaster",
    "catalog_uuid",
    "match_uuid",
    "record_topic",
    "register_upcaster",
    "stored_game",
    "topic_game",
]
