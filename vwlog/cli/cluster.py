"""``--cluster ADDRESS``: the option that sends a command's corpus to a Dask cluster, and the
connection the commands share (see `vwlog.services.cluster`)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from vwlog.io.i18n import gettext as _
from vwlog.render.text import term
from vwlog.services.cluster import (
    ENV_BATCH,
    ENV_SCHEDULER,
    TaskFailure,
    connect,
    run_ordered,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from distributed import Client

F = TypeVar("F", bound="Callable[..., Any]")

_address_option = click.option(
    "--cluster",
    "cluster",
    envvar=ENV_SCHEDULER,
    show_envvar=True,
    metavar="ADDRESS",
    # a literal (the catalogs extract it): 'local' is LOCAL
    help="Run on the Dask cluster whose scheduler is ADDRESS (tcp://HOST:8786), whole matches "
    "in batches; 'local' starts a local cluster of --jobs worker processes (at least 2). "
    "Needs the 'cluster' extra.",
)
_batch_option = click.option(
    "--batch",
    "batch",
    type=click.IntRange(min=1),
    envvar=ENV_BATCH,
    show_envvar=True,
    metavar="N",
    # a literal (the catalogs extract it): 64 is MAX_BATCH
    help="With --cluster: N matches per Dask task (default: the corpus cut into 8 batches per "
    "worker thread, of 1 to 64 matches). The results are the same for every N.",
)


def cluster_option(command: F) -> F:
    """``--cluster`` (where a command's tasks run; ``VWLOG_DASK_SCHEDULER`` when not given) and
    ``--batch`` (matches per task; ``VWLOG_DASK_BATCH``)."""
    return _address_option(_batch_option(command))


@contextmanager
def cluster_client(address: str, jobs: int) -> Iterator[Client]:
    """A client of the cluster at ``address``, announced on stderr; closed afterwards.

    Raises:
        UsageError: Dask is not installed, or no scheduler answers.
    """
    with connect(address, local_workers=max(2, jobs)) as (client, info):
        where = "a local cluster" if info.local else info.address
        click.echo(
            f"running on {where}: {info.workers} worker{'s' if info.workers != 1 else ''}, "
            f"{info.threads} thread{'s' if info.threads != 1 else ''}",
            err=True,
        )
        yield client


def report_failure(failure: TaskFailure) -> None:
    """Name a match whose task failed, on stderr."""
    message = f"{failure.item}: {failure.error}"  # a worker's crash, as Python words it
    click.echo(_("Error: {message}").format(message=term(message)), err=True)


def on_cluster(
    address: str,
    jobs: int,
    task: Callable[..., Any],
    items: Iterable[Any],
    *args: Any,
    batch: int | None = None,
) -> Iterator[Any]:
    """`run_ordered` on the cluster at ``address``, ``batch`` items per task (default: chosen
    by `vwlog.services.cluster.batch_size`): each item's result (or `TaskFailure`), in order;
    connects on the first result asked for and disconnects after the last."""
    with cluster_client(address, jobs) as client:
        yield from run_ordered(client, task, items, *args, batch=batch)


__all__ = ["cluster_client", "cluster_option", "on_cluster", "report_failure"]
