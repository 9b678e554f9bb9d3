"""What the store keeps about each match besides its records, and the values its API returns.

The services layer computes a `MatchMeta` (it knows the rules and the projections); the store
only keeps it beside the match, replaces it on request, and lists it.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from vwlog.model.errors import LogFormatError
from vwlog.model.text import msg, said_text

MATCH_ID_MAX = 200
"""Longest id of a new match, in characters."""
MATCH_ID_PATTERN = rf"^[A-Za-z0-9][A-Za-z0-9_.:~-]{{0,{MATCH_ID_MAX - 1}}}$"
"""The ids a new match may have: a letter or digit, then letters, digits, ``_ . : ~ -`` (a
fork's id is its parent's, ``~`` and its name). Nothing that a URL path, a file name or an
HTTP header would read otherwise (no ``/``, no spaces, no control characters). Matches stored
before the rule keep their ids and stay readable."""
_MATCH_ID = re.compile(MATCH_ID_PATTERN)


def is_safe_match_id(match_id: str) -> bool:
    """Whether ``match_id`` may name a new match (`MATCH_ID_PATTERN`).

    >>> is_safe_match_id("sample-full-combat~2"), is_safe_match_id("a/b"), is_safe_match_id("a\\n")
    (True, False, False)
    """
    return _MATCH_ID.fullmatch(match_id) is not None


def check_new_match_id(match_id: str, source: str = "header") -> None:
    """Refuse an id that may not name a new match.

    Raises:
        LogFormatError: ``match_id`` does not match `MATCH_ID_PATTERN` (the header's field
            ``match_id``, line 1 of ``source``).
    """
    if not is_safe_match_id(match_id):
        raise LogFormatError(
            source,
            1,
            said_text(
                msg(
                    "a match id is 1 to {max} letters, digits, '_', '.', ':', '~' or '-', "
                    "beginning with a letter or digit",
                    max=MATCH_ID_MAX,
                )
            ),
            "match_id",
        )


class MatchMeta(BaseModel):
    """A stored match at a glance: who played, how it ended, how clean, where it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    match_id: str = Field(min_length=1, max_length=200)
    """Id of the match (its header's ``match_id``)."""
    players: list[str] = Field(max_length=6)
    """Player ids in seat order."""
    created: str | None = None
    """When the match was played or generated (ISO 8601), if known."""
    tags: dict[str, str] = Field(default_factory=dict)
    """The tournament tags of its header (``event``, ``round``, ``table``, ``date``) that it
    carries; left out of a catalog entry when empty."""
    turns: int | None = None
    """Number of turns played, if known (as the records number them: a log may say -1)."""
    winner: str | None = None
    """The winning player, if the match ended with a winner."""
    victory: str | None = None
    """How it was won (a `vwlog.model.types.Victory` value), if it was."""
    violations: int = Field(default=0, ge=0)
    """How many rule violations validation found."""
    violation_summary: list[str] = Field(default_factory=list)
    """The violations as ``"R-XXX-n@seq"``, in log order."""
    head_hash: str = Field(min_length=1, max_length=64)
    """Hash of the last record (the header's hash for a match without records)."""
    events: int = Field(ge=0)
    """Number of records; also the sequence number of the last one."""
    parent: str | None = None
    """For a fork: the match it left from."""
    fork_at: int | None = Field(default=None, ge=0)
    """For a fork: the parent's priority point it continues from."""
    flagged: bool = False
    """Whether the match was stored despite breaking rules, for a judge to look at."""
    seal: Literal["author", "import"] | None = None
    """Where the hash chain came from: ``author`` — the log carried its hashes when it was
    imported (or vwlog wrote them, as for a fork or a simulated match); ``import`` — the log
    carried none and was sealed on import, so the chain proves nothing about what the author
    wrote, only that nothing changed since; ``None`` for entries stored before vwlog kept it."""
    source_sha256: str | None = Field(default=None, pattern="^[0-9a-f]{64}$")
    """SHA-256 of the log file as it was imported, so that importing the same file again is
    recognised before anything is read twice; ``None`` for entries that were not imported
    from a file."""
    verdict: Literal["OK", "ILLEGAL", "INCOMPLETE", "UNTRUSTED", "UNVERIFIED"] | None = None
    """The one verdict on the record when it was stored (`vwlog.services.verdict.judge`);
    ``None`` for entries stored before vwlog kept it and for matches the service recorded
    itself."""
    reason: str | None = Field(default=None, max_length=2000)
    """The one sentence that decides ``verdict`` (English)."""
    intact: bool | None = None
    """Whether the record was intact when it was stored (its chain, seal and signatures hold
    as far as it has them); ``False`` keeps it out of the statistics and withholds its winner;
    ``None`` where not judged."""
    metrics: dict[str, Any] | None = None
    """The match's statistics (a `vwlog.projections.stats.MatchMetrics` dumped in JSON mode,
    each player's per-turn ``tempo`` points in columns: one list per field, so that a match of
    thousands of turns keeps lists of numbers rather than a mapping per turn), folded in the
    same replay as validation; ``None`` for entries stored before vwlog kept them, or when
    they no longer describe the records (read models then replay the match). Entries stored
    before the points were kept in columns have them as a list; both read alike."""


IMPORT_FACTS = ("seal", "source_sha256", "verdict", "reason", "intact")
"""The `MatchMeta` fields that are facts of a match's import (of the file it was imported
from), which its records cannot give again; every other field is derived from the records."""


class ImportOutcome(StrEnum):
    """What `MatchStore.import_match` did."""

    STORED = "stored"
    """The match was new and is now stored, whole."""
    UNCHANGED = "unchanged"
    """The same match (same id, same head hash) was already stored; nothing was written."""


class CatalogChange(NamedTuple):
    """A catalog entry as a follower of the store sees it: a match registered or re-described."""

    position: int
    """Its position in the store's notification log (see `MatchStore.position`)."""
    match_id: str
    """The match it describes."""
    meta: MatchMeta
    """The match's metadata from this entry on."""
    previous: MatchMeta | None
    """The metadata this entry replaces; ``None`` when the entry registers the match."""


class Head(NamedTuple):
    """The last position of a stored match."""

    seq: int
    """Sequence number of the last record (0 for a match without records)."""
    hash: str
    """Its chain hash (the header's hash for a match without records)."""


__all__ = [
    "IMPORT_FACTS",
    "MATCH_ID_MAX",
    "MATCH_ID_PATTERN",
    "CatalogChange",
    "Head",
    "ImportOutcome",
    "MatchMeta",
    "check_new_match_id",
    "is_safe_match_id",
]
