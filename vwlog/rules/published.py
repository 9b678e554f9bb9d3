"""A log's embedded card definitions and ruleset held against the published ones (pure).

A log carries its own card definitions and ruleset (`MatchStarted.cards`, `.ruleset`), so on its
own it can claim anything. Judging compares them with the published pool and ruleset the log is
held to: every card field or ruleset flag that differs is a violation, R-TRUST-1 for a card and
R-TRUST-2 for a flag, naming the card, the field, the published and the logged value. Effects
claimed for a skill the published pool leaves text-only are R-TRUST-3 unless the ruleset accepts
them (`TRUSTED_EFFECTS_FLAG`).

What a verdict rests on and the verdict itself are the core's (`vwlog.model.verdict`). Hashing
and signature checks are I/O and live in `vwlog.io.trust`; this module only compares values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vwlog.model.cards import card_dump, card_dumps
from vwlog.model.verdict import TrustedResult
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
    "card_fields",
    "compare_cards",
    "compare_ruleset",
    "flatten",
    "house_rules",
    "house_rules_text",
    "trusted_effects_violation",
]
