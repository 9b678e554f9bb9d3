"""What differs on the board between two records from a common board on: each card whose path
differs (zone, damage, slide state, with the seq of each move), the players' resources, the
position in the turn, the register and the result.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from vwlog.audit.spots import (
    IN_PLAY,
    NOWHERE,
    Folded,
    Spot,
    join_words,
    move_text,
    position_text,
    spot_text,
    spots,
)
from vwlog.engine.describe import card_name

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from vwlog.model.state import MatchState

__all__ = ["Difference", "board_differences"]


@dataclass(frozen=True)
class Difference:
    """One thing that differs between the two records' boards."""

    subject: Literal["card", "player", "position", "register", "result"]
    key: str
    """The card instance, the player, or the field."""
    when: Literal["after", "window"]
    """``after``: right after the divergent event; ``window``: over the events that follow."""
    text: str
    """The difference in one sentence."""
    a: Any
    """JSON-ready value in A."""
    b: Any
    """JSON-ready value in B."""


def _trajectories(
    start: Mapping[str, Spot], steps: Sequence[Folded]
) -> dict[str, list[tuple[int | None, Spot]]]:
    """Every card's spots from ``start`` through the steps, one entry per change."""
    paths: dict[str, list[tuple[int | None, Spot]]] = {
        c: [(None, spot)] for c, spot in start.items()
    }
    for step in steps:
        now = spots(step.after)
        for c in paths.keys() | now.keys():
            spot = now.get(c, NOWHERE)
            path = paths.setdefault(c, [(None, NOWHERE)])
            if path[-1][1] != spot:
                path.append((step.record.seq, spot))
    return paths


def _story(
    state: MatchState,
    path: Sequence[tuple[int | None, Spot]],
    other: Sequence[tuple[int | None, Spot]],
) -> str:
    """What happens to a card along ``path``, told against the ``other`` record's path."""
    parts: list[str] = []
    in_play = [s for _, s in path if s.zone in IN_PLAY]
    other_in_play = [s for _, s in other if s.zone in IN_PLAY]
    if in_play:
        last = in_play[-1]
        ref = other_in_play[-1] if other_in_play else None
        if last.damage or (ref is not None and ref.damage):
            parts.append(f"has {last.damage} damage" if last.damage else "has no damage")
        if ref is not None and last.slid != ref.slid:
            parts.append("is slid" if last.slid else "is not slid")
    moves = [
        f"{move_text(state, before, after)} at seq {seq}"
        for (_, before), (seq, after) in itertools.pairwise(path)
        if before.moved(after)
    ]
    parts.extend(moves)
    end = path[-1][1]
    if not moves:
        if end.zone in IN_PLAY and other[-1][1].zone not in IN_PLAY:
            parts.append(f"survives, {spot_text(state, end)}")
        elif not parts or end.moved(other[-1][1]):
            parts.append(f"stays {spot_text(state, end)}")
    return join_words(parts)


def _player_values(state: MatchState) -> dict[str, dict[str, Any]]:
    return {
        p.id: {
            "gold": p.gold,
            "honor": p.honor,
            "Victory Points": p.vp,
            "hand": len(p.hand),
            "Fate Deck": len(p.deck),
            "Graveyard": len(p.graveyard),
            "out": p.out,
        }
        for p in state.players
    }


def _count(label: str, n: int) -> str:
    if label in ("hand", "Fate Deck", "Graveyard"):
        return f"{n} card{'s' if n != 1 else ''}"
    return str(n)


def _register_text(state: MatchState) -> list[str]:
    return [
        f"{o.id} {o.kind.lower()} by {o.controller}"
        + (f" ({card_name(state, o.card)})" if o.card else "")
        for o in state.register
    ]


def _state_differences(
    a: MatchState, b: MatchState, when: Literal["after", "window"]
) -> list[Difference]:
    out: list[Difference] = []
    values_a, values_b = _player_values(a), _player_values(b)
    for pid, va in values_a.items():
        vb = values_b.get(pid, {})
        for label, x in va.items():
            y = vb.get(label)
            if x == y:
                continue
            if label == "out":
                text = f"{pid} is {'out of' if x else 'still in'} the match in A, "
                text += f"{'out of' if y else 'still in'} it in B"
            else:
                text = f"{pid}'s {label}: {_count(label, x)} in A, {_count(label, y or 0)} in B"
            out.append(Difference("player", f"{pid}.{label}", when, text, x, y))
    pos_a, pos_b = position_text(a), position_text(b)
    if (a.turn, a.active, a.phase, a.step, a.priority) != (
        b.turn,
        b.active,
        b.phase,
        b.step,
        b.priority,
    ):
        out.append(
            Difference("position", "position", when, f"A is at {pos_a}; B at {pos_b}", pos_a, pos_b)
        )
    reg_a, reg_b = _register_text(a), _register_text(b)
    if reg_a != reg_b:
        text = (
            f"the register holds {'; '.join(reg_a) or 'nothing'} in A, "
            f"{'; '.join(reg_b) or 'nothing'} in B"
        )
        out.append(Difference("register", "register", when, text, reg_a, reg_b))
    if (a.winner, a.victory) != (b.winner, b.victory):
        won_a = f"won by {a.winner} ({a.victory})" if a.winner else "not won yet"
        won_b = f"won by {b.winner} ({b.victory})" if b.winner else "not won yet"
        out.append(
            Difference(
                "result",
                "winner",
                when,
                f"the match is {won_a} in A, {won_b} in B",
                a.winner,
                b.winner,
            )
        )
    return out


def board_differences(
    common: MatchState,
    steps_a: Sequence[Folded],
    steps_b: Sequence[Folded],
    *,
    settled: tuple[MatchState, MatchState] | None = None,
) -> list[Difference]:
    """What differs between two records from a common board on: each card whose path differs
    (zone, damage, slide state, with the seq of each move), then the players, the position, the
    register and the result right after the first step and at the end of each window."""
    names = steps_a[-1].after if steps_a else common
    start = spots(common)
    paths_a = _trajectories(start, steps_a)
    paths_b = _trajectories(start, steps_b)
    cards: list[tuple[int, str, Difference]] = []
    for c in paths_a.keys() | paths_b.keys():
        pa = paths_a.get(c, [(None, NOWHERE)])
        pb = paths_b.get(c, [(None, NOWHERE)])
        if [s for _, s in pa] == [s for _, s in pb]:
            continue
        first = min((seq for seq, _ in (*pa[1:], *pb[1:]) if seq is not None), default=0)
        text = (
            f"in A, {card_name(names, c)} {_story(names, pa, pb)}; in B it {_story(names, pb, pa)}"
        )
        cards.append(
            (
                first,
                c,
                Difference(
                    "card",
                    c,
                    "window",
                    text,
                    [{"seq": seq, **s.as_json()} for seq, s in pa],
                    [{"seq": seq, **s.as_json()} for seq, s in pb],
                ),
            )
        )
    out = [d for _, _, d in sorted(cards, key=lambda t: (t[0], t[1]))]
    if settled is not None:
        after_a, after_b = settled
    else:
        after_a = steps_a[0].after if steps_a else common
        after_b = steps_b[0].after if steps_b else common
    right_after = _state_differences(after_a, after_b, "after")
    out.extend(right_after)
    end_a = steps_a[-1].after if steps_a else common
    end_b = steps_b[-1].after if steps_b else common
    seen = {(d.key, repr(d.a), repr(d.b)) for d in right_after}
    out.extend(
        d
        for d in _state_differences(end_a, end_b, "window")
        if (d.key, repr(d.a), repr(d.b)) not in seen
    )
    return out
