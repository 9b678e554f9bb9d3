"""Nothing a log carries reaches a terminal, a Markdown or an HTML document, or a chart raw.

One crafted string (terminal escape sequences, a bidi override, a forged verdict line, HTML
that runs script, Markdown links and emphasis, mathtext) is put into a match id, a player id
and a card name of a real sample log; every command's output is then read for it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import orjson
import pytest
from click.testing import CliRunner

from tests.dispute.logs import judged_report
from vwlog.cli import main
from vwlog.render.html import report_html
from vwlog.render.json import dumps
from vwlog.render.markdown import md, md_code, report_markdown
from vwlog.render.statspage import chart_label
from vwlog.render.text import table, term, visible

if TYPE_CHECKING:
    from pathlib import Path

EVIL = (
    "\x1b]0;owned\x07\x1b[2K\x1b[1A\u202eOK · 0 violations\n"
    "<script>alert(1)</script><img src=x onerror=alert(2)><svg onload=alert(3)>"
    "*bold* _it_ [link](javascript:alert(4)) | `code` $x^$\x00\x9b\u2066"
)
PLAYER = "\x1b[2J\u202e<svg onload=alert(5)>*p*\x07$y^$\x00"
"""The crafted string for a player id (at most 64 characters)."""
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SAMPLE = "samples/full-combat.jsonl"


@pytest.fixture(scope="module")
def evil_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The full-combat sample with EVIL in its match id and as the name of the card definition
    "Ashen Warcamp", PLAYER as player p2's id; hashes removed (the content changed)."""
    quoted = orjson.dumps(EVIL).decode()
    player = orjson.dumps(PLAYER).decode()
    lines = []
    with open(SAMPLE, encoding="utf-8") as f:
        for raw in f:
            data = orjson.loads(raw)
            data.pop("hash", None)
            text = orjson.dumps(data).decode()
            text = text.replace('"sample-full-combat"', quoted[:-1] + ' m"')
            text = text.replace('"p2"', player).replace('"Ashen Warcamp"', quoted[:-1] + ' c"')
            lines.append(text)
    path = tmp_path_factory.mktemp("evil") / "evil.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout + result.stderr


def _assert_terminal_safe(out: str) -> None:
    assert not RAW_CONTROL.search(out), repr(RAW_CONTROL.search(out))
    # the forged verdict never starts a line of its own
    assert not any(line.startswith("OK · 0 violations") for line in out.splitlines())


def test_the_log_carries_the_string_where_it_should(evil_log: Path) -> None:
    code, out = _run("validate", "--format", "json", str(evil_log))
    report = orjson.loads(out[: out.rindex("]") + 1])[0]
    assert report["match_id"] == EVIL + " m"
    assert PLAYER in report["players"]
    assert code in (0, 1)


@pytest.mark.parametrize(
    "args",
    [
        ("validate",),
        ("validate", "--quiet"),
        ("replay", "--board"),
        ("replay", "--priority-points"),
        ("show", "--as", PLAYER),
        ("verify",),
    ],
    ids=["validate", "validate-quiet", "replay", "points", "show", "verify"],
)
def test_terminal_output_shows_control_characters_escaped(
    evil_log: Path, args: tuple[str, ...]
) -> None:
    command, *rest = args
    _code, out = _run(command, str(evil_log), *rest)
    _assert_terminal_safe(out)
    if command != "verify" and "--quiet" not in rest:
        assert "\\x1b" in out


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--format", "json"),
        ("replay", "--format", "jsonl", "--board"),
        ("show", "--format", "json", "--as", PLAYER),
        ("diff", "--format", "json", SAMPLE),
    ],
    ids=["validate", "replay-jsonl", "show", "diff"],
)
def test_json_output_escapes_every_control_and_bidi_character(
    evil_log: Path, args: tuple[str, ...]
) -> None:
    command, *rest = args
    _code, out = _run(command, str(evil_log), *rest)
    _assert_terminal_safe(out)
    assert "\\u202e" in out


def test_json_keeps_the_strings_it_escapes() -> None:
    data = {"name": EVIL, "big": 2**70}
    import json

    assert json.loads(dumps(data)) == data
    assert json.loads(dumps(data, compact=True)) == data
    assert not RAW_CONTROL.search(dumps(data))


def test_stored_match_listing_and_lineage_are_escaped(evil_log: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'v.db'}"
    # the store refuses the crafted match id, in one clean error line
    code, out = _run("--store", db, "import", str(evil_log))
    assert code == 2
    _assert_terminal_safe(out)
    # the same log under a safe match id is stored: its players and cards are shown escaped
    stored = tmp_path / "stored.jsonl"
    quoted = orjson.dumps(EVIL + " m").decode()
    stored.write_text(evil_log.read_text(encoding="utf-8").replace(quoted, '"evil-stored"'))
    code, out = _run("--store", db, "import", str(stored))
    assert code == 1, out  # stored flagged: its card definitions are not the published ones
    _assert_terminal_safe(out)
    code, out = _run("--store", db, "list")
    assert code == 0
    _assert_terminal_safe(out)
    assert "\\x1b" in out
    for command in ("lineage", "verify", "show", "next"):
        _code, out = _run("--store", db, command, "evil-stored")
        _assert_terminal_safe(out)
    _code, out = _run("--store", db, "lineage", EVIL + " m")
    _assert_terminal_safe(out)


def test_diff_and_stats_tables_are_escaped(evil_log: Path) -> None:
    _code, out = _run("diff", str(evil_log), SAMPLE)
    _assert_terminal_safe(out)
    _code, out = _run("stats", str(evil_log))
    _assert_terminal_safe(out)


def test_markdown_report_carries_no_markup_from_the_log(evil_log: Path) -> None:
    _code, text = _run("report", str(evil_log))
    _assert_terminal_safe(text)
    for raw in ("<script", "<img", "<svg", "[link](javascript:", "*bold*", "_it_"):
        assert raw not in text, raw
    assert "&lt;script&gt;" in text
    validation = _run("validate", "--format", "markdown", str(evil_log))[1]
    for raw in ("<script", "<img", "<svg", "[link](javascript:"):
        assert raw not in validation, raw


def test_html_report_escapes_and_shows_control_characters(evil_log: Path) -> None:
    page = report_html(judged_report(evil_log, at=30))
    assert not RAW_CONTROL.search(page)
    for raw in ("<script", "<img", "<svg onload"):
        assert raw not in page, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\\x1b" in page
    assert report_markdown(judged_report(evil_log))


def test_stats_page_escapes_names_and_chart_labels(evil_log: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "stats.html"
    code, _ = _run("stats", str(evil_log), "--min-n", "1", "--html", str(out))
    assert code == 0
    page = out.read_text(encoding="utf-8")
    assert not RAW_CONTROL.search(page)
    for raw in ("<script", "<img", "<svg onload"):
        assert raw not in page, raw
    assert chart_label("$x^$") == r"\$x^\$"


def test_the_escapes_themselves() -> None:
    assert visible("a\x1bb\nc\u202e") == "a\\x1bb\nc\\u202e"
    assert term("a\nb\tc") == "a\\x0ab\\x09c"
    assert md("<b>*x*</b> [l](u)") == "&lt;b&gt;\\*x\\*&lt;/b&gt; \\[l\\](u)"
    assert md("# title") == "\\# title"
    assert md_code("a`b") == "a\\`b"
    assert md_code("vw-samples@1") == "`vw-samples@1`"
    assert table(("a", "b"), [("\x1b", 1)]).splitlines()[1] == "\\x1b  1"


def test_the_stepper_draws_a_nul_in_a_card_name_on_a_real_terminal(evil_log: Path) -> None:
    """``replay -i`` in a pseudo-terminal: a NUL (and ESC, BEL) in a name is drawn escaped,
    where curses raised on it before."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    main_fd, child_fd = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "LINES": "40", "COLUMNS": "160"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "vwlog", "replay", str(evil_log), "-i", "--from", "1"],
        stdin=child_fd,
        stdout=child_fd,
        stderr=child_fd,
        env=env,
        close_fds=True,
    )
    os.close(child_fd)
    seen = b""
    try:
        deadline = time.monotonic() + 30
        keys = iter([b"g", b"5\n", b"N", b"N", b"q"])
        while proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([main_fd], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(main_fd, 65536)
                except OSError:
                    break
            elif (key := next(keys, None)) is not None:
                os.write(main_fd, key)
        code = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)
    assert b"Traceback" not in seen, seen[-2000:]
    assert code == 0
