"""Vandaria Wars' views, as the core asks for them (`vwlog.games.Views`): a sentence for each
event and the board as a player could know it. The wording and the board are VW's own
modules (`vwlog.games.vw.describe`, `vwlog.games.vw.boardview`); this module only names them
in the shape every game's views have.
"""

from __future__ import annotations

from vwlog.games.vw.boardview import state_json as board
from vwlog.games.vw.describe import description
from vwlog.model.board import board_said as board_lines

__all__ = ["board", "board_lines", "description"]
