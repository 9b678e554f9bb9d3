"""Inputs that are not files, through the real command line: a device (``/dev/zero``), a FIFO
nobody writes to, a closed standard input, SIGTERM in the middle of a spooled read, and a header
line written another way. Each ends in one ``Error:`` line (exit 2) or a finding (exit 1) within
a bound (the subprocess timeout), and leaves nothing in the temporary folder (``TMPDIR`` points
at a fresh directory, checked empty afterwards).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "hand-limit.jsonl"
BOUND = 90
"""Seconds any one command may take here (a loaded machine starts Python slowly)."""
FIFO_WAIT = "1"
"""How long a FIFO is waited on for a writer in these tests (``VWLOG_FIFO_WAIT``)."""

READERS: list[tuple[str, ...]] = [
    ("validate", "{log}"),
    ("verify", "{log}"),
    ("replay", "{log}"),
    ("show", "{log}"),
    ("report", "{log}", "-o", "{out}"),
    ("stats", "{log}"),
    ("next", "{log}"),
    ("diff", "{log}", str(SAMPLE)),
    ("import", "{log}"),
]
"""Every command that reads a log, ``{log}`` the input under test."""


def vwlog(
    args: list[str], tmp: Path, *, stdin: int | None = None, closed_stdin: bool = False
) -> subprocess.CompletedProcess[str]:
    """``python -m vwlog ARGS`` with ``TMPDIR=tmp`` and a store of its own, within `BOUND`."""
    env = {
        **os.environ,
        "TMPDIR": str(tmp),
        "VWLOG_FIFO_WAIT": FIFO_WAIT,
        "VWLOG_STORE": str(tmp.parent / "store.db"),
    }
    return subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        capture_output=True,
        text=True,
        timeout=BOUND,
        cwd=ROOT,
        env=env,
        stdin=stdin,
        # a closed descriptor 0: Python starts with sys.stdin None
        preexec_fn=(lambda: os.close(0)) if closed_stdin else None,
        check=False,
    )


def filled(command: tuple[str, ...], log: str, out: Path) -> list[str]:
    return [part.format(log=log, out=out / "report.md") for part in command]


def one_error(done: subprocess.CompletedProcess[str], *, containing: str) -> None:
    """Exit 2 with one ``Error:`` line saying ``containing`` (import adds its summary line)."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr
    assert errors[0].startswith("Error: "), errors
    assert containing in errors[0], errors
    assert len([e for e in errors if e.startswith("Error: ")]) == 1, errors
    assert len(errors) <= 2, errors


@pytest.fixture
def tmp(tmp_path: Path) -> Iterator[Path]:
    """A fresh temporary folder for the command; checked empty at the end of the test."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    yield folder
    assert not list(folder.iterdir()), list(folder.iterdir())


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_device_is_refused_at_once(tmp: Path, command: tuple[str, ...]) -> None:
    began = time.monotonic()
    done = vwlog(filled(command, "/dev/zero", tmp.parent), tmp)
    one_error(done, containing="/dev/zero: not a log file but a device")
    assert time.monotonic() - began < BOUND


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_fifo_nobody_writes_to_is_given_up(tmp: Path, command: tuple[str, ...]) -> None:
    fifo = tmp.parent / "nobody.jsonl"
    os.mkfifo(fifo)
    done = vwlog(filled(command, str(fifo), tmp.parent), tmp)  # the timeout is the bound
    one_error(done, containing=f"a FIFO nobody wrote to within {FIFO_WAIT} s")


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_closed_standard_input_is_one_line(tmp: Path, command: tuple[str, ...]) -> None:
    done = vwlog(filled(command, "-", tmp.parent), tmp, closed_stdin=True)
    one_error(done, containing="standard input is closed")


def test_a_fifo_with_a_writer_is_still_read(tmp: Path) -> None:
    fifo = tmp.parent / "pipe.jsonl"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as out:
            out.write(SAMPLE.read_bytes())

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    done = vwlog(["verify", str(fifo)], tmp)
    writer.join(timeout=BOUND)
    assert done.returncode == 0, done.stderr
    assert "chain intact" in done.stdout


def test_a_fifo_is_judged_as_the_same_bytes_in_a_file(tmp: Path) -> None:
    """The copy of a FIFO stops only where every reader stops: a record line indented by
    blanks (readable, not canonical) and the lines after it are copied, so validate gives the
    FIFO the verdict and reason it gives the file."""
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    lines[5] = b"  " + lines[5]
    content = b"".join(lines)
    log = tmp.parent / "indented.jsonl"
    log.write_bytes(content)
    fifo = tmp.parent / "indented-pipe.jsonl"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as out:
            out.write(content)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    from_fifo = vwlog(["validate", "--format", "json", str(fifo)], tmp)
    writer.join(timeout=BOUND)
    from_file = vwlog(["validate", "--format", "json", str(log)], tmp)
    assert from_fifo.returncode == from_file.returncode == 1, from_fifo.stderr
    (on_fifo,), (on_file,) = json.loads(from_fifo.stdout), json.loads(from_file.stdout)
    assert on_fifo["verdict"] == on_file["verdict"] == "UNTRUSTED"
    assert on_fifo["reason"] == on_file["reason"]
    assert on_fifo["events"] == on_file["events"] >= len(lines) - 2  # all read (the seal aside)


def test_zeros_from_a_fifo_are_refused_at_line_1(tmp: Path) -> None:
    # /dev/zero through a pipe: no newline ever, nor a JSON object; the copy stops at once
    # (every reader stops at such a line) and the log is refused at line 1
    fifo = tmp.parent / "zeros.jsonl"
    os.mkfifo(fifo)
    feeder = subprocess.Popen(
        ["dd", "if=/dev/zero", f"of={fifo}", "bs=1M", "count=64", "status=none"],
        stderr=subprocess.DEVNULL,
    )
    try:
        done = vwlog(["verify", str(fifo)], tmp)
    finally:
        feeder.kill()
        feeder.wait(timeout=BOUND)
    one_error(done, containing=f"{fifo}, line 1: ")


def test_an_endless_line_from_a_fifo_stops_at_the_line_limit(tmp: Path) -> None:
    # a JSON object that never ends: the copy stops at the 16 MiB line limit
    fifo = tmp.parent / "endless.jsonl"
    os.mkfifo(fifo)

    def write() -> None:
        try:
            with fifo.open("wb") as out:
                out.write(b'{"format":"vwlog","x":"')
                for _ in range(64):
                    out.write(b"a" * (1 << 20))
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    done = vwlog(["verify", str(fifo)], tmp)
    writer.join(timeout=BOUND)
    one_error(done, containing="longer than the limit of 16 MiB")


def test_sigterm_while_a_fifo_is_copied_leaves_nothing_behind(tmp: Path) -> None:
    """``verify`` copies a FIFO into the temporary folder (it reads the log twice); SIGTERM in
    the middle ends it with "Terminated." (143) and the copy is removed."""
    fifo = tmp.parent / "endless.jsonl"
    os.mkfifo(fifo)
    stop = threading.Event()

    def write() -> None:
        line = b'{"event":{"type":"priority_passed"},"seq":1}\n' * 1000
        try:
            with fifo.open("wb") as out:
                while not stop.is_set():
                    out.write(line)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    env = {**os.environ, "TMPDIR": str(tmp), "VWLOG_FIFO_WAIT": "30"}
    process = subprocess.Popen(
        [sys.executable, "-m", "vwlog", "verify", str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        # the event waited for: the copy exists and grows
        deadline = time.monotonic() + BOUND
        copies: list[Path] = []
        while time.monotonic() < deadline and not any(p.stat().st_size for p in copies):
            copies = [p for p in tmp.rglob("*.jsonl") if p.is_file()]
            if process.poll() is not None:
                break
            stop.wait(0.05)  # a polling interval, not a guess at how long it takes
        assert copies, "verify never copied the FIFO"
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=BOUND)
    finally:
        stop.set()
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, err
    assert err.strip() == "Terminated."


HEADERS = {
    "spaces": lambda h: json.dumps(h, sort_keys=True, separators=(", ", ": ")).encode(),
    "key order": lambda h: json.dumps(dict(reversed(h.items())), separators=(",", ":")).encode(),
    "an escape": lambda h: (
        json.dumps(h, sort_keys=True, separators=(",", ":"))
        .replace('"vwlog"', '"\\u0076wlog"')
        .encode()
    ),
    "a trailing space": lambda h: (
        json.dumps(h, sort_keys=True, separators=(",", ":")).encode() + b" "
    ),
    "a repeated key": lambda h: (
        json.dumps(h, sort_keys=True, separators=(",", ":")).encode()[:-1] + b',"version":1}'
    ),
}
"""A header written another way whose content (and so its hash) is unchanged."""


@pytest.mark.parametrize("how", list(HEADERS))
def test_a_reformatted_header_is_an_integrity_problem(tmp: Path, how: str) -> None:
    head, rest = SAMPLE.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    log = tmp.parent / "reformatted.jsonl"
    log.write_bytes(HEADERS[how](header) + b"\n" + rest)
    said = "header altered: not in canonical form"
    done = vwlog(["verify", str(log)], tmp)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert f"BROKEN at line 1: {said}" in done.stdout
    done = vwlog(["validate", "--format", "json", str(log)], tmp)
    assert done.returncode == 1, done.stderr
    (judged,) = json.loads(done.stdout)
    assert judged["verdict"] == "UNTRUSTED"
    assert said in judged["reason"]
    assert judged["intact"] is False
    done = vwlog(["import", str(log)], tmp)
    one_error(done, containing=said)


def test_the_canonical_header_passes(tmp: Path) -> None:
    done = vwlog(["verify", str(SAMPLE)], tmp)
    assert done.returncode == 0, done.stdout
