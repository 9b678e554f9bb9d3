"""What every part of the statistics shares: the two model bases, the names of an unfinished
match and a faction-less deck, and reading a record's time."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

UNFINISHED = "UNFINISHED"
"""The victory type of a match that has no winner (stopped at a turn limit, or cut short)."""


NEUTRAL = "NEUTRAL"
"""The faction of a deck none of whose cards has a faction."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class _Mutable(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


def _parse_time(at: str | None) -> datetime | None:
    if at is None:
        return None
    try:
        return datetime.fromisoformat(at)
    except ValueError:
        return None


__all__ = ["NEUTRAL", "UNFINISHED"]
