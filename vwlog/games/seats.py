"""What a seat may do and see, for every game: the errors a player's append is refused with,
a seat's view of the board (what it sees, and how a sentence is said without what it does not),
and the capability (`Seats`) through which a game that hides cards holds a player's decisions
to its seat and says which records the seat could read in full.

A game without the capability (`vwlog.games.GameRules.seats` is ``None``) is held by one rule
(`vwlog.services.seats`): every decision names the token's seat as its ``player``, and what a
seat may read of each record, the game's views say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Protocol

from vwlog.model.errors import UsageError, VwlogError
from vwlog.model.text import Msg, msg

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from vwlog.model.violation import Violation

__all__ = [
    "HIDDEN_CARD",
    "UNSEEN",
    "Authorized",
    "SeatError",
    "SeatView",
    "Seats",
    "UnseenError",
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


@dataclass(frozen=True)
class SeatView:
    """What one seat can see of the board now, and how to keep the rest out of a sentence."""

    seat: str
    visible: frozenset[str]
    """Ids of the cards and objects the seat can see (Vandaria Wars': its own hand, cards in
    play, on the register and in Graveyards, and the register's objects)."""
    controllers: Mapping[str, str]
    """Who controls (in play) or owns (elsewhere) each visible id."""
    hidden: frozenset[str]
    """Every card instance of the match the seat cannot see."""
    hidden_names: tuple[str, ...]
    """The names of hidden cards (said with their ids, they are hidden too)."""
    hidden_words: tuple[str, ...]
    """The names and card ids of hidden cards that no visible card shares, longest first."""

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


class Seats(Protocol):
    """A game's seat authority (optional, `vwlog.games.GameRules.seats`), for a game whose
    boards hide cards from some seats (Vandaria Wars': `vwlog.games.vw.seats`)."""

    def authorize(
        self,
        state: Any,
        seat: str,
        decisions: Sequence[str],
        *,
        auto: int = 0,
        choices: Mapping[str, Sequence[str]] | None = None,
    ) -> Authorized:
        """Hold a player's append to its seat: the decisions as they are then played, and the
        seat's view that what the rules answer is said through.

        Raises:
            SeatError: a decision (or an automatic one, or a choice) is not the seat's to make.
            UnseenError: a decision names an id the seat cannot see, or that does not exist.
            UsageError: a decision cannot be read (said without repeating it).
        """
        ...

    def readable(self, before: Any, after: Any, event: Any, seat: str) -> bool:
        """Whether ``seat`` could read the record of ``event`` (from the board ``before`` to
        ``after``) in full when it was recorded: no card it names was hidden from the seat."""
        ...


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
