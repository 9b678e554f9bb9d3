"""The definition of every statistic, from the models' field docstrings.

The same definitions end the HTML page and make the generated part of ``docs/statistics.md``
(`definitions_markdown`; a test checks that the document is current).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.projections.stats import (
    CardInfo,
    CardRecord,
    CorpusStats,
    DecisionTiming,
    DeckRecord,
    MatchMetrics,
    PlayerMetrics,
    StatsFilter,
    Summary,
    TempoSums,
    TrustedUse,
    TurnPoint,
    WinCount,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

DOCS = "docs/statistics.md"
"""Where the definitions of every statistic are written up (in the source tree)."""

# -- definitions -------------------------------------------------------------------------------

DEFINED_MODELS: tuple[type[BaseModel], ...] = (
    MatchMetrics,
    PlayerMetrics,
    TurnPoint,
    DecisionTiming,
    CardInfo,
    TrustedUse,
    CorpusStats,
    StatsFilter,
    WinCount,
    DeckRecord,
    CardRecord,
    TempoSums,
    Summary,
)
"""The models whose fields are statistics (or describe them), in the order they are documented.
Each field's definition is its docstring in `vwlog.projections.stats`."""

DERIVED: tuple[tuple[str, str], ...] = (
    (
        "cards_drawn",
        "Cards drawn from Supply and by effects: cards_drawn_supply + "
        "cards_drawn_effects (per match, or per turn in a turn row).",
    ),
    (
        "rate",
        "A win rate: wins / n, over finished player-matches only; empty (null) when n is "
        "0. Always shown with n and its 95% interval.",
    ),
    (
        "ci95_low",
        "Lower end of the Wilson score 95% interval of the rate (z = 1.959964): "
        "(p + z²/2n − z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n) with p = wins / n; 0 when n is 0.",
    ),
    ("ci95_high", "Upper end of the same Wilson 95% interval; 1 when n is 0."),
    (
        "win_rate",
        "Corpus CSV metric of a win rate: value is the rate, with its n, wins, ci95_low and "
        "ci95_high in their columns.",
    ),
    ("unfinished", "Matches counted without a winner: matches − finished."),
    (
        "share",
        "A count's share of its total: victory type matches / matches counted, or a "
        "Supply package's choices / all choices (the total is its n).",
    ),
    ("victory", "A victory type (MILITARY, POLITICAL, ABSOLUTE, CONCESSION, JUDGE or UNFINISHED)."),
    ("mean", "Mean of the finished matches' length (turns or events); n is the finished matches."),
    (
        "median",
        "Median of the finished matches' length (mean of the two middle values for an even n).",
    ),
    ("min", "Shortest finished match."),
    ("max", "Longest finished match."),
    (
        "histogram",
        "Finished matches by length, in about 12 equal-width buckets: low <= length <= high.",
    ),
    ("low", "Smallest length in a histogram bucket."),
    ("high", "Largest length in a histogram bucket."),
    ("position", "Position in turn order (1 = the first player)."),
    ("label", "The position in turn order in words (first, second, …)."),
    ("card", "Card definition id."),
    (
        "archetype",
        "A deck's archetype (CorpusStats.archetypes): its two most common factions in "
        "alphabetical order, joined by '+'.",
    ),
    (
        "opponent",
        "In a matchup row: the opponent's deck faction (the row is the faction's record "
        "against it, one result per opponent faced; CorpusStats.matchups).",
    ),
    (
        "in_deck",
        "Win count of the finished player-matches whose deck held the card (CardRecord.decked).",
    ),
    (
        "min_n",
        "Fewest finished player-matches a card or deck needs to be ranked (--min-n); "
        "the lists in JSON and CSV are complete regardless.",
    ),
    (
        "gold_mean",
        "Mean gold at the end of the turn over the player-matches that reached it: "
        "TempoSums.gold / n.",
    ),
    ("honor_mean", "Mean honor at the end of the turn: TempoSums.honor / n."),
    ("vp_mean", "Mean Victory Points at the end of the turn: TempoSums.vp / n."),
    ("choices", "Times a Supply package was chosen by the counted sides."),
    (
        "scope",
        "Per-match CSV: 'match' for a row counting the whole match, 'turn' for a row "
        "counting one turn (sum a player's turn rows to get their match row).",
    ),
    (
        "supply_<OPTION>",
        "Per-match CSV: times the player chose that Supply package (in the match, or in the turn).",
    ),
    ("match_max_register_depth", "MatchMetrics.max_register_depth, on every row of the match."),
    ("decision_n", "DecisionTiming.n (empty without timestamps, and on turn rows)."),
    ("decision_mean_s", "DecisionTiming.mean, in seconds."),
    ("decision_median_s", "DecisionTiming.median, in seconds."),
    ("decision_max_s", "DecisionTiming.max, in seconds."),
)
"""Figures of the reports that are not a model field, with their definitions."""


def _oneline(text: str | None) -> str:
    return " ".join((text or "").split())


def field_definitions(model: type[BaseModel]) -> list[tuple[str, str]]:
    """``(field, definition)`` for every field of a model, from the field docstrings (an empty
    definition for a field without one)."""
    return [(name, _oneline(f.description)) for name, f in model.model_fields.items()]


def definitions() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """Every definition: ``(model, summary, [(field, definition), …])`` for each of
    `DEFINED_MODELS`, then ``("Derived figures", …, DERIVED)``."""
    out = []
    for model in DEFINED_MODELS:
        summary = _oneline((model.__doc__ or "").split("\n\n")[0])
        out.append((model.__name__, summary, field_definitions(model)))
    out.append(
        (
            "Derived figures",
            "Figures of the JSON, CSV and HTML reports computed from the fields above.",
            list(DERIVED),
        )
    )
    return out


def definitions_markdown() -> str:
    """The definitions as Markdown (the generated part of ``docs/statistics.md``)."""
    lines: list[str] = []
    for name, summary, rows in definitions():
        title = name if " " in name else f"`{name}`"
        lines += ["", f"### {title}", "", summary, "", "| figure | definition |", "|---|---|"]
        lines += [f"| `{f}` | {_md_cell(d)} |" for f, d in rows]
    return "\n".join(lines[1:]) + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", r"\|")


__all__ = [
    "DEFINED_MODELS",
    "DERIVED",
    "DOCS",
    "definitions",
    "definitions_markdown",
    "field_definitions",
]
