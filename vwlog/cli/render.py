"""Rendering helpers shared by the commands: progress bars, JSON and terminal-safe output.

The output vocabulary itself is `vwlog.render`; this module only connects it to click.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

import click

from vwlog.io.i18n import gettext
from vwlog.model.ruleids import RULE_ID
from vwlog.render.json import dumps
from vwlog.render.rules import rule_title
from vwlog.render.text import visible

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "Bar",
    "colour_wanted",
    "echo",
    "echo_result",
    "page",
    "paging_wanted",
    "progress",
    "rule_title",
    "to_json",
]


POINT_MARK = " \u25c6"
"""Ends an event line of the text trace (and of the stepper's list) that is a priority point:
after that event a player holds priority, so a fork may start there."""


class Bar(Protocol):
    """What a command needs of a progress bar."""

    def update(self, n_steps: int) -> None:
        """Advance by ``n_steps``."""


class _NoBar:
    def update(self, n_steps: int) -> None:
        """Do nothing."""


_CLEAR_LINE = "\r\x1b[K"
"""Back to the start of the terminal line and erase it (where the bar was drawn)."""


class _TtyBar:
    """A click progress bar on a terminal that steps aside for results: `echo` erases the bar
    line, writes the result on its own line, and draws the bar again below it, so results and
    the bar never share a line."""

    def __init__(self, bar: Any) -> None:
        self._bar = bar
        self.shown = False

    def update(self, n_steps: int) -> None:
        """Advance by ``n_steps`` and draw the bar."""
        self._bar.update(n_steps)
        self.shown = True

    def clear(self) -> None:
        """Erase the bar's line, if the bar was drawn."""
        if self.shown:
            sys.stderr.write(_CLEAR_LINE)
            sys.stderr.flush()

    def redraw(self) -> None:
        """Draw the bar again (after a result was written)."""
        if self.shown:
            self._bar._last_line = None  # click draws only a changed line; this one was erased
            self._bar.render_progress()


_ACTIVE: list[_TtyBar] = []
"""The progress bar being drawn on the terminal, if any (`echo` steps around it)."""


@contextmanager
def progress(total: int, label: str, *, enabled: bool = True) -> Iterator[Bar]:
    """A progress bar on stderr for long runs on a terminal, ``label`` (marked with ``N_``) in
    the active language; silent otherwise. While it is shown, `echo` writes each line above
    the bar, never glued to it."""
    if not enabled or not sys.stderr.isatty():
        yield _NoBar()
        return
    with click.progressbar(
        length=total, label=gettext(label), file=sys.stderr, show_pos=True
    ) as bar:
        tty_bar = _TtyBar(bar)
        _ACTIVE.append(tty_bar)
        try:
            yield tty_bar
        finally:
            _ACTIVE.remove(tty_bar)


def echo(text: str = "", *, err: bool = False) -> None:
    """Write lines for a terminal: control and bidi characters that a log carried are shown
    as backslash escapes (`vwlog.render.text.visible`), never sent to the terminal. While a
    progress bar is drawn, the bar line is erased first and drawn again after the text."""
    bar = _ACTIVE[-1] if _ACTIVE else None
    if bar is not None:
        bar.clear()
    click.echo(visible(text), err=err)
    if bar is not None:
        bar.redraw()


def colour_wanted() -> bool:
    """Whether to colour standard output: only on a terminal, and never when ``NO_COLOR`` is
    set to anything but the empty string (https://no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


_VERDICT = re.compile(r"^(\s*)(OK|ILLEGAL)( ·)", re.MULTILINE)
_RULE_ID = re.compile(rf"(?<![\w-])({RULE_ID}[a-z]?)(?![\w-])")
"""A rule id of any game (``R-CMB-19``, ``WOW-STA-9``), with a sub-rule's letter (``R-SKL-10b``)."""


def colourise(text: str) -> str:
    """``text`` with verdicts (OK green, ILLEGAL red) and rule ids (yellow) coloured."""

    def verdict(m: re.Match[str]) -> str:
        fg = "green" if m.group(2) == "OK" else "red"
        return m.group(1) + click.style(m.group(2), fg=fg, bold=True) + m.group(3)

    text = _VERDICT.sub(verdict, text)
    return _RULE_ID.sub(lambda m: click.style(m.group(1), fg="yellow"), text)


def echo_result(text: str) -> None:
    """`echo` for a result on standard output, coloured where `colour_wanted` (the escapes are
    added after the text is made visible, so a log cannot send its own)."""
    bar = _ACTIVE[-1] if _ACTIVE else None
    if bar is not None:
        bar.clear()
    shown = visible(text)
    click.echo(colourise(shown) if colour_wanted() else shown)
    if bar is not None:
        bar.redraw()


def paging_wanted() -> bool:
    """Whether long output may go through a pager: standard output and input on a terminal."""
    return sys.stdout.isatty() and sys.stdin.isatty()


def page(lines: list[str]) -> None:
    """Write ``lines`` through a pager (``$PAGER``, else less) when they do not fit the
    terminal; directly otherwise."""
    text = visible("\n".join(lines))
    if len(lines) < shutil.get_terminal_size().lines:
        click.echo(text)
        return
    click.echo_via_pager(text + "\n")


def to_json(data: Any) -> str:
    """Stable, indented JSON for ``--format json`` output (sorted keys)."""
    return dumps(data)
