"""Match statistics as data: the corpus report (JSON), its CSV rows, and per-match rows.

The numbers come from `vwlog.projections.stats`; this module only lays them out. Every win
rate is given with its sample size and its Wilson 95 % interval, never as a bare percentage.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from vwlog.io.i18n import N_
from vwlog.model.types import SupplyOption
from vwlog.projections.stats import (
    PLAYER_COUNTS,
    CorpusStats,
    MatchMetrics,
    TurnPoint,
    WinCount,
)
from vwlog.render.json import dumps

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

DEFAULT_MIN_N = 10
"""Fewest finished player-matches a card or deck needs to be listed among the top ones."""
DEFAULT_TOP = 20
"""How many cards (and decks) the table and the page list."""

_ORDINALS = {
    1: N_("first"),
    2: N_("second"),
    3: N_("third"),
    4: N_("fourth"),
    5: N_("fifth"),
    6: N_("sixth"),
}


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


def _win_rates(stats: CorpusStats) -> dict[str, Any]:
    """Win counts by seat, turn order, faction and deck, each with n and its interval."""
    return {
        "by_seat": [{"seat": k, **win_dict(w)} for k, w in sorted(stats.seats.items())],
        "by_turn_order": [
            {"position": k, "label": order_label(k), **win_dict(w)}
            for k, w in sorted(stats.turn_order.items())
        ],
        "by_faction": [{"faction": k, **win_dict(w)} for k, w in sorted(stats.factions.items())],
        "by_archetype": [
            {"archetype": k, **win_dict(w)} for k, w in sorted(stats.archetypes.items())
        ],
        "by_matchup": [
            {"faction": name, "opponent": opponent, **win_dict(w)}
            for name, opponent, w in stats.matchup_rows()
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
    }


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
            "with_trusted": stats.with_trusted,
            "trusted_results": stats.trusted_results,
            "trusted_skills": dict(sorted(stats.trusted_skills.items())),
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
            "event": f.event,
        },
        "min_n": min_n,
        "victory_types": [
            {"victory": v, "matches": c, "share": _r(share)}
            for v, c, share in stats.victory_distribution()
        ],
        "length": length,
        "win_rate": _win_rates(stats),
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
    return dumps(report(stats, min_n=min_n))


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
    for w in rates["by_archetype"]:
        win("win_rate_by_archetype", w["archetype"], w)
    for w in rates["by_matchup"]:
        win("win_rate_by_matchup", f"{w['faction']} vs {w['opponent']}", w)
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

_GOLD_COUNTS = tuple(name for name in PLAYER_COUNTS if name.startswith("gold_"))
_OTHER_COUNTS = tuple(name for name in PLAYER_COUNTS if not name.startswith("gold_"))

PLAYER_COLUMNS = (
    "player",
    "seat",
    "order",
    "team",
    "won",
    "deck_id",
    "faction",
    "deck_size",
    *_GOLD_COUNTS,
    *(f"supply_{option}" for option in SupplyOption),
    "final_gold",
    "final_honor",
    "final_vp",
    "cards_drawn",
    *_OTHER_COUNTS,
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
    return dumps([m.model_dump(mode="json") for m in matches])


__all__ = [
    "CSV_COLUMNS",
    "DEFAULT_MIN_N",
    "DEFAULT_TOP",
    "MATCH_COLUMNS",
    "PLAYER_COLUMNS",
    "SCOPE_COLUMNS",
    "TURN_FIELDS",
    "csv_rows",
    "match_rows",
    "order_label",
    "render_csv",
    "render_json",
    "render_matches_csv",
    "render_matches_json",
    "report",
    "win_dict",
]
