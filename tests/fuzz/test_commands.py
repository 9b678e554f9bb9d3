"""Every command that reads a log, on logs damaged at random: zero tracebacks.

Two strategies: bytes (a sample log with bytes replaced, deleted or inserted) and structure
(one field of one record replaced by an unknown id, a big or odd number, deep nesting or
control characters, the log then left sealed, re-sealed or stripped of its hashes, so that the
damage reaches the rules, the store and the reports and not only the hash check). Each example
runs validate, verify, replay, show, report, diff, stats and import, and on what import stored
verify, show, replay, export and stats (`tests.fuzz.harness`). The examples are few, as each
runs thirteen commands; the ``slow`` tests run more.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.harness import problems, run_all

SAMPLE = Path(__file__).parents[2] / "samples" / "absolute-victory.jsonl"
LINES = SAMPLE.read_bytes().splitlines()
FEW = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
MORE = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

ODD_VALUES: list[Any] = [
    "p9-404",
    "nobody",
    "",
    2**64,
    2**70,
    -(2**63) - 1,
    1.5,
    2.0,
    -0.0,
    1e308,
    "5",
    True,
    None,
    [],
    {},
    "\x1b]0;owned\x07\x1b[2J",
    "\u202eevil",
    "a\x00b",
    "é" * 3,
    "$x^$",
]


STRINGS = [v for v in ODD_VALUES if isinstance(v, str)] + ["p1", "p2", "p1-001", "p2-001"]
INTEGERS = [0, -1, 1, 7, 2**31, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70, -(2**63) - 1]


def deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


def dumps(value: Any) -> bytes:
    """Sorted, compact JSON that can hold what orjson cannot (integers beyond 64 bits)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )


def reseal(header: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Recompute the hash chain over what the records now say (as the codec hashes)."""
    header.pop("hash", None)
    previous = hashlib.sha256(dumps(header)).hexdigest()
    header["hash"] = previous
    for record in records:
        record.pop("hash", None)
        h = hashlib.sha256(previous.encode() + b"\n" + dumps(record))
        previous = h.hexdigest()
        record["hash"] = previous


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value that holds a scalar or a container."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(paths(item, (*prefix, index)))
    return found


def put(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for part in path[:-1]:
        value = value[part]
    value[path[-1]] = new


@st.composite
def damaged_logs(draw: st.DrawFn) -> bytes:
    header = json.loads(LINES[0])
    records = [json.loads(line) for line in LINES[1:]]
    for _ in range(draw(st.integers(1, 2))):
        index = draw(st.integers(0, len(records) - 1))
        where = paths(records[index]["event"])
        path = ("event", *draw(st.sampled_from(where))) if where else ("event",)
        old: Any = records[index]
        for part in path:
            old = old[part]
        # mostly a value of the same kind, so that the damage passes the schema and reaches
        # the rules, the board and the store; sometimes anything
        new: Any
        if isinstance(old, str) and draw(st.integers(0, 4)):
            new = draw(st.sampled_from(STRINGS))
        elif isinstance(old, int) and not isinstance(old, bool) and draw(st.integers(0, 4)):
            new = draw(st.sampled_from(INTEGERS))
        else:
            new = draw(
                st.one_of(st.sampled_from(ODD_VALUES), st.builds(deep, st.integers(250, 400)))
            )
        put(records[index], path, new)
    seal = draw(st.sampled_from(["keep", "reseal", "strip", "strip"]))
    if seal == "reseal":
        reseal(header, records)
    elif seal == "strip":
        header.pop("hash", None)
        for record in records:
            record.pop("hash", None)
    return b"\n".join(dumps(line) for line in [header, *records]) + b"\n"


@st.composite
def mutated_bytes(draw: st.DrawFn) -> bytes:
    content = bytearray(b"\n".join(LINES) + b"\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(content) - 1))
        action = draw(st.sampled_from(["replace", "delete", "insert"]))
        chunk = draw(
            st.one_of(
                st.binary(min_size=1, max_size=4),
                st.sampled_from([b"\x1b[2J", b"\xe2\x80\xae", b"\x00", b"9" * 25, b"[" * 300]),
            )
        )
        if action == "replace":
            content[at : at + len(chunk)] = chunk
        elif action == "delete":
            del content[at : at + len(chunk)]
        else:
            content[at:at] = chunk
    return bytes(content)


def check(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    work = tmp_path_factory.mktemp("fuzz")
    log = work / "damaged.jsonl"
    log.write_bytes(content)
    found = problems(run_all(log, work))
    assert not found, "\n".join(found)


@FEW
@given(content=damaged_logs())
def test_damaged_structure(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    check(tmp_path_factory, content)


@FEW
@given(content=mutated_bytes())
def test_damaged_bytes(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    check(tmp_path_factory, content)


@pytest.mark.slow
@MORE
@given(content=damaged_logs())
def test_damaged_structure_more(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    check(tmp_path_factory, content)


@pytest.mark.slow
@MORE
@given(content=mutated_bytes())
def test_damaged_bytes_more(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    check(tmp_path_factory, content)
