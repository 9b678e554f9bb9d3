"""A reader that stops reading: ``vwlog validate corpus/ | head -1``.

When the reader of standard output goes away (``head``, ``less`` quit, a closed socket), the
next write fails with a broken pipe. That is not an error of the command: it ends quietly (no
traceback, no ``Error:`` line) with the exit status of what it did up to then. A command that
judges records one by one says the status of each as it goes (`record_status`); one that says
nothing did what it did successfully (0).

Standard output is then pointed at the null device, so that what is still buffered, flushed
when the interpreter exits, fails no more.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from collections.abc import Iterator

STATUS_KEY = "vwlog.status"
"""Where a command keeps the worst exit status of what it has done so far (``ctx.meta``)."""

_WORST_FIRST = (2, 1, 3)
"""Exit statuses from the worst: unreadable input, findings, UNVERIFIED (then 0)."""


def worse(a: int, b: int) -> int:
    """The worse of two exit statuses (2, then 1, then 3, then 0; any other, as it is)."""
    for status in _WORST_FIRST:
        if status in (a, b):
            return status
    return a or b


def record_status(ctx: click.Context, status: int) -> None:
    """Keep ``status`` as part of what the command has done (the worst so far wins): the exit
    status if the reader of its output goes away from now on."""
    meta = ctx.find_root().meta
    meta[STATUS_KEY] = worse(int(meta.get(STATUS_KEY, 0)), status)


def status_so_far(ctx: click.Context) -> int:
    """The worst exit status the command has recorded (0: none)."""
    return int(ctx.find_root().meta.get(STATUS_KEY, 0))


def _silence_stdout() -> None:
    """Point standard output at the null device (where it has a file descriptor)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (a test runner's buffer): nothing is flushed at exit
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def _flushed() -> bool:
    """Flush standard output now, where a broken pipe can still be handled; ``False`` if the
    reader has gone away (standard output is then silenced)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return False
    except ValueError:  # closed already
        pass
    return True


@contextlib.contextmanager
def quiet_on_closed_pipe(ctx: click.Context) -> Iterator[None]:
    """Run a command; if the reader of its output goes away, end quietly with the status of
    what it did (`status_so_far`; its own exit status, if it had finished)."""
    try:
        yield
    except BrokenPipeError:
        _silence_stdout()
        raise click.exceptions.Exit(status_so_far(ctx)) from None
    except BaseException:
        _flushed()  # its own exit status (or error) stands
        raise
    if not _flushed():
        raise click.exceptions.Exit(0)


__all__ = ["STATUS_KEY", "quiet_on_closed_pipe", "record_status", "status_so_far", "worse"]
