"""What differs on the board between two records from a common board on: each card whose path
differs (zone, damage, slide state, with the seq of each move), the players' resources, the
position in the turn, the register and the result.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Literal

from vwlog.audit.diffreport import Difference
from vwlog.games.vw.describe import card_name
from vwlog.games.vw.spots import (
    IN_PLAY,
    NOWHERE,
    Folded,
    Spot,
    join_words,
    move_said,
    position_said,
    position_text,
    spot_said,
    spots,
)
from vwlog.model.text import Msg, msg

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from vwlog.model.state import MatchState

__all__ = ["board_differences"]


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
) -> Msg:
    """What happens to a card along ``path``, told against the ``other`` record's path."""
    parts: list[Msg] = []
    in_play = [s for _, s in path if s.zone in IN_PLAY]
    other_in_play = [s for _, s in other if s.zone in IN_PLAY]
    if in_play:
        last = in_play[-1]
        ref = other_in_play[-1] if other_in_play else None
        if last.damage or (ref is not None and ref.damage):
            parts.append(
                msg("has {damage} damage", damage=last.damage)
                if last.damage
                else msg("has no damage")
            )
        if ref is not None and last.slid != ref.slid:
            parts.append(msg("is slid") if last.slid else msg("is not slid"))
    moves = [
        msg("{move} at seq {seq}", move=move_said(state, before, after), seq=seq)
        for (_, before), (seq, after) in itertools.pairwise(path)
        if before.moved(after)
    ]
    parts.extend(moves)
    end = path[-1][1]
    if not moves:
        if end.zone in IN_PLAY and other[-1][1].zone not in IN_PLAY:
            parts.append(msg("survives, {where}", where=spot_said(state, end)))
        elif not parts or end.moved(other[-1][1]):
            parts.append(msg("stays {where}", where=spot_said(state, end)))
    return join_words(parts)


_LABELS = {
    "gold": msg("gold"),
    "honor": msg("honor"),
    "Victory Points": msg("Victory Points"),
    "hand": msg("hand"),
    "Fate Deck": msg("Fate Deck"),
    "Graveyard": msg("Graveyard"),
}
"""The players' values a diff compares, as the catalogs name them."""


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


def _count(label: str, n: int) -> Msg | int:
    if label in ("hand", "Fate Deck", "Graveyard"):
        return msg("{count} card", count=n) if n == 1 else msg("{count} cards", count=n)
    return n


def _register_text(state: MatchState) -> list[str]:
    return [
        f"{o.id} {o.kind.lower()} by {o.controller}"
        + (f" ({card_name(state, o.card)})" if o.card else "")
        for o in state.register
    ]


def _register_said(state: MatchState) -> Msg:
    """The register's objects (``o2 attack by p1 (Marauder Captain)``), ``nothing`` if none."""
    said: Msg | None = None
    for o in state.register:
        one = msg(
            "{object} {kind} by {player}", object=o.id, kind=o.kind.lower(), player=o.controller
        )
        if o.card:
            one = msg("{object} ({card})", object=one, card=card_name(state, o.card))
        said = one if said is None else msg("{first}; {next}", first=said, next=one)
    return said if said is not None else msg("nothing")


def _difference(
    subject: Literal["card", "player", "position", "register", "result"],
    key: str,
    when: Literal["after", "window"],
    said: Msg,
    a: Any,
    b: Any,
) -> Difference:
    return Difference(subject, key, when, str(said), a, b, said=said)


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
                said = _out_said(pid, bool(x), bool(y))
            else:
                said = msg(
                    "{player}'s {label}: {a} in A, {b} in B",
                    player=pid,
                    label=_LABELS[label],
                    a=_count(label, x),
                    b=_count(label, y or 0),
                )
            out.append(_difference("player", f"{pid}.{label}", when, said, x, y))
    pos_a, pos_b = position_text(a), position_text(b)
    if (a.turn, a.active, a.phase, a.step, a.priority) != (
        b.turn,
        b.active,
        b.phase,
        b.step,
        b.priority,
    ):
        said = msg("A is at {a}; B at {b}", a=position_said(a), b=position_said(b))
        out.append(_difference("position", "position", when, said, pos_a, pos_b))
    reg_a, reg_b = _register_text(a), _register_text(b)
    if reg_a != reg_b:
        said = msg(
            "the register holds {a} in A, {b} in B", a=_register_said(a), b=_register_said(b)
        )
        out.append(_difference("register", "register", when, said, reg_a, reg_b))
    if (a.winner, a.victory) != (b.winner, b.victory):
        said = msg("the match is {a} in A, {b} in B", a=_won_said(a), b=_won_said(b))
        out.append(_difference("result", "winner", when, said, a.winner, b.winner))
    return out


def _out_said(player: str, out_a: bool, out_b: bool) -> Msg:
    """Whether a player is out of the match in A and in B."""
    if out_a and out_b:
        return msg("{player} is out of the match in A, out of it in B", player=player)
    if out_a:
        return msg("{player} is out of the match in A, still in it in B", player=player)
    if out_b:
        return msg("{player} is still in the match in A, out of it in B", player=player)
    return msg("{player} is still in the match in A, still in it in B", player=player)


def _won_said(state: MatchState) -> Msg:
    if state.winner:
        return msg("won by {winner} ({victory})", winner=state.winner, victory=state.victory)
    return msg("not won yet")


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
        said = msg(
            "in A, {card} {story_a}; in B it {story_b}",
            card=card_name(names, c),
            story_a=_story(names, pa, pb),
            story_b=_story(names, pb, pa),
        )
        cards.append(
            (
                first,
                c,
                _difference(
                    "card",
                    c,
                    "window",
                    said,
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
