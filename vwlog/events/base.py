"""Base class of game events, the record envelope and the log header.

An event is a game fact only; storage facts (sequence number, time, hash) live in the
`EventRecord` envelope around it.
"""

from __future__ import annotations

from typing import ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from vwlog.model.bounds import LogInt

FORMAT_NAME: Final = "vwlog"
"""The ``format`` value of every log header."""
FORMAT_VERSION = 1
"""The current log format version; older versions are upcast on read."""


class BaseEvent(BaseModel):
    """Base class of every game event: an immutable fact."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    DECISION: ClassVar[bool] = False
    """Whether a player makes this event (a decision) rather than the rules (a consequence)."""
    VERSION: ClassVar[int] = 1
    """Version of this event's shape; stored topics are ``vwlog:<type>:v<VERSION>``."""


class Decision(BaseEvent):
    """Base of events that a player decides."""

    DECISION: ClassVar[bool] = True


class Consequence(BaseEvent):
    """Base of events that the rules demand."""


class Allocation(BaseModel):
    """Combat damage from one source to one recipient (R-CMB-19..21, R-CMB-28)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    source: str
    """The Follower whose ATK the damage comes from."""
    recipient: str
    """The Follower or Territory that receives it."""
    amount: int = Field(ge=0, le=1_000_000)
    """Damage points."""


class Attack(BaseModel):
    """One attacking Follower and the Territory it attacks (R-CMB-8)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    follower: str
    """The attacking Follower."""
    target: str
    """The attacked Territory."""


class Block(BaseModel):
    """One blocking Follower and the attacker it blocks (R-CMB-16)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    blocker: str
    """The blocking Follower."""
    attacker: str
    """The attacking Follower it blocks."""


class LogHeader(BaseModel):
    """First line of a log file: names the format and its version."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    format: Literal["vwlog"] = FORMAT_NAME
    """Always ``"vwlog"``."""
    version: LogInt = FORMAT_VERSION
    """Format version of the records that follow."""
    match_id: str = Field(min_length=1, max_length=200)
    """Identifier of the match."""
    created: str | None = None
    """When the log was written (ISO 8601), informational."""
    generator: str | None = None
    """What wrote the log, informational (for example ``"vwlog simulate --seed 7"``)."""
    hash: str | None = None
    """SHA-256 of this header's canonical JSON without this field; the root of the chain."""


__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "Allocation",
    "Attack",
    "BaseEvent",
    "Block",
    "Consequence",
    "Decision",
    "LogHeader",
]
