"""The errors of what a run is given to work with, outside any match: an id that nothing is
published under, an optional dependency that is not installed, what a run on a Dask cluster
needs, and what an access token is bound to.

Each is a `vwlog.model.errors.UsageError` (so ``except UsageError`` sites catch them) that
carries its data and says what is wrong without naming a command-line option: the command line
adds the option (`vwlog.cli.errors`), the HTTP service the request's field
(`vwlog.api.errors`). The errors of matches, logs and rulesets, which the engine raises too,
are in `vwlog.model.errors`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.model.errors import UsageError
from vwlog.model.text import Msg, msg

if TYPE_CHECKING:
    from collections.abc import Sequence


class NotPublishedError(UsageError, LookupError):
    """A pool or ruleset id under which nothing is published."""

    def __init__(self, kind: str, published_id: str, known: Sequence[str] = ()) -> None:
        listed: Msg | str = ", ".join(sorted(known)) or msg("none")
        if kind == "pool":
            detail = msg(
                "no pool is published under id {id} (known: {known})",
                id=published_id,
                known=listed,
            )
        else:
            detail = msg(
                "no ruleset is published under id {id} (known: {known})",
                id=published_id,
                known=listed,
            )
        super().__init__(detail)
        self.args = (kind, published_id, tuple(known))
        self.kind = kind
        """``pool`` or ``ruleset``."""
        self.published_id = published_id
        self.known = tuple(sorted(known))


class TokenBindingError(UsageError):
    """A player token without the match and seat it is for, or another role's token bound to
    one."""

    def __init__(self, role: str) -> None:
        if role == "player":
            detail = msg("a player token needs a match and a seat")
        else:
            detail = msg("a {role} token is not bound to a match or seat", role=role)
        super().__init__(detail)
        self.args = (role,)
        self.role = role


class MissingExtraError(UsageError):
    """Something asked for needs an optional dependency (an extra of the package) that is not
    installed."""

    def __init__(self, extra: str, package: str, purpose: str | Msg) -> None:
        super().__init__(
            msg(
                "{purpose} needs {package}: install the '{extra}' extra "
                "(pip install 'vwlog[{extra}]')",
                purpose=purpose,
                package=package,
                extra=extra,
            )
        )
        self.args = (extra, package, purpose)
        self.extra = extra
        """The extra that brings it (``cluster``, ``parquet``, ``stats``)."""
        self.package = package
        self.purpose = purpose


# -- a corpus run on a Dask cluster ----------------------------------------------------------


class ClusterError(UsageError):
    """A run on a Dask cluster cannot start as asked."""


class SchedulerUnreachableError(ClusterError):
    """No Dask scheduler answers at the address given."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(
            msg(
                "no Dask scheduler answers at {address} ({reason})",
                address=address,
                reason=reason,
            )
        )
        self.args = (address, reason)
        self.address = address
        self.reason = reason


class StdinOnClusterError(ClusterError):
    """Standard input (``-``) was given as a log to workers, which cannot read it."""

    def __init__(self) -> None:
        super().__init__(msg("workers cannot read standard input ('-'): give files"))
        self.args = ()


class SharedStoreNeededError(ClusterError):
    """A store that the cluster's workers cannot all write to (an SQLite file)."""

    def __init__(self, url: str) -> None:
        super().__init__(
            msg(
                "a run on a cluster needs a PostgreSQL store that every worker can reach, "
                "not {url}",
                url=url,
            )
        )
        self.args = (url,)
        self.url = url


class SharedOutputNeededError(ClusterError):
    """A cluster run that writes files was given no directory for them."""

    def __init__(self) -> None:
        super().__init__(
            msg("a run on a cluster needs an output directory that every worker can write to")
        )
        self.args = ()


__all__ = [
    "ClusterError",
    "MissingExtraError",
    "NotPublishedError",
    "SchedulerUnreachableError",
    "SharedOutputNeededError",
    "SharedStoreNeededError",
    "StdinOnClusterError",
    "TokenBindingError",
]
