"""State snapshots as the store keeps them: a game's board, dumped by the game's snapshots
(`vwlog.games.GameRules.snapshots`: Vandaria Wars' are `vwlog.games.vw.snapshots`), as plain
JSON bytes that name the record the board follows and carry a checksum; and what the store
keeps of a match of each game (`keeps_snapshots`, `measures`), and its board at any seq
(`board_at`).

Decoding builds nothing but what the game's snapshots rebuild (VW's: whitelisted value classes),
so a snapshot read from a shared database cannot run code (unlike pickle).
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from vwlog.engine.replay import BaseVisitor
from vwlog.engine.replay import Step as ReplayStep
from vwlog.games import GameRules, SnapshotFormatError, game_of_state
from vwlog.model.games import DEFAULT_GAME


def snapshots_of(game: GameRules) -> Any:
    """The snapshots of ``game`` (`GameRules.snapshots`), ``None`` for a game without them."""
    return game.snapshots


def _snapshots(state: object) -> Any:
    """The snapshots of the game whose board ``state`` is.

    Raises:
        SnapshotFormatError: the game keeps no snapshots.
    """
    game = game_of_state(state)
    found = snapshots_of(game)
    if found is None:
        raise SnapshotFormatError(f"game {game.id} keeps no snapshots")
    return found


def encode_state(state: Any) -> bytes:
    """The dynamic fields of a board as canonical JSON bytes (its game's ``dump``).

    Raises:
        SnapshotFormatError: the game keeps no snapshots, or the board holds a value they do
            not encode.
    """
    return orjson.dumps(_snapshots(state).dump(state), option=orjson.OPT_SORT_KEYS)


def decode_state(static: Any, data: bytes) -> Any:
    """A board from its static part and snapshot JSON (its game's ``load``).

    Raises:
        SnapshotFormatError: the data is not a snapshot of this vwlog version.
    """
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as err:
        raise SnapshotFormatError("not JSON") from err
    return _snapshots(static).load(static, raw)


# -- snapshot bytes: a state, the record it follows, a checksum ---------------------------


_SNAPSHOT_MAGIC = b"vwlog-snapshot-3\n"


def encode_snapshot(state: Any, record_hash: str | None) -> bytes:
    """The dynamic part of a state as bytes (the static part comes from the match's start event).

    Layout: a magic line, the hash of the record the state follows, the SHA-256 of the payload,
    then the payload (plain JSON, `encode_state`). A snapshot is used only if
    both hashes check out, so a corrupt or stale snapshot is rebuilt from the records instead
    of being trusted; decoding builds only whitelisted value classes, never runs code.
    """
    payload = encode_state(state)
    digest = hashlib.sha256(payload).hexdigest()
    head = f"{record_hash or ''}\n{digest}\n".encode()
    return _SNAPSHOT_MAGIC + head + payload


def decode_snapshot(static: Any, data: bytes, record_hash: str | None) -> Any | None:
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
    """Whether the store keeps boards of a match of ``game`` (`snapshots_of`); a match of a
    game without them is replayed from its start whenever a board is asked for."""
    return snapshots_of(game) is not None


def measures(game: GameRules) -> bool:
    """Whether a match of ``game`` is measured for the statistics (`GameRules.stats`: the
    metrics `vwlog.projections.stats.MatchMetricsVisitor` makes are Vandaria Wars'; another
    game's own statistics are measured when asked for, `vwlog.services.gamestats`)."""
    return game.stats is not None and game.id == DEFAULT_GAME


class _Snapshots(BaseVisitor["list[tuple[int, Any]]"]):
    """A replay visitor that keeps a state every ``every`` events (none for ``every`` 0)."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.taken: list[tuple[int, Any]] = []

    def visit(self, step: ReplayStep) -> None:
        """Keep the state after every ``every``-th event."""
        if self.every and step.record.seq % self.every == 0:
            self.taken.append((step.record.seq, step.after))

    def result(self) -> list[tuple[int, Any]]:
        """The states kept."""
        return self.taken


__all__ = [
    "SnapshotFormatError",
    "decode_snapshot",
    "decode_state",
    "encode_snapshot",
    "encode_state",
    "keeps_snapshots",
    "measures",
    "snapshot_record_hash",
    "snapshots_of",
]
