"""Files a log is read from and written to: regular or not, and replaced whole or not at all."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from vwlog.io.problems import size_text
from vwlog.model.errors import LogFormatError, OutputError
from vwlog.model.text import msg, said_text

if TYPE_CHECKING:
    from collections.abc import Iterator

STDIO = "-"
"""The path that means standard input (for reading) or standard output (for writing)."""
FIFO_WAIT = 10.0
"""How long, in seconds, a FIFO is waited on for a writer before it is refused (a FIFO nobody
writes to would otherwise block the command forever); ``VWLOG_FIFO_WAIT`` sets another."""
FIFO_WAIT_ENV = "VWLOG_FIFO_WAIT"
_CHUNK = 1 << 20
_BLANKS = b" \t\r"


def file_is_regular(path: str | Path) -> bool:
    """Whether ``path`` names a regular file (which can be read more than once)."""
    if str(path) == STDIO:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def require_regular_file(path: str | Path, why: str) -> None:
    """Refuse a pipe, a device or a socket where a command must read a file twice (``why``);
    a path that does not exist is left for the caller to judge (it may be a match id).

    Raises:
        LogFormatError: ``path`` exists and is not a regular file.
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise LogFormatError(str(path), None, f"not a regular file: {why}; save it to a file first")


def open_input(path: str | Path) -> BinaryIO:
    """Open a log to read it: a regular file as it is; a FIFO without blocking on a writer
    that never comes (waited on for at most `FIFO_WAIT` seconds); standard input for ``-``
    (`standard_input`). A device or a socket is refused: no log is read from one, and a
    device such as ``/dev/zero`` never ends.

    Raises:
        LogFormatError: a device or a socket; a FIFO no writer opened in time; standard input
            is closed.
        OSError: the file cannot be opened.
    """
    name = str(path)
    if name == STDIO:
        return standard_input()
    mode = os.stat(path).st_mode
    if stat.S_ISFIFO(mode):
        return _open_fifo(name)
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise LogFormatError(
            name, None, said_text(msg("not a log file but a device or a socket; save it to a file"))
        )
    return open(path, "rb")  # the caller closes it


def standard_input() -> BinaryIO:
    """Standard input as bytes.

    Raises:
        LogFormatError: standard input is closed (the process was started without one).
    """
    stdin = sys.stdin
    buffer = getattr(stdin, "buffer", None) if stdin is not None else None
    if buffer is None or getattr(buffer, "closed", False):
        raise LogFormatError("<stdin>", None, said_text(msg("standard input is closed")))
    return buffer  # type: ignore[no-any-return]


def _fifo_wait() -> float:
    try:
        wait = float(os.environ.get(FIFO_WAIT_ENV, FIFO_WAIT))
    except ValueError:
        return FIFO_WAIT
    return wait if wait >= 0 else FIFO_WAIT


def _open_fifo(name: str) -> BinaryIO:
    """A FIFO opened for reading once a writer has written to it or closed it, within the
    wait; then read blocking, as a pipe is."""
    import select

    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    try:
        wait = _fifo_wait()
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI | select.POLLHUP)
        if not poller.poll(int(wait * 1000)):
            raise LogFormatError(
                name,
                None,
                said_text(
                    msg(
                        "a FIFO nobody wrote to within {seconds} s; write the log into it, or "
                        "save it to a file",
                        seconds=f"{wait:g}",
                    )
                ),
            )
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def spool(path: str | Path, out: BinaryIO, *, max_line_bytes: int) -> None:
    """Copy a log that can be read only once (standard input, a FIFO) into ``out``, with a
    bound: a line longer than ``max_line_bytes`` is refused as a reader refuses it (nothing
    past it is read), and the copy ends after the first line that cannot be a record (not a
    JSON object), where every reader stops anyway, so an endless stream is never copied whole.

    Raises:
        LogFormatError: what `open_input` raises; a line over the limit; the input cannot be
            read.
        OSError: the copy cannot be written.
    """
    name = "<stdin>" if str(path) == STDIO else str(path)
    try:
        source = open_input(path)
    except OSError as err:
        why = said_text(msg("cannot open: {why}", why=os_detail(err)))
        raise LogFormatError(name, None, why) from err
    line_no, length, opened = 1, 0, False
    try:
        while True:
            try:
                chunk = source.read1(_CHUNK) if hasattr(source, "read1") else source.read(_CHUNK)
            except OSError as err:
                why = said_text(msg("cannot read: {why}", why=os_detail(err)))
                raise LogFormatError(name, line_no, why) from err
            if not chunk:
                return
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                stop = len(chunk) if end < 0 else end
                piece = stop - start
                if not opened:
                    # the line's first byte after any blanks decides: a JSON object or not
                    first = chunk[start:stop].lstrip(_BLANKS)[:1]
                    opened = bool(first)
                    if first not in (b"{", b"") or (not first and end >= 0):
                        out.write(chunk[start:] if end < 0 else chunk[start : end + 1])
                        return  # no JSON object (a blank line, or anything else): readers stop
                length += piece
                if length > max_line_bytes:
                    limit = size_text(max_line_bytes)
                    detail = msg("line longer than the limit of {limit}", limit=limit)
                    raise LogFormatError(name, line_no, said_text(detail))
                if end < 0:
                    out.write(chunk[start:])
                    break
                out.write(chunk[start : end + 1])
                line_no, length, opened, start = line_no + 1, 0, False, end + 1
    finally:
        if source is not getattr(sys.stdin, "buffer", None):
            source.close()


@contextmanager
def replacing(target: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write ``target``'s new content into; on success it replaces
    ``target`` whole (a rename), on any error ``target`` is left as it was.

    The temporary file is created beside the target by `tempfile.mkstemp` (``O_EXCL``, a fresh
    random name, mode 0600 until it is renamed): a link or file planted at a predictable name
    is never followed or overwritten. The new file gets the permissions the umask allows.

    Raises:
        OutputError: ``target`` is empty or names a directory, or the file cannot be written
            (nothing is replaced then).
    """
    name = str(target)
    path = Path(name)
    if not name or not path.name or name.endswith(("/", os.sep)):
        raise OutputError(name, "no file name given")
    if path.is_dir():
        raise OutputError(name, "is a directory")
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise OutputError(name, os_detail(err)) from err
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as out:
            yield out
        os.replace(temporary, path)
    except OSError as err:
        raise OutputError(name, os_detail(err)) from err
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _umask() -> int:
    """The process's umask, read without changing it (``os.umask`` would, for every thread)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    return 0o022


def os_detail(err: OSError) -> str:
    """An operating-system error as a lower-case phrase ("no such file or directory")."""
    return (err.strerror or str(err)).lower()


__all__ = [
    "FIFO_WAIT",
    "FIFO_WAIT_ENV",
    "STDIO",
    "file_is_regular",
    "open_input",
    "os_detail",
    "replacing",
    "require_regular_file",
    "spool",
    "standard_input",
]
