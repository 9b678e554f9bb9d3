"""WoW TCG's decision notation: one decision a line, a verb and its arguments, as ``vwlog next``
lists them and ``vwlog play`` reads them (`parse`, `line`).

The player is the one the line's verb belongs to where the board stands (the priority holder,
the current player for the hand-limit discard, the controller of the Inspire sources), or is
named first (``budi: pass``). The cards a player plays, places as a resource or discards come
from a hidden hand, so their ids are the player's to give; `fresh` gives ids not yet used.
An id holding a space or a quote is written quoted (``'my card'``).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board
from vwlog.model.errors import UsageError
from vwlog.model.text import Msg, msg

__all__ = ["SYNTAX", "VERBS", "Fresh", "fresh", "line", "parse", "player_for"]

SYNTAX = """\
WoW TCG decisions (one a line; the player is the one the verb belongs to here, or name them
first: 'budi: pass'; cards from the hand are named by the player, 'vwlog next' offers new ids):

\b
  pass                                pass priority
  play CARD [as LINK] [-> T1,T2]      an instant card from the hand, as a new link
  main CARD [as LINK] [-> T1,T2]      a non-instant card (a main action: own action phase,
                                      empty chain)
  power CARD [as LINK] [-> T1,T2]     a power of a card in play, as a new link
  main-power CARD [as LINK]           a non-instant power
  resource CARD                       place a card from the hand as a resource (main action)
  attack ATTACKER TARGET              declare combat (a main action)
  inspire CARD[,CARD] by SRC[,SRC]    ready another player's exhausted cards by Inspire, as
                                      the ready step begins
  discard CARD[,CARD...]              discard down to the hand size in the final step
  concede                             concede the match
  ... ability TEXT                    (after a link) the ability used, as free text"""
"""The notation, one verb a line, for ``vwlog play --help`` and the documentation."""

VERBS = (
    "pass",
    "play",
    "main",
    "power",
    "main-power",
    "resource",
    "attack",
    "inspire",
    "discard",
    "concede",
)
"""The verbs, in the order `SYNTAX` gives them."""

_LINKS = {
    "play": ("CARD", True),
    "main": ("CARD", False),
    "power": ("POWER", True),
    "main-power": ("POWER", False),
}
"""A link verb's kind and whether the link is instant."""


@dataclass(frozen=True, slots=True)
class Fresh:
    """Ids not used yet on a board: for the next link, the card it plays, the resource placed
    and the cards discarded."""

    link: str
    card: str
    resource: str
    discards: tuple[str, ...]


def _free(s: Board, base: str) -> str:
    """``base``, or ``base`` with a suffix, so that no card in play or link holds it."""
    used = {c.id for c in s.cards} | {link.id for link in s.chain}
    found, n = base, 1
    while found in used:
        n += 1
        found = f"{base}-{n}"
    return found


def fresh(s: Board) -> Fresh:
    """The ids `parse` and ``next`` give what a decision names from the hidden hand."""
    n = s.added + 1
    over = max(0, s.hand(s.current) - s.max_hand(s.current))
    return Fresh(
        link=_free(s, f"l{n}"),
        card=_free(s, f"c{n}"),
        resource=_free(s, f"r{s.turn}.{s.resources + 1}"),
        discards=tuple(_free(s, f"d{s.turn}.{i}") for i in range(1, over + 1)),
    )


def player_for(s: Board, verb: str, sources: tuple[str, ...] = ()) -> str | None:
    """The player a verb belongs to where board ``s`` stands (``None``: nobody; the line must
    name one)."""
    if verb == "discard":
        return s.current
    if verb == "inspire":
        found = next((c for c in (s.card(i) for i in sources) if c is not None), None)
        return found.controller if found is not None else None
    return s.holder or s.current


def _bad(text: str, why: Msg) -> UsageError:
    """The error for a line that cannot be read: the line, then why."""
    return UsageError(msg("{line}: {why}", line=repr(text), why=why))


def _ids(words: list[str]) -> tuple[str, ...]:
    return tuple(i for w in words for i in w.split(",") if i)


def _options(text: str, words: list[str]) -> tuple[list[str], str | None, tuple[str, ...], str]:
    """The words before the options of a link, and its ``as LINK``, ``-> T1,T2`` and
    ``ability TEXT``."""
    ability = ""
    if "ability" in words:
        k = words.index("ability")
        ability, words = " ".join(words[k + 1 :]), words[:k]
        if not ability:
            raise _bad(text, msg("'ability' is followed by the ability's text"))
    targets: tuple[str, ...] = ()
    if "->" in words:
        k = words.index("->")
        targets, words = _ids(words[k + 1 :]), words[:k]
        if not targets:
            raise _bad(text, msg("'->' is followed by the targets, T1,T2"))
    link = None
    if "as" in words:
        k = words.index("as")
        if len(words) != k + 2:
            raise _bad(text, msg("'as' is followed by one link id"))
        link, words = words[k + 1], words[:k]
    return words, link, targets, ability


def _link(text: str, s: Board, verb: str, player: str, words: list[str]) -> ev.LinkAdded:
    args, link, targets, ability = _options(text, words)
    if len(args) != 1:
        raise _bad(text, msg("write '{verb} CARD', one card", verb=verb))
    kind, instant = _LINKS[verb]
    return ev.LinkAdded(
        player=player,
        link=link or fresh(s).link,
        kind=kind,  # type: ignore[arg-type]
        card=args[0],
        ability=ability or None,
        instant=instant,
        targets=targets,
    )


def _inspire(text: str, player: str | None, words: list[str]) -> ev.InspireReadied:
    if "by" not in words:
        raise _bad(text, msg("write 'inspire CARD[,CARD] by SOURCE[,SOURCE]'"))
    k = words.index("by")
    cards, sources = _ids(words[:k]), _ids(words[k + 1 :])
    if not cards or not sources:
        raise _bad(text, msg("write 'inspire CARD[,CARD] by SOURCE[,SOURCE]'"))
    if player is None:
        raise _bad(
            text, msg("no Inspire source {card} is in play: name the player first", card=sources[0])
        )
    return ev.InspireReadied(player=player, cards=cards, sources=sources)


def _split(text: str) -> tuple[str | None, str, list[str]]:
    """The player named first (or ``None``), the verb and the words after it."""
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise _bad(text, msg("a quotation is not closed")) from err
    named = None
    if words and words[0].endswith(":") and len(words[0]) > 1:
        named, words = words[0][:-1], words[1:]
    if not words:
        raise _bad(text, msg("no decision: write a verb ({verbs})", verbs=", ".join(VERBS)))
    verb = words[0].lower()
    if verb not in VERBS:
        raise _bad(
            text,
            msg(
                "unknown verb {verb}: use one of {verbs}",
                verb=repr(words[0]),
                verbs=", ".join(VERBS),
            ),
        )
    return named, verb, words[1:]


def parse(s: Board, text: str) -> Any:
    """The decision the line ``text`` names on board ``s``.

    Raises:
        UsageError: the line cannot be read, or names no player where nobody is awaited.
    """
    named, verb, words = _split(text.strip())
    sources = _ids(words[words.index("by") + 1 :]) if verb == "inspire" and "by" in words else ()
    player = named or player_for(s, verb, sources)
    if verb == "inspire":
        return _inspire(text, player, words)
    if player is None:
        raise _bad(
            text, msg("nobody is to decide here: name the player first ('ana: {verb}')", verb=verb)
        )
    if verb in _LINKS:
        return _link(text, s, verb, player, words)
    if verb == "discard":
        cards = _ids(words)
        if not cards:
            raise _bad(text, msg("write 'discard CARD[,CARD...]'"))
        return ev.HandLimitDiscarded(player=player, cards=cards)
    if verb == "resource":
        if len(words) != 1:
            raise _bad(text, msg("write 'resource CARD', one card"))
        return ev.ResourcePlaced(player=player, card=words[0])
    if verb == "attack":
        if len(words) != 2:
            raise _bad(text, msg("write 'attack ATTACKER TARGET'"))
        return ev.CombatDeclared(player=player, attacker=words[0], target=words[1])
    if words:
        raise _bad(text, msg("{verb} takes nothing after it", verb=verb))
    if verb == "concede":
        return ev.Conceded(player=player)
    return ev.PriorityPassed(player=player)


def _q(ids: tuple[str, ...] | str) -> str:
    if isinstance(ids, str):
        return shlex.quote(ids)
    return ",".join(shlex.quote(i) for i in ids)


def _verb_of(d: Any) -> str:
    if isinstance(d, ev.LinkAdded):
        return {("CARD", True): "play", ("CARD", False): "main", ("POWER", True): "power"}.get(
            (d.kind, d.instant), "main-power"
        )
    verbs: dict[type, str] = {
        ev.PriorityPassed: "pass",
        ev.ResourcePlaced: "resource",
        ev.CombatDeclared: "attack",
        ev.InspireReadied: "inspire",
        ev.HandLimitDiscarded: "discard",
        ev.Conceded: "concede",
    }
    return verbs[type(d)]


def line(s: Board, d: Any) -> str:
    """Decision ``d`` written in the notation, as `parse` reads it back on board ``s``."""
    verb = _verb_of(d)
    words = [verb]
    if isinstance(d, ev.LinkAdded):
        words.append(_q(d.card))
        if d.link != fresh(s).link:
            words += ["as", _q(d.link)]
        if d.targets:
            words += ["->", _q(d.targets)]
        if d.ability:
            words += ["ability", shlex.quote(d.ability)]
    elif isinstance(d, ev.ResourcePlaced):
        words.append(_q(d.card))
    elif isinstance(d, ev.CombatDeclared):
        words += [_q(d.attacker), _q(d.target)]
    elif isinstance(d, ev.InspireReadied):
        words += [_q(d.cards), "by", _q(d.sources)]
    elif isinstance(d, ev.HandLimitDiscarded):
        words.append(_q(d.cards))
    sources = d.sources if isinstance(d, ev.InspireReadied) else ()
    if d.player != player_for(s, verb, sources):
        words.insert(0, _q(d.player) + ":")
    return " ".join(words)
