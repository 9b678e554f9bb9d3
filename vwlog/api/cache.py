"""Answers that need a whole match replayed, kept while the match does not change.

A stored event never changes (every write appends), so an answer computed from all of a match's
records holds as long as its head (seq and chain hash) does. The cache is per process (each
worker keeps its own) and bounded; a stale entry is never served because the head is part of
the key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.store import MatchStore

T = TypeVar("T")

__all__ = ["HeadCache"]


class HeadCache(Generic[T]):
    """Up to ``size`` answers, keyed by match id and the head they were computed at."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int, str | None], T] = OrderedDict()
        self._lock = threading.Lock()
        self._computing: dict[tuple[str, int, str | None], threading.Lock] = {}

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
        key = (match_id, head.seq, head.hash)
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
                value = compute(head.seq)
                with self._lock:
                    self._items[key] = value
                    while len(self._items) > self.size:
                        self._items.popitem(last=False)
            finally:
                with self._lock:
                    self._computing.pop(key, None)
            return value
