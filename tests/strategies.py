"""Hypothesis strategies for every model of the wire format, built from the models themselves.

`model_strategy` reads each field's annotation and constraints (``ge``, ``le``, ``min_length``,
``max_length``), so every generated value is valid, and a new field or event is covered without
touching this file. Collections are kept short and integers within the 64-bit range of JSON
numbers that orjson writes, so examples stay fast.
"""

from __future__ import annotations

import types
from enum import Enum
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from hypothesis import strategies as st
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from vwlog.events import EVENT_TYPES, BaseEvent, EventRecord, LogHeader
from vwlog.model.games import DEFAULT_GAME

INT64 = (-(2**63), 2**63 - 1)
"""The integers a JSON number may hold in a log (orjson's range)."""
MAX_ITEMS = 3
"""Longest generated collection."""


def _bounds(metadata: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in metadata:
        if isinstance(item, annotated_types.Ge):
            out["min_value"] = int(item.ge)
        elif isinstance(item, annotated_types.Gt):
            out["min_value"] = int(item.gt) + 1
        elif isinstance(item, annotated_types.Le):
            out["max_value"] = int(item.le)
        elif isinstance(item, annotated_types.Lt):
            out["max_value"] = int(item.lt) - 1
        elif isinstance(item, annotated_types.MinLen):
            out["min_size"] = item.min_length
        elif isinstance(item, annotated_types.MaxLen):
            out["max_size"] = item.max_length
    return out


def _for_type(annotation: Any, metadata: list[Any]) -> st.SearchStrategy[Any]:
    """A strategy for one annotation with its constraints."""
    bounds = _bounds(metadata)
    origin = get_origin(annotation)
    if origin is Annotated:
        inner, *extra = get_args(annotation)
        nested = [m for e in extra for m in (e.metadata if isinstance(e, FieldInfo) else [e])]
        return _for_type(inner, [*metadata, *nested])
    if origin in (Union, types.UnionType):
        return st.one_of([_for_type(arg, metadata) for arg in get_args(annotation)])
    if origin is Literal:
        return st.sampled_from(get_args(annotation))
    if origin is tuple:
        item, _ellipsis = get_args(annotation)
        min_size = bounds.get("min_size", 0)
        max_size = min(bounds.get("max_size", MAX_ITEMS), max(min_size, MAX_ITEMS))
        return st.lists(_for_type(item, []), min_size=min_size, max_size=max_size).map(tuple)
    if annotation is type(None):
        return st.none()
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.integers(bounds.get("min_value", INT64[0]), bounds.get("max_value", INT64[1]))
    if annotation is str:
        min_size = bounds.get("min_size", 0)
        max_size = min(bounds.get("max_size", 12), max(min_size, 12))
        return st.text(
            st.characters(exclude_categories=("Cs",)), min_size=min_size, max_size=max_size
        )
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return st.sampled_from(list(annotation))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model_strategy(annotation)
    raise TypeError(f"no strategy for {annotation!r}")  # a new kind of field: teach it here


def _tag(max_size: int) -> st.SearchStrategy[str]:
    """A header's tournament tag: text on one line, not blank (its validator's rule)."""
    printable = st.characters(exclude_categories=("Cs", "Cc"))
    return st.text(printable, min_size=1, max_size=max_size).filter(lambda t: t.strip() != "")


_VALIDATED: dict[tuple[type[BaseModel], str], st.SearchStrategy[Any]] = {
    (LogHeader, "event"): _tag(12),
    (LogHeader, "round"): _tag(12),
    (LogHeader, "table"): _tag(12),
    (LogHeader, "date"): st.dates().map(lambda day: day.isoformat()),
    # the records drawn here are Vandaria Wars' events: a header names VW, or no game
    (LogHeader, "game"): st.sampled_from([DEFAULT_GAME]),
}
"""Fields whose validators say more than their annotations: a strategy of their own."""


@cache
def model_strategy(model: type[BaseModel]) -> st.SearchStrategy[Any]:
    """Valid instances of ``model``; optional fields are sometimes left at their default."""
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for name, info in model.model_fields.items():
        strategy = (
            _VALIDATED[model, name]
            if (model, name) in _VALIDATED
            else _for_type(info.annotation, list(info.metadata))
        )
        if not info.is_required():
            strategy = st.one_of(st.just(info.get_default()), strategy)
        fields[name] = strategy
    return st.fixed_dictionaries(fields).map(lambda values: model(**values))


def event_strategy(event_class: type[BaseEvent]) -> st.SearchStrategy[Any]:
    """Valid events of one type."""
    return model_strategy(event_class)


events = st.one_of([event_strategy(cls) for cls in EVENT_TYPES.values()])
"""Valid events of any type."""

headers = model_strategy(LogHeader).map(lambda header: header.model_copy(update={"version": 1}))
"""Valid headers of the current format version."""


@st.composite
def records_of(draw: st.DrawFn, event: st.SearchStrategy[Any], seq: int = 1) -> EventRecord:
    """A record at ``seq`` around an event drawn from ``event``."""
    at = draw(st.none() | st.text(max_size=64))
    digest = draw(st.none() | st.text("0123456789abcdef", min_size=64, max_size=64))
    return EventRecord(seq=seq, at=at, hash=digest, event=draw(event))


@st.composite
def logs(draw: st.DrawFn, max_records: int = 8) -> tuple[LogHeader, list[EventRecord]]:
    """A header and records with seq 1 to n, of any event types."""
    header = draw(headers)
    n = draw(st.integers(0, max_records))
    return header, [draw(records_of(events, seq)) for seq in range(1, n + 1)]
