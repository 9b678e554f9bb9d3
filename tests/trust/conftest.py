"""Fixtures of the trust tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.io.pools import load_earlier_pool, load_pool
from vwlog.services import SimulationSpec, simulate_to

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sealed generated duel under the earlier packaged pool ``vw-sample-pool@1`` and the
    default ruleset that uses its text-only skills (seed 1, match 0: Oracle of Mists and
    Glimpse of Fate result)."""
    path = tmp_path_factory.mktemp("generated") / "sim-1.jsonl"
    simulate_to(load_earlier_pool("vw-sample-pool@1"), SimulationSpec(seed=1, max_turns=30), path)
    return path


@pytest.fixture(scope="session")
def generated_now(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same duel under the packaged pool ``vw-sample-pool@2``, where those skills have
    machine-readable effects with choices."""
    path = tmp_path_factory.mktemp("generated") / "sim-1.jsonl"
    simulate_to(load_pool(), SimulationSpec(seed=1, max_turns=30), path)
    return path
