"""Rulesets: read one from a file, change flags by ``--set FLAG=VALUE``, list the rule ids."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from vwlog.model.cards import Ruleset
from vwlog.model.errors import RulesetFileError, RulesetOverrideError, UnknownFlagError
from vwlog.rules.catalog import RULES, status

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


# -- rulesets --------------------------------------------------------------------------------


def parse_overrides(pairs: Iterable[str]) -> dict[str, Any]:
    """Parse ``flag=value`` pairs into a mapping checked against `Ruleset`'s fields.

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
        if name not in fields:
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


def apply_overrides(base: Ruleset, overrides: Mapping[str, Any]) -> Ruleset:
    """``base`` with some flags changed, validated.

    Raises:
        RulesetOverrideError: a value does not fit its flag.
    """
    if not overrides:
        return base
    try:
        return Ruleset.model_validate({**base.model_dump(), **overrides})
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
    try:
        return Ruleset.model_validate_json(Path(path).read_bytes())
    except OSError as err:
        raise RulesetFileError(str(path), f"cannot read ruleset: {err.strerror}") from err
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RulesetFileError(str(path), first["msg"].lower(), where) from err


# -- rules -----------------------------------------------------------------------------------


def rules_catalog() -> list[dict[str, str]]:
    """Every rule id with its title, status and reason, in document order."""
    out = []
    for rule in RULES.values():
        st, reason = status(rule.id)
        out.append(
            {
                "id": str(rule.id),
                "title": rule.title,
                "status": st,
                "reason": reason,
                "basis": rule.basis,
            }
        )
    return out


__all__ = ["apply_overrides", "load_ruleset", "parse_overrides", "rules_catalog"]
