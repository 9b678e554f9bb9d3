"""Rendering of match statistics: aligned text tables, JSON, CSV and a self-contained HTML page.

The numbers come from `vwlog.projections.stats`; this module only lays them out. Every win
rate is shown with its sample size and its Wilson 95 % interval, never as a bare percentage.

The HTML page embeds its charts as inline SVG drawn by matplotlib (the ``stats`` extra), with no
script, no stylesheet link and no network reference, so it can be mailed or archived as one file.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from vwlog.model.errors import UsageError
from vwlog.projections.stats import (
    UNFINISHED,
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
    TurnPoint,
    WinCount,
)
from vwlog.render.html import e, page
from vwlog.render.text import table as text_table
from vwlog.render.text import visible

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from pydantic import BaseModel

DEFAULT_MIN_N = 10
"""Fewest finished player-matches a card or deck needs to be listed among the top ones."""
DEFAULT_TOP = 20
"""How many cards (and decks) the table and the page list."""
STATS_EXTRA = "pip install 'vwlog[stats]'"
"""How to install what ``--html`` needs."""

DOCS = "docs/statistics.md"
"""Where the definitions of every statistic are written up (in the source tree)."""

_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}


def _r(x: float | None, digits: int = 6) -> float | None:
    return None if x is None else round(x, digits)


def win_dict(w: WinCount) -> dict[str, Any]:
    """A win count as ``n``, ``wins``, ``rate`` and the 95 % interval ends."""
    lo, hi = w.interval()
    return {
        "n": w.n,
        "wins": w.wins,
        "rate": _r(w.rate),
        "ci95_low": _r(lo),
        "ci95_high": _r(hi),
    }


def order_label(position: int) -> str:
    """``first``, ``second``, … for a position in turn order."""
    return _ORDINALS.get(position, f"#{position}")


# -- the report, as data -----------------------------------------------------------------------


def report(stats: CorpusStats, *, min_n: int = DEFAULT_MIN_N) -> dict[str, Any]:
    """Everything the corpus statistics say, as JSON-ready data with stable keys.

    Lists are complete (every seat, faction, deck and card); ``min_n`` is recorded for readers
    and used by the text table and the page to pick the top cards.
    """
    f = stats.filters
    length = {}
    for what in ("turns", "events"):
        s = stats.length(what)
        length[what] = {
            "n": s.n,
            "mean": _r(s.mean),
            "median": s.median,
            "min": s.min,
            "max": s.max,
            "histogram": [{"low": a, "high": b, "matches": c} for a, b, c in s.buckets],
        }
    return {
        "corpus": {
            "matches": stats.matches,
            "finished": stats.finished,
            "unfinished": stats.matches - stats.finished,
            "with_violations": stats.with_violations,
            "sides": stats.sides,
            "skipped": dict(sorted(stats.skipped.items())),
            "rulesets": dict(sorted(stats.rulesets.items())),
            "formats": dict(sorted(stats.formats.items())),
        },
        "filters": {
            "player": f.player,
            "faction": f.faction,
            "ruleset": f.ruleset,
            "since": f.since.isoformat() if f.since else None,
        },
        "min_n": min_n,
        "victory_types": [
            {"victory": v, "matches": c, "share": _r(share)}
            for v, c, share in stats.victory_distribution()
        ],
        "length": length,
        "win_rate": {
            "by_seat": [{"seat": k, **win_dict(w)} for k, w in sorted(stats.seats.items())],
            "by_turn_order": [
                {"position": k, "label": order_label(k), **win_dict(w)}
                for k, w in sorted(stats.turn_order.items())
            ],
            "by_faction": [
                {"faction": k, **win_dict(w)} for k, w in sorted(stats.factions.items())
            ],
            "by_deck": [
                {
                    "deck_id": k,
                    "faction": d.faction,
                    "size": d.size,
                    "played": d.played,
                    **win_dict(d),
                }
                for k, d in sorted(stats.decks.items(), key=lambda kv: (-kv[1].played, kv[0]))
            ],
        },
        "cards": [
            {
                "card": k,
                "name": c.name,
                "type": c.type,
                "faction": c.faction,
                "matches": c.matches,
                "summons": c.summons,
                "played": win_dict(c.played),
                "in_deck": win_dict(c.decked),
            }
            for k, c in sorted(stats.cards.items())
        ],
        "supply": dict(sorted(stats.supply.items())),
        "tempo": [
            {
                "turn": turn,
                "n": s.n,
                "gold_mean": _r(s.mean("gold")),
                "honor_mean": _r(s.mean("honor")),
                "vp_mean": _r(s.mean("vp")),
            }
            for turn, s in stats.tempo_rows()
        ],
    }


def render_json(stats: CorpusStats, *, min_n: int = DEFAULT_MIN_N) -> str:
    """The report as indented JSON with sorted keys."""
    return json.dumps(report(stats, min_n=min_n), indent=2, sort_keys=True)


# -- CSV ---------------------------------------------------------------------------------------

CSV_COLUMNS = ("section", "group", "metric", "value", "n", "wins", "ci95_low", "ci95_high")
"""Columns of the corpus CSV: one row per metric of one group (long, "tidy" form)."""


def csv_rows(stats: CorpusStats, *, min_n: int = DEFAULT_MIN_N) -> list[dict[str, Any]]:
    """The corpus report as rows of `CSV_COLUMNS` (``None`` where a column does not apply)."""
    data = report(stats, min_n=min_n)
    rows: list[dict[str, Any]] = []

    def row(section: str, group: object, metric: str, value: object, **more: object) -> None:
        rows.append({"section": section, "group": group, "metric": metric, "value": value, **more})

    def win(section: str, group: object, w: dict[str, Any]) -> None:
        row(
            section,
            group,
            "win_rate",
            w["rate"],
            n=w["n"],
            wins=w["wins"],
            ci95_low=w["ci95_low"],
            ci95_high=w["ci95_high"],
        )

    corpus = data["corpus"]
    for key in ("matches", "finished", "unfinished", "with_violations", "sides"):
        row("corpus", "all", key, corpus[key])
    for reason, count in corpus["skipped"].items():
        row("skipped", reason, "matches", count)
    for name, count in corpus["rulesets"].items():
        row("ruleset", name, "matches", count)
    for v in data["victory_types"]:
        row("victory_type", v["victory"], "matches", v["matches"], n=stats.matches)
        row("victory_type", v["victory"], "share", v["share"], n=stats.matches)
    for what, s in data["length"].items():
        for key in ("mean", "median", "min", "max"):
            row(f"length_{what}", "finished", key, s[key], n=s["n"])
        for b in s["histogram"]:
            row(f"length_{what}_histogram", f"{b['low']}-{b['high']}", "matches", b["matches"])
    rates = data["win_rate"]
    for w in rates["by_seat"]:
        win("win_rate_by_seat", w["seat"], w)
    for w in rates["by_turn_order"]:
        win("win_rate_by_turn_order", w["label"], w)
    for w in rates["by_faction"]:
        win("win_rate_by_faction", w["faction"], w)
    for w in rates["by_deck"]:
        win("win_rate_by_deck", w["deck_id"], w)
    for c in data["cards"]:
        win("card_win_rate_when_played", c["card"], c["played"])
        win("card_win_rate_in_deck", c["card"], c["in_deck"])
        row("card_matches_played_in", c["card"], "matches", c["matches"])
    for option, count in data["supply"].items():
        row("supply", option, "choices", count)
    for t in data["tempo"]:
        for key in ("gold_mean", "honor_mean", "vp_mean"):
            row("tempo", t["turn"], key, t[key], n=t["n"])
    return rows


def _write_csv(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: ("" if r.get(k) is None else r[k]) for k in columns})
    return out.getvalue()


def render_csv(stats: CorpusStats, *, min_n: int = DEFAULT_MIN_N) -> str:
    """The corpus report as CSV, one row per metric of one group (see `CSV_COLUMNS`)."""
    return _write_csv(CSV_COLUMNS, csv_rows(stats, min_n=min_n))


# -- definitions -------------------------------------------------------------------------------

DEFINED_MODELS: tuple[type[BaseModel], ...] = (
    MatchMetrics,
    PlayerMetrics,
    TurnPoint,
    DecisionTiming,
    CardInfo,
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


_LITERAL = re.compile(r"``(.+?)``|`([^`]+)`")


def _prose_html(text: str) -> str:
    """A definition (written in reST/Markdown in the docstrings) as HTML: escaped, with its
    literals (````None````, ```MatchMetrics```) as code, never as raw markup."""
    out: list[str] = []
    last = 0
    for m in _LITERAL.finditer(text):
        out.append(str(e(text[last : m.start()])))
        out.append(f"<code>{e(m.group(1) or m.group(2))}</code>")
        last = m.end()
    out.append(str(e(text[last:])))
    return "".join(out)


def _definitions_html() -> str:
    parts = [
        '<section class="defs">',
        '<h2 id="definitions">Definitions</h2>',
        f'<p class="note">Every figure on this page, as defined in {e(DOCS)}. '
        "Win rates count finished matches; every rate has its n and a Wilson 95% interval.</p>",
    ]
    for name, summary, rows in definitions():
        parts.append(f"<h3>{e(name)}</h3>")
        parts.append(f'<p class="note">{_prose_html(summary)}</p>')
        head = "<th>figure</th><th>definition</th>"
        body = "".join(
            f"<tr><td><code>{e(f)}</code></td><td>{_prose_html(d)}</td></tr>" for f, d in rows
        )
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    parts.append("</section>")
    return "\n".join(parts)


# -- per-match output --------------------------------------------------------------------------

MATCH_COLUMNS = (
    "match_id",
    "ruleset",
    "format",
    "first_player",
    "winner",
    "victory",
    "turns",
    "events",
    "decisions",
    "violations",
    "match_max_register_depth",
)
"""Match-level columns of the per-match CSV."""

SCOPE_COLUMNS = ("scope", "turn")
"""Which part of the match a per-match CSV row counts: ``scope`` is ``match`` for the whole
match (``turn`` empty) or ``turn`` for one turn (``turn`` is its number)."""

PLAYER_COLUMNS = (
    "player",
    "seat",
    "order",
    "team",
    "won",
    "deck_id",
    "faction",
    "deck_size",
    "gold_produced",
    "gold_from_supply",
    "gold_from_effects",
    "gold_spent",
    "supply_CARDS_2",
    "supply_GOLD_2",
    "supply_CARD_1_GOLD_1",
    "supply_FIRST_TURN_CARD_1",
    "supply_FIRST_TURN_GOLD_1",
    "final_gold",
    "final_honor",
    "final_vp",
    "cards_drawn",
    "cards_drawn_supply",
    "cards_drawn_effects",
    "cards_played",
    "cards_discarded",
    "territories_summoned",
    "territories_lost",
    "followers_summoned",
    "followers_lost",
    "attacks_declared",
    "attackers_declared",
    "blocks",
    "damage_to_followers",
    "damage_to_territories",
    "max_register_depth",
    "skills_registered",
    "skills_triggered",
    "decision_n",
    "decision_mean_s",
    "decision_median_s",
    "decision_max_s",
)
"""Player-level columns of the per-match CSV (one row per player of each match, then one per
player and turn)."""

TURN_FIELDS = tuple(
    name for name in TurnPoint.model_fields if name not in ("turn", "gold", "honor", "vp", "supply")
)
"""Counts that `PLAYER_COLUMNS` gives both per match and per turn (`TurnPoint` fields)."""


def match_rows(matches: Iterable[MatchMetrics]) -> list[dict[str, Any]]:
    """Flat rows (`MATCH_COLUMNS` + `SCOPE_COLUMNS` + `PLAYER_COLUMNS`): for each player of
    each match, one row for the whole match (``scope`` ``match``), then one row per turn
    (``scope`` ``turn``) with what the player did in that turn; there ``final_gold``,
    ``final_honor`` and ``final_vp`` are the resources at the end of the turn and the decision
    times are empty. Summing a count over a player's turn rows gives their match row."""
    rows = []
    for m in matches:
        base = {
            "match_id": m.match_id,
            "ruleset": f"{m.ruleset}@{m.ruleset_version}",
            "format": m.format,
            "first_player": m.first_player,
            "winner": m.winner,
            "victory": m.victory,
            "turns": m.turns,
            "events": m.events,
            "decisions": m.decisions,
            "violations": m.violations,
            "match_max_register_depth": m.max_register_depth,
        }
        for p in m.players:
            flat = p.model_dump(
                exclude={"deck", "supply", "played", "tempo", "decision_time", "skills_registered"}
            )
            flat.pop("skills_triggered")
            for option, count in p.supply.items():
                flat[f"supply_{option}"] = count
            timing = p.decision_time
            rows.append(
                {
                    **base,
                    "scope": "match",
                    "turn": None,
                    **flat,
                    "cards_drawn": p.cards_drawn,
                    "skills_registered": sum(p.skills_registered.values()),
                    "skills_triggered": sum(p.skills_triggered.values()),
                    "decision_n": timing.n if timing else None,
                    "decision_mean_s": _r(timing.mean, 3) if timing else None,
                    "decision_median_s": _r(timing.median, 3) if timing else None,
                    "decision_max_s": _r(timing.max, 3) if timing else None,
                }
            )
            who = {k: flat[k] for k in PLAYER_COLUMNS[:8]}
            for point in p.tempo:
                rows.append(
                    {
                        **base,
                        "scope": "turn",
                        "turn": point.turn,
                        **who,
                        **{k: getattr(point, k) for k in TURN_FIELDS},
                        **{f"supply_{o}": point.supply.get(o, 0) for o in p.supply},
                        "final_gold": point.gold,
                        "final_honor": point.honor,
                        "final_vp": point.vp,
                        "cards_drawn": point.cards_drawn,
                    }
                )
    return rows


def render_matches_csv(matches: Iterable[MatchMetrics]) -> str:
    """Per-match metrics as CSV: one row per player of each match, then one per player and
    turn (see `match_rows`)."""
    return _write_csv((*MATCH_COLUMNS, *SCOPE_COLUMNS, *PLAYER_COLUMNS), match_rows(matches))


def render_matches_json(matches: Iterable[MatchMetrics]) -> str:
    """Per-match metrics as a JSON list of `MatchMetrics` objects (sorted keys)."""
    return json.dumps([m.model_dump(mode="json") for m in matches], indent=2, sort_keys=True)


def render_matches_table(matches: Iterable[MatchMetrics]) -> str:
    """Per-match metrics as text: a line per match, then a row per player."""
    blocks = []
    headers = (
        "player",
        "seat",
        "order",
        "faction",
        "won",
        "gold prod",
        "spent",
        "drawn",
        "played",
        "disc",
        "terr +/-",
        "foll +/-",
        "attackers",
        "blocks",
        "dmg F/T",
        "honor",
        "VP",
    )
    for m in matches:
        ending = f"won by {m.winner} ({m.victory})" if m.winner else "no winner"
        head = (
            f"{m.match_id} · {m.format} · {m.ruleset}@{m.ruleset_version} · first "
            f"{m.first_player} · {ending} · {m.turns} turns · {m.events:,} events · "
            f"{m.decisions:,} decisions · register depth {m.max_register_depth}"
        )
        if m.violations:
            head += f" · {m.violations} violations"
        rows = [
            (
                p.player,
                p.seat,
                p.order,
                p.faction,
                "yes" if p.won else "",
                p.gold_produced,
                p.gold_spent,
                p.cards_drawn,
                p.cards_played,
                p.cards_discarded,
                f"{p.territories_summoned}/{p.territories_lost}",
                f"{p.followers_summoned}/{p.followers_lost}",
                p.attackers_declared,
                p.blocks,
                f"{p.damage_to_followers}/{p.damage_to_territories}",
                p.final_honor,
                p.final_vp,
            )
            for p in m.players
        ]
        blocks.append(head + "\n" + _indent(table(headers, rows)))
    return "\n\n".join(blocks)


# -- text --------------------------------------------------------------------------------------


table = text_table
"""An aligned text table: text columns left-aligned, numbers right-aligned
(`vwlog.render.text.table`)."""


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.2f}"
    return str(v)


def _indent(text: str, by: str = "  ") -> str:
    return "\n".join(by + line if line else line for line in text.splitlines())


def _pct(x: float | None) -> str:
    return "" if x is None else f"{x:.1%}"


def _win_cells(w: WinCount) -> tuple[int, int, str, str]:
    lo, hi = w.interval()
    return w.n, w.wins, _pct(w.rate), f"{lo:.1%}–{hi:.1%}" if w.n else ""


_WIN_HEADERS = ("n", "wins", "win rate", "95% CI")


def render_table(stats: CorpusStats, *, min_n: int = DEFAULT_MIN_N, top: int = DEFAULT_TOP) -> str:
    """The corpus statistics as aligned text sections."""
    out: list[str] = []
    unfinished = stats.matches - stats.finished
    out.append(
        f"{stats.matches:,} matches ({stats.finished:,} finished, {unfinished:,} unfinished) · "
        f"{stats.sides:,} player-matches"
        + (f" · {stats.with_violations:,} with rule violations" if stats.with_violations else "")
    )
    if stats.rulesets:
        out.append(
            "rulesets: " + ", ".join(f"{k} ({v})" for k, v in sorted(stats.rulesets.items()))
        )
    f = stats.filters
    if f.active:
        chosen = [
            f"{k} {v}"
            for k, v in (
                ("player", f.player),
                ("faction", f.faction),
                ("ruleset", f.ruleset),
                ("since", f.since),
            )
            if v is not None
        ]
        out.append("filters: " + ", ".join(chosen))
    if stats.skipped:
        out.append("skipped: " + ", ".join(f"{v} ({k})" for k, v in sorted(stats.skipped.items())))

    def section(title: str, body: str) -> None:
        out.append("")
        out.append(title)
        out.append(_indent(body))

    section(
        "Victory types",
        table(
            ("victory", "matches", "share"),
            [(v, c, _pct(s)) for v, c, s in stats.victory_distribution()],
        ),
    )
    lengths = []
    for what in ("turns", "events"):
        s = stats.length(what)
        lengths.append((what, s.n, s.mean, s.median, s.min, s.max))
    section(
        "Match length (finished matches)",
        table(("", "n", "mean", "median", "min", "max"), lengths),
    )
    turns = stats.length("turns")
    if turns.buckets:
        peak = max(c for _a, _b, c in turns.buckets) or 1
        section(
            "Turns histogram",
            table(
                ("turns", "matches", ""),
                [(f"{a}–{b}", c, "█" * round(30 * c / peak)) for a, b, c in turns.buckets],
            ),
        )
    section(
        "Win rate by seat (finished matches)",
        table(
            ("seat", *_WIN_HEADERS),
            [(k, *_win_cells(w)) for k, w in sorted(stats.seats.items())],
        ),
    )
    section(
        "Win rate by turn order",
        table(
            ("player", *_WIN_HEADERS),
            [(order_label(k), *_win_cells(w)) for k, w in sorted(stats.turn_order.items())],
        ),
    )
    section(
        "Win rate by faction",
        table(
            ("faction", *_WIN_HEADERS),
            [(k, *_win_cells(w)) for k, w in sorted(stats.factions.items())],
        ),
    )
    decks = sorted(stats.decks.items(), key=lambda kv: (-kv[1].n, kv[0]))
    repeated = [(k, d) for k, d in decks if d.n >= min_n][:top]
    section(
        f"Decks with n ≥ {min_n} ({len(stats.decks):,} distinct decks)",
        table(
            ("deck", "faction", "size", *_WIN_HEADERS),
            [(k, d.faction, d.size, *_win_cells(d)) for k, d in repeated],
        )
        if repeated
        else "(none)",
    )
    cards = stats.card_rows(min_n)[:top]
    section(
        f"Top cards by win rate when played (n ≥ {min_n}, ranked by the interval's lower end)",
        table(
            ("card", "faction", "matches played", *_WIN_HEADERS, "in-deck n", "in-deck rate"),
            [
                (
                    c.name,
                    c.faction or "",
                    c.matches,
                    *_win_cells(c.played),
                    c.decked.n,
                    _pct(c.decked.rate),
                )
                for _k, c in cards
            ],
        )
        if cards
        else "(none)",
    )
    if stats.supply:
        total = sum(stats.supply.values())
        section(
            "Supply choices",
            table(
                ("package", "choices", "share"),
                [(k, v, _pct(v / total)) for k, v in sorted(stats.supply.items())],
            ),
        )
    section(
        "Tempo: mean at the end of each turn",
        table(
            ("turn", "n", "gold", "honor", "VP"),
            [
                (t, s.n, s.mean("gold"), s.mean("honor"), s.mean("vp"))
                for t, s in stats.tempo_rows()
            ],
        ),
    )
    return "\n".join(out)


# -- HTML --------------------------------------------------------------------------------------

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

_SVG_CLEAN = (
    (re.compile(r"<\?xml[^>]*\?>\s*"), ""),
    (re.compile(r"<!DOCTYPE[^>]*>\s*"), ""),
    (re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL), ""),
    (re.compile(r'\s+xmlns(:\w+)?="[^"]*"'), ""),
    (re.compile(r"xlink:href="), "href="),
)


def _svg(fig: Figure, label: str) -> str:
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
    return text.replace("<svg ", f'<svg role="img" aria-label="{e(label)}" ', 1)


def _html_table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    head = "".join(f"<th>{e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{e(_cell(v))}</td>" for v in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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


def render_html(
    stats: CorpusStats,
    *,
    title: str = "Vandaria Wars match statistics",
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
        UsageError: matplotlib is not installed (it comes with the ``stats`` extra).
    """
    try:
        import matplotlib as mpl
        from matplotlib.figure import Figure
    except ImportError as err:
        detail = f"--html needs matplotlib, which is not installed: {STATS_EXTRA}"
        raise UsageError(detail) from err

    parts: list[str] = []

    def chart(heading: str, fig: Figure, label: str, note: str = "") -> None:
        parts.append(f"<h2>{e(heading)}</h2>")
        parts.append(f"<figure>{_svg(fig, label)}</figure>")
        if note:
            parts.append(f'<p class="note">{e(note)}</p>')

    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "vwlog", "font.size": 9.0}):
        # Victory types.
        dist = stats.victory_distribution()
        fig = Figure(figsize=(7, 0.5 + 0.4 * max(1, len(dist))), layout="constrained")
        ax = fig.subplots()
        names = [chart_label(v) for v, _c, _s in dist][::-1]
        counts = [c for _v, c, _s in dist][::-1]
        colors = ["#bbb" if v == UNFINISHED else "#1f5fa8" for v, _c, _s in dist][::-1]
        ax.barh(names, counts, color=colors)
        for y, (c, share) in enumerate(zip(counts, [s for *_x, s in dist][::-1], strict=True)):
            ax.annotate(f" {c} ({share:.0%})", (c, y), va="center")
        ax.set_xlabel("matches")
        ax.margins(x=0.15)
        chart("Victory types", fig, "bar chart of victory types")
        parts.append(
            _html_table(("victory", "matches", "share"), [(v, c, _pct(s)) for v, c, s in dist])
        )

        # Win rate by seat, turn order and faction.
        ref_n = sum(w.n for w in stats.seats.values())
        reference = sum(w.wins for w in stats.seats.values()) / ref_n if ref_n else 0.5
        groups: list[tuple[str, list[str], list[WinCount]]] = [
            (
                "seat",
                [f"seat {k}" for k in sorted(stats.seats)],
                [stats.seats[k] for k in sorted(stats.seats)],
            ),
            (
                "turn order",
                [order_label(k) for k in sorted(stats.turn_order)],
                [stats.turn_order[k] for k in sorted(stats.turn_order)],
            ),
            (
                "faction",
                sorted(stats.factions),
                [stats.factions[k] for k in sorted(stats.factions)],
            ),
        ]
        for name, labels, wins in groups:
            fig = Figure(figsize=(max(4.0, 1.0 + 0.9 * len(labels)), 3.2), layout="constrained")
            _errorbars(fig.subplots(), [chart_label(x) for x in labels], wins, reference)
            chart(
                f"Win rate by {name}",
                fig,
                f"win rate by {name} with 95% confidence intervals",
                f"Finished matches. Bars: Wilson 95% intervals; dashed line: the mean win rate "
                f"({reference:.1%}).",
            )
            parts.append(
                _html_table(
                    (name, *_WIN_HEADERS),
                    [(lab, *_win_cells(w)) for lab, w in zip(labels, wins, strict=True)],
                )
            )

        # Match length.
        turns = stats.length("turns")
        fig = Figure(figsize=(7, 3), layout="constrained")
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
        chart(
            "Match length",
            fig,
            "histogram of match length in turns",
            f"Finished matches (n={turns.n}). Turns: mean {_num(turns.mean)}, median "
            f"{_num(turns.median)}. Events: mean {_num(events.mean)}, median "
            f"{_num(events.median)}.",
        )

        # Tempo curves.
        rows = stats.tempo_rows()
        fig = Figure(figsize=(7, 6), layout="constrained")
        axes = fig.subplots(3, 1, sharex=True)
        xs = [t for t, _s in rows]
        for ax, (key, label) in zip(
            axes, (("gold", "gold"), ("honor", "honor"), ("vp", "VP")), strict=True
        ):
            ax.plot(xs, [s.mean(key) or 0.0 for _t, s in rows], color="#1f5fa8")
            ax.set_ylabel(f"mean {label}")
            ax.grid(alpha=0.3)
        axes[-1].set_xlabel("turn")
        chart(
            "Tempo: mean resources at the end of each turn",
            fig,
            "tempo curves of mean gold, honor and VP by turn",
            "Each point averages the player-matches that reached the end of that turn; n by turn: "
            + ", ".join(f"{t}: {s.n}" for t, s in rows[:: max(1, len(rows) // 12)]),
        )

        # Top cards.
        cards = stats.card_rows(min_n)[:top]
        fig = Figure(figsize=(7, 0.8 + 0.32 * max(1, len(cards))), layout="constrained")
        ax = fig.subplots()
        if cards:
            shown = cards[::-1]
            ys = list(range(len(shown)))
            rates = [c.played.rate or 0.0 for _k, c in shown]
            lows = [r - c.played.interval()[0] for r, (_k, c) in zip(rates, shown, strict=True)]
            highs = [c.played.interval()[1] - r for r, (_k, c) in zip(rates, shown, strict=True)]
            ax.errorbar(rates, ys, xerr=[lows, highs], fmt="o", capsize=3, color="#1f5fa8")
            ax.set_yticks(ys, [chart_label(f"{c.name} (n={c.played.n})") for _k, c in shown])
            ax.axvline(reference, color="#999", linestyle="--", linewidth=1)
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate when played (95% CI)")
        chart(
            f"Top cards by win rate when played (n ≥ {min_n})",
            fig,
            "top cards by win rate with 95% confidence intervals",
            "Ranked by the lower end of the interval, so a high rate on little evidence does not "
            "outrank a solid one.",
        )
        parts.append(
            _html_table(
                ("card", "faction", "matches played", *_WIN_HEADERS, "in-deck n", "in-deck rate"),
                [
                    (
                        c.name,
                        c.faction or "",
                        c.matches,
                        *_win_cells(c.played),
                        c.decked.n,
                        _pct(c.decked.rate),
                    )
                    for _k, c in cards
                ],
            )
        )

    unfinished = stats.matches - stats.finished
    summary = (
        f"{stats.matches:,} matches ({stats.finished:,} finished, {unfinished:,} unfinished), "
        f"{stats.sides:,} player-matches"
    )
    when = (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    filters = stats.filters.model_dump(mode="json", exclude_none=True)
    chosen = ", ".join(f"{k} = {v}" for k, v in filters.items()) if filters else "none"
    provenance = (
        f'<p class="note">Source: {e(source or "not given")} · filters: {e(chosen)} · '
        f"generated {e(when)} by vwlog {e(version('vwlog'))}</p>"
    )
    body = (
        f"<h1>{e(title)}</h1>\n<p>{e(summary)}</p>\n{provenance}\n"
        + "\n".join(parts)
        + "\n"
        + _definitions_html()
    )
    return page(title, body, css=_CSS)


def chart_label(text: str) -> str:
    """A label for a chart: control characters made visible, and ``$`` escaped, so the chart
    library never reads a card or player name as mathtext."""
    return visible(text).replace("$", r"\$")


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:.1f}"
