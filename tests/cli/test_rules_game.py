"""``vwlog rules --game``: another game's catalog, listed and in full, from the game's rules."""

from __future__ import annotations

import json

from click.testing import CliRunner

from vwlog.cli import main
from vwlog.games import rules_for


def test_the_list_is_the_games_catalog_with_its_counts(runner: CliRunner) -> None:
    done = runner.invoke(main, ["rules", "--game", "wowtcg"])
    assert done.exit_code == 0
    lines = done.stdout.splitlines()
    entries = rules_for("wowtcg").entries
    assert len(lines) == len(entries)
    assert lines[0].split()[:2] == ["WOW-TRN-1", "enforced"]
    statuses = [e.status for e in entries.values()]
    assert done.stderr.startswith(
        f"{len(entries)} rules: {statuses.count('enforced')} enforced, "
        f"{statuses.count('partial')} partial"
    )


def test_one_rule_in_full_quotes_the_seed(runner: CliRunner) -> None:
    done = runner.invoke(main, ["rules", "--game", "l5r", "L5R-RES-5", "--format", "json"])
    assert done.exit_code == 0
    (entry,) = json.loads(done.stdout)
    assert entry["id"] == "L5R-RES-5"
    assert entry["original"][0].startswith("Ukoliko je Snaga Napadačeve Vojske")


def test_a_status_filter_and_an_unknown_id(runner: CliRunner) -> None:
    partial = runner.invoke(main, ["rules", "--game", "wowtcg", "--status", "partial"])
    assert {line.split()[1] for line in partial.stdout.splitlines()} == {"partial"}
    wrong = runner.invoke(main, ["rules", "--game", "l5r", "L5R-RES-55"])
    assert wrong.exit_code == 2
    assert wrong.stderr == "Error: l5r has no rule L5R-RES-55; did you mean L5R-RES-5?\n"


def test_vandaria_wars_is_the_default(runner: CliRunner) -> None:
    plain = runner.invoke(main, ["rules"])
    said = runner.invoke(main, ["rules", "--game", "vw"])
    assert (plain.stdout, plain.stderr) == (said.stdout, said.stderr)
