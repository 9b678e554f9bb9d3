"""``vwlog import -q`` no longer hides illegal logs: the summary it keeps counts the verdicts of
the logs kept (illegal, untrusted, incomplete) and how many are flagged, and the exit status
says that a log breaks rules (1), as validate's does."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from vwlog.cli import main

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLES = Path(__file__).parents[2] / "samples"
INVALID = SAMPLES / "invalid"
LEGAL = SAMPLES / "full-combat.jsonl"


def test_import_quiet_of_17_illegal_logs_counts_them_and_exits_1(
    runner: CliRunner, tmp_path: Path
) -> None:
    store = str(tmp_path / "vwlog.db")
    logs = sorted(INVALID.glob("*.jsonl"))
    assert len(logs) == 17
    result = runner.invoke(main, ["--store", store, "import", "-q", str(INVALID)])
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "verdicts of the 17 logs kept: 0 legal, 17 illegal, 0 untrusted, 0 incomplete; 17 flagged",
        "17 logs: 17 stored, 0 unchanged, 0 rejected, 0 failed",
    ]
    # the same again: unchanged, with the verdicts their import gave them
    again = runner.invoke(main, ["--store", store, "import", "-q", str(INVALID), str(LEGAL)])
    assert again.exit_code == 1
    assert again.stderr.splitlines() == [
        "verdicts of the 18 logs kept: 1 legal, 17 illegal, 0 untrusted, 0 incomplete; 17 flagged",
        "18 logs: 1 stored, 17 unchanged, 0 rejected, 0 failed",
    ]


def test_legal_logs_keep_the_one_summary_line_and_exit_0(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(
        main, ["--store", str(tmp_path / "vwlog.db"), "import", "-q", str(LEGAL)]
    )
    assert result.exit_code == 0
    assert result.stderr == "1 log: 1 stored, 0 unchanged, 0 rejected, 0 failed\n"


def test_untrusted_and_incomplete_logs_are_counted_but_not_flagged(
    runner: CliRunner, tmp_path: Path
) -> None:
    lines = LEGAL.read_bytes().splitlines()
    outside = []  # a record that did not come from vwlog: no hashes, no seal
    for line in lines[:-1]:
        data = orjson.loads(line)
        data.pop("hash", None)
        outside.append(orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
    (tmp_path / "outside.jsonl").write_bytes(b"\n".join(outside) + b"\n")
    (tmp_path / "unsealed.jsonl").write_bytes(b"\n".join(lines[:-1]) + b"\n")
    store = str(tmp_path / "vwlog.db")
    for name, words in (
        ("outside", "1 untrusted, 0 incomplete"),
        ("unsealed", "0 untrusted, 1 incomplete"),
    ):
        result = runner.invoke(
            main, ["--store", f"{store}.{name}", "import", "-q", str(tmp_path / f"{name}.jsonl")]
        )
        assert result.exit_code == 0, result.output
        assert result.stderr.splitlines() == [
            f"verdicts of the 1 log kept: 0 legal, 0 illegal, {words}; 0 flagged",
            "1 log: 1 stored, 0 unchanged, 0 rejected, 0 failed",
        ]


def test_the_help_says_what_quiet_keeps_and_the_exit_status(runner: CliRunner) -> None:
    text = " ".join(runner.invoke(main, ["import", "--help"]).stdout.split())
    assert "keep errors and the summary" in text
    assert "1 a log breaks rules or is not intact" in text
