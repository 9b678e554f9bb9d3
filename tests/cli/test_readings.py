"""``--ruleset FILE`` and ``--set FLAG=VALUE`` mean the same in every command that judges."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLE = str(Path(__file__).resolve().parents[2] / "samples" / "full-combat.jsonl")
POOR = "starting_gold=1"
"""A reading under which the sample's first summons are unaffordable."""


@pytest.mark.parametrize(
    ("args", "legal", "judged"),
    [
        (["validate", SAMPLE], 0, 1),
        (["replay", SAMPLE], 0, 1),
        (["diff", SAMPLE, SAMPLE], 0, 0),  # both sides read the same way: still identical
    ],
)
def test_set_changes_the_verdict(
    runner: CliRunner, args: list[str], legal: int, judged: int
) -> None:
    assert runner.invoke(main, args).exit_code == legal
    assert runner.invoke(main, [*args, "--set", POOR]).exit_code == judged


def test_report_and_show_read_the_match_under_the_set(runner: CliRunner) -> None:
    plain = runner.invoke(main, ["report", SAMPLE]).stdout
    poor = runner.invoke(main, ["report", SAMPLE, "--set", POOR]).stdout
    assert "R-" in poor.split("## Violations", 1)[-1]
    assert poor != plain
    gold = runner.invoke(main, ["show", SAMPLE, "--at", "10", "--set", POOR, "--format", "json"])
    assert gold.exit_code == 0


def test_a_ruleset_file_and_a_bad_flag(runner: CliRunner, tmp_path: Path) -> None:
    bad = runner.invoke(main, ["next", SAMPLE, "--set", "no_such_flag=1"])
    assert bad.exit_code == 2
    assert (
        bad.stderr == "Error: --set 'no_such_flag=1': no ruleset flag 'no_such_flag' "
        "(see 'vwlog rules --flags')\n"
    )
    broken = tmp_path / "rs.json"
    broken.write_text('{"id": 5}')
    result = runner.invoke(main, ["replay", SAMPLE, "--ruleset", str(broken)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {broken}, field 'id'")
