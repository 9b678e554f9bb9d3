"""Pieces more than one game uses the same way: a catalog rule and the catalog entries the core
shows (`Rule`, `rule_entries`); a violation with the flag it rests on and the events expected
and found (`violation`; alone in a tuple, `wrong`); a statistics measure that counts events by
type (`Counting`); the record envelope around a game's events (`Envelope`) and its event
classes by ``type`` tag (`by_tag`); a part loaded when first asked for (`loader`); a ruleset's
label (`ruleset_label`); the check that a board's viewer sits at the match (`known_viewer`),
what a viewer may know (`sees`), the kind of view a board is (`view_kind`) and the fields a
board view opens with (`BoardHead`).

This module imports no game package: a game imports it, never another game. Pure.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict, Field

from vwlog.games.core import RuleEntry, cite, event_text
from vwlog.model.errors import UnknownPlayerError
from vwlog.model.text import closest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from vwlog.games.core import Figure
    from vwlog.model.violation import Violation

__all__ = [
    "BoardHead",
    "Counting",
    "Envelope",
    "Rule",
    "Versioned",
    "View",
    "by_tag",
    "known_viewer",
    "loader",
    "rule_entries",
    "ruleset_label",
    "sees",
    "view_kind",
    "violation",
    "wrong",
]


class Rule(NamedTuple):
    """One rule of the catalog."""

    title: str
    status: str
    original: tuple[str, ...]
    """The seed's sentence(s), verbatim."""


def loader(module: str) -> Callable[[], Any]:
    """A function that imports ``module`` and returns it: how a game names a part the core
    loads only when first asked for (its views, its decisions), which a validation never
    needs."""
    return partial(importlib.import_module, module)


def rule_entries(
    catalog: Mapping[str, Rule], notes: Mapping[str, str]
) -> MappingProxyType[str, RuleEntry]:
    """The catalog as the core shows it (`vwlog.games.GameRules.entries`): each rule with its
    note, if any; no section."""
    return MappingProxyType(
        {
            rid: RuleEntry(rid, r.title, r.status, r.original, "", notes.get(rid, ""))
            for rid, r in catalog.items()
        }
    )


def violation(
    rule: str,
    template: str,
    /,
    *,
    flag: str | None = None,
    want: Any = None,
    got: Any = None,
    **params: object,
) -> Violation:
    """A violation of ``rule``, with the flag it rests on and the events expected and found."""
    found = cite(rule, template, **params)
    return replace(
        found,
        flag=flag,
        expected=event_text(want) if want is not None else None,
        actual=event_text(got) if got is not None else None,
    )


def wrong(rule: str, template: str, /, **params: Any) -> tuple[Violation, ...]:
    """The one violation a check finds (`violation`'s arguments), as the tuple it returns."""
    return (violation(rule, template, **params),)


class Counting:
    """One record's figures (`vwlog.games.core.Stats`), folded event by event: each event whose
    type ``counted`` names adds one to its figure, then `tally` adds what the game measures
    besides. A word starts as ``None``, a count or a most as 0; a ratio is not measured."""

    def __init__(self, figures: tuple[Figure, ...], counted: Mapping[type, str]) -> None:
        self.figures: dict[str, Any] = {
            f.key: (None if f.kind == "word" else 0) for f in figures if f.kind != "ratio"
        }
        self._counted = counted

    def visit(self, event: Any, before: Any, after: Any) -> None:
        """Count ``event`` (folded from ``before`` to ``after``)."""
        key = self._counted.get(type(event))
        if key is not None:
            self.figures[key] += 1
        self.tally(event, before, after)

    def tally(self, event: Any, before: Any, after: Any) -> None:
        """What the game measures of ``event`` besides its count (nothing here)."""

    def result(self) -> dict[str, Any]:
        """The record's figures, by key."""
        return dict(self.figures)


class Envelope(BaseModel):
    """The core's record envelope around one of a game's events: sequence number, time and
    hash. A game's record adds ``event``, the discriminated union of its events."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seq: int = Field(ge=1, le=10**12)
    at: str | None = None
    hash: str | None = None


def by_tag(classes: Iterable[type[BaseModel]]) -> dict[str, type]:
    """The event ``classes`` by their ``type`` tag."""
    return {cls.model_fields["type"].default: cls for cls in classes}


def known_viewer(players: Sequence[str], player: str | None) -> None:
    """Nothing when a board is shown to ``player`` (``None``: the full record) of a match
    between ``players``; `UnknownPlayerError` for a player not at the match."""
    if player is not None and player not in players:
        raise UnknownPlayerError(player, list(players), hint=closest(player, players))


def sees(viewer: str | None, player: str) -> bool:
    """Whether ``viewer`` (``None``: the full record) may know what only ``player`` knows."""
    return viewer is None or viewer == player


def view_kind(viewer: str | None) -> Literal["judge", "player"]:
    """The kind of a board view for ``viewer``: ``judge`` (``None``, the full record) or
    ``player`` (what ``viewer`` may know)."""
    return "judge" if viewer is None else "player"


class Versioned(Protocol):
    """A ruleset as its label names it: an id and a version."""

    @property
    def id(self) -> str:
        """The ruleset's name."""
        ...

    @property
    def version(self) -> int:
        """The ruleset's revision."""
        ...


def ruleset_label(ruleset: Versioned) -> str:
    """How a match names its ruleset: ``id@version``."""
    return f"{ruleset.id}@{ruleset.version}"


class View(BaseModel):
    """A part of a game's board view: frozen, no other field, each field's docstring its
    description."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class BoardHead(View):
    """The fields a game's board view opens with (view version 1): the game (each game's view
    names its own), the event it is the board after and whom it is for."""

    view_version: Literal[1] = 1
    """Version of this document's shape."""
    game: str
    seq: int | None = None
    """The event after which this is the board, when known."""
    viewer: str | None
    """Whose knowledge the view is limited to; ``null`` for the full record."""
    view: Literal["judge", "player"]
    """``judge`` (the full record) or ``player`` (what ``viewer`` may know)."""
