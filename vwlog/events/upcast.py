"""Upcasters: old log format versions read as the current one.

A log file names its format version in its header. When the version is older than
`FORMAT_VERSION`, the reader passes the header and every record, as parsed JSON, through the
chain of upcasters from that version to the current one, then validates them as usual. The
meaning of a stored version never changes: an upcaster only renames and reshapes, it never
guesses a game fact that the old version did not record.

Each step is a pair of plain functions named ``upcast_<what>_v<N>_v<N+1>``, registered in
`UPCASTERS` under the version it reads. Upcasters receive JSON objects that have not been
validated yet, so they must leave anything they do not recognise untouched and let validation
report it.

Format version 0 (the first release) differs from version 1 in four ways:

- its header had no ``format`` field; it said ``"vwlog_version": 0`` instead;
- the record's time was called ``time`` (now ``at``);
- an event's (and an effect's) tag was called ``kind`` (now ``type``), and five event tags used
  the digest's first names: ``priority_pass``, ``supply_declared``, ``hand_limit_discard``,
  ``end_of_turn_cleanup`` and ``judge_ruling``;
- because ``kind`` was the tag, the two events that now have a ``kind`` field called it
  differently: ``judge_ruling`` had ``ruling`` and ``combat_damage_registered`` had
  ``object_kind``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vwlog.events import FORMAT_VERSION

if TYPE_CHECKING:
    from collections.abc import Callable

JsonObject = dict[str, Any]
"""A parsed JSON object, not validated yet."""


@dataclass(frozen=True, slots=True)
class UpcastStep:
    """How to read version ``from_version`` as version ``from_version + 1``."""

    from_version: int
    """The version this step reads."""
    header: Callable[[JsonObject], JsonObject]
    """Upcasts the header line."""
    record: Callable[[JsonObject], JsonObject]
    """Upcasts one record line."""


_V0_EVENT_TAGS = {
    "priority_pass": "priority_passed",
    "supply_declared": "supply_chosen",
    "hand_limit_discard": "hand_limit_discarded",
    "end_of_turn_cleanup": "turn_cleaned_up",
    "judge_ruling": "judge_ruling_issued",
}
"""Version-0 event tags that version 1 renamed."""

_V0_EVENT_FIELDS = {
    "judge_ruling_issued": {"ruling": "kind"},
    "combat_damage_registered": {"object_kind": "kind"},
}
"""Version-0 event fields that version 1 renamed, by version-1 tag."""


def _renamed(data: JsonObject, renames: dict[str, str]) -> JsonObject:
    """A copy of ``data`` with keys renamed (a key already present under its new name wins)."""
    out: JsonObject = {}
    for key, value in data.items():
        new = renames.get(key, key)
        if new != key and new in data:
            out[key] = value
        else:
            out[new] = value
    return out


def upcast_header_v0_v1(header: JsonObject) -> JsonObject:
    """Read a version-0 header as version 1: ``vwlog_version`` becomes ``format`` + ``version``.

    >>> upcast_header_v0_v1({"vwlog_version": 0, "match_id": "m1"})
    {'match_id': 'm1', 'format': 'vwlog', 'version': 1}
    """
    out = {key: value for key, value in header.items() if key != "vwlog_version"}
    out["format"] = "vwlog"
    out["version"] = 1
    return out


def _upcast_tagged_v0_v1(data: JsonObject, tags: dict[str, str]) -> JsonObject:
    """Rename ``kind`` to ``type`` in an event or effect, and its old tag to the new one."""
    if "type" in data or "kind" not in data:
        return data
    out = _renamed(data, {"kind": "type"})
    tag = out["type"]
    if isinstance(tag, str):
        out["type"] = tags.get(tag, tag)
    return out


def upcast_event_v0_v1(event: JsonObject) -> JsonObject:
    """Read a version-0 event (with its effects) as version 1.

    >>> upcast_event_v0_v1({"kind": "priority_pass", "player": "p1"})
    {'type': 'priority_passed', 'player': 'p1'}
    """
    out = _upcast_tagged_v0_v1(event, _V0_EVENT_TAGS)
    if out is event:
        return event
    tag = out["type"]
    if isinstance(tag, str) and tag in _V0_EVENT_FIELDS:
        out = _renamed(out, _V0_EVENT_FIELDS[tag])
    effects = out.get("effects")
    if isinstance(effects, list):
        out["effects"] = [
            _upcast_tagged_v0_v1(effect, {}) if isinstance(effect, dict) else effect
            for effect in effects
        ]
    return out


def upcast_record_v0_v1(record: JsonObject) -> JsonObject:
    """Read a version-0 record as version 1: ``time`` becomes ``at``; the event is upcast.

    >>> upcast_record_v0_v1({"seq": 3, "time": "2024-05-01T10:00:00Z",
    ...                      "event": {"kind": "priority_pass", "player": "p1"}})
    {'seq': 3, 'at': '2024-05-01T10:00:00Z', 'event': {'type': 'priority_passed', 'player': 'p1'}}
    """
    out = _renamed(record, {"time": "at"})
    event = out.get("event")
    if isinstance(event, dict):
        out["event"] = upcast_event_v0_v1(event)
    return out


def legacy_version(header: JsonObject) -> tuple[str, Any]:
    """Where a header without a ``format`` field declares its version, and the value found.

    Version 0 headers said ``"vwlog_version": 0``; the value is ``None`` when there is no such
    field (the line is no vwlog header at all).

    >>> legacy_version({"vwlog_version": 0, "match_id": "m1"})
    ('vwlog_version', 0)
    """
    return "vwlog_version", header.get("vwlog_version")


UPCASTERS: dict[int, UpcastStep] = {
    0: UpcastStep(0, header=upcast_header_v0_v1, record=upcast_record_v0_v1),
}
"""Upcast steps by the version they read; together they lead to `FORMAT_VERSION`."""

OLDEST_VERSION = min(UPCASTERS, default=FORMAT_VERSION)
"""The oldest format version that can be read."""


def upcast_chain(version: int) -> tuple[UpcastStep, ...] | None:
    """The steps that read ``version`` as `FORMAT_VERSION`, or ``None`` if there is no way.

    >>> [step.from_version for step in upcast_chain(0)]
    [0]
    >>> upcast_chain(1)
    ()
    >>> upcast_chain(2) is None
    True
    """
    if version > FORMAT_VERSION:
        return None
    steps: list[UpcastStep] = []
    for from_version in range(version, FORMAT_VERSION):
        step = UPCASTERS.get(from_version)
        if step is None:
            return None
        steps.append(step)
    return tuple(steps)


__all__ = [
    "OLDEST_VERSION",
    "UPCASTERS",
    "JsonObject",
    "UpcastStep",
    "legacy_version",
    "upcast_chain",
    "upcast_event_v0_v1",
    "upcast_header_v0_v1",
    "upcast_record_v0_v1",
]
