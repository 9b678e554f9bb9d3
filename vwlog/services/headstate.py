"""The board at the head of the matches a long-running process last read or wrote, so that an
append does not seek its match again after the awaited decision was asked, nor after its own
previous append.

A state is kept under the head it follows (seq and chain hash): a record appended by anybody
moves the head, and the kept state is then never used again (it ages out). The states kept are
the ones `state_at` computes (from a vouched snapshot, chained to the anchor), or the one an
append computed by replaying its own new records through the same replay loop from such a
state: exactly the state `state_at` would give at the new head.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from vwlog.services.matches import state_at

if TYPE_CHECKING:
    from vwlog.store import Head, MatchStore

__all__ = ["HeadStates"]


class HeadStates:
    """Up to ``size`` head states, keyed by match id and head (per process; thread-safe)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
        self._lock = threading.Lock()

    def state(self, store: MatchStore, match_id: str, head: Head) -> Any:
        """The state after ``head`` of ``match_id``: kept, else sought (`state_at`) and kept.

        Raises:
            MatchNotFoundError, StoredSeqOutOfRangeError, StoreError: as `state_at`.
        """
        key = (match_id, head.seq, head.hash)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        state = state_at(store, match_id, head.seq)
        self.keep(match_id, head, state)
        return state

    def keep(self, match_id: str, head: Head, state: Any) -> None:
        """Keep ``state`` as the state after ``head`` of ``match_id``."""
        with self._lock:
            self._items[(match_id, head.seq, head.hash)] = state
            self._items.move_to_end((match_id, head.seq, head.hash))
            while len(self._items) > self.size:
                self._items.popitem(last=False)
