"""The dispute report's verdict is its own replay's, under the reading the report was asked
for, with the integrity result of one pass over the log's lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.trust.support import SAMPLES, run
from vwlog.events import MatchSealed, RecordSigned
from vwlog.io.logfile import read_log, write_log
from vwlog.services import sealed

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


def test_the_verdict_is_judged_under_the_reading_the_report_shows(runner: CliRunner) -> None:
    """A legal sample read with a hand limit of 3 is illegal: the body and the
    verdict at the top agree, and so does the exit status."""
    sample = SAMPLES / "hand-limit.jsonl"
    plain = run(runner, "report", sample)
    assert plain.exit_code == 0, plain.output
    assert "**Verdict: ok**" in plain.stdout
    result = run(runner, "report", "--set", "hand_limit=3", sample)
    assert result.exit_code == 1
    top, _, body = result.stdout.partition("## Validation")
    assert "**Verdict: illegal**" in top
    assert "- Verdict: **illegal**" in body


def test_a_stored_cut_match_reports_incomplete(runner: CliRunner, tmp_path: Path) -> None:
    header, records = read_log(SAMPLES / "hand-limit.jsonl")
    body = [r for r in records if not isinstance(r.event, MatchSealed | RecordSigned)]
    head, chained = sealed(header.model_copy(update={"hash": None}), body[:-2])
    cut = tmp_path / "cut.jsonl"
    write_log(cut, head, chained)
    store = tmp_path / "vwlog.db"
    assert run(runner, "import", cut, store=store).exit_code == 0
    stored = run(runner, "report", header.match_id, store=store)
    from_file = run(runner, "report", cut)
    assert stored.exit_code == from_file.exit_code == 1
    for result in (stored, from_file):
        assert "**Verdict: incomplete**" in result.stdout
        assert "unsealed: the record has no seal" in result.stdout
        assert "| Chain | intact" in result.stdout or "- Chain: intact" in result.stdout
