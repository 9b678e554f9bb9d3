"""`vwlog show`: the board at one position of a match, as a player could see it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from vwlog.audit.knowledge import KnowledgeTracker
from vwlog.cli import options
from vwlog.cli.base import main
from vwlog.cli.next import served
from vwlog.cli.render import echo
from vwlog.cli.replay import board_of, check_player, load_records, player_option, viewer, views_of
from vwlog.engine.replay import Fanout, FinalState, replay
from vwlog.engine.seek import no_such_seq, state_at
from vwlog.games import rules_for, unavailable
from vwlog.io.i18n import gettext as _
from vwlog.model.games import DEFAULT_GAME
from vwlog.render.json import dumps, seen_card_json
from vwlog.render.text import board_text, hidden_lines, term
from vwlog.services.matches import checked_records
from vwlog.services.matches import state_at as stored_state_at

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path

    from vwlog.audit.knowledge import Knowledge
    from vwlog.engine.replay import Visitor
    from vwlog.games import Views
    from vwlog.store import MatchStore


@main.command("show")
@options.match_or_log
@options.number(
    "--at",
    "at_seq",
    low=1,
    metavar="SEQ",
    help="The position: the board after event SEQ (default: after the last event).",
)
@player_option
@options.output_format(
    ["text", "json"], "The text board, or the board as JSON (a BoardView document)."
)
@options.ruleset_options
@click.pass_context
def show(
    ctx: click.Context,
    match_or_log: str,
    at_seq: int | None,
    player: str | None,
    output_format: str,
    ruleset_file: Path | None = None,
    sets: tuple[str, ...] = (),
) -> None:
    """Show the board at one position of a match.

    The board after event SEQ: each player's gold, honor, Victory Points,
    hand, Fate Deck size and Graveyard; the Territories with their guards,
    damage and current stats; Return Home and Stray cards; the register;
    and the turn, phase, step and priority holder. Without --as it is the
    whole board, as a judge reads the record: every hand and every
    Graveyard card named. --as limits it to what that player could know
    then: their own hand is listed, the other hands are counts, and the
    hidden cards they have seen are named with when and how they saw them
    (another player's hand, a Fate Deck; JSON: "known"). The first line
    (JSON: "view", "judge" or "player") says which view is drawn. JSON is a
    BoardView document (schemas/board-view.schema.json). A game without
    views shows its board's fields, one per line (JSON: an object), and
    has no --as.

    MATCH_OR_LOG is a log file (- reads standard input), or the id of a
    match in the store (--store) when no such file exists; a stored match
    is shown from the store's nearest snapshot.

    Exit status: 0 shown, 2 usage or input error.

    Example:

    \b
        vwlog show match.jsonl --at 57
        vwlog show match.jsonl --at 57 --as p2
        vwlog show match.jsonl --at 57 --format json
        vwlog --store club.db show sim-7-00001 --at 412 --as p1
    """
    player = viewer(ctx, player)
    match, ruleset = options.reading(ruleset_file, sets).for_match(load_records(ctx, match_or_log))
    game = rules_for(match.header.game if match.header is not None else None)
    views = views_of(game)
    if views is None and player is not None:
        with served():  # what a player could know is the game's views' to say
            raise unavailable(game, "show --as")
    # what a player has seen of hidden cards: Vandaria Wars' boards only
    tracker = KnowledgeTracker() if player is not None and game.id == DEFAULT_GAME else None
    if match.store is not None and match.match_id is not None and ruleset is None:
        seq, state = _stored_position(match.store, match.match_id, at_seq, tracker)
    elif at_seq is None:
        seq, state = _final(match.items, tracker, ruleset)
    else:
        seq = at_seq
        state = state_at(match.items, at_seq, source=match.source, visitor=tracker, ruleset=ruleset)
    check_player(state, player)
    started = game.started(state)
    known = tracker.knowledge(player) if tracker and player and started else None
    if output_format == "json":
        data = board_of(views, state, player=player, seq=seq)
        if player is not None:
            data["known"] = [seen_card_json(c) for c in known.hidden] if known else []
        click.echo(dumps(data))
        return
    _echo_text(views, state, seq, player, known, started=started)


def _echo_text(
    views: Views | None,
    state: Any,
    seq: int,
    player: str | None,
    known: Knowledge | None,
    *,
    started: bool,
) -> None:
    """The text board: the heading, the board, and, where the game's board view lists them,
    each player's Graveyard and the hands ``player`` may see, then what they know of hidden
    cards."""
    echo(
        view_heading(player, seq)
        if views is not None
        else _("board after seq {seq}").format(seq=seq)
    )
    echo(board_text(state))
    if views is None or not started:
        return  # a game without views: its board's fields are all it shows
    seats = board_of(views, state, player=None, seq=seq).get("players", [])
    for p in seats:
        if "graveyard" in p:
            echo(
                _("{player} Graveyard: {cards}").format(
                    player=term(p["id"]), cards=_cards(p["graveyard"])
                )
            )
    for p in seats:
        if "hand" in p and (player is None or p["id"] == player):
            echo(_("{player} hand: {cards}").format(player=term(p["id"]), cards=_cards(p["hand"])))
    if known is not None:
        echo("\n".join(hidden_lines(known, none_known=True)))


def _cards(cards: list[dict[str, Any]]) -> str:
    """Cards of a board view (``{"id", "name"}`` each) as ``Name (id)``, the bare id where the
    match does not know the card; ``empty`` for none."""
    said = [f"{c['name']} ({c['id']})" if c.get("name") else str(c["id"]) for c in cards]
    return ", ".join(term(c) for c in said) or _("empty")


def view_heading(player: str | None, seq: int) -> str:
    """The first line of ``show``: which view is drawn, and after which seq."""
    if player is None:
        return _("whole board (judge's view: every hand and Graveyard) after seq {seq}").format(
            seq=seq
        )
    return _("as {player}: what {player} may know, after seq {seq}").format(
        player=term(player), seq=seq
    )


def _stored_position(
    store: MatchStore, match_id: str, at_seq: int | None, tracker: KnowledgeTracker | None
) -> tuple[int, Any]:
    """The board of a stored match after ``at_seq`` (default: the last event), from the
    nearest snapshot. What a player has seen needs the whole history: with a ``tracker``, the
    records up to the position are replayed once, into it and for the board."""
    last = store.head(match_id).seq
    seq = last if at_seq is None else at_seq
    if seq > last:
        raise no_such_seq(seq, f"store:{match_id}", 1 if last else None, last or None)
    if tracker is not None and seq:
        records = checked_records(store, match_id, lte=seq)
        return seq, state_at(records, seq, source=f"store:{match_id}", visitor=tracker)
    return seq, stored_state_at(store, match_id, seq)


def _final(
    items: Iterable[tuple[int, Any]],
    visitor: Visitor[Any] | None = None,
    ruleset: Any = None,
) -> tuple[int, Any]:
    last = [0]

    def counted() -> Iterator[tuple[int, Any]]:
        for item in items:
            last[0] = item[1].seq
            yield item

    if visitor is None:
        state = replay(counted(), FinalState(), ruleset=ruleset)
    else:
        state = replay(counted(), Fanout(FinalState(), visitor), ruleset=ruleset)[0]
    return last[0], state


__all__ = ["show", "view_heading"]
