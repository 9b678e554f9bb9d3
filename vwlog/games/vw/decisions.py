"""Vandaria Wars' decisions capability (`vwlog.games.GameRules.decisions`, as
`vwlog.services.decisions.Decisions` reads it): the legal decisions at a position, written in
VW's notation (`vwlog.games.vw.notation`), the names of the cards they name, and the notation's
syntax for the help of ``vwlog play``; and play mode as a rebase uses it: the rules a decision
breaks (`check`), the decision applied with the consequences it brings (`play`), and whether a
decision is whole (`whole`: a cost paid awaits the summon or skill it pays for).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.games.vw.notation import card_names, decision_syntax, format_decision, named_decision
from vwlog.games.vw.play import play
from vwlog.rules import check, expect, legal_decisions
from vwlog.rules.decisions import BOUNDED_KINDS, count_legal

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

__all__ = ["check", "legal", "named", "names", "play", "syntax", "whole"]


def legal(
    ruleset: Ruleset, state: MatchState, player: str, kind: str | None
) -> tuple[tuple[str, ...], int, bool]:
    """``player``'s legal decisions at ``state``, in the notation; how many are legal; and
    whether that count is exact. A combinatorial choice (`vwlog.rules.decisions.BOUNDED_KINDS`)
    lists a bounded family, counted apart (a lower bound where the space is too large)."""
    decisions = tuple(
        format_decision(d, ruleset, state) for d in legal_decisions(ruleset, state, player)
    )
    total, exact = len(decisions), True
    if kind in BOUNDED_KINDS:
        total, exact = count_legal(ruleset, state, player)
        total = max(total, len(decisions))
    return decisions, total, exact


names = card_names
"""``names(decisions, state)``: the name of every card the decisions name, by id."""

named = named_decision
"""``named(decision, names)``: a decision followed by the names of the cards it names."""

syntax = decision_syntax
"""``syntax()``: the notation, one verb a line, for ``vwlog play --help``."""


def whole(ruleset: Ruleset, state: MatchState) -> bool:
    """Whether the decisions played so far are whole at ``state``: the match is won, or no
    registration awaits the summon or skill a cost was paid for."""
    return state.over or expect(ruleset, state).kind != "registration"
