"""Rolls are chance events, recorded with their outcome: replaying a record with dice says the
same bytes every time; a fork after a roll keeps the rolls up to its fork point as recorded,
carries none of the parent's later rolls, and its branch records rolls of its own
(docs/games.md, "Chance")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.minis.logs import HEADER, B, cited, records, roll
from vwlog.events.base import Chance, Consequence, Decision
from vwlog.games.minis import events as ev
from vwlog.io.logfile import read_log, write_log

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "minis" / "legal_one_round.jsonl"
FORK_AT = 18
"""After m1's first Sequence (its rolls at seq 13-16): the Tactical Phase between Sequences."""


def _vwlog(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        capture_output=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )


def test_a_roll_is_the_cores_third_kind() -> None:
    assert issubclass(ev.Roll, Chance)
    assert ev.Roll.CHANCE
    assert not ev.Roll.DECISION
    assert not issubclass(ev.Roll, Decision | Consequence)


def test_replay_of_a_record_with_dice_is_byte_identical() -> None:
    first, second = _vwlog("replay", str(SAMPLE)), _vwlog("replay", str(SAMPLE))
    assert first.returncode == 0
    assert b"rolls" in first.stdout
    assert first.stdout == second.stdout
    boards = [_vwlog("replay", "--board", str(SAMPLE)).stdout for _ in range(2)]
    assert boards[0] == boards[1]
    assert b"AP" in boards[0]


def test_a_fork_after_a_roll_keeps_the_rolls_before_it_and_records_its_own(tmp_path: Path) -> None:
    out = tmp_path / "fork.jsonl"
    assert _vwlog("fork", str(SAMPLE), "--at", str(FORK_AT), "-o", str(out)).returncode == 0
    parent = SAMPLE.read_bytes().splitlines()
    child = out.read_bytes().splitlines()
    # the parent's events up to the fork point, rolls included, as recorded (the fork adds
    # its hash chain around them)
    assert [json.loads(x)["event"] for x in child[1 : FORK_AT + 1]] == [
        json.loads(x)["event"] for x in parent[1 : FORK_AT + 1]
    ]
    kept = [json.loads(line)["event"] for line in child[1:]]
    assert sum(1 for e in kept if e["type"] == "roll") == 4
    assert kept[-1]["type"] == "match_forked"
    assert kept[-1]["at"] == FORK_AT
    # none of the parent's later rolls is carried over; the branch rolls anew
    header, read = read_log(out)
    branch = [
        ev.ModelActivated(player="p1", model="m1"),
        ev.MovementDeclared(player="p1", model="m1", kind="NORMAL"),
        ev.ReactionsDeclared(
            player="p2", reactions=(ev.Reaction(model="r1", action="Attack", target="m1"),)
        ),
        ev.ActionDeclared(player="p1", model="m1", kind="NORMAL", action="Attack", targets=("r1",)),
        roll("p1", "m1", "CONFRONTATION", 1, 1),
        roll("p2", "r1", "CONFRONTATION", 6, hits=1, target="m1"),
        roll("p2", "r1", "DAMAGE", 3),
        ev.WoundsApplied(model="m1", wounds=1),
        ev.SequenceEnded(model="m1"),
    ]
    n = len(read)
    grown = [*read, *(ev.MinisRecord(seq=n + i, event=e) for i, e in enumerate(branch, 1))]
    write_log(tmp_path / "branch.jsonl", header, grown)
    done = _vwlog("validate", "--format", "json", str(tmp_path / "branch.jsonl"))
    assert json.loads(done.stdout)[0]["violations"] == []


def test_a_fork_is_refused_where_a_roll_is_awaited() -> None:
    # inside the Resolution Step (seq 13 is the first roll): no fork point
    done = _vwlog("fork", str(SAMPLE), "--at", "13", "-o", "-")
    assert done.returncode == 2
    assert cited([*B[:13], ev.MatchForked(parent="x", at=13)])[0][0] == "CORE-FORK-1"
    assert records(B)[12].event.type == "roll"
    assert HEADER.game == "minis"
