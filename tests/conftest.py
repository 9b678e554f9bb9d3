"""Shared fixtures and hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/test`` under CI) runs more examples, deterministically;
``dev`` (the default) keeps a local run quick.
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=100,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def runner() -> CliRunner:
    """A click test runner that lets unexpected exceptions through (stdout and stderr apart)."""
    return CliRunner(catch_exceptions=False)


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--update-goldens`` rewrites golden files instead of comparing with them."""
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="write golden files (tests/golden/traces) instead of comparing; review the diff",
    )
