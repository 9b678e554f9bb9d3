"""Records crafted to crash the judge are judged instead: a seat whose player id was changed
and a ``match_started`` moved off the first event, each re-chained and re-sealed as a forger
would, give violations citing the catalog's rule ids (R-GEN-7 for a player the match does not
have, R-SET-1 for a match that does not begin with ``match_started``) in every command that
reads a record, never a traceback; a batch import stores every other log.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from tests.trust.support import SAMPLES, resealed
from vwlog.cli import main
from vwlog.events import MatchStarted
from vwlog.rules.catalog import rule as catalog_rule
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.events import EventRecord

SOURCE = SAMPLES / "full-combat.jsonl"
ROOT = Path(__file__).resolve().parents[2]


def _renamed_seat(records: list[EventRecord], *, first_too: bool) -> list[EventRecord]:
    start = records[0].event
    assert isinstance(start, MatchStarted)
    seats = tuple(
        s.model_copy(update={"player": "px"}) if s.player == "p1" else s for s in start.seats
    )
    update: dict[str, object] = {"seats": seats}
    if first_too:
        update["first_player"] = "px"
    records[0] = records[0].model_copy(update={"event": start.model_copy(update=update)})
    return records


def _moved_start(to: int) -> Callable[[list[EventRecord]], list[EventRecord]]:
    def move(records: list[EventRecord]) -> list[EventRecord]:
        start = records.pop(0)
        records.insert(to, start)
        return [r.model_copy(update={"seq": i + 1}) for i, r in enumerate(records)]

    return move


CRAFTS: dict[str, tuple[Callable[[list[EventRecord]], list[EventRecord]], str]] = {
    # the seat's id changed, the first player left as it was: R-SET-1 at seq 1, then every
    # record naming p1 is R-GEN-7
    "seat": (lambda r: _renamed_seat(r, first_too=False), "R-SET-1"),
    # the seat and the first player changed: the first record naming p1 is R-GEN-7
    "seat-and-first": (lambda r: _renamed_seat(r, first_too=True), "R-GEN-7"),
    "start-at-2": (_moved_start(1), "R-SET-1"),
    "start-at-11": (_moved_start(10), "R-SET-1"),
    "start-at-end": (_moved_start(-1), "R-SET-1"),
}
"""Each crafted record, and the rule its first violation cites."""


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("crafted")
    return {
        name: resealed(SOURCE, work / f"{name}.jsonl", alter) for name, (alter, _) in CRAFTS.items()
    }


def cli(*args: str, store: Path) -> tuple[int, str, str, BaseException | None]:
    result = CliRunner().invoke(main, ["--store", str(store), *args])
    error = None if isinstance(result.exception, SystemExit) else result.exception
    return result.exit_code, result.stdout, result.stderr, error


def test_the_crafted_records_are_sealed_and_chained(
    crafted: dict[str, Path], tmp_path: Path
) -> None:
    # the forger re-hashed everything: the chain and the seal hold, only the rules can object
    for name, log in crafted.items():
        _code, out, _err, error = cli("verify", "--format", "json", str(log), store=tmp_path / "s")
        assert error is None, name
        (found,) = json.loads(out)
        assert found["broken"] is None, name
        assert found["integrity"]["chain"] == "intact", name
        assert found["sealed"], name


@pytest.mark.parametrize("name", list(CRAFTS))
def test_validate_names_the_rule(crafted: dict[str, Path], tmp_path: Path, name: str) -> None:
    code, out, _err, error = cli(
        "validate", "--format", "json", str(crafted[name]), store=tmp_path / "s"
    )
    assert error is None
    assert code == 1
    (judged,) = json.loads(out)
    assert judged["verdict"] == "ILLEGAL"
    rules = [v["rule"] for v in judged["violations"]]
    assert rules[0] == CRAFTS[name][1]
    assert all(catalog_rule(rule) is not None for rule in rules)  # KeyError if not in it
    if name.startswith("seat"):
        assert "R-GEN-7" in rules
        assert any("'p1'" in v["message"] for v in judged["violations"] if v["rule"] == "R-GEN-7")


@pytest.mark.parametrize("name", list(CRAFTS))
@pytest.mark.parametrize(
    "command",
    [
        ("validate", "{log}"),
        ("replay", "{log}"),
        ("replay", "{log}", "--board"),
        ("report", "{log}", "-o", "{out}"),
        ("import", "--reject-illegal", "{log}"),
    ],
)
def test_every_judging_command_finds_violations(
    crafted: dict[str, Path], tmp_path: Path, name: str, command: tuple[str, ...]
) -> None:
    args = [a.format(log=crafted[name], out=tmp_path / "report.md") for a in command]
    code, out, err, error = cli(*args, store=tmp_path / "s.db")
    assert error is None, error
    assert code == 1, (out, err)
    rule = CRAFTS[name][1]
    shown = (tmp_path / "report.md").read_text() if command[0] == "report" else out
    assert rule in shown
    assert "Traceback" not in err


@pytest.mark.parametrize("name", list(CRAFTS))
def test_stats_measure_the_record_with_its_violations(
    crafted: dict[str, Path], tmp_path: Path, name: str
) -> None:
    # statistics have no findings exit status (0 measured, 2 unreadable): the match is measured
    # and counted as one with rule violations
    code, out, err, error = cli(
        "stats", "--per-match", "--format", "json", str(crafted[name]), store=tmp_path / "s"
    )
    assert error is None, error
    assert code == 0, err
    (match,) = json.loads(out)
    assert match["violations"] > 0
    code, out, _, error = cli("stats", str(crafted[name]), store=tmp_path / "s")
    assert (code, error) == (0, None)
    assert "1 with rule violations" in out


@pytest.mark.parametrize("name", list(CRAFTS))
def test_import_stores_it_flagged_with_its_first_violation(
    crafted: dict[str, Path], tmp_path: Path, name: str
) -> None:
    store = tmp_path / "s.db"
    code, out, err, error = cli("import", str(crafted[name]), store=store)
    assert error is None, error
    assert code == 1, err  # stored flagged: it breaks a rule
    assert "FLAGGED" in out
    assert f"Reason: {CRAFTS[name][1]} at seq" in out
    with MatchStore.open(str(store)) as opened:
        (meta,) = [opened.meta(m) for m in opened.match_ids()]
    assert meta.flagged
    # and what import stored reads again without a crash
    for args in (("verify", meta.match_id), ("replay", meta.match_id), ("show", meta.match_id)):
        code, _, err, error = cli(*args, store=store)
        assert error is None, (args, error)
        # judged (0, 1), or refused in one line (show: a board needs match_started first)
        assert code in (0, 1) or (code == 2 and err.startswith("Error: ")), (args, err)
        assert len(err.splitlines()) <= 1, err


def _copy(src: Path, dst: Path, match_id: str) -> Path:
    """``src`` under another match id (its header re-sealed), so that a batch holds several."""
    lines = src.read_bytes().splitlines()
    header = json.loads(lines[0])
    header["match_id"] = match_id
    out = dst / f"{match_id}.jsonl"
    body = b"\n".join(lines[1:]) + b"\n"
    # the chain hangs from the header's hash: re-seal the whole record under the new id
    from vwlog.io.logfile import read_log, write_log
    from vwlog.services.trust import close_records

    tmp = dst / f".{match_id}.src"
    tmp.write_bytes(
        json.dumps(header, separators=(",", ":"), sort_keys=True).encode() + b"\n" + body
    )
    head, records = read_log(tmp)
    head, chained = close_records(head, list(records))
    write_log(out, head, chained)
    tmp.unlink()
    return out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_import_stores_every_other_log(
    crafted: dict[str, Path], tmp_path: Path, jobs: str
) -> None:
    valid = [SAMPLES / "absolute-victory.jsonl", SAMPLES / "hand-limit.jsonl"]
    crafts = [_copy(crafted[name], tmp_path, f"crafted-{name}") for name in CRAFTS]
    batch = [valid[0], *crafts, valid[1]]
    store = tmp_path / "s.db"
    code, out, err, error = cli("import", "-j", jobs, *map(str, batch), store=store)
    assert error is None, error
    assert code == 1, err  # every log stored, the crafted ones flagged
    with MatchStore.open(str(store)) as opened:
        stored = {str(m): opened.meta(m).flagged for m in opened.match_ids()}
    assert stored["sample-absolute-victory"] is False
    assert stored["sample-hand-limit"] is False
    assert {m for m, flagged in stored.items() if flagged} == {f"crafted-{n}" for n in CRAFTS}
    assert sum(line.startswith("stored ") for line in out.splitlines()) == len(batch)


@pytest.mark.parametrize("name", ["seat-and-first", "start-at-11"])
def test_through_a_real_process(crafted: dict[str, Path], tmp_path: Path, name: str) -> None:
    env = {**os.environ, "VWLOG_STORE": str(tmp_path / "s.db")}
    rule = CRAFTS[name][1]
    for args, code in (
        (["validate", str(crafted[name])], 1),
        (["replay", str(crafted[name])], 1),
        (["stats", "--per-match", str(crafted[name])], 0),
        (["import", str(SAMPLES / "absolute-victory.jsonl"), str(crafted[name])], 1),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "vwlog", *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
            env=env,
            check=False,
        )
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == code, (args, done.stdout, done.stderr)
        if args[0] in ("validate", "replay", "import"):
            assert rule in done.stdout
        if args[0] == "import":
            assert sum(line.startswith("stored ") for line in done.stdout.splitlines()) == 2
