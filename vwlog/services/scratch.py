"""Forks and play mode on a log file, without a store of the user's: the file is imported into
a private store in memory for the one call, forked or played there, and the result written as
a log file (a log imported and exported again is identical, byte for byte, so playing on a
file appends to it).

Nothing is left behind: the store goes when the call ends, and the output file is replaced
only once everything it will hold is known (nothing is written if a decision is refused).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vwlog.services.forks import fork_match
from vwlog.services.importing import import_log
from vwlog.services.matches import export_match
from vwlog.services.play import PlayResult, play_decisions
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from pathlib import Path


__all__ = ["FileFork", "fork_file", "in_memory", "play_file"]


@contextmanager
def in_memory(path: str | Path) -> Iterator[tuple[MatchStore, str]]:
    """A private store in memory holding the match of the log file ``path``, and its id.

    Raises:
        LogFormatError: the file is unreadable, malformed, or its hash chain is broken.
    """
    with MatchStore.open("memory:") as store:
        result = import_log(store, path)
        assert result.match_id is not None  # a log that imports names its match
        yield store, result.match_id


@dataclass(frozen=True, slots=True)
class FileFork:
    """What `fork_file` wrote."""

    match_id: str
    """The fork's match id (``PARENT~NAME``), as its log's header names it."""
    records: int
    """How many records the fork's log holds."""


def fork_file(path: str | Path, at: int, out: str | Path, *, name: str | None = None) -> FileFork:
    """Fork the match of the log file ``path`` at the priority point ``at`` and write the
    fork, a self-contained log whose header names its parent, to ``out`` (``-``: standard
    output).

    Raises:
        LogFormatError: the file is unreadable or malformed.
        NotAPriorityPointError: ``at`` is not a priority point (the nearest ones are named).
        ForkNameError: the name is not one a match id can hold.
        OutputError: ``out`` cannot be written.
    """
    with in_memory(path) as (store, match_id):
        fork_id = fork_match(store, match_id, at, name=name)
        return FileFork(fork_id, export_match(store, fork_id, out))


def play_file(
    path: str | Path,
    decisions: Iterable[Any],
    out: str | Path,
    *,
    auto: int = 0,
    policy: str = "greedy",
    seed: int = 0,
    choices: Mapping[str, Sequence[str]] | None = None,
) -> PlayResult:
    """Play decisions on the match of the log file ``path`` (see
    `vwlog.services.play.play_decisions`) and write the match, with what was played, to
    ``out`` (``path`` itself to go on in the same file; ``-``: standard output). When a
    decision is refused nothing is written.

    Raises:
        LogFormatError: the file is unreadable or malformed.
        IllegalEventError: a decision breaks a rule (nothing is written).
        UsageError: a decision cannot be read, or the match is over or sealed.
        OutputError: ``out`` cannot be written.
    """
    with in_memory(path) as (store, match_id):
        result = play_decisions(
            store, match_id, decisions, auto=auto, policy=policy, seed=seed, choices=choices
        )
        export_match(store, match_id, out)
        return result
