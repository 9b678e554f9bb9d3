"""``vwlog replay`` and ``vwlog show``: traces, filters, JSON, priority points, hidden hands
and what a player knows, stored matches, errors, and the interactive stepper (its logic
directly, its screen through tmux)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest
from click.testing import CliRunner

from tests.replay.matches import backed_up_copy, illegal_copy, simulate_log
from vwlog.audit.knowledge import knowledge
from vwlog.cli import main
from vwlog.cli.replay import POINT_MARK
from vwlog.cli.stepper import Descriptions, Stepper
from vwlog.engine.replay import Collect, Step, replay
from vwlog.engine.seek import Timeline, priority_points, state_at
from vwlog.games.vw.describe import describe
from vwlog.io.logfile import read_log
from vwlog.render.json import seen_card_json
from vwlog.services.storing import SNAPSHOT_EVERY
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterator

    from click.testing import Result

    from vwlog.events import EventRecord
    from vwlog.model.state import MatchState

ROOT = Path(__file__).resolve().parents[2]
JUDGE_BACKUP = ROOT / "samples" / "judge-backup.jsonl"
BOARD_VIEW_SCHEMA = ROOT / "schemas" / "board-view.schema.json"


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated two-player match."""
    return simulate_log(tmp_path_factory.mktemp("replay") / "match.jsonl", 7)


@pytest.fixture(scope="module")
def records(log: Path) -> list[EventRecord]:
    """Its records."""
    return read_log(log)[1]


@pytest.fixture(scope="module")
def steps(records: list[EventRecord]) -> list[Step]:
    """Every step of its full replay."""
    return replay(records, Collect())


@pytest.fixture(scope="module")
def points(records: list[EventRecord]) -> frozenset[int]:
    """The seqs of its priority points, as ``--priority-points`` lists them."""
    return frozenset(p.seq for p in priority_points(records))


def run(runner: CliRunner, *args: str | Path) -> Result:
    """Invoke ``vwlog`` with ``args``."""
    return runner.invoke(main, [str(a) for a in args])


def marked(seq: int, text: str, points: frozenset[int]) -> str:
    """A line of the text trace: seq, description, and the mark of a priority point."""
    return f"{seq:>5}  {text}{POINT_MARK if seq in points else ''}"


# -- the text trace --------------------------------------------------------------------------


def test_replay_prints_one_line_per_event(
    runner: CliRunner, log: Path, steps: list[Step], points: frozenset[int]
) -> None:
    result = run(runner, "replay", log)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(steps)
    for line, step in zip(lines[:200], steps, strict=False):
        seq = step.record.seq
        assert line == marked(seq, describe(step.record.event, step.before), points)
    assert result.stderr == ""


def test_the_trace_marks_exactly_the_priority_points(
    runner: CliRunner, log: Path, points: frozenset[int]
) -> None:
    lines = run(runner, "replay", log).stdout.splitlines()
    shown = {int(line.split()[0]) for line in lines if line.endswith(POINT_MARK)}
    assert shown == points
    assert 0 < len(points) < len(lines)
    assert POINT_MARK == " \u25c6"
    assert "' ◆'" in run(runner, "replay", "--help").stdout  # the mark is documented


def test_the_last_event_shown_is_marked_too(
    runner: CliRunner, log: Path, records: list[EventRecord], points: frozenset[int]
) -> None:
    """With --to the log is read no further: the last line is judged on the board after it,
    as ``--priority-points --to`` judges it."""
    seq = min(points)
    last = run(runner, "replay", log, "--to", str(seq)).stdout.splitlines()[-1]
    assert last.endswith(POINT_MARK)
    listed = run(runner, "replay", log, "--priority-points", "--to", str(seq), "--format", "json")
    assert json.loads(listed.stdout)[-1]["seq"] == seq
    before = run(runner, "replay", log, "--to", str(seq - 1)).stdout.splitlines()[-1]
    assert before.endswith(POINT_MARK) == (seq - 1 in points)


def test_json_and_jsonl_say_which_events_are_priority_points(
    runner: CliRunner, log: Path, points: frozenset[int]
) -> None:
    rows = json.loads(run(runner, "replay", log, "--format", "json").stdout)
    assert {row["seq"] for row in rows if row["priority_point"]} == points
    assert all(isinstance(row["priority_point"], bool) for row in rows)
    lines = run(runner, "replay", log, "--format", "jsonl", "--from", "50", "--to", "90").stdout
    for row in map(json.loads, lines.splitlines()):
        assert row["priority_point"] == (row["seq"] in points)


def test_replay_board_shows_the_board_after_each_event(
    runner: CliRunner, log: Path, steps: list[Step]
) -> None:
    result = run(runner, "replay", log, "--board", "--from", "74", "--to", "76")
    assert result.exit_code == 0
    blocks = result.stdout.split("\n\n")
    assert blocks[-1] == ""
    assert len(blocks) == 4
    for block, step in zip(blocks, steps[73:76], strict=False):
        head, *board = block.splitlines()
        assert head.startswith(f"{step.record.seq:>5}  ")
        assert "\n".join(line[7:] for line in board) == str(step.after)


def test_the_trace_is_the_same_bytes_every_time(runner: CliRunner, log: Path) -> None:
    first = run(runner, "replay", log, "--board", "--to", "300").stdout
    assert first == run(runner, "replay", log, "--board", "--to", "300").stdout


def test_violations_are_shown_inline_and_exit_1(
    runner: CliRunner, log: Path, tmp_path: Path
) -> None:
    bad, seq = illegal_copy(log, tmp_path / "bad.jsonl")
    result = run(runner, "replay", bad, "--from", str(seq), "--to", str(seq + 2))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{seq:>5}  ")
    assert lines[1].startswith("       !! R-")
    assert "violation" in result.stderr
    assert "vwlog validate" in result.stderr


def test_violations_outside_the_events_shown_do_not_count(
    runner: CliRunner, log: Path, tmp_path: Path
) -> None:
    bad, seq = illegal_copy(log, tmp_path / "bad.jsonl")
    result = run(runner, "replay", bad, "--to", str(seq - 1))
    assert result.exit_code == 0
    assert "!!" not in result.stdout


def test_a_judges_back_up_shows_what_it_voided(
    runner: CliRunner, log: Path, records: list[EventRecord], tmp_path: Path
) -> None:
    point = next(p.seq for p in priority_points(records) if p.seq > 300)
    path = backed_up_copy(log, tmp_path / "backup.jsonl", point=point, at=point + 10)
    seq = point + 11
    result = run(runner, "replay", path, "--from", str(seq), "--to", str(seq))
    backed_up = frozenset(p.seq for p in priority_points(read_log(path)[1]))
    assert result.stdout.splitlines() == [
        marked(seq, f"Ruling by Ana: back up to seq {point}: missed trigger", backed_up),
        f"       -- voids seq {point + 1}..{point + 10}",
    ]
    rows = json.loads(
        run(runner, "replay", path, "--from", str(seq), "--to", str(seq), "--format", "json").stdout
    )
    assert rows[0]["voids"] == [point + 1, point + 10]


# -- filters ---------------------------------------------------------------------------------


def _seqs(result: Result) -> list[int]:
    return [int(line.split()[0]) for line in result.stdout.splitlines()]


def test_from_and_to_choose_a_range(runner: CliRunner, log: Path) -> None:
    assert _seqs(run(runner, "replay", log, "--from", "10", "--to", "14")) == [10, 11, 12, 13, 14]


def test_to_stops_reading_the_log(runner: CliRunner, log: Path, tmp_path: Path) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(lines[:60]) + b"{not json\n")
    assert run(runner, "replay", broken, "--to", "59").exit_code == 0  # line 60
    assert run(runner, "show", broken, "--at", "59").exit_code == 0
    result = run(runner, "replay", broken)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    assert "line 61" in result.stderr


def test_turn_shows_the_events_of_one_turn(runner: CliRunner, log: Path, steps: list[Step]) -> None:
    result = run(runner, "replay", log, "--turn", "3")
    expected = [s.record.seq for s in steps if s.after.turn == 3]
    assert _seqs(result) == expected
    assert "Turn 3 begins" in result.stdout.splitlines()[0]


def test_phase_shows_the_events_of_one_phase(
    runner: CliRunner, log: Path, steps: list[Step]
) -> None:
    result = run(runner, "replay", log, "--phase", "combat", "--turn", "2")
    expected = [s.record.seq for s in steps if s.after.turn == 2 and s.after.phase == "COMBAT"]
    assert _seqs(result) == expected
    assert expected


def test_only_decisions(runner: CliRunner, log: Path) -> None:
    result = run(runner, "replay", log, "--only", "decisions", "--format", "jsonl")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows
    assert all(row["decision"] for row in rows)


def test_only_consequences(runner: CliRunner, log: Path) -> None:
    result = run(runner, "replay", log, "--only", "consequences", "--format", "json")
    rows = json.loads(result.stdout)
    assert rows
    assert not any(row["decision"] for row in rows)


# -- JSON ------------------------------------------------------------------------------------

EVENT_KEYS = {
    "seq",
    "type",
    "decision",
    "description",
    "turn",
    "phase",
    "step",
    "priority",
    "priority_point",
    "violations",
    "voids",
}


def test_json_is_a_list_of_events(runner: CliRunner, log: Path, steps: list[Step]) -> None:
    result = run(runner, "replay", log, "--format", "json", "--to", "40")
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    assert [row["seq"] for row in rows] == list(range(1, 41))
    for row, step in zip(rows, steps, strict=False):
        assert set(row) == EVENT_KEYS
        assert row["type"] == step.record.event.type
        assert row["description"] == describe(step.record.event, step.before)
        assert row["turn"] == step.after.turn
        assert row["priority"] == step.after.priority


def test_jsonl_is_one_event_per_line_with_the_board(runner: CliRunner, log: Path) -> None:
    result = run(
        runner, "replay", log, "--format", "jsonl", "--board", "--from", "100", "--to", "104"
    )
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["seq"] for row in rows] == [100, 101, 102, 103, 104]
    for row in rows:
        assert set(row) == {*EVENT_KEYS, "board"}
        assert row["board"]["seq"] == row["seq"]
        assert all(p["hand"] is not None for p in row["board"]["players"])


def test_jsonl_for_a_player_hides_the_other_hands(runner: CliRunner, log: Path) -> None:
    result = run(runner, "replay", log, "--format", "jsonl", "--board", "--as", "p1", "--to", "3")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    board = rows[-1]["board"]
    hands = {p["id"]: p["hand"] for p in board["players"]}
    assert hands["p1"] is not None
    assert hands["p2"] is None
    assert "Player 1" in rows[0]["description"]
    assert rows[2]["description"] == "p2 draws an opening hand of 5 cards"


# -- priority points -------------------------------------------------------------------------


def test_priority_points_as_json(runner: CliRunner, log: Path, records: list[EventRecord]) -> None:
    result = run(runner, "replay", log, "--priority-points", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    points = priority_points(records)
    assert [row["seq"] for row in rows] == [p.seq for p in points]
    for row, point in zip(rows, points, strict=True):
        assert row == {
            "seq": point.seq,
            "player": point.player,
            "turn": point.turn,
            "phase": point.phase,
            "step": point.step,
            "register_depth": point.register_depth,
        }


def test_priority_points_as_a_table_with_filters(
    runner: CliRunner, log: Path, records: list[EventRecord]
) -> None:
    result = run(runner, "replay", log, "--priority-points", "--turn", "2", "--phase", "MAIN1")
    head, *rows = result.stdout.splitlines()
    assert head.split() == ["seq", "player", "turn", "phase", "step", "register"]
    expected = [p for p in priority_points(records) if p.turn == 2 and p.phase == "MAIN1"]
    assert [int(r.split()[0]) for r in rows] == [p.seq for p in expected]
    assert rows[0].split()[1:4] == [expected[0].player, "2", "MAIN1"]


def test_priority_points_do_not_take_board(runner: CliRunner, log: Path) -> None:
    result = run(runner, "replay", log, "--priority-points", "--board")
    assert result.exit_code == 2
    assert result.stderr == "Error: --board does not apply to --priority-points\n"


# -- show ------------------------------------------------------------------------------------


def assert_judges_board(shown: str, seq: int, state: MatchState) -> None:
    """``shown`` is the whole board after ``seq`` as a judge reads it: the view named first,
    the text board, then every Graveyard and every player's hand."""
    head = f"whole board (judge's view: every hand and Graveyard) after seq {seq}\n{state}\n"
    assert shown.startswith(head)
    rest = [line.split(": ")[0] for line in shown[len(head) :].splitlines()]
    ids = [p.id for p in state.players]
    assert rest == [f"{p} Graveyard" for p in ids] + [f"{p} hand" for p in ids]


def test_show_prints_the_text_board_after_a_seq(
    runner: CliRunner, log: Path, records: list[EventRecord]
) -> None:
    result = run(runner, "show", log, "--at", "900")
    assert result.exit_code == 0
    assert_judges_board(result.stdout, 900, state_at(records, 900))


def test_show_without_at_shows_the_final_board(
    runner: CliRunner, log: Path, records: list[EventRecord], steps: list[Step]
) -> None:
    result = run(runner, "show", log)
    # the last record is the seal, which leaves the board as the last game event left it
    assert_judges_board(result.stdout, len(records), steps[-1].after)


def test_show_json_is_the_board_view(
    runner: CliRunner, log: Path, records: list[EventRecord]
) -> None:
    result = run(runner, "show", log, "--at", "900", "--format", "json")
    data = json.loads(result.stdout)
    state = state_at(records, 900)
    assert data["seq"] == 900
    assert data["turn"] == state.turn
    assert [p["gold"] for p in data["players"]] == [p.gold for p in state.players]
    assert all(p["hand"] is not None for p in data["players"])


def test_player_as_a_viewpoint_is_the_deprecated_name_of_as(runner: CliRunner, log: Path) -> None:
    """--player means "only matches of" in list and stats; in replay and show the viewpoint is
    --as, and --player is still read there, with a warning, until it is removed."""
    for command, extra in (("show", ["--at", "900"]), ("replay", ["--to", "30"])):
        new = run(runner, command, log, *extra, "--as", "p2")
        old = run(runner, command, log, *extra, "--player", "p2")
        assert new.exit_code == old.exit_code == 0
        assert old.stdout == new.stdout
        assert new.stderr == ""
        assert old.stderr == (
            "Warning: --player is deprecated in replay and show; use --as p2 "
            "(--player chooses matches in list and stats)\n"
        )
        both = run(runner, command, log, *extra, "--player", "p2", "--as", "p1")
        assert both.exit_code == 2
        assert both.stderr == "Error: --player p2 and --as p1 disagree; give --as only\n"
    for command in ("show", "replay"):
        shown = run(runner, command, "--help").stdout
        assert "--as PLAYER" in shown
        assert "--player" not in shown


def test_show_for_a_player_hides_the_opponents_hand(
    runner: CliRunner, log: Path, records: list[EventRecord]
) -> None:
    state = state_at(records, 900)
    result = run(runner, "show", log, "--at", "900", "--as", "p2", "--format", "json")
    players = {p["id"]: p for p in json.loads(result.stdout)["players"]}
    assert players["p1"]["hand"] is None
    assert players["p1"]["hand_size"] == len(state.player("p1").hand)
    assert [c["id"] for c in players["p2"]["hand"]] == list(state.player("p2").hand)
    text = run(runner, "show", log, "--at", "900", "--as", "p2").stdout
    (own,) = [line for line in text.splitlines() if line.startswith("p2 hand: ")]
    assert state.player("p2").hand[0] in own
    seen = {c.id for c in knowledge(read_log(log)[1], 900, "p2").hidden}
    for card in state.player("p1").hand:
        assert (card in text) == (card in seen)
    assert text.splitlines()[-1].startswith(f"p1's hand: {len(state.player('p1').hand)} cards")


def test_show_a_seq_past_the_end_is_a_one_line_error(
    runner: CliRunner, log: Path, records: list[EventRecord]
) -> None:
    result = run(runner, "show", log, "--at", "99999")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: no event with seq 99999 in {str(log)!r} (its seqs run 1..{len(records)})\n"
    )


def test_show_an_unknown_player_is_a_one_line_error(runner: CliRunner, log: Path) -> None:
    result = run(runner, "show", log, "--at", "10", "--as", "p7")
    assert result.exit_code == 2
    assert result.stderr == "Error: no player 'p7' in this match (players: p1, p2)\n"


# -- show: what a player knows ---------------------------------------------------------------


def test_show_for_a_player_names_the_hidden_cards_they_have_seen(runner: CliRunner) -> None:
    result = run(runner, "show", JUDGE_BACKUP, "--at", "30", "--as", "p2")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-2].startswith("p2 hand: Ashen Warcamp (p2-001), ")
    assert lines[-1] == (
        "p1's hand: 4 cards, known: Militia Spearman (p1-002, seen on the register at seq 21)"
    )
    # p1 has seen none of p2's hand
    other = run(runner, "show", JUDGE_BACKUP, "--at", "30", "--as", "p1").stdout
    assert other.splitlines()[-1] == "p2's hand: 6 cards, none known"


def test_show_json_for_a_player_has_what_they_know(runner: CliRunner) -> None:
    result = run(runner, "show", JUDGE_BACKUP, "--at", "30", "--as", "p2", "--format", "json")
    data = json.loads(result.stdout)
    (card,) = data["known"]
    assert card == {
        "id": "p1-002",
        "name": "Militia Spearman",
        "owner": "p1",
        "seen_at": 21,
        "how": "on the register",
        "now": {"zone": "HAND", "player": "p1", "territory": None, "damage": 0, "slid": False},
        "where": "in p1's hand",
        "public": True,
    }
    records = read_log(JUDGE_BACKUP)[1]
    assert data["known"] == [seen_card_json(c) for c in knowledge(records, 30, "p2").hidden]
    everyone = run(runner, "show", JUDGE_BACKUP, "--at", "30", "--format", "json").stdout
    assert "known" not in json.loads(everyone)  # the full record: nothing is hidden


def test_show_json_follows_the_exported_board_view_schema(
    runner: CliRunner, log: Path, records: list[EventRecord]
) -> None:
    schema = json.loads(BOARD_VIEW_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    seqs = [1, 3, 30, 900, len(records)]
    for seq in seqs:
        for who in ([], ["--as", "p1"], ["--as", "p2"]):
            out = run(runner, "show", log, "--at", str(seq), "--format", "json", *who).stdout
            validator.validate(json.loads(out))
    known = run(runner, "show", JUDGE_BACKUP, "--as", "p2", "--format", "json").stdout
    data = json.loads(known)
    validator.validate(data)
    assert "known" in schema["properties"]
    assert "known" not in schema["required"]


# -- show: stored matches --------------------------------------------------------------------


@pytest.fixture(scope="module")
def exported(stored: tuple[str, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stored match, exported to a log file."""
    db, match_id = stored
    out = tmp_path_factory.mktemp("export") / "exported.jsonl"
    result = CliRunner().invoke(main, ["--store", db, "export", match_id, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize(
    "args",
    [
        ["--at", "1"],
        ["--at", "150"],
        ["--at", "1234"],
        [],
        ["--at", "950", "--as", "p1"],
        ["--at", "1234", "--format", "json"],
        ["--at", "777", "--as", "p2", "--format", "json"],
    ],
    ids=lambda a: " ".join(a) or "final",
)
def test_show_on_a_stored_match_is_the_board_of_its_exported_log(
    runner: CliRunner, stored: tuple[str, str], exported: Path, args: list[str]
) -> None:
    db, match_id = stored
    from_store = run(runner, "--store", db, "show", match_id, *args)
    from_file = run(runner, "show", exported, *args)
    assert from_store.exit_code == 0, from_store.stderr
    assert from_store.stdout == from_file.stdout


def test_show_on_a_stored_match_starts_from_the_nearest_snapshot(
    runner: CliRunner,
    stored: tuple[str, str],
    records: list[EventRecord],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without --player no query reads more than one snapshot interval of records."""
    db, match_id = stored
    reads: list[tuple[int, int | None]] = []
    records_of = MatchStore.records

    def counted(
        self: MatchStore, match: str, *, gt: int = 0, lte: int | None = None
    ) -> Iterator[EventRecord]:
        reads.append((gt, lte))
        return records_of(self, match, gt=gt, lte=lte)

    monkeypatch.setattr(MatchStore, "records", counted)
    for at in ("1234", str(len(records))):
        result = run(runner, "--store", db, "show", match_id, "--at", at)
        assert result.exit_code == 0, result.stderr
        assert_judges_board(result.stdout, int(at), state_at(records, int(at)))
    assert reads
    assert all(lte is not None and lte - gt <= SNAPSHOT_EVERY for gt, lte in reads), reads


def test_show_a_seq_past_the_end_of_a_stored_match(
    runner: CliRunner, stored: tuple[str, str], records: list[EventRecord]
) -> None:
    db, match_id = stored
    result = run(runner, "--store", db, "show", match_id, "--at", "99999")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: no event with seq 99999 in store:{match_id} (its seqs run 1..{len(records)})\n"
    )


def test_replay_reads_a_stored_match(
    runner: CliRunner, stored: tuple[str, str], exported: Path
) -> None:
    db, match_id = stored
    from_store = run(runner, "--store", db, "replay", match_id, "--to", "300", "--board")
    assert from_store.exit_code == 0, from_store.stderr
    assert from_store.stdout == run(runner, "replay", exported, "--to", "300", "--board").stdout


@pytest.mark.parametrize("command", ["replay", "show"])
def test_the_help_says_a_stored_match_id_works_too(runner: CliRunner, command: str) -> None:
    text = " ".join(run(runner, command, "--help").stdout.split())
    assert (
        "MATCH_OR_LOG is a log file (- reads standard input), or the id of a match in the store"
        in text
    )
    assert f"vwlog --store club.db {command} sim-7-00001" in text
    assert f"vwlog {command} match.jsonl" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "0"], "Invalid value for '--at'"),
        (["--at", "x"], "Invalid value for '--at'"),
    ],
)
def test_show_rejects_a_bad_seq(
    runner: CliRunner, log: Path, args: list[str], message: str
) -> None:
    result = run(runner, "show", log, *args)
    assert result.exit_code == 2
    assert message in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "20", "--to", "10"], "Error: --from 20 is after --to 10\n"),
        (["--from", "99999"], "is past the end of"),
        (["--as", "p7"], "Error: no player 'p7' in this match (players: p1, p2)\n"),
        (["--interactive", "--board"], "Error: --board cannot be combined with --interactive\n"),
    ],
)
def test_replay_usage_errors_are_one_line(
    runner: CliRunner, log: Path, args: list[str], message: str
) -> None:
    result = run(runner, "replay", log, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def _not_found(name: str) -> str:
    return f"Error: {name}: no such log file, and no stored match {name!r} (see 'vwlog list')\n"


def test_a_missing_log_is_a_one_line_error(runner: CliRunner, tmp_path: Path) -> None:
    store = tmp_path / "vwlog.db"
    for command in ("replay", "show"):
        missing = tmp_path / "nope.jsonl"
        result = run(runner, "--store", store, command, missing)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == _not_found(str(missing))
    assert not store.exists()


def test_a_missing_log_creates_no_store_in_the_working_directory(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VWLOG_STORE", raising=False)
    for command in ("replay", "show"):
        result = run(runner, command, "nosuchfile.jsonl")
        assert result.exit_code == 2
        assert result.stderr == _not_found("nosuchfile.jsonl")
    assert sorted(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def stored(log: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """An SQLite store holding the match: ``(--store, match id)``."""
    db = str(tmp_path_factory.mktemp("store") / "vwlog.db")
    result = CliRunner().invoke(main, ["--store", db, "import", str(log)])
    assert result.exit_code == 0, result.output
    with MatchStore.open(db) as store:
        (match_id,) = store.match_ids()
    return db, match_id


def test_a_match_missing_from_an_existing_store_is_a_one_line_error(
    runner: CliRunner, stored: tuple[str, str]
) -> None:
    db, _match_id = stored
    for command in ("replay", "show"):
        result = run(runner, "--store", db, command, "nosuchmatch")
        assert result.exit_code == 2
        assert result.stderr == _not_found("nosuchmatch")


def test_interactive_needs_a_terminal(runner: CliRunner, log: Path) -> None:
    result = run(runner, "replay", log, "--interactive")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --interactive needs a terminal")


# -- the stepper, without a terminal ---------------------------------------------------------


@pytest.fixture
def stepper(records: list[EventRecord]) -> Stepper:
    """A stepper over the match, at the first event."""
    described = Descriptions()
    return Stepper(Timeline(records, visitor=described), described.result(), title="m")


def test_the_stepper_moves_one_event_at_a_time(stepper: Stepper) -> None:
    assert stepper.index == 0
    assert not stepper.previous()
    assert stepper.message == "at the first event"
    assert stepper.next()
    assert stepper.next()
    assert stepper.index == 2
    assert stepper.previous()
    assert stepper.index == 1


def test_the_stepper_jumps_to_decisions_turns_results_and_combat_steps(stepper: Stepper) -> None:
    marks = stepper.timeline.marks
    assert stepper.next_decision()
    assert marks[stepper.index].decision
    assert stepper.next_turn()
    assert marks[stepper.index].type == "turn_started"
    assert stepper.next_turn()
    turn = marks[stepper.index].turn
    assert stepper.previous_turn()
    assert marks[stepper.index].turn == turn - 1
    assert stepper.next_result()
    assert marks[stepper.index].type == "object_resulted"
    assert stepper.next_combat_step()
    assert (marks[stepper.index].step or "").startswith("C")
    here = stepper.index
    assert stepper.previous_decision()
    assert stepper.index < here
    assert marks[stepper.index].decision


def test_the_stepper_goes_to_a_seq(stepper: Stepper, steps: list[Step]) -> None:
    assert stepper.go_to("1234")
    assert stepper.timeline.marks[stepper.index].seq == 1234
    lines = stepper.lines()
    assert "seq 1234/" in lines[0]
    assert str(steps[1233].after) in "\n".join(lines)
    assert not stepper.go_to("abc")
    assert stepper.message == "not a seq: 'abc'"
    assert not stepper.go_to("999999")
    assert "no event with seq 999999" in stepper.message


def test_the_stepper_searches_card_names(stepper: Stepper) -> None:
    name = stepper.descriptions[1].split(": ", 1)[1].split(" (")[0]
    assert stepper.search(name.lower())
    assert name in stepper.descriptions[stepper.index]
    first = stepper.index
    assert stepper.search("")  # repeats the search
    assert stepper.index > first
    assert not stepper.search("no card is called this")
    assert "no event mentions" in stepper.message


def test_the_stepper_shows_and_hides_violations(log: Path, tmp_path: Path) -> None:
    bad, seq = illegal_copy(log, tmp_path / "bad.jsonl")
    described = Descriptions()
    stepper = Stepper(Timeline(read_log(bad)[1], visitor=described), described.result())
    assert stepper.go_to(str(seq))
    assert any("!! R-" in line for line in stepper.lines())
    assert "1 violation" in stepper.lines()[0] or "violations" in stepper.lines()[0]
    stepper.toggle_violations()
    assert not any("!! R-" in line for line in stepper.lines())
    stepper.toggle_violations()
    assert any("!! R-" in line for line in stepper.lines())


def test_the_stepper_marks_priority_points(stepper: Stepper, points: frozenset[int]) -> None:
    point = min(points)
    plain = next(seq for seq in range(point, point + 50) if seq not in points)
    for seq in (point, plain):
        assert stepper.go_to(str(seq))
        lines = stepper.lines()
        assert ("· priority point" in lines[0]) == (seq in points)
        listed = lines[2 : lines.index("", 2)]  # the events around the current one
        assert len(listed) == 2 * 2 + 1
        for line in listed:
            assert line.endswith(POINT_MARK) == (int(line[1:7]) in points), line
        current = listed[2]
        assert current == f">{seq:>6}  {stepper.descriptions[stepper.index]}" + (
            POINT_MARK if seq in points else ""
        )


# -- the stepper on a terminal (tmux) --------------------------------------------------------


class Tmux:
    """A detached tmux server of our own, running one command in a fixed-size window."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        # A short private socket directory (socket paths are limited to ~100 bytes), and the
        # command wrapped so that the pane outlives it: the server never exits under the
        # client's feet, and a command that dies leaves its error and status on the screen.
        self.home = tempfile.mkdtemp(prefix="vwt")
        self.env = {**env, "TMUX_TMPDIR": self.home}
        self.env.pop("TMUX", None)
        self.base = ["tmux", "-L", "t"]
        size = ["-x", "120", "-y", "50"]
        start = [*self.base, "-f", os.devnull, "new-session", "-d", *size, "-s", "t"]
        wrapped = f'{shlex.join(command)}; echo "[exited $?]"; sleep 600'
        errors = []
        for _ in range(3):
            done = subprocess.run([*start, wrapped], env=self.env, capture_output=True)
            if done.returncode == 0:
                return
            errors.append(done.stderr.decode().strip())
            self.kill()
            time.sleep(0.5)
        pytest.fail(f"tmux could not start a session: {errors}")

    def _run(self, *args: str, check: bool = False) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([*self.base, *args], check=check, capture_output=True, env=self.env)

    def keys(self, *keys: str) -> None:
        self._run("send-keys", "-t", "t", *keys, check=True)

    def screen(self) -> str:
        return self._run("capture-pane", "-p", "-t", "t").stdout.decode()

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)
        pytest.fail(f"{text!r} did not appear on the screen:\n{self.screen()}")

    def kill(self) -> None:
        self._run("kill-server")
        shutil.rmtree(self.home, ignore_errors=True)


@pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)"
)
def test_the_interactive_stepper_on_a_terminal(log: Path, steps: list[Step]) -> None:
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm"}
    command = [sys.executable, "-m", "vwlog", "replay", str(log), "--interactive"]
    tmux = Tmux(command, env)
    try:
        tmux.wait_for(f"seq 1/{len(steps)}")
        tmux.keys("n")
        tmux.wait_for(f"seq 2/{len(steps)}")
        tmux.keys("n")
        screen = tmux.wait_for(f"seq 3/{len(steps)}")
        assert f">     3  {describe(steps[2].record.event, steps[2].before)}"[:100] in screen
        tmux.keys("g")
        tmux.wait_for("go to seq:")
        tmux.keys("900", "Enter")
        screen = tmux.wait_for(f"seq 900/{len(steps)}")
        board = str(steps[899].after).splitlines()
        for line in board[:6]:
            assert line in screen
        tmux.keys("q")
        tmux.wait_for("[exited 0]")
    finally:
        tmux.kill()
