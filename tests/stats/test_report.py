"""Rendering: text table, JSON, CSV and the self-contained HTML page."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import struct
import subprocess
import sys
import zlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from vwlog.model.errors import UsageError
from vwlog.projections.stats import CorpusStats, StatsFilter
from vwlog.render.statspage import (
    CSV_COLUMNS,
    MATCH_COLUMNS,
    PLAYER_COLUMNS,
    SCOPE_COLUMNS,
    render_csv,
    render_html,
    render_json,
    render_matches_csv,
    render_matches_json,
    render_matches_table,
    render_table,
    report,
    table,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tests.stats.conftest import Match


@pytest.fixture(scope="module")
def stats(corpus: list[Match]) -> CorpusStats:
    return CorpusStats.build(m.metrics for m in corpus).canonical()


@pytest.fixture(scope="module")
def page(stats: CorpusStats) -> str:
    pytest.importorskip("matplotlib", reason="the HTML page needs the 'stats' extra")
    return render_html(stats, min_n=3)


def test_table_shows_every_section_and_every_rate_with_n_and_interval(stats: CorpusStats) -> None:
    text = render_table(stats, min_n=3)
    for heading in (
        "Victory types",
        "Match length (finished matches)",
        "Win rate by seat",
        "Win rate by turn order",
        "Win rate by faction",
        "Top cards by win rate when played (n ≥ 3",
        "Tempo: mean at the end of each turn",
    ):
        assert heading in text
    assert text.startswith(f"{stats.matches} matches ({stats.finished} finished")
    seat_block = text.split("Win rate by seat")[1].split("\n\n")[0]
    assert "n  wins  win rate  95% CI" in seat_block
    for line in seat_block.splitlines()[2:]:
        assert "%–" in line, line  # an interval on every row


def test_table_aligns_columns() -> None:
    assert table(("name", "n"), [("a", 1), ("long name", 100)]).splitlines() == [
        "name         n",
        "a            1",
        "long name  100",
    ]


def test_json_has_stable_keys_and_round_trips(stats: CorpusStats) -> None:
    text = render_json(stats, min_n=3)
    data = json.loads(text)
    assert data == json.loads(json.dumps(report(stats, min_n=3)))
    assert list(data) == sorted(data)
    assert render_json(CorpusStats.model_validate_json(stats.model_dump_json()), min_n=3) == text
    seat = data["win_rate"]["by_seat"][0]
    assert set(seat) == {"seat", "n", "wins", "rate", "ci95_low", "ci95_high"}
    assert seat["ci95_low"] <= seat["rate"] <= seat["ci95_high"]
    card = data["cards"][0]
    assert set(card["played"]) == {"n", "wins", "rate", "ci95_low", "ci95_high"}
    assert sum(v["matches"] for v in data["victory_types"]) == data["corpus"]["matches"]


def test_csv_parses_one_row_per_metric(stats: CorpusStats) -> None:
    text = render_csv(stats, min_n=3)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    sections = {r["section"] for r in rows}
    assert {"corpus", "victory_type", "win_rate_by_seat", "tempo"} <= sections
    keys = [(r["section"], r["group"], r["metric"]) for r in rows]
    assert len(keys) == len(set(keys)), "one row per metric of one group"
    for r in rows:
        if r["metric"] == "win_rate" and r["n"] != "0":
            assert float(r["ci95_low"]) <= float(r["value"]) <= float(r["ci95_high"])
            assert int(r["wins"]) <= int(r["n"])
    matches = next(r for r in rows if r["section"] == "corpus" and r["metric"] == "matches")
    assert int(matches["value"]) == stats.matches


def test_csv_loads_in_pandas(stats: CorpusStats) -> None:
    pd = pytest.importorskip("pandas", reason="pandas is not installed")
    frame = pd.read_csv(io.StringIO(render_csv(stats)))
    assert list(frame.columns) == list(CSV_COLUMNS)
    assert frame["value"].dtype.kind == "f"


def test_per_match_outputs(corpus: list[Match]) -> None:
    metrics = [m.metrics for m in corpus[:3]]
    rows = list(csv.DictReader(io.StringIO(render_matches_csv(metrics))))
    assert tuple(rows[0]) == (*MATCH_COLUMNS, *SCOPE_COLUMNS, *PLAYER_COLUMNS)
    match_rows = [r for r in rows if r["scope"] == "match"]
    assert len(match_rows) == 6
    assert len(rows) == 6 + sum(len(p.tempo) for m in metrics for p in m.players)
    assert rows[0]["match_id"] == metrics[0].match_id
    assert rows[0]["turn"] == ""
    assert int(rows[0]["gold_produced"]) == metrics[0].players[0].gold_produced
    first = metrics[0].players[0]
    turn_rows = rows[1 : 1 + len(first.tempo)]
    assert [int(r["turn"]) for r in turn_rows] == [t.turn for t in first.tempo]
    for r, t in zip(turn_rows, first.tempo, strict=True):
        assert r["scope"] == "turn"
        assert r["player"] == first.player
        assert int(r["gold_spent"]) == t.gold_spent
        assert int(r["final_gold"]) == t.gold
        assert int(r["cards_drawn"]) == t.cards_drawn
        assert r["decision_n"] == ""
    for column in PLAYER_COLUMNS:
        if column.startswith(("gold_", "cards_", "territories_", "followers_", "supply_")) or (
            column in {"attacks_declared", "attackers_declared", "blocks", "skills_registered"}
        ):
            assert sum(int(r[column]) for r in turn_rows) == int(rows[0][column]), column
    data = json.loads(render_matches_json(metrics))
    assert [type(metrics[0]).model_validate(d) for d in data] == metrics
    text = render_matches_table(metrics)
    assert text.count("\n\n") == 2
    assert metrics[0].match_id in text


def test_html_page_is_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page
    assert "https://" not in page
    assert "<script" not in page
    assert "<link" not in page
    assert page.count("<svg") >= 6
    assert "xmlns" not in page
    assert "Win rate by seat" in page


def test_html_is_reproducible(stats: CorpusStats, page: str) -> None:
    when = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    again = render_html(stats, min_n=3, generated=when)
    assert again == render_html(stats, min_n=3, generated=when)
    assert "generated 2026-01-02 03:04 UTC by vwlog " in again

    def undated(text: str) -> str:
        return re.sub(r"generated [^<]* by vwlog", "", text)

    assert undated(again) == undated(page)


def test_html_says_its_source_filters_and_date_and_shows_no_raw_rest(stats: CorpusStats) -> None:
    page = render_html(stats, min_n=3, source="corpus/")
    assert "Source: corpus/ · filters: none · generated " in page
    assert "``" not in page
    assert "<code>None</code>" in page
    filtered = stats.model_copy(update={"filters": StatsFilter(player="p1")})
    assert "filters: player p1" in render_html(filtered, min_n=3)


def test_html_without_matplotlib_names_the_extra(
    stats: CorpusStats, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(UsageError, match=r"pip install 'vwlog\[stats\]'") as info:
        render_html(stats)
    assert "\n" not in str(info.value)


def png_variance(png: bytes) -> float:
    """Variance of the bytes of a PNG's decoded scanlines (0 for a blank page)."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pos, data = 8, b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        if kind == b"IDAT":
            data += png[pos + 8 : pos + 8 + length]
        pos += 12 + length
    pixels = zlib.decompress(data)
    sample = pixels[:: max(1, len(pixels) // 200_000)]
    mean = sum(sample) / len(sample)
    return sum((b - mean) ** 2 for b in sample) / len(sample)


CONSOLE = re.compile(r":CONSOLE[(:\]]")
"""A line Chromium logs for a message of the page's console (``console.log``, ``.error``, …):
``[pid:tid:time:INFO:CONSOLE:1] "text", source: …`` (older builds: ``INFO:CONSOLE(1)``); the
level is always INFO, whatever the method."""


def console_lines(stderr: str) -> list[str]:
    """The lines of Chromium's log that report a console message or an uncaught error."""
    return [line for line in stderr.splitlines() if CONSOLE.search(line) or "Uncaught" in line]


def test_console_lines_catch_every_console_message() -> None:
    log = (
        '[1:1:0101/000000.1:INFO:CONSOLE:1] "boom", source: file:///tmp/x.html (1)\n'
        '[1:1:0101/000000.2:INFO:CONSOLE(7)] "old style", source: file:///tmp/x.html (7)\n'
        "[1:1:0101/000000.3:WARNING:gpu_init.cc(12)] not a console line\n"
    )
    assert len(console_lines(log)) == 2


def chromium_screenshot(page: str, out: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Open ``page`` in headless Chromium and take a screenshot into ``out``."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    shot = out / "out.png"
    args = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={out / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
        f"--screenshot={shot}",
        "--window-size=1200,2000",
        path.as_uri(),
    ]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)
    return done, shot


def test_html_opens_in_headless_chromium_without_errors(page: str, tmp_path: Path) -> None:
    done, shot = chromium_screenshot(page, tmp_path)
    print(f"screenshot of the report: {shot}")  # shown with pytest -rP
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_lines(done.stderr) == []
    assert shot.exists()
    png = shot.read_bytes()
    assert len(png) > 20_000
    assert png_variance(png) > 100


def test_the_chromium_check_sees_a_console_error(tmp_path: Path) -> None:
    """The check above would fail on a page that logs to the console."""
    bad = (
        "<!DOCTYPE html><html><body><p>report</p>"
        '<script>console.error("vwlog-console-probe")</script></body></html>'
    )
    done, _shot = chromium_screenshot(bad, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = console_lines(done.stderr)
    assert lines, done.stderr[-2000:]
    assert any("vwlog-console-probe" in line for line in lines)


def test_an_empty_corpus_renders_everywhere() -> None:
    empty = CorpusStats()
    assert render_table(empty).startswith("0 matches (0 finished, 0 unfinished)")
    assert json.loads(render_json(empty))["corpus"]["matches"] == 0
    assert render_csv(empty).startswith(",".join(CSV_COLUMNS))
    pytest.importorskip("matplotlib", reason="the HTML page needs the 'stats' extra")
    assert "<svg" in render_html(empty)
