"""WoW TCG's decisions capability (`vwlog.games.GameRules.decisions`, as
`vwlog.services.decisions.Decisions` reads it): the legal decisions where the script awaits one
(`vwlog.games.wowtcg.script.owed`: priority in a window, the hand-limit discard; Inspire as the
ready step begins, where a player may ready cards though the rules go on without him), written
in the notation (`vwlog.games.wowtcg.notation`); the rules a decision breaks (the game's judge);
the decision applied with the consequences the script then owes (the generator's `Writer`); a
line read; and a decision chosen for automatic play.

What a player may do is what the judge lets him: ``legal`` lists each decision the judge finds
no fault with, one for every choice the board shows (an attacker and a target, Inspire sources
and the cards they ready) and one for each kind of card from the hidden hand (its id is the
player's to give: ``next`` offers a new one).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board, Card
from vwlog.games.wowtcg.generate import Writer
from vwlog.games.wowtcg.judge import judge
from vwlog.games.wowtcg.notation import SYNTAX, fresh, line
from vwlog.games.wowtcg.notation import parse as parse_line
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.games.wowtcg.script import expect, owed
from vwlog.model.errors import IllegalEventError

if TYPE_CHECKING:
    import random
    from collections.abc import Iterable, Mapping

__all__ = [
    "INSPIRE_LIMIT",
    "awaits",
    "check",
    "choose",
    "legal",
    "legal_events",
    "named",
    "names",
    "parse",
    "play",
    "syntax",
    "whole",
]

INSPIRE_LIMIT = 64
"""Most Inspire decisions listed for one player (sources and cards are combined)."""
CONSEQUENCE_LIMIT = 10_000
"""Most consequences one decision may bring (a guard against a script looping)."""
RANDOM_PASSES = 0.6
"""How often the random policy passes where it may (else it draws among all its decisions)."""
RANDOM_CHAIN = 3
"""The random policy adds no link to a chain this long (as the generator), so windows close."""
_CHARACTERS = frozenset({"hero", "ally"})


def _inspiring(ruleset: WowRuleset, state: Board) -> bool:
    """Whether board ``state`` is the moment to Inspire: the ready step's cards are readied
    and a player other than the current one has an Inspire to use (`awaits`)."""
    return awaits(ruleset, state) is not None


def _before(ruleset: WowRuleset, state: Board, decision: Any) -> tuple[Board, list[Any]]:
    """The board where ``decision`` is judged, and the consequences that come before it:
    where the script owes consequences (a record that stops before them, the moment to
    Inspire), the rules act first, up to the decision the script awaits next, or to the
    moment to Inspire for an Inspire; a concession, and a decision where one is awaited, are
    judged where they are. So a decision other than an Inspire at the moment to Inspire
    declines it."""
    if isinstance(decision, ev.Conceded) or owed(ruleset, state).player is not None:
        return state, []
    inspire = isinstance(decision, ev.InspireReadied)
    w = Writer(board=state).auto(
        CONSEQUENCE_LIMIT, stop=(lambda b: _inspiring(ruleset, b)) if inspire else None
    )
    return w.board, w.events


def _judged(ruleset: WowRuleset, state: Board, decision: Any) -> tuple[Any, ...]:
    """The rules ``decision`` breaks where the board stands, as the judge of a log finds them."""
    return judge(ruleset, state, expect(ruleset, state), decision)


def check(ruleset: WowRuleset, state: Board, decision: Any) -> tuple[Any, ...]:
    """The rules ``decision`` breaks on board ``state`` (none: it is legal), as the judge of a
    log finds them, where the script awaits it (`_before`: after the consequences owed)."""
    return _judged(ruleset, _before(ruleset, state, decision)[0], decision)


def play(ruleset: WowRuleset, state: Board, decision: Any) -> tuple[Board, list[Any]]:
    """Check and apply ``decision``, then the consequences it brings, up to the next decision
    the script awaits or the next moment to Inspire. Where consequences are owed first (at the
    moment to Inspire, another decision declines it), they come before it (`_before`).

    Returns:
        The board at the next decision and the events applied.

    Raises:
        IllegalEventError: the decision breaks rules here (``after``: the consequences that
            would have come before it).
    """
    state, before = _before(ruleset, state, decision)
    violations = _judged(ruleset, state, decision)
    if violations:
        raise IllegalEventError(None, decision.type, violations, after=len(before))
    w = Writer(board=state).add(decision)
    w.auto(CONSEQUENCE_LIMIT, stop=lambda b: _inspiring(ruleset, b))
    return w.board, [*before, *w.events]


def whole(ruleset: WowRuleset, state: Board) -> bool:
    """Every WoW TCG decision is whole: none awaits a rest."""
    return True


def parse(ruleset: WowRuleset, state: Board, text: str) -> list[Any]:
    """The decision a line of the notation names on board ``state`` (one a line), or on the
    board the consequences owed first lead to (`_before`).

    Raises:
        UsageError: the line cannot be read.
    """
    decision = parse_line(state, text)
    ahead = _before(ruleset, state, decision)[0]
    # where the rules act first, the line names the player, and the new ids, of the board
    # the decision is taken on
    return [decision if ahead is state else parse_line(ahead, text)]


def syntax() -> str:
    """The notation, one verb a line."""
    return SYNTAX


def names(decisions: Iterable[str], state: Board) -> dict[str, str]:
    """WoW TCG cards are named by their ids: no names to add."""
    return {}


def named(decision: str, names: Mapping[str, str]) -> str:
    """The decision as it is (its cards are named by their ids)."""
    return decision


def _inspire_sources(ruleset: WowRuleset, s: Board, player: str) -> list[Card]:
    sources = [
        c
        for c in s.cards
        if c.controller == player
        and c.inspire is not None
        and c.kind in _CHARACTERS
        and c.id not in s.inspired
    ]
    if ruleset.inspire_source == "ALLY_ONLY":
        sources = [c for c in sources if c.kind == "ally"]
    return sources


def _inspires(ruleset: WowRuleset, s: Board, player: str) -> list[Any]:
    """``player``'s Inspire decisions as the ready step begins: every set of his unused
    sources with every set of his exhausted cards they can ready (one card a source, of the
    kind the source names), in the board's order; at most `INSPIRE_LIMIT`."""
    if s.at not in ("READY", "READIED") or player == s.current:
        return []
    sources = _inspire_sources(ruleset, s, player)
    tired = [c for c in s.cards if c.controller == player and c.exhausted]
    found: list[Any] = []
    for n in range(1, len(sources) + 1):
        for chosen in combinations(sources, n):
            for m in range(1, min(n, len(tired)) + 1):
                for cards in combinations(tired, m):
                    d = ev.InspireReadied(
                        player=player,
                        cards=tuple(c.id for c in cards),
                        sources=tuple(c.id for c in chosen),
                    )
                    if not _judged(ruleset, s, d):
                        found.append(d)
                    if len(found) >= INSPIRE_LIMIT:
                        return found
    return found


def _main_actions(ruleset: WowRuleset, s: Board, player: str) -> list[Any]:
    """The main actions: a non-instant card, a resource, combat by each ready character of
    ``player`` against each character of another player."""
    new = fresh(s)
    found: list[Any] = []
    if s.hand(player):
        found.append(ev.LinkAdded(player=player, link=new.link, card=new.card, instant=False))
        found.append(ev.ResourcePlaced(player=player, card=new.resource))
    attackers = [c for c in s.cards if c.controller == player and c.kind in _CHARACTERS]
    targets = [c for c in s.cards if c.controller != player and c.kind in _CHARACTERS]
    for a in attackers:
        if a.exhausted:
            continue
        found.extend(ev.CombatDeclared(player=player, attacker=a.id, target=t.id) for t in targets)
    return found


def _priority(ruleset: WowRuleset, s: Board, player: str) -> list[Any]:
    """Passing, an instant card from the hand, a power of each card ``player`` controls, and
    the main actions."""
    new = fresh(s)
    found: list[Any] = [ev.PriorityPassed(player=player)]
    if s.hand(player):
        found.append(ev.LinkAdded(player=player, link=new.link, card=new.card))
    found.extend(
        ev.LinkAdded(player=player, link=new.link, kind="POWER", card=c.id)
        for c in s.cards
        if c.controller == player
    )
    found.extend(_main_actions(ruleset, s, player))
    return found


def legal_events(ruleset: WowRuleset, state: Board, player: str, kind: str | None) -> list[Any]:
    """``player``'s legal decisions of ``kind`` on board ``state`` as events: ``priority``,
    ``discard`` or ``inspire`` (the kinds the script awaits, and Inspire, which it does not
    wait for); conceding, always legal, is not listed."""
    if state.winner is not None or player not in state.players:
        return []
    if kind == "inspire":
        return _inspires(ruleset, state, player)
    if kind == "discard":
        cards = fresh(state).discards
        found: list[Any] = [ev.HandLimitDiscarded(player=player, cards=cards)]
    elif kind == "priority":
        found = _priority(ruleset, state, player)
    else:
        return []
    return [d for d in found if not _judged(ruleset, state, d)]


def legal(
    ruleset: WowRuleset, state: Board, player: str, kind: str | None
) -> tuple[tuple[str, ...], int, bool]:
    """``player``'s legal decisions in the notation, how many they are, and that the count is
    exact (a card from the hand stands for every card the player may name)."""
    found = tuple(line(state, d) for d in legal_events(ruleset, state, player, kind))
    return found, len(found), True


def awaits(ruleset: WowRuleset, state: Board) -> tuple[str, str] | None:
    """Who may decide where the script awaits no decision, and of what kind: a player with an
    Inspire to use once the current player's cards are readied (``None``: nobody)."""
    if state.at != "READIED" or owed(ruleset, state).player is not None:
        return None
    for p in state.players:
        if p != state.current and _inspires(ruleset, state, p):
            return p, "inspire"
    return None


def _greedy(state: Board, options: list[Any]) -> Any:
    """Discard when due; in the own action phase place a resource, then play a non-instant
    card while the hand is above the hand size; else pass."""
    for kind in (ev.HandLimitDiscarded, ev.ResourcePlaced):
        found = next((o for o in options if isinstance(o, kind)), None)
        if found is not None:
            return found
    main = next((o for o in options if isinstance(o, ev.LinkAdded) and not o.instant), None)
    if main is not None and state.hand(main.player) > state.max_hand(main.player):
        return main
    return next((o for o in options if isinstance(o, ev.PriorityPassed)), options[0])


def choose(
    ruleset: WowRuleset, state: Board, player: str, rng: random.Random, policy: str
) -> Any | None:
    """A legal decision for ``player`` where the script awaits one, chosen by ``policy``:
    ``greedy`` (discard, a resource, a card while the hand is full, else pass; every Inspire
    offered, the most cards first) or ``random`` (a pass more often than not, and always on a
    chain of `RANDOM_CHAIN` links, so that turns move on; an Inspire half the time); ``None``
    when there is none."""
    o = owed(ruleset, state)
    kind = o.kind
    if o.player is None:
        found = awaits(ruleset, state)
        if found is None or found[0] != player:
            return None
        kind = "inspire"
    elif o.player != player:
        return None
    options = legal_events(ruleset, state, player, kind)
    if kind == "inspire" and options:
        if policy != "random":
            return max(options, key=lambda d: len(d.cards))
        if rng.random() < 0.5:
            return rng.choice(options)
        w = Writer(board=state).auto(CONSEQUENCE_LIMIT)  # declined: the next decision's
        nxt = owed(ruleset, w.board)
        if nxt.player is None:
            return None
        return choose(ruleset, w.board, nxt.player, rng, policy)
    if not options:
        return None
    if policy != "random":
        return _greedy(state, options)
    passes = [o for o in options if isinstance(o, ev.PriorityPassed)]
    if passes and (rng.random() < RANDOM_PASSES or len(state.chain) >= RANDOM_CHAIN):
        return passes[0]
    return rng.choice(options)
