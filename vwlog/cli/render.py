"""Rendering helpers shared by the commands: progress bars, JSON and terminal-safe output.

The output vocabulary itself is `vwlog.render`; this module only connects it to click.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

import click

from vwlog.render.json import dumps
from vwlog.render.rules import rule_title
from vwlog.render.text import visible

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["Bar", "echo", "progress", "rule_title", "to_json"]


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


@contextmanager
def progress(total: int, label: str, *, enabled: bool = True) -> Iterator[Bar]:
    """A progress bar on stderr for long runs on a terminal; silent otherwise."""
    if not enabled or not sys.stderr.isatty():
        yield _NoBar()
        return
    with click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True) as bar:
        yield bar


def echo(text: str = "", *, err: bool = False) -> None:
    """Write lines for a terminal: control and bidi characters that a log carried are shown
    as backslash escapes (`vwlog.render.text.visible`), never sent to the terminal."""
    click.echo(visible(text), err=err)


def to_json(data: Any) -> str:
    """Stable, indented JSON for ``--format json`` output (sorted keys)."""
    return dumps(data)
