"""The interactive stepper of ``vwlog replay --interactive``: a full-screen view on a terminal.

`Stepper` holds the position and answers the keys; it draws nothing, so its moves are tested
without a terminal. `StepperApp` puts it on the screen with Textual: the events around the
current one, their violations and the board after it scroll in one pane (a four-player board
does not fit 80x24), the screen follows the terminal's size, ``?`` shows every key, ``/``
searches the event descriptions and ``g`` goes to a seq. Both stand on a
`vwlog.engine.seek.Timeline`: the match is replayed once, and every move replays at most one
stretch between two checkpoints, so stepping stays instant on a 10,000-event match. As in the
text trace, an event listed with a trailing ``◆`` is a priority point
(`Timeline.priority_points`).

Whatever the log carries (card and player names, a match id) is shown through `term`, so a
control or bidi character in it is drawn as a visible escape, never sent to the terminal, and
the text is never read as Textual or Rich markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.screen import ModalScreen
from textual.widgets import Static

from vwlog.cli.render import POINT_MARK
from vwlog.cli.replay import check_seated
from vwlog.engine.replay import BaseVisitor
from vwlog.engine.seek import Timeline
from vwlog.games import GameRules, Views, game_of_state, unavailable
from vwlog.io.i18n import N_, ngettext, say
from vwlog.io.i18n import gettext as _
from vwlog.model.errors import UsageError
from vwlog.model.text import msg
from vwlog.render.text import board_text, term, violation_message

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.cli.options import LoadedMatch
    from vwlog.engine.replay import Step
    from vwlog.engine.seek import Mark

KEYS: tuple[tuple[str, str], ...] = (
    ("n  →", N_("next event")),
    ("p  ←", N_("previous event")),
    ("N", N_("next decision (a player's)")),
    ("P", N_("previous decision")),
    ("t", N_("next turn")),
    ("T", N_("this turn's start, or the previous turn's")),
    ("r", N_("next register result")),
    ("c", N_("next combat step")),
    ("g", N_("go to a seq")),
    ("/", N_("search the events (a card, a player, a word); empty: search again")),
    ("v", N_("show or hide the violations")),
    ("↑ ↓", N_("scroll a line")),
    ("PgUp PgDn  space", N_("scroll a page")),
    ("Home End", N_("scroll to the top, to the end of the board")),
    ("< >", N_("scroll left, right (long lines)")),
    ("?", N_("this help")),
    ("q  Esc", N_("quit")),
)
"""Every key of the stepper and what it does (English; shown in the active language): the
``?`` screen lists them all."""
HELP = N_("? help  n/p event  N/P decision  t/T turn  / search  g go to  ↑↓ scroll  q quit")
"""The key line at the foot of the screen (fits 80 columns; ``?`` gives the rest; shown in the
active language)."""
CONTEXT = 2
"""Events listed before and after the current one."""
COMBAT_STEPS = frozenset(f"C{n}" for n in range(1, 11))


class Descriptions(BaseVisitor[list[str]]):
    """A replay visitor that describes every event, for the stepper's list and its search."""

    def __init__(self, viewer: str | None = None) -> None:
        self.viewer = viewer
        self.lines: list[str] = []
        self._game: GameRules | None = None
        self._views: Views | None = None

    def visit(self, step: Step) -> None:
        """Describe the event, through the game's views (`vwlog.cli.replay.said`)."""
        from vwlog.cli.replay import said, views_of

        if self._game is None:
            self._game = game_of_state(step.before)
            self._views = views_of(self._game)
            if self._views is None and self.viewer is not None:
                raise unavailable(self._game, "replay --as")
        self.lines.append(say(said(self._views, step, self.viewer)))

    def result(self) -> list[str]:
        """One description per event."""
        return self.lines


class Stepper:
    """Where the stepper stands in a match, and what each key does.

    Every move method returns ``True`` if the position changed; otherwise it leaves a message
    saying why not.
    """

    def __init__(self, timeline: Timeline, descriptions: list[str], *, title: str = "") -> None:
        if not len(timeline):
            raise UsageError(msg("the match has no events to step through"))
        self.timeline = timeline
        self.descriptions = descriptions
        self.title = title
        self.index = 0
        """The current event: the screen shows the board after it."""
        self.show_violations = True
        self.message = ""
        self.last_search = ""
        self.points = frozenset(p.seq for p in timeline.priority_points)
        """The seqs after which a player holds priority."""

    # -- moves -------------------------------------------------------------------------------

    def _go(self, index: int | None, missing: str) -> bool:
        if index is None:
            self.message = missing
            return False
        self.index = index
        self.message = ""
        return True

    def _find(self, predicate: Callable[[Mark], bool], *, backward: bool = False) -> int | None:
        return self.timeline.find(self.index, predicate, backward=backward)

    def next(self) -> bool:
        """One event forward."""
        last = len(self.timeline) - 1
        return self._go(self.index + 1 if self.index < last else None, _("at the last event"))

    def previous(self) -> bool:
        """One event back."""
        return self._go(self.index - 1 if self.index > 0 else None, _("at the first event"))

    def next_decision(self) -> bool:
        """Forward to the next player's decision."""
        return self._go(self._find(lambda m: m.decision), _("no decision after this one"))

    def previous_decision(self) -> bool:
        """Back to the previous player's decision."""
        found = self._find(lambda m: m.decision, backward=True)
        return self._go(found, _("no decision before this one"))

    def next_turn(self) -> bool:
        """Forward to the start of the next turn."""
        return self._go(self._find(lambda m: m.type == "turn_started"), _("no later turn"))

    def previous_turn(self) -> bool:
        """Back to the start of this turn, or of the previous one if already there."""
        found = self._find(lambda m: m.type == "turn_started", backward=True)
        return self._go(found, _("no earlier turn"))

    def next_result(self) -> bool:
        """Forward to the next register object that results."""
        found = self._find(lambda m: m.type == "object_resulted")
        return self._go(found, _("no register result after this one"))

    def next_combat_step(self) -> bool:
        """Forward to the start of the next combat step."""
        found = self._find(lambda m: m.type == "step_started" and m.step in COMBAT_STEPS)
        return self._go(found, _("no combat step after this one"))

    def go_to(self, text: str) -> bool:
        """Jump to the event whose seq is ``text``."""
        try:
            seq = int(text.strip())
        except ValueError:
            self.message = _("not a seq: {text}").format(text=repr(text.strip()))
            return False
        try:
            index = self.timeline.index(seq)
        except UsageError as error:
            self.message = say(error.text())
            return False
        return self._go(index, "")

    def search(self, text: str) -> bool:
        """Forward to the next event whose description mentions ``text`` (a card name, a
        player, a word), case-insensitive, wrapping at the end; empty repeats the last search."""
        needle = (text.strip() or self.last_search).lower()
        if not needle:
            self.message = _("nothing to search for")
            return False
        self.last_search = needle
        n = len(self.descriptions)
        for k in range(1, n + 1):
            i = (self.index + k) % n
            if needle in self.descriptions[i].lower():
                wrapped = i <= self.index
                self._go(i, "")
                if wrapped:
                    self.message = _("search wrapped to the start: {text}").format(
                        text=repr(needle)
                    )
                return True
        self.message = _("no event mentions {text}").format(text=repr(needle))
        return False

    def toggle_violations(self) -> None:
        """Show or hide the violations under the events."""
        self.show_violations = not self.show_violations
        self.message = _("violations shown") if self.show_violations else _("violations hidden")

    # -- the screen --------------------------------------------------------------------------

    def header(self) -> str:
        """The top line: match, seq, position, violations."""
        tl = self.timeline
        mark = tl.marks[self.index]
        parts = [
            _("seq {seq}/{last}").format(seq=mark.seq, last=tl.marks[-1].seq),
            _("turn {turn}").format(turn=mark.turn),
        ]
        if mark.phase:
            parts.append(term(mark.phase + (f"/{mark.step}" if mark.step else "")))
        if mark.priority:
            parts.append(_("priority {player}").format(player=term(mark.priority)))
        if mark.seq in self.points:
            parts.append(_("priority point"))
        total = sum(len(v) for v in tl.violations.values())
        if total:
            parts.append(
                ngettext("{count} violation", "{count} violations", total).format(count=total)
            )
        title = f"vwlog replay {term(self.title)}".rstrip()
        return f"{title} · " + " · ".join(parts)

    def lines(self) -> list[str]:
        """Everything the screen shows, top to bottom, before the key line: the header, a
        blank line and the `body`."""
        return [self.header(), "", *self.body()]

    def body(self) -> list[str]:
        """The scrolling part: the events around the current one (``>`` marks it) with their
        violations, a blank line, and the board after the current event."""
        tl = self.timeline
        out: list[str] = []
        first = max(0, self.index - CONTEXT)
        last = min(len(tl) - 1, self.index + CONTEXT)
        for i in range(first, last + 1):
            mark = tl.marks[i]
            pointer = ">" if i == self.index else " "
            point = POINT_MARK if mark.seq in self.points else ""
            out.append(f"{pointer}{mark.seq:>6}  {term(self.descriptions[i])}{point}")
            if self.show_violations:
                out.extend(
                    f"         !! {v.rule} {term(violation_message(v))}"
                    for v in tl.violations.get(mark.seq, ())
                )
        out.append("")
        out.extend(board_text(tl.step(self.index).after).splitlines())
        return out


# -- the screen (Textual) ----------------------------------------------------------------------

_MOVES: dict[str, Callable[[Stepper], bool]] = {
    "next": Stepper.next,
    "previous": Stepper.previous,
    "next_decision": Stepper.next_decision,
    "previous_decision": Stepper.previous_decision,
    "next_turn": Stepper.next_turn,
    "previous_turn": Stepper.previous_turn,
    "next_result": Stepper.next_result,
    "next_combat_step": Stepper.next_combat_step,
}

_ASK = {"go": N_("go to seq: "), "search": N_("search: ")}


def _screen_text(lines: list[str], *, violation_style: str = "bold red") -> Text:
    """The lines as one Rich text, each value escaped (`term`) and never read as markup; the
    current event is reversed and violation lines are coloured."""
    text = Text(no_wrap=True, overflow="ignore")
    for i, line in enumerate(lines):
        if i:
            text.append("\n")
        shown = term(line)
        if shown.startswith(">"):
            text.append(shown, style="reverse")
        elif shown.lstrip().startswith("!! "):
            text.append(shown, style=violation_style)
        else:
            text.append(shown)
    return text


class HelpScreen(ModalScreen[None]):
    """Every key and what it does; any of ``? q Esc`` closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "close"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: 90; max-width: 100%; height: auto; max-height: 100%;
            border: round $accent; padding: 0 1; background: $surface; }
    #help-text { width: auto; }
    """

    def compose(self) -> ComposeResult:
        """A scrolling list of the keys."""
        width = max(len(k) for k, _what in KEYS)
        lines = [f"{k:<{width}}  {_(what)}" for k, what in KEYS]
        lines += ["", _("◆ after an event: a priority point (a fork may start there)"), ""]
        lines.append(_("? q Esc: close this help"))
        with ScrollableContainer(id="help"):
            yield Static(Text("\n".join(lines)), id="help-text")


class StepperApp(App[None]):
    """The stepper on a terminal: a fixed header, a scrolling body (events, violations, board),
    a message line, a prompt for ``g`` and ``/``, and the key line."""

    TITLE = "vwlog replay"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None
    CSS = """
    Screen { layout: vertical; }
    #header { height: auto; text-style: bold; background: $primary; color: $text; }
    #body { height: 1fr; overflow-x: auto; overflow-y: auto; }
    #body-text { width: auto; }
    #message { height: 1; }
    #ask { height: 1; }
    #keys { height: 1; background: $panel; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,right", "move('next')", "next", show=False),
        Binding("p,left", "move('previous')", "previous", show=False),
        Binding("N", "move('next_decision')", "next decision", show=False),
        Binding("P", "move('previous_decision')", "previous decision", show=False),
        Binding("t", "move('next_turn')", "next turn", show=False),
        Binding("T", "move('previous_turn')", "previous turn", show=False),
        Binding("r", "move('next_result')", "next result", show=False),
        Binding("c", "move('next_combat_step')", "next combat step", show=False),
        Binding("g", "ask('go')", "go to", show=False),
        Binding("slash", "ask('search')", "search", show=False),
        Binding("v", "violations", "violations", show=False),
        Binding("up", "scroll('up')", "scroll up", show=False),
        Binding("down", "scroll('down')", "scroll down", show=False),
        Binding("pageup", "scroll('page_up')", "page up", show=False),
        Binding("pagedown,space", "scroll('page_down')", "page down", show=False),
        Binding("home", "scroll('home')", "top", show=False),
        Binding("end", "scroll('end')", "end", show=False),
        Binding("less_than_sign", "scroll('left')", "scroll left", show=False),
        Binding("greater_than_sign", "scroll('right')", "scroll right", show=False),
        Binding("question_mark", "help", "help", show=False),
        Binding("q,escape", "quit", "quit", show=False),
        Binding("ctrl+c", "interrupt", "interrupt", show=False, priority=True),
    ]

    def __init__(self, stepper: Stepper) -> None:
        super().__init__()
        self.stepper = stepper
        self._asking: str | None = None
        """``go`` or ``search`` while the prompt is open."""
        self._typed = ""
        """What was typed into the open prompt."""

    def compose(self) -> ComposeResult:
        """Header, body, message, prompt, keys."""
        yield Static(id="header", markup=False)
        with ScrollableContainer(id="body", can_focus=False):
            yield Static(id="body-text", markup=False)
        yield Static(id="message", markup=False)
        ask = Static(id="ask", markup=False)
        ask.display = False
        yield ask
        yield Static(Text(_(HELP)), id="keys")

    def on_mount(self) -> None:
        """Draw the first position."""
        self.refresh_view()

    def refresh_view(self) -> None:
        """Draw the stepper's position and message."""
        self.query_one("#header", Static).update(Text(term(self.stepper.header())))
        self.query_one("#body-text", Static).update(_screen_text(self.stepper.body()))
        self.query_one("#message", Static).update(Text(term(self.stepper.message)))

    def shown(self) -> list[str]:
        """The text of the header, body and message, as drawn (for a reader of the screen)."""
        parts = [self.query_one(f"#{name}", Static).render() for name in ("header", "body-text")]
        parts.append(self.query_one("#message", Static).render())
        return "\n".join(str(p) for p in parts).splitlines()

    # -- actions -----------------------------------------------------------------------------

    def action_move(self, name: str) -> None:
        """One of the stepper's moves; the body scrolls back to the top."""
        if self._asking is not None:
            return
        _MOVES[name](self.stepper)
        self.refresh_view()
        self.query_one("#body", ScrollableContainer).scroll_home(animate=False)

    def action_violations(self) -> None:
        """Show or hide the violations."""
        self.stepper.toggle_violations()
        self.refresh_view()

    def action_scroll(self, where: str) -> None:
        """Scroll the body."""
        body = self.query_one("#body", ScrollableContainer)
        {
            "up": lambda: body.scroll_up(animate=False),
            "down": lambda: body.scroll_down(animate=False),
            "page_up": lambda: body.scroll_page_up(animate=False),
            "page_down": lambda: body.scroll_page_down(animate=False),
            "home": lambda: body.scroll_home(animate=False),
            "end": lambda: body.scroll_end(animate=False),
            "left": lambda: body.scroll_left(animate=False),
            "right": lambda: body.scroll_right(animate=False),
        }[where]()

    def action_interrupt(self) -> None:
        """Ctrl-C: leave as an interrupted command does (`run_stepper` raises
        `KeyboardInterrupt`, exit status 130)."""
        self.exit(return_code=130)

    def action_help(self) -> None:
        """Every key, on a screen of its own."""
        self.push_screen(HelpScreen())

    def action_ask(self, what: str) -> None:
        """Open the prompt for a seq (``go``) or a search (``search``).

        The prompt takes the keys itself (`on_key`) instead of an input widget taking focus:
        keys reach the application in the order typed, so digits typed right after ``g`` go
        to the prompt however busy the terminal is; a focus change would take effect only
        after keys already on their way."""
        self._asking = what
        self._typed = ""
        self.query_one("#ask").display = True
        self._draw_prompt()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the prompt is open, every key is typed into it (Ctrl-C still interrupts)."""
        return self._asking is None or action == "interrupt"

    def _draw_prompt(self) -> None:
        if self._asking is not None:
            label = _(_ASK[self._asking])
            self.query_one("#ask", Static).update(Text(label + term(self._typed) + "▏"))

    def _close_prompt(self) -> None:
        self._asking = None
        self.query_one("#ask").display = False

    def on_key(self, event: events.Key) -> None:
        """Typing into the open prompt: Enter goes to the seq or searches, Esc closes it
        without moving, Backspace takes the last character back."""
        what = self._asking
        if what is None:
            return
        event.stop()
        event.prevent_default()
        if event.key in ("enter", "ctrl+j", "ctrl+m"):  # CR or LF ends the line
            self._close_prompt()
            if what == "go":
                self.stepper.go_to(self._typed)
            else:
                self.stepper.search(self._typed)
            self.refresh_view()
            self.query_one("#body", ScrollableContainer).scroll_home(animate=False)
        elif event.key == "escape":
            self._close_prompt()
            self.refresh_view()
        elif event.key == "backspace":
            self._typed = self._typed[:-1]
        elif event.is_printable and event.character and len(self._typed) < 60:
            self._typed += event.character
        self._draw_prompt()


def run_stepper(
    match: LoadedMatch,
    *,
    start_seq: int | None,
    player: str | None,
    ruleset: Any = None,
) -> None:
    """Replay ``match`` once, then step through it on the terminal until ``q``.

    Raises:
        UsageError: the match is empty, ``start_seq`` is not in it, or ``player`` is not
            seated in it.
        LogFormatError: a record of the log is malformed.
        KeyboardInterrupt: Ctrl-C was pressed.
    """
    app = StepperApp(build_stepper(match, start_seq=start_seq, player=player, ruleset=ruleset))
    app.run()
    if app.return_code == 130:
        raise KeyboardInterrupt


def build_stepper(
    match: LoadedMatch,
    *,
    start_seq: int | None,
    player: str | None,
    ruleset: Any = None,
) -> Stepper:
    """Replay ``match`` once into a stepper at ``start_seq`` (or the first event), describing
    the events as ``player`` could know them, judged under ``ruleset`` when one is given
    (``--ruleset``/``--set``) instead of the one the match names.

    Raises:
        UsageError: the match is empty, ``start_seq`` is not in it, or ``player`` is not
            seated in it.
        LogFormatError: a record of the log is malformed.
    """
    described = Descriptions(viewer=player)
    timeline = Timeline(
        match.items,
        header=match.header,
        ruleset=ruleset,
        visitor=described,
        source=match.source,
    )
    players = timeline.game.summary(timeline.final).players
    if player is not None:
        check_seated(player, players)
    title = match.header.match_id if match.header is not None else match.source
    stepper = Stepper(timeline, described.result(), title=title)
    if start_seq is not None:
        stepper.index = timeline.index(start_seq)
    return stepper


__all__ = [
    "COMBAT_STEPS",
    "CONTEXT",
    "HELP",
    "KEYS",
    "Descriptions",
    "HelpScreen",
    "Stepper",
    "StepperApp",
    "build_stepper",
    "run_stepper",
]
