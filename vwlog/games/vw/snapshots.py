"""Vandaria Wars' snapshots (`vwlog.games.GameRules.snapshots`): the dynamic part of a board as
JSON-ready data, and the board again from it and the static part.

A snapshot holds the *dynamic* part of a `MatchState` (the static part — ruleset, card
definitions, seats — is rebuilt from the match's first record: `static`). Values are encoded
with tags: ``{"t": [...]}`` a tuple, ``{"f": [...]}`` a frozenset, ``{"m": [[k, v], ...]}`` a
mapping, ``{"c": "Permanent", "v": {...}}`` a value class. Decoding builds nothing but these, so
a snapshot read from a shared database cannot run code (unlike pickle). The bytes around the
data (a checksum, the record it follows) are the store's (`vwlog.services.snapshots`).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Final

from vwlog.events import MatchStarted
from vwlog.games.core import SnapshotFormatError
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
from vwlog.projections import INITIAL, evolve

_CLASSES: Final[dict[str, type[Any]]] = {
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
_ENUM_FIELDS: Final[dict[str, Any]] = {
    "phase": Phase,
    "step": Step,
    "stat": Stat,
    "expires": Expiry,
}
STATIC_FIELDS: Final = (
    "ruleset",
    "cards",
    "instances",
    "owners",
    "first_player",
    "commitments",
    "seats",
)
"""Fields fixed by `MatchStarted`, not stored in snapshots."""


def _sort_key(value: Any) -> str:
    """The order of a frozenset's encoded members, so that equal sets encode alike: their
    compact JSON, keys in the order they were made (the order of the UTF-8 bytes orjson
    writes, in which snapshots were always sorted)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"f": sorted((_encode(v) for v in value), key=_sort_key)}
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


def dump(state: MatchState) -> dict[str, Any]:
    """The dynamic fields of a board as JSON-ready data (the static ones are left out).

    Raises:
        SnapshotFormatError: a field holds a value no snapshot encodes.
    """
    return {
        f.name: _encode(getattr(state, f.name))
        for f in dataclasses.fields(state)
        if f.name not in STATIC_FIELDS
    }


def load(static: MatchState, data: object) -> MatchState:
    """A board from its static part (`static`) and the dynamic part `dump` made.

    Raises:
        SnapshotFormatError: ``data`` is not a snapshot of this vwlog version.
    """
    if not isinstance(data, dict):
        raise SnapshotFormatError("not an object")
    known = {f.name for f in dataclasses.fields(static)} - set(STATIC_FIELDS)
    if set(data) != known:
        raise SnapshotFormatError("fields differ from this version's state")
    return replace(static, **{k: _decode(v, k) for k, v in data.items()})


def static(first: object) -> MatchState | None:
    """The board after a match's first event, whose static part every snapshot of the match
    shares; ``None`` when the match does not begin with `MatchStarted`."""
    return evolve(INITIAL, first) if isinstance(first, MatchStarted) else None


class Snapshots:
    """Vandaria Wars' snapshots, as `vwlog.games.GameRules.snapshots` names them."""

    dump = staticmethod(dump)
    load = staticmethod(load)
    static = staticmethod(static)


SNAPSHOTS: Final = Snapshots()
"""What Vandaria Wars' rules name as their snapshots (``snapshots=SNAPSHOTS``)."""

__all__ = [
    "SNAPSHOTS",
    "STATIC_FIELDS",
    "Snapshots",
    "dump",
    "load",
    "static",
]
