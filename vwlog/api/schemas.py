"""Request and response models of the HTTP service.

Kept thin: every response for a violation, event, board, match summary, validation or hash-chain
check is a document of the one JSON vocabulary, `vwlog.render.json` (one function per concept);
the models here only type them for the OpenAPI document (``extra="forbid"`` and no defaults, so
a field added there and not here fails loudly rather than vanishing). The board is
`vwlog.io.schemas.ShownBoardView`, the schema `board_json` and `known_board_json` write.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vwlog.games.vw.describe import BoardView
from vwlog.io.schemas import KnownCardView, ShownBoardView
from vwlog.model.errors import Violation
from vwlog.render.json import match_summary_json, violation_json
from vwlog.store import MatchMeta
from vwlog.store.catalog import MATCH_ID_MAX, MATCH_ID_PATTERN
from vwlog.store.tokens import Role

__all__ = [
    "AwaitedOut",
    "BoardView",
    "DecisionOut",
    "DecisionsIn",
    "ErrorOut",
    "EventOut",
    "EventsPage",
    "ForkIn",
    "GameBoardOut",
    "KnownCardView",
    "LiveMatchIn",
    "MatchMeta",
    "MatchSummaryOut",
    "MatchesPage",
    "ReceiptOut",
    "ShownBoardView",
    "TimelineOut",
    "ValidationOut",
    "VerifyOut",
    "ViolationOut",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class ViolationOut(_Model):
    """One broken rule, as `vwlog.render.json.violation_json` writes it."""

    rule: str
    """The rule id (``R-REG-6``)."""
    title: str | None
    """The rule's title in the catalog."""
    message: str
    """What is wrong."""
    seq: int | None
    """The offending event."""
    line: int | None
    """Its line in the log, when read from a file."""
    event: str | None
    """Its type tag."""
    turn: int | None
    """Turn number at the moment of the event."""
    phase: str | None
    """Phase at the moment of the event."""
    step: str | None
    """Step at the moment of the event."""
    priority: str | None
    """Who held priority at the moment of the event."""
    expected: str | None
    """What the rules demanded instead."""
    actual: str | None
    """What was recorded."""
    flag: str | None
    """The ruleset flag that decides this verdict, for rules that hold only by default."""

    @classmethod
    def of(cls, v: Violation) -> ViolationOut:
        """The response form of a violation (`violation_json`)."""
        return cls.model_validate(violation_json(v))


class MatchSummaryOut(_Model):
    """A stored match at a glance, as `vwlog.render.json.match_summary_json` writes it."""

    match_id: str
    """Its id."""
    players: list[str]
    """Its players, in seat order."""
    created: str | None
    """When it was stored."""
    tags: dict[str, str] | None = None
    """The tournament tags of its log header (``event``, ``round``, ``table``, ``date``), when
    it carries any; absent otherwise."""
    turns: int | None
    """Number of turns played, if known."""
    winner: str | None
    """The winner, if any."""
    victory: str | None
    """How it was won."""
    violations: int
    """How many rule violations it holds."""
    violation_summary: list[str]
    """The rule ids it breaks."""
    head_hash: str | None
    """Hash of its last record; ``null`` for a match in progress to anyone but an organiser
    or judge, unless a player's seat could compute it itself (a hash tests guesses of the
    records it covers, see ``/matches/{id}/events``)."""
    events: int
    """Records it holds."""
    parent: str | None
    """For a fork: the match it left from."""
    fork_at: int | None
    """For a fork: the parent's priority point it continues from."""
    flagged: bool
    """Whether it was stored with violations."""
    seal: str | None
    """Where its hash chain came from: ``author`` or ``import``."""

    @classmethod
    def of(cls, m: MatchMeta) -> MatchSummaryOut:
        """The response form of a catalog entry (`match_summary_json`)."""
        return cls.model_validate(match_summary_json(m))


class ValidationOut(_Model):
    """The outcome of validating a match, as `vwlog.render.json.validation_json` writes it."""

    source: str | None
    """What was validated."""
    match_id: str | None
    """The match."""
    ok: bool
    """Whether no rule is broken."""
    players: list[str]
    """Its players."""
    ruleset: str | None
    """The ruleset it was judged by."""
    house_rules: dict[str, Any]
    """The flags it was judged under that differ from the ruleset it is held to, with their
    values (empty when none): a verdict under house rules holds under those only."""
    events: int
    """Records replayed."""
    decisions: int
    """Players' decisions among them."""
    consequences: int
    """Consequences the rules demand among them."""
    effects_verified: int
    """Card effects checked against the rules."""
    effects_trusted: int
    """Card effects taken as recorded."""
    objects_trusted: int
    """Objects taken as recorded."""
    turns: int
    """Turns played."""
    winner: str | None
    """The winner, if the match is over and its record intact (``None`` otherwise: a record
    that is not intact is never reported with a winner)."""
    victory: str | None
    """How it was won (``None`` when there is no winner to report)."""
    complete: bool
    """Whether the match is over and its record intact."""
    intact: bool
    """Whether the records are what was written and sealed (chain, seal and signatures hold;
    an unsealed record is intact as far as it goes)."""
    claimed_winner: str | None
    """The winner the records name, even when they are not intact (shown flagged)."""
    stopped_at: int | None
    """Where a strict replay stopped."""
    rulings: int
    """Judges' rulings recorded."""
    voided: list[list[int]]
    """Ranges of seqs judges' back-ups voided."""
    violations: list[ViolationOut]
    """Every violation, in order."""
    verdict: Literal["OK", "ILLEGAL", "INCOMPLETE", "UNTRUSTED", "UNVERIFIED"]
    """``OK``, ``ILLEGAL``, ``INCOMPLETE`` (unsealed) or ``UNTRUSTED`` (chain, seal or
    signatures fail): the one verdict of the rules and the integrity result, the same that
    ``vwlog validate``, ``verify``, ``report`` and ``import`` give."""
    reason: str
    """The one sentence that decides ``verdict`` (the first, most serious thing), in the
    request's language."""
    integrity: dict[str, Any] | None
    """What the verdict rests on: pool, ruleset, chain, seal, signatures, problems, warnings
    (`vwlog.render.json.integrity_json`); ``None`` when not checked."""
    trusted: list[dict[str, Any]]
    """Every result whose effects were taken as logged: seq, line, card, skill, effects."""


class BrokenLinkOut(_Model):
    """The first broken link of a hash chain."""

    seq: int | None
    """Its seq."""
    line: int
    """Its line."""
    reason: str
    """What is wrong."""
    expected: str | None
    """The hash expected."""
    found: str | None
    """The hash found."""


class CommitmentOut(_Model):
    """A deck commitment and whether its reveals match it."""

    player: str
    """Whose deck."""
    status: str
    """``ok``, ``mismatch`` or ``unrevealed``."""


class VerifyOut(_Model):
    """A hash-chain check, as `vwlog.render.json.verify_json` writes it."""

    source: str
    """What was checked."""
    match_id: str | None
    """The match."""
    ok: bool
    """Whether the chain holds, no commitment failed and the derived data agree."""
    sealed: bool
    """Whether the records carry hashes at all."""
    records: int
    """Records checked."""
    head_hash: str | None
    """Hash of the last record."""
    broken: BrokenLinkOut | None
    """The first broken link, if any."""
    commitments: list[CommitmentOut]
    """The deck commitments."""
    seal: str | None
    """Where the chain came from: ``author`` or ``import``."""
    derived: list[str]
    """What the derived data say that the records do not."""
    repaired: list[str] = Field(default_factory=list)
    """What was rebuilt from the records (``vwlog verify --repair``); empty otherwise."""
    verdict: Literal["OK", "ILLEGAL", "INCOMPLETE", "UNTRUSTED", "UNVERIFIED"] | None = None
    """The record's one verdict, as ``/validation`` gives it (``None`` only where the record
    cannot be read as a log)."""
    reason: str | None = None
    """The one sentence that decides ``verdict``, in the request's language."""
    seal_seq: int | None = None
    """The seq of the record's seal, if it has one."""
    seal_line: int | None = None
    """The line of the export that holds the seal, if it has one."""


class EventOut(_Model):
    """One event of a match, as `vwlog.render.json.step_json` writes it with its record."""

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
    voids: list[int] | None
    """The range of seqs a judge's back-up voided, or ``null``."""
    event: dict[str, Any] | None
    """The recorded event; ``null`` for a player's view (it may name hidden cards)."""
    hash: str | None
    """Its chain hash."""


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
    matches: list[MatchSummaryOut]
    """The matches of this page."""


class GameBoardOut(_Model):
    """The board of a match of a game without views (`vwlog.games.board_data`): its fields,
    as the game's rules keep them."""

    game: str
    """The match's game (the log header's ``game``)."""
    seq: int
    """The board is the one after this seq."""
    viewer: str | None
    """The seat whose view it is (``null``: the full record; a game without views has no
    player's view)."""
    fields: dict[str, Any]
    """The board's fields and their values."""


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
    lang: str = "en"
    """The language of the events' sentences (as ``Content-Language`` says)."""


class TimelineOut(_Model):
    """The marks of a match's timeline (each list by increasing seq), without its events."""

    match_id: str
    """The match."""
    head_seq: int
    """The seq of the match's last event."""
    turns: list[tuple[int, int]]
    """``[seq, turn]``: the event after which the turn number became ``turn``."""
    combat_steps: list[int]
    """Events after which a step of the Combat Phase began."""
    priority_points: list[int]
    """Events after which a player holds priority (where a fork may start)."""
    violations: list[tuple[int, str]]
    """``[seq, rule id]`` of every broken rule (the validation report has their texts)."""


class DecisionOut(_Model):
    """One legal decision, as the command line says it."""

    words: str
    """The decision in the play notation (what ``vwlog next`` lists and ``vwlog play`` takes;
    compact JSON where no words say it exactly). Append it as it is."""
    text: str
    """One sentence saying what it does, as the event list says it."""


class AwaitedOut(_Model):
    """What the match waits for now, and the legal decisions."""

    match_id: str
    """The match."""
    seq: int
    """The seq this holds after (the match's head, or the ``at`` asked for)."""
    head_hash: str | None
    """Hash of the last record (``null`` to a player's token on its match in progress unless
    its seat could compute it, as on ``/events``); pass ``seq`` as ``expected_seq`` when
    appending (an append is accepted only where ``seq`` is the head)."""
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
    options: list[DecisionOut] = Field(default_factory=list)
    """The same decisions as ``legal``, in the same order, in words and as a sentence."""


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
    choices: dict[str, list[str]] = Field(default_factory=dict, max_length=50)
    """Choices for results whose skill leaves one (return, bottom, reorder): register object
    id → the card ids chosen, in order. A result without one takes the first choice; every
    choice given must be used by a result this append plays (400 otherwise). A player's token
    chooses only for its own objects."""


class ReceiptOut(_Model):
    """What an append stored, signed by the service.

    To a player's token on its match in progress, ``head_hash`` is ``null`` unless its seat
    could compute it from the records it reads (as on ``/matches/{id}/events``: the hash would
    test a guess of a record naming cards hidden from the seat), while ``signature`` is the
    same as anyone gets, over the real head hash. The seat checks such a receipt once the
    match is finished (and public): the head hash of the exported record at ``head_seq``,
    with ``match_id`` and ``head_seq``, must verify against ``signature``."""

    match_id: str
    """The match."""
    first_seq: int
    """The seq of the first record appended (``head_seq + 1`` when nothing was)."""
    head_seq: int
    """The match's last seq after the append."""
    head_hash: str | None
    """Hash of its last record (``null`` to a player's token while the seat could not
    compute it: see above)."""
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

    match_id: str = Field(min_length=1, max_length=MATCH_ID_MAX, pattern=MATCH_ID_PATTERN)
    """Its id: 1 to 200 letters, digits, ``_ . : ~ -``, beginning with a letter or digit
    (`vwlog.store.catalog.MATCH_ID_PATTERN`)."""
    decks: list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,59}$")]] = Field(
        min_length=2, max_length=4
    )
    """Packaged deck names, one per seat (``p1``, ``p2``, …), see ``/pools/decks``."""
    seed: int | None = Field(default=None, ge=0, le=2**31)
    """Leave it out, as a tournament does: the decks are shuffled and the first player drawn
    in secret (a CSPRNG), each seat's order committed with a salt and opened when the match
    ends. A seed makes the shuffle reproducible, for tests and demonstrations only: anyone
    who finds the seed knows every deck, and the record says it was seeded."""


class LiveGameIn(_Model):
    """A match of another game than Vandaria Wars to record live."""

    match_id: str = Field(min_length=1, max_length=MATCH_ID_MAX, pattern=MATCH_ID_PATTERN)
    """Its id, as for `LiveMatchIn`."""
    start: dict[str, Any]
    """The game's start event, as its logs write it (``type`` included): the table as the
    organiser sets it up. It is judged by the game's rules before anything is stored."""


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
