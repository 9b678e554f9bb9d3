"""Which ruleset flags a verdict rests on: every violation whose verdict a flag decides names
the flag, in its ``flag`` field and in its message (so in every format and language).

A verdict rests on a flag when, with everything else the same, another reading of the flag
would not report it. `name_readings` finds those flags from the code itself, not from a list:
it judges the event once more with a ruleset that records which flags the judgement reads,
then again under each other reading of each flag read; a violation the other reading does not
report rests on that flag. It runs only when there are violations, so a clean log pays nothing.

What it cannot see is a flag the fold read before this event (the board itself differs under
another reading: a Victory Point owed, guards gone to the Graveyard, whose priority it is); the
checks name those flags where they judge (`vwlog.rules.checks`), and
``tests/rules/test_flags.py`` shows every flag named on a log played under its other reading.
"""

from __future__ import annotations

import threading
import typing
from typing import TYPE_CHECKING, Any, Final

from vwlog.model.cards import OPEN_QUESTION_FLAGS, SECOND_FLAGS, Ruleset, flag_reading
from vwlog.model.copying import replace
from vwlog.model.state import UnknownIdError
from vwlog.rules.common import with_flag
from vwlog.rules.flow import expect

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.events import AnyEvent
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState


def _choices(annotation: object) -> tuple[object, ...]:
    """The values a flag's annotation allows, when they are few (a bool, a Literal); empty for
    a number."""
    if annotation is bool:
        return (False, True)
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    args = typing.get_args(annotation)
    values: list[object] = []
    for arg in args:
        if arg is type(None):
            continue
        if arg is bool:
            values += [False, True]
        elif typing.get_origin(arg) is typing.Literal:
            values += list(typing.get_args(arg))
        else:
            return ()
    return tuple(values)


READINGS: Final[dict[str, tuple[object, ...]]] = {
    name: choices
    for name in (*OPEN_QUESTION_FLAGS.values(), *SECOND_FLAGS, "accept_trusted_effects")
    if (choices := _choices(Ruleset.model_fields[name].annotation))
}
"""Every flag with a few readings, and the readings: the flags `name_readings` tries."""


_LOCAL: Final = threading.local()
"""This thread's set of flags read, while `flags_read` judges (the service judges in threads)."""


class _Recording(Ruleset):
    """A ruleset that notes which of the `READINGS` flags are read while it judges."""

    def __getattribute__(self, name: str) -> Any:
        if name in READINGS:
            read = getattr(_LOCAL, "read", None)
            if read is not None:
                read.add(name)
        return super().__getattribute__(name)


def _judge(ruleset: Ruleset, state: MatchState, event: AnyEvent) -> tuple[Violation, ...] | None:
    """The violations of ``event`` under ``ruleset``; ``None`` when a check met a card or
    player the match does not have (the replay loop reports that id once, R-ZONE-5/R-GEN-7;
    judged again here, it can decide no reading)."""
    from vwlog.rules.checks import check_against

    board = replace(state, ruleset=ruleset) if state.ruleset is not None else state
    try:
        return check_against(ruleset, board, expect(ruleset, board), event)
    except UnknownIdError:
        return None


def _others(ruleset: Ruleset, flag: str) -> Iterator[Ruleset]:
    current = flag_reading(ruleset, flag)
    for value in READINGS[flag]:
        if value != current:
            yield ruleset.model_copy(update={flag: value})


def flags_read(ruleset: Ruleset, state: MatchState, event: AnyEvent) -> set[str]:
    """The flags judging ``event`` now reads (the expectation and the checks)."""
    recording = _Recording.model_construct(_fields_set=ruleset.model_fields_set, **dict(ruleset))
    outer = getattr(_LOCAL, "read", None)
    read: set[str] = set()
    _LOCAL.read = read
    try:
        _judge(recording, state, event)
    finally:
        _LOCAL.read = outer
    return read


def name_readings(
    ruleset: Ruleset, state: MatchState, event: AnyEvent, found: tuple[Violation, ...]
) -> tuple[Violation, ...]:
    """``found`` with every violation that rests on a flag naming it (those that name one
    already keep theirs)."""
    if not found or all(v.flag for v in found):
        return found
    rests: dict[int, list[str]] = {}
    for flag in sorted(flags_read(ruleset, state, event)):
        for other in _others(ruleset, flag):
            judged = _judge(other, state, event)
            if judged is None:
                continue
            elsewhere = {v.rule for v in judged}
            for i, v in enumerate(found):
                if not v.flag and v.rule not in elsewhere and flag not in rests.get(i, []):
                    rests.setdefault(i, []).append(flag)
    if not rests:
        return found
    return tuple(
        with_flag(v, ", ".join(rests[i])) if i in rests else v for i, v in enumerate(found)
    )


__all__ = ["READINGS", "flags_read", "name_readings"]
