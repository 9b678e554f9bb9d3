"""Storage of the statistics read model: a follower of the match store that records how far it
has read.

The read model (`vwlog.services.stats`) folds the catalog entries of the match store's
notification log into corpus statistics. This module keeps its state with eventsourcing's
tracking machinery, so that a follower stopped at any moment — closed, killed, crashed —
resumes where its last save left off and never counts a match twice:

- **where** — its own storage, never the store's tables (SQLite table names do not include the
  application's name, so two applications cannot share a file): an SQLite file beside the
  store's (``vwlog.db`` → ``vwlog.stats.db``), a PostgreSQL schema named after the store's
  with ``_stats`` appended (``public`` → ``public_stats``; tables ``vwlog_stats_events`` and
  ``vwlog_stats_tracking``), or plain Python objects for a store in memory;
- **what** — one stream (`VIEW_STREAM`) whose versions are successive states of the view: the
  caller's bytes (compressed) with the position of the store's notification log they
  describe. Each state is written by a `ProcessRecorder` in ONE transaction with a
  ``Tracking(application_name=<the store's name>, notification_id=<that position>)``: the
  state and the position it describes are stored together or not at all;
- **reading** — the newest state of the stream and ``max_tracking_id`` of its tracking name,
  read so that a save in between is noticed (then read again);
- **concurrency** — a save writes the version after the one it builds on: of two followers
  that built on the same state, one wins and the other gets `ViewConflictError` (and starts
  again from the newer state); the tracked position never goes back;
- **epochs** — a state can also *restart* the view (a rebuild, or a view that turned out to
  follow another store): it starts a new epoch whose tracking name is the store's name with
  ``@<epoch>`` appended, so its position may be lower than the old epoch's. Only public
  eventsourcing calls are used; nothing is ever deleted.

The stream keeps every state saved (eventsourcing has no deletion): each save that changed
something adds one compressed state. `StatsViewStore.advance` moves the position on without a
new state when the store changed in ways that do not touch the statistics.

Beside the states, the view keeps one more stream per match whose fold the services paused
(`save_pause`, `load_pause`): opaque bytes, the newest version the one that counts. A pause is
a cache that says itself what it describes; it is saved outside the states' transactions, and
a save that loses a race is dropped.
"""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Self
from uuid import UUID, uuid5

from eventsourcing.domain import EventSourcingError
from eventsourcing.persistence import (
    InfrastructureFactory,
    InfrastructureFactoryError,
    IntegrityError,
    ProcessRecorder,
    StoredEvent,
    Tracking,
)
from eventsourcing.utils import Environment

from vwlog.model.errors import StoreConfigError, StoreError, UsageError
from vwlog.model.resources import Closing
from vwlog.model.text import msg
from vwlog.store.backends import prepare_postgres as _prepare_postgres
from vwlog.store.backends import prepare_sqlite as _prepare_sqlite
from vwlog.store.backends import reason as _reason
from vwlog.store.settings import redact, settings_from_url

if TYPE_CHECKING:
    pass

VIEW_APPLICATION = "vwlog_stats"
"""The view's application name: PostgreSQL tables ``vwlog_stats_events``/``_tracking``."""
VIEW_STREAM = uuid5(UUID("5b0f3f52-2a34-4c1e-9d7c-6f2f1b8e0a11"), "corpus-stats")
"""The stream whose versions are the successive states of the view."""
STATE_TOPIC = "vwlog-stats:view_saved:v1"
"""Topic of a state of the view."""
PAUSE_TOPIC = "vwlog-stats:fold_paused:v1"
"""Topic of a paused fold of one match."""
STORE_APPLICATION = "vwlog"
"""The name of the application the view follows (the match store's), for `Tracking`."""
STATS_SUFFIX = "_stats"
"""Appended to the store's PostgreSQL schema to name the view's."""
_TABLES = (f"{VIEW_APPLICATION}_events", f"{VIEW_APPLICATION}_tracking")
"""The view's PostgreSQL tables (eventsourcing names them after the application)."""
_READ_ATTEMPTS = 20
"""How often a read is repeated while saves keep landing between its two queries."""
_PG_IDENTIFIER = 63
"""PostgreSQL's longest identifier, in bytes."""


class ViewConflictError(StoreError):
    """Another follower saved the view (or moved its position on) first; load it again."""


class ViewState(NamedTuple):
    """A state of the view, as `StatsViewStore.load` read it."""

    data: bytes
    """The caller's bytes, as saved."""
    position: int
    """The position of the store's notification log this state describes (everything up to
    and including it has been processed)."""
    version: int
    """Its version in the view stream (1 for the first state ever saved)."""
    epoch: int
    """Its epoch (0 until the view is first restarted)."""


def pause_stream(match_id: str) -> UUID:
    """The stream of the paused folds of one match."""
    return uuid5(VIEW_STREAM, f"pause:{match_id}")


def stats_path(store_path: str) -> str:
    """The SQLite file of the view of the store in ``store_path``.

    >>> stats_path("/data/vwlog.db")
    '/data/vwlog.stats.db'
    >>> stats_path("/data/matches")
    '/data/matches.stats'
    """
    path = Path(store_path)
    return str(path.with_name(f"{path.stem}.stats{path.suffix}"))


def stats_schema(store_schema: str) -> str:
    """The PostgreSQL schema of the view of a store in ``store_schema``.

    A name that would pass PostgreSQL's 63-byte limit is shortened with a digest, so two long
    names never share a view.

    >>> stats_schema("public")
    'public_stats'
    """
    name = store_schema + STATS_SUFFIX
    if len(name.encode()) <= _PG_IDENTIFIER:
        return name
    digest = hashlib.sha256(store_schema.encode()).hexdigest()[:12]
    head = store_schema.encode()[:40].decode(errors="ignore")
    return f"{head}_{digest}{STATS_SUFFIX}"


def view_settings(store_env: Mapping[str, str]) -> dict[str, str]:
    """The eventsourcing environment of the view of the store configured by ``store_env``
    (see `settings_from_url`): the same backend, in its own file or schema."""
    env = {k: v for k, v in store_env.items() if k != "IS_SNAPSHOTTING_ENABLED"}
    module = env.get("PERSISTENCE_MODULE", "eventsourcing.popo")
    if module == "eventsourcing.sqlite":
        env["SQLITE_DBNAME"] = stats_path(env["SQLITE_DBNAME"])
    elif module == "eventsourcing.postgres":
        env["POSTGRES_SCHEMA"] = stats_schema(env.get("POSTGRES_SCHEMA") or "public")
    return env


class StatsViewStore(Closing):
    """The storage of the statistics read model: states of the view with the position of the
    match store's notification log each describes.

    Usually reached through `MatchStore.stats_view`, which opens it beside the store and closes
    it with the store. The bytes are opaque here; the services layer decides what they mean.

    Example:
        >>> with StatsViewStore.open("memory:") as view:
        ...     view.position(), view.load()
        (0, None)
    """

    def __init__(
        self, env: Mapping[str, str], *, url: str = "", tracked: str = STORE_APPLICATION
    ) -> None:
        """Open the view's storage from an eventsourcing environment (see `view_settings`).

        Args:
            env: The backend settings of the view (not of the store).
            url: The store's URL, for messages.
            tracked: The name of the application the view follows (`Tracking`'s
                ``application_name``).

        Raises:
            StoreConfigError: The environment does not describe a usable backend.
            StoreError: The database cannot be reached or its tables cannot be created.
        """
        self.url = redact(url)
        """The URL of the store this view follows, with any password hidden."""
        self.tracked = tracked
        """The name the view's positions are tracked under (epoch 0)."""
        self._closed = False
        _prepare_sqlite(env, self.url)
        with _prepare_postgres(env, self.url, tables=_TABLES) as view_env:
            try:
                self._factory = InfrastructureFactory.construct(
                    Environment(VIEW_APPLICATION, view_env)
                )
            except (OSError, InfrastructureFactoryError) as err:
                raise StoreConfigError(self.url, _reason(err)) from err
            except (EventSourcingError, sqlite3.Error) as err:
                raise StoreError(
                    f"cannot open the statistics view of {self.url!r}: {_reason(err)}"
                ) from err
            try:
                self._recorder: ProcessRecorder = self._factory.process_recorder()
            except (EventSourcingError, sqlite3.Error) as err:
                self._factory.close()
                raise StoreError(
                    f"cannot open the statistics view of {self.url!r}: {_reason(err)}"
                ) from err

    @classmethod
    def open(cls, store_url: str) -> Self:
        """Open the view of the store at ``store_url`` (``memory:`` gives a new, empty view).

        Raises:
            StoreConfigError: The URL is malformed or needs the ``postgres`` extra.
            StoreError: The database cannot be reached or its tables cannot be created.
        """
        return cls(view_settings(settings_from_url(store_url)), url=store_url)

    def close(self) -> None:
        """Close the view's connections; a closed view raises `StoreError`."""
        if not self._closed:
            self._closed = True
            self._factory.close()

    def __repr__(self) -> str:
        return f"StatsViewStore({self.url!r})"

    # Reading

    def position(self) -> int:
        """The position of the store's notification log the view has processed (0: none).

        Raises:
            StoreError: The database failed or the view's newest state is unreadable.
        """
        state = self._head()
        return state[3] if state is not None else 0

    def load(self) -> ViewState | None:
        """The newest state of the view with the position it describes; ``None`` before the
        first save.

        Raises:
            StoreError: The database failed or the state is unreadable.
        """
        head = self._head()
        if head is None:
            return None
        stored, epoch, _saved_at, position = head
        return ViewState(_data(stored), position, stored.originator_version, epoch)

    # Writing

    def save(
        self, data: bytes, position: int, *, base: ViewState | None, restart: bool = False
    ) -> ViewState:
        """Save a new state of the view, describing the store up to ``position``, in one
        transaction with the tracking of that position.

        Args:
            data: The new state (opaque bytes).
            position: The position of the store's notification log it describes.
            base: The state it was built from (`load`'s answer; ``None`` when the view was
                empty). The save fails if another one has landed since.
            restart: Start a new epoch: the state does not build on ``base`` (a rebuild), so
                its position may be at or below ``base``'s.

        Returns:
            The state saved.

        Raises:
            UsageError: ``position`` is negative, or not past ``base``'s without ``restart``.
            ViewConflictError: Another state was saved (or the position moved past
                ``position``) since ``base`` was loaded; nothing was written.
            StoreError: The database failed; nothing was written.
        """
        if position < 0:
            raise UsageError(msg("no position {position} in a notification log", position=position))
        epoch = 0 if base is None else base.epoch + (1 if restart else 0)
        if base is not None and not restart and position <= base.position:
            raise UsageError(
                msg(
                    "a state of the view must move past position {position}, not to {position2}",
                    position=base.position,
                    position2=position,
                )
            )
        version = (base.version if base is not None else 0) + 1
        header = f"{epoch} {position}\n".encode()
        event = StoredEvent(
            originator_id=VIEW_STREAM,
            originator_version=version,
            topic=STATE_TOPIC,
            state=header + zlib.compress(data, 6),
        )
        tracking = Tracking(self._tracking_name(epoch), position)
        try:
            with self._translated():
                self._recorder.insert_events([event], tracking=tracking)
        except IntegrityError as err:
            raise ViewConflictError(
                f"{self.url}: the statistics view was saved by another process meanwhile"
            ) from err
        return ViewState(data, position, version, epoch)

    def advance(self, base: ViewState, position: int) -> bool:
        """Record that the store has been processed up to ``position`` and nothing in it since
        ``base`` changes the view, without saving a new state.

        Returns:
            Whether the position moved (``False``: the view is already at or past it).

        Raises:
            StoreError: The database failed.
        """
        if position <= base.position:
            return False
        try:
            with self._translated():
                tracking = Tracking(self._tracking_name(base.epoch), position)
                self._recorder.insert_tracking(tracking)
        except IntegrityError:
            return False
        return True

    # Paused folds

    def load_pause(self, match_id: str) -> bytes | None:
        """The newest pause saved for ``match_id`` (the caller's bytes), or ``None``.

        Raises:
            StoreError: The database failed or the pause is unreadable.
        """
        with self._translated():
            found = self._recorder.select_events(pause_stream(match_id), desc=True, limit=1)
        return _data(found[0]) if found else None

    def save_pause(self, match_id: str, data: bytes) -> bool:
        """Save a new pause for ``match_id``; whether it was kept (``False``: another process
        saved one at the same moment, which stands).

        Raises:
            StoreError: The database failed.
        """
        stream = pause_stream(match_id)
        with self._translated():
            found = self._recorder.select_events(stream, desc=True, limit=1)
        version = found[0].originator_version + 1 if found else 1
        event = StoredEvent(
            originator_id=stream,
            originator_version=version,
            topic=PAUSE_TOPIC,
            state=b"pause\n" + zlib.compress(data, 6),
        )
        try:
            with self._translated():
                self._recorder.insert_events([event])
        except IntegrityError:
            return False
        return True

    # Internals

    def _tracking_name(self, epoch: int) -> str:
        return self.tracked if epoch == 0 else f"{self.tracked}@{epoch}"

    def _head(self) -> tuple[StoredEvent, int, int, int] | None:
        """The newest state's stored event, epoch, saved position and tracked position.

        The tracked position is read after the state, then the stream is checked for a newer
        state: a save landing between the two reads is seen, and the read repeated.
        """
        for _ in range(_READ_ATTEMPTS):
            with self._translated():
                found = self._recorder.select_events(VIEW_STREAM, desc=True, limit=1)
            if not found:
                return None
            stored = found[0]
            epoch, saved_at = _header(stored)
            with self._translated():
                tracked = self._recorder.max_tracking_id(self._tracking_name(epoch))
                newer = self._recorder.select_events(
                    VIEW_STREAM, gt=stored.originator_version, limit=1
                )
            if not newer:
                return stored, epoch, saved_at, max(saved_at, tracked or 0)
        raise StoreError(f"{self.url}: the statistics view keeps changing: try again later")

    @contextmanager
    def _translated(self) -> Iterator[None]:
        if self._closed:
            raise StoreError(f"{self.url}: the statistics view is closed")
        try:
            yield
        except IntegrityError:
            raise
        except EventSourcingError as err:
            raise StoreError(f"{self.url}: statistics view: {_reason(err)}") from err


def _header(stored: StoredEvent) -> tuple[int, int]:
    line = stored.state.partition(b"\n")[0]
    try:
        epoch, position = (int(x) for x in line.split(b" "))
    except ValueError:
        raise _unreadable(stored, "no epoch and position") from None
    return epoch, position


def _data(stored: StoredEvent) -> bytes:
    try:
        return zlib.decompress(stored.state.partition(b"\n")[2])
    except zlib.error as err:
        raise _unreadable(stored, _reason(err)) from err


def _unreadable(stored: StoredEvent, detail: str) -> StoreError:
    return StoreError(
        f"state {stored.originator_version} of the statistics view cannot be read: {detail}"
    )


__all__ = [
    "PAUSE_TOPIC",
    "STATE_TOPIC",
    "VIEW_APPLICATION",
    "VIEW_STREAM",
    "StatsViewStore",
    "ViewConflictError",
    "ViewState",
    "pause_stream",
    "stats_path",
    "stats_schema",
    "view_settings",
]
