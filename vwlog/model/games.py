"""The games a log can be of, by the id its header's ``game`` field names.

A header without ``game`` is a Vandaria Wars log (`DEFAULT_GAME`): every log, signature and
store written before games were named keeps its bytes and its hash chain, because canonical
JSON leaves an absent field out. A header may also say ``"game": "vw"`` outright; the field
is then part of the bytes the chain hashes, like any other.

A game is registered here by id, with the module that holds its rules (`vwlog.games` loads it
when a match of the game is first judged, so no layer of the core imports a game). An id this
list does not hold is refused when the header is read (one line naming the file, line 1 and the
field), never judged as if it were another game.

Games outside vwlog's own are named by the environment variable ``VWLOG_GAMES``:
``id=module`` pairs separated by commas (``takeaway=tests.games.takeaway``), each module holding
a ``GAME``; a process started with it (a command, the service and its workers) judges those
games too.

This module imports nothing from vwlog; every layer may import it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = ["DEFAULT_GAME", "ENV", "GAMES", "Game", "register_game"]

GAME_ID: Final = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""What a game id looks like: lower-case letters, digits and ``_``, a letter first."""


@dataclass(frozen=True, slots=True)
class Game:
    """A game vwlog judges."""

    id: str
    """What a header's ``game`` says: lower-case letters, digits and ``_``."""
    name: str
    """The game's name, as people write it."""
    module: str = ""
    """The module whose ``GAME`` attribute is the game's rules (`vwlog.games.GameRules`)."""


DEFAULT_GAME: Final = "vw"
"""The game of a header without ``game``."""

_GAMES: dict[str, Game] = {
    DEFAULT_GAME: Game(DEFAULT_GAME, "Vandaria Wars", "vwlog.games.vw"),
    "wowtcg": Game("wowtcg", "World of Warcraft TCG", "vwlog.games.wowtcg"),
    "l5r": Game("l5r", "Legend of the Five Rings (battles)", "vwlog.games.l5r"),
    "minis": Game("minis", "Miniatures (activation sequence)", "vwlog.games.minis"),
}

GAMES: Final = MappingProxyType(_GAMES)
"""The games this vwlog judges, by id (a read-only view: `register_game` adds one)."""


def register_game(game: Game) -> None:
    """Add ``game`` to `GAMES` (a game outside vwlog's own, such as one a test defines).

    Raises:
        ValueError: the id is not a game id, or another game holds it.
    """
    if not GAME_ID.fullmatch(game.id):
        raise ValueError(f"{game.id!r} is not a game id (lower-case letters, digits and _)")
    held = _GAMES.get(game.id)
    if held is not None and held != game and held.module != game.module:
        raise ValueError(f"the game id {game.id!r} is taken by {held.name}")
    _GAMES[game.id] = game


ENV: Final = "VWLOG_GAMES"
"""Games outside vwlog's own: ``id=module`` pairs separated by commas."""


def _from_environment(value: str) -> None:
    for part in value.split(","):
        gid, _, module = part.strip().partition("=")
        if gid and module and GAME_ID.fullmatch(gid) and gid not in _GAMES:
            _GAMES[gid] = Game(gid, gid, module.strip())


_from_environment(os.environ.get(ENV, ""))
