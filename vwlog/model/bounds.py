"""The integers a log may hold: those canonical JSON can write (64 bits).

The hash chain hashes a record's canonical JSON, and orjson writes an integer only from
``-2**63`` to ``2**64 - 1``; a record with a larger one would have no canonical form. Every
integer field of the records and of what they carry (rulesets, card definitions) is bounded
so, and the bound is checked where the record is decoded, with its other fields (one pass, in
pydantic's decoder, instead of searching each line for a run of nineteen digits).
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field

INT_MIN: Final = -(2**63)
"""The smallest integer a log may hold."""
INT_MAX: Final = 2**64 - 1
"""The largest integer a log may hold."""

LogInt = Annotated[int, Field(ge=INT_MIN, le=INT_MAX)]
"""An integer field of a record, bounded to what canonical JSON writes."""

__all__ = ["INT_MAX", "INT_MIN", "LogInt"]
