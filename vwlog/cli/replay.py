"""``vwlog replay`` and ``vwlog show``: step through a match, or look at one position of it.

Both read a match through `load_records`, the one place that turns a ``MATCH_OR_LOG`` argument
into records, and walk it with the one replay loop (`vwlog.engine.replay.replay`), so the board
shown is the board validation judges and violations appear inline, where they happen. ``show`` on
a stored match starts from the store's nearest snapshot instead
(`vwlog.services.matches.state_at`).

The text trace (``vwlog replay LOG --board``) is deterministic: no times, no terminal widths, the
same bytes for the same log, so it can serve as a golden file. A line ending in `POINT_MARK` is a
priority point (`vwlog.engine.seek.PriorityPoints`): after that event a player holds priority.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from vwlog.cli import options
from vwlog.cli.base import CliContext, main
from vwlog.cli.options import LoadedMatch
from vwlog.cli.render import POINT_MARK, echo, page, paging_wanted
from vwlog.engine.replay import BaseVisitor, replay
from vwlog.engine.seek import PriorityPoints, position, priority_points
from vwlog.games import GameRules, Views, board_data, event_text, game_of_state, unavailable
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import say
from vwlog.io.logfile import STDIO
from vwlog.model.errors import UsageError
from vwlog.model.text import msg
from vwlog.model.types import Phase
from vwlog.render.json import dumps, priority_point_json, step_json
from vwlog.render.text import board_text, counted, table, term, violation_message
from vwlog.store.location import store_location

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from pathlib import Path

    from vwlog.engine.replay import Step
    from vwlog.engine.seek import PriorityPoint
    from vwlog.events import EventRecord
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState
    from vwlog.model.text import Msg

BOARD_INDENT = " " * 7
"""Indent of the board and violation lines under an event line of the text trace."""


# -- reading a match -------------------------------------------------------------------------


def load_records(ctx: click.Context, match_or_log: str) -> LoadedMatch:
    """The match a ``MATCH_OR_LOG`` argument names (`vwlog.cli.options.load_records`)."""
    cli = ctx.find_object(CliContext) or CliContext(store_location(None).url, "default")
    return options.load_records(ctx, cli.store, match_or_log)


def _upto(
    items: Iterable[tuple[int, EventRecord]], to_seq: int | None
) -> Iterator[tuple[int, EventRecord]]:
    """The items up to ``to_seq``, reading not one line further (seqs only grow)."""
    for item in items:
        seq = item[1].seq
        if to_seq is not None and seq > to_seq:
            return
        yield item
        if seq == to_seq:
            return


# -- filters and rendering -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Filters:
    """Which events a replay shows."""

    from_seq: int | None = None
    to_seq: int | None = None
    turn: int | None = None
    phase: str | None = None
    only: str | None = None

    def position(self, seq: int, turn: int, phase: str | None) -> bool:
        """Whether the position after ``seq`` passes the seq, turn and phase filters."""
        if self.from_seq is not None and seq < self.from_seq:
            return False
        if self.to_seq is not None and seq > self.to_seq:
            return False
        if self.turn is not None and turn != self.turn:
            return False
        return self.phase is None or phase == self.phase

    def shows(self, step: Step) -> bool:
        """Whether the replay shows this event."""
        where = position(step.after)
        if not self.position(step.record.seq, where.turn, where.phase):
            return False
        if self.only == "decisions":
            return bool(step.record.event.DECISION)
        if self.only == "consequences":
            return not step.record.event.DECISION
        return True


def violation_line(v: Violation) -> str:
    """A violation as the trace shows it inline: ``!! R-REG-6 message``."""
    return f"!! {v.rule} {term(violation_message(v))}"


def _indent(text: str) -> str:
    return "\n".join(BOARD_INDENT + line for line in text.splitlines())


def check_player(state: MatchState, player: str | None) -> None:
    """Refuse a viewpoint ``player`` who does not sit at the match the board ``state`` is of."""
    if player is None:
        return
    summary = game_of_state(state).summary(state)
    if summary.started:
        check_seated(player, summary.players)


def check_seated(player: str, players: Sequence[str]) -> None:
    """Refuse a viewpoint ``player`` who is not one of ``players``."""
    if player not in players:
        seated = ", ".join(term(p) for p in players)
        raise UsageError(
            msg(
                "no player {player} in this match (players: {seated})",
                player=repr(player),
                seated=seated,
            )
        )


def views_of(game: GameRules) -> Views | None:
    """``game``'s views, ``None`` for a game without them (`vwlog.games.GameRules.views`)."""
    return game.views() if game.views is not None else None


def said(views: Views | None, step: Step, viewer: str | None) -> Msg | str:
    """What the event of ``step`` did, as ``viewer`` may know it: the game's sentence, or the
    event by its type and fields for a game without views (`vwlog.games.event_text`)."""
    if views is None:
        return event_text(step.record.event)
    return views.description(step.record.event, step.before, viewer=viewer)


def board_of(views: Views | None, state: Any, *, player: str | None, seq: int | None) -> Any:
    """The board as JSON-ready data, as ``player`` may know it: the game's view, or the
    board's fields for a game without views (`vwlog.games.board_data`)."""
    if views is None:
        return board_data(state)
    return views.board(state, player=player, seq=seq)


class _Trace(BaseVisitor["_Trace"]):
    """A replay visitor that writes the shown events to stdout as they are replayed.

    Whether an event is a priority point is known only at the next event (or at the end), by
    the same visitor that lists them for ``--priority-points``; so each event is written one
    event late.
    """

    def __init__(
        self, filters: Filters, output_format: str, *, board: bool, player: str | None
    ) -> None:
        self.filters = filters
        self.output_format = output_format
        self.paged: list[str] | None = None
        """Text lines kept for a pager (on a terminal), instead of written at once."""
        self.board = board
        self.player = player
        self.collected: list[dict[str, Any]] = []
        self.shown = 0
        self.violations = 0
        self.last_seq = 0
        self._player_checked = player is None
        self._points = PriorityPoints()
        self._pending: list[Step] = []
        self._game: GameRules | None = None
        self._views: Views | None = None

    def visit(self, step: Step) -> None:
        """Write the events before this one if the filters show them; keep this one until the
        next game event, which tells whether it was a priority point (the seal and signatures
        are none: they wait with it)."""
        self.last_seq = step.record.seq
        game = self._game
        if game is None:
            game = self._game = game_of_state(step.before)
            self._views = views_of(game)
            if self._views is None and self.player is not None:
                # what a player could know is the game's views' to say
                raise unavailable(game, "replay --as")
        if not self._player_checked and game.started(step.after):
            check_player(step.after, self.player)
            self._player_checked = True
        if type(step.record.event) in game.trailer_types:
            self._pending.append(step)
            return
        self._points.visit(step)
        self._flush(step.expected.player)
        self._pending.append(step)

    def _flush(self, awaited: str | None) -> None:
        """Write the events kept; ``awaited``: the player whose decision the rules await after
        them."""
        pending, self._pending = self._pending, []
        points = self._points.points
        marked = {p.seq for p in points}
        points.clear()
        for step in pending:
            if self.filters.shows(step):
                self._write(step, point=step.record.seq in marked, awaited=awaited)

    def _write(self, step: Step, *, point: bool, awaited: str | None) -> None:
        self.shown += 1
        self.violations += len(step.violations)
        sentence = said(self._views, step, self.player)
        # people read the text trace in their language, each value through `term` so that
        # none starts a line of its own; JSON keeps the English line as it is
        text = term(say(sentence)) if self.output_format == "text" else str(sentence)
        if self.output_format == "text":
            lines = [f"{step.record.seq:>5}  {text}{POINT_MARK if point else ''}"]
            lines.extend(BOARD_INDENT + violation_line(v) for v in step.violations)
            if step.voids is not None:
                lines.append(f"{BOARD_INDENT}-- voids seq {step.voids[0]}..{step.voids[1]}")
            if self.board:
                lines.append(_indent(board_text(step.after)))
                lines.append("")
            if self.paged is not None:
                self.paged.extend(lines)
            else:
                echo("\n".join(lines))
            return
        shown = (
            board_of(self._views, step.after, player=self.player, seq=step.record.seq)
            if self.board
            else None
        )
        data = step_json(step, text, board=shown, priority_point=point, awaited=awaited)
        if self.output_format == "jsonl":
            click.echo(dumps(data, compact=True))
        else:
            self.collected.append(data)

    def end_match(self, final: MatchState) -> None:
        """Write the last event."""
        self._points.end_match(final)
        game = self._game if self._game is not None else game_of_state(final)
        self._flush(game.expect(game.ruleset_of(final) or game.default_ruleset, final).player)

    def result(self) -> _Trace:
        """The visitor itself, with its counts."""
        return self


def _points_text(points: list[PriorityPoint]) -> str:
    return table(
        ("seq", "player", "turn", "phase", "step", "register"),
        [
            (p.seq, p.player, p.turn, p.phase or "-", p.step or "-", p.register_depth)
            for p in points
        ],
        align="><><<>",
        gap="  ",
    )


# -- commands --------------------------------------------------------------------------------

match_or_log_argument = options.match_or_log
_OLD_PLAYER = "vwlog.replay.deprecated_player"


def _remember_old_player(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[_OLD_PLAYER] = value


def player_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--as PLAYER``, the viewpoint (stored as ``player``), and its deprecated old name
    ``--player`` (hidden), which `viewer` still reads, with a warning: ``--player`` means a
    filter (only matches of a player) in ``list`` and ``stats``."""
    command = click.option(
        "--player",
        "old_player",
        metavar="PLAYER",
        hidden=True,
        expose_value=False,
        callback=_remember_old_player,
        help="Deprecated here: use --as PLAYER.",
    )(command)
    return click.option(
        "--as",
        "player",
        metavar="PLAYER",
        help="Show only what PLAYER could know: their own hand; other hands as counts.",
    )(command)


def viewer(ctx: click.Context, player: str | None) -> str | None:
    """The viewpoint: ``--as``, or the deprecated ``--player`` (with a warning on stderr).

    Raises:
        UsageError: both are given and name different players.
    """
    old = ctx.meta.get(_OLD_PLAYER)
    if old is None:
        return player
    if player is not None and player != old:
        raise UsageError(
            msg(
                "--player {old} and --as {player} disagree; give --as only",
                old=term(old),
                player=term(player),
            )
        )
    click.echo(
        f"Warning: --player is deprecated in replay and show; use --as {term(old)} "
        "(--player chooses matches in list and stats)",
        err=True,
    )
    return str(old)


@main.command("replay")
@match_or_log_argument
@click.option("--from", "from_seq", type=click.IntRange(min=1), metavar="SEQ", help="Start at SEQ.")
@options.number(
    "--to", "to_seq", low=1, metavar="SEQ", help="Stop after SEQ (the rest of the log is not read)."
)
@click.option("--turn", type=click.IntRange(min=0), help="Only events of turn N (0: the setup).")
@click.option(
    "--phase",
    type=click.Choice([p.value for p in Phase], case_sensitive=False),
    help="Only events in this phase.",
)
@click.option(
    "--only",
    type=click.Choice(["decisions", "consequences"]),
    help="Only players' decisions, or only the consequences the rules demand.",
)
@click.option("--board", is_flag=True, help="Show the board after each event.")
@player_option
@options.output_format(
    ["text", "json", "jsonl"], "A text trace, a JSON list, or one JSON object per line."
)
@click.option(
    "--priority-points",
    "points",
    is_flag=True,
    help="List the priority points (where a fork may start) instead of the events.",
)
@click.option(
    "--interactive",
    "-i",
    is_flag=True,
    help="Step through the match on the terminal (? lists the keys).",
)
@options.ruleset_options
@click.pass_context
def replay_command(
    ctx: click.Context,
    match_or_log: str,
    from_seq: int | None,
    to_seq: int | None,
    turn: int | None,
    phase: str | None,
    only: str | None,
    player: str | None,
    output_format: str,
    *,
    board: bool,
    points: bool,
    interactive: bool,
    ruleset_file: Path | None = None,
    sets: tuple[str, ...] = (),
) -> None:
    """Replay a match event by event, with the board after each one.

    Prints one line per event, 'SEQ  description', naming cards and
    players; --board adds the board after the event. A line ending in ' ◆'
    is a priority point: after that event a player holds priority, so a
    fork may start there (JSON: "priority_point": true). Rule violations
    are shown inline under the event that breaks the rule, as
    '!! RULE-ID message'. --from/--to, --turn, --phase and --only choose
    the events shown; turn, phase and step are the position after the event.

    --priority-points lists the priority points instead: seq, player, turn,
    phase, step and the depth of the register.

    --interactive opens a full-screen stepper on the terminal, starting at
    --from: n/→ next event, p/← previous, N/P next/previous decision, t/T
    next/previous turn, r next register result, c next combat step, g go to
    a seq, / search for a card name, v show/hide violations, ↑ ↓ PgUp PgDn
    scroll, ? every key, q quit; ◆ marks the priority points there too.

    MATCH_OR_LOG is a log file (- reads standard input), or the id of a
    match in the store (--store) when no such file exists.

    Exit status: 0 shown, 1 a shown event breaks a rule, 2 usage or input
    error.

    Example:

    \b
        vwlog replay match.jsonl
        vwlog --store club.db replay sim-7-00001 --to 40
        vwlog replay match.jsonl --board --from 120 --to 140
        vwlog replay match.jsonl --turn 3 --only decisions
        vwlog replay match.jsonl --format jsonl --board --as p2
        vwlog replay match.jsonl --priority-points --format json
        vwlog replay match.jsonl --interactive
    """
    player = viewer(ctx, player)
    filters = Filters(from_seq, to_seq, turn, phase.upper() if phase else None, only)
    if from_seq is not None and to_seq is not None and from_seq > to_seq:
        raise UsageError(
            msg("--from {from_seq} is after --to {to_seq}", from_seq=from_seq, to_seq=to_seq)
        )
    if interactive:
        _interactive(
            ctx,
            match_or_log,
            filters,
            output_format,
            player,
            board=board,
            points=points,
            chosen=options.reading(ruleset_file, sets),
        )
        return
    if points and (board or only):
        flag = "--board" if board else "--only"
        raise UsageError(msg("{flag_name} does not apply to --priority-points", flag_name=flag))
    match, ruleset = options.reading(ruleset_file, sets).for_match(load_records(ctx, match_or_log))
    items = _upto(match.items, to_seq)
    if points:
        _print_points(items, filters, output_format)
        return
    _print_trace(ctx, match, items, ruleset, filters, output_format, board=board, player=player)


def _print_trace(
    ctx: click.Context,
    match: LoadedMatch,
    items: Iterable[tuple[int, EventRecord]],
    ruleset: Ruleset | None,
    filters: Filters,
    output_format: str,
    *,
    board: bool,
    player: str | None,
) -> None:
    """Replay and write the events the filters show (paged on a terminal); exit 1 if a shown
    event breaks a rule."""
    from_seq = filters.from_seq
    tracer = _Trace(filters, output_format, board=board, player=player)
    if output_format == "text" and paging_wanted():
        tracer.paged = []
    trace = replay(items, tracer, header=match.header, ruleset=ruleset)
    if tracer.paged is not None:
        page(tracer.paged)
    if from_seq is not None and trace.last_seq < from_seq:
        raise UsageError(
            msg(
                "--from {from_seq} is past the end of {source} (last seq {last_seq})",
                from_seq=from_seq,
                source=match.source,
                last_seq=trace.last_seq,
            )
        )
    if output_format == "json":
        click.echo(dumps(trace.collected))
    if trace.violations:
        click.echo(
            _("{violations} in the events shown; 'vwlog validate' gives the full report").format(
                violations=counted(trace.violations, "violation")
            ),
            err=True,
        )
        ctx.exit(1)


def _print_points(
    items: Iterable[tuple[int, EventRecord]], filters: Filters, output_format: str
) -> None:
    points = [p for p in priority_points(items) if filters.position(p.seq, p.turn, p.phase)]
    if output_format == "text":
        echo(_points_text(points))
    elif output_format == "jsonl":
        for p in points:
            click.echo(dumps(priority_point_json(p), compact=True))
    else:
        click.echo(dumps([priority_point_json(p) for p in points]))


def _interactive(
    ctx: click.Context,
    match_or_log: str,
    filters: Filters,
    output_format: str,
    player: str | None,
    *,
    board: bool,
    points: bool,
    chosen: options.Reading,
) -> None:
    given = [
        flag
        for flag, on in (
            ("--to", filters.to_seq is not None),
            ("--turn", filters.turn is not None),
            ("--phase", filters.phase is not None),
            ("--only", filters.only is not None),
            ("--board", board),
            ("--priority-points", points),
            ("--format", output_format != "text"),
        )
        if on
    ]
    if given:
        raise UsageError(
            msg("{value} cannot be combined with --interactive", value=", ".join(given))
        )
    if match_or_log == STDIO:
        raise UsageError(msg("--interactive reads keys from the terminal: give a log file, not -"))
    if not (sys.stdout.isatty() and sys.stdin.isatty()):
        raise UsageError(
            msg(
                "--interactive needs a terminal, and standard output is not one; leave out "
                "--interactive to print the trace"
            )
        )
    from vwlog.cli.stepper import run_stepper  # Textual is loaded only for the stepper

    match, ruleset = chosen.for_match(load_records(ctx, match_or_log))
    run_stepper(match, start_seq=filters.from_seq, player=player, ruleset=ruleset)


__all__ = [
    "BOARD_INDENT",
    "Filters",
    "board_of",
    "check_player",
    "check_seated",
    "load_records",
    "player_option",
    "replay_command",
    "said",
    "viewer",
    "views_of",
    "violation_line",
]
