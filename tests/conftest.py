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
        help="write golden files (tests/golden/traces, tests/golden/outputs) instead of comparing; "
        "review the diff",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Commands that name no store use the per-user default store, in the XDG data folder:
    for the tests, a folder of this run's own (never the user's store)."""
    import tempfile

    if not os.environ.get("_VWLOG_TEST_DATA_HOME"):
        home = tempfile.mkdtemp(prefix="vwlog-test-data-")
        os.environ["_VWLOG_TEST_DATA_HOME"] = os.environ["XDG_DATA_HOME"] = home
        config.add_cleanup(lambda: _remove_tree(home))


@pytest.fixture(autouse=True)
def _own_default_store(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test has a per-user data folder of its own, so the default store (and the pools
    and rulesets published into it) never carries over from one test to the next: an id one
    test publishes is not published for the next."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))


def _remove_tree(path: str) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop the PostgreSQL database this run created (`tests.store.pg`), if it made one."""
    import sys

    pg = sys.modules.get("tests.store.pg")
    if pg is not None:
        pg.drop_test_database()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Name, once, the PostgreSQL database the tests used (and whether it was dropped)."""
    import sys

    pg = sys.modules.get("tests.store.pg")
    line = pg.summary() if pg is not None else None
    if line is not None:
        terminalreporter.write_line(line)
