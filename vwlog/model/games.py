"""The games a log can be of, by the id its header's ``game`` field names.

A header without ``game`` is a Vandaria Wars log (`DEFAULT_GAME`): every log, signature and
store written before games were named keeps its bytes and its hash chain, because canonical
JSON leaves an absent field out. A header may also say ``"game": "vw"`` outright; the field
is then part of the bytes the chain hashes, like any other.

Vandaria Wars is the only game so far. An id this list does not hold is refused when the
header is read (one line naming the file, line 1 and the field), never judged as if it were
Vandaria Wars.

This module imports nothing from vwlog; every layer may import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = ["DEFAULT_GAME", "GAMES", "Game"]


@dataclass(frozen=True, slots=True)
class Game:
    """A game vwlog judges."""

    id: str
    """What a header's ``game`` says: lower-case letters, digits and ``_``."""
    name: str
    """The game's name, as people write it."""


DEFAULT_GAME: Final = "vw"
"""The game of a header without ``game``."""

GAMES: Final = MappingProxyType({DEFAULT_GAME: Game(DEFAULT_GAME, "Vandaria Wars")})
"""The games this vwlog judges, by id."""
