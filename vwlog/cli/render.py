"""Rendering helpers shared by the commands: progress bars and rule titles."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

import click
import orjson

from vwlog.model.types import RuleId
from vwlog.rules.catalog import RULES

if TYPE_CHECKING:
    from collections.abc import Iterator


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


def rule_title(rule_id: RuleId | str) -> str:
    """The short title of a rule id (empty if unknown)."""
    rule = RULES.get(RuleId(rule_id))
    return rule.title if rule is not None else ""


def to_json(data: Any) -> str:
    """Stable, indented JSON for ``--format json`` output (sorted keys)."""
    return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode()
