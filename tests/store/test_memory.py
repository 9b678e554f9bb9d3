"""The store contract on eventsourcing's plain-Python backend (``memory:``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .contract import StoreContract

if TYPE_CHECKING:
    from vwlog.store import MatchStore


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def url(self) -> str:
        return "memory:"

    @pytest.fixture
    def other(self, store: MatchStore) -> MatchStore:
        # Every memory: store is its own database; a second writer shares the first's.
        return store
