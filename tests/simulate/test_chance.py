"""Every draw of a generated match comes from its seed: the choices the rules leave among
consequences (the order of simultaneous triggers, what a result with a choice chooses) are
drawn, not the first taken; every format is generated; and the log records what makes the
match again."""

from __future__ import annotations

import random
import shlex
from collections import Counter
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from tests.rules.harness import board
from vwlog.cli import main
from vwlog.engine.replay import validate_records
from vwlog.events import DeckReordered, MatchStarted, ObjectResulted, PriorityPassed
from vwlog.games.vw.chance import play_by_chance
from vwlog.games.vw.play import play
from vwlog.games.vw.simulate import simulate, simulation
from vwlog.io.pools import load_pool
from vwlog.model.types import MatchFormat
from vwlog.rules import expect

if TYPE_CHECKING:
    from pathlib import Path

P1 = "p1"

FORMATS = [
    (2, None, MatchFormat.DUEL),
    (4, 2, MatchFormat.TAG),
    (6, 3, MatchFormat.TAG),
    (6, 2, MatchFormat.THREE_V_THREE),
    (3, None, MatchFormat.BATTLE_ROYAL),
    (4, None, MatchFormat.BATTLE_ROYAL),
]


@pytest.mark.parametrize(("players", "teams", "fmt"), FORMATS)
def test_every_format_is_generated_legal_with_its_seed_recorded(
    players: int, teams: int | None, fmt: MatchFormat
) -> None:
    match = simulate(
        load_pool(), seed=4, index=2, players=players, teams=teams, policy="random", max_turns=6
    )
    start = match.records[0].event
    assert isinstance(start, MatchStarted)
    assert start.format == fmt
    assert (start.shuffle, start.seed) == ("seeded", 4)
    assert len(start.seats) == players
    assert validate_records(match.records).ok
    assert match.header.generator == (
        f"vwlog simulate --seed 4 --index 2 --players {players}"
        f"{f' --teams {teams}' if teams else ''} --policy random --max-turns 6"
    )


def test_the_command_in_the_header_makes_the_match_again_byte_for_byte(tmp_path: Path) -> None:
    """Match 2 of a run of three, and the same match made alone by the command its header
    names: the same file."""
    runner = CliRunner()
    run = ["simulate", "--seed", "9", "-n", "3", "--players", "3", "--policy", "random"]
    done = runner.invoke(main, [*run, "--max-turns", "5", "-o", str(tmp_path / "run")])
    assert done.exit_code == 0, done.output
    third = (tmp_path / "run" / "sim-9-00002.jsonl").read_bytes()
    header = third.split(b"\n", 1)[0].decode()
    command = header.split('"generator":"')[1].split('"')[0]
    assert command.startswith("vwlog simulate --seed 9 --index 2 ")
    args = shlex.split(command)[2:]
    again = runner.invoke(main, ["simulate", *args, "-o", str(tmp_path / "again.jsonl")])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.jsonl").read_bytes() == third


def test_choices_among_consequences_are_drawn_from_the_seed() -> None:
    """Over a few random matches the generator draws trigger orders and chosen results, the
    same ones for the same seed, and not always the first."""
    pool = load_pool()
    drawn: Counter[str] = Counter()
    for index in (1, 5):
        made = [
            simulation(pool, seed=11, index=index, policy="random", max_turns=25) for _ in range(2)
        ]
        first, second = (tuple(g.records()) for g in made)
        assert first == second
        assert made[0].drawn == made[1].drawn
        drawn.update(made[0].drawn)
    assert drawn["trigger order"] > 0
    assert drawn["result"] > 0


def test_a_result_with_a_choice_is_drawn_among_the_allowed_ones() -> None:
    """Glimpse puts the top three cards of the Fate Deck back in any order: the generator
    draws an order (different ones for different seeds), each one the rules accept, where
    play mode keeps the first (nothing moved)."""
    sc = board(p1=(("citadel", ()),), hand1=("glimpse",))
    top = sc.state.player(P1).deck[:3]
    sc.summon(sc.inst(P1, "glimpse"), resolve=False)
    orders = set()
    for seed in range(8):
        state, played = sc.state, []
        while state.register:
            holder = expect(sc.rs, state).player
            assert holder is not None
            pass_ = PriorityPassed(player=holder)
            state, events = play_by_chance(sc.rs, state, pass_, random.Random(seed))
            played.extend(events)
        reordered = [e for r in played if isinstance(r, ObjectResulted) for e in r.effects]
        assert len(reordered) == 1
        assert isinstance(reordered[0], DeckReordered)
        assert sorted(reordered[0].cards) == sorted(top)
        orders.add(reordered[0].cards)
        assert state.player(P1).deck[:3] == reordered[0].cards
    assert len(orders) > 1
    state, played = sc.state, []
    while state.register:
        holder = expect(sc.rs, state).player
        assert holder is not None
        state, events = play(sc.rs, state, PriorityPassed(player=holder))
        played.extend(events)
    assert not [e for r in played if isinstance(r, ObjectResulted) for e in r.effects]
