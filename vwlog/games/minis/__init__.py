"""A miniatures skirmish game's activation sequence as the core sees it: its `GameRules`,
``GAME``.

The fourth game of vwlog, from one Russian page ("Последовательность игры", seed
``004_042cd27321a5beb8``) of a game it does not name: rounds of one turn per player, the
Active and Reactive Roles, the four phases of a turn, the five steps of an Activation Sequence,
Reactions and Attacks of Opportunity, and the order of rolls in the Resolution Step. Procedure
only: ordering, roles, phases, Activation Point accounting and Reactions are judged; geometry
(line of sight, Reach, approaching) is a claim the log makes (``geometry=CLAIMED``) and rolls
are chance events recorded with their outcome (``dice=LOGGED``, `vwlog.events.base.Chance`).

Modules: `events` (the log's records), `ruleset` (the open questions as flags), `state` (the
board and its fold), `expect`, `judge` and `checks` (the verdicts), `catalog` (every rule with
its Russian original), `views` (sentences and the turn-order board), `generate` (seeded legal
records), `decisions` (the legal decisions at each position and the notation) and `mutate`
(single-event mutations for the audit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from pydantic import TypeAdapter

from vwlog.events.core import MatchSealed, RecordSigned
from vwlog.games import GameRules, MatchSummary
from vwlog.games.common import loader, rule_entries, ruleset_label
from vwlog.games.minis import events as ev
from vwlog.games.minis import stats as _stats
from vwlog.games.minis.catalog import CATALOG, NOTES, TITLES
from vwlog.games.minis.checks import violation
from vwlog.games.minis.expect import expect, owed
from vwlog.games.minis.judge import FORK_KINDS, judge
from vwlog.games.minis.ruleset import DEFAULT_RULESET
from vwlog.games.minis.state import Board, evolve
from vwlog.model.violation import Violation


def fold(s: Board, e: Any, found: tuple[Violation, ...]) -> tuple[Board, tuple[Violation, ...]]:
    """The board after ``e`` (as played) and ``found``; never raises."""
    return evolve(s, e), found


def locate(found: Violation, s: Board) -> Violation:
    """``found`` with the turn (counted over the match), the phase and the Activation
    Sequence's step (``MOVEMENT``, ``REACTION``, ``ACTION``, ``RESOLUTION``)."""
    return found.located(turn=s.turns or None, phase=s.phase, step=s.step)


def summary(s: Board) -> MatchSummary:
    """How the match stands (the winner as the organiser recorded it, MIN-OQ-15)."""
    rs = s.ruleset
    label = ruleset_label(rs) if rs else None
    return MatchSummary(
        s.started, s.players, s.turns, s.winner, "recorded" if s.winner else None, label
    )


@dataclass(frozen=True, slots=True)
class ClaimTrusted:
    """A geometric claim the log makes, taken as logged: the report lists it among the
    results not machine-checked (``card`` is the model, ``skill`` the claim and its rule)."""

    seq: int
    card: str | None
    skill: str | None
    effects: int = 1
    line: int | None = None


def _claims(e: Any) -> list[tuple[str, str]]:
    """The geometric claims ``e`` makes: (model, what and the rule)."""
    if isinstance(e, ev.ReactionsDeclared):
        return [(r.model, "line of sight (MIN-REA-3)") for r in e.reactions if not r.by_awareness]
    if isinstance(e, ev.AoOChecked):
        return [
            (e.model, "within Reach (MIN-REA-4)" if e.within_reach else "out of Reach (MIN-REA-4)")
        ]
    if isinstance(e, ev.AoODeclared) and e.ranged and e.approaching is not None:
        return [(e.model, "approaching (MIN-REA-6)")]
    if isinstance(e, ev.ReactionChanged):
        return [(e.model, f"line of sight, enemy {e.enemy_state.lower()} (MIN-REA-7)")]
    return []


def note(report: Any, step: Any) -> None:
    """What a validation report keeps: the players and the ruleset at the start; each
    geometric claim, as a result taken as logged (``geometry=CLAIMED``)."""
    event = step.event
    if isinstance(event, ev.MinisStarted):
        report.players = tuple(event.players)
        report.ruleset = ruleset_label(event.ruleset)
        return
    for model, what in _claims(event):
        report.effects_trusted += 1
        report.objects_trusted += 1
        report.trusted.append(ClaimTrusted(step.record.seq, model, what, 1, step.line))


GAME: Final = GameRules(
    id="minis",
    name="Miniatures (activation sequence)",
    record=TypeAdapter(ev.MinisRecord),
    event_types=ev.EVENT_TYPES,
    decision_types=ev.DECISION_TYPES,
    trailer_types=frozenset({MatchSealed, RecordSigned}),
    start_type=ev.MinisStarted,
    fork_kinds=FORK_KINDS,
    fork_words="between Activation Sequences",
    initial=Board(),
    default_ruleset=DEFAULT_RULESET,
    expect=expect,
    judge=judge,
    fold=fold,
    locate=locate,
    summary=summary,
    owed=owed,
    complete=lambda s: s.over,
    note=note,
    noted_types=frozenset(
        {ev.MinisStarted, ev.ReactionsDeclared, ev.AoOChecked, ev.AoODeclared, ev.ReactionChanged}
    ),
    catalog=TITLES,
    entries=rule_entries(CATALOG, NOTES),
    violation=violation,
    views=loader("vwlog.games.minis.views"),
    decisions=loader("vwlog.games.minis.decisions"),
    extras={"catalog": CATALOG, "notes": NOTES},
    audits=True,
    stats=lambda: _stats,
)
"""The miniatures game's rules, as the core calls them."""

__all__ = ["GAME", "ClaimTrusted", "fold", "locate", "note", "summary"]
