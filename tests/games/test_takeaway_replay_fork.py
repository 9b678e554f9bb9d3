"""The take-away game replayed, shown and forked by the real command line: nothing in vwlog
knows it, so every sentence, board and fork point comes through `vwlog.games.GameRules` (a game
without views is said by its events' types and fields and its board's fields), and what it
cannot serve (``next``, ``play``: it has no decisions capability) is one line, exit 2."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.conftest import ROOT, SAMPLES
from vwlog.cli.options import LoadedMatch
from vwlog.cli.stepper import Stepper, StepperApp, build_stepper
from vwlog.io.logfile import read_log

LEGAL = SAMPLES / "legal.jsonl"
LOG = str(LEGAL.relative_to(ROOT))

RULESET_D = {"id": "takeaway", "version": 1, "most": 3}
RULESET = f"ruleset={RULESET_D!r}"
SENTENCES = [
    f"takeaway_started players=['ana', 'budi'] pile=7 {RULESET}",
    "counters_taken player='ana' count=3",
    "move_passed player='budi'",
    "counters_taken player='ana' count=2",
    "counters_taken player='budi' count=2",
    "game_won player='budi'",
]
"""What each event of legal.jsonl is said as, seq 1 to 6."""
FORK_POINTS = {1, 2, 3, 4}
"""After these seqs a move is awaited; after 5 the rules owe game_won, after 6 it is over."""
MOVER = {1: "ana", 2: "budi", 3: "ana", 4: "budi"}
"""Whose move the rules await after each seq (the board names no priority holder: replay's
``priority`` is the awaited player, as the service's event pages say it)."""


def _vwlog(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vwlog", "--lang", "en", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=120,
    )


def test_replay_says_each_event_with_its_sentence_and_marks_the_fork_points() -> None:
    done = _vwlog("replay", LOG)
    expected = "".join(
        f"{seq:>5}  {said}{' ◆' if seq in FORK_POINTS else ''}\n"
        for seq, said in enumerate(SENTENCES, 1)
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_replay_board_lists_the_boards_fields_under_each_event() -> None:
    done = _vwlog("replay", LOG, "--board", "--from", "5", "--to", "5")
    expected = (
        "    5  counters_taken player='budi' count=2\n"
        "       started: true\n"
        '       players: ["ana", "budi"]\n'
        "       pile: 0\n"
        '       to_move: "ana"\n'
        "       passed: null\n"
        '       taker: "budi"\n'
        "       winner: null\n"
        '       ruleset: {"id": "takeaway", "version": 1, "most": 3}\n'
        "\n"
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_replay_json_gives_every_event_its_sentence_position_and_fork_point() -> None:
    done = _vwlog("replay", LOG, "--format", "json")
    assert (done.returncode, done.stderr) == (0, "")
    types = ["takeaway_started", "counters_taken", "move_passed"] + ["counters_taken"] * 2
    expected = [
        {
            "seq": seq,
            "type": kind,
            "decision": kind in {"counters_taken", "move_passed"},
            "description": said,
            "turn": 0,
            "phase": None,
            "step": None,
            "priority": MOVER.get(seq),
            "priority_point": seq in FORK_POINTS,
            "violations": [],
            "voids": None,
        }
        for seq, (kind, said) in enumerate(zip([*types, "game_won"], SENTENCES, strict=True), 1)
    ]
    assert json.loads(done.stdout) == expected


def test_replay_lists_the_fork_points_where_a_move_is_awaited() -> None:
    done = _vwlog("replay", LOG, "--priority-points")
    expected = (
        "seq  player  turn  phase  step  register\n"
        "  1  ana        0  -      -            0\n"
        "  2  budi       0  -      -            0\n"
        "  3  ana        0  -      -            0\n"
        "  4  budi       0  -      -            0\n"
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_show_draws_the_boards_fields_and_json() -> None:
    done = _vwlog("show", LOG, "--at", "3")
    expected = (
        "board after seq 3\n"
        "started: true\n"
        'players: ["ana", "budi"]\n'
        "pile: 4\n"
        'to_move: "ana"\n'
        'passed: "budi"\n'
        'taker: "ana"\n'
        "winner: null\n"
        'ruleset: {"id": "takeaway", "version": 1, "most": 3}\n'
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")
    final = _vwlog("show", LOG, "--format", "json")
    assert (final.returncode, final.stderr) == (0, "")
    assert json.loads(final.stdout) == {
        "started": True,
        "players": ["ana", "budi"],
        "pile": 0,
        "to_move": None,
        "passed": None,
        "taker": "budi",
        "winner": "budi",
        "ruleset": {"id": "takeaway", "version": 1, "most": 3},
    }


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (("next", LOG), "next"),
        (("next", LOG, "--at", "2", "--format", "json"), "next"),
        (("play", LOG, "ana: take 1"), "play"),
        (("show", LOG, "--as", "ana"), "show --as"),
        (("replay", LOG, "--as", "ana"), "replay --as"),
    ],
)
def test_what_the_game_cannot_serve_is_one_line_exit_2(args: tuple[str, ...], what: str) -> None:
    before = LEGAL.read_bytes()
    done = _vwlog(*args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"Error: {what} is not available for game takeaway\n"
    assert LEGAL.read_bytes() == before  # play wrote nothing


def test_a_fork_at_a_move_copies_the_match_up_to_it_and_marks_the_fork(tmp_path: Path) -> None:
    out = tmp_path / "what-if.jsonl"
    done = _vwlog("fork", LOG, "--at", "2", "-o", str(out))
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == f"wrote 3 records of take-1~2 to {out}\n"
    header, *records = (json.loads(line) for line in out.read_text().splitlines())
    assert (header["game"], header["match_id"]) == ("takeaway", "take-1~2")
    assert [r["event"] for r in records] == [
        {"type": "takeaway_started", "players": ["ana", "budi"], "pile": 7, "ruleset": RULESET_D},
        {"type": "counters_taken", "player": "ana", "count": 3},
        {"type": "match_forked", "parent": "take-1", "at": 2},
    ]
    assert [r["seq"] for r in records] == [1, 2, 3]


def test_the_fork_validates_with_no_violation(tmp_path: Path) -> None:
    """The fork breaks no rule, its marker included; it is incomplete (nobody has won)."""
    out = tmp_path / "what-if.jsonl"
    assert _vwlog("fork", LOG, "--at", "2", "-o", str(out)).returncode == 0
    done = _vwlog("validate", "--format", "json", str(out))
    (report,) = json.loads(done.stdout)
    assert (report["violations"], report["verdict"], report["winner"]) == ([], "INCOMPLETE", None)
    assert (done.returncode, done.stderr) == (1, "")


def test_a_hand_made_fork_off_a_fork_point_breaks_the_core_rule(tmp_path: Path) -> None:
    """A marker where the rules owe game_won: replay shows the core's fork rule under it."""
    lines = LEGAL.read_text().splitlines()[:6]
    lines.append('{"seq":6,"event":{"type":"match_forked","parent":"take-1","at":5}}')
    path = tmp_path / "hand-made.jsonl"
    path.write_text("\n".join(lines) + "\n")
    done = _vwlog("replay", "--from", "5", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        f"    5  {SENTENCES[4]}\n"
        "    6  match_forked parent='take-1' at=5\n"
        "       !! CORE-FORK-1 a fork may start only at a fork point\n",
        "1 violation in the events shown; 'vwlog validate' gives the full report\n",
    )


@pytest.mark.parametrize(("seq", "nearest"), [(5, "seq 4"), (6, "seq 4")])
def test_a_fork_off_a_fork_point_is_refused_in_one_line(
    seq: int, nearest: str, tmp_path: Path
) -> None:
    out = tmp_path / "what-if.jsonl"
    done = _vwlog("fork", LOG, "--at", str(seq), "-o", str(out))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"Error: {LOG}: seq {seq} of 'take-1' is not a fork point (nearest: {nearest}); "
        "see 'vwlog replay --priority-points'\n"
    )
    assert not out.exists()


def test_a_stored_matchs_timeline_marks_the_same_fork_points() -> None:
    from vwlog.services.importing import import_log
    from vwlog.services.timeline import extend, timeline
    from vwlog.store import MatchStore

    with MatchStore.open("memory:") as store:
        match_id = import_log(store, LEGAL).match_id
        assert match_id == "take-1"
        whole = timeline(store, match_id)
        assert (whole.head_seq, whole.turns, whole.combat_steps) == (6, [(1, 0)], [])
        assert (whole.priority_points, whole.violations) == (sorted(FORK_POINTS), [])
        assert extend(timeline(store, match_id, 3), store, match_id, 6) == whole


def _stepper(start: int) -> Stepper:
    header, records = read_log(LEGAL)
    match = LoadedMatch(LOG, header, ((r.seq + 1, r) for r in records))
    return build_stepper(match, start_seq=start, player=None)


def test_the_stepper_lists_the_sentences_and_draws_the_board_at_the_current_event() -> None:
    stepper = _stepper(3)
    assert stepper.lines() == [
        "vwlog replay take-1 · seq 3/6 · turn 0 · priority point",
        "",
        *(f"{' >'[seq == 3]}{seq:>6}  {SENTENCES[seq - 1]} ◆" for seq in range(1, 5)),
        f"{5:>7}  {SENTENCES[4]}",
        "",
        "started: true",
        'players: ["ana", "budi"]',
        "pile: 4",
        'to_move: "ana"',
        'passed: "budi"',
        'taker: "ana"',
        "winner: null",
        'ruleset: {"id": "takeaway", "version": 1, "most": 3}',
    ]
    assert stepper.next_decision()
    assert stepper.timeline.marks[stepper.index].seq == 4
    assert stepper.search("game_won")
    assert stepper.timeline.marks[stepper.index].seq == 6


def test_the_stepper_screen_moves_on_a_key() -> None:
    app = StepperApp(_stepper(1))

    async def run() -> list[str]:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]

    rows = asyncio.run(run())
    assert any(row.startswith("vwlog replay take-1 · seq 2/6") for row in rows), rows
    assert f">     2  {SENTENCES[1]} ◆" in rows
    assert "pile: 4" in rows


def test_a_stored_match_forks_in_the_store_and_rebase_next_play_say_one_line(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "club.db")
    assert _vwlog("--store", store, "import", LOG).returncode == 0
    forked = _vwlog("--store", store, "fork", "take-1", "--at", "4", "--name", "what-if")
    assert (forked.returncode, forked.stdout, forked.stderr) == (0, "take-1~what-if\n", "")
    for args, what in (
        (("rebase", "take-1~what-if"), "rebase"),
        (("next", "take-1~what-if"), "next"),
        (("play", "take-1~what-if", "budi: take 2"), "play"),
    ):
        done = _vwlog("--store", store, *args)
        assert (done.returncode, done.stdout) == (2, ""), args
        assert done.stderr == f"Error: {what} is not available for game takeaway\n"
    shown = _vwlog("--store", store, "replay", "take-1~what-if", "--from", "4")
    assert (shown.returncode, shown.stderr) == (0, "")
    assert shown.stdout == (
        f"    4  {SENTENCES[3]} ◆\n    5  match_forked parent='take-1' at=4 name='what-if' ◆\n"
    )
