"""What is wrong with a line of a log, in one lower-case phrase naming the field where one is."""

from __future__ import annotations

import difflib
import math
import re
from typing import TYPE_CHECKING, Any, Final, get_args

import orjson

from vwlog.events import EVENT_TYPES
from vwlog.events.effects import Effect
from vwlog.model.bounds import INT_MAX, INT_MIN
from vwlog.model.text import Msg, msg, said_text

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

TRUNCATED = said_text(
    msg("truncated last line (no newline at end of file and the json is incomplete)")
)


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
        return said_text(msg("the first record has seq {seq} (expected 1)", seq=seq))
    if seq == last:
        return said_text(
            msg("duplicate seq {seq} (expected {expected})", seq=seq, expected=expected)
        )
    if seq < last:
        return said_text(
            msg(
                "seq {seq} is out of order after seq {last} (expected {expected})",
                seq=seq,
                last=last,
                expected=expected,
            )
        )
    return said_text(
        msg(
            "seq {seq} leaves a gap after seq {last} (expected {expected})",
            seq=seq,
            last=last,
            expected=expected,
        )
    )


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
            tag = said_text(msg("event type {name}", name=repr(part)))
            continue
        if (
            i >= 2
            and isinstance(loc[i - 1], int)
            and loc[i - 2] == "effects"
            and part in _EFFECT_TAGS
        ):
            tag = said_text(msg("effect type {name}", name=repr(part)))
            continue
        path += f".{part}" if path else part
    return path or None, tag


def describe_error(error: ErrorDetails) -> tuple[str | None, str]:
    """The field path and a one-line, lower-case description of one pydantic error."""
    field, tag = _field_path(tuple(error["loc"]))
    kind = error["type"]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    if kind == "missing":
        if tag:
            return field, said_text(msg("missing required field of {tag}", tag=tag))
        return field, said_text(msg("missing required field"))
    if kind == "extra_forbidden":
        if tag:
            return field, said_text(msg("unknown field of {tag}", tag=tag))
        return field, said_text(msg("unknown field"))
    if kind == "union_tag_not_found":
        return f"{field}.type" if field else "type", said_text(msg("missing required field"))
    if kind == "union_tag_invalid":
        found = str(ctx.get("tag", ""))
        known = re.findall(r"'([^']*)'", str(ctx.get("expected_tags", "")))
        what = "event" if field == "event" else "effect" if tag else ""
        close = difflib.get_close_matches(found, known, n=1)
        where = f"{field}.type" if field else "type"
        return where, said_text(_unknown_tag(what, repr(found), close, len(known)))
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        found_kind = json_kind(error.get("input"))
        return field, said_text(msg("expected a json object, found {kind}", kind=found_kind))
    message = error["msg"]
    message = message[:1].lower() + message[1:]
    # pydantic's own message stays as pydantic words it
    said = said_text(
        msg("{message}, found {value}", message=message, value=show_value(error.get("input")))
    )
    if kind in _BOUND_ERRORS and ctx.get("le", ctx.get("ge")) in (INT_MAX, INT_MIN):
        # an integer beyond what canonical JSON writes (`vwlog.model.bounds`)
        said = said_text(msg("{error} (the log format's integers fit in 64 bits)", error=said))
    return field, said


_BOUND_ERRORS: Final = ("less_than_equal", "greater_than_equal")


def _unknown_tag(what: str, found: str, close: list[str], count: int) -> Msg:
    """An unknown ``type`` tag: the closest known one, or how many there are."""
    if close:
        near = repr(close[0])
        if what == "event":
            return msg(
                "unknown event type {found} (did you mean {close}?)", found=found, close=near
            )
        if what == "effect":
            return msg(
                "unknown effect type {found} (did you mean {close}?)", found=found, close=near
            )
        return msg("unknown type {found} (did you mean {close}?)", found=found, close=near)
    if what == "event":
        return msg(
            "unknown event type {found} (not one of the {count} event types)",
            found=found,
            count=count,
        )
    if what == "effect":
        return msg(
            "unknown effect type {found} (not one of the {count} effect types)",
            found=found,
            count=count,
        )
    return msg("unknown type {found} (not one of the {count} types)", found=found, count=count)


def json_problem(raw: bytes, message: str, column: int, *, complete: bool) -> str:
    """Describe a line that is not valid JSON.

    A blank record line is told apart here, on the error path, so good lines pay for no check.
    """
    if not raw.strip():
        return said_text(msg("blank line (a log has one record on every line after the header)"))
    if not complete:
        return TRUNCATED
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        byte = "0x" + format(raw[err.start], "02x")
        return said_text(
            msg("invalid utf-8 byte {byte} at column {column}", byte=byte, column=err.start + 1)
        )
    lowered = message.lower()
    if "recursion" in lowered or "depth" in lowered:
        return said_text(
            msg(
                "json nested too deeply at column {column} (a record nests only a few levels)",
                column=column,
            )
        )
    # orjson's own message stays as orjson words it
    return said_text(
        msg("malformed json at column {column}: {message}", column=column, message=lowered)
    )


def json_kind(value: object) -> str:
    """The JSON kind of a parsed value, for messages."""
    if isinstance(value, bool):
        return said_text(msg("a boolean"))
    if value is None:
        return "null"
    if isinstance(value, str):
        return said_text(msg("a string"))
    if isinstance(value, (int, float)):
        return said_text(msg("a number"))
    if isinstance(value, (list, tuple)):
        return said_text(msg("an array"))
    if isinstance(value, dict):
        return said_text(msg("an object"))
    return type(value).__name__


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
    if n % mib == 0:
        return said_text(msg("{count} MiB", count=n // mib))
    return said_text(msg("{count} bytes", count=n))


__all__ = [
    "TRUNCATED",
    "describe_error",
    "json_kind",
    "json_problem",
    "seq_problem",
    "show_value",
    "size_text",
]
