"""WoW TCG's views, as the core asks for them (`vwlog.games.Views`): a sentence for each event
(`description`, read against the board before it) and the board as a player may know it
(`board`, JSON-ready; `board_lines`, text).

Cards are named by their ids, as the log names them (a WoW TCG record carries no card pool). A
card drawn or placed as a resource is named only to its player (and in the full record); to
the others it is "a card". Values go into the sentences as they are: the renderers escape
them. The board keeps hands and libraries as counts only, so no viewer sees a hand's cards;
a player's view differs from the full record only in naming its viewer. Pure.
"""

from __future__ import annotations

from typing import Any, Literal, assert_never

from vwlog.events.core import MatchForked, MatchSealed, RecordSigned, core_said
from vwlog.games.common import BoardHead, View, known_viewer, ruleset_label, sees, view_kind
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board
from vwlog.model.text import Msg, joined_semicolons, msg

__all__ = [
    "PHASE_NAMES",
    "STEP_NAMES",
    "BoardView",
    "CardView",
    "LinkView",
    "ModifierView",
    "PlayerView",
    "TriggerView",
    "board",
    "board_lines",
    "board_view",
    "description",
]

PHASE_NAMES: dict[str, Msg] = {
    "START": msg("Start Phase"),
    "ACTION": msg("Action Phase"),
    "END": msg("End Phase"),
}
STEP_NAMES: dict[str, Msg] = {
    "READY": msg("Ready Step"),
    "DRAW": msg("Draw Step"),
    "COMBAT": msg("Combat Step"),
    "FINAL": msg("Final Step"),
}
_WHEN: dict[str, Msg] = {
    "TURN_START": msg("at the start of the turn"),
    "PHASE_START": msg("at the start of the phase"),
    "STEP_START": msg("at the start of the step"),
    "END_OF_TURN": msg("at the end of the turn"),
}


def _ids(ids: tuple[str, ...]) -> str:
    return ", ".join(ids)


# -- events ----------------------------------------------------------------------------------


def description(event: Any, before: Board, *, viewer: str | None = None) -> Msg:
    """What ``event`` did to the board ``before``, as ``viewer`` may know it (everything for
    ``None``).

    >>> str(description(ev.PriorityPassed(player="ana"), Board()))
    'ana passes priority'
    """
    match event:
        case ev.MatchStarted():
            return _started(event)
        case ev.TurnStarted() | ev.TurnSkipped() | ev.ExtraTurnCreated() | ev.TurnEnded():
            return _turns(event)
        case ev.PhaseStarted():
            return msg("{phase} begins", phase=PHASE_NAMES[event.phase])
        case ev.StepStarted():
            return msg("{step} begins", step=STEP_NAMES[event.step])
        case ev.PriorityWindowOpened() | ev.PriorityWindowClosed() | ev.PriorityPassed():
            return _priority(event, before)
        case ev.TriggerAdded() | ev.LinkAdded() | ev.LinkResolved() | ev.AbilityTriggered():
            return _chain(event, before)
        case ev.CardsReadied() | ev.InspireReadied() | ev.CardsExhausted():
            return _readied(event)
        case ev.ModifierCreated() | ev.ModifiersExpired():
            return _modifiers(event)
        case ev.CardDrawn() | ev.ResourcePlaced() | ev.HandLimitDiscarded():
            return _hand(event, viewer)
        case ev.CombatDeclared():
            return msg(
                "{player} attacks {target} with {attacker}",
                player=event.player,
                target=event.target,
                attacker=event.attacker,
            )
        case ev.CombatStepEnded():
            return msg("The combat step ends")
        case ev.Conceded():
            return msg("{player} concedes", player=event.player)
        case ev.PlayerLost():
            return msg("{player} loses: they drew from an empty deck", player=event.player)
        case MatchForked() | MatchSealed() | RecordSigned():
            return core_said(event)
        case _:
            assert_never(event)


def _started(event: ev.MatchStarted) -> Msg:
    return msg(
        "Match starts: {players}; {first} goes first; {cards} cards in play; ruleset {ruleset}",
        players=_ids(event.players),
        first=event.players[0],
        cards=len(event.cards),
        ruleset=ruleset_label(event.ruleset),
    )


def _turns(event: ev.TurnStarted | ev.TurnSkipped | ev.ExtraTurnCreated | ev.TurnEnded) -> Msg:
    match event:
        case ev.TurnStarted(extra=True):
            return msg(
                "Turn {turn} begins: an extra turn for {player}",
                turn=event.turn,
                player=event.player,
            )
        case ev.TurnStarted():
            return msg(
                "Turn {turn} begins: {player} is the current player",
                turn=event.turn,
                player=event.player,
            )
        case ev.TurnSkipped():
            if event.by:
                return msg(
                    "{player} skips a turn because of {source}",
                    player=event.player,
                    source=event.by,
                )
            return msg("{player} skips a turn", player=event.player)
        case ev.ExtraTurnCreated():
            if event.by:
                return msg(
                    "{player} gets an extra turn from {source}",
                    player=event.player,
                    source=event.by,
                )
            return msg("{player} gets an extra turn", player=event.player)
        case ev.TurnEnded():
            return msg("Turn {turn} ends", turn=event.turn)
        case _:
            assert_never(event)


def _priority(
    event: ev.PriorityWindowOpened | ev.PriorityWindowClosed | ev.PriorityPassed, s: Board
) -> Msg:
    match event:
        case ev.PriorityWindowOpened():
            if s.pending:
                return msg(
                    "A priority window opens; {n} triggered effects wait to go onto the chain",
                    n=len(s.pending),
                )
            if s.current:
                return msg("A priority window opens: {player} holds priority", player=s.current)
            return msg("A priority window opens")
        case ev.PriorityWindowClosed():
            return msg("The priority window closes")
        case ev.PriorityPassed():
            return msg("{player} passes priority", player=event.player)
        case _:
            assert_never(event)


def _chain(
    event: ev.TriggerAdded | ev.LinkAdded | ev.LinkResolved | ev.AbilityTriggered, s: Board
) -> Msg:
    match event:
        case ev.AbilityTriggered():
            return _triggered(event)
        case ev.TriggerAdded():
            found = next((t for t in (*s.pending, *s.carried) if t.id == event.trigger), None)
            if found is not None:
                return msg(
                    "Triggered effect {trigger} of {player} goes onto the chain",
                    trigger=event.trigger,
                    player=found.controller,
                )
            return msg("Triggered effect {trigger} goes onto the chain", trigger=event.trigger)
        case ev.LinkAdded():
            return _link_added(event)
        case ev.LinkResolved():
            return _link_resolved(event)
        case _:
            assert_never(event)


def _triggered(event: ev.AbilityTriggered) -> Msg:
    what: Msg | str
    if event.card and event.ability:
        what = msg("{ability} of {card}", ability=event.ability, card=event.card)
    else:
        what = event.card or event.ability or msg("An effect")
    text = msg(
        "{what} triggers for {player} as {trigger}",
        what=what,
        player=event.player,
        trigger=event.trigger,
    )
    when = _WHEN.get(event.when)
    return text if when is None else msg("{triggered} {when}", triggered=text, when=when)


def _link_added(event: ev.LinkAdded) -> Msg:
    if event.kind == "POWER":
        added = msg(
            "{player} uses {power} as link {link}",
            player=event.player,
            power=(
                msg("{ability} of {card}", ability=event.ability, card=event.card)
                if event.ability
                else event.card
            ),
            link=event.link,
        )
    else:
        added = msg(
            "{player} plays {card} as link {link}",
            player=event.player,
            card=event.card,
            link=event.link,
        )
    if event.targets:
        added = msg("{added}, targeting {targets}", added=added, targets=_ids(event.targets))
    if not event.instant:
        added = msg("{added} (not an instant)", added=added)
    return added


def _link_resolved(event: ev.LinkResolved) -> Msg:
    parts: list[Msg | str] = list(event.effects)
    if event.enters_play:
        parts.append(
            msg(
                "{cards} enters play",
                cards=_ids(tuple(c.id for c in event.enters_play)),
            )
        )
    if not parts:
        return msg("Link {link} resolves", link=event.link)
    return msg("Link {link} resolves: {what}", link=event.link, what=joined_semicolons(parts))


def _readied(event: ev.CardsReadied | ev.InspireReadied | ev.CardsExhausted) -> Msg:
    match event:
        case ev.CardsReadied():
            if not event.cards:
                return msg("{player} has no exhausted card to ready", player=event.player)
            return msg("{player} readies {cards}", player=event.player, cards=_ids(event.cards))
        case ev.InspireReadied():
            return msg(
                "{player} readies {cards} with Inspire from {sources}",
                player=event.player,
                cards=_ids(event.cards),
                sources=_ids(event.sources),
            )
        case ev.CardsExhausted():
            return msg("Exhausted: {cards}", cards=_ids(event.cards))
        case _:
            assert_never(event)


def _modifiers(event: ev.ModifierCreated | ev.ModifiersExpired) -> Msg:
    if isinstance(event, ev.ModifiersExpired):
        if not event.modifiers:
            return msg("No modifier ends")
        return msg("Modifiers end: {modifiers}", modifiers=_ids(event.modifiers))
    text: Msg
    if event.kind == "SKIP_NEXT_TURN" and event.player:
        text = msg(
            "Modifier {modifier}: {player} skips their next turn",
            modifier=event.id,
            player=event.player,
        )
    elif event.kind == "MAX_HAND_SIZE" and event.player and event.amount is not None:
        text = msg(
            "Modifier {modifier}: the maximum hand size of {player} is {amount}",
            modifier=event.id,
            player=event.player,
            amount=event.amount,
        )
    elif event.kind == "WHEN_TURN_BEGINS":
        text = msg("Modifier {modifier} acts when a turn begins", modifier=event.id)
    else:
        text = msg("Modifier {modifier} is created", modifier=event.id)
    if event.source:
        text = msg("{modifier} (from {source})", modifier=text, source=event.source)
    if event.duration == "UNTIL_END_OF_TURN":
        text = msg("{modifier} until the end of the turn", modifier=text)
    return text


def _hand(
    event: ev.CardDrawn | ev.ResourcePlaced | ev.HandLimitDiscarded, viewer: str | None
) -> Msg:
    match event:
        case ev.CardDrawn():
            if event.card and sees(viewer, event.player):
                return msg("{player} draws {card}", player=event.player, card=event.card)
            return msg("{player} draws a card", player=event.player)
        case ev.ResourcePlaced():
            if sees(viewer, event.player):
                return msg(
                    "{player} places {card} as a resource", player=event.player, card=event.card
                )
            return msg("{player} places a card as a resource", player=event.player)
        case ev.HandLimitDiscarded():
            return msg(
                "{player} discards down to the maximum hand size: {cards}",
                player=event.player,
                cards=_ids(event.cards),
            )
        case _:
            assert_never(event)


# -- the board -------------------------------------------------------------------------------


class CardView(View):
    """A card in play."""

    id: str
    kind: str
    """``hero``, ``ally``, ``weapon``, …"""
    exhausted: bool
    """Exhausted (``false``: ready)."""
    inspire: str | None
    """The kind of card its Inspire readies, if it has Inspire."""


class PlayerView(View):
    """One player: the cards in play, the hand and the library as counts."""

    id: str
    seat: int
    """Seat, 0-based, clockwise from the first player."""
    current: bool
    """Whether it is this player's turn."""
    hand_size: int
    """Cards in hand."""
    library_size: int
    """Cards in the library (deck)."""
    skips: int
    """Turns still to be skipped."""
    max_hand_size: int
    """The maximum hand size, modifiers included."""
    cards: list[CardView]
    """Cards in play this player controls, in the order they entered play."""


class LinkView(View):
    """A link of the chain."""

    id: str
    controller: str
    """Who added it."""
    instant: bool
    """Whether it was added as an instant."""


class TriggerView(View):
    """A triggered effect waiting for a window to go onto the chain."""

    id: str
    controller: str
    """Who controls the effect."""
    when: str
    """The moment it triggered at (``FINAL``: in the final step, for the next ready step)."""


class ModifierView(View):
    """A modifier in force."""

    id: str
    kind: str
    """``WHEN_TURN_BEGINS``, ``SKIP_NEXT_TURN``, ``MAX_HAND_SIZE`` or ``OTHER``."""
    duration: str
    """``UNTIL_END_OF_TURN``, ``PERMANENT`` or ``OTHER``."""
    player: str | None
    """Whom a skip or a hand size modifier is about."""
    amount: int | None
    """The maximum hand size it sets."""


class BoardView(BoardHead):
    """The WoW TCG board at one position of a match (view version 1)."""

    game: Literal["wowtcg"] = "wowtcg"
    """The game."""
    started: bool
    """Whether the match has started."""
    turn: int
    """Turn number (0 before the first turn)."""
    active: str | None
    """The current player."""
    extra: bool
    """Whether the current turn is an extra turn."""
    phase: str | None
    """``START``, ``ACTION`` or ``END``."""
    step: str | None
    """``READY``, ``DRAW``, ``COMBAT`` or ``FINAL``."""
    priority: str | None
    """Who holds priority, when a window is open."""
    passes: int
    """Consecutive passes in the open window."""
    chain: list[LinkView]
    """The chain, top first (the first link resolves first)."""
    pending: list[TriggerView]
    """Triggered effects waiting for a window, in the order they triggered."""
    modifiers: list[ModifierView]
    """Modifiers in force, oldest first."""
    resources_this_turn: int
    """Resources placed in the current turn."""
    extra_turns: list[str]
    """Players of the extra turns still to come, next first."""
    players: list[PlayerView]
    """Players in seat order."""
    winner: str | None
    """The winner, once the match is won."""
    victory: str | None
    """How it was won (``concession``, ``empty deck``)."""


def board_view(state: Board, *, player: str | None = None, seq: int | None = None) -> BoardView:
    """The board as a `BoardView`, as ``player`` may know it (`UnknownPlayerError`: a player
    not at the match)."""
    s = state
    known_viewer(s.players, player)
    players = [
        PlayerView(
            id=p,
            seat=i,
            current=p == s.current,
            hand_size=s.hands[i] if i < len(s.hands) else 0,
            library_size=s.decks[i] if i < len(s.decks) else 0,
            skips=s.skips[i] if i < len(s.skips) else 0,
            max_hand_size=s.max_hand(p),
            cards=[
                CardView(id=c.id, kind=c.kind, exhausted=c.exhausted, inspire=c.inspire)
                for c in s.cards
                if c.controller == p
            ],
        )
        for i, p in enumerate(s.players)
    ]
    return BoardView(
        seq=seq,
        viewer=player,
        view=view_kind(player),
        started=s.started,
        turn=s.turn,
        active=s.current,
        extra=s.extra,
        phase=s.phase,
        step=s.step,
        priority=s.holder,
        passes=s.passes,
        chain=[
            LinkView(id=k.id, controller=k.controller, instant=k.instant) for k in reversed(s.chain)
        ],
        pending=[
            TriggerView(id=t.id, controller=t.controller, when=t.when)
            for t in (*s.pending, *s.carried)
        ],
        modifiers=[
            ModifierView(
                id=m.id, kind=m.kind, duration=m.duration, player=m.player, amount=m.amount
            )
            for m in s.modifiers
        ],
        resources_this_turn=s.resources,
        extra_turns=list(s.queue),
        players=players,
        winner=s.winner,
        victory=s.victory,
    )


def board(state: Board, *, player: str | None = None, seq: int | None = None) -> dict[str, Any]:
    """The board as JSON-ready data in the shape of `BoardView` (`board_view`: raises
    `UnknownPlayerError` for a player not at the match)."""
    return board_view(state, player=player, seq=seq).model_dump(mode="json")


# -- the text board --------------------------------------------------------------------------


def board_lines(state: Board) -> list[Msg]:
    """The board as lines of text, each a template and its values (``vwlog replay --board``,
    ``vwlog show``)."""
    if not state.started:
        return [msg("(no match started)")]
    b = board(state)
    lines = [
        msg(
            "Turn {turn} · {player}{extra} · {phase}",
            turn=b["turn"],
            player=b["active"] or "-",
            extra=msg(" (extra turn)") if b["extra"] else "",
            phase=(
                msg("{phase}, {step}", phase=PHASE_NAMES[b["phase"]], step=STEP_NAMES[b["step"]])
                if b["phase"] and b["step"]
                else PHASE_NAMES[b["phase"]]
                if b["phase"]
                else "-"
            ),
        ),
        msg("priority {player} · passes {passes}", player=b["priority"] or "-", passes=b["passes"]),
        msg(
            "chain (top first): {links}",
            links=", ".join(f"{k['id']} ({k['controller']})" for k in b["chain"]) or "-",
        ),
    ]
    if b["pending"]:
        lines.append(msg("waiting triggers: {ids}", ids=", ".join(t["id"] for t in b["pending"])))
    if b["modifiers"]:
        lines.append(msg("modifiers: {ids}", ids=", ".join(m["id"] for m in b["modifiers"])))
    for p in b["players"]:
        lines.append(
            msg(
                "{mark}{player}: hand {hand} (max {most}) · library {library}",
                mark="*" if p["current"] else " ",
                player=p["id"],
                hand=p["hand_size"],
                most=p["max_hand_size"],
                library=p["library_size"],
            )
        )
        for card in p["cards"]:
            ready = msg("exhausted") if card["exhausted"] else msg("ready")
            lines.append(
                msg("    {card} ({kind}, {ready})", card=card["id"], kind=card["kind"], ready=ready)
            )
    lines.append(msg("resources placed this turn: {n}", n=b["resources_this_turn"]))
    if b["winner"]:
        lines.append(
            msg("{winner} wins: {victory}", winner=b["winner"], victory=b["victory"] or "-")
        )
    return lines
