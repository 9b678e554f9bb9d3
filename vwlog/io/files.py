"""Files a log is read from and written to: regular or not, and replaced whole or not at all."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from vwlog.model.errors import LogFormatError, OutputError

if TYPE_CHECKING:
    from collections.abc import Iterator

STDIO = "-"
"""The path that means standard input (for reading) or standard output (for writing)."""


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


__all__ = ["STDIO", "file_is_regular", "os_detail", "replacing", "require_regular_file"]
