"""vwlog on a real terminal (a pseudo-terminal): the progress bar never shares a line with a
result, colour only where it is wanted, a pager only on a terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from .terminal import run_on_tty

SAMPLES = Path(__file__).parents[2] / "samples"
LOGS = [
    SAMPLES / "full-combat.jsonl",
    SAMPLES / "invalid" / "damage-over-atk.jsonl",
    SAMPLES / "hand-limit.jsonl",
    SAMPLES / "return-home.jsonl",
]


def test_results_and_the_progress_bar_do_not_share_a_line() -> None:
    run = run_on_tty(["validate", *map(str, LOGS)], env={"NO_COLOR": "1"})

    assert run.code == 1, run.raw
    assert "validating" in run.raw, "a bar is drawn on a terminal"
    lines = run.screen_lines
    for log in LOGS:
        assert any(x.startswith(f"{log}: match ") for x in lines), (log, lines)
    glued = [x for x in lines if "validating" in x and ".jsonl" in x]
    assert glued == [], glued
    assert any(x.startswith("4 logs: ") for x in lines), lines


def test_verdicts_and_rule_ids_are_coloured_on_a_terminal_only() -> None:
    illegal = str(LOGS[1])
    coloured = run_on_tty(["validate", illegal], env={"NO_COLOR": ""})
    plain = run_on_tty(["validate", illegal], env={"NO_COLOR": "1"})
    piped = subprocess.run(
        [sys.executable, "-m", "vwlog", "validate", illegal],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": ""},
        timeout=60,
        check=False,
    )

    assert coloured.code == plain.code == piped.returncode == 1
    assert re.search(r"\x1b\[[0-9;]*m(\x1b\[[0-9;]*m)?ILLEGAL\x1b\[0m", coloured.raw)
    assert re.search(r"\x1b\[[0-9;]*mR-CMB-19\x1b\[0m", coloured.raw)
    assert "\x1b[0m" not in plain.raw
    assert "ILLEGAL" in plain.raw
    assert "R-CMB-19" in plain.raw
    assert "\x1b[" not in piped.stdout
    assert "ILLEGAL" in piped.stdout


def test_a_long_replay_goes_through_the_pager_on_a_terminal_only() -> None:
    pager = {"PAGER": "sed s/^/PAGED:/", "NO_COLOR": "1"}
    on_tty = run_on_tty(["replay", str(LOGS[0])], env=pager)
    short = run_on_tty(["replay", str(LOGS[0]), "--to", "5"], env=pager)
    piped = subprocess.run(
        [sys.executable, "-m", "vwlog", "replay", str(LOGS[0])],
        capture_output=True,
        text=True,
        env={**os.environ, **pager},
        timeout=60,
        check=False,
    )

    assert on_tty.code == short.code == piped.returncode == 0
    paged = [x for x in on_tty.screen_lines if x.startswith("PAGED:")]
    assert len(paged) >= 237, on_tty.raw[-500:]
    assert paged[0].startswith("PAGED:    1  ")
    # fits the 24-line terminal: written directly
    assert "PAGED:" not in short.raw
    assert "    5  " in short.raw
    # piped: never a pager
    assert "PAGED:" not in piped.stdout
    assert len(piped.stdout.splitlines()) >= 237
