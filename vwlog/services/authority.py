"""Seat-bound authority: which decisions a player's token may append, as one rule.

Every decision event names the seat that makes it: its ``player`` (the engine's own actor,
`vwlog.events.acting_player`, which the rules hold against the awaited player), and the
controller of the objects and cards it acts with (the Followers that attack or block, the card
paid for, summoned, placed or discarded, the source of the damage it distributes). `AUTHORITY`
says, for every `Decision` class, which fields those are, and which other ids it only names (a
target, the attacker a block is assigned to). `authorize` holds a player's decisions to that
table before the rules see them:

* a decision of another seat, or of no seat (a judge's ruling, a fork marker), is refused
  (`SeatError`, 403): a concession for another seat comes only from a judge's ruling;
* every id a decision names is resolved against what the seat can see now (`SeatView`, the
  board as `vwlog.games.vw.boardview.board_view` shows it to that seat): an id the seat cannot
  see is refused exactly as an id that does not exist (`UnseenError`, one fixed message), so
  that refusals tell nothing of hidden cards;
* an object or card acted with must be the seat's own (`SeatError`);
* a decision is appended only while it is the seat's to make: the awaited decision, or one the
  rules accept from anybody at any time (a concession).

Only then do the rules check the decision; what they say to a player is rendered through
`SeatView.mask`, where a card the seat cannot see is "a hidden card". Organisers' and judges'
tokens are not held to a seat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

import orjson
from pydantic import ValidationError

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
from vwlog.games.vw.boardview import board_view
from vwlog.games.vw.notation import VERBS, DecisionSyntaxError, parse_decision
from vwlog.model.errors import UsageError, VwlogError
from vwlog.model.text import Msg, msg
from vwlog.rules import check, expect

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from vwlog.events import AnyEvent
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState

__all__ = [
    "AUTHORITY",
    "HIDDEN_CARD",
    "UNSEEN",
    "Authority",
    "Authorized",
    "SeatError",
    "SeatView",
    "UnseenError",
    "authorize",
    "decision_classes",
    "json_strings",
    "masked",
    "refuse_other",
]

HIDDEN_CARD: Final = msg("a hidden card")
"""What a player is told in place of a card its seat cannot see."""


class SeatError(VwlogError, PermissionError):
    """A player's token offered a decision that is not its seat's to make (403)."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(str(reason))
        self.reason = reason

    def text(self) -> Msg:
        """The reason, as a template (it names seats only, never cards)."""
        return self.reason


class UnseenError(UsageError):
    """A player's decision names an id its seat cannot see, or one that does not exist: the
    two are refused alike (422), without the id."""

    def __init__(self) -> None:
        super().__init__(UNSEEN)

    def text(self) -> Msg:
        """The one message of every such refusal."""
        return UNSEEN


UNSEEN: Final = msg(
    "the decision names a card or object that is not in this seat's view (its own hand and "
    "the public zones) or does not exist"
)


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


@dataclass(frozen=True)
class SeatView:
    """What one seat can see of the board now, and how to keep the rest out of a sentence."""

    seat: str
    visible: frozenset[str]
    """Ids the seat can see: its own hand, cards in play, on the register and in Graveyards,
    and the register's objects."""
    controllers: Mapping[str, str]
    """Who controls (in play, on the register) or owns (elsewhere) each visible id."""
    hidden: frozenset[str]
    """Every card instance of the match the seat cannot see."""
    hidden_names: tuple[str, ...]
    """The names of hidden cards (said with their ids, they are hidden too)."""
    hidden_words: tuple[str, ...]
    """The names and card ids of hidden cards that no visible card shares, longest first."""

    @classmethod
    def of(cls, state: MatchState, seat: str) -> SeatView:
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
        return cls(
            seat=seat,
            visible=frozenset(visible),
            controllers=controllers,
            hidden=hidden,
            hidden_names=tuple(sorted(names)),
            hidden_words=tuple(sorted(words, key=len, reverse=True)),
        )

    def mask(self, text: str, hidden_card: str, *, sent: Iterable[str] = ()) -> str:
        """``text`` with every hidden card (its id, with its name after it, or its name or card
        id alone where no visible card shares it) said as ``hidden_card``; but for the words in
        ``sent``: what the player wrote itself comes back as it was written, exactly as an id
        that does not exist would."""
        kept = frozenset(sent)
        ids = self.hidden - kept
        words = tuple(w for w in self.hidden_words if w not in kept)
        if not text or not (ids or words):
            return text
        return _masker(ids, self.hidden_names, words).sub(hidden_card, text)

    def mask_all(
        self, texts: Iterable[str | None], hidden_card: str, *, sent: Iterable[str] = ()
    ) -> list[str | None]:
        """`mask` over several texts (``None`` stays ``None``)."""
        kept = tuple(sent)
        return [None if t is None else self.mask(t, hidden_card, sent=kept) for t in texts]


def _masker(ids: frozenset[str], names: tuple[str, ...], words: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for every hidden id (and any hidden card's name after it) and every
    hidden word."""
    ident = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) or r"(?!)"
    named = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    tail = rf"(?: (?:{named}))?" if named else ""
    alone = "|".join(re.escape(w) for w in words) or r"(?!)"
    return re.compile(rf"(?<![\w-])(?:(?:{ident}){tail}|(?:{alone}))(?![\w-])")


# -- the check ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Authorized:
    """A player's append that its seat may make."""

    decisions: list[Any]
    """The decisions to play (words with the seat's prefix, JSON as given; another game's:
    its events, read in its notation, `vwlog.services.seats`)."""
    view: SeatView
    """The seat's view, to say the rules' answer through."""
    sent: frozenset[str]
    """Every word and JSON string the player sent (echoed back, they are not masked)."""


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
    view = SeatView.of(state, seat)
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
            raw = orjson.loads(text)
        except orjson.JSONDecodeError:
            raw = None
        yield from json_strings(raw)
        for word in text.split():
            yield word
            yield from word.split(":")


def json_strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value (keys left out)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, (list, tuple)):
            todo.extend(item)


def refuse_other(seat: str) -> SeatError:
    """The refusal of a decision that is not ``seat``'s own."""
    return SeatError(
        msg(
            "a player's token makes only its own seat's decisions (seat {seat}); another "
            "seat's decision, a concession included, comes only from that seat or a judge's "
            "ruling",
            seat=repr(seat),
        )
    )


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
        raw = orjson.loads(text)
    except orjson.JSONDecodeError:
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


def masked(
    view: SeatView, violation: Violation, message: str, hidden_card: str, sent: Iterable[str]
) -> Violation:
    """``violation`` as its seat may be told it: ``message`` (its sentence, already said in the
    reader's language) and its expected and actual values with every card the seat cannot see
    said as ``hidden_card`` (but for the words the player sent, ``sent``)."""
    kept = tuple(sent)
    expected, actual = view.mask_all((violation.expected, violation.actual), hidden_card, sent=kept)
    return replace(
        violation,
        message=view.mask(message, hidden_card, sent=kept),
        expected=expected,
        actual=actual,
        text=None,
    )
