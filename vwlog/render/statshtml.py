"""Match statistics as one self-contained HTML page: charts (inline SVG) and tables.

The charts are drawn by matplotlib (the ``stats`` extra); the page is the ``stats.html.j2``
template on the base layout the dispute report also uses, so everything a log carries (card,
deck and faction names) is escaped by autoescaping, and a chart label has its ``$`` escaped so
matplotlib never reads it as mathtext. The page says where its matches came from, which filters
chose them, when and by which vwlog version it was made, and ends with the definition of every
figure. No script, no stylesheet link, no network reference: it can be mailed or archived as one
file.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from typing import TYPE_CHECKING

from markupsafe import Markup

from vwlog.io.errors import MissingExtraError
from vwlog.io.i18n import N_
from vwlog.io.i18n import gettext as _
from vwlog.model.text import msg
from vwlog.projections.stats import UNFINISHED, CorpusStats, WinCount
from vwlog.render.html import e, environment
from vwlog.render.statsdata import DEFAULT_MIN_N, DEFAULT_TOP, order_label
from vwlog.render.statsdefs import DOCS, definitions
from vwlog.render.statstext import (
    CARD_HEADERS,
    WIN_HEADERS,
    card_cells,
    corpus_size,
    filters_text,
    pct,
    tempo_cut_text,
    win_cells,
)
from vwlog.render.text import cell_text, visible

if TYPE_CHECKING:
    from collections.abc import Sequence

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["chart_label", "render_html"]

_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; color: #222; margin: 2rem auto; max-width: 1100px;
       padding: 0 1rem; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: 13px; }
th, td { padding: 2px 10px; text-align: right; border-bottom: 1px solid #eee; }
th:first-child, td:first-child { text-align: left; }
h3 { font-size: 1rem; margin: 1rem 0 .2rem; }
.defs td, .defs th { text-align: left; vertical-align: top; }
figure { margin: .5rem 0; } svg { max-width: 100%; height: auto; }
.note { color: #666; font-size: 12px; }
"""


_LITERAL = re.compile(r"``(.+?)``|`([^`]+)`")


def prose_html(text: str) -> Markup:
    """A definition (written in reST/Markdown in the docstrings) as HTML: escaped, with its
    literals (````None````, ```MatchMetrics```) as code, never as raw markup."""
    out: list[str] = []
    last = 0
    for m in _LITERAL.finditer(text):
        out.append(str(e(text[last : m.start()])))
        out.append(f"<code>{e(m.group(1) or m.group(2))}</code>")
        last = m.end()
    out.append(str(e(text[last:])))
    return Markup("".join(out))


def chart_label(text: str) -> str:
    """A label for a chart: control characters made visible, and ``$`` escaped, so the chart
    library never reads a card or player name as mathtext."""
    return visible(text).replace("$", r"\$")


_SVG_CLEAN = (
    (re.compile(r"<\?xml[^>]*\?>\s*"), ""),
    (re.compile(r"<!DOCTYPE[^>]*>\s*"), ""),
    (re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL), ""),
    (re.compile(r'\s+xmlns(:\w+)?="[^"]*"'), ""),
    (re.compile(r"xlink:href="), "href="),
)


def _svg(fig: Figure, label: str) -> Markup:
    """A figure as inline SVG markup, with no namespace URLs or metadata (an HTML parser places
    inline ``<svg>`` in the SVG namespace by itself)."""
    buf = io.StringIO()
    fig.savefig(
        buf,
        format="svg",
        metadata={"Creator": None, "Date": None, "Format": None, "Type": None},
    )
    text = buf.getvalue()
    for pattern, repl in _SVG_CLEAN:
        text = pattern.sub(repl, text)
    return Markup(text.replace("<svg ", f'<svg role="img" aria-label="{e(label)}" ', 1))


@dataclass(frozen=True)
class Section:
    """One section of the page: a heading, a chart, a note and a table (each optional)."""

    heading: str
    svg: Markup | None = None
    note: str = ""
    headers: tuple[str, ...] = ()
    rows: Sequence[Sequence[object]] = ()


def _errorbars(ax: Axes, labels: Sequence[str], wins: Sequence[WinCount], reference: float) -> None:
    xs = list(range(len(labels)))
    rates = [w.rate or 0.0 for w in wins]
    lows = [r - w.interval()[0] for r, w in zip(rates, wins, strict=True)]
    highs = [w.interval()[1] - r for r, w in zip(rates, wins, strict=True)]
    ax.errorbar(xs, rates, yerr=[lows, highs], fmt="o", capsize=5, color="#1f5fa8")
    ax.axhline(reference, color="#999", linestyle="--", linewidth=1)
    ax.set_xticks(xs, [f"{lab}\nn={w.n}" for lab, w in zip(labels, wins, strict=True)])
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")


def _victory_section(stats: CorpusStats, figure: type[Figure]) -> Section:
    dist = stats.victory_distribution()
    fig = figure(figsize=(7, 0.5 + 0.4 * max(1, len(dist))), layout="constrained")
    ax = fig.subplots()
    names = [chart_label(v) for v, _c, _s in dist][::-1]
    counts = [c for _v, c, _s in dist][::-1]
    colors = ["#bbb" if v == UNFINISHED else "#1f5fa8" for v, _c, _s in dist][::-1]
    ax.barh(names, counts, color=colors)
    for y, (c, share) in enumerate(zip(counts, [s for *_x, s in dist][::-1], strict=True)):
        ax.annotate(f" {c} ({share:.0%})", (c, y), va="center")
    ax.set_xlabel("matches")
    ax.margins(x=0.15)
    return Section(
        _("Victory types"),
        _svg(fig, "bar chart of victory types"),
        headers=(N_("victory"), N_("matches"), N_("share")),
        rows=[(v, c, pct(s)) for v, c, s in dist],
    )


def _reference(stats: CorpusStats) -> float:
    """The mean win rate over the seats (the dashed line of the win-rate charts)."""
    ref_n = sum(w.n for w in stats.seats.values())
    return sum(w.wins for w in stats.seats.values()) / ref_n if ref_n else 0.5


def _win_rate_sections(stats: CorpusStats, figure: type[Figure]) -> list[Section]:
    reference = _reference(stats)
    groups: list[tuple[str, str, list[str], list[WinCount]]] = [
        (
            N_("seat"),
            _("Win rate by seat"),
            [f"seat {k}" for k in sorted(stats.seats)],
            [stats.seats[k] for k in sorted(stats.seats)],
        ),
        (
            N_("turn order"),
            _("Win rate by turn order"),
            [order_label(k) for k in sorted(stats.turn_order)],
            [stats.turn_order[k] for k in sorted(stats.turn_order)],
        ),
        (
            N_("faction"),
            _("Win rate by faction"),
            sorted(stats.factions),
            [stats.factions[k] for k in sorted(stats.factions)],
        ),
    ]
    out = []
    for name, heading, labels, wins in groups:
        fig = figure(figsize=(max(4.0, 1.0 + 0.9 * len(labels)), 3.2), layout="constrained")
        _errorbars(fig.subplots(), [chart_label(x) for x in labels], wins, reference)
        out.append(
            Section(
                heading,
                _svg(fig, f"win rate by {name} with 95% confidence intervals"),
                f"Finished matches. Bars: Wilson 95% intervals; dashed line: the mean win rate "
                f"({reference:.1%}).",
                (name, *WIN_HEADERS),
                [(lab, *win_cells(w)) for lab, w in zip(labels, wins, strict=True)],
            )
        )
    out.append(
        Section(
            _("Win rate by deck archetype"),
            None,
            "Finished matches; a deck's archetype is its two most common factions, so decks "
            "that share factions but not every card count together.",
            (N_("archetype"), *WIN_HEADERS),
            [(k, *win_cells(w)) for k, w in sorted(stats.archetypes.items())],
        )
    )
    rows = stats.matchup_rows(mirrors=False)
    out.append(
        Section(
            _("Win rate by matchup"),
            None,
            "Finished matches: each row is the deck faction's record against the opponent's "
            "deck faction, one result per opponent faced (mirror matchups left out), with its "
            "Wilson 95% interval.",
            (N_("faction"), N_("against"), *WIN_HEADERS),
            [(name, opponent, *win_cells(w)) for name, opponent, w in rows],
        )
    )
    return out


def _length_section(stats: CorpusStats, figure: type[Figure]) -> Section:
    turns = stats.length("turns")
    fig = figure(figsize=(7, 3), layout="constrained")
    ax = fig.subplots()
    if turns.buckets:
        ax.bar(
            [a for a, _b, _c in turns.buckets],
            [c for _a, _b, c in turns.buckets],
            width=[b - a + 1 for a, b, _c in turns.buckets],
            align="edge",
            color="#1f5fa8",
            edgecolor="white",
        )
    ax.set_xlabel("turns")
    ax.set_ylabel("matches")
    events = stats.length("events")
    return Section(
        _("Match length"),
        _svg(fig, "histogram of match length in turns"),
        f"Finished matches (n={turns.n}). Turns: mean {_num(turns.mean)}, median "
        f"{_num(turns.median)}. Events: mean {_num(events.mean)}, median "
        f"{_num(events.median)}.",
    )


def _tempo_section(stats: CorpusStats, figure: type[Figure], min_n: int) -> Section:
    rows = stats.tempo_rows(min_n)
    fig = figure(figsize=(7, 6), layout="constrained")
    axes = fig.subplots(3, 1, sharex=True)
    xs = [t for t, _s in rows]
    for ax, (key, label) in zip(
        axes, (("gold", "gold"), ("honor", "honor"), ("vp", "VP")), strict=True
    ):
        ax.plot(xs, [s.mean(key) or 0.0 for _t, s in rows], color="#1f5fa8")
        ax.set_ylabel(f"mean {label}")
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("turn")
    return Section(
        _("Tempo: mean resources at the end of each turn"),
        _svg(fig, "tempo curves of mean gold, honor and VP by turn"),
        "Each point averages the player-matches that reached the end of that turn; n by turn: "
        + ", ".join(f"{t}: {s.n}" for t, s in rows[:: max(1, len(rows) // 12)])
        + (f". {cut}." if (cut := tempo_cut_text(stats, min_n)) else ""),
    )


def _cards_section(stats: CorpusStats, figure: type[Figure], min_n: int, top: int) -> Section:
    cards = stats.card_rows(min_n)[:top]
    fig = figure(figsize=(7, 0.8 + 0.32 * max(1, len(cards))), layout="constrained")
    ax = fig.subplots()
    if cards:
        shown = cards[::-1]
        ys = list(range(len(shown)))
        rates = [c.played.rate or 0.0 for _k, c in shown]
        lows = [r - c.played.interval()[0] for r, (_k, c) in zip(rates, shown, strict=True)]
        highs = [c.played.interval()[1] - r for r, (_k, c) in zip(rates, shown, strict=True)]
        ax.errorbar(rates, ys, xerr=[lows, highs], fmt="o", capsize=3, color="#1f5fa8")
        ax.set_yticks(ys, [chart_label(f"{c.name} (n={c.played.n})") for _k, c in shown])
        ax.axvline(_reference(stats), color="#999", linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate when played (95% CI)")
    return Section(
        _("Top cards by win rate when played (n ≥ {min_n})").format(min_n=min_n),
        _svg(fig, "top cards by win rate with 95% confidence intervals"),
        "Ranked by the lower end of the interval, so a high rate on little evidence does not "
        "outrank a solid one.",
        CARD_HEADERS,
        [card_cells(c) for _k, c in cards],
    )


def render_html(
    stats: CorpusStats,
    *,
    title: str | None = None,
    min_n: int = DEFAULT_MIN_N,
    top: int = DEFAULT_TOP,
    source: str | None = None,
    generated: datetime | None = None,
) -> str:
    """A self-contained HTML page with the statistics as charts (inline SVG) and tables.

    The page says where its matches came from (``source``), which filters chose them, when it
    was generated (``generated``, default now) and by which vwlog version; it ends with the
    definition of every figure.

    Raises:
        MissingExtraError: matplotlib is not installed (it comes with the ``stats`` extra).
    """
    try:
        import matplotlib as mpl
        from matplotlib.figure import Figure
    except ImportError as err:
        raise MissingExtraError("stats", "matplotlib", msg("the statistics page")) from err
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "vwlog", "font.size": 9.0}):
        sections = [
            _victory_section(stats, Figure),
            *_win_rate_sections(stats, Figure),
            _length_section(stats, Figure),
            _tempo_section(stats, Figure, min_n),
            _cards_section(stats, Figure, min_n, top),
        ]
    template = environment().get_template("stats.html.j2")
    return template.render(
        title=title if title is not None else _("Vandaria Wars match statistics"),
        css=Markup(_CSS),
        summary=_(
            "{matches} ({finished} finished, {unfinished} unfinished), {sides} player-matches"
        ).format(**corpus_size(stats)),
        source=source or _("not given"),
        filters=filters_text(stats),
        generated=(generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC"),
        version=version("vwlog"),
        sections=sections,
        docs=DOCS,
        definitions=definitions(),
        prose=prose_html,
        cell_text=cell_text,
    )


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:.1f}"
