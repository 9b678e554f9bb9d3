"""One notation for decisions: words a player types, parsed into events and formatted back.

A verb table in the spirit of python-chess's ``push_san``: each verb has a syntax line, a parser
(words → the events it stands for, read against the board) and a formatter (a decision event →
its words). `parse_decision` and `format_decision` are inverses on every decision a legal match
contains (tested over every sample and generated matches)::

    pass                      blocks p2-007:p1-014
    supply GOLD_2             damage p1-014:p2-007:3
    summon p1-003 p1-001      p2: concede

A decision is made by the player whose decision is awaited; ``PLAYER: …`` names another (a
concession, a reveal, or a test that wants an out-of-turn decision refused). Compact JSON
(``{"type":"priority_passed","player":"p1"}``) is accepted anywhere, and is what
`format_decision` falls back to for an event the words cannot say exactly (an illegal one).

Compound verbs: ``summon`` and ``skill`` pay the cost and register in one go (two events); when
the cost is already paid (a registration is awaited) they register only. ``pay`` is the cost
alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import ValidationError

from vwlog import events as ev
from vwlog.model.errors import (
    UnknownPlayerError,
    UnknownVerbError,
    UnreadableDecisionError,
    UsageError,
)
from vwlog.model.text import closest, did_you_mean, msg
from vwlog.model.types import PlacementReason, SupplyOption
from vwlog.rules import Expect, expect, legal_decisions
from vwlog.rules.common import next_object_id

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

__all__ = [
    "VERBS",
    "DecisionSyntaxError",
    "UnknownDecisionError",
    "Verb",
    "card_names",
    "decision_syntax",
    "format_decision",
    "named_decision",
    "parse_decision",
]


class DecisionSyntaxError(UnreadableDecisionError):
    """A decision's words cannot be read, or name nothing that fits the board."""


class UnknownDecisionError(DecisionSyntaxError, UnknownVerbError):
    """A decision whose first word is no verb (also the library's `UnknownVerbError`, which
    the command line words with where to read the notation); the verb it is closest to, if
    any, is suggested."""


@dataclass(frozen=True, slots=True)
class _Board:
    """What a verb reads its words against."""

    ruleset: Ruleset
    state: MatchState
    expected: Expect
    player: str
    by_name: bool = True
    """Whether a card may be named by its name (see `_by_name`)."""

    def next_object(self) -> str:
        return next_object_id(self.state)


@dataclass(frozen=True, slots=True)
class Verb:
    """One word of the notation."""

    name: str
    syntax: str
    """``summon CARD [TERRITORY]``: the words it takes."""
    help: str
    parse: Callable[[_Board, list[str]], list[ev.AnyEvent]]


def _pairs(words: Sequence[str], what: str) -> list[tuple[str, str]]:
    out = []
    for w in words:
        left, sep, right = w.partition(":")
        if not sep or not left or not right or ":" in right:
            raise DecisionSyntaxError(f"{w!r} is not {what}")
        out.append((left, right))
    return out


def _at_most(words: Sequence[str], n: int) -> None:
    if len(words) > n:
        raise DecisionSyntaxError(f"unexpected words {' '.join(words[n:])!r}")


def _pass(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 0)
    return [ev.PriorityPassed(player=b.player)]


def _supply(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 1)
    return [ev.SupplyChosen(player=b.player, option=SupplyOption(words[0].upper()))]


def _known_ids(state: MatchState) -> set[str]:
    """Every card (and Territory) id the match knows."""
    return {*state.instances, *state.permanents}


def _unknown(what: str, known: Iterable[str]) -> DecisionSyntaxError:
    """The error for an id the match does not know, suggesting the closest known one."""
    return DecisionSyntaxError(
        did_you_mean(msg("unknown card {card}", card=repr(what)), closest(what, known))
    )


def _slug(name: str) -> str:
    return "-".join(name.lower().split())


def _by_name(b: _Board, word: str) -> str | None:
    """The one card a name stands for (the card's name with hyphens for spaces, or its
    definition id, in any case): the only copy in the match, else the only one on the board
    or in the deciding player's hand. ``None`` if no card has this name.

    Raises:
        DecisionSyntaxError: several cards have this name, none of them singled out.
    """
    state, slug = b.state, word.lower()
    copies = [
        i
        for i, card in state.instances.items()
        if (d := state.cards.get(card)) is not None and slug in (d.id.lower(), _slug(d.name))
    ]
    if len(copies) <= 1:
        return copies[0] if copies else None
    hand = set(state.player(b.player).hand) if b.player in state.seats else set()
    near = [i for i in copies if i in state.permanents or i in hand]
    if len(near) == 1:
        return near[0]
    raise DecisionSyntaxError(
        msg(
            "card name {name} is ambiguous: write one of {cards}",
            name=repr(word),
            cards=", ".join(near or copies),
        )
    )


def _card(b: _Board, word: str) -> str:
    """A card id a decision names (or, where it singles one out, a card's name: see
    `_by_name`), refused with the closest known id if the match knows none such."""
    known = _known_ids(b.state)
    if word in known:
        return word
    named = _by_name(b, word) if b.by_name else None
    if named is not None:
        return named
    raise _unknown(word, known)


def _cards(b: _Board, words: Iterable[str]) -> tuple[str, ...]:
    return tuple(_card(b, w) for w in words)


def _target(b: _Board, word: str) -> str:
    """A skill's target: a card or a player."""
    known = _known_ids(b.state) | set(b.state.seats)
    if word in known:
        return word
    raise _unknown(word, known)


def _cost_of_card(b: _Board, card: str) -> ev.CostPaid:
    card = _card(b, card)
    try:
        gold = b.state.defn(card).cost
    except KeyError as err:
        raise DecisionSyntaxError(f"unknown card {card!r}") from err
    return ev.CostPaid(player=b.player, card=card, gold=gold)


def _cost_of_skill(b: _Board, card: str, skill_id: str) -> ev.CostPaid:
    card = _card(b, card)
    if card not in b.state.instances:
        raise DecisionSyntaxError(f"unknown card {card!r}")
    definition = b.state.defn(card)
    skill = definition.skill(skill_id)
    if skill is None:
        hint = closest(skill_id, [s.id for s in definition.skills])
        if hint is not None:
            said = msg("{card} has no skill {skill}", card=card, skill=repr(skill_id))
            raise DecisionSyntaxError(did_you_mean(said, hint))
        raise DecisionSyntaxError(f"{card} has no skill {skill_id!r}")
    return ev.CostPaid(
        player=b.player,
        card=card,
        skill=skill_id,
        gold=skill.cost_gold,
        slid=(card,) if skill.cost_slide else (),
    )


def _paid(b: _Board, card: str, skill: str | None) -> bool:
    """Whether this cost is paid and its registration awaited."""
    pending = b.state.pending_cost
    return (
        str(b.expected.kind) == "registration"
        and pending is not None
        and pending.card == card
        and pending.skill == skill
    )


def _pay(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 2)
    if len(words) == 2:
        return [_cost_of_skill(b, words[0], words[1])]
    return [_cost_of_card(b, words[0])]


def _summon(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 2)
    card = _card(b, words[0])
    territory = _card(b, words[1]) if len(words) > 1 else None
    summoned = ev.CardSummoned(
        player=b.player, card=card, object_id=b.next_object(), territory=territory
    )
    if _paid(b, card, None):
        return [summoned]
    return [_cost_of_card(b, card), summoned]


def _skill(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 3)
    card, skill_id = _card(b, words[0]), words[1]
    registered = ev.SkillRegistered(
        player=b.player,
        card=card,
        skill=skill_id,
        object_id=b.next_object(),
        target=_target(b, words[2]) if len(words) > 2 else None,
    )
    if _paid(b, card, skill_id):
        return [registered]
    return [_cost_of_skill(b, card, skill_id), registered]


def _placement_reason(b: _Board) -> PlacementReason:
    if str(b.expected.kind) == "stray":
        return PlacementReason.NEW_TERRITORY_STRAY
    if str(b.state.phase) == "PREP":
        return PlacementReason.UNSLIDE_STEP
    return PlacementReason.DEPLOY_PHASE


def _place(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 2)
    card, territory = _card(b, words[0]), _card(b, words[1])
    return [
        ev.PropertyPlaced(
            player=b.player, card=card, territory=territory, reason=_placement_reason(b)
        )
    ]


def _done(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 0)
    return [ev.DeploymentFinished(player=b.player)]


def _attackers(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    return [ev.AttackersEnteredBattle(player=b.player, followers=_cards(b, words))]


def _declare(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    attacks = tuple(
        ev.Attack(follower=_card(b, f), target=_card(b, t))
        for f, t in _pairs(words, "FOLLOWER:TERRITORY")
    )
    return [ev.AttackDeclared(player=b.player, attacks=attacks)]


def _blockers(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    return [ev.BlockersEnteredBattle(player=b.player, followers=_cards(b, words))]


def _blocks(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    blocks = tuple(
        ev.Block(blocker=_card(b, x), attacker=_card(b, y))
        for x, y in _pairs(words, "BLOCKER:ATTACKER")
    )
    return [ev.BlocksAssigned(player=b.player, blocks=blocks)]


def _damage(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    if words:
        allocations = []
        for w in words:
            parts = w.split(":")
            if len(parts) != 3 or not parts[0] or not parts[1] or not parts[2].isdigit():
                raise DecisionSyntaxError(f"{w!r} is not SOURCE:RECIPIENT:AMOUNT")
            allocations.append(
                ev.Allocation(
                    source=_card(b, parts[0]), recipient=_card(b, parts[1]), amount=int(parts[2])
                )
            )
        return [ev.FollowerDamageAssigned(player=b.player, allocations=tuple(allocations))]
    if str(b.expected.kind) != "damage":
        raise DecisionSyntaxError(
            f"no damage distribution is open now ({b.player} must decide: {b.expected.kind})"
        )
    options = list(legal_decisions(b.ruleset, b.state, b.player))
    if not options:
        raise DecisionSyntaxError("no damage distribution is open now")
    return [options[0]]


def _discard(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    return [ev.HandLimitDiscarded(player=b.player, cards=_cards(b, words))]


def _concede(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 0)
    return [ev.Conceded(player=b.player)]


def _reveal(b: _Board, words: list[str]) -> list[ev.AnyEvent]:
    _at_most(words, 1)
    return [ev.DeckRevealed(player=b.player, salt=words[0])]


_TABLE: tuple[Verb, ...] = (
    Verb("pass", "pass", "pass priority", _pass),
    Verb(
        "supply",
        "supply CARDS_2|GOLD_2|CARD_1_GOLD_1|FIRST_TURN_CARD_1|FIRST_TURN_GOLD_1",
        "choose the supply package",
        _supply,
    ),
    Verb(
        "summon",
        "summon CARD [TERRITORY]",
        "pay the cost and summon (Property into TERRITORY)",
        _summon,
    ),
    Verb(
        "skill",
        "skill CARD SKILL [TARGET]",
        "pay the cost and register an active skill",
        _skill,
    ),
    Verb("pay", "pay CARD [SKILL]", "pay a summon's or a skill's cost only", _pay),
    Verb(
        "place",
        "place CARD TERRITORY",
        "place or move Property (Unslide step, Deploy Phase, Stray)",
        _place,
    ),
    Verb("done", "done", "finish deploying", _done),
    Verb(
        "attackers",
        "attackers [CARD...]",
        "choose attacking Followers (none: no attack)",
        _attackers,
    ),
    Verb("declare", "declare CARD:TERRITORY...", "declare the attack", _declare),
    Verb("blockers", "blockers [CARD...]", "choose blocking Followers", _blockers),
    Verb("blocks", "blocks BLOCKER:ATTACKER...", "assign blocks", _blocks),
    Verb(
        "damage",
        "damage [SOURCE:RECIPIENT:N...]",
        "distribute damage (no words: the first legal way, lethal first)",
        _damage,
    ),
    Verb("discard", "discard CARD...", "discard down to the hand limit", _discard),
    Verb("concede", "concede", "concede the match", _concede),
    Verb("reveal", "reveal SALT", "reveal the salt of a deck commitment", _reveal),
)

VERBS: dict[str, Verb] = {v.name: v for v in _TABLE}
"""The notation's verbs, by name."""


def decision_syntax() -> str:
    """The notation, one verb a line (for help texts)."""
    width = 32
    lines = [
        "Decisions are words, for the player whose decision is awaited ('PLAYER: WORDS' decides",
        'for another), or compact JSON events: {"type":"priority_passed","player":"p1"}',
    ]
    for v in _TABLE:
        if len(v.syntax) < width:
            lines.append(f"  {v.syntax:<{width}}{v.help}")
        else:  # too long for the column: the help goes under it
            lines += [f"  {v.syntax}", f"  {'':<{width}}{v.help}"]
    return "\n".join(lines)


def parse_decision(
    text: str, ruleset: Ruleset, state: MatchState, *, by_name: bool = True
) -> list[ev.AnyEvent]:
    """The events a decision's words stand for, read against ``state`` (one, or two for a
    ``summon``/``skill`` whose cost is not paid yet). With ``by_name`` false, cards are named
    by id only (a seat that may not see every card must not learn, from how a name is read,
    how many cards of that name the match holds).

    Raises:
        DecisionSyntaxError: the text cannot be parsed, or names nothing that fits.
    """
    text = text.strip()
    if text.startswith("{"):
        try:
            return [ev.GAME_EVENT.validate_json(text)]
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            field = f"field {where!r}: " if where else ""
            raise DecisionSyntaxError(f"decision {text!r}: {field}{first['msg'].lower()}") from err
    exp = expect(ruleset, state)
    words = text.split()
    player = exp.player
    if words and words[0].endswith(":") and len(words[0]) > 1:
        player = words[0][:-1]
        words = words[1:]
    if not words:
        raise DecisionSyntaxError("empty decision")
    if player is None:
        raise DecisionSyntaxError("no decision is awaited now (the match is over or not started)")
    if state.seats and player not in state.seats:
        raise UnknownPlayerError(
            player, tuple(state.seats), hint=closest(player, state.seats)
        ).within(f"decision {text!r}: ")
    name, args = words[0].lower(), words[1:]
    verb = VERBS.get(name)
    if verb is None:
        raise UnknownDecisionError(text, name, closest(name, VERBS))
    try:
        return verb.parse(_Board(ruleset, state, exp, player, by_name), args)
    except IndexError as err:
        raise DecisionSyntaxError(
            f"decision {text!r}: missing words; the syntax is '{verb.syntax}'"
        ) from err
    except DecisionSyntaxError as err:
        raise DecisionSyntaxError(
            f"decision {text!r}: {err} (the syntax is '{verb.syntax}')"
        ) from err
    except ValueError as err:
        detail = str(err).splitlines()[0]
        raise DecisionSyntaxError(
            f"decision {text!r}: {detail} (the syntax is '{verb.syntax}')"
        ) from err


def _words(event: ev.AnyEvent, state: MatchState) -> str | None:
    """The words for one decision event, or ``None`` where no verb says it."""
    match event:
        case ev.PriorityPassed():
            return "pass"
        case ev.SupplyChosen(option=option):
            return f"supply {option.value}"
        case ev.CostPaid(card=card, skill=None):
            return f"pay {card}"
        case ev.CostPaid(card=card, skill=skill):
            return f"pay {card} {skill}"
        case ev.CardSummoned(card=card, territory=territory):
            return " ".join(["summon", card, *([territory] if territory else [])])
        case ev.SkillRegistered(card=card, skill=skill, target=target):
            return " ".join(["skill", card, skill, *([target] if target else [])])
        case ev.PropertyPlaced(card=card, territory=territory):
            return f"place {card} {territory}"
        case ev.DeploymentFinished():
            return "done"
        case ev.AttackersEnteredBattle(followers=followers):
            return " ".join(["attackers", *followers])
        case ev.AttackDeclared(attacks=attacks):
            return " ".join(["declare", *(f"{a.follower}:{a.target}" for a in attacks)])
        case ev.BlockersEnteredBattle(followers=followers):
            return " ".join(["blockers", *followers])
        case ev.BlocksAssigned(blocks=blocks):
            return " ".join(["blocks", *(f"{x.blocker}:{x.attacker}" for x in blocks)])
        case ev.FollowerDamageAssigned(allocations=allocations) if allocations:
            return " ".join(
                ["damage", *(f"{a.source}:{a.recipient}:{a.amount}" for a in allocations)]
            )
        case ev.HandLimitDiscarded(cards=cards):
            return " ".join(["discard", *cards])
        case ev.Conceded():
            return "concede"
        case ev.DeckRevealed(salt=salt) if salt and not any(c.isspace() for c in salt):
            return f"reveal {salt}"
    return None


def format_decision(event: ev.AnyEvent, ruleset: Ruleset, state: MatchState) -> str:
    """The words for a decision made at ``state`` (the board before it): the inverse of
    `parse_decision`. Words that would not read back as exactly ``event`` (an illegal event, a
    judge's ruling, a fork marker) give way to its compact JSON, which always does."""
    words = _words(event, state)
    if words is not None:
        who = ev.acting_player(event)
        if who is not None and who != expect(ruleset, state).player:
            words = f"{who}: {words}"
        if any(not w or w.endswith(":") for w in words.split(" ")[1:]):
            words = None  # an empty id would not read back
    if words is not None:
        try:
            if parse_decision(words, ruleset, state) == [event]:
                return words
        except UsageError:
            pass
    return event.model_dump_json(exclude_defaults=False)


_WORD = re.compile(r"[^\s:]+")


def card_names(decisions: Iterable[str], state: MatchState) -> dict[str, str]:
    """The name of every card that the words of ``decisions`` name, by id, in the order
    they are first named (the notation itself writes ids: one card of a deck may be held
    twice)."""
    names: dict[str, str] = {}
    for text in decisions:
        if text.lstrip().startswith("{"):
            continue  # compact JSON: an event the words could not say
        for word in _WORD.findall(text):
            if word in names or word not in state.instances:
                continue
            card = state.cards.get(state.instances[word])
            if card is not None:
                names[word] = card.name
    return names


def named_decision(text: str, names: Mapping[str, str]) -> str:
    """A decision's words with the names of the cards it names (``names``, by id: see
    `card_names`), for a person to read::

        pay p1-006 (Blackfang Fortress)
        blocks p2-002:p1-002 (p2-002 Ember Scout; p1-002 Iron Warden)

    The words before the parenthesis are the decision as `parse_decision` reads it."""
    named = {w: names[w] for w in _WORD.findall(text) if w in names}
    if not named or text.lstrip().startswith("{"):
        return text
    if len(named) == 1:
        return f"{text} ({next(iter(named.values()))})"
    return f"{text} ({'; '.join(f'{card} {name}' for card, name in named.items())})"
