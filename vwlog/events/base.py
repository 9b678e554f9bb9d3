"""Base class of game events, the record envelope and the log header.

An event is a game fact only; storage facts (sequence number, time, hash) live in the
`EventRecord` envelope around it.
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from vwlog.model.bounds import LogInt
from vwlog.model.games import GAMES

FORMAT_NAME: Final = "vwlog"
"""The ``format`` value of every log header."""
FORMAT_VERSION = 1
"""The current log format version; older versions are upcast on read."""


class BaseEvent(BaseModel):
    """Base class of every game event: an immutable fact."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    DECISION: ClassVar[bool] = False
    """Whether a player makes this event (a decision) rather than the rules (a consequence)."""
    CHANCE: ClassVar[bool] = False
    """Whether chance decides this event (`Chance`): a roll recorded with its outcome."""
    VERSION: ClassVar[int] = 1
    """Version of this event's shape; stored topics are ``vwlog:<type>:v<VERSION>``."""


def event_type(event: object) -> str:
    """The ``type`` tag of an event of any game (its class name where it has none)."""
    tag: object = getattr(event, "type", type(event).__name__)
    return str(tag)


class Record(Protocol):
    """One record of any game, as the core reads it: the envelope around an event (each
    game's is a pydantic model with these fields, its event union inside; Vandaria Wars' is
    `vwlog.events.EventRecord`)."""

    @property
    def seq(self) -> int:
        """Sequence number, strictly increasing from 1 within a match."""
        ...

    @property
    def at(self) -> str | None:
        """When the event happened (ISO 8601), if recorded."""
        ...

    @property
    def hash(self) -> str | None:
        """The record's chain hash, once sealed."""
        ...

    @property
    def event(self) -> BaseEvent:
        """The game fact."""
        ...


class Decision(BaseEvent):
    """Base of events that a player decides."""

    DECISION: ClassVar[bool] = True


class Consequence(BaseEvent):
    """Base of events that the rules demand."""


class Chance(BaseEvent):
    """Base of events that chance decides: a die roll, a random draw, recorded with its outcome.

    Neither a player's decision nor a consequence the rules compute: the rules may say *that* a
    roll is owed and how many dice, never what they show. Replay takes the outcome as recorded,
    so a replay is the same every time. A fork keeps the rolls recorded before its fork point;
    after it, the branch records rolls of its own (the parent's later rolls are not carried
    over, as its later decisions are not)."""

    CHANCE: ClassVar[bool] = True
    """Whether chance decides this event."""


TAGS: Final = ("event", "round", "table", "date")
"""The optional tournament tags of a log header, in the order listings show them."""
TAG_MAX = 200
"""Longest ``event`` tag of a header, in characters."""
ROUND_MAX = 32
"""Longest ``round`` or ``table`` tag of a header, in characters."""


class LogHeader(BaseModel):
    """First line of a log file: names the format and its version, and may carry the
    tournament tags of the match (``event``, ``round``, ``table``, ``date``, like a PGN
    header's): each optional, absent unless given, so a log without them keeps its bytes and
    hashes."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    format: Literal["vwlog"] = FORMAT_NAME
    """Always ``"vwlog"``."""
    version: LogInt = FORMAT_VERSION
    """Format version of the records that follow."""
    game: str | None = Field(
        default=None,
        min_length=1,
        max_length=32,
        json_schema_extra={"enum": [*sorted(GAMES), None]},
    )
    """The game the match is of (`vwlog.model.games`); absent for Vandaria Wars, ``"vw"``,
    so a log written before games were named keeps its bytes and hashes."""
    match_id: str = Field(min_length=1, max_length=200)
    """Identifier of the match."""
    created: str | None = None
    """When the log was written (ISO 8601), informational."""
    generator: str | None = None
    """What wrote the log, informational (for example ``"vwlog simulate --seed 7"``)."""
    event: str | None = Field(default=None, min_length=1, max_length=TAG_MAX)
    """Tournament tag, optional: the event the match was played at (``"Bandung Open 2026"``)."""
    round: str | None = Field(default=None, min_length=1, max_length=ROUND_MAX)
    """Tournament tag, optional: the round of the event (``"3"``, ``"Top 8"``)."""
    table: str | None = Field(default=None, min_length=1, max_length=ROUND_MAX)
    """Tournament tag, optional: the table the match was played at (``"12"``)."""
    date: str | None = Field(default=None, json_schema_extra={"format": "date"})
    """Tournament tag, optional: the day the match was played, ``YYYY-MM-DD``."""
    hash: str | None = None
    """SHA-256 of this header's canonical JSON without this field; the root of the chain."""

    def tags(self) -> dict[str, str]:
        """The tournament tags the header carries, in `TAGS` order (the absent ones left out).

        >>> LogHeader(match_id="m", round="3", event="Open").tags()
        {'event': 'Open', 'round': '3'}
        """
        found = ((name, getattr(self, name)) for name in TAGS)
        return {name: value for name, value in found if value is not None}

    @field_validator("event", "round", "table")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        """A tag is printable text, not only spaces: it is shown on one line in listings."""
        if value is not None and (
            not value.strip() or any(ord(c) < 0x20 or ord(c) == 0x7F for c in value)
        ):
            raise PydanticCustomError(
                "tag_text", "a tag is text on one line, without control characters, not blank"
            )
        return value

    @field_validator("game")
    @classmethod
    def _a_game_judged(cls, value: str | None) -> str | None:
        """A game this vwlog judges (`vwlog.model.games.GAMES`), never one judged as another."""
        if value is not None and value not in GAMES:
            raise PydanticCustomError(
                "game_unknown",
                "the game is not one this vwlog judges (it judges: {known})",
                {"known": ", ".join(sorted(GAMES))},
            )
        return value

    @field_validator("date")
    @classmethod
    def _a_day(cls, value: str | None) -> str | None:
        """A real calendar day written ``YYYY-MM-DD``."""
        if value is not None:
            try:
                day: dt.date | None = dt.date.fromisoformat(value)
            except ValueError:
                day = None
            if day is None or day.isoformat() != value:
                raise PydanticCustomError("tag_date", "a date is a day written YYYY-MM-DD")
        return value


__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "ROUND_MAX",
    "TAGS",
    "TAG_MAX",
    "BaseEvent",
    "Chance",
    "Consequence",
    "Decision",
    "LogHeader",
    "Record",
    "event_type",
]
