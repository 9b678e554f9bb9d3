"""Corpus work on a Dask distributed cluster: one task per match, results back in order.

``validate``, ``import``, ``stats`` and ``simulate`` hand a corpus to `run_ordered`, which submits
one task per match (a log file's path, a stored match's id, or a generated match's index) to the
cluster and yields the results in the order of the input, as they arrive, with a bounded number
of tasks in flight so that memory stays flat in corpus length. Nothing here is a scheduler of its
own: placement, worker loss and resubmission are Dask's. What this module adds:

- A task that raises is retried once (Dask's ``retries=1``); if it fails again, or the scheduler
  gives up on it (a worker died under it too often: ``KilledWorker``), it is reported as that
  match's `TaskFailure` and every other match still gets its result.
- A worker killed mid-run costs nothing but time: Dask reruns its tasks elsewhere.
- Workers read logs from a path they share with the client, or fetch stored matches from the
  PostgreSQL store by id; an import from many workers into one PostgreSQL store is still one
  transaction per match, because each task runs `import_log`, which stores a match in one
  transaction, on the worker's own connection.

Dask is optional (the ``cluster`` extra): it is imported only when a command is given
``--cluster``; ``--jobs`` keeps working without it.

The task functions (``*_task``) run on the workers: they are module-level so that workers import
them by name, and they return plain picklable values.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import uuid
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from vwlog.engine.replay import replay
from vwlog.io.logfile import open_log
from vwlog.model.errors import (
    LogFormatError,
    MatchExistsError,
    OutputError,
    SequenceConflictError,
    StoreError,
    UsageError,
)
from vwlog.model.text import msg
from vwlog.projections.stats import MatchMetrics, MatchMetricsVisitor
from vwlog.services import (
    InputProblem,
    SimulationSpec,
    ValidationOptions,
    validate_log,
)
from vwlog.services.matches import ImportResult, failed, import_log
from vwlog.services.simulate import generate_one
from vwlog.services.stats import replay_metrics
from vwlog.services.trust import published_for
from vwlog.store import MatchStore, settings_from_url

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from distributed import Client, Future

    from vwlog.engine.replay import ValidationReport
    from vwlog.model.cards import CardPool

ENV_SCHEDULER = "VWLOG_DASK_SCHEDULER"
"""The environment variable naming the scheduler when ``--cluster`` is not given."""
LOCAL = "local"
"""The ``--cluster`` value that starts a LocalCluster on this machine for the run."""
WINDOW_PER_WORKER = 64
"""Tasks kept in flight per worker thread: enough to keep every worker busy while the client
takes results in order, few enough that a million-match corpus is never all submitted at once."""

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class TaskFailure:
    """A match whose task failed twice (or whose workers kept dying): its error, reported in its
    place."""

    item: str
    """The path, match id or match index the task was given."""
    error: str


@dataclass(frozen=True, slots=True)
class ClusterInfo:
    """What the run is connected to."""

    address: str
    workers: int
    threads: int
    local: bool


def dask_installed() -> bool:
    """Whether the ``cluster`` extra (dask distributed) is installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def cluster_address(given: str | None) -> str | None:
    """The scheduler to use: ``given`` (``--cluster``), else ``VWLOG_DASK_SCHEDULER``, else
    ``None`` (no cluster: run in this process or with ``--jobs``)."""
    if given:
        return given
    return os.environ.get(ENV_SCHEDULER) or None


@contextmanager
def connect(address: str, *, local_workers: int = 2) -> Iterator[tuple[Client, ClusterInfo]]:
    """A client of the scheduler at ``address`` (``tcp://HOST:PORT``), or of a LocalCluster of
    ``local_workers`` worker processes (one thread each) for ``address == "local"``; closed (and
    the local cluster stopped) afterwards.

    Raises:
        UsageError: Dask is not installed, or no scheduler answers at ``address``.
    """
    if not dask_installed():
        raise UsageError(
            msg(
                "--cluster needs Dask: install the 'cluster' extra (pip install "
                "'vwlog[cluster]'), or use --jobs"
            )
        )
    from distributed import Client, LocalCluster

    cluster = None
    try:
        if address == LOCAL:
            cluster = LocalCluster(
                n_workers=local_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
            )
            client = Client(cluster)
        else:
            client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as err:
        if cluster is not None:
            cluster.close()
        raise UsageError(
            msg("--cluster {address}: no Dask scheduler answers ({err})", address=address, err=err)
        ) from err
    try:
        workers = client.scheduler_info(n_workers=-1)["workers"]
        info = ClusterInfo(
            address=str(client.scheduler.address if client.scheduler else address),
            workers=len(workers),
            threads=sum(int(w.get("nthreads", 1)) for w in workers.values()),
            local=cluster is not None,
        )
        yield client, info
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


class _Pending(Generic[T]):
    __slots__ = ("future", "item")

    def __init__(self, item: T, future: Future[Any]) -> None:
        self.item = item
        self.future = future


def run_ordered(
    client: Client,
    task: Callable[..., R],
    items: Iterable[T],
    *args: Any,
    window: int | None = None,
    on_failure: Callable[[T, BaseException], None] | None = None,
) -> Iterator[R | TaskFailure]:
    """Run ``task(item, *args)`` on the cluster for every item; yield the results in the
    order of ``items`` as they arrive.

    ``args`` are sent to the cluster once and shared by every task. At most ``window`` tasks
    (default `WINDOW_PER_WORKER` per worker thread) are in flight. A task that raises is run once
    more; one that fails again, or that the scheduler gives up on after its workers died, yields
    a `TaskFailure` naming its item and error in its place, and the run goes on.
    ``on_failure`` is told of each such failure.
    """
    if window is None:
        threads = sum(
            int(w.get("nthreads", 1))
            for w in client.scheduler_info(n_workers=-1)["workers"].values()
        )
        window = WINDOW_PER_WORKER * max(1, threads)
    shared = [client.scatter(a, broadcast=True) for a in args]
    run = uuid.uuid4().hex[:12]
    name = getattr(task, "__name__", "task")
    source = enumerate(items)
    pending: deque[_Pending[T]] = deque()

    def submit_next() -> bool:
        for index, item in source:
            future = client.submit(
                task, item, *shared, key=f"vwlog-{name}-{run}-{index}", retries=1, pure=False
            )
            pending.append(_Pending(item, future))
            return True
        return False

    try:
        while len(pending) < window and submit_next():
            pass
        while pending:
            head = pending.popleft()
            try:
                result: R = head.future.result()
            except Exception as err:  # the task's own error, or KilledWorker / CancelledError
                if on_failure is not None:
                    on_failure(head.item, err)
                yield TaskFailure(str(head.item), _describe(err))
            else:
                yield result
            finally:
                head.future.release()
            submit_next()
    finally:
        for rest in pending:
            rest.future.cancel()


def _describe(err: BaseException) -> str:
    kind = type(err).__name__
    text = str(err).strip().splitlines()
    return f"task failed after a retry: {kind}: {text[0] if text else ''}".rstrip(": ")


# -- the tasks (run on the workers) ----------------------------------------------------------


def shared_paths(paths: Iterable[str]) -> str:
    """Check that workers can read ``paths``; returns the client's working directory, against
    which the tasks resolve relative paths (so a relative path names the same file on a worker
    started elsewhere, given a shared file system mounted at the same place).

    Raises:
        UsageError: a path is ``-`` (the client's standard input, which no worker can read).
    """
    if any(str(p) == "-" for p in paths):
        raise UsageError(msg("--cluster: workers cannot read standard input ('-'): give files"))
    return os.getcwd()


def _on_worker(path: str, cwd: str) -> str:
    return path if not cwd or os.path.isabs(path) else os.path.join(cwd, path)


def validate_task(
    path: str, options: ValidationOptions, cwd: str = ""
) -> ValidationReport | InputProblem:
    """Validate one log file (read from a path the worker shares with the client; a relative
    one against ``cwd``); the report names it as given."""
    try:
        report = validate_log(_on_worker(path, cwd), options)
    except LogFormatError as err:
        return InputProblem(path, str(err))
    report.source = path
    return report


def measure_log(path: str | Path) -> MatchMetrics:
    """Stream one log file once through the replay loop and fold its metrics.

    Raises:
        LogFormatError: the file is unreadable or malformed, or holds no match.
    """
    with open_log(path) as reader:
        try:
            return replay(
                ((line.line_no, line.record) for line in reader),
                MatchMetricsVisitor(),
                header=reader.header,
            )
        except ValueError as err:
            if isinstance(err, LogFormatError):
                raise
            raise LogFormatError(reader.name, None, str(err)) from err


def stats_task(path: str, cwd: str = "") -> MatchMetrics | str:
    """One log file's metrics (a relative path read against ``cwd``), or the error message of
    a file that cannot be read."""
    try:
        return measure_log(_on_worker(path, cwd))
    except LogFormatError as err:
        return str(err)


_stores = threading.local()
"""Each worker thread's open stores, by URL: a task reuses its thread's connection instead of
opening one per match."""


def _store(url: str) -> MatchStore:
    opened: dict[str, MatchStore] | None = getattr(_stores, "by_url", None)
    if opened is None:
        opened = _stores.by_url = {}
    store = opened.get(url)
    if store is None:
        store = opened[url] = MatchStore.open(url)
    return store


def store_metrics_task(match_id: str, url: str) -> MatchMetrics | str | None:
    """A stored match's metrics, replayed from the records the worker fetches from the store
    (``None`` when they hold no match; the error message when the store fails)."""
    try:
        store = _store(url)
        return replay_metrics(store, store.meta(match_id))
    except StoreError as err:
        return f"{match_id}: {err}"


def import_task(
    path: str, url: str, reject_illegal: bool, snapshot_every: int, cwd: str = ""
) -> ImportResult:
    """Validate one log and store it in one transaction, on the worker's own connection (a
    relative path read against ``cwd``); the result names the path as given."""
    try:
        result = import_log(
            _store(url),
            _on_worker(path, cwd),
            reject_illegal=reject_illegal,
            snapshot_every=snapshot_every,
        )
    except (LogFormatError, MatchExistsError, SequenceConflictError, StoreError) as err:
        return failed(path, err)
    return dataclasses.replace(result, path=path)


@dataclass(frozen=True, slots=True)
class Simulated:
    """What a worker reports of a generated match (the log itself is on the shared path)."""

    index: int
    match_id: str
    victory: str | None
    path: str


def simulate_task(index: int, pool: CardPool, spec: SimulationSpec, out: str) -> Simulated:
    """Generate match ``index`` of ``spec`` and write it, sealed, under ``out`` (a directory
    the worker shares with the client); the same bytes as `vwlog.services.simulate_to`."""
    match, path = generate_one(pool, spec, index, Path(out), published_for(pool))
    assert path is not None
    return Simulated(index, match.header.match_id, match.victory, str(path))


def import_needs_shared_store(url: str) -> None:
    """Refuse a store that many workers cannot write to at once.

    Raises:
        UsageError: ``url`` names a SQLite file (one writer at a time, on one machine).
    """
    if settings_from_url(url).get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        raise UsageError(
            msg(
                "--cluster needs a PostgreSQL store that every worker can reach, not {url}: give "
                "--store postgresql://USER@HOST/DB",
                url=url,
            )
        )


def prepare_simulation(spec: SimulationSpec, out: Path | None) -> str:
    """Check a simulation spec for a cluster run and create its output directory, which the
    workers must share with the client; returns it.

    Raises:
        UsageError: no ``out``, or the spec is impossible (as for `vwlog.services.simulate_to`).
        OutputError: the directory cannot be created.
    """
    if out is None:
        raise UsageError(msg("--cluster needs -o DIR, a directory every worker can write to"))
    if not 2 <= spec.players <= 4:
        raise UsageError(msg("--players takes 2 to 4, not {players}", players=spec.players))
    if spec.teams is not None and (spec.teams < 2 or spec.players % spec.teams):
        raise UsageError(
            msg(
                "--teams {teams} does not divide {players} players evenly",
                teams=spec.teams,
                players=spec.players,
            )
        )
    if not (out.suffix == ".jsonl" and spec.matches == 1):
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise OutputError(str(out), err.strerror or str(err)) from err
    return str(out.absolute())


__all__ = [
    "ENV_SCHEDULER",
    "LOCAL",
    "WINDOW_PER_WORKER",
    "ClusterInfo",
    "R",
    "Simulated",
    "T",
    "TaskFailure",
    "cluster_address",
    "connect",
    "dask_installed",
    "import_needs_shared_store",
    "import_task",
    "measure_log",
    "prepare_simulation",
    "run_ordered",
    "shared_paths",
    "simulate_task",
    "stats_task",
    "store_metrics_task",
    "validate_task",
]
