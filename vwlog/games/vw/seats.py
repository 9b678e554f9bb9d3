"""Vandaria Wars' seat authority (`vwlog.games.seats.Seats`): which decisions a player's token
may append, as one rule, and which records a seat could read in full.

Every decision event names the seat that makes it: its ``player`` (the engine's own actor,
`vwlog.events.acting_player`, which the rules hold against the awaited player), and the
controller of the objects and cards it acts with (the Followers that attack or block, the card
paid for, summoned, placed or discarded, the source of the damage it distributes). `AUTHORITY`
says, for every `Decision` class, which fields those are, and which other ids it only names (a
target, the attacker a block is assigned to). `authorize` holds a player's decisions to that
table before the rules see them:

* a decision of another seat, or of no seat (a judge's ruling, a fork marker), is refused
  (`SeatError`, 403): a concession for another seat comes only from a judge's ruling;
* every id a decision names is resolved against what the seat can see now (`seat_view`,
  the board as `vwlog.games.vw.boardview.board_view` shows it to that seat): an id the seat cannot
  see is refused exactly as an id that does not exist (`UnseenError`, one fixed message), so
  that refusals tell nothing of hidden cards;
* an object or card acted with must be the seat's own (`SeatError`);
* a decision is appended only while it is the seat's to make: the awaited decision, or one the
  rules accept from anybody at any time (a concession).

Only then do the rules check the decision; what they say to a player is rendered through
`vwlog.games.seats.SeatView.mask`, where a card the seat cannot see is "a hidden card".
Organisers' and judges' tokens are not held to a seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from pydantic import ValidationError
from pydantic_core import from_json

from vwlog.events import (
    EVENT_TYPES,
    GAME_EVENT,
    AttackDeclared,
    AttackersEnteredBattle,
    BaseEvent,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardSummoned,
    Conceded,
    CostPaid,
    DeckRevealed,
    DeploymentFinished,
    FollowerDamageAssigned,
    HandLimitDiscarded,
    JudgeRulingIssued,
    MatchForked,
    PriorityPassed,
    PropertyPlaced,
    SkillRegistered,
    SupplyChosen,
    acting_player,
)
from vwlog.events.base import Decision
from vwlog.games.seats import (
    Authorized,
    SeatError,
    SeatView,
    UnseenError,
    json_strings,
    refuse_other,
)
from vwlog.games.vw.boardview import board_view
from vwlog.games.vw.notation import VERBS, DecisionSyntaxError, parse_decision
from vwlog.model.errors import UsageError, VwlogError
from vwlog.model.text import msg
from vwlog.rules import check, expect

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from vwlog.events import AnyEvent
    from vwlog.model.state import MatchState

__all__ = [
    "AUTHORITY",
    "Authority",
    "authorize",
    "decision_classes",
    "readable",
    "seat_view",
]


@dataclass(frozen=True, slots=True)
class Authority:
    """Who makes one kind of decision, and what it names.

    Paths are field names; ``field[]`` is every item of a tuple field, ``field[].sub`` a
    field of every item."""

    seat: tuple[str, ...] = ()
    """Fields that name the deciding seat itself; empty for a decision no seat makes."""
    acts_with: tuple[str, ...] = ()
    """Ids of objects or cards the seat acts with: their controller (or, out of play, their
    owner) must be the deciding seat."""
    names: tuple[str, ...] = ()
    """Other ids the decision names (targets, attacked Territories, blocked attackers): the
    seat must be able to see them."""
    judge_only: bool = False
    """Made only by a judge (recorded through ``/rulings``), never by a player."""
    organiser_only: bool = False
    """Made only by the service for an organiser or judge (a fork marker)."""


AUTHORITY: Final[Mapping[type[Decision], Authority]] = {
    PriorityPassed: Authority(seat=("player",)),
    SupplyChosen: Authority(seat=("player",)),
    PropertyPlaced: Authority(seat=("player",), acts_with=("card",), names=("territory",)),
    DeploymentFinished: Authority(seat=("player",)),
    CostPaid: Authority(seat=("player",), acts_with=("card", "slid[]")),
    CardSummoned: Authority(seat=("player",), acts_with=("card",), names=("territory",)),
    SkillRegistered: Authority(seat=("player",), acts_with=("card",), names=("target",)),
    AttackersEnteredBattle: Authority(seat=("player",), acts_with=("followers[]",)),
    AttackDeclared: Authority(
        seat=("player",), acts_with=("attacks[].follower",), names=("attacks[].target",)
    ),
    BlockersEnteredBattle: Authority(seat=("player",), acts_with=("followers[]",)),
    BlocksAssigned: Authority(
        seat=("player",), acts_with=("blocks[].blocker",), names=("blocks[].attacker",)
    ),
    FollowerDamageAssigned: Authority(
        seat=("player",),
        acts_with=("allocations[].source",),
        names=("allocations[].recipient",),
    ),
    HandLimitDiscarded: Authority(seat=("player",), acts_with=("cards[]",)),
    DeckRevealed: Authority(seat=("player",)),
    Conceded: Authority(seat=("player",)),
    JudgeRulingIssued: Authority(judge_only=True),
    MatchForked: Authority(organiser_only=True),
}
"""Every decision class: the fields naming the seat that makes it, the ids it acts with
(their controller must be that seat) and the ids it only names. A decision class missing here
is refused to every player's token (and fails the table's test)."""


def decision_classes() -> set[type[Decision]]:
    """Every decision class of the event vocabulary the live service records (`EVENT_TYPES`,
    Vandaria Wars' with the core's): what `AUTHORITY` must cover. Other games' decisions are
    not recorded live, so they have no row."""
    return {cls for cls in EVENT_TYPES.values() if issubclass(cls, Decision)}


def _tag(cls: type[BaseEvent]) -> str:
    tag: str = cls.model_fields["type"].default
    return tag


_BY_TAG: Final[dict[str, type[Decision]]] = {_tag(cls): cls for cls in AUTHORITY}
"""The decision classes of `AUTHORITY` by type tag."""


def _values(item: Any, path: str) -> list[str]:
    """The strings at ``path`` (``field``, ``field[]``, ``field[].sub``) of an event or of its
    JSON object; absent or null fields give none."""
    head, _, rest = path.partition(".")
    many = head.endswith("[]")
    name = head[:-2] if many else head
    value = item.get(name) if isinstance(item, dict) else getattr(item, name, None)
    if value is None:
        return []
    items = list(value) if many and isinstance(value, (list, tuple)) else [value]
    if rest:
        return [v for i in items for v in _values(i, rest)]
    return [v for v in items if isinstance(v, str)]


# -- what a seat can see -----------------------------------------------------------------------


def seat_view(state: MatchState, seat: str) -> SeatView:
    """The view of ``seat`` (a player of the match) of ``state``.

    Raises:
        UnknownPlayerError: ``seat`` does not sit at this match's table.
    """
    view = board_view(state, player=seat)
    visible: set[str] = set()
    for p in view.players:
        for shown_card in [*(p.hand or []), *p.graveyard, *p.return_home, *p.stray]:
            visible.add(shown_card.id)
        for t in p.territories:
            visible.add(t.id)
            visible.update(g.id for g in t.guards)
    controllers: dict[str, str] = {}
    for o in view.register_:
        visible.add(o.id)
        controllers[o.id] = o.controller
        if o.card is not None:
            visible.add(o.card.id)
    for c in visible:
        if c in state.permanents:
            controllers[c] = state.permanents[c].controller
        elif c not in controllers and c in state.owners:
            controllers[c] = state.owners[c]
    hidden = frozenset(c for c in state.instances if c not in visible)
    shown: set[str] = set()
    for c in visible:
        if c in state.instances:
            defn = state.defn(c)
            shown.update((defn.name, defn.id))
    words: set[str] = set()
    names: set[str] = set()
    for c in hidden:
        defn = state.defn(c)
        words.update(w for w in (defn.name, defn.id) if w and w not in shown)
        if defn.name:
            names.add(defn.name)
    return SeatView(
        seat=seat,
        visible=frozenset(visible),
        controllers=controllers,
        hidden=hidden,
        hidden_names=tuple(sorted(names)),
        hidden_words=tuple(sorted(words, key=len, reverse=True)),
    )


# -- the check ---------------------------------------------------------------------------------


def authorize(
    state: MatchState,
    seat: str,
    decisions: Sequence[str],
    *,
    auto: int = 0,
    choices: Mapping[str, Sequence[str]] | None = None,
) -> Authorized:
    """Hold a player's append to its seat (see the module): the decisions as they are then
    played (words without a ``PLAYER:`` prefix are the seat's own), and the seat's view that
    what the rules answer is said through.

    Raises:
        SeatError: a decision (or an automatic one, or a choice) is not the seat's to make.
        UnseenError: a decision names an id the seat cannot see, or that does not exist.
        UsageError: a decision cannot be read (said without repeating it).
    """
    if auto:
        raise SeatError(msg("a player's token cannot ask for automatic decisions"))
    if len(decisions) > 1:
        raise SeatError(msg("a player's token appends one decision per call"))
    view = seat_view(state, seat)
    out = [_authorize_one(state, view, text) for text in decisions]
    controllers = {o.id: o.controller for o in state.register}
    if any(controllers.get(object_id) != seat for object_id in choices or {}):
        raise SeatError(msg("a player's token chooses only for its own objects on the register"))
    return Authorized(out, view, frozenset(_sent(decisions)))


def _sent(decisions: Iterable[str]) -> Iterator[str]:
    """The words of the decisions as sent (each word, and each part of a ``a:b`` word) and
    every string of a JSON one."""
    for text in decisions:
        try:
            raw = _loads(text)
        except ValueError:
            raw = None
        yield from json_strings(raw)
        for word in text.split():
            yield word
            yield from word.split(":")


def _authorize_one(state: MatchState, view: SeatView, text: str) -> str:
    """One decision: refused, or the text to play."""
    seat = view.seat
    stripped = text.strip()
    if stripped.startswith("{"):
        event = _json_decision(stripped, seat)
        _hold(state, view, [event])
        return stripped
    words = stripped.split()
    if words and words[0].endswith(":") and len(words[0]) > 1:
        claimed, words = words[0][:-1], words[1:]
        if claimed != seat:
            raise refuse_other(seat)
    if not words:
        raise DecisionSyntaxError(msg("empty decision"))
    # an id the seat cannot see reads exactly as an id that does not exist
    unseen = _absent(state, view)
    spoken = [":".join(unseen if p in view.hidden else p for p in w.split(":")) for w in words]
    normal = f"{seat}: {' '.join(spoken)}"
    rs = state.ruleset
    if rs is None:
        raise UsageError(msg("no decision is awaited now (the match is over or not started)"))
    try:
        # ids only: how a card's name is read could tell how many of it the hidden zones hold
        events = parse_decision(normal, rs, state, by_name=False)
    except UsageError as err:
        if "unknown card" in str(err):
            raise UnseenError() from None
        raise _unreadable(words[0]) from None
    _hold(state, view, events)
    return normal


def _absent(state: MatchState, view: SeatView) -> str:
    """A word that names nothing on this board (what a hidden id is read as)."""
    word = "?"
    while word in state.instances or word in view.visible:
        word += "?"
    return word


def _unreadable(verb: str) -> UsageError:
    found = VERBS.get(verb.lower())
    if found is None:
        return DecisionSyntaxError(
            msg(
                "the decision does not start with a verb of the notation (see the decisions "
                "open to this seat at /awaited)"
            )
        )
    return DecisionSyntaxError(
        msg("the decision does not fit its syntax '{syntax}'", syntax=found.syntax)
    )


def _json_decision(text: str, seat: str) -> AnyEvent:
    """A decision given as a JSON event, its seat checked before anything else is read."""
    try:
        raw = _loads(text)
    except ValueError:
        raise DecisionSyntaxError(msg("a decision in JSON must be one event object")) from None
    if not isinstance(raw, dict):
        raise DecisionSyntaxError(msg("a decision in JSON must be one event object"))
    tag = raw.get("type")
    cls = _BY_TAG.get(tag) if isinstance(tag, str) else None
    if cls is None:
        if isinstance(tag, str) and tag in EVENT_TYPES:
            raise SeatError(msg("a player's token appends decisions only, not what the rules do"))
        raise DecisionSyntaxError(msg("a decision in JSON needs the 'type' of a decision event"))
    rule = AUTHORITY[cls]
    if rule.judge_only:
        raise SeatError(msg("only a judge rules (POST /matches/{{id}}/rulings)"))
    if rule.organiser_only or not rule.seat:
        raise SeatError(msg("a player's token appends its seat's decisions only"))
    for path in rule.seat:
        for claimed in _values(raw, path) or [""]:
            if claimed != seat:
                raise refuse_other(seat)
    try:
        return GAME_EVENT.validate_python(raw)
    except ValidationError as err:
        first = err.errors()[0]
        loc = [str(p) for p in first["loc"]]
        known = len(loc) > 1 and loc[1] in cls.model_fields
        raise DecisionSyntaxError(
            msg(
                "the decision's field {field}: {problem}",
                field=repr(loc[1]) if known else "?",
                problem=(
                    msg("not a field of this event")
                    if first["type"] == "extra_forbidden"
                    else str(first["msg"]).lower()
                ),
            )
        ) from None


def _hold(state: MatchState, view: SeatView, events: Sequence[AnyEvent]) -> None:
    """The table's rule over parsed decisions, then the awaited seat."""
    seat = view.seat
    for event in events:
        cls = _BY_TAG.get(str(event.type))
        rule = AUTHORITY[cls] if cls is type(event) else None
        if rule is None or rule.judge_only or rule.organiser_only or not rule.seat:
            raise SeatError(msg("a player's token appends its seat's decisions only"))
        if acting_player(event) != seat or any(
            v != seat for path in rule.seat for v in _values(event, path)
        ):
            raise refuse_other(seat)
        used = [v for path in rule.acts_with for v in _values(event, path)]
        named = [v for path in rule.names for v in _values(event, path)]
        if any(v not in view.visible for v in (*used, *named)):
            raise UnseenError()
        if any(view.controllers.get(v) != seat for v in used):
            raise SeatError(
                msg(
                    "a player's token acts only with seat {seat}'s own cards and objects",
                    seat=repr(seat),
                )
            )
    rs = state.ruleset
    if rs is None or not events:
        return
    awaited = expect(rs, state).player
    if awaited != seat and check(rs, state, events[0]):
        raise SeatError(
            msg(
                "the decision awaited is {awaited}'s, not seat {viewer}'s",
                awaited=repr(awaited),
                viewer=repr(seat),
            )
        )


def readable(before: MatchState, after: MatchState, event: AnyEvent, seat: str) -> bool:
    """Whether ``seat`` could read the record of ``event`` in full when it was recorded: no
    card it names (its instance id, or a name or card id no visible card shares) was hidden
    from the seat both before and after it (a card the seat watched leave a public zone, or
    come into one, it could read)."""
    seen_after = _seen(after, seat)
    seen_before = _seen(before, seat)
    if seen_after is None:
        return False  # no view of a board the seat is not at: nothing is shown of it
    hidden = set(seen_after.hidden) | set(seen_after.hidden_words)
    visible = set(seen_after.visible)
    if seen_before is not None:
        hidden |= seen_before.hidden | set(seen_before.hidden_words)
        visible |= seen_before.visible
    named = set(json_strings(event.model_dump(mode="json", by_alias=True)))
    return not (named & (hidden - visible))


def _seen(state: MatchState, seat: str) -> SeatView | None:
    """``seat``'s view of ``state``; ``None`` before the seat sits at the table."""
    if not state.started:
        return None
    try:
        return seat_view(state, seat)
    except VwlogError:
        return None


def _loads(text: str) -> Any:
    """A JSON value, read as strictly as the service reads a log line: ``NaN`` and
    ``Infinity`` are no numbers of JSON, and a lone surrogate is no text.

    Raises:
        ValueError: ``text`` is no JSON value.
    """
    try:
        return from_json(text, allow_inf_nan=False)
    except (ValueError, TypeError):
        raise ValueError("not a JSON value") from None
