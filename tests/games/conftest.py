"""The take-away game, registered for these tests only: in this process through
`vwlog.games.register`, and for the commands and servers the tests start through
``VWLOG_GAMES``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.games import takeaway
from vwlog.games import register
from vwlog.model.games import ENV

MODULE = "tests.games.takeaway"
SAMPLES = Path(__file__).with_name("samples")
ROOT = Path(__file__).resolve().parents[2]

register(takeaway.GAME, MODULE)


@pytest.fixture(autouse=True)
def _games_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every process a test starts knows the take-away game too (and finds ``tests``)."""
    monkeypatch.setenv(ENV, f"{takeaway.GAME.id}={MODULE}")
    path = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", f"{ROOT}{os.pathsep}{path}" if path else str(ROOT))
