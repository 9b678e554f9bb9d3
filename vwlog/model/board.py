"""The text board's lines as templates (`vwlog.model.text.Msg`): per player resources and
zones, Territories with guards, the register, and where the turn stands.

``str(state)`` (`vwlog.model.state.render`) joins them in English; the render layer says each
in another language (`vwlog.render.text.board_text`). Pure: no I/O, no gettext here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.model.state import current_stat
from vwlog.model.text import Msg, joined_commas, msg
from vwlog.model.types import CardType, Stat

if TYPE_CHECKING:
    from vwlog.model.state import MatchState, Permanent

__all__ = ["board_said"]


def board_said(state: MatchState) -> list[Msg]:
    """The lines of `render`, each a template and its values (`vwlog.model.text.Msg`)."""
    if not state.started:
        return [msg("(no match started)")]
    lines = [_position_said(state)]
    for p in state.players:
        player = msg(
            "{mark}{player}: gold {gold} honor {honor} VP {vp} · hand {hand} deck {deck} "
            "grave {grave}",
            mark="*" if p.id == state.active else " ",
            player=p.id,
            gold=p.gold,
            honor=p.honor,
            vp=p.vp,
            hand=len(p.hand),
            deck=len(p.deck),
            grave=len(p.graveyard),
        )
        lines.append(
            msg("{first} · {second}", first=player, second=msg("OUT")) if p.out else player
        )
        for t in state.territories(p.id):
            if t.id not in state.instances:
                lines.append(msg("    [{territory}] {card}", territory=t.id, card=_UNKNOWN_CARD))
                continue
            guards = state.guards(t.id)
            lines.append(
                msg(
                    "    [{territory}] {name} def {defense} dmg {damage} cap {used}/{capacity} "
                    "gold {gold}",
                    territory=t.id,
                    name=state.defn(t.id).name,
                    defense=current_stat(state, t.id, Stat.DEFENSE),
                    damage=t.damage,
                    used=len(guards),
                    capacity=current_stat(state, t.id, Stat.CAPACITY),
                    gold=current_stat(state, t.id, Stat.GOLD_PRODUCE),
                )
            )
            lines.extend(msg("        {card}", card=_card_text(state, g)) for g in guards)
        for c in state.permanents.values():
            if c.controller == p.id and c.where in _WHERE:
                lines.append(
                    msg("    {where}: {card}", where=_WHERE[c.where], card=_card_text(state, c))
                )
    if state.register:
        lines.append(msg("register (top last):"))
        for o in state.register:
            said = {"object": o.id, "kind": o.kind, "controller": o.controller}
            lines.append(
                msg(
                    "    {object} {kind} {controller} {card}",
                    **said,
                    card=_card_name(state, o.card),
                )
                if o.card
                else msg("    {object} {kind} {controller}", **said)
            )
    return lines


def _position_said(state: MatchState) -> Msg:
    """The board's first line: the turn, the active player, the phase and step, priority, the
    winner."""
    said = msg("turn {turn}", turn=state.turn)
    if state.active:
        said = msg("{position} · active {player}", position=said, player=state.active)
    if state.phase:
        where = f"{state.phase}/{state.step}" if state.step else str(state.phase)
        said = msg("{first} · {second}", first=said, second=where)
    if state.priority:
        said = msg(
            "{position} · priority {player} (passes {passes})",
            position=said,
            player=state.priority,
            passes=state.passes,
        )
    if state.winner:
        said = msg(
            "{position} · WON by {winner} ({victory})",
            position=said,
            winner=state.winner,
            victory=state.victory,
        )
    return said


_UNKNOWN_CARD = msg("(a card this match does not have)")

_WHERE = {
    "RETURN_HOME": msg("return home"),
    "STRAY": msg("stray"),
    "ORPHAN": msg("orphan"),
}
"""The zones outside Territories a card of a player may wait in, as the board names them."""


def _card_name(state: MatchState, instance: str) -> Msg | str:
    """The card's name; a record may name an instance the match lacks (a violation, shown)."""
    return state.defn(instance).name if instance in state.instances else _UNKNOWN_CARD


_FLAGS = (msg("slid"), msg("fatigued"), msg("attacking"), msg("blocking"))


def _card_text(state: MatchState, c: Permanent) -> Msg:
    if c.id not in state.instances:
        return msg("{card} {name}", card=c.id, name=_UNKNOWN_CARD)
    d = state.defn(c.id)
    text = msg("{card} {name}", card=c.id, name=d.name)
    if d.type == CardType.FOLLOWER:
        text = msg(
            "{card} {name} {atk}/{def_}/{vit}",
            card=c.id,
            name=d.name,
            atk=current_stat(state, c.id, Stat.ATK),
            def_=current_stat(state, c.id, Stat.DEF),
            vit=current_stat(state, c.id, Stat.VIT),
        )
    slid, fatigued, attacking, blocking = _FLAGS
    flags = [
        flag
        for flag, on in (
            (slid, c.slid),
            (fatigued, c.fatigued),
            (msg("dmg {damage}", damage=c.damage), c.damage > 0),
            (attacking, c.id in state.combat.attacks),
            (blocking, c.id in state.combat.blocks),
        )
        if on
    ]
    if not flags:
        return text
    return msg("{card} ({flags})", card=text, flags=joined_commas(flags))
