"""The match start, concessions, reveals and judge rulings."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from vwlog.events import (
    Conceded,
    DeckRevealed,
    JudgeRulingIssued,
    MatchStarted,
)
from vwlog.model.types import (
    MatchFormat,
    RulingKind,
)
from vwlog.rules.checks.base import Violations
from vwlog.rules.checks.consequences import trusted_effects
from vwlog.rules.common import (
    violation,
)

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState


def check_match_started(ruleset: Ruleset, event: MatchStarted) -> Violations:
    out: list[Violation] = []
    ids = [s.player for s in event.seats]
    if len(set(ids)) != len(ids):
        out.append(violation("R-GEN-7", "two seats have the same player id"))
    if event.first_player not in ids:
        out.append(violation("R-SET-1", f"first player {event.first_player!r} has no seat"))
    defs = {c.id for c in event.cards}
    seen: set[str] = set()
    for s in event.seats:
        for inst in (*s.deck, *s.subdeck):
            if inst.id in seen:
                out.append(violation("R-SET-4", f"card instance {inst.id!r} appears twice"))
            seen.add(inst.id)
            if inst.card not in defs:
                out.append(violation("R-SET-4", f"card {inst.card!r} is not in the card pool"))
    out.extend(match_format(event))
    rs = ruleset
    for s in event.seats:
        if rs.min_deck_size is not None and len(s.deck) < rs.min_deck_size:
            out.append(
                violation(
                    "R-SET-4",
                    f"{s.player}'s Fate Deck has {len(s.deck)} cards, under {rs.min_deck_size}",
                    flag="min_deck_size",
                )
            )
        if rs.max_copies is not None:
            counts = Counter(c.card for c in s.deck)
            for card, n in counts.items():
                if n > rs.max_copies:
                    out.append(
                        violation(
                            "R-SET-4",
                            f"{s.player}'s deck has {n} copies of {card!r}, over {rs.max_copies}",
                            flag="max_copies",
                        )
                    )
    return tuple(out)


def check_always(
    state: MatchState, event: Conceded | DeckRevealed | JudgeRulingIssued
) -> Violations:
    if isinstance(event, (Conceded, DeckRevealed)) and not state.has_player(event.player):
        return (violation("R-GEN-7", f"unknown player {event.player!r}"),)
    if isinstance(event, Conceded) and state.player(event.player).out:
        return (violation("R-GEN-7", f"{event.player} is no longer in the match"),)
    if isinstance(event, JudgeRulingIssued):
        return check_ruling(state, event)
    return ()


def check_ruling(state: MatchState, event: JudgeRulingIssued) -> Violations:
    """A ruling carries what its kind needs, and a partial fix's corrections name real cards
    and players (checked structurally, like trusted effects)."""
    kind, corrections = event.kind, event.corrections or ()
    if corrections and kind != RulingKind.PARTIAL_FIX:
        return (
            violation(
                "R-GEN-8",
                f"a {kind.lower().replace('_', ' ')} ruling carries corrections; only a partial "
                "fix does",
            ),
        )
    if kind == RulingKind.PARTIAL_FIX and not corrections:
        return (violation("R-GEN-8", "a partial fix names no correction"),)
    if kind == RulingKind.PARTIAL_FIX:
        return trusted_effects(state, corrections)
    return ()


FORMAT_SHAPES: dict[MatchFormat, str] = {
    MatchFormat.DUEL: "two players, no teams",
    MatchFormat.TAG: "teams of two, at least two teams",
    MatchFormat.THREE_V_THREE: "two teams of three",
    MatchFormat.BATTLE_ROYAL: "three or four players, free-for-all",
}
"""The seats each known format has (R-GEN-7: Tag Team is teams of two, 3 on 3 teams of three,
Battle Royal three or four players free-for-all at one table; a duel is two players)."""


def match_format(event: MatchStarted) -> list[Violation]:
    """The seats fit the declared match format (R-GEN-7)."""
    teams = Counter(s.team for s in event.seats)
    n = len(event.seats)
    fmt = event.format
    if fmt == MatchFormat.DUEL:
        fits = n == 2 and (None in teams or len(teams) == 2)
    elif fmt == MatchFormat.TAG:
        fits = None not in teams and len(teams) >= 2 and set(teams.values()) == {2}
    elif fmt == MatchFormat.THREE_V_THREE:
        fits = None not in teams and len(teams) == 2 and set(teams.values()) == {3}
    else:
        fits = n in (3, 4) and (set(teams) == {None} or len(teams) == n)
    if fits:
        return []
    shape = ", ".join(f"{team or 'no team'}: {k}" for team, k in sorted(teams.items(), key=str))
    return [
        violation(
            "R-GEN-7",
            f"a {fmt} match has {FORMAT_SHAPES[fmt]}; these {n} seats are {shape}",
        )
    ]


__all__ = ["FORMAT_SHAPES", "check_always", "check_match_started", "check_ruling", "match_format"]
