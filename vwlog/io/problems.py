"""What is wrong with a line of a log, in one lower-case phrase naming the field where one is."""

from __future__ import annotations

import difflib
import math
import re
from typing import TYPE_CHECKING, Any, get_args

import orjson

from vwlog.events import EVENT_TYPES
from vwlog.events.effects import Effect

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

TRUNCATED = "truncated last line (no newline at end of file and the json is incomplete)"


def seq_problem(seq: int, last: int) -> str | None:
    """What is wrong with ``seq`` following ``last`` (0 before the first record), or ``None``.

    >>> seq_problem(4, 3) is None
    True
    >>> seq_problem(3, 3)
    'duplicate seq 3 (expected 4)'
    >>> seq_problem(2, 5)
    'seq 2 is out of order after seq 5 (expected 6)'
    >>> seq_problem(9, 5)
    'seq 9 leaves a gap after seq 5 (expected 6)'
    >>> seq_problem(2, 0)
    'the first record has seq 2 (expected 1)'
    """
    expected = last + 1
    if seq == expected:
        return None
    if last == 0:
        return f"the first record has seq {seq} (expected 1)"
    if seq == last:
        return f"duplicate seq {seq} (expected {expected})"
    if seq < last:
        return f"seq {seq} is out of order after seq {last} (expected {expected})"
    return f"seq {seq} leaves a gap after seq {last} (expected {expected})"


_EVENT_TAGS = frozenset(EVENT_TYPES)
_EFFECT_TAGS = frozenset(cls.model_fields["type"].default for cls in get_args(get_args(Effect)[0]))


def _field_path(loc: tuple[int | str, ...]) -> tuple[str | None, str | None]:
    """A dotted field path from a pydantic location, and the innermost union tag it passed.

    pydantic puts the tag of a discriminated union into the location
    (``("event", "priority_passed", "player")``); the path leaves it out (``event.player``).
    """
    path = ""
    tag: str | None = None
    for i, part in enumerate(loc):
        if isinstance(part, int):
            path += f"[{part}]"
            continue
        if i == 1 and loc[0] == "event" and part in _EVENT_TAGS:
            tag = f"event type {part!r}"
            continue
        if (
            i >= 2
            and isinstance(loc[i - 1], int)
            and loc[i - 2] == "effects"
            and part in _EFFECT_TAGS
        ):
            tag = f"effect type {part!r}"
            continue
        path += f".{part}" if path else part
    return path or None, tag


def describe_error(error: ErrorDetails) -> tuple[str | None, str]:
    """The field path and a one-line, lower-case description of one pydantic error."""
    field, tag = _field_path(tuple(error["loc"]))
    kind = error["type"]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    of = f" of {tag}" if tag else ""
    if kind == "missing":
        return field, f"missing required field{of}"
    if kind == "extra_forbidden":
        return field, f"unknown field{of}"
    if kind == "union_tag_not_found":
        return f"{field}.type" if field else "type", "missing required field"
    if kind == "union_tag_invalid":
        found = str(ctx.get("tag", ""))
        known = re.findall(r"'([^']*)'", str(ctx.get("expected_tags", "")))
        what = "event type" if field == "event" else "effect type" if tag else "type"
        detail = f"unknown {what} {found!r}"
        close = difflib.get_close_matches(found, known, n=1)
        detail += (
            f" (did you mean {close[0]!r}?)" if close else f" (not one of the {len(known)} {what}s)"
        )
        return f"{field}.type" if field else "type", detail
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return field, f"expected a json object, found {json_kind(error.get('input'))}"
    message = error["msg"]
    message = message[:1].lower() + message[1:]
    return field, f"{message}, found {show_value(error.get('input'))}"


def json_problem(raw: bytes, message: str, column: int, *, complete: bool) -> str:
    """Describe a line that is not valid JSON.

    A blank record line is told apart here, on the error path, so good lines pay for no check.
    """
    if not raw.strip():
        return "blank line (a log has one record on every line after the header)"
    if not complete:
        return TRUNCATED
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return f"invalid utf-8 byte 0x{raw[err.start]:02x} at column {err.start + 1}"
    lowered = message.lower()
    if "recursion" in lowered or "depth" in lowered:
        return f"json nested too deeply at column {column} (a record nests only a few levels)"
    return f"malformed json at column {column}: {lowered}"


def json_kind(value: object) -> str:
    """The JSON kind of a parsed value, for messages."""
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return {
        str: "a string",
        int: "a number",
        float: "a number",
        list: "an array",
        tuple: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def show_value(value: object) -> str:
    """A short JSON rendering of a value, for messages."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    try:
        text = orjson.dumps(value).decode()
    except TypeError:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def size_text(n: int) -> str:
    mib = 1024 * 1024
    return f"{n // mib} MiB" if n % mib == 0 else f"{n} bytes"


__all__ = [
    "TRUNCATED",
    "describe_error",
    "json_kind",
    "json_problem",
    "seq_problem",
    "show_value",
    "size_text",
]
