"""The board as a stable JSON document (`BoardView`), optionally as one player could know it at
that moment: their own hand, the public zones, and the other players' hands and decks as counts
only. `board_view` builds the model, `state_json` its JSON-ready data.

Pure: reads no files and prints nothing. `vwlog.games.vw.describe` re-exports these names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vwlog.games.common import known_viewer, sees, view_kind
from vwlog.model.types import CardType, Stat
from vwlog.projections.board import capacity_used

if TYPE_CHECKING:
    from vwlog.model.state import MatchState, Permanent


class _View(BaseModel):
    # populate_by_name: Python builds views with field names (``def_``, ``register_``); JSON
    # and the schema use the aliases (``def``, ``register``)
    model_config = ConfigDict(
        frozen=True, extra="forbid", use_attribute_docstrings=True, populate_by_name=True
    )


class CardView(_View):
    """A card named by instance and definition."""

    id: str
    """Instance id, unique within the match."""
    card: str
    """Definition id in the match's card pool."""
    name: str
    """Printed name."""


class PropertyView(CardView):
    """A Follower, Relic or Rune in play: guarding a Territory, Return Home, or Stray."""

    type: CardType
    """Card type."""
    where: Literal["GUARD", "RETURN_HOME", "STRAY", "ORPHAN"]
    """Guarding a Territory, Return Home, Stray, or guarding a Territory destroyed in this
    combat (it becomes Stray in combat step 10)."""
    slid: bool
    """Slid (tapped)."""
    fatigued: bool
    """Fatigued since entering play."""
    damage: int
    """Damage marked this turn."""
    atk: int | None
    """Current ATK (Followers only)."""
    def_: int | None = Field(alias="def")
    """Current DEF (Followers only)."""
    vit: int | None
    """Current VIT (Followers only)."""
    attacking: str | None
    """The Territory it attacks in this combat, if any."""
    blocking: str | None
    """The attacker it blocks in this combat, if any."""


class TerritoryView(CardView):
    """A Territory in play with its guards and current stats."""

    slid: bool
    """Slid (tapped)."""
    damage: int
    """Damage marked this turn."""
    defense: int
    """Current defense."""
    capacity: int
    """Current capacity."""
    capacity_used: int
    """Guards counting against the capacity."""
    gold_produce: int
    """Current gold produce."""
    guards: list[PropertyView]
    """Property guarding it, in order of entering play."""


class PlayerView(_View):
    """One player: resources, zones, and what they control in play."""

    id: str
    """Player id."""
    seat: int
    """Seat index, 0-based, in turn order."""
    team: str | None
    """Team, in team formats."""
    active: bool
    """Whether it is this player's turn."""
    out: bool
    """Lost (deck-out, concession, game loss) and skipped in turn order."""
    gold: int
    """Gold."""
    honor: int
    """Honor."""
    vp: int
    """Victory Points."""
    hand_size: int
    """Cards in hand."""
    hand: list[CardView] | None
    """The hand, or ``null`` where the viewer may not see it."""
    deck_size: int
    """Cards in the Fate Deck."""
    subdeck_size: int
    """Cards in the subdeck."""
    deck_commitment: str | None = None
    """The commitment to the order of their Fate Deck made at match start, public to every
    seat (``match_started``'s ``deck_commitment``), or ``null`` if none was made; opened by
    ``deck_revealed``."""
    graveyard: list[CardView]
    """The Graveyard, oldest first (public)."""
    territories: list[TerritoryView]
    """Territories controlled, in order of entering play."""
    return_home: list[PropertyView]
    """Return Home Followers."""
    stray: list[PropertyView]
    """Stray Property, and guards of Territories destroyed in this combat (``ORPHAN``)."""


class RegisterObjectView(_View):
    """An object waiting on the register."""

    id: str
    """Object id (``o<N>``)."""
    kind: str
    """An ``ObjectKind``: summon, action, active or trigger skill, combat damage."""
    controller: str
    """Who registered it (combat damage: the active player)."""
    card: CardView | None
    """The source card, if any."""
    skill: str | None
    """The skill id, for skill objects."""
    target: str | None
    """The locked target, if any."""
    territory: str | None
    """For a Property summon: the Territory it will guard."""


class BoardView(_View):
    """The board at one position of a match, as `state_json` writes it (view version 1).

    Fields are added, never renamed or retyped, within a view version. With a ``viewer`` the
    other players' hands are ``null`` (their sizes stay); decks are always counts only.
    """

    view_version: Literal[1] = 1
    """Version of this document's shape."""
    seq: int | None = None
    """The event after which this is the board, when known."""
    viewer: str | None
    """Whose knowledge the view is limited to; ``null`` for the full record."""
    view: Literal["judge", "player"] = "judge"
    """Which view is drawn: ``judge``, the whole board as the full record shows it (every hand
    and Graveyard, deck sizes), or ``player``, what ``viewer`` may know."""
    started: bool
    """Whether the match has started."""
    turn: int
    """Turn number (0 before the first turn)."""
    active: str | None
    """The active player."""
    phase: str | None
    """The current phase."""
    step: str | None
    """The current step, in phases that have steps."""
    priority: str | None
    """Who holds priority, when a window is open."""
    passes: int
    """Consecutive passes in the open window."""
    register_: list[RegisterObjectView] = Field(alias="register")
    """The register, bottom first (the last object results first)."""
    players: list[PlayerView]
    """Players in seat order."""
    winner: str | None
    """The winner, once the match is won."""
    victory: str | None
    """How it was won."""


def _card_view(s: MatchState, instance: str) -> CardView:
    defn = s.cards.get(s.instances.get(instance, ""))
    if defn is None:
        return CardView(id=instance, card="", name="")
    return CardView(id=instance, card=defn.id, name=defn.name)


def _property_view(s: MatchState, c: Permanent) -> PropertyView:
    defn = s.defn(c.id)
    follower = defn.type == CardType.FOLLOWER
    assert c.where != "TERRITORY"
    return PropertyView(
        id=c.id,
        card=defn.id,
        name=defn.name,
        type=defn.type,
        where=c.where,
        slid=c.slid,
        fatigued=c.fatigued,
        damage=c.damage,
        atk=s.stat(c.id, Stat.ATK) if follower else None,
        def_=s.stat(c.id, Stat.DEF) if follower else None,
        vit=s.stat(c.id, Stat.VIT) if follower else None,
        attacking=s.combat.attacks.get(c.id),
        blocking=s.combat.blocks.get(c.id),
    )


def _territory_view(s: MatchState, t: Permanent) -> TerritoryView:
    defn = s.defn(t.id)
    return TerritoryView(
        id=t.id,
        card=defn.id,
        name=defn.name,
        slid=t.slid,
        damage=t.damage,
        defense=s.stat(t.id, Stat.DEFENSE),
        capacity=s.stat(t.id, Stat.CAPACITY),
        capacity_used=capacity_used(s, t.id),
        gold_produce=s.stat(t.id, Stat.GOLD_PRODUCE),
        guards=[_property_view(s, g) for g in s.guards(t.id)],
    )


def board_view(
    state: MatchState, *, player: str | None = None, seq: int | None = None
) -> BoardView:
    """The board as a `BoardView`, optionally as ``player`` could know it.

    Args:
        state: the board.
        player: limit the view to what this player could know: their own hand, the public
            zones, the other players' hands as counts. ``None`` shows every hand.
        seq: the event after which this is the board, recorded in the view.

    Raises:
        UnknownPlayerError: ``player`` does not sit at this match's table.
    """
    s = state
    known_viewer([p.id for p in s.players], player)
    unplaced: dict[str, dict[str, list[PropertyView]]] = {
        p.id: {"RETURN_HOME": [], "STRAY": []} for p in s.players
    }
    for c in s.permanents.values():
        if c.where in ("RETURN_HOME", "STRAY", "ORPHAN") and c.controller in unplaced:
            key = "RETURN_HOME" if c.where == "RETURN_HOME" else "STRAY"
            unplaced[c.controller][key].append(_property_view(s, c))
    players = [
        PlayerView(
            id=p.id,
            seat=p.seat,
            team=p.team,
            active=p.id == s.active,
            out=p.out,
            gold=p.gold,
            honor=p.honor,
            vp=p.vp,
            hand_size=len(p.hand),
            hand=[_card_view(s, c) for c in p.hand] if sees(player, p.id) else None,
            deck_size=len(p.deck),
            subdeck_size=len(p.subdeck),
            deck_commitment=s.commitments[p.id][0] if p.id in s.commitments else None,
            graveyard=[_card_view(s, c) for c in p.graveyard],
            territories=[_territory_view(s, t) for t in s.territories(p.id)],
            return_home=unplaced[p.id]["RETURN_HOME"],
            stray=unplaced[p.id]["STRAY"],
        )
        for p in s.players
    ]
    register = [
        RegisterObjectView(
            id=o.id,
            kind=o.kind,
            controller=o.controller,
            card=_card_view(s, o.card) if o.card else None,
            skill=o.skill,
            target=o.target,
            territory=o.territory,
        )
        for o in s.register
    ]
    return BoardView(
        seq=seq,
        viewer=player,
        view=view_kind(player),
        started=s.started,
        turn=s.turn,
        active=s.active,
        phase=str(s.phase) if s.phase else None,
        step=str(s.step) if s.step else None,
        priority=s.priority,
        passes=s.passes,
        register_=register,
        players=players,
        winner=s.winner,
        victory=s.victory,
    )


def state_json(
    state: MatchState, *, player: str | None = None, seq: int | None = None
) -> dict[str, Any]:
    """The board as JSON-ready data in the shape of `BoardView` (see `board_view`).

    Raises:
        UnknownPlayerError: ``player`` does not sit at this match's table.
    """
    return board_view(state, player=player, seq=seq).model_dump(mode="json", by_alias=True)


__all__ = [
    "BoardView",
    "CardView",
    "PlayerView",
    "PropertyView",
    "RegisterObjectView",
    "TerritoryView",
    "board_view",
    "state_json",
]
