"""Projections: how events change state (`evolve`), and read models folded from events."""

from vwlog.projections.board import INITIAL, evolve

__all__ = ["INITIAL", "evolve"]
