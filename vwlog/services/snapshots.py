"""State snapshots as plain JSON: only whitelisted value classes are ever rebuilt.

A snapshot holds the *dynamic* part of a `MatchState` (the static part — ruleset, card
definitions, seats — is rebuilt from the match's first record). Values are encoded with tags:
``{"t": [...]}`` a tuple, ``{"f": [...]}`` a frozenset, ``{"m": [[k, v], ...]}`` a mapping,
``{"c": "Permanent", "v": {...}}`` a value class. Decoding builds nothing but these, so a
snapshot read from a shared database cannot run code (unlike pickle).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import TYPE_CHECKING, Any

import orjson

from vwlog.engine.replay import BaseVisitor, FinalState, replay
from vwlog.engine.replay import Step as ReplayStep
from vwlog.games import GameRules, rules_for
from vwlog.model.errors import StoredSeqOutOfRangeError
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.state import (
    Allot,
    Combat,
    MatchState,
    Modifier,
    PendingCost,
    Permanent,
    PlayerState,
    RegisterObject,
    Trigger,
    replace,
)
from vwlog.model.types import Expiry, Phase, Stat, Step

if TYPE_CHECKING:
    from vwlog.store import MatchStore

_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        Allot,
        Combat,
        Modifier,
        PendingCost,
        Permanent,
        PlayerState,
        RegisterObject,
        Trigger,
    )
}
_ENUM_FIELDS: dict[str, Any] = {"phase": Phase, "step": Step, "stat": Stat, "expires": Expiry}
STATIC_FIELDS = ("ruleset", "cards", "instances", "owners", "first_player", "commitments", "seats")
"""Fields fixed by `MatchStarted`, not stored in snapshots."""


class SnapshotFormatError(ValueError):
    """Snapshot data that is not a valid encoding."""


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"f": sorted((_encode(v) for v in value), key=orjson.dumps)}
    if isinstance(value, dict):
        return {"m": [[_encode(k), _encode(v)] for k, v in value.items()]}
    name = type(value).__name__
    if _CLASSES.get(name) is type(value):
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"c": name, "v": fields}
    raise SnapshotFormatError(f"cannot encode a {name}")


def _decode(data: Any, field: str | None = None) -> Any:
    if data is None or isinstance(data, (bool, int)):
        return data
    if isinstance(data, str):
        enum = _ENUM_FIELDS.get(field or "")
        return enum(data) if enum is not None else data
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise SnapshotFormatError("malformed value")
    if "t" in data:
        return tuple(_decode(v) for v in data["t"])
    if "f" in data:
        return frozenset(_decode(v) for v in data["f"])
    if "m" in data:
        return {_decode(k): _decode(v) for k, v in data["m"]}
    cls = _CLASSES.get(data.get("c", ""))
    fields = data.get("v")
    if cls is None or not isinstance(fields, dict):
        raise SnapshotFormatError(f"unknown value class {data.get('c')!r}")
    known = {f.name for f in dataclasses.fields(cls)}
    if not set(fields) <= known:
        raise SnapshotFormatError(f"unknown fields of {cls.__name__}")
    return cls(**{k: _decode(v, k) for k, v in fields.items()})


def encode_state(state: MatchState) -> bytes:
    """The dynamic fields of a state as canonical JSON bytes."""
    dynamic = {
        f.name: _encode(getattr(state, f.name))
        for f in dataclasses.fields(state)
        if f.name not in STATIC_FIELDS
    }
    return orjson.dumps(dynamic, option=orjson.OPT_SORT_KEYS)


def decode_state(static: MatchState, data: bytes) -> MatchState:
    """A state from its static part and snapshot JSON.

    Raises:
        SnapshotFormatError: the data is not a snapshot of this vwlog version.
    """
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as err:
        raise SnapshotFormatError("not JSON") from err
    if not isinstance(raw, dict):
        raise SnapshotFormatError("not an object")
    known = {f.name for f in dataclasses.fields(static)} - set(STATIC_FIELDS)
    if set(raw) != known:
        raise SnapshotFormatError("fields differ from this version's state")
    return replace(static, **{k: _decode(v, k) for k, v in raw.items()})


# -- snapshot bytes: a state, the record it follows, a checksum ---------------------------

_SNAPSHOT_MAGIC = b"vwlog-snapshot-3\n"


def encode_snapshot(state: MatchState, record_hash: str | None) -> bytes:
    """The dynamic part of a state as bytes (the static part comes from `MatchStarted`).

    Layout: a magic line, the hash of the record the state follows, the SHA-256 of the payload,
    then the payload (plain JSON, `encode_state`). A snapshot is used only if
    both hashes check out, so a corrupt or stale snapshot is rebuilt from the records instead
    of being trusted; decoding builds only whitelisted value classes, never runs code.
    """
    payload = encode_state(state)
    digest = hashlib.sha256(payload).hexdigest()
    head = f"{record_hash or ''}\n{digest}\n".encode()
    return _SNAPSHOT_MAGIC + head + payload


def decode_snapshot(static: MatchState, data: bytes, record_hash: str | None) -> MatchState | None:
    """A state from snapshot bytes; ``None`` unless it belongs to ``record_hash`` and its
    payload is intact."""
    if not data.startswith(_SNAPSHOT_MAGIC):
        return None
    parts = data[len(_SNAPSHOT_MAGIC) :].split(b"\n", 2)
    if len(parts) != 3:
        return None
    for_record, digest, payload = parts
    if for_record.decode(errors="replace") != (record_hash or ""):
        return None
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    try:
        return decode_state(static, payload)
    except (SnapshotFormatError, TypeError, ValueError):
        return None  # rebuilt from the records instead


def snapshot_record_hash(data: bytes) -> str | None:
    """The hash of the record a snapshot says it follows (``None`` if it is no snapshot)."""
    if not data.startswith(_SNAPSHOT_MAGIC):
        return None
    named = data[len(_SNAPSHOT_MAGIC) :].partition(b"\n")[0]
    return named.decode(errors="replace") or None


def keeps_snapshots(game: GameRules) -> bool:
    """Whether the store keeps boards of a match of ``game`` (`GameRules.snapshots`); a match
    of a game without them is replayed from its start whenever a board is asked for.

    The boards this module encodes are Vandaria Wars' (`MatchState`): its rules are taken to
    keep them until they name `vwlog.games.vw.snapshots.SNAPSHOTS` themselves."""
    return game.snapshots is not None or game.id == DEFAULT_GAME


def measures(game: GameRules) -> bool:
    """Whether a match of ``game`` is measured for the statistics (`GameRules.stats`): the
    metrics `vwlog.projections.stats.MatchMetricsVisitor` makes are Vandaria Wars' (its rules
    are taken to have them until they name them)."""
    return game.stats is not None or game.id == DEFAULT_GAME


def board_at(store: MatchStore, match_id: str, seq: int | None = None) -> Any:
    """The board after event ``seq`` (default: the last) of a stored match of any game: from
    the nearest snapshot where its game keeps them (`vwlog.services.seek.state_at`), else
    replayed from the start of its records, each taken only once it continues the hash chain
    to the head the catalog recorded (`vwlog.services.seek.checked_records`).

    Raises:
        MatchNotFoundError: no such match.
        StoredSeqOutOfRangeError: seq is out of range.
        StoreError: the records do not chain (altered in the database).
    """
    from vwlog.services.seek import checked_records, state_at

    header = store.header(match_id)
    game = rules_for(header.game)
    if keeps_snapshots(game):
        return state_at(store, match_id, seq)
    head = store.head(match_id)
    target = head.seq if seq is None else seq
    if not 0 <= target <= head.seq:
        raise StoredSeqOutOfRangeError(match_id, target, head.seq)
    kept = []
    for record in checked_records(store, match_id):  # to the end: the catalog's head anchors
        if record.seq <= target:
            kept.append(record)
    if not kept:
        return game.initial
    return replay(kept, FinalState(), header=header, game=game)


class _Snapshots(BaseVisitor["list[tuple[int, MatchState]]"]):
    """A replay visitor that keeps a state every ``every`` events (none for ``every`` 0)."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.taken: list[tuple[int, MatchState]] = []

    def visit(self, step: ReplayStep) -> None:
        """Keep the state after every ``every``-th event."""
        if self.every and step.record.seq % self.every == 0:
            self.taken.append((step.record.seq, step.after))

    def result(self) -> list[tuple[int, MatchState]]:
        """The states kept."""
        return self.taken


__all__ = [
    "STATIC_FIELDS",
    "SnapshotFormatError",
    "board_at",
    "decode_snapshot",
    "decode_state",
    "encode_snapshot",
    "encode_state",
    "keeps_snapshots",
    "measures",
    "snapshot_record_hash",
]
