"""Corpus work on a Dask distributed cluster: whole matches in batches, results back in order.

``validate``, ``import``, ``stats`` and ``simulate`` hand a corpus to `run_ordered`, which submits
the matches (log files' paths, stored matches' ids, or generated matches' indexes) to the cluster
in batches of consecutive matches, one Dask task per batch, and yields one result per match in
the order of the input, as they arrive, with a bounded number of tasks in flight so that memory
stays flat in corpus length. A batch's size follows from the corpus's size and the cluster's
worker threads (`batch_size`; the commands' ``--batch``): large enough that Dask's own cost per
task (milliseconds of client and scheduler time) is small beside the matches' work, small enough
that every worker thread gets several batches and that a batch lost with its worker is little
work to redo. Nothing here is a scheduler of its own: placement, worker loss and resubmission
are Dask's. What this module adds:

- A match whose task raises is tried once more, on the worker; if it fails again it is reported
  as that match's `TaskFailure`, in its place, and every other match, those of its batch
  included, still gets its result.
- A worker killed mid-run costs nothing but time: Dask reruns its batches elsewhere. If the
  scheduler gives up on a batch (its workers died under it too often: ``KilledWorker``), its
  matches are sent again one per task, so that only the match that kills its workers is
  reported as failed.
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
import functools
import itertools
import os
import threading
import uuid
from collections import deque
from collections.abc import Sized
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from vwlog.engine.replay import replay
from vwlog.io.errors import (
    MissingExtraError,
    SchedulerUnreachableError,
    SharedOutputNeededError,
    SharedStoreNeededError,
    StdinOnClusterError,
)
from vwlog.io.integritypass import IntegrityPass
from vwlog.io.logfile import open_log
from vwlog.model.errors import (
    InvalidParameterError,
    LogFormatError,
    MatchExistsError,
    SequenceConflictError,
    StoreError,
)
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.text import msg, said_text
from vwlog.services import (
    InputProblem,
    SimulationSpec,
    ValidationOptions,
    validate_log,
)
from vwlog.services.trust import findings_of, published_for
from vwlog.services.verdict import failing_problem

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from distributed import Client, Future

    from vwlog.engine.replay import ValidationReport
    from vwlog.model.cards import CardPool
    from vwlog.projections.stats import MatchMetrics
    from vwlog.services.storing import ImportResult
    from vwlog.store import MatchStore

# Each task imports what only its command needs (the statistics, the store, the importer, the
# generator) when it first runs: a command that validates on one core loads none of them.

ENV_SCHEDULER = "VWLOG_DASK_SCHEDULER"
"""The environment variable naming the scheduler when ``--cluster`` is not given."""
ENV_BATCH = "VWLOG_DASK_BATCH"
"""The environment variable giving the matches per task when ``--batch`` is not given."""
LOCAL = "local"
"""The ``--cluster`` value that starts a LocalCluster on this machine for the run."""
WINDOW_PER_WORKER = 64
"""Matches kept in flight per worker thread: enough to keep every worker busy while the client
takes results in order, few enough that a million-match corpus is never all submitted at once."""
TASKS_PER_WORKER = 4
"""Tasks (batches) kept in flight per worker thread at least, however large the batches: one
running and more queued, so that no worker waits for the client between batches."""
BATCHES_PER_WORKER = 8
"""Batches a corpus is cut into per worker thread, at least (while batches stay within
`MAX_BATCH`): workers that are slower than others, or shared, finish a small share late rather
than a large one, and progress moves in small steps."""
MAX_BATCH = 64
"""The most matches in one task: a batch lost with its worker is redone whole, and its results
travel together."""

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
        MissingExtraError: Dask is not installed.
        SchedulerUnreachableError: no scheduler answers at ``address``.
    """
    if not dask_installed():
        raise MissingExtraError("cluster", "Dask", msg("a run on a cluster"))
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
        raise SchedulerUnreachableError(address, str(err)) from err
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


def batch_size(matches: int | None, threads: int) -> int:
    """Matches per task for a corpus of ``matches`` on ``threads`` worker threads: the corpus cut
    into `BATCHES_PER_WORKER` batches per thread, each of 1 to `MAX_BATCH` matches (1 when the
    corpus's size is not known beforehand)."""
    if matches is None:
        return 1
    share = -(-matches // (BATCHES_PER_WORKER * max(1, threads)))
    return max(1, min(MAX_BATCH, share))


def cluster_threads(client: Client) -> int:
    """The worker threads of the cluster (at least 1)."""
    workers = client.scheduler_info(n_workers=-1)["workers"]
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def _given(value: T) -> T:
    return value


@dataclass(frozen=True, slots=True)
class _Failed:
    """A match whose task raised twice on the worker: its error, described there."""

    error: str


def run_batch(task: Callable[..., R], items: list[T], *args: Any) -> list[R | _Failed]:
    """``task(item, *args)`` for every item of a batch, in order (on a worker); a call that
    raises is made once more, and one that raises again is that item's `_Failed`."""
    results: list[R | _Failed] = []
    for item in items:
        try:
            results.append(task(item, *args))
        except Exception:
            try:
                results.append(task(item, *args))
            except Exception as err:
                results.append(_Failed(_describe(err)))
    return results


class _Pending(Generic[T]):
    __slots__ = ("future", "items")

    def __init__(self, items: list[T], future: Future[Any]) -> None:
        self.items = items
        self.future = future


def run_ordered(
    client: Client,
    task: Callable[..., R],
    items: Iterable[T],
    *args: Any,
    batch: int | None = None,
    window: int | None = None,
    on_failure: Callable[[TaskFailure], None] | None = None,
) -> Iterator[R | TaskFailure]:
    """Run ``task(item, *args)`` on the cluster for every item, ``batch`` consecutive items per
    task; yield the results in the order of ``items`` as they arrive, one per item.

    ``args`` are sent to the cluster once and shared by every task. ``batch`` defaults to
    `batch_size` of the number of items (when ``items`` has a length) and the cluster's worker
    threads. At most ``window`` tasks are in flight (default: `WINDOW_PER_WORKER` matches, and at
    least `TASKS_PER_WORKER` tasks, per worker thread). An item whose call raises is called once
    more; if it fails again it yields a `TaskFailure` naming it and its error, in its place, and
    the run goes on. A batch that the scheduler gives up on (its workers kept dying) is sent
    again one item at a time, each in a task of its own; an item that still fails alone yields
    its `TaskFailure`.
    ``on_failure`` is told of each failure.

    The results do not depend on ``batch`` or ``window``: only how they are cut into tasks.
    """
    threads = cluster_threads(client) if batch is None or window is None else 1
    if batch is None:
        batch = batch_size(len(items) if isinstance(items, Sized) else None, threads)
    if batch < 1:
        raise InvalidParameterError("batch size", batch, msg("must be at least 1 match per task"))
    if window is None:
        window = threads * max(TASKS_PER_WORKER, -(-WINDOW_PER_WORKER // batch))
    run = uuid.uuid4().hex[:12]
    name = getattr(task, "__name__", "task")
    # each shared argument is the result of a task of its own, not scattered data: when every
    # worker that held it has died, the scheduler makes it again instead of cancelling the
    # tasks that need it
    shared = _shared(client, args, f"vwlog-{name}-{run}")
    source = iter(items)
    pending: deque[_Pending[T]] = deque()
    submitted = 0

    def submit(chunk: list[T], key: str, **extra: Any) -> _Pending[T]:
        future = client.submit(run_batch, task, chunk, *shared, key=key, pure=False, **extra)
        return _Pending(chunk, future)

    def submit_next() -> bool:
        nonlocal submitted
        chunk = list(itertools.islice(source, batch))
        if not chunk:
            return False
        pending.append(submit(chunk, f"vwlog-{name}-{run}-{submitted}"))
        submitted += 1
        return True

    failed = functools.partial(_failure, on_failure=on_failure)

    try:
        while len(pending) < window and submit_next():
            pass
        while pending:
            head = pending.popleft()
            try:
                results: list[R | _Failed] = head.future.result()
            except Exception as err:  # KilledWorker, CancelledError, or a result that won't load
                if len(head.items) > 1:
                    yield from _one_at_a_time(head, submit, failed)
                else:
                    yield failed(head.items[0], _describe(err))
            else:
                for item, result in zip(head.items, results, strict=True):
                    yield failed(item, result.error) if isinstance(result, _Failed) else result
            finally:
                head.future.release()
            while len(pending) < window and submit_next():
                pass
    finally:
        for rest in pending:
            rest.future.cancel()


def _shared(client: Client, args: tuple[Any, ...], prefix: str) -> list[Any]:
    """Each shared argument as the result of a task of its own (keys ``PREFIX-argN``)."""
    return [
        client.submit(_given, a, key=f"{prefix}-arg{i}", pure=False) for i, a in enumerate(args)
    ]


def _failure(
    item: object, error: str, *, on_failure: Callable[[TaskFailure], None] | None
) -> TaskFailure:
    """The failure of ``item``, told to ``on_failure``."""
    failure = TaskFailure(str(item), error)
    if on_failure is not None:
        on_failure(failure)
    return failure


def _one_at_a_time(
    head: _Pending[T],
    submit: Callable[..., _Pending[T]],
    failed: Callable[[T, str], TaskFailure],
) -> Iterator[Any]:
    """A batch the scheduler gave up on, again one item at a time, so that only an item that
    kills its workers fails (one at a time: no other item of it shares a dying worker)."""
    key = head.future.key
    for i, item in enumerate(head.items):
        alone = submit([item], f"{key}-{i}", priority=1)
        try:
            [result] = alone.future.result()
        except Exception as again:
            yield failed(item, _describe(again))
        else:
            yield failed(item, result.error) if isinstance(result, _Failed) else result
        finally:
            alone.future.release()


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
        StdinOnClusterError: a path is ``-`` (the client's standard input, which no worker can
            read).
    """
    if any(str(p) == "-" for p in paths):
        raise StdinOnClusterError
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
        return InputProblem(path, err.said())
    report.source = path
    return report


@dataclass(frozen=True, slots=True)
class NotIntact:
    """A log whose record is not intact (its chain, seal or a signature fails): statistics
    leave it out, as they leave out such a stored match (`counts_as_valid`)."""

    source: str
    reason: str
    """The integrity problem that decides it, as the verdict's reason says it."""


def measure_log(path: str | Path) -> MatchMetrics | NotIntact:
    """Stream one log file once through the replay loop and fold its metrics, checking its
    integrity from the same lines; a record that is not intact is not measured.

    Raises:
        LogFormatError: the file is unreadable or malformed, or holds no match.
    """
    with open_log(path) as reader:
        game = reader.header.game
        if game not in (None, DEFAULT_GAME):  # a file of another game is measured by its own
            raise LogFormatError(
                reader.name,
                1,
                said_text(
                    msg(
                        "a log of game {game} is measured by that game's statistics from a "
                        "regular file, not from standard input or a pipe",
                        game=game,
                    )
                ),
                "game",
            )
        from vwlog.projections.stats import MatchMetricsVisitor

        gathered = IntegrityPass.of(reader)
        try:
            metrics: MatchMetrics = replay(
                ((line[0], line[2]) for line in gathered.tee(reader.lines())),
                MatchMetricsVisitor(),
                header=reader.header,
            )
        except ValueError as err:
            if isinstance(err, LogFormatError):
                raise
            raise LogFormatError(reader.name, None, str(err)) from err
    failing = failing_problem(findings_of(gathered).integrity)
    if failing is not None:
        return NotIntact(reader.name, failing)
    return metrics


def stats_task(path: str, cwd: str = "") -> MatchMetrics | NotIntact | str:
    """One log file's metrics (a relative path read against ``cwd``), or the error message of
    a file that cannot be read (its template kept: `vwlog.model.errors.VwlogError.said`)."""
    try:
        return measure_log(_on_worker(path, cwd))
    except LogFormatError as err:
        return err.said()


_stores = threading.local()
"""Each worker thread's open stores, by URL: a task reuses its thread's connection instead of
opening one per match."""


def _store(url: str) -> MatchStore:
    from vwlog.store import MatchStore

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
    from vwlog.services.stats import replay_metrics

    try:
        store = _store(url)
        return replay_metrics(store, store.meta(match_id))
    except StoreError as err:
        return said_text(msg("{path}: {error}", path=match_id, error=err.text()))


def import_task(
    path: str, url: str, reject_illegal: bool, snapshot_every: int, cwd: str = ""
) -> ImportResult:
    """Validate one log and store it in one transaction, on the worker's own connection (a
    relative path read against ``cwd``); the result names the path as given."""
    from vwlog.services.importing import import_log
    from vwlog.services.storing import failed

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
    from vwlog.services.simulate import generate_one

    match, path = generate_one(pool, spec, index, Path(out), published_for(pool))
    assert path is not None
    return Simulated(index, match.header.match_id, match.victory, str(path))


def import_needs_shared_store(url: str) -> None:
    """Refuse a store that many workers cannot write to at once.

    Raises:
        SharedStoreNeededError: ``url`` names a SQLite file (one writer at a time, on one
            machine).
    """
    from vwlog.store import settings_from_url

    if settings_from_url(url).get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        raise SharedStoreNeededError(url)


def prepare_simulation(spec: SimulationSpec, out: Path | None) -> str:
    """Check a simulation spec for a cluster run and create its output directory, which the
    workers must share with the client; returns it.

    Raises:
        SharedOutputNeededError: no ``out``.
        InvalidParameterError: the spec is impossible (as for `vwlog.services.simulate_to`).
        OutputError: the directory cannot be created.
    """
    if out is None:
        raise SharedOutputNeededError
    from vwlog.services.simulate import prepare_output

    prepare_output(spec, out)
    return str(out.absolute())


__all__ = [
    "BATCHES_PER_WORKER",
    "ENV_BATCH",
    "ENV_SCHEDULER",
    "LOCAL",
    "MAX_BATCH",
    "TASKS_PER_WORKER",
    "WINDOW_PER_WORKER",
    "ClusterInfo",
    "NotIntact",
    "R",
    "Simulated",
    "T",
    "TaskFailure",
    "batch_size",
    "cluster_address",
    "cluster_threads",
    "connect",
    "dask_installed",
    "import_needs_shared_store",
    "import_task",
    "measure_log",
    "prepare_simulation",
    "run_batch",
    "run_ordered",
    "shared_paths",
    "simulate_task",
    "stats_task",
    "store_metrics_task",
    "validate_task",
]
