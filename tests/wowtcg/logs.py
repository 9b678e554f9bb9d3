"""Building WoW TCG logs for the tests and judging them through the real replay loop."""

from __future__ import annotations

from typing import Any

from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games import rules_for
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.generate import Writer
from vwlog.games.wowtcg.ruleset import WowRuleset

GAME = rules_for("wowtcg")
"""The game as the registry loads it (the validation report finds a board's game there)."""

HERO1 = ev.CardSpec(id="h1", controller="p1", kind="hero")
HERO2 = ev.CardSpec(id="h2", controller="p2", kind="hero")


def writer(
    *,
    players: tuple[str, ...] = ("p1", "p2"),
    hands: tuple[int, ...] | None = None,
    decks: tuple[int, ...] | None = None,
    cards: tuple[ev.CardSpec, ...] = (HERO1, HERO2),
    **flags: Any,
) -> Writer:
    """A match begun: two players by default, seven cards in hand, twenty in the deck."""
    n = len(players)
    return Writer(
        ev.MatchStarted(
            players=players,
            hands=hands or (7,) * n,
            decks=decks or (20,) * n,
            cards=cards,
            ruleset=WowRuleset(**flags),
        )
    )


def to_action(w: Writer) -> Writer:
    """From before a turn (or inside its start phase) to its action window, everyone passing."""
    for _ in range(6):
        w.auto()
        if w.board.phase == "ACTION" and w.board.at == "WINDOW":
            return w
        w.passes()
    raise AssertionError(f"no action window: at {w.board.at}")


def to_end(w: Writer) -> Writer:
    """From the action window to the end phase's window."""
    return w.passes().auto()


def end_turn(w: Writer) -> Writer:
    """From the end window to the next turn's first decision (or the next turn's start)."""
    return w.passes().until("BETWEEN")


def judged(events: list[Any]) -> list[tuple[str, int | None, str | None]]:
    """The violations of ``events``, judged by the replay loop: (rule, seq, flag)."""
    records = [ev.WowRecord(seq=i, event=e) for i, e in enumerate(events, 1)]
    header = LogHeader(game="wowtcg", match_id="test")
    report = replay(records, Validator(), header=header, game=GAME)
    return [(v.rule, v.seq, v.flag) for v in report.violations]


def seq(w: Writer) -> int:
    """The seq of the last event written."""
    return len(w.events)
