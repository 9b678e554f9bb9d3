"""Mutation audit of the WoW TCG rules: single-event mutations of generated legal matches, each
of a kind the seed makes illegal whatever the board (a pass by a player without priority, a
phase or step out of order, a window opened where one closes, a draw or readying for another
player, a turn numbered wrong, a link or trigger that does not exist), must be cited at the
mutated event.

    python bench/wowtcg_audit.py [matches] [seed]

Prints the tries, how many were cited at the mutated event, later, or not at all, by kind;
exits 1 when fewer than 99 % are cited at the mutated event.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games import rules_for
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.generate import generate

GAME = rules_for("wowtcg")
BAR = 0.99
"""The share of tries that must be cited at the mutated event."""

_OTHER_PHASE: dict[str, ev.Phase] = {"START": "ACTION", "ACTION": "END", "END": "START"}
_OTHER_STEP: dict[str, ev.Step] = {
    "READY": "DRAW",
    "DRAW": "READY",
    "COMBAT": "FINAL",
    "FINAL": "COMBAT",
}


class Result(NamedTuple):
    tries: int
    at_event: int
    later: Counter[str]
    missed: Counter[str]

    @property
    def rate(self) -> float:
        return self.at_event / self.tries if self.tries else 1.0


def _other(players: tuple[str, ...], player: str) -> str:
    return next(p for p in players if p != player)


def _mutants(e: Any, players: tuple[str, ...]) -> list[tuple[str, Any]]:
    """The illegal substitutes for ``e``: (kind, event)."""
    out: list[tuple[str, Any]] = []
    player = getattr(e, "player", None)
    personal = (
        ev.PriorityPassed,
        ev.CardsReadied,
        ev.CardDrawn,
        ev.HandLimitDiscarded,
        ev.TurnStarted,
        ev.ResourcePlaced,
        ev.CombatDeclared,
    )
    if player is not None and isinstance(e, personal):
        out.append(("player", e.model_copy(update={"player": _other(players, player)})))
    if isinstance(e, ev.LinkAdded) and e.instant:
        out.append(("player", e.model_copy(update={"player": _other(players, e.player)})))
    table: dict[type, Callable[[Any], tuple[str, Any]]] = {
        ev.PhaseStarted: lambda x: ("phase", ev.PhaseStarted(phase=_OTHER_PHASE[x.phase])),
        ev.StepStarted: lambda x: ("step", ev.StepStarted(step=_OTHER_STEP[x.step])),
        ev.PriorityWindowOpened: lambda x: ("window", ev.PriorityWindowClosed()),
        ev.PriorityWindowClosed: lambda x: ("window", ev.PriorityWindowOpened()),
        ev.TurnEnded: lambda x: ("number", ev.TurnEnded(turn=x.turn + 1)),
        ev.LinkResolved: lambda x: ("link", ev.LinkResolved(link="no-such-link")),
        ev.TriggerAdded: lambda x: ("trigger", ev.TriggerAdded(trigger="no-such-trigger")),
    }
    make = table.get(type(e))
    if make is not None:
        out.append(make(e))
    if isinstance(e, ev.TurnStarted):
        out.append(("number", e.model_copy(update={"turn": e.turn + 1})))
    if isinstance(e, ev.ModifiersExpired) and e.modifiers:
        out.append(("expired", ev.ModifiersExpired(modifiers=e.modifiers[1:])))
    return out


def _cited(events: list[Any]) -> list[int | None]:
    records = [ev.WowRecord(seq=i, event=e) for i, e in enumerate(events, 1)]
    header = LogHeader(game="wowtcg", match_id="audit")
    report = replay(records, Validator(), header=header, game=GAME)
    return [v.seq for v in report.violations]


def audit(matches: int = 100, seed: int = 0, per_match: int = 8) -> Result:
    """Mutate ``per_match`` events of each of ``matches`` generated matches."""
    rng = random.Random(seed)
    tries = at_event = 0
    later: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    for m in range(matches):
        events = generate(seed * 10_000 + m)
        players = events[0].players
        spots = [
            (i, kind, bad)
            for i, e in enumerate(events[1:], 1)
            for kind, bad in _mutants(e, players)
        ]
        for i, kind, bad in rng.sample(spots, min(per_match, len(spots))):
            tries += 1
            cited = _cited([*events[:i], bad, *events[i + 1 :]])
            label = f"{kind}:{type(events[i]).__name__}"
            if cited and cited[0] == i + 1:
                at_event += 1
            elif cited:
                later[label] += 1
            else:
                missed[label] += 1
    return Result(tries, at_event, later, missed)


def main(argv: list[str]) -> int:
    matches = int(argv[1]) if len(argv) > 1 else 100
    seed = int(argv[2]) if len(argv) > 2 else 0
    r = audit(matches, seed)
    print(f"{r.tries} tries, {r.at_event} cited at the mutated event ({r.rate:.2%})")
    for label, count in r.later.most_common():
        print(f"  cited later: {label} x{count}")
    for label, count in r.missed.most_common():
        print(f"  not cited: {label} x{count}")
    return 0 if r.rate >= BAR else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
