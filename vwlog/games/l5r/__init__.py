"""Legend of the Five Rings (battle resolution) as the core sees it: its `GameRules`, ``GAME``.

The third game of vwlog, from one page of a Croatian guide ("Vođenje bitke", seed
``001_b10cf56d30126b73``): an Attack phase's battles, each a Combat segment where the players
alternate opportunities (the defender first; two passes in a row end it) and a Resolution the
rules compute (each army's Force, who wins, what is destroyed, whether the Province falls, the
honor gained, who goes Home). No stack, no priority: the fork points are the opportunities.

Modules: `events` (the log's records), `ruleset` (the open questions as flags), `state` (the
board and its fold), `resolution` (the computed outcome), `expect`, `judge` and
`consequences` (the verdicts), `catalog` (every rule with its Croatian original), `decisions`
and `notation` (the legal decisions at each position, play mode and its notation).
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import TypeAdapter

from vwlog.events.core import MatchSealed, RecordSigned
from vwlog.games import GameRules, MatchSummary
from vwlog.games.common import loader, rule_entries, ruleset_label
from vwlog.games.l5r import stats as _stats
from vwlog.games.l5r.catalog import CATALOG, NOTES, TITLES
from vwlog.games.l5r.consequences import violation
from vwlog.games.l5r.events import DECISION_TYPES, EVENT_TYPES, L5rRecord, L5rStarted
from vwlog.games.l5r.expect import expect, owed
from vwlog.games.l5r.judge import catch_up, judge
from vwlog.games.l5r.ruleset import DEFAULT_RULESET
from vwlog.games.l5r.state import Board, evolve
from vwlog.model.violation import Violation


def fold(s: Board, e: Any, found: tuple[Violation, ...]) -> tuple[Board, tuple[Violation, ...]]:
    """The board after ``e`` (as played) and ``found``; never raises."""
    return evolve(s, e), found


def locate(found: Violation, s: Board) -> Violation:
    """``found`` with the turn and where in the Attack phase it happened."""
    b = s.battle
    return found.located(
        turn=s.turn or None,
        phase="ATTACK" if s.in_phase else None,
        step=b.segment if b is not None else None,
        priority=b.to_act if b is not None and b.segment == "COMBAT" and b.to_act else None,
    )


def summary(s: Board) -> MatchSummary:
    """How the match stands (the fragment has no victory: L5R-AS-7)."""
    rs = s.ruleset
    return MatchSummary(s.started, s.players, s.turn, None, None, ruleset_label(rs) if rs else None)


def note(report: Any, step: Any) -> None:
    """What a validation report keeps of the match start: the players and the ruleset."""
    event = step.event
    if isinstance(event, L5rStarted):
        report.players = tuple(event.players)
        report.ruleset = ruleset_label(event.ruleset)


GAME: Final = GameRules(
    id="l5r",
    name="Legend of the Five Rings (battles)",
    record=TypeAdapter(L5rRecord),
    event_types=EVENT_TYPES,
    decision_types=DECISION_TYPES,
    trailer_types=frozenset({MatchSealed, RecordSigned}),
    start_type=L5rStarted,
    fork_kinds=frozenset({"opportunity"}),
    initial=Board(),
    default_ruleset=DEFAULT_RULESET,
    expect=expect,
    judge=judge,
    fold=fold,
    locate=locate,
    summary=summary,
    owed=owed,
    catch_up=catch_up,
    note=note,
    noted_types=frozenset({L5rStarted}),
    catalog=TITLES,
    entries=rule_entries(CATALOG, NOTES),
    violation=violation,
    views=loader("vwlog.games.l5r.views"),
    decisions=loader("vwlog.games.l5r.decisions"),
    extras={"catalog": CATALOG, "notes": NOTES},
    audits=True,
    stats=lambda: _stats,
)
"""L5R's rules, as the core calls them."""

__all__ = ["GAME", "fold", "locate", "note", "summary"]
