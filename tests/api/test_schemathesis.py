"""Property-based fuzzing of the running service from its own OpenAPI document: no answer is a
server error, and every answer matches the schema (status codes, content types, bodies)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

if TYPE_CHECKING:
    from tests.api.server import Server

EXAMPLES = int(os.environ.get("VWLOG_FUZZ_EXAMPLES", "8"))
"""Examples per operation (``VWLOG_FUZZ_EXAMPLES``); ``VWLOG_FUZZ_RANDOM=1`` draws new ones
each run instead of the same derandomized set."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@schemathesis.serializer("application/x-ndjson")
def _ndjson(_ctx: object, value: object) -> bytes:
    """An upload body: the generated text as it is."""
    return value if isinstance(value, bytes) else str(value).encode()


def operations(url: str) -> list[object]:
    """Every operation of the OpenAPI document the running server publishes, but the event
    stream (it follows a match for as long as it is asked to)."""
    loaded = schemathesis.openapi.from_url(f"{url}/openapi.json")
    found = [r.ok() for r in loaded.get_all_operations()]
    return [op for op in found if not op.path.endswith("/stream")]


@pytest.mark.slow
def test_no_server_error_and_every_answer_matches_the_schema(sqlite_server: Server) -> None:
    headers = {"Authorization": f"Bearer {sqlite_server.tokens['judge']}"}
    ops = operations(sqlite_server.url)
    assert len(ops) >= 20
    calls: list[int] = []
    for op in ops:

        @given(case=op.as_strategy())  # type: ignore[attr-defined]
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=not os.environ.get("VWLOG_FUZZ_RANDOM"),
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def call(case: schemathesis.Case) -> None:
            response = case.call_and_validate(headers=headers, checks=CHECKS, timeout=60)
            calls.append(response.status_code)

        call()
    assert len(calls) >= len(ops)
    assert any(code < 300 for code in calls)
