"""A ``kill -9`` never leaves a match without its snapshots: an import keeps the records, the
catalog entry and the snapshots in one transaction, and so does an append in play mode.

The writer is killed exactly when the store builds its first snapshot row (see
`tests.services.killers`), on SQLite and PostgreSQL; what is stored afterwards must be whole:
every record the catalog counts, and a snapshot at every interval up to the head.
"""

from __future__ import annotations

import multiprocessing
import signal
from typing import TYPE_CHECKING

from vwlog.events import TRAILER_TYPES
from vwlog.services.forks import fork_match
from vwlog.services.importing import import_log
from vwlog.services.matches import verify_match
from vwlog.services.storing import SNAPSHOT_EVERY
from vwlog.store import MatchStore
from vwlog.store.mapping import match_uuid

from .killers import import_killed, play_killed
from .support import generated_log, priority_points, records_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def _run_killed(target: Callable[..., None], *args: object) -> None:
    spawn = multiprocessing.get_context("spawn")
    process = spawn.Process(target=target, args=args)
    process.start()
    process.join(timeout=300)
    assert process.exitcode == -signal.SIGKILL


def _snapshot_seqs(store: MatchStore, match_id: str) -> list[int]:
    return [seq for seq, _ in store.snapshots(match_id)]


def test_an_import_killed_while_writing_snapshots_stores_nothing(
    shared_url: str, tmp_path: Path
) -> None:
    log = generated_log(tmp_path, 5, 4)
    match_id = records_of(log)[0].match_id
    events = len(records_of(log)[1])
    assert events > 100

    _run_killed(import_killed, shared_url, log, 50)

    with MatchStore.open(shared_url) as store:
        assert match_id not in store
        assert list(store._recorder.select_events(match_uuid(match_id))) == []
        # and the same file imports whole afterwards
        assert import_log(store, log, snapshot_every=50).outcome == "stored"
        assert _snapshot_seqs(store, match_id) == list(range(50, events + 1, 50))


def test_play_killed_while_writing_snapshots_appends_nothing(
    shared_url: str, tmp_path: Path
) -> None:
    log = generated_log(tmp_path, 5, 2)
    with MatchStore.open(shared_url) as store:
        import_log(store, log)
        at = priority_points(
            [r for r in records_of(log)[1] if not isinstance(r.event, TRAILER_TYPES)]
        )[0]
        fork_id = fork_match(store, records_of(log)[0].match_id, at, name="killed")
        before = store.head(fork_id)
        assert before.seq < SNAPSHOT_EVERY

    _run_killed(play_killed, shared_url, fork_id, 400)

    with MatchStore.open(shared_url) as store:
        head = store.head(fork_id)
        assert head == before
        assert store.meta(fork_id).events == head.seq
        assert _snapshot_seqs(store, fork_id) == list(
            range(SNAPSHOT_EVERY, head.seq + 1, SNAPSHOT_EVERY)
        )
        assert verify_match(store, fork_id).ok
