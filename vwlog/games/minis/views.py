"""The miniatures views, as the core asks for them (`vwlog.games.Views`): a sentence for each
event (`description`, read against the board before it) and the turn order as a player may
know it (`board`, JSON-ready; `board_lines`, text): the round and turn, the Active and Reactive
players, the phase, the Activation Sequence and its step, each model's AP, Crouched, Wounds
and states, the turns of the round in order, and the geometric claims the log made. There is
no map: positions are not in the log. Nothing is hidden (the fragment has no hand): a player's
view differs from the full record only in naming its viewer. Pure.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from vwlog.events.core import MatchForked, MatchSealed, RecordSigned, core_said
from vwlog.games.common import known_viewer, view_kind
from vwlog.games.minis import events as ev
from vwlog.games.minis.expect import seat_order
from vwlog.games.minis.state import Board
from vwlog.model.text import Msg, msg

__all__ = ["BoardView", "ModelView", "board", "board_lines", "board_view", "description"]


def _ids(ids: tuple[str, ...] | list[str]) -> str:
    return ", ".join(ids) or "-"


def _reactions(e: ev.ReactionsDeclared) -> Msg:
    if not e.reactions:
        return msg("{player} declares no Reaction", player=e.player)
    said = "; ".join(
        f"{r.model} {r.action}" + (f" → {r.target}" if r.target else "") for r in e.reactions
    )
    return msg("{player} reacts: {reactions}", player=e.player, reactions=said)


def _roll(e: ev.Roll) -> Msg:
    return msg(
        "{player} rolls {dice}d{sides} for {model} ({purpose}): {results}, {hits} Hits",
        player=e.player,
        dice=e.dice,
        sides=e.sides,
        model=e.model,
        purpose=e.purpose.lower(),
        results=" ".join(map(str, e.results)),
        hits=e.hits,
    )


def _structure(event: Any) -> Msg | None:
    match event:
        case ev.MinisStarted():
            return msg(
                "The match starts: {players}; 1st Player {first}; {n} models",
                players=_ids(event.players),
                first=event.first,
                n=len(event.models),
            )
        case ev.RoundStarted():
            return msg(
                "Round {round} starts; 1st Player {first}", round=event.round, first=event.first
            )
        case ev.TurnStarted():
            return msg(
                "Turn {turn} of round {round}: {active} Active, {reactive} Reactive",
                turn=event.turn,
                round=event.round,
                active=event.active,
                reactive=_ids(event.reactive),
            )
        case ev.PhaseStarted():
            return msg("{phase} Phase", phase=event.phase.title())
        case ev.ApAllotted():
            said = ", ".join(f"{a.model} {a.ap}" for a in event.allotments)
            return msg("Activation Points: {allotments}", allotments=said or "-")
        case ev.ApDiscarded():
            return msg("Unspent Activation Points are discarded")
        case ev.RolesSwapped():
            return msg("The Roles are swapped")
        case ev.TurnEnded():
            return msg("Turn {turn} of round {round} ends", turn=event.turn, round=event.round)
        case ev.RoundEnded():
            return msg("Round {round} ends", round=event.round)
        case ev.MatchEnded():
            return msg("The match ends; winner: {winner}", winner=event.winner or "-")
        case MatchForked() | MatchSealed() | RecordSigned():
            return core_said(event)
    return None


def _sequence(event: Any) -> Msg:
    match event:
        case ev.Declared():
            return msg(
                "{model} ({player}) declares {kind} {name}",
                model=event.model,
                player=event.player,
                kind=event.kind.replace("_", " ").lower(),
                name=event.name,
            )
        case ev.ModelActivated():
            return msg("{player} activates {model}", player=event.player, model=event.model)
        case ev.CrouchedChanged():
            if event.crouched:
                return msg("{model} goes Crouched", model=event.model)
            return msg("{model} leaves Crouched", model=event.model)
        case ev.MovementDeclared():
            return msg(
                "{model} moves ({kind}; Skills: {skills})",
                model=event.model,
                kind=event.kind.lower(),
                skills=_ids(event.skills),
            )
        case ev.AoODeclared():
            return msg(
                "{model} declares a {ranged}Attack of Opportunity on {target}",
                model=event.model,
                ranged=msg("Ranged ") if event.ranged else "",
                target=event.target,
            )
        case ev.AoOChecked():
            if event.within_reach:
                return msg("{model}'s target was within Reach (claimed)", model=event.model)
            return msg("{model}'s target was not within Reach: the Attack fails", model=event.model)
        case ev.ReactionsDeclared():
            return _reactions(event)
        case ev.ActionDeclared():
            return msg(
                "{model} declares {action} ({kind}) on {targets}",
                model=event.model,
                action=event.action,
                kind=event.kind.lower(),
                targets=_ids(event.targets),
            )
        case ev.ReactionChanged():
            return msg("{model} changes its Reaction to Attack", model=event.model)
        case ev.Roll():
            return _roll(event)
        case ev.ResolutionOrdered():
            return msg(
                "{player} orders the conflicts: {order}",
                player=event.player,
                order=_ids(event.order),
            )
        case ev.WoundsApplied():
            return msg("{model} takes {wounds} Wounds", model=event.model, wounds=event.wounds)
        case ev.SequenceEnded():
            return msg("The Activation Sequence of {model} ends", model=event.model)
        case ev.TacticalStopped():
            return msg("{player} stops activating", player=event.player)
    return msg("{event}", event=str(getattr(event, "type", event)))


def description(event: Any, before: Board, *, viewer: str | None = None) -> Msg:
    """What ``event`` did to the board ``before`` (nothing is hidden, so ``viewer`` changes
    nothing).

    >>> str(description(ev.TacticalStopped(player="p1"), Board()))
    'p1 stops activating'
    """
    said = _structure(event)
    return said if said is not None else _sequence(event)


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ModelView(_View):
    """One model: its controller, AP, Stamina, Crouched, Wounds and states."""

    id: str
    owner: str
    ap: int
    stamina: int
    crouched: bool
    wounds: int
    states: list[str]
    activated: bool
    reacted: bool


class ClaimView(_View):
    """A geometric claim the log made (trusted)."""

    round: int
    turn: int
    rule: str
    model: str
    what: str
    value: bool


class BoardView(_View):
    """The turn order and the Activation Sequence at one position."""

    seq: int | None
    viewer: str | None
    view: str
    started: bool
    round: int
    turn: int
    order: list[str]
    """The players in the round's turn order, from its 1st Player."""
    done: list[str]
    """The players Active so far this round."""
    active: str | None
    reactive: list[str]
    phase: str | None
    activating: str | None
    step: str | None
    stopped: bool
    models: list[ModelView]
    claims: list[ClaimView]
    over: bool
    winner: str | None


def board_view(state: Board, *, player: str | None = None, seq: int | None = None) -> BoardView:
    """The board as a `BoardView` (`UnknownPlayerError`: a player not at the match)."""
    s = state
    known_viewer(s.players, player)
    q = s.sequence
    models = [
        ModelView(
            id=m.id,
            owner=m.owner,
            ap=m.ap,
            stamina=m.stamina,
            crouched=m.crouched,
            wounds=m.wounds,
            states=sorted(m.states),
            activated=m.id in s.activated,
            reacted=q is not None and m.id in q.reacted,
        )
        for m in s.models.values()
    ]
    return BoardView(
        seq=seq,
        viewer=player,
        view=view_kind(player),
        started=s.started,
        round=s.round,
        turn=s.turn,
        order=list(seat_order(s, s.round_first or s.first)),
        done=list(s.been_active),
        active=s.active if s.in_turn else None,
        reactive=list(s.reactive) if s.in_turn else [],
        phase=s.phase,
        activating=q.model if q is not None else None,
        step=q.step if q is not None else None,
        stopped=s.stopped,
        models=models,
        claims=[ClaimView(**{f: getattr(c, f) for f in ClaimView.model_fields}) for c in s.claims],
        over=s.over,
        winner=s.winner,
    )


def board(state: Board, *, player: str | None = None, seq: int | None = None) -> dict[str, Any]:
    """The board as JSON-ready data in the shape of `BoardView`."""
    return board_view(state, player=player, seq=seq).model_dump(mode="json")


def board_lines(state: Board) -> list[Msg]:
    """The turn order as lines of text (``vwlog replay --board``, ``vwlog show``)."""
    if not state.started:
        return [msg("(no match started)")]
    b = board(state)
    lines = [
        msg(
            "Round {round} · turn order {order} · done {done}",
            round=b["round"],
            order=_ids(b["order"]),
            done=_ids(b["done"]),
        ),
        msg(
            "Turn {turn} · Active {active} · Reactive {reactive} · {phase} Phase",
            turn=b["turn"],
            active=b["active"] or "-",
            reactive=_ids(b["reactive"]),
            phase=(b["phase"] or "-").title(),
        ),
    ]
    if b["activating"]:
        lines.append(
            msg(
                "Activation Sequence of {model} · step {step}",
                model=b["activating"],
                step=b["step"],
            )
        )
    for m in b["models"]:
        lines.append(
            msg(
                "{model} ({owner}): AP {ap}/{stamina} · Wounds {wounds}{crouched}",
                model=m["id"],
                owner=m["owner"],
                ap=m["ap"],
                stamina=m["stamina"],
                wounds=m["wounds"],
                crouched=msg(" · Crouched") if m["crouched"] else "",
            )
        )
    if b["claims"]:
        lines.append(msg("geometric claims taken as logged: {n}", n=len(b["claims"])))
    return lines
