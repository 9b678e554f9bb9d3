"""Single-event mutations of a legal miniatures record, each of which makes it illegal, for
the mutation audit (``bench/minis_audit.py``, ``tests/minis/test_generate.py``): the judge must
cite each at the mutated event.

Why each kind changes legality:

- ``drop``: a consequence the rules demand (a round's, turn's or phase's start, the Upkeep's
  AP, the End Phase's discarding and swapping, a turn's or round's end) or a step of an
  Activation Sequence (the activation, the Movement, a Reaction Step's declarations, the
  Action) is owed where it stood; without it the next event is not what the rules await.
  Decisions that may be left out (a declaration, a Crouched change, a roll, an order, a stop)
  are not dropped, nor the record's last event.
- ``player``: every decision and roll is one player's (the Active Player's, a Reactive
  player's or a model's controller's), so the other player's is never legal.
- ``swap`` of two neighbours whose order the rules fix (activation before Movement, Movement
  before Reactions, Reactions before the Action, the AP discarded before the Roles swap).
- ``value``: the Upkeep's AP are each model's Stamina, a turn's Active Player is the rules',
  a phase is the next in order, a roll shows as many results as dice, a Reaction is a Normal
  Action.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vwlog.games.minis import events as ev

OWED = (
    ev.RoundStarted,
    ev.TurnStarted,
    ev.PhaseStarted,
    ev.ApAllotted,
    ev.ApDiscarded,
    ev.RolesSwapped,
    ev.TurnEnded,
    ev.RoundEnded,
    ev.ModelActivated,
    ev.MovementDeclared,
    ev.ReactionsDeclared,
    ev.ActionDeclared,
    ev.SequenceEnded,
)
"""The events a record cannot leave out where they stand."""
ORDERED = {
    (ev.ModelActivated, ev.MovementDeclared),
    (ev.MovementDeclared, ev.ReactionsDeclared),
    (ev.ReactionsDeclared, ev.ActionDeclared),
    (ev.ApDiscarded, ev.RolesSwapped),
}
"""Neighbours the rules order."""
NEXT_PHASE = {"STRATEGIC": "TACTICAL", "UPKEEP": "END", "TACTICAL": "UPKEEP", "END": "STRATEGIC"}


@dataclass(frozen=True, slots=True)
class Mutation:
    """A mutated record and the seq where a judge must cite it."""

    kind: str
    seq: int
    events: list[Any]


def _other(player: str, players: tuple[str, ...]) -> str:
    return players[(players.index(player) + 1) % len(players)] if player in players else players[0]


def _value(e: Any, players: tuple[str, ...]) -> Any | None:
    if isinstance(e, ev.ApAllotted) and e.allotments:
        more = e.allotments[0].model_copy(update={"ap": e.allotments[0].ap + 1})
        return e.model_copy(update={"allotments": (more, *e.allotments[1:])})
    if isinstance(e, ev.TurnStarted):
        active = _other(e.active, players)
        return e.model_copy(
            update={"active": active, "reactive": tuple(p for p in players if p != active)}
        )
    if isinstance(e, ev.PhaseStarted):
        return e.model_copy(update={"phase": NEXT_PHASE[e.phase]})
    if isinstance(e, ev.Roll):
        return e.model_copy(update={"results": (*e.results, 1)})
    if isinstance(e, ev.ReactionsDeclared) and e.reactions:
        special = e.reactions[0].model_copy(update={"kind": "SPECIAL"})
        return e.model_copy(update={"reactions": (special, *e.reactions[1:])})
    return None


def mutations(events: list[Any]) -> Iterator[Mutation]:
    """Every single-event mutation of ``events`` (a legal record) that makes it illegal."""
    players = tuple(events[0].players)
    for i, e in enumerate(events[1:-1], 1):
        seq = i + 1
        if isinstance(e, OWED):
            yield Mutation("drop", seq, [*events[:i], *events[i + 1 :]])
        player = getattr(e, "player", None)
        if player is not None:
            swapped = e.model_copy(update={"player": _other(player, players)})
            yield Mutation("player", seq, [*events[:i], swapped, *events[i + 1 :]])
        nxt = events[i + 1]
        if (type(e), type(nxt)) in ORDERED:
            yield Mutation("swap", seq, [*events[:i], nxt, e, *events[i + 2 :]])
        changed = _value(e, players)
        if changed is not None:
            yield Mutation("value", seq, [*events[:i], changed, *events[i + 1 :]])


__all__ = ["Mutation", "mutations"]
