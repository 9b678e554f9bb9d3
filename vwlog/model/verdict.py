"""The verdict on a record, for every game: what it rests on (`Integrity`: the chain, the
seal, the signatures, the published definitions), the one `Verdict` and the `Judgement` that
carries it, which only `vwlog.services.verdict.judge` decides; and the results whose effects
were taken as logged (`TrustedResult`), which the engine's report lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Integrity", "Judgement", "SignatureCheck", "TrustedResult", "Verdict"]


@dataclass(frozen=True, slots=True)
class TrustedResult:
    """A result whose effects are taken as logged: its skill is text only."""

    seq: int
    """Seq of the ``object_resulted`` event."""
    card: str | None
    """The card definition id (``None`` when unknown)."""
    skill: str | None
    """The skill id."""
    effects: int
    """How many effects the log claims."""
    line: int | None = None
    """Line of the log file, when validating a file."""


@dataclass(frozen=True, slots=True)
class SignatureCheck:
    """One signature over a seal, and what checking it showed."""

    seq: int
    """Seq of the ``record_signed`` record."""
    signer: str
    """The name the record gives."""
    key_id: str
    """Short id of the public key (first 16 hex digits of its SHA-256)."""
    status: str
    """``valid``, ``invalid`` (the signature does not fit the seal), ``unknown key`` (valid
    but the key is not in the keyring) or ``not checked`` (no keyring given)."""
    known_as: str | None = None
    """The keyring's name for the key, when it is there."""


@dataclass(frozen=True, slots=True)
class Integrity:
    """What a verdict rests on: the chain, the seal, the signatures and the published pool and
    ruleset. ``problems`` make the verdict fail; ``warnings`` are shown in every output."""

    chain: str
    """``intact``, ``broken: <where and why>`` or ``no hashes``."""
    sealed: bool
    """Whether the record ends with a seal that matches it."""
    seal: str
    """``sealed after N records``, ``unsealed`` or what is wrong with the seal."""
    pool: str
    """The published pool the cards are held to (``id`` and hash), or the warning."""
    ruleset: str
    """The published ruleset the flags are held to, or the warning."""
    signatures: tuple[SignatureCheck, ...] = ()
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    keyring: bool = False
    """Whether signatures were checked against a keyring."""
    trusted_listed: int = field(default=0)
    """How many results with unchecked effects the report lists."""
    seal_seq: int | None = None
    """The seq of the record's (first) seal, if it has one."""
    seal_line: int | None = None
    """The line of the file (or of the stored match's export) that holds the seal."""
    unpublished: tuple[str, ...] = ()
    """What the verdict would rest on that nobody published (the log's own pool or ruleset,
    renamed or not) or that the store does not accept: each makes the verdict UNVERIFIED,
    unless ``own_trusted``."""
    awaiting: tuple[str, ...] = ()
    """The problems that say a signer the seal (or ``--require``) requires has not signed
    (among ``problems``: signing the record is how they are resolved)."""
    own_trusted: bool = False
    """Whether the user asked to trust the log's own definitions (``--trust-log-definitions``):
    a verdict resting on ``unpublished`` definitions is then OK, and says so."""
    house_rules: tuple[tuple[str, Any], ...] = ()
    """The flags the record was judged under that differ from the ruleset it is held to (the
    published one, else its own), with the values judged under (`house_rules`): a verdict
    under house rules, which every output says in its first line."""

    @property
    def ok(self) -> bool:
        """Whether nothing undermines the verdict."""
        return not self.problems


class Verdict(StrEnum):
    """The one verdict on a record (`vwlog.services.verdict.judge` decides it; the values are
    the words every output and the JSON ``"verdict"`` use)."""

    OK = "OK"
    """No rule is broken and the record is intact and sealed."""
    ILLEGAL = "ILLEGAL"
    """A rule is broken (the rules that hold a record to what was published included)."""
    INCOMPLETE = "INCOMPLETE"
    """Legal and intact as far as it goes, but unsealed: its end cannot be told from a cut."""
    UNTRUSTED = "UNTRUSTED"
    """The chain, the seal or a signature fails: the record is not what was sealed."""
    UNVERIFIED = "UNVERIFIED"
    """Legal and intact, but under the log's own card definitions or ruleset, which nobody
    published (or which the store does not accept): nothing holds them to the real game."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on a record, the one sentence that decides it, and the facts every door
    shows alike (decided by `vwlog.services.verdict.judge`, never anywhere else)."""

    verdict: Verdict
    reason: str
    """The first, most serious thing that decides the verdict (a `vwlog.model.text.SaidText`:
    English, said in the reader's language where it is shown)."""
    intact: bool
    """Whether the records are what was written and sealed: the chain holds and no seal or
    signature fails (an unsealed record is intact as far as it goes)."""
    complete: bool
    """Whether the match reached a winner and the record is intact (a record that is not
    intact is never complete)."""
    winner: str | None = None
    """The winner the records name, if they are intact (``None`` otherwise)."""
    victory: str | None = None
    """How it was won, if the record is intact."""
    claimed_winner: str | None = None
    """The winner the records name even when they are not intact (shown flagged, never as
    the outcome)."""
    seal_seq: int | None = None
    """The seq of the record's seal, if it has one."""
    own_definitions: bool = False
    """Whether an OK verdict rests on the log's own definitions, trusted as the user asked
    (every output says so with the verdict)."""
    house_rules: tuple[tuple[str, Any], ...] = ()
    """The flags judged under that differ from the ruleset the record is held to, with their
    values (`Integrity.house_rules`): the verdict holds under these house rules only, and
    every output says so in its first line."""
