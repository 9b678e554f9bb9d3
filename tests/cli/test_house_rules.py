"""A verdict under house rules says so (issue 38, point 2).

``vwlog validate --set hand_limit=2 samples/hand-limit.jsonl`` used to print the verdict as if
nothing had been set: the first line named only the published ruleset, the violation said
"(by default)" and "rests on" named the published ruleset. Every format now says in its first
line that the verdict holds under house rules, labels the flag as set, with its value, and
names the modified ruleset; the verdict itself is still the one `judge` decides.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from vwlog.cli import main

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLE = Path(__file__).parents[2] / "samples" / "hand-limit.jsonl"
HOUSE = "judged under house rules (hand_limit=2)"


def test_validate_under_a_set_flag_says_so_first_and_labels_the_flag(runner: CliRunner) -> None:
    plain = runner.invoke(main, ["validate", str(SAMPLE)])
    assert plain.exit_code == 0, plain.output
    assert "house rule" not in plain.stdout

    result = runner.invoke(main, ["validate", "--set", "hand_limit=2", str(SAMPLE)])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith(" · " + HOUSE), lines[0]
    message = next(x for x in lines if "discard down to 2" in x)
    assert message.strip() == "discard down to 2: 7 cards, not 2 (house rule hand_limit=2)"
    assert "(by default)" not in result.stdout
    ruleset = next(x for x in lines if "ruleset published vw-samples@1" in x)
    assert ruleset.endswith(") with house rules hand_limit=2"), ruleset
    summary = next(x for x in lines if x.strip().startswith("ILLEGAL"))
    assert summary.strip().startswith("ILLEGAL under house rules (hand_limit=2) · ")


def test_the_json_and_markdown_of_validate_name_the_house_rules(runner: CliRunner) -> None:
    args = ["validate", "--set", "hand_limit=2", str(SAMPLE)]
    data = orjson.loads(runner.invoke(main, [*args, "--format", "json"]).stdout)[0]
    assert data["house_rules"] == {"hand_limit": 2}
    assert data["verdict"] == "ILLEGAL"
    assert data["integrity"]["ruleset"].endswith("with house rules hand_limit=2")
    assert "(house rule hand_limit=2)" in data["violations"][0]["message"]
    plain = orjson.loads(runner.invoke(main, ["validate", "--format", "json", str(SAMPLE)]).stdout)
    assert plain[0]["house_rules"] == {}
    assert plain[0]["verdict"] == "OK"

    markdown = runner.invoke(main, [*args, "--format", "markdown"]).stdout
    first = markdown.splitlines()[0]
    assert first == "## Match `sample-hand-limit` — judged under house rules (hand\\_limit=2)"
    assert "- Verdict: **illegal under house rules (hand\\_limit=2)**" in markdown


def test_the_report_says_it_in_its_title(runner: CliRunner, tmp_path: Path) -> None:
    args = ["report", "--set", "hand_limit=2", str(SAMPLE)]
    markdown = runner.invoke(main, args)
    assert markdown.exit_code == 1
    assert markdown.stdout.splitlines()[0] == (
        "# Dispute report: match `sample-hand-limit` — judged under house rules (hand\\_limit=2)"
    )
    page = tmp_path / "report.html"
    html = runner.invoke(main, [*args, "--format", "html", "-o", str(page)])
    assert html.exit_code == 1
    heading = next(x for x in page.read_text().splitlines() if x.startswith("<h1>"))
    assert heading.endswith("— judged under house rules (hand_limit=2)</h1>")
    plain = runner.invoke(main, ["report", str(SAMPLE)]).stdout
    assert "house rules" not in plain


def test_setting_a_flag_to_its_published_value_is_no_house_rule(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", "--set", "hand_limit=7", str(SAMPLE)])
    assert result.exit_code == 0
    assert "house rule" not in result.stdout
