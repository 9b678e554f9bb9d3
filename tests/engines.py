"""Which engine the tests run on, for the few tests that watch the engine's calls.

A test that counts or diverts calls by patching a module function or a method sees only the
calls interpreted code makes: compiled code calls the functions of its own build directly. Such
tests run on the pure-Python engine; `.ci/test` runs them again there after the compiled run.
"""

from __future__ import annotations

import pytest

from vwlog.build import is_compiled

WATCHES_CALLS = pytest.mark.skipif(
    is_compiled(),
    reason="patches calls that compiled code makes directly; .ci/test runs it on the pure engine",
)
"""Skip the marked test on the compiled engine (see the module's docstring)."""
