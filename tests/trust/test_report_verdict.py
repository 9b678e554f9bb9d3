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
    verdict at the top agree, and so does the exit status; both say the verdict holds under
    that house rule."""
    sample = SAMPLES / "hand-limit.jsonl"
    plain = run(runner, "report", sample)
    assert plain.exit_code == 0, plain.output
    assert "**Verdict: ok**" in plain.stdout
    result = run(runner, "report", "--set", "hand_limit=3", sample)
    assert result.exit_code == 1
    top, _, body = result.stdout.partition("## Validation")
    assert "**Verdict: illegal under house rules (hand\\_limit=3)**" in top
    assert "- Verdict: **illegal under house rules (hand\\_limit=3)**" in body


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


def test_what_the_verdict_rests_on_is_rendered_escaped_and_in_the_language(
    runner: CliRunner, tmp_path: Path
) -> None:
    """The HTML section comes from the report's template (autoescaped); a signer's name is the
    log's own words and is shown as text; the section speaks the report's language."""
    import shutil

    keys = tmp_path / "keys"
    assert run(runner, "keys", "create", "alice", "--dir", keys).exit_code == 0
    signed = tmp_path / "signed.jsonl"
    shutil.copy(SAMPLES / "hand-limit.jsonl", signed)
    assert run(runner, "sign", signed, "--key", keys / "alice.key").exit_code == 0
    # the signer's name is what the record says: a forger may write anything there
    header, records = read_log(signed)
    name = "<img src=x onerror=alert(1)>"
    records = [
        r.model_copy(update={"event": r.event.model_copy(update={"signer": name})})
        if isinstance(r.event, RecordSigned)
        else r
        for r in records
    ]
    head, chained = sealed(header.model_copy(update={"hash": None}), records)
    log = tmp_path / "renamed.jsonl"
    write_log(log, head, chained)
    page = run(runner, "report", "--format", "html", log)
    section = page.stdout.split('<section id="rests-on">', 1)[1].split("</section>", 1)[0]
    assert "<img" not in page.stdout
    assert "&lt;img src=x onerror=alert(1)&gt; key " in section
    assert "<tr><th>Signatures</th>" in section
    indonesian = run(runner, "report", "--lang", "id", "--format", "html", log)
    section = indonesian.stdout.split('<section id="rests-on">', 1)[1].split("</section>", 1)[0]
    assert "<h2>Dasar putusan ini</h2>" in section
    assert "<strong>Putusan: " in section
    assert "<tr><th>Tanda tangan</th><td>&lt;img src=x onerror=alert(1)&gt; kunci " in section
    markdown = run(runner, "report", "--lang", "id", log)
    assert "**Putusan: " in markdown.stdout
    assert "## Dasar putusan ini" in markdown.stdout
