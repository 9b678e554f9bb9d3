"""Vandaria Wars' decisions capability (`vwlog.games.GameRules.decisions`, as
`vwlog.services.decisions.Decisions` reads it): the legal decisions at a position, written in
VW's notation (`vwlog.games.vw.notation`), the names of the cards they name, and the notation's
syntax for the help of ``vwlog play``; and play mode as a rebase uses it: the rules a decision
breaks (`check`), the decision applied with the consequences it brings (`play`, with the
choices of skill results: `chooses_results`), and whether a decision is whole (`whole`: a cost
paid awaits the summon or skill it pays for); a line of the notation read (`parse`) and a
decision chosen by the generator's policies (`choose`).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from vwlog.games.vw.notation import (
    card_names,
    decision_syntax,
    format_decision,
    named_decision,
    parse_decision,
)
from vwlog.games.vw.play import play
from vwlog.games.vw.policies import Policy, PolicyName, make_policy
from vwlog.rules import check, expect, legal_decisions
from vwlog.rules.decisions import BOUNDED_KINDS, count_legal

if TYPE_CHECKING:
    import random

    from vwlog.events import AnyEvent
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

__all__ = [
    "check",
    "choose",
    "chooses_results",
    "legal",
    "named",
    "names",
    "parse",
    "play",
    "syntax",
    "whole",
]

chooses_results = True
"""``play(ruleset, state, decision, choices)`` takes the choices of the skill results that leave
their controller one (register object id -> the card ids chosen, `vwlog.games.vw.play.Choices`);
each is taken out of ``choices`` as its object results."""


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


def parse(ruleset: Ruleset, state: MatchState, text: str) -> list[AnyEvent]:
    """The decision event(s) a line of the notation names at ``state``
    (`vwlog.games.vw.notation.parse_decision`).

    Raises:
        UsageError: the line cannot be read.
    """
    return parse_decision(text, ruleset, state)


_POLICIES: weakref.WeakKeyDictionary[random.Random, tuple[str, Policy]] = (
    weakref.WeakKeyDictionary()
)
"""The policy playing with each generator: a greedy policy remembers its players' plans and
the registrations of a window between choices, so one generator keeps one policy."""


def choose(
    ruleset: Ruleset, state: MatchState, player: str, rng: random.Random, policy: str
) -> AnyEvent | None:
    """A legal decision for ``player``, chosen by the generator's policy ``policy`` (``greedy``
    or ``random``) drawing from ``rng``; ``None`` when there is none."""
    name: PolicyName = "random" if policy == "random" else "greedy"
    kept = _POLICIES.get(rng)
    if kept is None or kept[0] != name:
        kept = _POLICIES[rng] = (name, make_policy(name, rng))
    options = list(legal_decisions(ruleset, state, player))
    if not options:
        return None
    return kept[1].choose(state, player, options)
