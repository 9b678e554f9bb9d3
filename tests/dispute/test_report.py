"""``vwlog report``: one document for a disputed match, in Markdown and in HTML."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main
from vwlog.dispute import Integrity, build_report, log_source, report_html, report_markdown
from vwlog.errors import UsageError

from .logs import alter_byte, sample

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


def test_markdown_shows_the_violation_in_context() -> None:
    report = build_report(
        log_source(sample("invalid/damage-over-atk.jsonl")),
        integrity=Integrity(sealed=True, head_hash="abc", records=237),
    )
    text = report_markdown(report)
    assert "# Dispute report: match `invalid-damage-over-atk`" in text
    assert "| 1 | p1 | Player 1 |  | 16 cards |" in text
    assert "`vw-samples@1`: 3 flags differ from the defaults." in text
    assert "| `starting_gold` | OQ-1 | `20` | `6` |" in text
    assert "<details><summary>All flags</summary>" in text
    assert "- Hash chain: intact (237 records)" in text
    assert "- Verdict: **illegal**" in text
    assert "### 1. R-CMB-19: The active player decides how each of their Followers' ATK" in text
    assert "Board before seq 193:" in text
    assert "    [p2-001] Ashen Warcamp def 3 dmg 0 cap 2/2 gold 1" in text
    # five events either side, the violating one in bold
    assert "| 188 |  | Combat step 5 begins |" in text
    assert "| **193** | ⚠ R-CMB-19 | **p1 assigns damage:" in text
    assert "| 198 |  | Combat step 7 begins |" in text
    assert "## Judge rulings\n\nNone." in text


def test_html_draws_the_board_at_the_violation() -> None:
    page = report_html(build_report(log_source(sample("invalid/damage-over-atk.jsonl"))))
    assert page.startswith("<!DOCTYPE html>")
    assert '<div class="board" id="board-193" data-seq="193">' in page
    assert '<div class="territory" data-card="p1-001">' in page
    assert '<div class="territory hl" data-card="p2-001">' in page
    # the cards the violating event names are marked; the slid attacker is drawn slid
    assert '<div class="card slid hl" data-card="p1-002">' in page
    assert "attacks p2-001" in page
    assert "<script" not in page
    assert "http://" not in page
    assert "https://" not in page
    assert "Hash chain" in page


def test_at_shows_the_position_and_what_each_player_knew(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "at.html"
    result = runner.invoke(
        main,
        [
            "report",
            str(sample("judge-backup.jsonl")),
            "--at",
            "30",
            "--format",
            "html",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert '<h2 id="at-30">Position at seq 30</h2>' in page
    assert 'id="board-30"' in page
    assert "What p2 could know" in page
    assert (
        "p1's hand: 4 cards, known: Militia Spearman (p1-002, seen on the register at seq 21)"
        in page
    )
    assert 'class="voided"' in page

    md = runner.invoke(main, ["report", str(sample("judge-backup.jsonl")), "--at", "30"])
    assert md.exit_code == 0
    assert "## Position at seq 30" in md.stdout
    assert "#### What p1 could know" in md.stdout


def test_a_stored_match_and_a_broken_chain(runner: CliRunner, tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    imported = runner.invoke(main, ["--store", store, "import", str(sample("full-combat.jsonl"))])
    assert imported.exit_code == 0
    stored = runner.invoke(main, ["--store", store, "report", "sample-full-combat", "--at", "200"])
    assert stored.exit_code == 0, stored.output
    assert "Source: `store:sample-full-combat`" in stored.stdout
    assert "- Hash chain: intact (237 records)" in stored.stdout
    assert "## Position at seq 200" in stored.stdout

    exported = tmp_path / "exported.jsonl"
    runner.invoke(main, ["--store", store, "export", "sample-full-combat", "-o", str(exported)])
    alter_byte(exported, 5, b"PREP", b"END")
    broken = runner.invoke(main, ["report", str(exported)])
    assert broken.exit_code == 0
    assert "- Hash chain: BROKEN at seq 5, line 6: hash does not match the chain" in broken.stdout


def test_errors(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["report", str(sample("full-combat.jsonl")), "--at", "999"])
    assert result.exit_code == 2
    assert "no event with seq 999" in result.stderr
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    missing = runner.invoke(main, ["--store", store, "report", "no-such-match"])
    assert missing.exit_code == 2
    assert "no stored match 'no-such-match'" in missing.stderr
    with pytest.raises(UsageError):
        build_report(log_source(sample("full-combat.jsonl")), at=500)
