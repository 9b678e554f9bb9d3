"""Rendering of match statistics: aligned text tables, JSON, CSV and a self-contained HTML page.

The numbers come from `vwlog.projections.stats`; the layouts live in `vwlog.render.statsdata`
(the report as data: JSON and CSV, per-match rows), `vwlog.render.statstext` (text tables),
`vwlog.render.statshtml` (the HTML page and its charts) and `vwlog.render.statsdefs` (the
definition of every figure). This module gathers what the ``stats`` command uses.
"""

from __future__ import annotations

from vwlog.render.statsdata import (
    CSV_COLUMNS,
    DEFAULT_MIN_N,
    DEFAULT_TOP,
    MATCH_COLUMNS,
    PLAYER_COLUMNS,
    SCOPE_COLUMNS,
    TURN_FIELDS,
    csv_rows,
    match_rows,
    order_label,
    render_csv,
    render_json,
    render_matches_csv,
    render_matches_json,
    report,
    win_dict,
)
from vwlog.render.statsdefs import (
    DEFINED_MODELS,
    DERIVED,
    DOCS,
    definitions,
    definitions_markdown,
    field_definitions,
)
from vwlog.render.statshtml import chart_label, render_html
from vwlog.render.statstext import render_matches_table, render_table, table

__all__ = [
    "CSV_COLUMNS",
    "DEFAULT_MIN_N",
    "DEFAULT_TOP",
    "DEFINED_MODELS",
    "DERIVED",
    "DOCS",
    "MATCH_COLUMNS",
    "PLAYER_COLUMNS",
    "SCOPE_COLUMNS",
    "TURN_FIELDS",
    "chart_label",
    "csv_rows",
    "definitions",
    "definitions_markdown",
    "field_definitions",
    "match_rows",
    "order_label",
    "render_csv",
    "render_html",
    "render_json",
    "render_matches_csv",
    "render_matches_json",
    "render_matches_table",
    "render_table",
    "report",
    "table",
    "win_dict",
]
