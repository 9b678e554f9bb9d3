"""vwlog on a real terminal (a pseudo-terminal): the progress bar never shares a line with a
result, colour only where it is wanted, a pager only on a terminal."""

from __future__ import annotations

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
