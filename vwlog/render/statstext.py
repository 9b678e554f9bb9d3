"""Match statistics as aligned text tables, for a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.projections.stats import (
    CorpusStats,
    MatchMetrics,
    WinCount,
)
from vwlog.render.statsdata import DEFAULT_MIN_N, DEFAULT_TOP, order_label
from vwlog.render.text import table as text_table

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.projections.stats import CardRecord


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


def _indent(text: str, by: str = "  ") -> str:
    return "\n".join(by + line if line else line for line in text.splitlines())


def pct(x: float | None) -> str:
    """A rate as a percentage with one decimal (empty when unknown)."""
    return "" if x is None else f"{x:.1%}"


def win_cells(w: WinCount) -> tuple[int, int, str, str]:
    """n, wins, win rate and its 95% interval, as table cells."""
    lo, hi = w.interval()
    return w.n, w.wins, pct(w.rate), f"{lo:.1%}–{hi:.1%}" if w.n else ""


WIN_HEADERS = ("n", "wins", "win rate", "95% CI")
"""The columns of a win count in every table."""


def filters_text(stats: CorpusStats) -> str:
    """The filters that chose the matches, in words (``player p1, since 2026-01-01``), or
    ``none``."""
    f = stats.filters
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
    return ", ".join(chosen) or "none"


def _head(stats: CorpusStats) -> list[str]:
    unfinished = stats.matches - stats.finished
    out = [
        f"{stats.matches:,} matches ({stats.finished:,} finished, {unfinished:,} unfinished) · "
        f"{stats.sides:,} player-matches"
        + (f" · {stats.with_violations:,} with rule violations" if stats.with_violations else "")
    ]
    if stats.rulesets:
        out.append(
            "rulesets: " + ", ".join(f"{k} ({v})" for k, v in sorted(stats.rulesets.items()))
        )
    if stats.filters.active:
        out.append("filters: " + filters_text(stats))
    if stats.skipped:
        out.append("skipped: " + ", ".join(f"{v} ({k})" for k, v in sorted(stats.skipped.items())))
    return out


def _outcome_sections(stats: CorpusStats) -> list[tuple[str, str]]:
    """Victory types, match length and the turns histogram."""
    out = [
        (
            "Victory types",
            table(
                ("victory", "matches", "share"),
                [(v, c, pct(s)) for v, c, s in stats.victory_distribution()],
            ),
        )
    ]
    lengths = []
    for what in ("turns", "events"):
        s = stats.length(what)
        lengths.append((what, s.n, s.mean, s.median, s.min, s.max))
    out.append(
        (
            "Match length (finished matches)",
            table(("", "n", "mean", "median", "min", "max"), lengths),
        )
    )
    turns = stats.length("turns")
    if turns.buckets:
        peak = max(c for _a, _b, c in turns.buckets) or 1
        out.append(
            (
                "Turns histogram",
                table(
                    ("turns", "matches", ""),
                    [(f"{a}–{b}", c, "█" * round(30 * c / peak)) for a, b, c in turns.buckets],
                ),
            )
        )
    return out


def _win_sections(stats: CorpusStats) -> list[tuple[str, str]]:
    """Win rates by seat, turn order and faction."""
    return [
        (
            "Win rate by seat (finished matches)",
            table(
                ("seat", *WIN_HEADERS),
                [(k, *win_cells(w)) for k, w in sorted(stats.seats.items())],
            ),
        ),
        (
            "Win rate by turn order",
            table(
                ("player", *WIN_HEADERS),
                [(order_label(k), *win_cells(w)) for k, w in sorted(stats.turn_order.items())],
            ),
        ),
        (
            "Win rate by faction",
            table(
                ("faction", *WIN_HEADERS),
                [(k, *win_cells(w)) for k, w in sorted(stats.factions.items())],
            ),
        ),
    ]


def _deck_and_card_sections(stats: CorpusStats, min_n: int, top: int) -> list[tuple[str, str]]:
    """The decks seen at least ``min_n`` times and the top cards, by win rate."""
    decks = sorted(stats.decks.items(), key=lambda kv: (-kv[1].n, kv[0]))
    repeated = [(k, d) for k, d in decks if d.n >= min_n][:top]
    cards = stats.card_rows(min_n)[:top]
    return [
        (
            f"Decks with n ≥ {min_n} ({len(stats.decks):,} distinct decks)",
            table(
                ("deck", "faction", "size", *WIN_HEADERS),
                [(k, d.faction, d.size, *win_cells(d)) for k, d in repeated],
            )
            if repeated
            else "(none)",
        ),
        (
            f"Top cards by win rate when played (n ≥ {min_n}, ranked by the interval's lower end)",
            table(CARD_HEADERS, [card_cells(c) for _k, c in cards]) if cards else "(none)",
        ),
    ]


CARD_HEADERS = ("card", "faction", "matches played", *WIN_HEADERS, "in-deck n", "in-deck rate")
"""The columns of a card's row in the text and HTML tables."""


def card_cells(c: CardRecord) -> tuple[object, ...]:
    """A card's row: name, faction, matches played, its win count, how often it was decked."""
    return (
        c.name,
        c.faction or "",
        c.matches,
        *win_cells(c.played),
        c.decked.n,
        pct(c.decked.rate),
    )


def _play_sections(stats: CorpusStats) -> list[tuple[str, str]]:
    """Supply choices and tempo."""
    out = []
    if stats.supply:
        total = sum(stats.supply.values())
        out.append(
            (
                "Supply choices",
                table(
                    ("package", "choices", "share"),
                    [(k, v, pct(v / total)) for k, v in sorted(stats.supply.items())],
                ),
            )
        )
    out.append(
        (
            "Tempo: mean at the end of each turn",
            table(
                ("turn", "n", "gold", "honor", "VP"),
                [
                    (t, s.n, s.mean("gold"), s.mean("honor"), s.mean("vp"))
                    for t, s in stats.tempo_rows()
                ],
            ),
        )
    )
    return out


def render_table(stats: CorpusStats, *, min_n: int = DEFAULT_MIN_N, top: int = DEFAULT_TOP) -> str:
    """The corpus statistics as aligned text sections."""
    out = _head(stats)
    sections = [
        *_outcome_sections(stats),
        *_win_sections(stats),
        *_deck_and_card_sections(stats, min_n, top),
        *_play_sections(stats),
    ]
    for title, body in sections:
        out += ["", title, _indent(body)]
    return "\n".join(out)


__all__ = [
    "CARD_HEADERS",
    "WIN_HEADERS",
    "card_cells",
    "filters_text",
    "pct",
    "render_matches_table",
    "render_table",
    "win_cells",
]
