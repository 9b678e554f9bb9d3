"""Answers that need a match replayed, kept while the match does not change.

A stored event never changes (every write appends), so an answer computed from all of a match's
records holds as long as its head (seq and chain hash) does. The caches are per process (each
worker keeps its own) and bounded; a stale entry is never served because the head is part of
the key. `HeadCache` keeps whole-match answers (timelines, reports); `BoardCache` keeps
rendered boards at any seq, with their entity tags.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.store import MatchStore

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

__all__ = ["BoardCache", "BoardKey", "HeadCache", "RenderedBoard"]


class _Kept(Generic[K, V]):
    """Answers kept by key, most recently used last, each computed once however many ask for
    it at the same time (per process; thread-safe). A subclass says how one is kept."""

    def __init__(self) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._computing: dict[K, threading.Lock] = {}

    def _get(self, key: K, make: Callable[[], V]) -> V:
        """The answer kept for ``key``, else made once by ``make`` and kept."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            busy = self._computing.setdefault(key, threading.Lock())
        with busy:
            with self._lock:
                if key in self._items:
                    return self._items[key]
            try:
                made = make()
                self._keep(key, made)
            finally:
                with self._lock:
                    self._computing.pop(key, None)
            return made

    def kept(self, key: K) -> V | None:
        """The answer kept for ``key``, or ``None`` (nothing is made)."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def _keep(self, key: K, made: V) -> None:
        raise NotImplementedError


class HeadCache(_Kept[tuple[str, int, str | None], T]):
    """Up to ``size`` answers, keyed by match id and the head they were computed at."""

    def __init__(self, size: int = 16) -> None:
        super().__init__()
        self.size = size

    def latest(self, match_id: str) -> tuple[int, str | None, T] | None:
        """The entry kept for ``match_id`` at its highest head: ``(seq, hash, answer)``."""
        with self._lock:
            found = [(k[1], k[2], v) for k, v in self._items.items() if k[0] == match_id]
        return max(found, key=lambda x: x[0]) if found else None

    def get(self, store: MatchStore, match_id: str, compute: Callable[[int], T]) -> T:
        """The answer for the match as it is now: kept, or computed once by ``compute`` from
        the events up to the head's seq (two requests for the same match at the same time
        compute it once)."""
        head = store.head(match_id)
        return self._get((match_id, head.seq, head.hash), lambda: compute(head.seq))

    def _keep(self, key: tuple[str, int, str | None], made: T) -> None:
        with self._lock:
            self._items[key] = made
            while len(self._items) > self.size:
                self._items.popitem(last=False)


BoardKey = tuple[str, int, int, str | None, str | None, bool, str]
"""What a board answer depends on: match id, seq, the head's seq and hash, the seat whose view
it is (``None``: the full board), whether the token is held to that seat, and the format. The
board names no sentence, so no language is part of it."""


@dataclass(frozen=True, slots=True)
class RenderedBoard:
    """A board answer as sent: its JSON bytes and its strong entity tag."""

    body: bytes
    etag: str
    """``"<sha-256 of the body>"``: a tag of what the reader reads, never of the head hash (which
    a player's token may not learn, for it tests guesses of hidden records)."""

    @classmethod
    def of(cls, body: bytes) -> RenderedBoard:
        """The answer for ``body``."""
        return cls(body, '"' + hashlib.sha256(body).hexdigest()[:40] + '"')

    def matches(self, if_none_match: str | None) -> bool:
        """Whether an ``If-None-Match`` header names this answer (``*`` or one of its tags,
        weak or strong: a GET compares weakly)."""
        if not if_none_match:
            return False
        for tag in if_none_match.split(","):
            tag = tag.strip()
            if tag == "*" or tag.removeprefix("W/") == self.etag:
                return True
        return False


class BoardCache(_Kept[BoardKey, RenderedBoard]):
    """Rendered boards of the last positions read, per process, bounded by count and bytes.

    The key holds the match's head (seq and hash), so an append makes every earlier entry of
    the match unreachable (they age out) and a stale board is never served; it holds the
    seat of the view, so one seat's board is never served to another. The caller checks access
    before it asks (a hit skips nothing but the replay and the rendering).
    """

    def __init__(self, size: int = 2048, max_bytes: int = 64 * 1024 * 1024) -> None:
        super().__init__()
        self.size = size
        self.max_bytes = max_bytes
        self._bytes = 0

    def get(self, key: BoardKey, render: Callable[[], bytes]) -> RenderedBoard:
        """The answer kept for ``key``, else rendered once by ``render`` (two requests for the
        same key at the same time render it once) and kept."""
        return self._get(key, lambda: RenderedBoard.of(render()))

    def _keep(self, key: BoardKey, made: RenderedBoard) -> None:
        if len(made.body) > self.max_bytes:
            return
        with self._lock:
            self._items[key] = made
            self._bytes += len(made.body)
            while len(self._items) > self.size or self._bytes > self.max_bytes:
                _, old = self._items.popitem(last=False)
                self._bytes -= len(old.body)

    def __len__(self) -> int:
        return len(self._items)
