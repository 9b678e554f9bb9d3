"""Where every card of a Vandaria Wars match is, and where the match stands, in words.

The vocabulary VW's diff and knowledge view (`vwlog.audit.diff`, `vwlog.audit.knowledge`)
share: a card's `Spot` (zone, player, Territory, damage, slide state) on a board, a phrase for
it, a phrase for a move from one spot to another, and `position_text` for the turn, phase,
step and priority.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from vwlog.games.vw.describe import PHASE_NAMES, STEP_TEXTS, card_name
from vwlog.model.text import Msg, msg

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.events import EventRecord
    from vwlog.model.state import MatchState

__all__ = [
    "HIDDEN",
    "IN_PLAY",
    "NOWHERE",
    "Folded",
    "Spot",
    "Zone",
    "join_words",
    "move_said",
    "position_said",
    "position_text",
    "spot_said",
    "spot_text",
    "spots",
]

Zone = Literal[
    "HAND",
    "FATE_DECK",
    "SUBDECK",
    "GRAVEYARD",
    "TERRITORY",
    "GUARD",
    "RETURN_HOME",
    "STRAY",
    "ORPHAN",
    "REGISTER",
    "NONE",
]
IN_PLAY: frozenset[str] = frozenset({"TERRITORY", "GUARD", "RETURN_HOME", "STRAY", "ORPHAN"})
HIDDEN: frozenset[str] = frozenset({"HAND", "FATE_DECK", "SUBDECK"})


@dataclass(frozen=True, slots=True)
class Spot:
    """Where one card is and in what condition."""

    zone: Zone
    """Its zone, or its position in play."""
    player: str | None = None
    """Owner (hand, decks, Graveyard) or controller (in play, on the register)."""
    territory: str | None = None
    """For a guard: the Territory it guards."""
    damage: int = 0
    """Damage marked (in play)."""
    slid: bool = False
    """Slid (in play)."""

    def moved(self, other: Spot) -> bool:
        """Whether ``other`` is somewhere else (zone, player or Territory), not just changed."""
        return (self.zone, self.player, self.territory) != (
            other.zone,
            other.player,
            other.territory,
        )

    def as_json(self) -> dict[str, Any]:
        """The spot as JSON-ready data."""
        return {
            "zone": self.zone,
            "player": self.player,
            "territory": self.territory,
            "damage": self.damage,
            "slid": self.slid,
        }


NOWHERE = Spot("NONE")


def spots(state: MatchState) -> dict[str, Spot]:
    """Where every card of the match is on this board."""
    out: dict[str, Spot] = {}
    for p in state.players:
        for c in p.hand:
            out[c] = Spot("HAND", p.id)
        for c in p.deck:
            out[c] = Spot("FATE_DECK", p.id)
        for c in p.subdeck:
            out[c] = Spot("SUBDECK", p.id)
        for c in p.graveyard:
            out[c] = Spot("GRAVEYARD", p.id)
    for o in state.register:
        if o.card is not None and o.card not in state.permanents:
            out[o.card] = Spot("REGISTER", o.controller)
    for perm in state.permanents.values():
        out[perm.id] = Spot(perm.where, perm.controller, perm.territory, perm.damage, perm.slid)
    return out


def spot_text(state: MatchState, spot: Spot) -> str:
    """Where a card is, as a phrase (``"guarding Warcamp (p2-003)"``)."""
    return str(spot_said(state, spot))


def spot_said(state: MatchState, spot: Spot) -> Msg:
    """`spot_text` as a template and its values."""
    p = spot.player or "?"
    match spot.zone:
        case "HAND":
            return msg("in {player}'s hand", player=p)
        case "FATE_DECK":
            return msg("in {player}'s Fate Deck", player=p)
        case "SUBDECK":
            return msg("in {player}'s subdeck", player=p)
        case "GRAVEYARD":
            return msg("in {player}'s Graveyard", player=p)
        case "TERRITORY":
            return msg("in play as {player}'s Territory", player=p)
        case "GUARD":
            return msg("guarding {card}", card=card_name(state, spot.territory or "?"))
        case "ORPHAN":
            return msg(
                "guarding the destroyed {card}", card=card_name(state, spot.territory or "?")
            )
        case "RETURN_HOME":
            return msg("Return Home ({player})", player=p)
        case "STRAY":
            return msg("Stray ({player})", player=p)
        case "REGISTER":
            return msg("on the register")
        case _:
            return msg("nowhere on the board")


def move_said(state: MatchState, before: Spot, after: Spot) -> Msg:
    """How a card moves from ``before`` to ``after``, as a phrase (``"goes to p1's
    Graveyard"``)."""
    p = after.player or "?"
    match after.zone:
        case "GRAVEYARD":
            return msg("goes to {player}'s Graveyard", player=p)
        case "HAND":
            if before.zone in ("FATE_DECK", "SUBDECK"):
                return msg("is drawn into {player}'s hand", player=p)
            return msg("returns to {player}'s hand", player=p)
        case "FATE_DECK":
            return msg("goes into {player}'s Fate Deck", player=p)
        case "SUBDECK":
            return msg("goes into {player}'s subdeck", player=p)
        case "REGISTER":
            return msg("goes on the register")
        case "GUARD":
            where = card_name(state, after.territory or "?")
            if before.zone in IN_PLAY:
                return msg("is placed in {card}", card=where)
            return msg("enters play guarding {card}", card=where)
        case "TERRITORY":
            return msg("enters play as {player}'s Territory", player=p)
        case "RETURN_HOME":
            return msg("Returns Home")
        case "STRAY":
            return msg("becomes Stray")
        case "ORPHAN":
            return msg("loses the Territory it guards")
        case _:
            return msg("leaves the board")


def join_words(parts: Sequence[Msg]) -> Msg:
    """``a, b and c`` of the phrases, in any language."""
    if not parts:
        return Msg("")
    said = parts[0]
    for i, part in enumerate(parts[1:], start=2):
        if i == len(parts):
            said = msg("{first} and {last}", first=said, last=part)
        else:
            said = msg("{first}, {next}", first=said, next=part)
    return said


def position_text(state: MatchState) -> str:
    """Where a match stands: ``turn 7 · p1 active · Combat Phase, Combat step 6 · p1 holds
    priority`` (`position_said` in any language)."""
    return str(position_said(state))


def position_said(state: MatchState) -> Msg:
    """`position_text` as a template and its values."""
    if not state.started:
        return msg("before the match")
    parts: list[Msg | str] = []
    if state.turn == 0:
        parts.append(msg("before the first turn"))
    else:
        parts.append(msg("turn {turn}", turn=state.turn))
        if state.active:
            parts.append(msg("{player} active", player=state.active))
    if state.phase is not None:
        where: Msg | str = PHASE_NAMES[state.phase]
        if state.step is not None:
            where = msg("{phase}, {step}", phase=where, step=STEP_TEXTS[state.step])
        parts.append(where)
    if state.priority:
        parts.append(msg("{player} holds priority", player=state.priority))
    if state.winner:
        parts.append(msg("won by {winner} ({victory})", winner=state.winner, victory=state.victory))
    said = parts[0]
    for part in parts[1:]:
        said = msg("{first} · {second}", first=said, second=part)
    return said if isinstance(said, Msg) else msg("{text}", text=said)


@dataclass(frozen=True, slots=True)
class Folded:
    """One event of a record folded as recorded, with the boards before and after it."""

    record: EventRecord
    line: int | None
    before: MatchState
    after: MatchState
