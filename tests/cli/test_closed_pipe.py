"""A reader that goes away (``vwlog validate corpus/ | head -1``) is no error: the command ends
quietly (no traceback, no ``Error:``) with the exit status of what it did, through real pipes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).parents[2] / "samples"
ILLEGAL = SAMPLES / "invalid" / "damage-over-atk.jsonl"


def _into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run vwlog writing into a pipe whose reader has gone already: its first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "vwlog", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        os.close(write)


def test_validate_piped_into_head_exits_0_on_a_legal_corpus() -> None:
    # the command, as a shell runs it; whether the pipe breaks depends on timing,
    # the status must not
    done = subprocess.run(
        f"{sys.executable} -m vwlog validate {SAMPLES}/ {SAMPLES}/ | head -1; "
        'exit "${PIPESTATUS[0]}"',
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (("validate", str(SAMPLES)), 0),
        (("validate", str(ILLEGAL)), 1),
        (("verify", str(SAMPLES / "full-combat.jsonl")), 0),
        (("validate", str(ILLEGAL), "--format", "json"), 1),
        (("rules",), 0),
        (("--help",), 0),
        (("validate", "--help"), 0),
    ],
)
def test_a_closed_pipe_ends_quietly_with_the_status_of_what_was_done(
    args: tuple[str, ...], status: int
) -> None:
    done = _into_closed_pipe(*args)
    assert done.stderr == ""
    assert done.returncode == status


def test_a_reader_that_stops_after_one_line_leaves_no_traceback() -> None:
    # far more output than a pipe holds: the writer meets the closed pipe mid-way
    with subprocess.Popen(
        [sys.executable, "-m", "vwlog", "replay", str(SAMPLES / "full-combat.jsonl"), "--board"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()
        err = process.stderr.read()
        assert process.wait(timeout=300) == 0
    assert first
    assert err == b""
