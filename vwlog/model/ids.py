"""Identifiers every game's matches share.

This module imports nothing from vwlog; every other layer may import it.
"""

from __future__ import annotations

from typing import NewType

MatchId = NewType("MatchId", str)
"""Identifier of one match (one event stream)."""

__all__ = ["MatchId"]
