"""``vwlog report`` on WoW TCG and L5R logs, through the real command line: the verdict, each
violation with its rule id, the game's title and the seed's original words, the flag a verdict
rests on, the board through the game's views and the events in its sentences; and nothing a
log carries reaches Markdown or HTML raw."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.games import rules_for

ROOT = Path(__file__).resolve().parents[2]
WOW = ROOT / "samples" / "wowtcg"
L5R = ROOT / "samples" / "l5r"

EVIL_PLAYER = "<script>alert(1)</script>*ana*_x_[l](u)|`"
"""A player id (at most 64 characters) that is HTML with script and Markdown syntax."""
EVIL_CARD = "<img src=x onerror=alert(2)>|**c**"
EVIL_MATCH = "<svg onload=alert(3)>[m](javascript:x) *m*"
EVIL_GENERATOR = "<iframe src=javascript:alert(4)>|# g"
EVIL_EDITION = "`<b onmouseover=alert(5)>`|"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--lang", "en", *args])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _outside_fences(markdown: str) -> str:
    """The Markdown without its fenced blocks (a board is text there, shown verbatim)."""
    return re.sub(r"(?ms)^(`{3,})text\n.*?^\1$", "", markdown)


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_a_wow_violation_with_its_rule_title_and_russian_original(fmt: str) -> None:
    code, out, err = _run("report", "--format", fmt, str(WOW / "illegal-hand-limit.jsonl"))
    assert code == 1, err
    entry = rules_for("wowtcg").entries["WOW-END-4"]
    assert "WOW-END-4" in out
    assert entry.title.split(",")[0] in out
    assert "Максимальный по умолчанию размер руки составляет семь карт." in out
    for sentence in entry.original:
        assert sentence in out
    assert "503.2a" in out  # the seed's section
    # the board before the event, through the game's views, and the event's sentence
    assert "hand 9 (max 7)" in out
    assert "ana discards down to the maximum hand size: c1" in out
    assert "illegal" in out.lower()


def test_an_l5r_violation_with_the_croatian_original_and_expected_event() -> None:
    code, out, _ = _run("report", str(L5R / "illegal_wrong_force.jsonl"))
    assert code == 1
    assert "### 1. L5R-RES-1: An army's Force is the total Force" in out
    assert "> Snaga Vojske je ukupna Snaga svih unbowanih Personality i Follower karti" in out
    assert "the attacker's total was 7, not 9" in out
    assert "Resolution of battle 1: p1 attacks with Force 9, p2 defends with Force 2" in out
    assert "attacking p1 · Force 7" in out  # the board the Resolution was judged on


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_the_flag_a_verdict_rests_on_is_named(fmt: str) -> None:
    code, out, _ = _run("report", "--format", fmt, str(L5R / "illegal_phase_ends_early.jsonl"))
    assert code == 1
    flag = "battles\\_owed" if fmt == "markdown" else "battles_owed"
    assert f"rests on the flag {flag}" in out
    assert "(by default)" in out


@pytest.mark.parametrize(
    ("path", "violations"),
    [
        (WOW / "extra-turn.jsonl", 0),
        (L5R / "legal_tie.jsonl", 0),
        (L5R / "illegal_location.jsonl", 1),
    ],
)
def test_legal_and_illegal_samples_say_their_verdict(path: Path, violations: int) -> None:
    code, out, _ = _run("report", str(path))
    first = out.splitlines()[2]
    if violations:
        assert first.startswith("**Verdict: illegal**"), first
        assert "## Violations (1)" in out
    else:
        # legal, but the samples carry no hash chain: nothing vouches for them
        assert first.startswith("**Verdict: untrusted**"), first
        assert "## Violations" not in out
    assert code == 1
    assert "Provenance:" in out


def test_report_at_a_seq_shows_that_board_and_events() -> None:
    code, out, _ = _run("report", "--at", "8", str(L5R / "legal_tie.jsonl"))
    assert code == 1
    assert "## Position at seq 8" in out
    assert "Board after seq 8:" in out
    assert "| **8** |" in out
    code, _, err = _run("report", "--at", "99", str(L5R / "legal_tie.jsonl"))
    assert code == 2
    assert len(err.strip().splitlines()) == 1


def _renamed(value: object) -> object:
    if isinstance(value, dict):
        return {k: _renamed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    return (
        {"ana": EVIL_PLAYER, "c1": EVIL_CARD, "illegal-hand-limit": EVIL_MATCH}.get(value, value)
        if isinstance(value, str)
        else value
    )


@pytest.fixture
def evil_log(tmp_path: Path) -> Path:
    """The hand-limit sample with a player, a discarded card and the match id crafted, and
    crafted text in the header's generator and the ruleset's free-text edition."""
    lines = []
    for raw in (WOW / "illegal-hand-limit.jsonl").read_bytes().splitlines():
        data = _renamed(orjson.loads(raw))
        assert isinstance(data, dict)
        if "generator" in data:
            data["generator"] = EVIL_GENERATOR
        event = data.get("event", {})
        if event.get("type") == "match_started":
            event["ruleset"]["cr_version"] = EVIL_EDITION
        lines.append(orjson.dumps(data).decode())
    path = tmp_path / "evil.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_html_escapes_everything_from_the_log(evil_log: Path) -> None:
    code, out, _ = _run("report", "--format", "html", str(evil_log))
    assert code == 1
    for raw in ("<script", "<img", "<svg"):
        assert raw not in out, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "&lt;img src=x onerror=alert(2)&gt;" in out
    assert "<iframe" not in out
    assert "<b onmouseover" not in out
    assert "&lt;iframe src=javascript:alert(4)&gt;" in out
    assert "WOW-END-4" in out


def test_markdown_escapes_everything_from_the_log(evil_log: Path) -> None:
    code, out, _ = _run("report", str(evil_log))
    assert code == 1
    prose = _outside_fences(out)
    for raw in ("<script", "<img", "<svg", "<iframe", "<b "):
        assert raw not in prose, raw
    assert "&lt;iframe src=javascript:alert(4)&gt;\\|# g" in prose
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\*ana\\*\\_x\\_\\[l\\](u)\\|" in prose
    assert "\\[m\\](javascript:x)" in prose
    assert "[m](javascript" not in prose
    assert "WOW-END-4" in prose
    # inside a board's fence the name is text, and the fence cannot be closed by it
    blocks = re.findall(r"(?ms)^(`{3,})text\n(.*?)^\1$", out)
    assert blocks
    assert any(EVIL_PLAYER in body for _, body in blocks)
    assert all(fence not in body for fence, body in blocks)


def test_a_stored_match_is_reported_and_diffed_like_its_log(tmp_path: Path) -> None:
    store = str(tmp_path / "store.db")
    log = WOW / "illegal-hand-limit.jsonl"
    code, _, err = _run("--store", store, "import", str(log))
    assert code == 1, err  # stored, and illegal
    assert "1 stored" in err
    code, stored, err = _run("--store", store, "report", "illegal-hand-limit")
    assert code == 1, err
    code, from_file, _ = _run("report", str(log))
    assert code == 1

    def body(doc: str) -> str:
        """The report from its violations on (the source line and provenance differ)."""
        return doc[doc.index("## Violations") : doc.index("\n---\n")]

    assert "WOW-END-4" in body(stored)
    # a stored record has no line of a file
    assert body(stored) == body(from_file).replace(" · line 28", "")
    code, out, err = _run("--store", store, "diff", "illegal-hand-limit", str(log))
    assert code == 0, err
    assert out.splitlines()[-1] == "identical: 27 events"
