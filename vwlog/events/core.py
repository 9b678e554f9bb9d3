"""The records every game's log shares: a fork's first record, the seal and the signatures
over it. They are the core's, not a game's: the integrity pass reads the seal and signatures
(no rules and no board ever see them), and a fork names its parent the same way in any game.

A game's event union includes them (`vwlog.games.GameRules.record`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from vwlog.events.base import Consequence, Decision
from vwlog.model.bounds import LogInt
from vwlog.model.text import Msg, msg


class MatchForked(Decision):
    """A fork of another match left from this point, a fork point of the parent (DESIGN §2):
    only at a fork point of the game (for Vandaria Wars, where a player holds priority,
    R-REG-5).

    A player's decision."""

    type: Literal["match_forked"] = "match_forked"
    parent: str
    """Id of the parent match."""
    at: LogInt
    """Seq of the parent's fork point the fork continues from."""
    name: str | None = None
    """A name for the fork ("what if I had blocked")."""


SignerName = Annotated[str, Field(min_length=1, max_length=64)]
"""A signer a seal requires: a key's name or its short id."""


class SealedBy(BaseModel):
    """Who sealed a record that did not come from vwlog (no hashes of its own): an organiser
    or a judge who checked it and vouches for it with their key. Their signature over the seal
    follows it (the seal requires it); until it holds, the claim stands for nothing."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    name: SignerName
    """The sealer's key name (a keyring names the key its own way)."""
    role: Literal["organiser", "judge"]
    """In what capacity they sealed it."""


class MatchSealed(Consequence):
    """The record is closed: the seal names how many records precede it, the hash of the last
    of them, and the hashes of the card pool and ruleset the match was judged under.

    Written by the recorder after the last game event (DESIGN §7); only signatures may follow
    it. Not a game fact: the rules and the board never see it.

    A consequence of closing the record."""

    type: Literal["match_sealed"] = "match_sealed"
    events: int = Field(ge=0, le=10**12)
    """Number of records before the seal."""
    head: str = Field(max_length=64)
    """Hash of the last record before the seal (the header's hash when there is none)."""
    pool: str | None = Field(default=None, max_length=64)
    """Hash of the published pool named by ``match_started.pool``."""
    ruleset: str | None = Field(default=None, max_length=64)
    """Hash of the ruleset embedded in ``match_started``."""
    cards: str | None = Field(default=None, max_length=64)
    """Hash of the card definitions embedded in ``match_started``."""
    signers: tuple[SignerName, ...] | None = Field(default=None, max_length=16)
    """Whose signatures the record requires (names or key ids): verification demands a
    signature by each (absent: none is required by the seal; left out of the canonical JSON, so
    seals written before keep their bytes)."""
    sealed_by: SealedBy | None = None
    """Who sealed the record, for one that carried no hashes (``vwlog seal --key``): verdicts
    then say "sealed by organiser X" (absent: the recorder sealed it; left out of the canonical
    JSON, so seals written before keep their bytes)."""


class RecordSigned(Consequence):
    """A signature over the seal: a player, the recording device or the service vouches for the
    sealed record (Ed25519 over ``vwlog-seal-v1``, a newline and the seal record's hash).

    Follows the seal (DESIGN §7); not a game fact.

    A consequence of signing the record."""

    type: Literal["record_signed"] = "record_signed"
    signer: str = Field(min_length=1, max_length=64)
    """Who signed (the key's name)."""
    key: str = Field(max_length=64)
    """The Ed25519 public key (hex)."""
    signature: str = Field(max_length=128)
    """The Ed25519 signature (hex)."""
    seal: int = Field(ge=1, le=10**12)
    """Seq of the seal record signed."""


def core_said(event: MatchForked | MatchSealed | RecordSigned) -> Msg:
    """What a core record says, in the words every game's views use for it."""
    if isinstance(event, MatchSealed):
        return msg("The record is sealed after {n} records", n=event.events)
    if isinstance(event, RecordSigned):
        return msg(
            "{signer} signs the sealed record (key {key})", signer=event.signer, key=event.key[:16]
        )
    if event.name:
        return msg(
            "Forked from match {parent} at seq {seq} ({name})",
            parent=event.parent,
            seq=event.at,
            name=event.name,
        )
    return msg("Forked from match {parent} at seq {seq}", parent=event.parent, seq=event.at)


__all__ = ["MatchForked", "MatchSealed", "RecordSigned", "SealedBy", "SignerName", "core_said"]
