"""The match start, concessions, reveals and judge rulings."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Final

from vwlog.events import Conceded, DeckRevealed, JudgeRulingIssued, MatchStarted
from vwlog.events.match import deck_commitment
from vwlog.model.text import Msg, msg
from vwlog.model.types import MatchFormat, RulingKind
from vwlog.rules.checks.base import Violations
from vwlog.rules.checks.consequences import trusted_effects
from vwlog.rules.common import violation

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
        out.append(
            violation(
                "R-SET-1",
                "first player {first_player} has no seat",
                first_player=repr(event.first_player),
            )
        )
    defs = {c.id for c in event.cards}
    seen: set[str] = set()
    for s in event.seats:
        for inst in (*s.deck, *s.subdeck):
            if inst.id in seen:
                out.append(
                    violation("R-SET-4", "card instance {id} appears twice", id=repr(inst.id))
                )
            seen.add(inst.id)
            if inst.card not in defs:
                out.append(
                    violation(
                        "R-SET-4", "card {card} is not in the card pool", card=repr(inst.card)
                    )
                )
    out.extend(match_format(event))
    for s in event.seats:
        if s.salt is not None and s.deck_commitment is not None and not s.opens(s.salt):
            out.append(
                violation(
                    "R-ZONE-2",
                    "{player}'s salt does not open their deck commitment: the Fate Deck "
                    "recorded is not the one committed to",
                    player=s.player,
                )
            )
    rs = ruleset
    for s in event.seats:
        if rs.min_deck_size is not None and len(s.deck) < rs.min_deck_size:
            out.append(
                violation(
                    "R-SET-4",
                    "{player}'s Fate Deck has {len} cards, under {min_deck_size}",
                    player=s.player,
                    len=len(s.deck),
                    min_deck_size=rs.min_deck_size,
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
                            "{player}'s deck has {n} copies of {card}, over {max_copies}",
                            player=s.player,
                            n=n,
                            card=repr(card),
                            max_copies=rs.max_copies,
                            flag="max_copies",
                        )
                    )
    return tuple(out)


def check_always(
    state: MatchState, event: Conceded | DeckRevealed | JudgeRulingIssued
) -> Violations:
    if isinstance(event, (Conceded, DeckRevealed)) and not state.has_player(event.player):
        return (violation("R-GEN-7", "unknown player {player}", player=repr(event.player)),)
    if isinstance(event, DeckRevealed):
        return check_reveal(state, event)
    if isinstance(event, Conceded) and state.player(event.player).out:
        return (violation("R-GEN-7", "{player} is no longer in the match", player=event.player),)
    if isinstance(event, JudgeRulingIssued):
        return check_ruling(state, event)
    return ()


def check_reveal(state: MatchState, event: DeckRevealed) -> Violations:
    """A reveal opens the deck commitment of its player, if the match start made one: the
    Fate Deck they drew from is the one committed to (R-ZONE-2)."""
    committed = state.commitments.get(event.player)
    if committed is None or deck_commitment(event.salt, committed[1]) == committed[0]:
        return ()
    return (
        violation(
            "R-ZONE-2",
            "{player}'s revealed salt does not open their deck commitment: the Fate Deck "
            "recorded is not the one committed to",
            player=event.player,
        ),
    )


def check_ruling(state: MatchState, event: JudgeRulingIssued) -> Violations:
    """A ruling carries what its kind needs, and a partial fix's corrections name real cards
    and players (checked structurally, like trusted effects)."""
    kind, corrections = event.kind, event.corrections or ()
    if corrections and kind != RulingKind.PARTIAL_FIX:
        return (
            violation(
                "R-GEN-8",
                "a {kind} ruling carries corrections; only a partial fix does",
                kind=kind.lower().replace("_", " "),
            ),
        )
    if kind == RulingKind.PARTIAL_FIX and not corrections:
        return (violation("R-GEN-8", "a partial fix names no correction"),)
    if kind == RulingKind.PARTIAL_FIX:
        return trusted_effects(state, corrections)
    return ()


FORMAT_SHAPES: Final[dict[MatchFormat, Msg]] = {
    MatchFormat.DUEL: msg("two players, no teams"),
    MatchFormat.TAG: msg("teams of two, at least two teams"),
    MatchFormat.THREE_V_THREE: msg("two teams of three"),
    MatchFormat.BATTLE_ROYAL: msg("three or four players, free-for-all"),
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
            "a {fmt} match has {needs}; these {n} seats are {shape}",
            fmt=fmt,
            needs=FORMAT_SHAPES[fmt],
            n=n,
            shape=shape,
        )
    ]


__all__ = [
    "FORMAT_SHAPES",
    "check_always",
    "check_match_started",
    "check_reveal",
    "check_ruling",
    "match_format",
]
