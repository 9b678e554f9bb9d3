"""``--jobs``, one option on validate, import, simulate and stats: the same range everywhere,
and two processes say what one says, in the same order, an unreadable log among many
included."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
COMMANDS = ["validate", "import", "simulate", "stats"]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Eight sample logs with an unreadable one and a malformed one among them."""
    folder = tmp_path_factory.mktemp("batch")
    samples = sorted(SAMPLES.glob("*.jsonl"))[:8]
    for sample in samples:
        shutil.copy(sample, folder / sample.name)
    (folder / "malformed.jsonl").write_text("{not json\n", encoding="utf-8")
    (folder / "empty.jsonl").write_text("", encoding="utf-8")
    names = [s.name for s in samples]
    order = [*names[:3], "malformed.jsonl", *names[3:6], "empty.jsonl", *names[6:]]
    return [str(folder / name) for name in order]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("given", ["0", "65", "two"])
def test_every_command_refuses_the_same_jobs(runner: CliRunner, command: str, given: str) -> None:
    logs = [] if command == "simulate" else [str(next(SAMPLES.glob("*.jsonl")))]
    result = runner.invoke(main, [command, "--jobs", given, *logs])
    assert result.exit_code == 2
    assert "'--jobs' / '-j'" in result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_shows_the_same_jobs_range_and_default(
    runner: CliRunner, command: str
) -> None:
    result = runner.invoke(main, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    line = next(x for x in result.stdout.splitlines() if "--jobs" in x)
    assert "-j, --jobs INTEGER RANGE" in line
    assert "[default: 1; 1<=x<=64]" in result.stdout


@pytest.mark.timeout(300)
@pytest.mark.parametrize("command", [["validate"], ["stats", "--per-match"]])
def test_two_processes_say_what_one_says_in_order(
    runner: CliRunner, batch: list[str], command: list[str]
) -> None:
    one = runner.invoke(main, [*command, *batch, "-j", "1"])
    two = runner.invoke(main, [*command, *batch, "-j", "2"])
    assert one.exit_code == two.exit_code == 2
    assert two.stdout == one.stdout
    assert two.stderr == one.stderr
    errors = [x for x in one.stderr.splitlines() if x.startswith("Error:")]
    assert len(errors) == 2
    assert "malformed.jsonl" in errors[0]
    assert "empty.jsonl" in errors[1]


@pytest.mark.timeout(300)
def test_import_with_two_processes_says_what_one_says_in_order(
    runner: CliRunner, batch: list[str], tmp_path: Path
) -> None:
    results = []
    for jobs in ("1", "2"):
        store = f"sqlite:///{tmp_path / jobs}.db"
        results.append(runner.invoke(main, ["--store", store, "import", *batch, "-j", jobs]))
    one, two = results
    assert one.exit_code == two.exit_code
    assert two.stdout == one.stdout
    assert two.stderr == one.stderr
    errors = [x for x in one.stderr.splitlines() if x.startswith("Error:")]
    assert [("malformed" in e, "empty" in e) for e in errors] == [(True, False), (False, True)]
