"""``vwlog rebase``: the parent's remaining decisions re-applied onto a fork, on an SQLite store
in ``tmp_path``: one line (or a JSON object) on stdout, exit 0 / 1 (a decision no longer
legal) / 2 (an unknown match, or one that is not a fork)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import pytest

from tests.services.support import generated_log, priority_points, records_of
from vwlog.cli import main
from vwlog.events import CardSummoned, CostPaid
from vwlog.render.rules import rule_title
from vwlog.rules.catalog import RULES

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner, Result

    from vwlog.events import EventRecord


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short generated match."""
    return generated_log(tmp_path_factory.mktemp("logs"), 21, 2)


@pytest.fixture
def db(tmp_path: Path, runner: CliRunner, log: Path) -> str:
    """The ``--store`` of a fresh SQLite file holding the match."""
    store = str(tmp_path / "vwlog.db")
    assert vwlog(runner, store, "import", log).exit_code == 0
    return store


def vwlog(runner: CliRunner, store: str, *args: object) -> Result:
    """Run ``vwlog --store STORE ARGS…``."""
    return runner.invoke(main, ["--store", store, *map(str, args)])


def fork(runner: CliRunner, db: str, match_id: str, at: int, *decisions: str) -> str:
    """Fork at ``at`` and play ``decisions`` there; the fork's id."""
    forked = vwlog(runner, db, "fork", match_id, "--at", at)
    assert forked.exit_code == 0, forked.output
    fork_id = forked.stdout.strip()
    if decisions:
        assert vwlog(runner, db, "play", fork_id, *decisions).exit_code == 0
    return fork_id


def head_hash(runner: CliRunner, db: str, match_id: str) -> str:
    """The match's head hash, as ``vwlog list`` shows it."""
    rows = orjson.loads(vwlog(runner, db, "list", "--format", "json").stdout)
    return str(next(row["head_hash"] for row in rows if row["match_id"] == match_id))


def summon_point(records: list[EventRecord]) -> int:
    """A priority point whose next decision in the parent pays for a summon."""
    return next(
        at
        for at in priority_points(records)
        if isinstance(records[at].event, CostPaid)
        and isinstance(records[at + 1].event, CardSummoned)
    )


def test_an_untouched_fork_rebases_to_the_parent_s_end_and_validates(
    runner: CliRunner, db: str, log: Path, tmp_path: Path
) -> None:
    header, records = records_of(log)
    at = priority_points(records)[5]
    fork_id = fork(runner, db, header.match_id, at)
    n = sum(1 for r in records[at:] if r.event.DECISION)

    result = vwlog(runner, db, "rebase", fork_id)

    assert result.exit_code == 0, result.output
    # the parent's seal is no decision: the fork, unfinished, stays unsealed (incomplete)
    assert result.stdout == (
        f"{fork_id}: re-applied {n} of {n} parent decisions "
        f"({len(records) - at - 1} events appended; head seq {len(records)})\n"
    )
    out = tmp_path / "fork.jsonl"
    assert vwlog(runner, db, "export", fork_id, "-o", out).exit_code == 0
    validated = runner.invoke(main, ["validate", str(out)])
    assert validated.exit_code == 1
    assert " INCOMPLETE · " in validated.stdout
    assert " 0 violations" in validated.stdout
    # the stored fork is judged as its export is: chain intact, but unsealed
    verified = vwlog(runner, db, "verify", fork_id)
    assert verified.exit_code == 1
    assert "chain intact" in verified.stdout
    assert "seal: unsealed" in verified.stdout
    again = vwlog(runner, db, "rebase", fork_id)
    assert again.exit_code == 0
    assert (
        f"re-applied 0 of {n} parent decisions ({n} already on the fork; 0 events" in again.stdout
    )


def test_a_decision_no_longer_legal_exits_1_naming_its_seq_and_rules(
    runner: CliRunner, db: str, log: Path, tmp_path: Path
) -> None:
    header, records = records_of(log)
    at = summon_point(records)
    fork_id = fork(runner, db, header.match_id, at, "pass")

    result = vwlog(runner, db, "rebase", fork_id)

    assert result.exit_code == 1, result.output
    line = result.stdout.strip()
    assert "\n" not in line
    prefix = f"{fork_id}: re-applied 0 of "
    assert line.startswith(prefix)
    said = f"; parent seq {at + 1} (p"
    assert said in line
    assert " pays " in line
    rule = line.split(" is no longer legal at fork seq ", 1)[1].split(": ", 1)[1].split()[0]
    assert rule in RULES
    out = tmp_path / "fork.jsonl"
    assert vwlog(runner, db, "export", fork_id, "-o", out).exit_code == 0
    validated = runner.invoke(main, ["validate", str(out)])
    assert (validated.exit_code, " 0 violations" in validated.stdout) == (1, True)
    assert " INCOMPLETE · " in validated.stdout  # an unfinished fork is unsealed


def test_a_dry_run_stores_nothing(runner: CliRunner, db: str, log: Path) -> None:
    header, records = records_of(log)
    fork_id = fork(runner, db, header.match_id, priority_points(records)[2])
    before = head_hash(runner, db, fork_id)

    result = vwlog(runner, db, "rebase", fork_id, "--dry-run")

    assert result.exit_code == 0, result.output
    assert f"{fork_id}: would re-apply " in result.stdout
    assert result.stdout.endswith("; nothing stored (--dry-run)\n")
    assert head_hash(runner, db, fork_id) == before
    assert vwlog(runner, db, "rebase", fork_id).exit_code == 0
    assert head_hash(runner, db, fork_id) != before


def test_a_fork_won_first_exits_0_saying_the_rest_cannot_happen(
    runner: CliRunner, db: str, log: Path
) -> None:
    header, records = records_of(log)
    at = priority_points(records)[0]
    fork_id = fork(runner, db, header.match_id, at, "concede")

    result = vwlog(runner, db, "rebase", fork_id)

    assert result.exit_code == 0, result.output
    assert f"(concession) before parent seq {at + 1}: the other " in result.stdout
    assert result.stdout.endswith(" cannot happen\n")


def test_the_json_report(runner: CliRunner, db: str, log: Path) -> None:
    header, records = records_of(log)
    at = summon_point(records)
    fork_id = fork(runner, db, header.match_id, at, "pass")

    result = vwlog(runner, db, "rebase", fork_id, "--dry-run", "--format", "json")

    assert result.exit_code == 1, result.output
    data = orjson.loads(result.stdout)
    assert set(data) == {
        *("fork", "parent", "fork_at", "considered", "already", "reapplied", "appended"),
        *("head_seq", "stopped", "stopped_at", "winner", "victory", "dry_run", "broken"),
    }
    assert (data["fork"], data["parent"], data["fork_at"]) == (fork_id, header.match_id, at)
    assert (data["stopped"], data["stopped_at"], data["dry_run"]) == ("broken", at + 1, True)
    assert data["considered"] == sum(1 for r in records[at:] if r.event.DECISION)
    broken = data["broken"]
    assert set(broken) == {
        *("parent_seq", "fork_seq", "type", "player", "description", "rules", "message"),
        *("violations", "withdrawn"),
    }
    assert (broken["parent_seq"], broken["type"], broken["withdrawn"]) == (at + 1, "cost_paid", [])
    assert broken["fork_seq"] == data["head_seq"] + 1
    assert broken["rules"] == [v["rule"] for v in broken["violations"]]
    assert all(v["title"] == rule_title(v["rule"]) for v in broken["violations"])
    # the one JSON shape of a violation, as every command writes it
    assert set(broken["violations"][0]) == {
        *("rule", "title", "message", "seq", "line", "event", "turn", "phase", "step"),
        *("priority", "expected", "actual", "flag"),
    }

    done = vwlog(runner, db, "rebase", fork(runner, db, header.match_id, at), "--format", "json")
    assert done.exit_code == 0
    assert orjson.loads(done.stdout)["broken"] is None


@pytest.mark.parametrize("which", ["not a fork", "unknown"])
def test_a_match_that_is_no_stored_fork_is_one_error_line_and_exit_2(
    runner: CliRunner, db: str, log: Path, which: str
) -> None:
    match_id = records_of(log)[0].match_id if which == "not a fork" else "nope"

    result = vwlog(runner, db, "rebase", match_id)

    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert repr(match_id) in lines[0]
    if which == "not a fork":
        assert "is not a fork" in lines[0]


def test_a_missing_fork_argument_is_a_usage_error(runner: CliRunner, db: str) -> None:
    result = vwlog(runner, db, "rebase")
    assert result.exit_code == 2
    assert "Missing argument 'FORK'" in result.stderr
