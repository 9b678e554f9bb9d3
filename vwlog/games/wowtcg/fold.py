"""The fold: the board after an event, applied as played (its legality is `judge`'s business).
Never raises: what an event names that the board lacks is left as it was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board, Card, Link, Modifier, Trigger
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.games.wowtcg.script import next_turn
from vwlog.model.violation import Violation

__all__ = ["evolve", "fold"]


def _rs(s: Board) -> WowRuleset:
    return s.ruleset or WowRuleset()


def _card(spec: ev.CardSpec) -> Card:
    return Card(spec.id, spec.controller, spec.kind, spec.exhausted, spec.inspire)


def _started(s: Board, e: ev.MatchStarted) -> Board:
    n = len(e.players)
    hands = (tuple(e.hands) + (0,) * n)[:n]
    decks = (tuple(e.decks) + (0,) * n)[:n]
    cards = tuple(_card(c) for c in e.cards)
    return Board(
        started=True,
        ruleset=e.ruleset,
        players=tuple(e.players),
        hands=hands,
        decks=decks,
        cards=cards,
        skips=(0,) * n,
    )


def _turn_started(s: Board, e: ev.TurnStarted) -> Board:
    rs = _rs(s)
    nxt = next_turn(rs, s) if s.players else None
    if nxt is not None and nxt.skipped and nxt.player == e.player:
        s = s.with_seat("skips", e.player, -1)
    queue = s.queue[1:] if e.extra and s.queue and s.queue[0] == e.player else s.queue
    pending = s.pending
    carried = s.carried
    if rs.final_step_triggers_added == "AT_READY_WINDOW":
        pending, carried = pending + carried, ()
    return replace(
        s,
        turn=e.turn,
        current=e.player,
        extra=e.extra,
        rotation=s.rotation if e.extra else e.player,
        queue=queue,
        created=(),
        at="TURN",
        phase=None,
        step=None,
        moments=frozenset({"TURN_START"}),
        holder=None,
        passes=0,
        resolving=False,
        resources=0,
        discarded=False,
        pending=pending,
        carried=carried,
        skipped_run=s.skipped_run - {e.player},
    )


def _turn_skipped(s: Board, e: ev.TurnSkipped) -> Board:
    nxt = next_turn(_rs(s), s)
    if nxt.player == e.player and nxt.extra:
        s = replace(s, queue=s.queue[1:])
    elif nxt.player == e.player:
        s = replace(s, rotation=e.player)
    s = s.with_seat("skips", e.player, -1)
    return replace(s, skipped_run=s.skipped_run | {e.player})


def _phase(s: Board, e: ev.PhaseStarted) -> Board:
    moments = s.moments | {"PHASE_START"}
    if e.phase == "END":
        moments |= {"END_OF_TURN"}
    return replace(s, phase=e.phase, step=None, at=e.phase, moments=moments, holder=None)


def _step(s: Board, e: ev.StepStarted) -> Board:
    phase = {"READY": "START", "DRAW": "START", "COMBAT": "ACTION", "FINAL": "END"}[e.step]
    s = replace(s, step=e.step, phase=phase, at=e.step, moments=s.moments | {"STEP_START"})
    if e.step == "READY":
        return replace(s, inspired=frozenset(), inspired_players=frozenset())
    if e.step == "COMBAT":
        return replace(s, combat_windows=0, holder=None, passes=0)
    return s


def _ready_cards(s: Board, ids: tuple[str, ...]) -> Board:
    chosen = set(ids)
    cards = tuple(replace(c, exhausted=False) if c.id in chosen else c for c in s.cards)
    return replace(s, cards=cards)


def _readied(s: Board, e: ev.CardsReadied) -> Board:
    s = _ready_cards(s, e.cards)
    return replace(s, at="READIED") if s.at == "READY" else s


def _inspired(s: Board, e: ev.InspireReadied) -> Board:
    s = _ready_cards(s, e.cards)
    return replace(
        s,
        inspired=s.inspired | set(e.sources),
        inspired_players=s.inspired_players | {e.player},
    )


def _modifier(s: Board, e: ev.ModifierCreated) -> Board:
    m = Modifier(e.id, e.duration, e.kind, e.player, e.amount)
    s = replace(s, modifiers=(*s.modifiers, m))
    if e.kind == "SKIP_NEXT_TURN" and e.player is not None:
        s = s.with_seat("skips", e.player, 1)
    return s


def _triggered(s: Board, e: ev.AbilityTriggered) -> Board:
    t = Trigger(e.trigger, e.player, e.when)
    if s.at == "FINAL":
        return replace(s, carried=(*s.carried, Trigger(e.trigger, e.player, "FINAL")))
    rs = _rs(s)
    early = e.when == "TURN_START" or (e.when == "PHASE_START" and s.phase == "START")
    if early and rs.start_triggers_wait_for == "NEVER_ADDED":
        return replace(s, dropped=s.dropped | {e.trigger})
    return replace(s, pending=(*s.pending, t))


def _opened(s: Board, e: ev.PriorityWindowOpened) -> Board:
    holder = None if s.pending else s.current
    return replace(
        s,
        at="WINDOW",
        moments=frozenset(),
        holder=holder,
        holder_by=None,
        passes=0,
        resolving=False,
    )


def _trigger_added(s: Board, e: ev.TriggerAdded) -> Board:
    found = next((t for t in (*s.pending, *s.carried) if t.id == e.trigger), None)
    controller = found.controller if found is not None else (s.current or "")
    pending = tuple(t for t in s.pending if t.id != e.trigger)
    carried = tuple(t for t in s.carried if t.id != e.trigger)
    chain = (*s.chain, Link(e.trigger, controller))
    holder = s.holder
    if s.at == "WINDOW" and not pending and holder is None:
        holder = s.current
    return replace(s, pending=pending, carried=carried, chain=chain, holder=holder)


def _link_added(s: Board, e: ev.LinkAdded) -> Board:
    chain = (*s.chain, Link(e.link, e.player, e.instant))
    if e.kind == "CARD":
        s = s.with_seat("hands", e.player, -1)
    rs = _rs(s)
    main = not e.instant and e.kind == "CARD"
    holder = e.player
    if not main and rs.priority_after_link == "NEXT_PLAYER" and s.players:
        holder = s.after(e.player)
    by = None if main else "priority_after_link"
    return replace(s, chain=chain, holder=holder, holder_by=by, passes=0, added=s.added + 1)


def _passed(s: Board, e: ev.PriorityPassed) -> Board:
    holder = s.after(s.holder or e.player) if s.players else None
    passes = s.passes + 1
    resolving = passes >= len(s.players) and bool(s.chain)
    return replace(s, holder=holder, holder_by=None, passes=passes, resolving=resolving)


def _resolved(s: Board, e: ev.LinkResolved) -> Board:
    gone = next((link for link in reversed(s.chain) if link.id == e.link), None)
    chain = tuple(link for link in s.chain if link.id != e.link)
    cards = s.cards + tuple(_card(c) for c in e.enters_play)
    s = replace(s, chain=chain, cards=cards)
    rs = _rs(s)
    if rs.chain_resolution == "WHOLE_CHAIN" and chain:
        return s
    holder = s.current
    if rs.chain_resolution == "TOP_LINK_THEN_CONTROLLER" and gone is not None:
        holder = gone.controller
    return replace(s, holder=holder, holder_by="chain_resolution", passes=0, resolving=False)


def _exhausted(s: Board, e: ev.CardsExhausted) -> Board:
    chosen = set(e.cards)
    cards = tuple(replace(c, exhausted=True) if c.id in chosen else c for c in s.cards)
    return replace(s, cards=cards)


def _drawn(s: Board, e: ev.CardDrawn) -> Board:
    s = s.with_seat("hands", e.player, 1).with_seat("decks", e.player, -1)
    return replace(s, at="DRAWN") if s.at == "DRAW" else s


def _resource(s: Board, e: ev.ResourcePlaced) -> Board:
    s = s.with_seat("hands", e.player, -1)
    return replace(s, resources=s.resources + 1, holder=e.player, holder_by=None, passes=0)


def _combat(s: Board, e: ev.CombatDeclared) -> Board:
    return replace(s, at="COMBAT_DECLARED", holder=None, passes=0)


def _combat_ended(s: Board, e: ev.CombatStepEnded) -> Board:
    return replace(
        s,
        at="WINDOW",
        step=None,
        holder=s.current,
        holder_by="combat_model",
        passes=0,
        combat_windows=0,
        resolving=False,
    )


def _closed(s: Board, e: ev.PriorityWindowClosed) -> Board:
    s = replace(s, holder=None, passes=0, resolving=False)
    if s.step == "READY":
        return replace(s, at="READY_DONE")
    if s.step == "DRAW":
        return replace(s, at="START_DONE")
    if s.step == "COMBAT":
        return replace(s, at="COMBAT", combat_windows=s.combat_windows + 1)
    if s.phase == "ACTION":
        unjudged = _rs(s).action_phase_all_pass == "UNJUDGED"
        return replace(s, at="UNJUDGED" if unjudged else "ACTION_DONE")
    if s.phase == "END":
        return replace(s, at="END_DONE")
    return s


def _discarded(s: Board, e: ev.HandLimitDiscarded) -> Board:
    return replace(s.with_seat("hands", e.player, -len(e.cards)), discarded=True)


def _expired(s: Board, e: ev.ModifiersExpired) -> Board:
    gone = set(e.modifiers)
    return replace(s, modifiers=tuple(m for m in s.modifiers if m.id not in gone))


def _turn_ended(s: Board, e: ev.TurnEnded) -> Board:
    created = s.created
    if _rs(s).extra_turn_order == "CREATED_LAST_FIRST":
        created = tuple(reversed(created))
    lasting = tuple(m for m in s.modifiers if m.duration != "UNTIL_END_OF_TURN")
    return replace(
        s,
        queue=created + s.queue,
        created=(),
        at="BETWEEN",
        phase=None,
        step=None,
        moments=frozenset(),
        holder=None,
        passes=0,
        modifiers=lasting,
        first_turn_taken=True,
    )


def _lost(s: Board, player: str, victory: str) -> Board:
    rest = tuple(p for p in s.players if p != player)
    winner = rest[0] if len(rest) == 1 else None
    return replace(s, at="OVER", winner=winner, victory=victory, holder=None)


_FOLDS: dict[type, Callable[[Board, Any], Board]] = {
    ev.MatchStarted: _started,
    ev.TurnStarted: _turn_started,
    ev.TurnSkipped: _turn_skipped,
    ev.ExtraTurnCreated: lambda s, e: replace(s, created=(*s.created, e.player)),
    ev.PhaseStarted: _phase,
    ev.StepStarted: _step,
    ev.CardsReadied: _readied,
    ev.InspireReadied: _inspired,
    ev.ModifierCreated: _modifier,
    ev.AbilityTriggered: _triggered,
    ev.PriorityWindowOpened: _opened,
    ev.TriggerAdded: _trigger_added,
    ev.LinkAdded: _link_added,
    ev.PriorityPassed: _passed,
    ev.LinkResolved: _resolved,
    ev.CardsExhausted: _exhausted,
    ev.CardDrawn: _drawn,
    ev.ResourcePlaced: _resource,
    ev.CombatDeclared: _combat,
    ev.CombatStepEnded: _combat_ended,
    ev.PriorityWindowClosed: _closed,
    ev.HandLimitDiscarded: _discarded,
    ev.ModifiersExpired: _expired,
    ev.TurnEnded: _turn_ended,
    ev.Conceded: lambda s, e: _lost(s, e.player, "concession"),
    ev.PlayerLost: lambda s, e: _lost(s, e.player, "empty deck"),
}


def evolve(s: Board, e: Any) -> Board:
    """The board after ``e``, applied as played."""
    if s.at == "UNJUDGED" and type(e) is not ev.Conceded:
        return s
    step = _FOLDS.get(type(e))
    if step is None or (not s.started and type(e) is not ev.MatchStarted):
        return s
    if s.started and type(e) is ev.MatchStarted:
        return s
    return step(s, e)


def fold(s: Board, e: Any, found: tuple[Violation, ...]) -> tuple[Board, tuple[Violation, ...]]:
    """The fold as the replay loop calls it; never raises."""
    return evolve(s, e), found
