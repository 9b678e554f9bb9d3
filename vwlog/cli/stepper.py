"""The interactive stepper of ``vwlog replay --interactive``: a full-screen view on a terminal.

`Stepper` holds the position and answers the keys; it draws nothing, so it is tested without a
terminal. `run_stepper` puts it on the screen with `curses` (standard library). Both stand on a
`vwlog.engine.seek.Timeline`: the match is replayed once, and every move replays at most one stretch
between two checkpoints, so stepping stays instant on a 10,000-event match. As in the text trace,
an event listed with a trailing ``◆`` is a priority point (`Timeline.priority_points`).
"""

from __future__ import annotations

import contextlib
import curses
import locale
from typing import TYPE_CHECKING

from vwlog.cli.render import POINT_MARK
from vwlog.engine.describe import description
from vwlog.engine.replay import BaseVisitor
from vwlog.engine.seek import Timeline
from vwlog.io.i18n import say
from vwlog.model.errors import UsageError
from vwlog.model.text import msg
from vwlog.render.text import term, violation_message

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.cli.options import LoadedMatch
    from vwlog.engine.replay import Step
    from vwlog.engine.seek import Mark

HELP = (
    "n/→ next  p/← prev  N/P decision  t/T turn  r result  c combat step  "
    "g go to  / search  v violations  q quit"
)
"""The key line at the foot of the screen."""
CONTEXT = 2
"""Events listed before and after the current one."""
COMBAT_STEPS = frozenset(f"C{n}" for n in range(1, 11))


class Descriptions(BaseVisitor[list[str]]):
    """A replay visitor that describes every event, for the stepper's list and its search."""

    def __init__(self, viewer: str | None = None) -> None:
        self.viewer = viewer
        self.lines: list[str] = []

    def visit(self, step: Step) -> None:
        """Describe the event."""
        self.lines.append(say(description(step.record.event, step.before, viewer=self.viewer)))

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
        return self._go(self.index + 1 if self.index < last else None, "at the last event")

    def previous(self) -> bool:
        """One event back."""
        return self._go(self.index - 1 if self.index > 0 else None, "at the first event")

    def next_decision(self) -> bool:
        """Forward to the next player's decision."""
        return self._go(self._find(lambda m: m.decision), "no decision after this one")

    def previous_decision(self) -> bool:
        """Back to the previous player's decision."""
        found = self._find(lambda m: m.decision, backward=True)
        return self._go(found, "no decision before this one")

    def next_turn(self) -> bool:
        """Forward to the start of the next turn."""
        return self._go(self._find(lambda m: m.type == "turn_started"), "no later turn")

    def previous_turn(self) -> bool:
        """Back to the start of this turn, or of the previous one if already there."""
        found = self._find(lambda m: m.type == "turn_started", backward=True)
        return self._go(found, "no earlier turn")

    def next_result(self) -> bool:
        """Forward to the next register object that results."""
        found = self._find(lambda m: m.type == "object_resulted")
        return self._go(found, "no register result after this one")

    def next_combat_step(self) -> bool:
        """Forward to the start of the next combat step."""
        found = self._find(lambda m: m.type == "step_started" and m.step in COMBAT_STEPS)
        return self._go(found, "no combat step after this one")

    def go_to(self, text: str) -> bool:
        """Jump to the event whose seq is ``text``."""
        try:
            seq = int(text.strip())
        except ValueError:
            self.message = f"not a seq: {text.strip()!r}"
            return False
        try:
            index = self.timeline.index(seq)
        except UsageError as error:
            self.message = str(error)
            return False
        return self._go(index, "")

    def search(self, text: str) -> bool:
        """Forward to the next event whose description mentions ``text`` (a card name, a
        player, a word), case-insensitive, wrapping at the end; empty repeats the last search."""
        needle = (text.strip() or self.last_search).lower()
        if not needle:
            self.message = "nothing to search for"
            return False
        self.last_search = needle
        n = len(self.descriptions)
        for k in range(1, n + 1):
            i = (self.index + k) % n
            if needle in self.descriptions[i].lower():
                wrapped = i <= self.index
                self._go(i, "")
                if wrapped:
                    self.message = f"search wrapped to the start: {needle!r}"
                return True
        self.message = f"no event mentions {needle!r}"
        return False

    def toggle_violations(self) -> None:
        """Show or hide the violations under the events."""
        self.show_violations = not self.show_violations
        self.message = f"violations {'shown' if self.show_violations else 'hidden'}"

    # -- the screen --------------------------------------------------------------------------

    def header(self) -> str:
        """The top line: match, seq, position, violations."""
        tl = self.timeline
        mark = tl.marks[self.index]
        parts = [f"seq {mark.seq}/{tl.marks[-1].seq}", f"turn {mark.turn}"]
        if mark.phase:
            parts.append(mark.phase + (f"/{mark.step}" if mark.step else ""))
        if mark.priority:
            parts.append(f"priority {mark.priority}")
        if mark.seq in self.points:
            parts.append("priority point")
        total = sum(len(v) for v in tl.violations.values())
        if total:
            parts.append(f"{total} violation{'s' if total != 1 else ''}")
        title = f"vwlog replay {self.title}".rstrip()
        return f"{title} · " + " · ".join(parts)

    def lines(self) -> list[str]:
        """Everything the screen shows, top to bottom, before the key line."""
        tl = self.timeline
        out = [self.header(), ""]
        first = max(0, self.index - CONTEXT)
        last = min(len(tl) - 1, self.index + CONTEXT)
        for i in range(first, last + 1):
            mark = tl.marks[i]
            pointer = ">" if i == self.index else " "
            point = POINT_MARK if mark.seq in self.points else ""
            out.append(f"{pointer}{mark.seq:>6}  {self.descriptions[i]}{point}")
            if self.show_violations:
                out.extend(
                    f"         !! {v.rule} {violation_message(v)}"
                    for v in tl.violations.get(mark.seq, ())
                )
        out.append("")
        out.extend(str(tl.step(self.index).after).splitlines())
        return out


# -- curses ----------------------------------------------------------------------------------

_KEYS: dict[int, Callable[[Stepper], object]] = {
    ord("n"): Stepper.next,
    curses.KEY_RIGHT: Stepper.next,
    ord("p"): Stepper.previous,
    curses.KEY_LEFT: Stepper.previous,
    ord("N"): Stepper.next_decision,
    ord("P"): Stepper.previous_decision,
    ord("t"): Stepper.next_turn,
    ord("T"): Stepper.previous_turn,
    ord("r"): Stepper.next_result,
    ord("c"): Stepper.next_combat_step,
    ord("v"): Stepper.toggle_violations,
}


def _put(screen: curses.window, y: int, text: str, attr: int = 0) -> None:
    height, width = screen.getmaxyx()
    if 0 <= y < height and width > 1:
        # curses reports writing the last cell of the screen as an error; nothing is lost
        with contextlib.suppress(curses.error):
            screen.addnstr(y, 0, term(text), width - 1, attr)


def _draw(screen: curses.window, stepper: Stepper) -> None:
    screen.erase()
    height, _width = screen.getmaxyx()
    body = stepper.lines()
    room = max(height - 2, 0)
    for y, line in enumerate(body[:room]):
        _put(screen, y, line, curses.A_BOLD if y == 0 else 0)
    _put(screen, height - 2, HELP, curses.A_REVERSE)
    _put(screen, height - 1, stepper.message)
    screen.refresh()


def _prompt(screen: curses.window, label: str) -> str:
    height, _width = screen.getmaxyx()
    _put(screen, height - 1, " " * 200)
    _put(screen, height - 1, label)
    curses.echo()
    curses.curs_set(1)
    try:
        raw = screen.getstr(height - 1, len(label), 60)
    finally:
        curses.noecho()
        curses.curs_set(0)
    return raw.decode(errors="replace")


def _loop(screen: curses.window, stepper: Stepper) -> None:
    curses.curs_set(0)
    screen.keypad(True)
    while True:
        _draw(screen, stepper)
        key = screen.getch()
        if key in (ord("q"), 27):
            return
        action = _KEYS.get(key)
        if action is not None:
            action(stepper)
        elif key == ord("g"):
            stepper.go_to(_prompt(screen, "go to seq: "))
        elif key == ord("/"):
            stepper.search(_prompt(screen, "search: "))
        elif key != curses.KEY_RESIZE:
            stepper.message = f"unknown key; {HELP}"


def run_stepper(match: LoadedMatch, *, start_seq: int | None, player: str | None) -> None:
    """Replay ``match`` once, then step through it on the terminal until ``q``.

    Raises:
        UsageError: the match is empty, ``start_seq`` is not in it, or ``player`` is not
            seated in it.
        LogFormatError: a record of the log is malformed.
    """
    described = Descriptions(viewer=player)
    timeline = Timeline(match.items, header=match.header, visitor=described, source=match.source)
    if player is not None and not timeline.final.has_player(player):
        seated = ", ".join(p.id for p in timeline.final.players)
        raise UsageError(
            msg(
                "no player {player} in this match (players: {seated})",
                player=repr(player),
                seated=seated,
            )
        )
    title = match.header.match_id if match.header is not None else match.source
    stepper = Stepper(timeline, described.result(), title=title)
    if start_seq is not None:
        stepper.index = timeline.index(start_seq)
    locale.setlocale(locale.LC_ALL, "")
    curses.wrapper(_loop, stepper)


__all__ = ["COMBAT_STEPS", "CONTEXT", "HELP", "Descriptions", "Stepper", "run_stepper"]
