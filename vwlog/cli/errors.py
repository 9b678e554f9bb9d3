"""The command line's wording of library errors.

The library says what is wrong in terms of the match ("seq 7 of 'm1' is not a priority
point"); only the command line knows which option or command the user should reach for next.
`cli_message` adds that, per error class, for the one-line ``Error: …`` every command prints.
"""

from __future__ import annotations

from vwlog.io.errors import (
    MissingExtraError,
    NotPublishedError,
    SchedulerUnreachableError,
    SharedOutputNeededError,
    SharedStoreNeededError,
    StdinOnClusterError,
    TokenBindingError,
)
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
    UsageError,
    VwlogError,
)

_OPTIONS = {
    "players": "--players",
    "teams": "--teams",
    "checkpoint interval": "--every",
    "batch size": "--batch",
}
"""The option that sets a use case's parameter, where one does."""

_EXTRA_OPTIONS = {"cluster": "--cluster", "parquet": "--parquet", "stats": "--html"}
"""The option that needs an extra of the package, by the extra's name."""


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
        case UnknownVerbError() if said.endswith("?"):  # a suggestion ends it
            return _("{error} (see 'vwlog play --help')").format(error=said)
        case UnknownVerbError():
            return _("{error}; see 'vwlog play --help'").format(error=said)
        case InvalidParameterError() if error.parameter in _OPTIONS:
            return f"{_OPTIONS[error.parameter]}: {said}"
        case UsageError() if (option_said := _option_wording(error)) is not None:
            return error.context + option_said
        case _:
            return said


def _option_wording(error: UsageError) -> str | None:
    """The message of an error that an option's value (or its absence) caused, naming the
    option; ``None`` for any other error."""
    match error:
        case NotPublishedError(kind="pool"):
            return _(
                "--pool {pool_id}: no pool is published under that id (known: {known})"
            ).format(pool_id=error.published_id, known=", ".join(error.known) or _("none"))
        case NotPublishedError():
            return _(
                "--ruleset {rs_id}: no ruleset is published under that id (known: {known})"
            ).format(rs_id=error.published_id, known=", ".join(error.known) or _("none"))
        case TokenBindingError(role="player"):
            return _("a player token needs --match and --seat")
        case MissingExtraError(extra="cluster"):
            return _(
                "--cluster needs Dask: install the 'cluster' extra (pip install "
                "'vwlog[cluster]'), or use --jobs"
            )
        case MissingExtraError() if error.extra in _EXTRA_OPTIONS:
            return _(
                "{option} needs {package}: install the '{extra}' extra "
                "(pip install 'vwlog[{extra}]')"
            ).format(option=_EXTRA_OPTIONS[error.extra], package=error.package, extra=error.extra)
        case SchedulerUnreachableError():
            return _("--cluster {address}: no Dask scheduler answers ({err})").format(
                address=error.address, err=error.reason
            )
        case StdinOnClusterError():
            return _("--cluster: workers cannot read standard input ('-'): give files")
        case SharedStoreNeededError():
            return _(
                "--cluster needs a PostgreSQL store that every worker can reach, not {url}: give "
                "--store postgresql://USER@HOST/DB"
            ).format(url=error.url)
        case SharedOutputNeededError():
            return _("--cluster needs -o DIR, a directory every worker can write to")
        case _:
            return None


__all__ = ["cli_message"]
