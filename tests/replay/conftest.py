"""Generated matches shared by the replay tests (made once per session)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.replay.matches import simulate_log

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(scope="session")
def duel_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-player match that ends in a military victory (about 2,700 events)."""
    return simulate_log(tmp_path_factory.mktemp("duel") / "duel.jsonl", 7)


@pytest.fixture(scope="session")
def team_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A four-player Tag Team match."""
    path = tmp_path_factory.mktemp("team") / "team.jsonl"
    return simulate_log(path, 1, "--players", "4", "--teams", "2", "--max-turns", "40")


@pytest.fixture(scope="session")
def random_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A match played by random choices (more varied combat)."""
    path = tmp_path_factory.mktemp("random") / "random.jsonl"
    return simulate_log(path, 3, "--policy", "random", "--max-turns", "80")
