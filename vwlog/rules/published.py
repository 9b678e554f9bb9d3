"""A log's embedded card definitions and ruleset held against the published ones (pure).

A log carries its own card definitions and ruleset (`MatchStarted.cards`, `.ruleset`), so on its
own it can claim anything. Judging compares them with the published pool and ruleset the log is
held to: every card field or ruleset flag that differs is a violation, R-TRUST-1 for a card and
R-TRUST-2 for a flag, naming the card, the field, the published and the logged value. Effects
claimed for a skill the published pool leaves text-only are R-TRUST-3 unless the ruleset accepts
them (`TRUSTED_EFFECTS_FLAG`).

Also here, because the engine's report carries them: `TrustedResult` (a result whose effects
could not be checked), `Integrity` (what a verdict rests on) and `Judgement` (the verdict
itself, which only `vwlog.services.verdict.judge` decides). Hashing and signature checks are
I/O and live in `vwlog.io.trust`; this module only compares values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from vwlog.model.cards import card_dump, card_dumps
from vwlog.rules.common import violation

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from vwlog.model.cards import CardDef, Ruleset
    from vwlog.model.errors import Violation

OWN_DEFINITIONS_WARNING = "card definitions are the log's own"
"""The warning every output shows when a log's cards match nothing published."""
OWN_RULESET_WARNING = "the ruleset is the log's own"
"""The warning every output shows when a log's ruleset matches nothing published."""

_MISSING = "(absent)"


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
    """A rule is broken (the trust rules R-TRUST-1/2/3 included)."""
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


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return repr(value)


def _published_and_logged(published: Any, logged: Any) -> dict[str, str]:
    """The values a trust violation says of a field that differs: the published value, which
    is also what the rules expected, and the logged one, which is what the log shows."""
    return {
        "published": _show(published),
        "logged": _show(logged),
        "expected": _show(published),
        "actual": _show(logged),
    }


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Leaf paths of a JSON-like value: ``{"skills.0.effects.0.amount": 2, ...}``.

    >>> flatten({"a": 1, "b": [{"c": 2}], "d": []})
    {'a': 1, 'b.0.c': 2, 'd': []}
    """
    out: dict[str, Any] = {}
    if isinstance(value, dict) and value:
        for key, item in value.items():
            out.update(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(value, list | tuple) and value:
        for index, item in enumerate(value):
            out.update(flatten(item, f"{prefix}.{index}" if prefix else str(index)))
    else:
        out[prefix] = list(value) if isinstance(value, tuple) else value
    return out


def card_fields(card: CardDef) -> dict[str, Any]:
    """A card's fields as leaf paths (JSON names, ``def`` not ``def_``)."""
    return flatten(card.model_dump(mode="json", by_alias=True))


def compare_cards(published: Mapping[str, CardDef], logged: Iterable[CardDef]) -> list[Violation]:
    """R-TRUST-1 for every field of a logged card that differs from the published card with
    the same id, and for a logged card the published pool does not have."""
    out: list[Violation] = []
    cards = tuple(logged)
    for card, dump in zip(cards, card_dumps(cards), strict=True):
        ref = published.get(card.id)
        if ref is None:
            out.append(
                violation(
                    "R-TRUST-1",
                    "card {card} ({name}) is not in the published pool",
                    card=repr(card.id),
                    name=card.name,
                    expected=_MISSING,
                    actual=card.id,
                )
            )
            continue
        if card_dump(ref) == dump:  # their JSON forms: a dict comparison, not pydantic's
            continue
        mine, theirs = card_fields(card), card_fields(ref)
        for path in sorted(set(mine) | set(theirs), key=_path_key):
            a, b = theirs.get(path, _MISSING), mine.get(path, _MISSING)
            if a != b:
                out.append(
                    violation(
                        "R-TRUST-1",
                        "card {card} ({name}) field {path}: published {published}, logged {logged}",
                        card=repr(card.id),
                        name=ref.name,
                        path=repr(path),
                        **_published_and_logged(a, b),
                    )
                )
    return out


def compare_ruleset(published: Ruleset, logged: Ruleset) -> list[Violation]:
    """R-TRUST-2 for every ruleset flag that differs from the published ruleset."""
    theirs = published.model_dump(mode="json")
    mine = logged.model_dump(mode="json")
    out: list[Violation] = []
    for name in theirs:
        if theirs[name] != mine.get(name):
            out.append(
                violation(
                    "R-TRUST-2",
                    "ruleset {id}@{version} flag {name}: published {published}, logged {logged}",
                    id=published.id,
                    version=published.version,
                    name=repr(name),
                    **_published_and_logged(theirs[name], mine.get(name)),
                )
            )
    return out


_IDENTITY = frozenset(("id", "version"))
"""Ruleset fields that name a reading rather than make one."""


def house_rules(
    held: Ruleset, logged: Ruleset, judged: Ruleset | None
) -> tuple[tuple[str, Any], ...]:
    """The flags a record was judged under (``judged``) that differ from the ruleset it is
    held to (``held``: the published one, else the log's own), in field order, with the values
    judged under: a reading the reader chose (``--set``, a ruleset file). A flag the log itself
    sets otherwise than the published ruleset is not a house rule (R-TRUST-2 says it is
    illegal), unless the reader then judged it otherwise again.

    >>> from vwlog.model.cards import Ruleset
    >>> house_rules(Ruleset(), Ruleset(), Ruleset(hand_limit=2))
    (('hand_limit', 2),)
    >>> house_rules(Ruleset(), Ruleset(hand_limit=2), Ruleset(hand_limit=2))
    ()
    """
    if judged is None or judged is logged:
        return ()
    base = held.model_dump(mode="json")
    own = logged.model_dump(mode="json")
    chosen = judged.model_dump(mode="json")
    return tuple(
        (name, value)
        for name, value in chosen.items()
        if name not in _IDENTITY and value != base.get(name) and value != own.get(name)
    )


def house_rules_text(flags: Iterable[tuple[str, Any]]) -> str:
    """``hand_limit=2, attack_target_mode=SINGLE``: house-rule flags as ``--set`` takes them."""
    return ", ".join(f"{name}={_show(value)}" for name, value in flags)


def trusted_effects_violation(result: TrustedResult) -> Violation:
    """R-TRUST-3: a result claims effects for a skill the published pool leaves text only."""
    if result.effects == 1:
        return violation(
            "R-TRUST-3",
            "card {card} skill {skill} claims 1 effect, but the published pool gives the skill "
            "no machine-readable effects: they cannot be checked",
            card=repr(result.card),
            skill=repr(result.skill),
            flag=TRUSTED_EFFECTS_FLAG,
        )
    return violation(
        "R-TRUST-3",
        "card {card} skill {skill} claims {effects} effects, but the published pool gives the "
        "skill no machine-readable effects: they cannot be checked",
        card=repr(result.card),
        skill=repr(result.skill),
        effects=result.effects,
        flag=TRUSTED_EFFECTS_FLAG,
    )


TRUSTED_EFFECTS_FLAG = "accept_trusted_effects"
"""The ruleset flag that accepts effects of text-only skills as logged."""


def _path_key(path: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in path.split("."))


__all__ = [
    "OWN_DEFINITIONS_WARNING",
    "OWN_RULESET_WARNING",
    "TRUSTED_EFFECTS_FLAG",
    "Integrity",
    "Judgement",
    "SignatureCheck",
    "TrustedResult",
    "Verdict",
    "card_fields",
    "compare_cards",
    "compare_ruleset",
    "flatten",
    "house_rules",
    "house_rules_text",
    "trusted_effects_violation",
]
