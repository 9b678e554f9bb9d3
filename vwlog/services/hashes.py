"""Which chain hashes a seat is shown while its match is in progress.

A record's chain hash is SHA-256 of the previous hash and the record (`vwlog.io.codec`), so a
hash is a test of a guess: knowing the hash before a record it cannot read (the other seat's
draw, an opening hand, ``match_started``), a seat that later learns a card's instance id (the
card is played) could recompute the record from a guess and compare, and learn when the card
was drawn. Withholding the hash of that record alone is not enough: the hash of any later
record the seat reads in full chains over it, and so does a signature over a later head (a
receipt) that anyone may verify.

The rule, one for every answer to a player's token: a chain hash is shown to a seat only
where the seat could compute it itself from what it reads, that is when it could read every
record up to it in full (`readable`: for a game that hides cards from some seats, as its seat
authority says, `vwlog.games.seats.Seats.readable`; Vandaria Wars': every card the record names
is in the seat's view before or after the record). A hash the seat could compute confirms
nothing it does not know; any other is withheld (``None``). The hash of ``match_started``
is withheld from every seat (it names every deck, each seat's own undrawn cards included),
so in a live match a seat is shown no hash until the match is finished and public.

A game without a seat authority says what a seat may know through its views
(`vwlog.games.Views`): a record is readable to a seat when the game says it to the seat
exactly as it says it to everybody (a card placed face down, named only to its player, makes
the record unreadable to the others); a game without views cannot say, so none of its
records is readable to a seat.

Receipts stay signed over the head hash: with every hash withheld from seq 1 on, the seat's
only anchor is the header's hash, and the records after it include the other seats' secret
salts (inside ``match_started``), so no guess can be checked against a signature. (A seeded
start has no secret salts, and nothing in it was secret: see `vwlog.services.live`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import BaseVisitor, replay
from vwlog.games import GameRules, game_of_state
from vwlog.model.errors import VwlogError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from vwlog.engine.replay import Step
    from vwlog.store import MatchStore

__all__ = ["HashGate", "gate_at", "readable", "shown_head_hash"]


def readable(step: Step, seat: str) -> bool:
    """Whether ``seat`` could read the record of ``step`` in full when it was recorded: as the
    game's seat authority says (`vwlog.games.seats.Seats.readable`), else as its views say it
    (`_said_alike`)."""
    game = game_of_state(step.after)
    if game.seats is not None:
        return game.seats().readable(step.before, step.after, step.record.event, seat)
    return _said_alike(game, step, seat)


def _said_alike(game: GameRules, step: Step, seat: str) -> bool:
    """Whether ``game``'s views say ``step``'s record to ``seat`` as they say it to everybody,
    ``seat`` sitting at the table (a game without views: never)."""
    if game.views is None or not game.started(step.after):
        return False
    views = game.views()
    try:
        views.board(step.after, player=seat)
    except VwlogError:
        return False  # not at this table
    event, before = step.record.event, step.before
    return str(views.description(event, before, viewer=seat)) == str(
        views.description(event, before, viewer=None)
    )


class HashGate:
    """The rule of the module, followed along a replay for one seat: `shown` gives a step's
    chain hash where the seat could compute it, ``None`` from the first record it could not
    read on."""

    def __init__(self, seat: str, *, known: bool = True) -> None:
        self.seat = seat
        self.known = known
        """Whether the seat could compute the hash of the last record passed."""

    def shown(self, step: Step) -> str | None:
        """The chain hash of ``step``'s record as the seat is shown it (``None``: withheld),
        passing it."""
        if self.known and not readable(step, self.seat):
            self.known = False
        return step.record.hash if self.known else None

    def head(self, head_hash: str | None) -> str | None:
        """The hash of the last record passed (``head_hash``) as the seat is shown it."""
        return head_hash if self.known else None


class _Follow(BaseVisitor[None]):
    """Passes every step to a gate."""

    def __init__(self, gate: HashGate) -> None:
        self.gate = gate

    def visit(self, step: Step) -> None:
        self.gate.shown(step)

    def result(self) -> None:
        """Nothing: read the gate."""


def _while_known(records: Iterable[Any], gate: HashGate) -> Iterator[Any]:
    for record in records:
        if not gate.known:
            return
        yield record


def gate_at(store: MatchStore, match_id: str, seq: int, seat: str) -> HashGate:
    """``seat``'s gate after the record ``seq`` of a stored match: replays the records up to
    ``seq`` only while the seat could read them (in a live match, ``match_started`` alone)."""
    gate = HashGate(seat)
    if seq > 0:
        replay(_while_known(store.records(match_id, lte=seq), gate), _Follow(gate))
    return gate


def shown_head_hash(
    store: MatchStore, match_id: str, seat: str, seq: int | None = None
) -> str | None:
    """The hash of the record ``seq`` (default: the head) as ``seat`` is shown it."""
    head = store.head(match_id)
    at = head.seq if seq is None else seq
    gate = gate_at(store, match_id, at, seat)
    if not gate.known:
        return None
    if at == head.seq:
        return head.hash
    found = next(store.records(match_id, gt=at - 1, lte=at), None)
    return found.hash if found is not None else None
