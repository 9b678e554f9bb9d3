"""``vwlog show`` without ``--as`` draws the whole board, and says which view it draws (issue
38, point 4).

A file read from a judge's seat is the whole board: every hand and every Graveyard card named,
deck sizes. It used to show less than a player sees (hand counts, Graveyard counts).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from vwlog.cli import main
from vwlog.io.logfile import read_log

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLE = Path(__file__).parents[2] / "samples" / "full-combat.jsonl"


def _final_hands() -> tuple[str, ...]:
    from vwlog.engine.replay import FinalState, replay

    _, records = read_log(SAMPLE)
    state = replay(((i, r) for i, r in enumerate(records, 2)), FinalState())
    return tuple(f"{p.id}:{','.join(p.hand)}:{','.join(p.graveyard)}" for p in state.players)


def test_show_without_as_is_the_judges_whole_board(runner: CliRunner) -> None:
    result = runner.invoke(main, ["show", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "whole board (judge's view: every hand and Graveyard) after seq 238"
    assert "p1 hand: Militia Spearman (p1-004), Militia Spearman (p1-005), " in result.stdout
    assert "p2 hand: Militia Spearman (p2-004)" in result.stdout
    assert "p2 Graveyard: Militia Spearman (p2-002), Ashen Warcamp (p2-001)" in lines
    assert "p1 Graveyard: empty" in lines
    for entry in _final_hands():  # every card in a hand or Graveyard is named
        player, hand, grave = entry.split(":")
        for card in filter(None, [*hand.split(","), *grave.split(",")]):
            assert f"({card})" in result.stdout, (player, card)


def test_show_as_a_player_says_so_and_hides_the_other_hand(runner: CliRunner) -> None:
    result = runner.invoke(main, ["show", str(SAMPLE), "--as", "p1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "as p1: what p1 may know, after seq 238"
    assert any(x.startswith("p1 hand: ") for x in lines)
    assert not any(x.startswith("p2 hand: ") for x in lines)
    assert "p2 Graveyard: Militia Spearman (p2-002), Ashen Warcamp (p2-001)" in lines


def test_the_json_says_which_view_it_draws(runner: CliRunner) -> None:
    whole = orjson.loads(runner.invoke(main, ["show", str(SAMPLE), "--format", "json"]).stdout)
    assert whole["view"] == "judge"
    assert whole["viewer"] is None
    assert all(p["hand"] is not None for p in whole["players"])
    assert any(p["graveyard"] for p in whole["players"])
    mine = orjson.loads(
        runner.invoke(main, ["show", str(SAMPLE), "--as", "p1", "--format", "json"]).stdout
    )
    assert mine["view"] == "player"
    assert [p["hand"] is not None for p in mine["players"]] == [True, False]
