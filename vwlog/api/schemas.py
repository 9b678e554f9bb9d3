"""Request and response models of the HTTP service.

Kept thin: the board is `vwlog.engine.describe.BoardView` (with the knowledge view's ``known``
cards, `vwlog.io.schemas.ShownBoardView`), a match summary is the store's `MatchMeta`, and a
violation carries the fields of `vwlog.model.errors.Violation`, so that they can move to the
one JSON vocabulary of the output layer with little change.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vwlog.engine.describe import BoardView
from vwlog.io.schemas import KnownCardView, ShownBoardView
from vwlog.model.errors import Violation
from vwlog.store import MatchMeta
from vwlog.store.tokens import Role

__all__ = [
    "AwaitedOut",
    "BoardView",
    "DecisionsIn",
    "ErrorOut",
    "EventOut",
    "EventsPage",
    "ForkIn",
    "KnownCardView",
    "LiveMatchIn",
    "MatchMeta",
    "MatchesPage",
    "ReceiptOut",
    "ShownBoardView",
    "ViolationOut",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class ViolationOut(_Model):
    """One broken rule (the fields of `vwlog.model.errors.Violation`)."""

    rule: str
    """The rule id (``R-REG-6``)."""
    message: str
    """What is wrong."""
    seq: int | None = None
    """The offending event."""
    event_type: str | None = None
    """Its type tag."""
    turn: int | None = None
    """Turn number at the moment of the event."""
    phase: str | None = None
    """Phase at the moment of the event."""
    step: str | None = None
    """Step at the moment of the event."""
    expected: str | None = None
    """What the rules demanded instead."""
    actual: str | None = None
    """What was recorded."""
    flag: str | None = None
    """The ruleset flag that decides this verdict, for rules that hold only by default."""

    @classmethod
    def of(cls, v: Violation) -> ViolationOut:
        """The response form of a violation."""
        return cls(
            rule=v.rule,
            message=v.message,
            seq=v.seq,
            event_type=v.event_type,
            turn=v.turn,
            phase=v.phase,
            step=v.step,
            expected=v.expected,
            actual=v.actual,
            flag=v.flag,
        )


class ErrorOut(_Model):
    """Every error answer: what went wrong, and where."""

    error: str
    """A stable code: ``bad_request``, ``unauthorized``, ``forbidden``, ``not_found``,
    ``conflict``, ``too_large``, ``invalid_log``, ``illegal_decision``, ``invalid_request``."""
    message: str
    """One line for a human."""
    line: int | None = None
    """For a malformed log: the line."""
    field: str | None = None
    """For bad input: the field."""
    rules: list[str] = Field(default_factory=list)
    """For a refused decision: the rule ids it breaks."""
    violations: list[ViolationOut] = Field(default_factory=list)
    """For a refused decision: the violations."""
    head_seq: int | None = None
    """For a conflict: the seq the match ends at now."""
    head_hash: str | None = None
    """For a conflict: the hash of its last record."""


class MatchesPage(_Model):
    """One page of stored matches."""

    total: int
    """How many matches the filters keep."""
    offset: int
    """Index of the first match of this page."""
    limit: int
    """Page size asked for."""
    matches: list[MatchMeta]
    """The matches of this page."""


class UploadOut(_Model):
    """What storing an uploaded log did."""

    match_id: str
    """The stored match."""
    outcome: Literal["stored", "unchanged"]
    """``stored``, or ``unchanged`` when the same log was stored before (idempotent)."""
    events: int
    """Records in the log."""
    violations: int
    """Rule violations found (the match is stored flagged when there are any)."""


class EventOut(_Model):
    """One event of a match, with its place in the turn after it."""

    seq: int
    """Its sequence number."""
    type: str
    """Its type tag."""
    decision: bool
    """Whether it is a player's decision (otherwise a consequence the rules demand)."""
    description: str
    """One sentence, limited to the viewer's knowledge when there is a viewer."""
    turn: int
    """Turn after the event."""
    phase: str | None
    """Phase after the event."""
    step: str | None
    """Step after the event."""
    priority: str | None
    """Who holds priority after it."""
    priority_point: bool
    """Whether a player holds priority after it (a fork may start there)."""
    violations: list[ViolationOut]
    """Rules it breaks."""
    event: dict[str, Any] | None
    """The recorded event; ``null`` for a player's view of a match in progress (it may name
    hidden cards)."""
    hash: str | None
    """Its chain hash."""


class EventsPage(_Model):
    """Events of a match after a seq."""

    match_id: str
    """The match."""
    viewer: str | None
    """Whose knowledge the descriptions are limited to."""
    after: int
    """Events after this seq."""
    head_seq: int
    """The seq of the match's last event."""
    events: list[EventOut]
    """The events."""


class AwaitedOut(_Model):
    """What the match waits for now, and the legal decisions."""

    match_id: str
    """The match."""
    seq: int
    """The seq this holds after (the match's head)."""
    head_hash: str
    """Hash of the last record; pass ``seq`` as ``expected_seq`` when appending."""
    player: str | None
    """Whose decision is awaited; ``null`` when the match is over."""
    kind: str | None
    """The kind of decision (``priority``, ``supply``, ``declare``, …)."""
    rule: str
    """The rule that demands it."""
    over: bool
    """Whether the match is over."""
    legal: list[dict[str, Any]]
    """Every legal decision of the awaited player, as events (at most ``limit``)."""
    truncated: bool
    """Whether more legal decisions exist than were listed."""


class DecisionsIn(_Model):
    """Decisions to append in play mode."""

    decisions: list[str] = Field(default_factory=list, max_length=200)
    """Each a compact JSON event or a word decision (``pass``, ``summon CARD``, …; see
    ``vwlog play --help``)."""
    auto: int = Field(default=0, ge=0, le=1000)
    """Then this many more decisions chosen by the generator's policy."""
    policy: Literal["greedy", "random"] = "greedy"
    """The policy of the automatic decisions."""
    seed: int = Field(default=0, ge=0, le=2**31)
    """Its seed."""
    expected_seq: int | None = Field(default=None, ge=0)
    """Append only if the match still ends at this seq (409 otherwise)."""


class ReceiptOut(_Model):
    """What an append stored, signed by the service."""

    match_id: str
    """The match."""
    first_seq: int
    """The seq of the first record appended (``head_seq + 1`` when nothing was)."""
    head_seq: int
    """The match's last seq after the append."""
    head_hash: str
    """Hash of its last record."""
    appended: int
    """Records appended (decisions and their consequences)."""
    decisions: int
    """Decisions among them."""
    winner: str | None = None
    """The winner, if the match is now won."""
    signature: str
    """Ed25519 signature (base64) of the canonical JSON of ``{"match_id", "head_seq",
    "head_hash"}``, by the key at ``/service/key``."""
    events: list[dict[str, Any]] = Field(default_factory=list)
    """The events appended; ``[]`` for a player's token (consequences may name hidden
    cards)."""


class LiveMatchIn(_Model):
    """A match to record live."""

    match_id: str = Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9_.:-]+$")
    """Its id."""
    decks: list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,59}$")]] = Field(
        min_length=2, max_length=4
    )
    """Packaged deck names, one per seat (``p1``, ``p2``, …), see ``/pools/decks``."""
    seed: int = Field(default=0, ge=0, le=2**31)
    """Seed of the shuffle and of who goes first."""


class ForkIn(_Model):
    """Where to fork."""

    at: int = Field(ge=1)
    """A priority point of the parent (see ``priority_point`` on its events)."""
    name: str | None = Field(default=None, max_length=40)
    """A name for the fork."""


class RulingIn(_Model):
    """A judge's ruling (R-GEN-8)."""

    kind: Literal["WARNING", "BACK_UP", "PARTIAL_FIX", "GAME_LOSS"]
    """The kind of ruling."""
    reason: str = Field(min_length=1, max_length=2000)
    """Why, in the judge's words."""
    back_to: int | None = Field(default=None, ge=0)
    """For a back-up: the priority point to return to."""
    loser: str | None = Field(default=None, max_length=40)
    """For a game loss: who loses."""
    expected_seq: int | None = Field(default=None, ge=0)
    """Record only if the match still ends at this seq."""


class TokenOut(_Model):
    """Who the presented token speaks for."""

    role: Role
    """Its role."""
    match_id: str | None
    """For a player: the match."""
    seat: str | None
    """For a player: the seat."""
