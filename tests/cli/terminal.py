"""Running vwlog on a real pseudo-terminal (the `pty` module), as a user at a terminal does."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from dataclasses import dataclass

_ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass(frozen=True)
class TtyRun:
    """What a command wrote to its terminal, and how it ended."""

    raw: str
    """Every byte written to the terminal (stdout and stderr both), decoded."""
    code: int

    @property
    def screen_lines(self) -> list[str]:
        """The lines as a terminal shows them: a carriage return starts the line again (what
        follows overwrites it), escape sequences are not shown."""
        out = []
        for line in self.raw.replace("\r\n", "\n").split("\n"):
            out.append(_ESC.sub("", line.split("\r")[-1]))
        return out


def run_on_tty(
    args: list[str], *, env: dict[str, str] | None = None, timeout: float = 60.0
) -> TtyRun:
    """Run ``python -m vwlog ARGS`` with its standard output and error on one pseudo-terminal
    (standard input too), read all it writes, and return it with the exit status. Bounded:
    the child is killed after ``timeout`` seconds."""
    master, slave = pty.openpty()
    full_env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "24", **(env or {})}
    child = subprocess.Popen(
        [sys.executable, "-m", "vwlog", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=full_env,
        close_fds=True,
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif child.poll() is not None:
                break
    finally:
        if child.poll() is None:
            child.kill()
        code = child.wait(timeout=10)
        os.close(master)
    return TtyRun(b"".join(chunks).decode("utf-8", "replace"), code)
