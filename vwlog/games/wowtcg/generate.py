"""Writing WoW TCG match logs: a `Writer` that appends events and fills in the consequences
the turn's script owes (`Writer.auto`), and `generate`, a seeded generator of legal matches
(passes, instant responses, non-instant cards, resources, combat, triggers at a phase start,
extra and skipped turns, Inspire, the hand limit).

The records are plain dicts (``{"seq": n, "event": {...}}``); writing them to a file is the
caller's business.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.fold import evolve
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.games.wowtcg.script import owed

__all__ = ["Writer", "generate", "records"]


class Writer:
    """A match being written: the events so far and the board they fold to."""

    def __init__(self, start: ev.MatchStarted | None = None, *, board: Board | None = None) -> None:
        """A match begun by ``start``, or going on from ``board`` (its events so far not
        kept: `events` are then the ones added)."""
        if start is not None:
            board = evolve(Board(), start)
        self.board: Board = board if board is not None else Board()
        self.rs: WowRuleset = self.board.ruleset or WowRuleset()
        self.events: list[Any] = [start] if start is not None else []
        self.made = 0

    def add(self, *events: Any) -> Writer:
        """Append ``events`` as they are."""
        for e in events:
            self.events.append(e)
            self.board = evolve(self.board, e)
        return self

    def auto(self, limit: int = 64, stop: Callable[[Board], bool] | None = None) -> Writer:
        """Append the consequences owed (the first of several) until a decision is awaited
        (or the board is one ``stop`` stops at)."""
        for _ in range(limit):
            if stop is not None and stop(self.board):
                break
            o = owed(self.rs, self.board)
            if not o.consequences or self.board.at == "OVER":
                break
            self.add(o.consequences[0])
        return self

    def until(self, at: str, limit: int = 64) -> Writer:
        """`auto` one consequence at a time until the board stands at ``at``."""
        for _ in range(limit):
            if self.board.at == at:
                break
            o = owed(self.rs, self.board)
            if not o.consequences:
                break
            self.add(o.consequences[0])
        return self

    def passes(self, count: int | None = None) -> Writer:
        """The holder and the players after him pass (all of them by default)."""
        for _ in range(len(self.board.players) if count is None else count):
            self.add(ev.PriorityPassed(player=self.board.holder or self.board.current or "?"))
        return self

    def window(self) -> Writer:
        """Open the next window (with the consequences before it) and have everyone pass."""
        return self.auto().passes().auto()

    def uid(self, prefix: str) -> str:
        self.made += 1
        return f"{prefix}{self.made}"


def records(events: list[Any]) -> list[dict[str, Any]]:
    """The events as numbered records, JSON-ready."""
    return [
        {"seq": i, "event": e.model_dump(mode="json", exclude_none=True)}
        for i, e in enumerate(events, 1)
    ]


def _start(rng: random.Random, rs: WowRuleset) -> ev.MatchStarted:
    players = ("p1", "p2") if rng.random() < 0.7 else ("p1", "p2", "p3")
    cards = [ev.CardSpec(id=f"{p}-hero", controller=p, kind="hero") for p in players]
    for p in players:
        for k in range(rng.randint(0, 3)):
            inspire = "ally" if rng.random() < 0.4 else None
            cards.append(
                ev.CardSpec(
                    id=f"{p}-a{k}",
                    controller=p,
                    kind="ally",
                    exhausted=rng.random() < 0.5,
                    inspire=inspire,
                )
            )
    n = len(players)
    return ev.MatchStarted(
        players=players,
        hands=tuple(rng.randint(5, 9) for _ in range(n)),
        decks=tuple(rng.randint(2, 12) for _ in range(n)),
        cards=tuple(cards),
        ruleset=rs,
    )


def _inspire(w: Writer, rng: random.Random) -> None:
    s = w.board
    for p in s.players:
        if p == s.current or rng.random() < 0.5:
            continue
        sources = [c for c in s.cards if c.controller == p and c.inspire == "ally"]
        if w.rs.inspire_source == "ALLY_ONLY":
            sources = [c for c in sources if c.kind == "ally"]
        tired = [c.id for c in s.cards if c.controller == p and c.exhausted and c.kind == "ally"]
        count = min(len(sources), len(tired))
        if count:
            w.add(
                ev.InspireReadied(
                    player=p, cards=tuple(tired[:count]), sources=tuple(c.id for c in sources)
                )
            )


def _claims_at_start(w: Writer, rng: random.Random) -> None:
    """Triggers at the beginning of a phase, modifiers, extra and skipped turns: sometimes."""
    s = w.board
    if s.at in ("ACTION", "END") and rng.random() < 0.3:
        when: Literal["END_OF_TURN", "PHASE_START"] = "PHASE_START"
        if s.at == "END" and rng.random() < 0.5:
            when = "END_OF_TURN"
        w.add(ev.AbilityTriggered(trigger=w.uid("t"), player=s.current or "", when=when))
    if s.at == "READIED" and rng.random() < 0.2:
        w.add(
            ev.ModifierCreated(id=w.uid("m"), kind="WHEN_TURN_BEGINS", duration="UNTIL_END_OF_TURN")
        )


def _act(w: Writer, rng: random.Random) -> None:
    """One decision of the priority holder."""
    s = w.board
    holder = s.holder or ""
    main = holder == s.current and s.phase == "ACTION" and s.step != "COMBAT" and not s.chain
    roll = rng.random()
    if main and roll < 0.15 and s.resources < (w.rs.resources_per_turn or 99) and s.hand(holder):
        w.add(ev.ResourcePlaced(player=holder, card=w.uid("r")))
    elif main and roll < 0.25 and s.hand(holder):
        w.add(ev.LinkAdded(player=holder, link=w.uid("l"), card=w.uid("c"), instant=False))
    elif main and roll < 0.32 and w.rs.combat_model == "OPAQUE":
        w.add(ev.CombatDeclared(player=holder, attacker=f"{holder}-hero", target="hero"))
    elif roll < 0.42 and len(s.chain) < 3 and s.hand(holder):
        w.add(ev.LinkAdded(player=holder, link=w.uid("l"), card=w.uid("c")))
    elif roll < 0.45 and s.chain:
        _effects(w, rng)
        w.add(ev.PriorityPassed(player=holder))
    else:
        w.add(ev.PriorityPassed(player=holder))


def _effects(w: Writer, rng: random.Random) -> None:
    s = w.board
    roll = rng.random()
    if roll < 0.3:
        w.add(ev.ExtraTurnCreated(player=rng.choice(s.players), by=w.uid("x")))
    elif roll < 0.5:
        target = rng.choice(s.players)
        w.add(ev.ModifierCreated(id=w.uid("m"), kind="SKIP_NEXT_TURN", player=target))
    elif roll < 0.8:
        w.add(ev.ModifierCreated(id=w.uid("m"), duration="UNTIL_END_OF_TURN"))
    else:
        mine = [c.id for c in s.cards if not c.exhausted]
        if mine:
            w.add(ev.CardsExhausted(cards=(rng.choice(mine),)))


def _step(w: Writer, rng: random.Random) -> None:
    s = w.board
    o = owed(w.rs, s)
    if s.at in ("READY", "READIED") and not s.inspired_players and o.consequences:
        if s.at == "READIED":
            _inspire(w, rng)
            w.add(ev.PriorityWindowOpened())
            return
    if s.at in ("ACTION", "END", "READIED") and s.moments and rng.random() < 0.5:
        _claims_at_start(w, rng)
    if s.at == "FINAL" and s.turn % 3 == 0 and not s.carried and rng.random() < 0.2:
        w.add(ev.AbilityTriggered(trigger=w.uid("t"), player=s.current or "", when="OTHER"))
    o = owed(w.rs, w.board)
    if o.consequences:
        w.add(rng.choice(o.consequences))
    elif o.kind == "discard":
        over = s.hand(s.current) - s.max_hand(s.current)
        w.add(
            ev.HandLimitDiscarded(
                player=s.current or "", cards=tuple(w.uid("h") for _ in range(over))
            )
        )
    elif o.kind == "priority":
        _act(w, rng)


def generate(seed: int, turns: int = 6, ruleset: WowRuleset | None = None) -> list[Any]:
    """A legal match of about ``turns`` turns, the same for the same seed."""
    rng = random.Random(seed)
    w = Writer(_start(rng, ruleset or WowRuleset()))
    for _ in range(4000):
        if w.board.at == "BETWEEN" and w.board.turn >= turns:
            break
        if w.board.at in ("OVER", "UNJUDGED"):
            break
        _step(w, rng)
    return w.events
