"""``vwlog import``, ``list``, ``export``, ``verify``, ``fork``, ``play`` and ``lineage``.

Each test works on an SQLite store in ``tmp_path`` (one also on PostgreSQL) through the command
line: data on stdout, a one-line ``Error: …`` on stderr, exit 0 / 1 (findings) / 2 (input).
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from typing import TYPE_CHECKING

import orjson
import pytest

from tests.services.support import (
    edited_record,
    fresh_schema,
    generated_log,
    illegal_copy,
    pool,
    postgres_dsn,
    priority_points,
    records_of,
    states,
)
from vwlog.cli import main
from vwlog.games.vw.notation import parse_decision
from vwlog.io import codec
from vwlog.io.logfile import read_log, write_log
from vwlog.rules import check, expect
from vwlog.services import SimulationSpec, simulate_to
from vwlog.services.matches import verify_match
from vwlog.store import MatchStore
from vwlog.store.mapping import match_uuid

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner, Result

META_KEYS = {
    "match_id",
    "created",
    "players",
    "turns",
    "winner",
    "victory",
    "violations",
    "head_hash",
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two short generated matches."""
    directory = tmp_path_factory.mktemp("logs")
    return [generated_log(directory, 21, 2), generated_log(directory, 22, 3)]


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The ``--store`` of a fresh SQLite file."""
    return str(tmp_path / "vwlog.db")


def vwlog(runner: CliRunner, store: str, *args: object) -> Result:
    """Run ``vwlog --store STORE ARGS…``."""
    return runner.invoke(main, ["--store", store, *map(str, args)])


def one_error_line(result: Result) -> str:
    """The single ``Error: …`` line on stderr of a failed command (and no traceback)."""
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), result.stderr
    return lines[0]


def listed(runner: CliRunner, store: str, *args: str) -> list[dict[str, object]]:
    """``vwlog list --format json``, parsed."""
    result = vwlog(runner, store, "list", "--format", "json", *args)
    assert result.exit_code == 0, result.output
    data = orjson.loads(result.stdout)
    assert isinstance(data, list)
    return data


def test_import_list_export_and_verify(
    runner: CliRunner, db: str, logs: list[Path], tmp_path: Path
) -> None:
    headers = [records_of(path) for path in logs]
    ids = [header.match_id for header, _ in headers]

    result = vwlog(runner, db, "import", *logs)

    assert result.exit_code == 0, result.output
    for path, (header, records) in zip(logs, headers, strict=True):
        line = f"stored    {header.match_id}  ({len(records):,} events)  {path}"
        assert line in result.stdout.splitlines()
    assert result.stderr.endswith("2 logs: 2 stored, 0 unchanged, 0 rejected, 0 failed\n")

    again = vwlog(runner, db, "import", *logs)
    assert again.exit_code == 0
    assert [line.split()[0] for line in again.stdout.splitlines()] == ["unchanged"] * 2
    assert "2 logs: 0 stored, 2 unchanged" in again.stderr

    text = vwlog(runner, db, "list")
    assert text.exit_code == 0
    rows = text.stdout.splitlines()
    assert rows[0].split() == [
        "match",
        "date",
        "players",
        "turns",
        "winner",
        "victory",
        "viol",
        "head",
    ]
    assert [row.split()[0] for row in rows[1:]] == ids
    assert text.stderr == "2 matches\n"

    data = listed(runner, db)
    assert [m["match_id"] for m in data] == ids
    for meta, (_, records) in zip(data, headers, strict=True):
        assert set(meta) >= META_KEYS
        assert meta["players"] == ["p1", "p2"]
        assert isinstance(meta["turns"], int)
        assert (meta["winner"], meta["victory"], meta["violations"]) == (None, None, 0)
        assert (meta["head_hash"], meta["events"]) == (records[-1].hash, len(records))

    for path, match_id in zip(logs, ids, strict=True):
        out = tmp_path / f"{match_id}.jsonl"
        exported = vwlog(runner, db, "export", match_id, "-o", out)
        assert exported.exit_code == 0
        assert out.read_bytes() == path.read_bytes()
        assert vwlog(runner, db, "export", match_id).stdout_bytes == path.read_bytes()
        for target in (match_id, out):
            verified = vwlog(runner, db, "verify", target)
            assert verified.exit_code == 0, verified.output
            assert "chain intact" in verified.stdout


def test_list_filters_by_player_flag_and_outcome(
    runner: CliRunner, db: str, logs: list[Path], tmp_path: Path
) -> None:
    illegal = illegal_copy(generated_log(tmp_path, 23, 2), tmp_path / "illegal.jsonl")
    illegal_id = records_of(illegal)[0].match_id
    legal_ids = [records_of(path)[0].match_id for path in logs]

    result = vwlog(runner, db, "import", *logs, illegal)

    assert result.exit_code == 1, result.output  # stored, flagged: a log breaks rules
    assert "FLAGGED" in next(line for line in result.stdout.splitlines() if illegal_id in line)
    [flagged] = listed(runner, db, "--flagged")
    assert flagged["match_id"] == illegal_id
    summary = flagged["violation_summary"]
    assert isinstance(summary, list)
    assert flagged["violations"] == len(summary) > 0
    assert [m["match_id"] for m in listed(runner, db, "--legal")] == legal_ids
    assert len(listed(runner, db, "--player", "p1")) == 3
    assert listed(runner, db, "--player", "p9") == []
    assert listed(runner, db, "--victory", "military") == []


def test_import_reject_illegal_exits_1_and_stores_nothing(
    runner: CliRunner, db: str, tmp_path: Path
) -> None:
    illegal = illegal_copy(generated_log(tmp_path, 24, 2), tmp_path / "illegal.jsonl")

    result = vwlog(runner, db, "import", "--reject-illegal", illegal)

    assert result.exit_code == 1
    assert result.stdout.startswith(f"rejected  {records_of(illegal)[0].match_id}")
    assert "1 rejected" in result.stderr
    assert listed(runner, db) == []


def test_import_of_a_broken_chain_exits_2_naming_the_seq_and_stores_nothing(
    runner: CliRunner, db: str, logs: list[Path], tmp_path: Path
) -> None:
    def retime(record: dict[str, object]) -> None:
        record["at"] = "2025-01-01T00:00:00Z"

    broken = edited_record(logs[0], tmp_path / "broken.jsonl", 40, retime)

    result = vwlog(runner, db, "import", broken)

    assert result.exit_code == 2
    assert result.stdout == ""
    error = result.stderr.splitlines()[0]
    assert error.startswith(f"Error: {broken}, line 41: hash chain broken at seq 40 ")
    # and the one verdict with its reason, as validate and verify give them
    assert error.endswith(
        "; its verdict, UNTRUSTED: hash chain broken at seq 40, line 41: hash does not match "
        "the chain"
    )
    assert listed(runner, db) == []

    mixed = vwlog(runner, db, "import", broken, logs[1])
    assert mixed.exit_code == 2
    assert [m["match_id"] for m in listed(runner, db)] == [records_of(logs[1])[0].match_id]


def test_fork_play_lineage_and_export_of_the_fork(
    runner: CliRunner, db: str, logs: list[Path], tmp_path: Path
) -> None:
    header, records = records_of(logs[0])
    parent = header.match_id
    points = priority_points(records)
    assert vwlog(runner, db, "import", logs[0]).exit_code == 0

    forked = vwlog(runner, db, "fork", parent, "--at", points[0], "--name", "what")
    assert (forked.exit_code, forked.stdout) == (0, f"{parent}~what\n")
    fork = f"{parent}~what"
    again = vwlog(runner, db, "fork", parent, "--at", points[1], "--name", "what")
    assert again.stdout == f"{parent}~what.2\n"

    played = vwlog(runner, db, "play", fork, "pass", "pass")
    assert played.exit_code == 0, played.output
    assert played.stdout.startswith(f"{fork}: 2 decisions, ")
    decisions = tmp_path / "decisions.txt"
    decisions.write_text("# after the two passes\npass\n\n")
    from_file = vwlog(runner, db, "play", fork, "--from-file", decisions, "--auto", 3000)
    assert from_file.exit_code == 0, from_file.output
    assert " · won by p" in from_file.stdout

    tree = vwlog(runner, db, "lineage", fork)
    assert tree.exit_code == 0
    lines = tree.stdout.splitlines()
    assert lines[0].startswith(f"{parent} · {len(records):,} events · running")
    assert lines[1].startswith(f"├── {fork} @ seq {points[0]} · ")
    assert " · won by p" in lines[1]
    assert lines[2].startswith(f"└── {parent}~what.2 @ seq {points[1]} · ")
    as_json = orjson.loads(vwlog(runner, db, "lineage", parent, "--format", "json").stdout)
    assert [f["match_id"] for f in as_json["forks"]] == [fork, f"{parent}~what.2"]
    assert as_json["forks"][0]["parent"] == parent

    out = tmp_path / "fork.jsonl"
    assert vwlog(runner, db, "export", fork, "-o", out).exit_code == 0
    validated = runner.invoke(main, ["validate", str(out)])
    assert validated.exit_code == 0, validated.output
    assert vwlog(runner, db, "verify", out).exit_code == 0
    assert vwlog(runner, db, "verify", fork).exit_code == 0


def test_a_fork_off_a_priority_point_exits_2_naming_the_nearest_ones(
    runner: CliRunner, db: str, logs: list[Path]
) -> None:
    header, records = records_of(logs[0])
    points = priority_points(records)
    gap = next(i for i in range(len(points) - 1) if points[i + 1] - points[i] > 1)
    assert vwlog(runner, db, "import", logs[0]).exit_code == 0

    result = vwlog(runner, db, "fork", header.match_id, "--at", points[gap] + 1)

    assert result.exit_code == 2
    assert one_error_line(result) == (
        f"Error: seq {points[gap] + 1} of {header.match_id!r} is not a priority point "
        f"(nearest: seq {points[gap]}, seq {points[gap + 1]}); "
        "see 'vwlog replay --priority-points'"
    )
    assert len(listed(runner, db)) == 1


@pytest.mark.parametrize(
    "args",
    [
        ("export", "nope"),
        ("export", "nope", "-o", "out.jsonl"),
        ("fork", "nope", "--at", "5"),
        ("play", "nope", "pass"),
        ("lineage", "nope"),
        ("verify", "nope"),
    ],
    ids=lambda args: " ".join(args[:1]) + (" -o" if "-o" in args else ""),
)
def test_an_unknown_match_is_one_error_line_and_exit_2(
    runner: CliRunner,
    db: str,
    logs: list[Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
) -> None:
    assert vwlog(runner, db, "import", logs[0]).exit_code == 0
    monkeypatch.chdir(tmp_path)

    result = vwlog(runner, db, *args)

    assert result.exit_code == 2
    # verify, fork and play take a MATCH_OR_LOG: their message names both halves of the lookup
    where = "nope: no such log file, and " if args[0] in ("verify", "fork", "play") else ""
    assert one_error_line(result) == f"Error: {where}no stored match 'nope' (see 'vwlog list')"
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("vwlog.db")] == []


def _illegal_summons(path: Path) -> tuple[int, str, list[str]]:
    """A priority point of ``path`` and a summon there breaking two rules, with their ids."""
    _, records = records_of(path)
    folded = states(records)
    ruleset = folded[1].ruleset
    assert ruleset is not None
    for at in priority_points(records):
        state = folded[at]
        holder = expect(ruleset, state).player
        for player in state.players:
            if player.id != holder:
                continue
            for card in player.hand:
                decision = parse_decision(f"summon {card}", ruleset, state)[0]
                rules = [v.rule for v in check(ruleset, state, decision)]
                if len(rules) >= 2:
                    return at, f"summon {card}", rules
    raise AssertionError("no summon breaks two rules")


def _play_illegal(runner: CliRunner, db: str, path: Path) -> tuple[Result, list[str], str]:
    at, words, rules = _illegal_summons(path)
    match_id = records_of(path)[0].match_id
    assert vwlog(runner, db, "import", path).exit_code == 0
    fork = vwlog(runner, db, "fork", match_id, "--at", at).stdout.strip()
    before = listed(runner, db)
    result = vwlog(runner, db, "play", fork, words)
    assert listed(runner, db) == before
    return result, rules, fork


def test_an_illegal_decision_exits_1_citing_its_rules_and_stores_nothing(
    runner: CliRunner, db: str, logs: list[Path]
) -> None:
    """A refused decision breaks a rule (exit 1, as an illegal log does); it is not bad input
    (exit 2: a decision that cannot be read)."""
    result, rules, fork = _play_illegal(runner, db, logs[0])

    assert result.exit_code == 1
    assert result.stdout == ""
    head = json.loads(vwlog(runner, db, "list", "--format", "json").stdout)
    seq = next(m["events"] for m in head if m["match_id"] == fork) + 1
    assert result.stderr.startswith(f"Error: event {seq} (cost_paid) breaks {len(rules)} rules")
    for rule in rules:
        assert rule in result.stderr


def test_an_illegal_decision_breaking_two_rules_is_still_one_error_line(
    runner: CliRunner, db: str, logs: list[Path]
) -> None:
    result, rules, _fork = _play_illegal(runner, db, logs[0])

    line = one_error_line(result)
    assert all(rule in line for rule in rules)


def test_a_skill_of_an_unknown_card_is_one_error_line_and_exit_2(
    runner: CliRunner, db: str, logs: list[Path]
) -> None:
    header, records = records_of(logs[0])
    assert vwlog(runner, db, "import", logs[0]).exit_code == 0
    at = priority_points(records)[0]
    fork = vwlog(runner, db, "fork", header.match_id, "--at", at).stdout.strip()

    result = vwlog(runner, db, "play", fork, "skill no-such-card s1")

    assert result.exit_code == 2
    assert "unknown card 'no-such-card'" in one_error_line(result)


@pytest.mark.postgres
def test_import_list_and_export_on_postgresql(
    runner: CliRunner, logs: list[Path], tmp_path: Path
) -> None:
    with fresh_schema(postgres_dsn()) as url:
        assert vwlog(runner, url, "import", *logs).exit_code == 0
        ids = [m["match_id"] for m in listed(runner, url)]
        assert ids == [records_of(path)[0].match_id for path in logs]
        out = tmp_path / "exported.jsonl"
        assert vwlog(runner, url, "export", ids[0], "-o", out).exit_code == 0
        assert out.read_bytes() == logs[0].read_bytes()
        assert vwlog(runner, url, "verify", ids[1]).exit_code == 0


# -- kill -9 ---------------------------------------------------------------------------------


def _size(db: Path) -> int:
    return sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists())


@pytest.mark.slow
def test_killing_vwlog_import_midway_leaves_only_whole_matches(tmp_path: Path) -> None:
    spec = SimulationSpec(seed=7, matches=4, max_turns=60)
    simulate_to(pool(), spec, tmp_path / "big")
    paths = sorted((tmp_path / "big").glob("*.jsonl"))
    ids = [records_of(path)[0].match_id for path in paths]
    db = tmp_path / "killed.db"
    command = [sys.executable, "-m", "vwlog", "--store", str(db), "import", "-q", *map(str, paths)]

    importer = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.002)
        start = _size(db)
        while _size(db) <= start + 64 * 1024 and time.monotonic() < deadline:
            time.sleep(0.002)
        assert importer.poll() is None, "the import ended before it could be killed"
        importer.send_signal(signal.SIGKILL)
    finally:
        importer.wait(timeout=30)
    assert importer.returncode == -signal.SIGKILL

    with MatchStore.open(str(db)) as store:
        stored = store.match_ids()
        assert stored == ids[: len(stored)]
        assert len(stored) < len(ids)
        for match_id in stored:
            lines = list(store.raw_lines(match_id))
            assert store.head(match_id).seq == store.meta(match_id).events == len(lines)
            assert verify_match(store, match_id).ok
        for match_id in ids[len(stored) :]:
            assert list(store._recorder.select_events(match_uuid(match_id))) == []

    finished = subprocess.run(command, capture_output=True, check=False)
    assert finished.returncode == 0, finished.stderr
    with MatchStore.open(str(db)) as store:
        assert store.match_ids() == ids
        for path, match_id in zip(paths, ids, strict=True):
            assert b"".join(line + b"\n" for line in store.raw_lines(match_id)) == b"".join(
                path.read_bytes().splitlines(keepends=True)[1:]
            )


def test_a_locked_database_fails_each_file_and_the_run_still_ends_with_its_table(
    runner: CliRunner, tmp_path: Path, logs: list[Path]
) -> None:
    path = tmp_path / "locked.db"
    url = f"sqlite:///{path}?timeout=1"
    MatchStore.open(url).close()  # creates the tables ('vwlog list' creates no store)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")  # another writer holds the database
        result = vwlog(runner, url, "import", *logs)
    finally:
        holder.close()
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == len(logs)
    assert "Traceback" not in result.stderr
    assert "failed          2            0" in result.stderr
    assert result.stderr.rstrip().endswith("2 logs: 0 stored, 0 unchanged, 0 rejected, 2 failed")
    again = vwlog(runner, url, "import", *logs)
    assert again.exit_code == 0, again.stderr
    assert "stored          2" in again.stderr


def _dated(source: Path, out: Path, match_id: str, created: str) -> Path:
    header, records = read_log(source)
    head = codec.seal_header(
        header.model_copy(update={"hash": None, "created": created, "match_id": match_id})
    )
    assert head.hash is not None
    unsealed = (r.model_copy(update={"hash": None}) for r in records)
    write_log(out, head, codec.seal(head.hash, unsealed))
    return out


def test_list_shows_the_day_each_match_was_created_and_filters_by_it(
    runner: CliRunner, db: str, logs: list[Path], tmp_path: Path
) -> None:
    old = _dated(logs[0], tmp_path / "old.jsonl", "dated-old", "2025-12-31T23:30:00+00:00")
    new = _dated(logs[1], tmp_path / "new.jsonl", "dated-new", "2026-03-01T08:00:00Z")
    # re-dated and chained again, their old seals no longer match: stored flagged (exit 1)
    assert vwlog(runner, db, "import", old, new, logs[0]).exit_code == 1
    table = vwlog(runner, db, "list").stdout.splitlines()
    assert table[0].split()[:3] == ["match", "date", "players"]
    rows = {line.split()[0]: line.split()[1] for line in table[1:]}
    assert rows["dated-old"] == "2025-12-31"
    assert rows["dated-new"] == "2026-03-01"
    assert "-" in rows.values()  # the undated generated match
    since = vwlog(runner, db, "list", "--since", "2026-01-01", "--format", "json")
    assert [m["match_id"] for m in json.loads(since.stdout)] == ["dated-new"]
    bad = vwlog(runner, db, "list", "--since", "yesterday")
    assert bad.exit_code == 2
    assert bad.stderr.count("\n") == 1
