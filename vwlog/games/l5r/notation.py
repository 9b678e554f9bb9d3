"""L5R's decision notation: one line a decision, a verb and its words, read against the board
it is made at (`parse`) and written back (`format_decision`, its inverse).

    armies [UNIT@BATTLEFIELD...]        armies_declared (each unit joins its owner's side)
    battle BATTLEFIELD [by CARD]        battlefield_chosen (by CARD: a battle CARD's effect
                                        creates, between Attack phases)
    act CARD ACTION [from UNIT] [on CARD...] [bring UNIT...]
                                        battle_action_taken at the player's opportunity
    pass                                opportunity_passed
    resolve [EFFECT...]                 battle_action_resolved for the action awaiting it;
                                        EFFECT: bow:UNIT, unbow:UNIT, enter:UNIT, force:UNIT:N
    phase PLAYER                        attack_phase_started: the next Attack phase, PLAYER
                                        attacking (between Attack phases)
    end                                 the Attack phase ends (battles as chosen, none owed)

A line is the decision of the player whose decision is awaited; ``PLAYER: WORDS`` decides for
another (a battle an effect creates is its card's owner's, a battlefield anyone may choose is
the attacker's). A line starting with ``{`` is one event as compact JSON. Cards, battlefields
and players are named by their ids, as the log names them. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, NamedTuple

from pydantic import Field, TypeAdapter, ValidationError

from vwlog.games.l5r.events import (
    ArmiesDeclared,
    Assignment,
    AttackPhaseEnded,
    AttackPhaseStarted,
    BattleActionResolved,
    BattleActionTaken,
    BattlefieldChosen,
    DefendersSentHome,
    Effect,
    L5rEvent,
    OpportunityPassed,
    Side,
)
from vwlog.games.l5r.expect import expect, phase_end
from vwlog.games.l5r.ruleset import L5rRuleset
from vwlog.games.l5r.state import Board
from vwlog.model.errors import UnknownPlayerError, UsageError
from vwlog.model.text import Msg, closest, did_you_mean, msg

EVENT: TypeAdapter[Any] = TypeAdapter(Annotated[L5rEvent, Field(discriminator="type")])
"""One L5R event (the core's fork, seal and signature included), as compact JSON."""

_KEYWORDS = ("from", "on", "bring")
_EFFECTS = {"bow": "unit_bowed", "unbow": "unit_unbowed", "enter": "unit_entered_battle"}
_WORDS_OF = {kind: word for word, kind in _EFFECTS.items()}


class NotationError(UsageError):
    """A line of the notation that cannot be read, with the word it most likely meant."""

    def __init__(self, said: Msg, hint: str | None = None) -> None:
        super().__init__(did_you_mean(said, hint))


@dataclass(frozen=True, slots=True)
class _At:
    """The board a line is read against, and the player it decides for."""

    rs: L5rRuleset
    s: Board
    player: str | None
    named: bool
    """Whether the line named its player (``PLAYER: WORDS``)."""

    def who(self, default: str | None = None) -> str:
        found = self.player if self.named else (self.player or default)
        if found is None:
            raise UsageError(
                msg("no player's decision is awaited now: write it as 'PLAYER: WORDS'")
            )
        return found

    def card(self, word: str) -> str:
        if word not in self.s.cards:
            raise NotationError(
                msg("unknown card {card}", card=repr(word)), closest(word, self.s.cards)
            )
        return word


def _armies(at: _At, words: list[str]) -> list[Any]:
    assigned: list[Assignment] = []
    attacker = at.s.attacker or (at.s.players[0] if at.s.players else "")
    for word in words:
        unit, sep, field = word.partition("@")
        if not sep or not unit or not field:
            raise UsageError(msg("{word} is not UNIT@BATTLEFIELD", word=repr(word)))
        side: Side = "ATTACKER" if at.s.cards[at.card(unit)].owner == attacker else "DEFENDER"
        assigned.append(Assignment(unit=unit, side=side, battlefield=field))
    return [ArmiesDeclared(assignments=tuple(assigned))]


def _battle(at: _At, words: list[str]) -> list[Any]:
    field, rest = words[0], words[1:]
    cause: str | None = None
    if rest:
        if rest[0] != "by" or len(rest) != 2:
            raise UsageError(msg("after the battlefield, only 'by CARD' may follow"))
        cause = at.card(rest[1])
    default = at.s.cards[cause].owner if cause is not None else at.s.attacker
    return [BattlefieldChosen(player=at.who(default), battlefield=field, cause=cause)]


def _parts(words: list[str]) -> dict[str, list[str]]:
    parts: dict[str, list[str]] = {}
    key: str | None = None
    for word in words:
        if word in _KEYWORDS:
            if word in parts:
                raise UsageError(msg("{word} is written once", word=repr(word)))
            key = word
            parts[key] = []
        elif key is None:
            raise UsageError(msg("{word} is not one of from, on, bring", word=repr(word)))
        else:
            parts[key].append(word)
    return parts


def _act(at: _At, words: list[str]) -> list[Any]:
    card, ability = at.card(words[0]), words[1]
    parts = _parts(words[2:])
    source = parts.get("from", [])
    if len(source) > 1 or ("from" in parts and not source):
        raise UsageError(msg("'from' names one unit"))
    return [
        BattleActionTaken(
            player=at.who(),
            card=card,
            ability=ability,
            source_unit=at.card(source[0]) if source else None,
            targets=tuple(at.card(w) for w in parts.get("on", [])),
            brings=tuple(at.card(w) for w in parts.get("bring", [])),
        )
    ]


def _pass(at: _At, words: list[str]) -> list[Any]:
    if words:
        raise UsageError(msg("'pass' takes no words"))
    return [OpportunityPassed(player=at.who())]


def _effect(at: _At, word: str) -> Effect:
    kind, _, rest = word.partition(":")
    if kind in _EFFECTS and rest:
        return Effect(kind=_EFFECTS[kind], unit=at.card(rest))  # type: ignore[arg-type]
    unit, _, delta = rest.rpartition(":")
    if kind == "force" and unit and re.fullmatch(r"[+-]?\d{1,4}", delta):
        return Effect(kind="force_changed", unit=at.card(unit), delta=int(delta))
    raise UsageError(
        msg("{word} is no effect (bow:UNIT, unbow:UNIT, enter:UNIT, force:UNIT:N)", word=repr(word))
    )


def _resolve(at: _At, words: list[str]) -> list[Any]:
    b = at.s.battle
    pending = b.pending if b is not None else None
    if pending is None:
        raise UsageError(msg("no action awaits its resolution"))
    effects = tuple(_effect(at, w) for w in words)
    return [BattleActionResolved(card=pending.card, ability=pending.ability, effects=effects)]


def _phase(at: _At, words: list[str]) -> list[Any]:
    if len(words) != 1:
        raise UsageError(msg("'phase' names the attacking player"))
    attacker = words[0]
    if attacker not in at.s.players:
        raise UnknownPlayerError(attacker, at.s.players, hint=closest(attacker, at.s.players))
    return [
        AttackPhaseStarted(turn=at.s.turn + 1, attacker=attacker, defender=at.s.other(attacker))
    ]


def _end(at: _At, words: list[str]) -> list[Any]:
    if words:
        raise UsageError(msg("'end' takes no words"))
    if not at.s.in_phase:
        raise UsageError(msg("no Attack phase is under way"))
    return [phase_end(at.s)[0]]


class Verb(NamedTuple):
    """One verb of the notation."""

    name: str
    syntax: str
    help: str
    least: int
    """How many words it needs at least."""
    parse: Callable[[_At, list[str]], list[Any]]


TABLE: tuple[Verb, ...] = (
    Verb(
        "armies",
        "armies [UNIT@BATTLEFIELD...]",
        "declare the armies (each unit on its owner's side)",
        0,
        _armies,
    ),
    Verb(
        "battle",
        "battle BATTLEFIELD [by CARD]",
        "choose where the next battle is fought (by CARD: a battle CARD creates)",
        1,
        _battle,
    ),
    Verb(
        "act",
        "act CARD ACTION [from UNIT] [on CARD...] [bring UNIT...]",
        "take a Battle action at your opportunity",
        2,
        _act,
    ),
    Verb("pass", "pass", "pass your opportunity", 0, _pass),
    Verb(
        "resolve",
        "resolve [bow:UNIT|unbow:UNIT|enter:UNIT|force:UNIT:N...]",
        "resolve the action taken, with its effects",
        0,
        _resolve,
    ),
    Verb("phase", "phase PLAYER", "begin the next Attack phase, PLAYER attacking", 1, _phase),
    Verb("end", "end", "end the Attack phase (battles as chosen)", 0, _end),
)
VERBS: dict[str, Verb] = {v.name: v for v in TABLE}
"""The notation's verbs, by name."""

EXAMPLES = {
    "armies": "armies a1@b1 a2@b1 d1@b1",
    "battle": "battle b1",
    "act": "act k1 bow from d1 on a1",
    "pass": "pass",
    "resolve": "resolve bow:a1",
    "phase": "phase p2",
    "end": "end",
}
"""One example a verb, for the help."""


def syntax() -> str:
    """The notation, one verb a line with an example (for the help of ``vwlog play``)."""
    lines = [
        "Decisions are words, for the player whose decision is awaited ('PLAYER: WORDS' decides",
        'for another), or compact JSON events: {"type":"opportunity_passed","player":"p2"}',
    ]
    for v in TABLE:
        lines += [f"  {v.syntax}", f"      {v.help}; e.g. {EXAMPLES[v.name]}"]
    return "\n".join(lines)


def parse(rs: L5rRuleset, s: Board, text: str) -> list[Any]:
    """The event(s) a line names at ``s`` (one: every verb names one event).

    Raises:
        UsageError: the line cannot be read (one line saying what is wrong).
    """
    text = text.strip()
    if text.startswith("{"):
        try:
            return [EVENT.validate_json(text)]
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise UsageError(
                msg(
                    "decision {text}: field {where}: {why}",
                    text=repr(text),
                    where=repr(where),
                    why=first["msg"].lower(),
                )
            ) from err
    if not s.started:
        raise UsageError(msg("the match has not started"))
    words = text.split()
    player, named = expect(rs, s).player, False
    if words and words[0].endswith(":") and len(words[0]) > 1:
        player, named, words = words[0][:-1], True, words[1:]
        if player not in s.players:
            raise UnknownPlayerError(player, s.players, hint=closest(player, s.players))
    if not words:
        raise UsageError(msg("empty decision"))
    verb = VERBS.get(words[0].lower())
    if verb is None:
        said = msg("unknown verb {verb}", verb=repr(words[0]))
        raise NotationError(said, closest(words[0].lower(), VERBS))
    if len(words) - 1 < verb.least:
        raise UsageError(
            msg("decision {text}: the syntax is {syntax}", text=repr(text), syntax=verb.syntax)
        )
    try:
        return verb.parse(_At(rs, s, player, named), words[1:])
    except ValidationError as err:
        why = err.errors()[0]["msg"]
        raise UsageError(msg("decision {text}: {why}", text=repr(text), why=why)) from err


def _words(e: Any) -> str | None:
    """The words for one event, or ``None`` where no verb says it."""
    match e:
        case ArmiesDeclared(assignments=assigned):
            return " ".join(["armies", *(f"{a.unit}@{a.battlefield}" for a in assigned)])
        case BattlefieldChosen(battlefield=field, cause=cause):
            return f"battle {field}" + (f" by {cause}" if cause is not None else "")
        case BattleActionTaken():
            words = ["act", e.card, e.ability]
            words += ["from", e.source_unit] if e.source_unit is not None else []
            words += ["on", *e.targets] if e.targets else []
            words += ["bring", *e.brings] if e.brings else []
            return " ".join(words)
        case OpportunityPassed():
            return "pass"
        case BattleActionResolved(effects=effects):
            return " ".join(["resolve", *map(_effect_words, effects)])
        case AttackPhaseStarted(attacker=attacker):
            return f"phase {attacker}"
    return "end" if isinstance(e, DefendersSentHome | AttackPhaseEnded) else None


def _effect_words(fx: Effect) -> str:
    if fx.kind == "force_changed":
        return f"force:{fx.unit}:{fx.delta:+d}"
    return f"{_WORDS_OF[fx.kind]}:{fx.unit}"


def format_decision(rs: L5rRuleset, s: Board, e: Any) -> str:
    """The words for ``e`` made at ``s``: the inverse of `parse`. Words that would not read
    back as exactly ``e`` (an id with a space, an illegal event) give way to its compact JSON,
    which always does."""
    words = _words(e)
    if words is not None:
        player = getattr(e, "player", None)
        for said in (words, f"{player}: {words}") if player else (words,):
            try:
                if parse(rs, s, said) == [e]:
                    return said
            except UsageError:
                continue
    return str(e.model_dump_json(exclude_defaults=False))


_WORD = re.compile(r"[^\s:@]+")


def names(decisions: Iterable[str], s: Board) -> dict[str, str]:
    """What every card the decisions name is, by id, in the order first named (L5R cards have
    no names in the log: a unit is its kind and Force, ``PERSONALITY, Force 4``)."""
    found: dict[str, str] = {}
    for text in decisions:
        if text.lstrip().startswith("{"):
            continue
        for word in _WORD.findall(text):
            card = s.cards.get(word)
            if card is None or word in found:
                continue
            found[word] = f"{card.kind}, Force {card.force}" if card.is_unit else card.kind
    return found


def named(text: str, known: Mapping[str, str]) -> str:
    """A decision's words followed by what the cards it names are, for a person to read::

    act k1 bow from d1 on a1 (k1 STRATEGY; d1 PERSONALITY, Force 2; a1 PERSONALITY, Force 4)
    """
    said = {w: known[w] for w in _WORD.findall(text) if w in known}
    if not said or text.lstrip().startswith("{"):
        return text
    return f"{text} ({'; '.join(f'{card} {name}' for card, name in said.items())})"


__all__ = [
    "EVENT",
    "TABLE",
    "VERBS",
    "Verb",
    "format_decision",
    "named",
    "names",
    "parse",
    "syntax",
]
