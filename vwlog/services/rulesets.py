"""Rulesets: read one from a file, change flags by ``--set FLAG=VALUE``, list the rule ids."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from vwlog.model.cards import Ruleset
from vwlog.model.errors import (
    RulesetFileError,
    RulesetOverrideError,
    UnknownFlagError,
    UsageError,
)
from vwlog.model.text import msg
from vwlog.model.types import RuleId
from vwlog.rules.catalog import RULES, status

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


# -- rulesets --------------------------------------------------------------------------------


def parse_overrides(pairs: Iterable[str]) -> dict[str, Any]:
    """Parse ``flag=value`` pairs into a mapping checked against the flags of `Ruleset` and of
    every other game's ruleset (which game's applies is known once the match is read:
    `apply_overrides` checks it then).

    Raises:
        RulesetOverrideError: a pair is malformed or names no ruleset field.
    """
    out: dict[str, Any] = {}
    fields = Ruleset.model_fields
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise RulesetOverrideError(pair, "not FLAG=VALUE")
        if name not in fields and name not in _other_games_flags():
            raise UnknownFlagError(pair, name)
        low = value.strip().lower()
        parsed: Any = value.strip()
        if low in ("true", "yes", "on"):
            parsed = True
        elif low in ("false", "no", "off"):
            parsed = False
        elif low in ("none", "null"):
            parsed = None
        elif low.lstrip("-").isdigit():
            parsed = int(low)
        out[name] = parsed
    return out


def _other_rulesets() -> list[type[BaseModel]]:
    """The ruleset models of the games other than Vandaria Wars that this vwlog judges."""
    from vwlog.games import GameUnavailableError, rules_for
    from vwlog.model.games import DEFAULT_GAME, GAMES

    out = []
    for gid in sorted(GAMES):
        if gid == DEFAULT_GAME:
            continue
        try:
            default = rules_for(gid).default_ruleset
        except GameUnavailableError:
            continue
        if isinstance(default, BaseModel):
            out.append(type(default))
    return out


def _other_games_flags() -> set[str]:
    return {name for model in _other_rulesets() for name in model.model_fields}


M = TypeVar("M", bound=BaseModel)


def apply_overrides(base: M, overrides: Mapping[str, Any]) -> M:
    """``base`` (any game's ruleset) with some flags changed, validated.

    Raises:
        UnknownFlagError: a flag is not one of ``base``'s game.
        RulesetOverrideError: a value does not fit its flag.
    """
    if not overrides:
        return base
    model = type(base)
    for name, value in overrides.items():
        if name not in model.model_fields:
            raise UnknownFlagError(f"{name}={value}", name)
    try:
        return model.model_validate({**base.model_dump(), **overrides})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        value = overrides.get(where, first.get("input"))
        raise RulesetOverrideError(f"{where}={value}", first["msg"].lower(), where) from err


def load_ruleset(path: str | Path) -> Ruleset:
    """Read a ruleset JSON file.

    Raises:
        RulesetFileError: the file is unreadable or not a valid ruleset.
    """
    return RulesetFile.read(path).vw()


@dataclass(frozen=True, slots=True)
class RulesetFile:
    """A ruleset JSON file as read (``--ruleset FILE``): Vandaria Wars' ruleset, or another
    game's, read as the ruleset of the match it is given to."""

    path: str
    data: bytes

    @classmethod
    def read(cls, path: str | Path) -> RulesetFile:
        """The file, checked to be a ruleset of some game.

        Raises:
            RulesetFileError: it is unreadable or no game's ruleset (Vandaria Wars' error).
        """
        try:
            data = Path(path).read_bytes()
        except OSError as err:
            raise RulesetFileError(str(path), f"cannot read ruleset: {err.strerror}") from err
        found = cls(str(path), data)
        try:
            found.vw()
        except RulesetFileError:
            if not any(found.fits(model) for model in _other_rulesets()):
                raise
        return found

    def fits(self, model: type[BaseModel]) -> bool:
        try:
            model.model_validate_json(self.data)
        except ValidationError:
            return False
        return True

    def vw(self) -> Ruleset:
        """The file as Vandaria Wars' ruleset.

        Raises:
            RulesetFileError: it is not one.
        """
        return self.read_as(Ruleset)

    def read_as(self, model: type[M]) -> M:
        """The file as a ruleset of ``model``'s game.

        Raises:
            RulesetFileError: it is not one.
        """
        try:
            return model.model_validate_json(self.data)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise RulesetFileError(self.path, first["msg"].lower(), where) from err


def replacement(chosen: Any | None, file: RulesetFile | None, named: Any | None) -> Any | None:
    """The ruleset that replaces a match's own (``named``): ``chosen`` (``--ruleset``'s file
    read as Vandaria Wars') where it is of the match's game, else ``file`` read as ``named``'s
    game's ruleset; ``None``: no replacement.

    Raises:
        RulesetFileError: the file is not a ruleset of the match's game.
    """
    if chosen is not None and (named is None or type(chosen) is type(named)):
        return chosen
    if file is None or named is None:
        return chosen
    return file.read_as(type(named))


def judged_under(
    named: Any | None,
    chosen: Any | None,
    file: RulesetFile | None,
    overrides: Iterable[tuple[str, Any]],
) -> Any | None:
    """The ruleset a match whose start names ``named`` is judged under: the replacement
    (`replacement` of ``chosen`` and ``file``) or ``named``, with ``overrides`` applied
    (``None``: the match names none and nothing replaces it).

    Raises:
        RulesetFileError: the file is not a ruleset of the match's game.
        RulesetOverrideError: an override does not fit the ruleset.
    """
    ruleset = replacement(chosen, file, named) or named
    changes = dict(overrides)
    if ruleset is not None and changes:
        ruleset = apply_overrides(ruleset, changes)
    return ruleset


# -- rules -----------------------------------------------------------------------------------


def rules_catalog() -> list[dict[str, Any]]:
    """Every rule of the catalog in document order, each as `rule_entry` gives it."""
    return [rule_entry(str(rid)) for rid in RULES]


def rule_entry(rule_id: str) -> dict[str, Any]:
    """Everything vwlog knows of one rule: its id, title and whole text (in the active
    language), basis, enforcement status and why, the rule in Indonesian (the seed's own
    sentences where the rule comes from the original rules), the ruleset flags its verdicts
    read, the events it checks and where the engine enforces it (module, function, line).

    Raises:
        UsageError: no rule has this id (the message names the closest id).
    """
    from vwlog.render.rules import indonesian_rules, rule_text, rule_title
    from vwlog.rules.enforcement import enforcement

    rid = known_rule(rule_id)
    rule = RULES[RuleId(rid)]
    st, reason = status(rid)
    found = enforcement(rid)
    original = indonesian_rules().get(rid)
    return {
        "id": rid,
        "title": rule_title(rid),
        "basis": rule.basis,
        "status": st,
        "reason": reason,
        "text": rule_text(rid),
        "indonesian": None
        if original is None
        else {
            "title": original.title,
            "seed": original.seed or None,
            "quote": original.quote or None,
            "text": original.text or None,
        },
        "flags": list(found.flags),
        "events": list(found.events),
        "enforced_in": [
            {"module": s.module, "function": s.function or None, "line": s.line}
            for s in found.sites
        ],
    }


def known_rule(rule_id: str) -> str:
    """The catalog's id for ``rule_id`` (``r-cmb-19`` is ``R-CMB-19``).

    Raises:
        UsageError: no rule has this id (the message names the closest id).
    """
    rid = rule_id.strip().upper()
    if RuleId(rid) in RULES:
        return rid
    close = difflib.get_close_matches(rid, [str(r) for r in RULES], n=1, cutoff=0.6)
    near = close[0] if close else None
    if near is None:
        raise UsageError(msg("no rule {rule} in the catalog", rule=repr(rule_id)))
    raise UsageError(
        msg(
            "no rule {rule} in the catalog; did you mean {suggestion}?",
            rule=repr(rule_id),
            suggestion=repr(near),
        )
    )


__all__ = [
    "RulesetFile",
    "apply_overrides",
    "judged_under",
    "known_rule",
    "load_ruleset",
    "parse_overrides",
    "replacement",
    "rule_entry",
    "rules_catalog",
]
