"""The command line's wording of library errors.

The library says what is wrong in terms of the match ("seq 7 of 'm1' is not a priority
point"); only the command line knows which option or command the user should reach for next.
`cli_message` adds that, per error class, for the one-line ``Error: …`` every command prints.
"""

from __future__ import annotations

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
    """The message of ``error`` as the command line shows it: the library's message, plus the
    option or command that helps, where there is one.

    >>> from vwlog.model.errors import UnknownFlagError
    >>> cli_message(UnknownFlagError("victory=3", "victory"))
    "--set 'victory=3': no ruleset flag 'victory' (see 'vwlog rules --flags')"
    """
    match error:
        case UnknownFlagError():
            return f"{error.context}--set {error.override!r}: {error.detail} " + (
                "(see 'vwlog rules --flags')"
            )
        case RulesetOverrideError():
            return f"{error.context}--set {error.override!r}: {error.detail}"
        case NotAPriorityPointError():
            return f"{error}; see 'vwlog replay --priority-points'"
        case ForkNameError():
            return f"{error}; choose another --name"
        case NotPlayableError():
            return f"{error} ('vwlog fork MATCH --at SEQ')"
        case NotAForkError():
            return f"{error}; rebase works on a fork made with 'vwlog fork'"
        case UnknownVerbError():
            return f"{error}; see 'vwlog play --help'"
        case InvalidParameterError() if error.parameter in _OPTIONS:
            return f"{_OPTIONS[error.parameter]}: {error}"
        case _:
            return str(error)


__all__ = ["cli_message"]
