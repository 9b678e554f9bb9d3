"""Single-event mutations of a legal L5R record, each of which makes it illegal, for the
mutation audit (``bench/l5r_audit.py``, ``tests/l5r/test_generate.py``): a judge must cite
each at the mutated event.

Why each kind changes legality:

- ``drop``: every event of a record is owed or decided in turn; without a decision the next
  event is someone else's opportunity or a consequence of nothing, without a consequence the
  next is not the one the rules demand. (Dropping the last event only cuts the record short,
  which is no rule's breach: it is not mutated.)
- ``player``: opportunities alternate (L5R-CMB-1, -2), so the other player's is never legal.
- ``swap`` of two neighbours of different kinds: decisions alternate and consequences come
  in the order the rules demand (L5R-RES-11); neighbours of one kind (a tie's two
  destructions or honor gains) may come in either order and are not swapped.
- ``value``: a consequence's numbers and names are computed by the rules; another Force,
  honor, battle number, turn or list of cards is wrong (a list is changed by a card it did
  not hold, or one it did held back).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vwlog.games.l5r.events import (
    ArmyDestroyed,
    AttackersSentHome,
    AttackPhaseEnded,
    AttackPhaseStarted,
    BattleActionTaken,
    BattleEnded,
    BattleStarted,
    BattleWithoutOutcome,
    DefendersSentHome,
    HonorGained,
    OpportunityPassed,
    ProvinceDestroyed,
    ResolutionEnded,
    ResolutionStarted,
)


@dataclass(frozen=True, slots=True)
class Mutation:
    """A mutated record and the seq where a judge must cite it."""

    kind: str
    seq: int
    events: list[Any]


def _other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


def _values(e: Any, units: list[str]) -> Iterator[Any]:
    """Other values for a computed consequence."""
    if isinstance(e, ResolutionStarted):
        yield e.model_copy(update={"attacker_force": e.attacker_force + 1})
        yield e.model_copy(update={"defender_force": e.defender_force + 1})
    elif isinstance(e, HonorGained):
        yield e.model_copy(update={"amount": e.amount + 1})
        yield e.model_copy(update={"cards_destroyed": e.cards_destroyed + 1})
    elif isinstance(e, BattleStarted | ResolutionEnded | BattleEnded | BattleWithoutOutcome):
        yield e.model_copy(update={"battle": e.battle + 1})
    elif isinstance(e, AttackPhaseEnded | AttackPhaseStarted):
        yield e.model_copy(update={"turn": e.turn + 1})
    elif isinstance(e, ProvinceDestroyed):
        yield e.model_copy(update={"province": e.province + "x"})
        yield e.model_copy(update={"discarded": (*e.discarded, "nothing")})
    if isinstance(e, ArmyDestroyed):
        yield e.model_copy(update={"cards": e.cards[1:]})
        yield e.model_copy(update={"side": "DEFENDER" if e.side == "ATTACKER" else "ATTACKER"})
    if isinstance(e, ArmyDestroyed | AttackersSentHome | DefendersSentHome):
        listed = e.cards if isinstance(e, ArmyDestroyed) else e.units
        extra = next((u for u in units if u not in listed), None)
        if extra is not None:
            field = "cards" if isinstance(e, ArmyDestroyed) else "units"
            yield e.model_copy(update={field: (*listed, extra)})
        if not isinstance(e, ArmyDestroyed) and len(listed) > 1:
            yield e.model_copy(update={"units": listed[1:]})


def mutations(events: list[Any], units: list[str]) -> Iterator[Mutation]:
    """Every single-event mutation of ``events`` (the start is kept), with the seq it is to be
    cited at; ``units`` are the record's unit ids."""
    n = len(events)
    for i in range(1, n):
        seq = i + 1
        e = events[i]
        if i < n - 1:
            yield Mutation("drop", seq, events[:i] + events[i + 1 :])
            nxt = events[i + 1]
            if type(nxt) is not type(e):
                yield Mutation("swap", seq, [*events[:i], nxt, e, *events[i + 2 :]])
        if isinstance(e, OpportunityPassed | BattleActionTaken):
            changed = e.model_copy(update={"player": _other(e.player)})
            yield Mutation("player", seq, [*events[:i], changed, *events[i + 1 :]])
        for changed in _values(e, units):
            yield Mutation("value", seq, [*events[:i], changed, *events[i + 1 :]])


__all__ = ["Mutation", "mutations"]
