"""L5R's views, as the core asks for them (`vwlog.games.Views`): a sentence for each battle
event (`description`, read against the board before it) and the battlefields as a player may
know them (`board`, JSON-ready; `board_lines`, text): each battlefield's Province and the
attacker's and defender's units (Force, bowed or not), each army's Force, the battle and whose
opportunity it is, honor and the units at Home. Cards, Provinces and battlefields are named by
their ids, as the log names them; values go into the sentences as they are (the renderers
escape them). Nothing on the board is hidden (the battle rules keep no hand): a player's view
differs from the full record only in naming its viewer. Pure.
"""

from __future__ import annotations

from typing import Any, Literal, assert_never, cast

from vwlog.events.core import MatchForked, MatchSealed, RecordSigned, core_said
from vwlog.games.common import BoardHead, View, known_viewer, ruleset_label, view_kind
from vwlog.games.l5r import events as ev
from vwlog.games.l5r.state import DISCARD, HOME, Board, Card
from vwlog.model.text import Msg, joined_semicolons, msg

__all__ = [
    "BattleView",
    "BattlefieldView",
    "BoardView",
    "PlayerView",
    "ProvinceView",
    "UnitView",
    "board",
    "board_lines",
    "board_view",
    "description",
]


def _ids(ids: tuple[str, ...] | list[str]) -> str:
    return ", ".join(ids)


# -- events ----------------------------------------------------------------------------------


def description(event: Any, before: Board, *, viewer: str | None = None) -> Msg:
    """What ``event`` did to the board ``before`` (everything on an L5R battle board is public,
    so ``viewer`` changes nothing).

    >>> str(description(ev.OpportunityPassed(player="p2"), Board()))
    'p2 passes the opportunity'
    """
    match event:
        case ev.L5rStarted():
            return msg(
                "Match starts between {first} and {second}: {cards} cards, {provinces} "
                "Provinces; ruleset {ruleset}",
                first=event.players[0],
                second=event.players[1],
                cards=len(event.cards),
                provinces=len(event.provinces),
                ruleset=ruleset_label(event.ruleset),
            )
        case ev.AttackPhaseStarted():
            return msg(
                "Turn {turn}: the Attack phase begins; {attacker} attacks {defender}",
                turn=event.turn,
                attacker=event.attacker,
                defender=event.defender,
            )
        case ev.ArmiesDeclared():
            return _armies(event)
        case ev.BattlefieldChosen():
            return _chosen(event, before)
        case ev.BattleStarted():
            return msg(
                "Battle {battle} begins at {battlefield}: {attacker} attacks, {defender} defends",
                battle=event.battle,
                battlefield=event.battlefield,
                attacker=event.attacker,
                defender=event.defender,
            )
        case ev.BattleActionTaken() | ev.BattleActionResolved() | ev.OpportunityPassed():
            return _opportunity(event)
        case ev.ResolutionStarted() | ev.BattleWithoutOutcome() | ev.ResolutionEnded():
            return _resolution(event, before)
        case ev.ArmyDestroyed() | ev.ProvinceDestroyed() | ev.HonorGained():
            return _outcome(event, before)
        case ev.AttackersSentHome() | ev.DefendersSentHome():
            return _home(event)
        case ev.BattleEnded():
            return msg("Battle {battle} ends", battle=event.battle)
        case ev.AttackPhaseEnded():
            return msg("The Attack phase of turn {turn} ends", turn=event.turn)
        case MatchForked() | MatchSealed() | RecordSigned():
            return core_said(event)
        case _:
            assert_never(event)


def _armies(event: ev.ArmiesDeclared) -> Msg:
    sides: dict[str, tuple[list[str], list[str]]] = {}
    for a in event.assignments:
        attackers, defenders = sides.setdefault(a.battlefield, ([], []))
        (attackers if a.side == "ATTACKER" else defenders).append(a.unit)
    none = msg("none")
    parts = [
        msg(
            "{battlefield}: attacking {attackers}, defending {defenders}",
            battlefield=battlefield,
            attackers=_ids(attackers) or none,
            defenders=_ids(defenders) or none,
        )
        for battlefield, (attackers, defenders) in sides.items()
    ]
    if not parts:
        return msg("Armies declared: no unit goes to battle")
    return msg("Armies declared: {armies}", armies=joined_semicolons(parts))


def _chosen(event: ev.BattlefieldChosen, s: Board) -> Msg:
    province = s.province_at(event.battlefield)
    where: Msg | str = event.battlefield
    if province is not None:
        where = msg(
            "{battlefield} (Province {province} of {owner})",
            battlefield=event.battlefield,
            province=province.id,
            owner=province.owner,
        )
    if event.cause:
        return msg(
            "{player} chooses {battlefield} for the battle {cause} creates",
            player=event.player,
            battlefield=where,
            cause=event.cause,
        )
    return msg(
        "{player} chooses the battlefield {battlefield}", player=event.player, battlefield=where
    )


def _opportunity(
    event: ev.BattleActionTaken | ev.BattleActionResolved | ev.OpportunityPassed,
) -> Msg:
    match event:
        case ev.OpportunityPassed():
            return msg("{player} passes the opportunity", player=event.player)
        case ev.BattleActionTaken():
            text = msg(
                "{player} takes an opportunity: {ability} of {card}",
                player=event.player,
                ability=event.ability,
                card=event.card,
            )
            if event.source_unit:
                text = msg("{action}, with {unit}", action=text, unit=event.source_unit)
            if event.targets:
                text = msg(
                    "{action}, targeting {targets}", action=text, targets=_ids(event.targets)
                )
            if event.brings:
                text = msg(
                    "{action}, bringing {units} into the battle",
                    action=text,
                    units=_ids(event.brings),
                )
            return text
        case ev.BattleActionResolved():
            effects = joined_semicolons([_effect(fx) for fx in event.effects])
            return msg(
                "{ability} of {card} resolves: {effects}",
                ability=event.ability,
                card=event.card,
                effects=effects or msg("no effect"),
            )
        case _:
            assert_never(event)


def _effect(fx: ev.Effect) -> Msg:
    match fx.kind:
        case "unit_entered_battle":
            return msg("{unit} enters the battle", unit=fx.unit)
        case "unit_bowed":
            return msg("{unit} bows", unit=fx.unit)
        case "unit_unbowed":
            return msg("{unit} unbows", unit=fx.unit)
        case "force_changed":
            if fx.delta < 0:
                return msg("{unit} loses {n} Force", unit=fx.unit, n=-fx.delta)
            return msg("{unit} gains {n} Force", unit=fx.unit, n=fx.delta)
        case _:
            assert_never(fx.kind)


def _resolution(
    event: ev.ResolutionStarted | ev.BattleWithoutOutcome | ev.ResolutionEnded, s: Board
) -> Msg:
    match event:
        case ev.ResolutionStarted():
            b = s.battle
            if b is not None:
                return msg(
                    "Resolution of battle {battle}: {attacker} attacks with Force "
                    "{attacker_force}, {defender} defends with Force {defender_force}",
                    battle=event.battle,
                    attacker=b.attacker,
                    attacker_force=event.attacker_force,
                    defender=b.defender,
                    defender_force=event.defender_force,
                )
            return msg(
                "Resolution of battle {battle}: the attacker's Force is {attacker_force}, the "
                "defender's {defender_force}",
                battle=event.battle,
                attacker_force=event.attacker_force,
                defender_force=event.defender_force,
            )
        case ev.BattleWithoutOutcome():
            return msg(
                "Battle {battle} has no outcome: both Forces are 0 and a side has no unit",
                battle=event.battle,
            )
        case ev.ResolutionEnded():
            return msg("The Resolution of battle {battle} ends", battle=event.battle)
        case _:
            assert_never(event)


def _outcome(event: ev.ArmyDestroyed | ev.ProvinceDestroyed | ev.HonorGained, s: Board) -> Msg:
    match event:
        case ev.ArmyDestroyed():
            attacking = event.side == "ATTACKER"
            side = msg("attacking") if attacking else msg("defending")
            cards = _ids(event.cards)
            if s.battle is None:
                return msg("The {side} army is destroyed: {cards}", side=side, cards=cards)
            return msg(
                "The {side} army of {player} is destroyed: {cards}",
                side=side,
                player=s.battle.attacker if attacking else s.battle.defender,
                cards=cards,
            )
        case ev.ProvinceDestroyed():
            province = s.provinces.get(event.province)
            falls = (
                msg(
                    "The Province {province} of {owner} falls",
                    province=event.province,
                    owner=province.owner,
                )
                if province is not None
                else msg("The Province {province} falls", province=event.province)
            )
            gone = (*event.discarded, *event.regions)
            if not gone:
                return falls
            return msg("{falls}; discarded: {cards}", falls=falls, cards=_ids(gone))
        case ev.HonorGained():
            return msg(
                "{player} gains {amount} Honor; cards destroyed: {n}",
                player=event.player,
                amount=event.amount,
                n=event.cards_destroyed,
            )
        case _:
            assert_never(event)


def _home(event: ev.AttackersSentHome | ev.DefendersSentHome) -> Msg:
    units = _ids(event.units) or msg("none")
    if isinstance(event, ev.AttackersSentHome):
        return msg("The attacking units bow and go Home: {units}", units=units)
    return msg("The defending units go Home: {units}", units=units)


# -- the board -------------------------------------------------------------------------------


class UnitView(View):
    """A unit (Personality or Follower) with what is attached to it."""

    id: str
    kind: str
    """``PERSONALITY`` or ``FOLLOWER``."""
    owner: str
    force: int
    bowed: bool
    """Bowed (a bowed unit adds no Force to its army)."""
    attachments: list[str]
    """Cards attached to it."""


class ProvinceView(View):
    """A Province."""

    id: str
    owner: str
    strength: int
    destroyed: bool
    """Whether it has fallen."""
    cards: list[str]
    """The cards it holds."""
    regions: list[str]
    """The Regions on it."""


class BattlefieldView(View):
    """One battlefield: its Province and the units on each side."""

    id: str
    province: ProvinceView | None
    """The Province whose battlefield it is."""
    attacker: str | None
    defender: str | None
    attackers: list[UnitView]
    """The attacker's units here."""
    defenders: list[UnitView]
    """The defender's units here."""
    attacker_force: int
    """The unbowed attacking units' Force."""
    defender_force: int
    """The unbowed defending units' Force."""
    fought: bool
    """Whether its battle was fought in this Attack phase."""


class BattleView(View):
    """The battle being fought."""

    number: int
    """The battle's number in the match."""
    battlefield: str
    """Where it is fought."""
    attacker: str
    """The attacking player."""
    defender: str
    """The defending player."""
    segment: Literal["START", "COMBAT", "RESOLUTION"]
    """``START`` (chosen), ``COMBAT`` (opportunities), ``RESOLUTION``."""
    opportunity: str | None
    """Whose opportunity it is, in the Combat segment."""
    passes: int
    """Consecutive passes."""
    cause: str | None
    """The card whose effect created the battle, outside the Attack phase."""


class PlayerView(View):
    """One player: honor and the units at Home."""

    id: str
    honor: int
    """Family Honor gained in the match."""
    home: list[UnitView]
    """Units at Home."""
    discard: list[str]
    """Cards destroyed or discarded (the discard pile, as far as the log says)."""


class BoardView(BoardHead):
    """The L5R battle board at one position of a match (view version 1)."""

    game: Literal["l5r"] = "l5r"
    started: bool
    turn: int
    """The turn of the Attack phase (0 before the first)."""
    attack_phase: bool
    """Whether an Attack phase is under way."""
    attacker: str | None
    """The attacking player of the Attack phase."""
    defender: str | None
    """The defending player of the Attack phase."""
    battle: BattleView | None
    opportunity: str | None
    """Whose opportunity it is (the battle's, in its Combat segment)."""
    battlefields: list[BattlefieldView]
    """Every battlefield, in the order of the Provinces, then any other with units."""
    players: list[PlayerView]
    """Players in the order the match names them."""


def _unit(s: Board, c: Card) -> UnitView:
    attached = sorted(a.id for a in s.cards.values() if a.attached_to == c.id and a.at != DISCARD)
    return UnitView(
        id=c.id, kind=c.kind, owner=c.owner, force=c.force, bowed=c.bowed, attachments=attached
    )


def _battlefield(s: Board, field: str) -> BattlefieldView:
    province = s.province_at(field)
    b = s.battle
    attacker, defender = s.attacker, s.defender
    if b is not None and b.battlefield == field:
        attacker, defender = b.attacker, b.defender
    elif province is not None:  # a Province's owner defends it
        defender, attacker = province.owner, s.other(province.owner)
    units = sorted((c for c in s.cards.values() if c.is_unit and c.at == field), key=lambda c: c.id)
    attackers = [_unit(s, c) for c in units if c.owner == attacker]
    defenders = [_unit(s, c) for c in units if c.owner == defender]
    return BattlefieldView(
        id=field,
        province=(
            ProvinceView(
                id=province.id,
                owner=province.owner,
                strength=province.strength,
                destroyed=province.destroyed,
                cards=list(province.cards),
                regions=list(province.regions),
            )
            if province is not None
            else None
        ),
        attacker=attacker,
        defender=defender,
        attackers=attackers,
        defenders=defenders,
        attacker_force=sum(u.force for u in attackers if not u.bowed),
        defender_force=sum(u.force for u in defenders if not u.bowed),
        fought=field in s.fought,
    )


def _battle(s: Board) -> BattleView | None:
    b = s.battle
    if b is None:
        return None
    segment = cast("Literal['START', 'COMBAT', 'RESOLUTION']", b.segment)
    return BattleView(
        number=b.number,
        battlefield=b.battlefield,
        attacker=b.attacker,
        defender=b.defender,
        segment=segment,
        opportunity=b.to_act or None if segment == "COMBAT" else None,
        passes=b.passes,
        cause=b.cause,
    )


def board_view(state: Board, *, player: str | None = None, seq: int | None = None) -> BoardView:
    """The board as a `BoardView`, as ``player`` may know it (`UnknownPlayerError`: a player
    not at the match)."""
    s = state
    known_viewer(s.players, player)
    fields = [p.battlefield for p in s.provinces.values()]
    fields += sorted({c.at for c in s.cards.values() if c.at not in (HOME, DISCARD)} - set(fields))
    battle = _battle(s)
    players = [
        PlayerView(
            id=p,
            honor=s.honor.get(p, 0),
            home=[
                _unit(s, c)
                for c in sorted(s.cards.values(), key=lambda c: c.id)
                if c.is_unit and c.owner == p and c.at == HOME
            ],
            discard=sorted(c.id for c in s.cards.values() if c.owner == p and c.at == DISCARD),
        )
        for p in s.players
    ]
    return BoardView(
        seq=seq,
        viewer=player,
        view=view_kind(player),
        started=s.started,
        turn=s.turn,
        attack_phase=s.in_phase,
        attacker=s.attacker,
        defender=s.defender,
        battle=battle,
        opportunity=battle.opportunity if battle is not None else None,
        battlefields=[_battlefield(s, f) for f in fields],
        players=players,
    )


def board(state: Board, *, player: str | None = None, seq: int | None = None) -> dict[str, Any]:
    """The board as JSON-ready data in the shape of `BoardView` (`board_view`: raises
    `UnknownPlayerError` for a player not at the match)."""
    return board_view(state, player=player, seq=seq).model_dump(mode="json")


_BOWED = {True: msg(", bowed"), False: ""}
_SEGMENTS = {"START": msg("chosen"), "COMBAT": msg("Combat"), "RESOLUTION": msg("Resolution")}


def _units_said(units: list[dict[str, Any]]) -> Msg | str:
    said = [
        msg(
            "{unit} (Force {force}{bowed})",
            unit=u["id"],
            force=u["force"],
            bowed=_BOWED[u["bowed"]],
        )
        for u in units
    ]
    return joined_semicolons(said) or "-"


def board_lines(state: Board) -> list[Msg]:
    """The battlefields as lines of text, each a template and its values (``vwlog replay
    --board``, ``vwlog show``)."""
    if not state.started:
        return [msg("(no match started)")]
    b = board(state)
    lines = [
        msg(
            "Turn {turn} · Attack phase: {attacker} attacks {defender}",
            turn=b["turn"],
            attacker=b["attacker"],
            defender=b["defender"],
        )
        if b["attack_phase"]
        else msg("Turn {turn} · no Attack phase under way", turn=b["turn"])
    ]
    if (battle := b["battle"]) is not None:
        lines.append(
            msg(
                "battle {battle} at {battlefield} · {segment} · opportunity {player}",
                battle=battle["number"],
                battlefield=battle["battlefield"],
                segment=_SEGMENTS[battle["segment"]],
                player=battle["opportunity"] or "-",
            )
        )
    for f in b["battlefields"]:
        p = f["province"]
        lines.append(
            msg("[{battlefield}]", battlefield=f["id"])
            if p is None
            else msg(
                "[{battlefield}] Province {province} of {owner}, strength {strength}{fallen}",
                battlefield=f["id"],
                province=p["id"],
                owner=p["owner"],
                strength=p["strength"],
                fallen=msg(" (fallen)") if p["destroyed"] else "",
            )
        )
        for said, player, units, force in (
            (msg("attacking"), f["attacker"], f["attackers"], f["attacker_force"]),
            (msg("defending"), f["defender"], f["defenders"], f["defender_force"]),
        ):
            if units:
                lines.append(
                    msg(
                        "    {side} {player} · Force {force}: {units}",
                        side=said,
                        player=player or "-",
                        force=force,
                        units=_units_said(units),
                    )
                )
    for seat in b["players"]:
        lines.append(
            msg(
                "{player}: honor {honor} · at Home: {units}",
                player=seat["id"],
                honor=seat["honor"],
                units=_units_said(seat["home"]),
            )
        )
    return lines
