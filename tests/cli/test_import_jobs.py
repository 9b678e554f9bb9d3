"""``vwlog import --jobs N``: worker processes validate, this process stores, and the run says
and stores exactly what a serial import says and stores, in the same order, with the same exit
status, whatever bad input is mixed in."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pytest

from tests.services.support import fresh_schema, illegal_copy, postgres_dsn
from vwlog.cli import main

if TYPE_CHECKING:
    from click.testing import CliRunner, Result

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Every sample log, one illegal log, one malformed, one empty, one that only shares a
    stored match's id (a conflict), and one given twice, in a fixed order."""
    folder = tmp_path_factory.mktemp("corpus")
    names = []
    for sample in sorted((ROOT / "samples").glob("*.jsonl")):
        if sample.name != "full-combat.jsonl":  # its illegal copy stands in for it
            shutil.copy(sample, folder / sample.name)
            names.append(sample.name)
    illegal_copy(ROOT / "samples" / "full-combat.jsonl", folder / "illegal.jsonl")
    (folder / "malformed.jsonl").write_text("{not json\n", encoding="utf-8")
    (folder / "empty.jsonl").write_text("", encoding="utf-8")
    # the first log's match id with fewer records: refused as a conflict
    lines = (folder / names[0]).read_text(encoding="utf-8").splitlines()
    (folder / "conflict.jsonl").write_text("\n".join(lines[:-3]) + "\n", encoding="utf-8")
    order = [
        names[0],
        "malformed.jsonl",
        *names[1:5],
        "illegal.jsonl",
        "empty.jsonl",
        *names[5:],
        "conflict.jsonl",
        names[2],
    ]
    return [str(folder / n) for n in order]


def _import(runner: CliRunner, store: Path, *args: str) -> Result:
    return runner.invoke(main, ["--store", str(store), "import", *args])


def _stored(runner: CliRunner, store: Path) -> tuple[list[object], dict[str, str]]:
    listed = runner.invoke(main, ["--store", str(store), "list", "--format", "json"])
    assert listed.exit_code == 0, listed.output
    matches = orjson.loads(listed.stdout)
    exported = {}
    for m in matches:
        out = runner.invoke(main, ["--store", str(store), "export", m["match_id"]])
        assert out.exit_code == 0, out.output
        exported[m["match_id"]] = out.stdout
    return matches, exported


@pytest.mark.slow
@pytest.mark.parametrize("extra", [(), ("--reject-illegal", "--quiet")])
def test_jobs_say_and_store_what_a_serial_import_does(
    runner: CliRunner, corpus: list[str], tmp_path: Path, extra: tuple[str, ...]
) -> None:
    serial = _import(runner, tmp_path / "serial.db", *extra, *corpus)
    parallel = _import(runner, tmp_path / "parallel.db", "-j", "3", *extra, *corpus)
    assert serial.exit_code == 2  # malformed, empty and conflicting logs
    assert parallel.exit_code == serial.exit_code
    assert parallel.stdout == serial.stdout
    assert parallel.stderr == serial.stderr
    # nothing lost: every good log is reported and stored, each bad one named once
    errors = [line for line in parallel.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 3
    for bad in ("malformed.jsonl", "empty.jsonl", "conflict.jsonl"):
        assert sum(bad in line for line in errors) == 1, bad
    if "--quiet" not in extra:
        reported = [line.split()[-1] for line in parallel.stdout.splitlines()]
        good = [p for p in corpus if not p.endswith(("malformed.jsonl", "empty.jsonl"))]
        good = [p for p in good if not p.endswith("conflict.jsonl")]
        assert reported == good  # in the order given
    matches, exported = _stored(runner, tmp_path / "parallel.db")
    assert (matches, exported) == _stored(runner, tmp_path / "serial.db")
    # the derived data (catalog entry, snapshots, statistics view) checks out the same way
    ids = [str(m["match_id"]) for m in matches]  # type: ignore[index]
    verified = [
        runner.invoke(main, ["--store", str(tmp_path / name), "verify", "--format", "json", *ids])
        for name in ("serial.db", "parallel.db")
    ]
    assert verified[0].exit_code == verified[1].exit_code
    assert verified[0].stdout == verified[1].stdout
    again = _import(runner, tmp_path / "parallel.db", "-j", "2", *extra, *corpus)
    assert again.exit_code == serial.exit_code
    last = again.stderr.splitlines()[-1]
    stored = serial.stderr.splitlines()[-1].split(": ", 1)[1].split(" stored")[0]
    assert f": 0 stored, {int(stored) + 1} unchanged" in last  # the twice-given log too
    if "--reject-illegal" in extra:
        assert ", 1 rejected," in serial.stderr.splitlines()[-1]
        assert ", 1 rejected," in last


@pytest.mark.postgres
def test_jobs_on_postgresql_store_what_a_serial_import_stores(
    runner: CliRunner, corpus: list[str]
) -> None:
    """The workers never touch the store's connection (forked or spawned): on PostgreSQL too
    the stored matches are the serial import's, and the connection still works afterwards."""
    logs = [p for p in corpus if "generated" not in p][:8]  # the short samples, and bad input
    with fresh_schema(postgres_dsn()) as serial_url, fresh_schema(postgres_dsn()) as jobs_url:
        serial = runner.invoke(main, ["--store", serial_url, "import", *logs])
        parallel = runner.invoke(main, ["--store", jobs_url, "import", "-j", "2", *logs])
        assert parallel.exit_code == serial.exit_code
        assert parallel.stdout == serial.stdout
        assert parallel.stderr == serial.stderr
        listed = [
            orjson.loads(runner.invoke(main, ["--store", url, "list", "--format", "json"]).stdout)
            for url in (serial_url, jobs_url)
        ]
        assert listed[0] == listed[1]
        assert len(listed[1]) >= 4
