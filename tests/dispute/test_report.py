"""``vwlog report``: one document for a disputed match, in Markdown and in HTML."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.audit.report import Integrity, build_report
from vwlog.audit.sources import log_source
from vwlog.cli import main
from vwlog.model.errors import UsageError
from vwlog.render.html import report_html
from vwlog.render.html import rule_html as _html_rule_text
from vwlog.render.markdown import _md_rule_text, report_markdown
from vwlog.render.text import counted as _counted

from .logs import alter_byte, judged_report, sample

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


def test_markdown_shows_the_violation_in_context() -> None:
    report = judged_report(
        sample("invalid/damage-over-atk.jsonl"),
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
    page = report_html(judged_report(sample("invalid/damage-over-atk.jsonl")))
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
    assert (
        "- p1's hand: 4 cards, known: Militia Spearman (p1-002, seen on the register at seq 21)"
        in md.stdout.splitlines()
    )


def test_a_stored_match_and_a_broken_chain(runner: CliRunner, tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    imported = runner.invoke(main, ["--store", store, "import", str(sample("full-combat.jsonl"))])
    assert imported.exit_code == 0
    stored = runner.invoke(main, ["--store", store, "report", "sample-full-combat", "--at", "200"])
    assert stored.exit_code == 0, stored.output
    assert "Source: `store:sample-full-combat`" in stored.stdout
    assert "- Hash chain: intact (238 records)" in stored.stdout  # the last is the seal
    assert "## Position at seq 200" in stored.stdout

    exported = tmp_path / "exported.jsonl"
    runner.invoke(main, ["--store", store, "export", "sample-full-combat", "-o", str(exported)])
    alter_byte(exported, 5, b"PREP", b"END")
    broken = runner.invoke(main, ["report", str(exported)])
    assert broken.exit_code == 1  # the verdict rests on a broken chain
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


# -- the rule's text under every violation ---------------------------------------------------

PRO_1 = (
    "The active player gains gold equal to the sum of the gold produce of all Territories they "
    'control. (Whether this counts as "gaining gold" for triggers: OQ-10.)'
)
"""R-PRO-1 as judges read it: the digest's source tag (``[S000]``) is left out."""


def test_markdown_quotes_the_full_rule_text_under_the_violation(runner: CliRunner) -> None:
    result = runner.invoke(main, ["report", str(sample("invalid/produce-overstated.jsonl"))])
    assert result.exit_code == 1, result.output  # illegal
    # the title is the rule's opening sentence; its whole text follows it, without source tags
    heading = (
        "### 1. R-PRO-1: The active player gains gold equal to the sum of the gold produce of "
        "all Territories they control"
    )
    assert f"{heading}\n\n> {PRO_1}\n\n- seq 157 · line 158" in result.stdout


def test_markdown_quotes_every_line_of_a_long_rule() -> None:
    text = report_markdown(judged_report(sample("invalid/damage-over-atk.jsonl")))
    assert (
        "> The active player decides how each of their Followers' ATK damage is distributed; "
        "then the defending player does the same for theirs.\n"
    ) in text
    assert _md_rule_text("R-GEN-3")[:2] == [
        "> A player allies with one of two sides:",
        "> - **Human** — four factions: **Order, Chaos, Prosper, Noble**.",
    ]
    assert _md_rule_text("R-NOPE-1") == []


def test_html_shows_the_rule_text_escaped() -> None:
    page = report_html(judged_report(sample("invalid/produce-overstated.jsonl")))
    assert (
        '<blockquote class="rule" data-rule="R-PRO-1"><p>The active player gains gold equal to '
        "the sum of the gold produce of all Territories they control. (Whether this "
        "counts as &#34;gaining gold&#34; for triggers: OQ-10.)</p></blockquote>"
    ) in page
    # the digest's Markdown becomes markup only after escaping: a `>` stays text
    slide = _html_rule_text("R-SKL-2")
    assert "the slide symbol (rendered as <code>&gt;</code> in the seed)" in slide.lower()
    assert "`" not in slide
    assert "<ul><li><strong>Human</strong> — four factions:" in _html_rule_text("R-GEN-3")
    assert "<em>Vandaria Saga</em>" in _html_rule_text("R-GEN-2")
    assert _html_rule_text("R-NOPE-1") == ""


def test_no_source_tag_reaches_a_report() -> None:
    report = judged_report(sample("invalid/produce-overstated.jsonl"))
    for text in (report_markdown(report), report_html(report)):
        assert "[S000]" not in text
        assert "[W1]" not in text
        assert "[INF]" not in text


def test_violations_without_boards_list_their_rules_texts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("vwlog.audit.report.DETAILED_VIOLATIONS", 0)
    report = judged_report(sample("invalid/produce-overstated.jsonl"))
    text = report_markdown(report)
    assert "1 more violation (without boards):" in text
    assert "| R-PRO-1 | The active player gains gold" in text
    assert "The rules they break:\n\n- **R-PRO-1** (" in text
    assert f"): {PRO_1}\n" in text
    page = report_html(report)
    assert "<dt>R-PRO-1: The active player gains gold" in page
    assert '<dd><blockquote class="rule" data-rule="R-PRO-1"><p>The active player' in page


def test_counts_agree_with_their_nouns() -> None:
    assert _counted(1, "event") == "1 event"
    assert _counted(0, "event") == "0 events"
    assert _counted(1_234, "more violation") == "1,234 more violations"
    assert _counted(2, "child", "children") == "2 children"
