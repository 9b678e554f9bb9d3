"""The statistics of a game other than Vandaria Wars (`vwlog.services.gamestats.GameCorpus`):
aligned text, JSON (stable keys) and CSV, for the corpus or each match (``--per-match``).

The figures are the game's own (`vwlog.games.core.Figure`); their labels are messages of the
catalogs. Whatever a log carries (a source name, a player as a figure's value) goes through
`term` in text; CSV quotes it as CSV does.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

from vwlog.io.i18n import fmt_number
from vwlog.io.i18n import gettext as _
from vwlog.render.text import counted, table, term

if TYPE_CHECKING:
    from vwlog.services.gamestats import GameCorpus

__all__ = ["game_stats_csv", "game_stats_json", "game_stats_text"]


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return fmt_number(value) if isinstance(value, int) else str(value)


def _head(c: GameCorpus) -> list[str]:
    lines = [
        _("{game}: {matches} ({legal} without a violation)").format(
            game=c.game.name, matches=counted(len(c.matches), "match", "matches"), legal=c.legal
        )
    ]
    if c.not_intact:
        lines.append(
            _("left out: {records} not intact").format(records=counted(c.not_intact, "record"))
        )
    return lines


def game_stats_text(c: GameCorpus, *, per_match: bool = False) -> str:
    """The corpus (or each match) as aligned text."""
    if per_match:
        return _per_match_text(c)
    totals = c.totals()
    rows: list[list[str]] = []
    words: list[str] = []
    for f in c.figures:
        t = totals[f.key]
        if f.kind == "word":
            said = ", ".join(
                f"{_('none') if v == 'null' else term(v)} {n}" for v, n in t["values"].items()
            )
            words.append(f"{_(f.label)}: {said}")
        elif f.kind == "ratio":
            rows.append(
                [_(f.label), _number(t["total"]) if t["total"] is not None else "-", "", ""]
            )
        elif f.kind == "most":
            rows.append([_(f.label), "", "", _number(t["most"])])
        else:
            rows.append([_(f.label), _number(t["total"]), _number(t["mean"]), _number(t["most"])])
    head = [_("figure"), _("total"), _("per match"), _("most")]
    body = table(head, rows, align="<>>>")
    return "\n".join([*_head(c), "", body, "", *words]).rstrip() + "\n"


def _per_match_text(c: GameCorpus) -> str:
    keys = list(c.figures)
    head = [_("match"), _("events"), _("violations"), *(f.key for f in keys)]
    rows = [
        [
            m.match_id or m.source,
            _number(m.events),
            _number(m.violations),
            *("-" if m.figures.get(f.key) is None else _number(m.figures[f.key]) for f in keys),
        ]
        for m in c.matches
    ]
    return "\n".join([*_head(c), "", table(head, rows)]).rstrip() + "\n"


def game_stats_data(c: GameCorpus, *, per_match: bool = False) -> dict[str, Any]:
    """The corpus (and with ``per_match`` each match) as JSON-ready data."""
    data: dict[str, Any] = {
        "game": c.game.id,
        "matches": len(c.matches),
        "legal": c.legal,
        "not_intact": c.not_intact,
        "figures": c.totals(),
        "labels": {f.key: f.label for f in c.figures},
    }
    if per_match:
        data["per_match"] = [
            {
                "source": m.source,
                "match_id": m.match_id,
                "events": m.events,
                "violations": m.violations,
                "figures": m.figures,
            }
            for m in c.matches
        ]
    return data


def game_stats_json(c: GameCorpus, *, per_match: bool = False) -> str:
    """`game_stats_data` as JSON, keys sorted."""
    return json.dumps(game_stats_data(c, per_match=per_match), indent=2, sort_keys=True) + "\n"


def game_stats_csv(c: GameCorpus, *, per_match: bool = False) -> str:
    """The corpus as rows ``game,scope,match,figure,stat,value`` (``scope``: ``corpus`` or,
    with ``per_match``, ``match``)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["game", "scope", "match", "figure", "stat", "value"])
    w.writerow([c.game.id, "corpus", "", "matches", "count", len(c.matches)])
    for key, stats in c.totals().items():
        for stat, value in stats.items():
            if stat == "values":
                for word, n in value.items():
                    w.writerow([c.game.id, "corpus", "", key, word, n])
            else:
                w.writerow([c.game.id, "corpus", "", key, stat, value])
    if per_match:
        for m in c.matches:
            name = m.match_id or m.source
            w.writerow([c.game.id, "match", name, "events", "value", m.events])
            w.writerow([c.game.id, "match", name, "violations", "value", m.violations])
            for f in c.figures:
                value = m.figures.get(f.key)
                w.writerow(
                    [c.game.id, "match", name, f.key, "value", "" if value is None else value]
                )
    return out.getvalue()
