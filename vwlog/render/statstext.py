"""Match statistics as aligned text tables, for a terminal.

Every value a record carried (a match or player id, a ruleset, a card or skill name, a deck,
a filter the user typed) goes into a line through `term`; table cells through
`vwlog.render.text.table`, which escapes each one the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.io.i18n import N_, fmt_number, fmt_percent, ngettext
from vwlog.io.i18n import gettext as _
from vwlog.projections.stats import (
    CorpusStats,
    MatchMetrics,
    WinCount,
)
from vwlog.render.statsdata import DEFAULT_MIN_N, DEFAULT_TOP, order_label
from vwlog.render.text import counted, term
from vwlog.render.text import table as text_table
from vwlog.render.trust import trusted_item

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from vwlog.projections.stats import CardRecord


def render_matches_table(matches: Iterable[MatchMetrics]) -> str:
    """Per-match metrics as text: a line per match, then a row per player."""
    blocks = []
    headers = (
        N_("player"),
        N_("seat"),
        N_("order"),
        N_("faction"),
        N_("won"),
        N_("gold prod"),
        N_("spent"),
        N_("drawn"),
        N_("played"),
        N_("disc"),
        N_("terr +/-"),
        N_("foll +/-"),
        N_("attackers"),
        N_("blocks"),
        N_("dmg F/T"),
        N_("honor"),
        N_("VP"),
    )
    for m in matches:
        if m.winner:
            ending = _("won by {winner} ({victory})").format(
                winner=term(m.winner), victory=term(m.victory)
            )
        else:
            ending = _("no winner")
        head = " · ".join(
            (
                term(m.match_id),
                term(m.format),
                term(f"{m.ruleset}@{m.ruleset_version}"),
                _("first {player}").format(player=term(m.first_player)),
                ending,
                counted(m.turns, "turn"),
                counted(m.events, "event"),
                counted(m.decisions, "decision"),
                _("register depth {depth}").format(depth=m.max_register_depth),
            )
        )
        if m.violations:
            head += " · " + counted(m.violations, "violation")
        rows = [
            (
                p.player,
                p.seat,
                p.order,
                p.faction,
                _("yes") if p.won else "",
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
        block = head + "\n" + _indent(table(headers, rows))
        if m.trusted:
            block += "\n" + _indent(
                "\n".join(
                    _("taken as logged (effects not machine-checked): {what}").format(
                        what=term(trusted_item(t))
                    )
                    for t in m.trusted
                )
            )
        blocks.append(block)
    return "\n\n".join(blocks)


# -- text --------------------------------------------------------------------------------------


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """An aligned text table: text columns left-aligned, numbers right-aligned
    (`vwlog.render.text.table`); the headers (marked with ``N_``) in the active language."""
    return text_table([_(h) if h else h for h in headers], rows)


def _indent(text: str, by: str = "  ") -> str:
    return "\n".join(by + line if line else line for line in text.splitlines())


def pct(x: float | None) -> str:
    """A rate as a percentage with one decimal (empty when unknown)."""
    return "" if x is None else fmt_percent(x)


def win_cells(w: WinCount) -> tuple[int, int, str, str]:
    """n, wins, win rate and its 95% interval, as table cells."""
    lo, hi = w.interval()
    return w.n, w.wins, pct(w.rate), f"{fmt_percent(lo)}–{fmt_percent(hi)}" if w.n else ""


WIN_HEADERS = (N_("n"), N_("wins"), N_("win rate"), N_("95% CI"))
"""The columns of a win count in every table."""


def filters_text(stats: CorpusStats) -> str:
    """The filters that chose the matches, in words (``player p1, since 2026-01-01``), or
    ``none``."""
    f = stats.filters
    chosen = [
        f"{k} {v}"
        for k, v in (
            (_("player"), f.player),
            (_("faction"), f.faction),
            (_("ruleset"), f.ruleset),
            (_("since"), f.since),
            (_("event"), f.event),
        )
        if v is not None
    ]
    return ", ".join(chosen) or _("none")


def corpus_size(stats: CorpusStats) -> dict[str, str]:
    """How big the corpus is, as the text and the page say it: ``matches`` (counted),
    ``finished``, ``unfinished`` and ``sides`` (player-matches)."""
    return {
        "matches": counted(stats.matches, "match", "matches"),
        "finished": fmt_number(stats.finished),
        "unfinished": fmt_number(stats.matches - stats.finished),
        "sides": fmt_number(stats.sides),
    }


def _head(stats: CorpusStats) -> list[str]:
    out = [
        _(
            "{matches} ({finished} finished, {unfinished} unfinished) · {sides} player-matches"
        ).format(**corpus_size(stats))
        + (
            " · "
            + _("{count} with rule violations").format(count=fmt_number(stats.with_violations))
            if stats.with_violations
            else ""
        )
    ]
    if stats.rulesets:
        out.append(
            _("rulesets: ")
            + ", ".join(f"{term(k)} ({v})" for k, v in sorted(stats.rulesets.items()))
        )
    if stats.filters.active:
        out.append(_("filters: ") + term(filters_text(stats)))
    if stats.skipped:
        out.append(
            _("skipped: ") + ", ".join(f"{v} ({term(k)})" for k, v in sorted(stats.skipped.items()))
        )
    if stats.trusted_results:
        by_skill = sorted(stats.trusted_skills.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(
            ngettext(
                "taken as logged (effects not machine-checked): {results} result in {matches}: "
                "{skills}",
                "taken as logged (effects not machine-checked): {results} results in {matches}: "
                "{skills}",
                stats.trusted_results,
            ).format(
                results=fmt_number(stats.trusted_results),
                matches=counted(stats.with_trusted, "match", "matches"),
                skills=", ".join(f"{term(k)} ({fmt_number(v)})" for k, v in by_skill),
            )
        )
    return out


def _outcome_sections(stats: CorpusStats) -> list[tuple[str, str]]:
    """Victory types, match length and the turns histogram."""
    out = [
        (
            _("Victory types"),
            table(
                (N_("victory"), N_("matches"), N_("share")),
                [(v, c, pct(s)) for v, c, s in stats.victory_distribution()],
            ),
        )
    ]
    lengths = []
    for what in (N_("turns"), N_("events")):
        s = stats.length(what)
        lengths.append((_(what), s.n, s.mean, s.median, s.min, s.max))
    out.append(
        (
            _("Match length (finished matches)"),
            table(("", N_("n"), N_("mean"), N_("median"), N_("min"), N_("max")), lengths),
        )
    )
    turns = stats.length("turns")
    if turns.buckets:
        peak = max(c for _a, _b, c in turns.buckets) or 1
        out.append(
            (
                _("Turns histogram"),
                table(
                    (N_("turns"), N_("matches"), ""),
                    [(f"{a}–{b}", c, "█" * round(30 * c / peak)) for a, b, c in turns.buckets],
                ),
            )
        )
    return out


def _win_sections(stats: CorpusStats) -> list[tuple[str, str]]:
    """Win rates by seat, turn order and faction."""
    return [
        (
            _("Win rate by seat (finished matches)"),
            table(
                (N_("seat"), *WIN_HEADERS),
                [(k, *win_cells(w)) for k, w in sorted(stats.seats.items())],
            ),
        ),
        (
            _("Win rate by turn order"),
            table(
                (N_("player"), *WIN_HEADERS),
                [(_(order_label(k)), *win_cells(w)) for k, w in sorted(stats.turn_order.items())],
            ),
        ),
        (
            _("Win rate by faction"),
            table(
                (N_("faction"), *WIN_HEADERS),
                [(k, *win_cells(w)) for k, w in sorted(stats.factions.items())],
            ),
        ),
        (
            _("Win rate by matchup (deck faction against the opponent's)"),
            matchup_table(stats),
        ),
    ]


def matchup_table(stats: CorpusStats) -> str:
    """The faction-against-faction win rates as text (mirror matchups left out)."""
    rows = stats.matchup_rows(mirrors=False)
    if not rows:
        return _("(none)")
    return table(
        (N_("faction"), N_("against"), *WIN_HEADERS),
        [(name, opponent, *win_cells(w)) for name, opponent, w in rows],
    )


def _deck_and_card_sections(stats: CorpusStats, min_n: int, top: int) -> list[tuple[str, str]]:
    """The decks seen at least ``min_n`` times and the top cards, by win rate."""
    decks = sorted(stats.decks.items(), key=lambda kv: (-kv[1].n, kv[0]))
    repeated = [(k, d) for k, d in decks if d.n >= min_n][:top]
    cards = stats.card_rows(min_n)[:top]
    return [
        (
            _("Decks with n ≥ {min_n} ({count} distinct decks)").format(
                min_n=min_n, count=fmt_number(len(stats.decks))
            ),
            table(
                (N_("deck"), N_("faction"), N_("size"), *WIN_HEADERS),
                [(k, d.faction, d.size, *win_cells(d)) for k, d in repeated],
            )
            if repeated
            else no_deck_text(stats, min_n),
        ),
        (
            _("Deck archetypes with n ≥ {min_n} (the deck's two most common factions)").format(
                min_n=min_n
            ),
            table(
                (N_("archetype"), *WIN_HEADERS),
                [(k, *win_cells(w)) for k, w in stats.archetype_rows(min_n)[:top]],
            )
            if stats.archetype_rows(min_n)
            else _("(none)"),
        ),
        (
            _(
                "Top cards by win rate when played (n ≥ {min_n}, ranked by the interval's "
                "lower end)"
            ).format(min_n=min_n),
            table(CARD_HEADERS, [card_cells(c) for _k, c in cards]) if cards else _("(none)"),
        ),
    ]


def no_deck_text(stats: CorpusStats, min_n: int) -> str:
    """Why no deck is ranked: none was seen, or none was played ``min_n`` times (as in a
    generated corpus, whose random decks never repeat)."""
    if not stats.decks:
        return _("(none)")
    most = max(d.n for d in stats.decks.values())
    return _(
        "(none: decks are told apart by their exact cards, and none was in {min_n} finished "
        "matches, the most played in {n}; the archetypes below group decks by faction)"
    ).format(min_n=min_n, n=most)


CARD_HEADERS = (
    N_("card"),
    N_("faction"),
    N_("matches played"),
    *WIN_HEADERS,
    N_("in-deck n"),
    N_("in-deck rate"),
)
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


def _play_sections(stats: CorpusStats, min_n: int) -> list[tuple[str, str]]:
    """Supply choices and tempo (the turns at least ``min_n`` sides reached)."""
    out = []
    if stats.supply:
        total = sum(stats.supply.values())
        out.append(
            (
                _("Supply choices"),
                table(
                    (N_("package"), N_("choices"), N_("share")),
                    [(k, v, pct(v / total)) for k, v in sorted(stats.supply.items())],
                ),
            )
        )
    rows = stats.tempo_rows(min_n)
    body = table(
        (N_("turn"), N_("n"), N_("gold"), N_("honor"), N_("VP")),
        [(t, s.n, s.mean("gold"), s.mean("honor"), s.mean("vp")) for t, s in rows],
    )
    cut = tempo_cut_text(stats, min_n)
    out.append(
        (
            _("Tempo: mean at the end of each turn"),
            body + ("\n" + cut if cut else ""),
        )
    )
    return out


def tempo_cut_text(stats: CorpusStats, min_n: int) -> str:
    """The sentence that says which turns the tempo table and chart leave out, or ``""``."""
    cut = stats.tempo_cut(min_n)
    if cut is None:
        return ""
    first, last, most = cut
    turns = str(first) if first == last else f"{first}–{last}"
    return _(
        "turns {turns} left out: fewer than {min_n} player-matches reached them (at most {n})"
    ).format(turns=turns, min_n=min_n, n=most)


def render_table(stats: CorpusStats, *, min_n: int = DEFAULT_MIN_N, top: int = DEFAULT_TOP) -> str:
    """The corpus statistics as aligned text sections."""
    out = _head(stats)
    sections = [
        *_outcome_sections(stats),
        *_win_sections(stats),
        *_deck_and_card_sections(stats, min_n, top),
        *_play_sections(stats, min_n),
    ]
    for title, body in sections:
        out += ["", title, _indent(body)]
    return "\n".join(out)


__all__ = [
    "CARD_HEADERS",
    "WIN_HEADERS",
    "card_cells",
    "corpus_size",
    "filters_text",
    "matchup_table",
    "no_deck_text",
    "pct",
    "render_matches_table",
    "render_table",
    "tempo_cut_text",
    "win_cells",
]
