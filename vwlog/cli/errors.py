"""The command line's wording of library errors.

The library says what is wrong in terms of the match ("seq 7 of 'm1' is not a priority
point"); only the command line knows which option or command the user should reach for next.
`cli_message` adds that, per error class, for the one-line ``Error: …`` every command prints.
"""

from __future__ import annotations

from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import say
from vwlog.model.errors import (
    ForkNameError,
    InvalidParameterError,
    NotAForkError,
    NotAPriorityPointError,
    NotPlayableError,
    RulesetOverrideError,
    UnknownFlagError,
    UnknownVerbError,
    VwlogError,
)

_OPTIONS = {"players": "--players", "teams": "--teams", "checkpoint interval": "--every"}
"""The option that sets a use case's parameter, where one does."""


def cli_message(error: VwlogError) -> str:
    """The message of ``error`` as the command line shows it, in the active language: the
    library's message, plus the option or command that helps, where there is one.

    >>> from vwlog.model.errors import UnknownFlagError
    >>> cli_message(UnknownFlagError("victory=3", "victory"))
    "--set 'victory=3': no ruleset flag 'victory' (see 'vwlog rules --flags')"
    """
    said = say(error.text())
    match error:
        case UnknownFlagError():
            return _("{context}--set {override}: {detail} (see 'vwlog rules --flags')").format(
                context=error.context, override=repr(error.override), detail=say(error.detail_text)
            )
        case RulesetOverrideError():
            return _("{context}--set {override}: {detail}").format(
                context=error.context, override=repr(error.override), detail=say(error.detail_text)
            )
        case NotAPriorityPointError():
            return _("{error}; see 'vwlog replay --priority-points'").format(error=said)
        case ForkNameError():
            return _("{error}; choose another --name").format(error=said)
        case NotPlayableError():
            return _("{error} ('vwlog fork MATCH --at SEQ')").format(error=said)
        case NotAForkError():
            return _("{error}; rebase works on a fork made with 'vwlog fork'").format(error=said)
        case UnknownVerbError():
            return _("{error}; see 'vwlog play --help'").format(error=said)
        case InvalidParameterError() if error.parameter in _OPTIONS:
            return f"{_OPTIONS[error.parameter]}: {said}"
        case _:
            return said


__all__ = ["cli_message"]
