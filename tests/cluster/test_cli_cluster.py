"""The commands on a real Dask cluster give what they give in one process, byte for byte."""

from __future__ import annotations

import filecmp
from typing import TYPE_CHECKING

import orjson
import pytest

from vwlog.cli import main

from .conftest import CORPUS_SIZE, QUICK, logs, run

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


VALIDATE = ("validate", "--trust-log-definitions", "--format", "json")
"""validate in JSON, trusting the corpus's own (house-rules) ruleset as asked: the corpus is
UNVERIFIED otherwise, and these tests compare one process with the cluster."""


def test_validate_on_the_cluster_equals_one_process(
    runner: CliRunner, corpus: Path, dask_cluster: str
) -> None:
    alone = run(runner, *VALIDATE, str(corpus))
    spread = run(runner, *VALIDATE, "--cluster", dask_cluster, str(corpus))
    assert spread == alone
    reports = orjson.loads(spread)
    assert [r["source"] for r in reports] == logs(corpus)
    assert all(r["ok"] for r in reports)


@pytest.mark.parametrize("batch", ["1", "5", "100"])
def test_every_batch_size_gives_the_same_bytes(
    runner: CliRunner, corpus: Path, dask_cluster: str, batch: str
) -> None:
    for command in (VALIDATE, ("stats", "--format", "json", "--per-match")):
        alone = run(runner, *command, str(corpus))
        spread = run(runner, *command, "--cluster", dask_cluster, "--batch", batch, str(corpus))
        assert spread == alone, (command, batch)


def test_the_batch_size_can_come_from_the_environment(
    runner: CliRunner, corpus: Path, dask_cluster: str
) -> None:
    alone = run(runner, "stats", "--format", "json", str(corpus))
    env = {"VWLOG_DASK_SCHEDULER": dask_cluster, "VWLOG_DASK_BATCH": "4", "SOURCE_DATE_EPOCH": "0"}
    result = runner.invoke(main, ["stats", "--format", "json", str(corpus)], env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == alone
    refused = runner.invoke(main, ["stats", str(corpus)], env={**env, "VWLOG_DASK_BATCH": "0"})
    assert refused.exit_code == 2
    assert "--batch" in refused.stderr


def test_the_scheduler_can_come_from_the_environment(
    runner: CliRunner, corpus: Path, dask_cluster: str
) -> None:
    alone = run(runner, *VALIDATE, str(corpus))
    result = runner.invoke(
        main,
        [*VALIDATE, str(corpus)],
        env={"VWLOG_DASK_SCHEDULER": dask_cluster, "SOURCE_DATE_EPOCH": "0"},
    )
    assert result.exit_code == 0, result.stderr
    assert "running on " in result.stderr
    assert result.stdout == alone


def test_a_failing_log_is_that_logs_error_and_the_others_go_on(
    runner: CliRunner, corpus: Path, dask_cluster: str, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"not": "a header"}\n', encoding="utf-8")
    files = [logs(corpus)[0], str(broken), logs(corpus)[1]]
    out = run(runner, *VALIDATE, "--cluster", dask_cluster, *files, code=2)
    assert [r["source"] for r in orjson.loads(out)] == [files[0], files[2]]


def test_stats_on_the_cluster_equal_one_process(
    runner: CliRunner, corpus: Path, dask_cluster: str
) -> None:
    seen = []
    for extra in ((), ("--per-match",), ("--player", "p1")):
        alone = run(runner, "stats", "--format", "json", *extra, str(corpus))
        spread = run(
            runner, "stats", "--format", "json", *extra, "--cluster", dask_cluster, str(corpus)
        )
        assert spread == alone, extra
        seen.append(orjson.loads(alone))
    assert seen[0]["corpus"]["matches"] == CORPUS_SIZE
    assert len(seen[1]) == CORPUS_SIZE
    assert seen[2]["corpus"]["sides"] == CORPUS_SIZE


def test_simulate_on_the_cluster_writes_the_same_bytes(
    runner: CliRunner, dask_cluster: str, tmp_path: Path
) -> None:
    args = ["simulate", "--seed", "5", "-n", "4", *QUICK]
    alone = run(runner, *args, "-o", str(tmp_path / "alone"))
    spread = run(runner, *args, "-o", str(tmp_path / "spread"), "--cluster", dask_cluster)
    assert spread == alone  # the victory table
    names = sorted(p.name for p in (tmp_path / "alone").iterdir())
    assert len(names) == 4
    match, mismatch, errors = filecmp.cmpfiles(
        tmp_path / "alone", tmp_path / "spread", names, shallow=False
    )
    assert (match, mismatch, errors) == (names, [], [])


@pytest.mark.slow
def test_cluster_local_starts_its_own(runner: CliRunner, corpus: Path) -> None:
    alone = run(runner, "stats", "--format", "json", str(corpus))
    result = runner.invoke(
        main,
        ["stats", "--format", "json", "--cluster", "local", str(corpus)],
    )
    assert result.exit_code == 0, result.stderr
    assert "running on a local cluster: 2 workers" in result.stderr
    assert result.stdout == alone


@pytest.mark.slow
def test_no_scheduler_is_a_one_line_error(runner: CliRunner, corpus: Path) -> None:
    result = runner.invoke(
        main,
        ["validate", "--cluster", "tcp://127.0.0.1:9", str(corpus)],
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --cluster tcp://127.0.0.1:9: no Dask scheduler")
    assert len(result.stderr.strip().splitlines()) == 1


def test_import_on_the_cluster_refuses_a_sqlite_store(
    runner: CliRunner, corpus: Path, dask_cluster: str, tmp_path: Path
) -> None:
    result = runner.invoke(
        main,
        ["--store", str(tmp_path / "v.db"), "import", "--cluster", dask_cluster, str(corpus)],
    )
    assert result.exit_code == 2
    assert "needs a PostgreSQL store" in result.stderr
    assert not (tmp_path / "v.db").exists()


def test_relative_paths_name_the_clients_files_on_the_workers(
    runner: CliRunner, corpus: Path, dask_cluster: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(corpus.parent)  # the workers started in another directory
    relative = [f"{corpus.name}/{name}" for name in sorted(p.name for p in corpus.iterdir())][:3]
    alone = run(runner, *VALIDATE, *relative)
    spread = run(runner, *VALIDATE, "--cluster", dask_cluster, *relative)
    assert spread == alone
    assert [r["source"] for r in orjson.loads(spread)] == relative


def test_workers_cannot_read_standard_input(runner: CliRunner, dask_cluster: str) -> None:
    result = runner.invoke(main, ["validate", "--cluster", dask_cluster, "-"], input="")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --cluster: workers cannot read standard input ('-'): give files\n"
    )
