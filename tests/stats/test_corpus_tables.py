"""``vwlog stats`` on what a corpus analyst looks for first: a tempo table that stops where too
few matches reached a turn, faction-against-faction matchups with their intervals, deck
archetypes on generated corpora (whose random decks never repeat), and ``--html`` writing the
page alone."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main
from vwlog.io.logfile import write_log
from vwlog.projections.stats import CorpusStats, WinCount, deck_archetype

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

    from tests.stats.conftest import Match


def _tempo_turns(stdout: str) -> list[tuple[int, int]]:
    section = stdout.split("Tempo: mean at the end of each turn\n", 1)[1]
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s", section, flags=re.MULTILINE)
    return [(int(t), int(n)) for t, n in rows]


def test_tempo_leaves_out_the_turns_too_few_sides_reached(runner: CliRunner, log_dir: Path) -> None:
    result = runner.invoke(main, ["stats", str(log_dir), "--min-n", "20"])
    assert result.exit_code == 0, result.stderr
    shown = _tempo_turns(result.stdout)
    assert shown, result.stdout
    assert all(n >= 20 for _t, n in shown)
    data = json.loads(runner.invoke(main, ["stats", str(log_dir), "--format", "json"]).stdout)
    every = {t["turn"]: t["n"] for t in data["tempo"]}  # JSON keeps every turn, with its n
    cut = sorted(t for t, n in every.items() if n < 20)
    assert cut, "the corpus should have turns fewer than 20 sides reached"
    assert max(t for t, _n in shown) < min(cut)
    first, last = cut[0], cut[-1]
    assert (
        f"turns {first}–{last} left out: fewer than 20 player-matches reached them "
        f"(at most {max(every[t] for t in cut)})"
    ) in result.stdout


def test_matchup_table_in_text_json_csv_and_html(
    runner: CliRunner, log_dir: Path, corpus: list[Match], tmp_path: Path
) -> None:
    duels = [m.metrics for m in corpus[:12]]
    expected: dict[tuple[str, str], WinCount] = {}
    for m in duels:
        if not m.finished:
            continue
        a, b = m.players
        for me, them in ((a, b), (b, a)):
            expected.setdefault((me.faction, them.faction), WinCount()).record(won=me.won)
    data = json.loads(runner.invoke(main, ["stats", str(log_dir), "--format", "json"]).stdout)
    got = {(r["faction"], r["opponent"]): r for r in data["win_rate"]["by_matchup"]}
    assert set(got) == set(expected)
    for key, w in expected.items():
        low, high = w.interval()
        assert (got[key]["n"], got[key]["wins"]) == (w.n, w.wins)
        assert got[key]["ci95_low"] == pytest.approx(low, abs=1e-6)
        assert got[key]["ci95_high"] == pytest.approx(high, abs=1e-6)
    # each result is seen from both sides: A's wins over B are B's losses to A
    for (a, b), w in expected.items():
        assert w.wins == expected[b, a].n - expected[b, a].wins
    text = runner.invoke(main, ["stats", str(log_dir)]).stdout
    section = text.split("Win rate by matchup (deck faction against the opponent's)\n", 1)[1]
    (a, b), w = next((k, v) for k, v in sorted(expected.items()) if k[0] != k[1])
    assert re.search(rf"^\s+{a}\s+{b}\s+{w.n}\s+{w.wins}\s", section, flags=re.MULTILINE)
    csv = runner.invoke(main, ["stats", str(log_dir), "--format", "csv"]).stdout
    assert f"win_rate_by_matchup,{a} vs {b},win_rate," in csv
    pytest.importorskip("matplotlib", reason="the HTML page needs the 'stats' extra")
    page = tmp_path / "stats.html"
    assert runner.invoke(main, ["stats", str(log_dir), "--html", str(page)]).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "Win rate by matchup" in html
    assert "Win rate by deck archetype" in html


def test_html_writes_the_page_and_says_so_in_one_line(
    runner: CliRunner, log_dir: Path, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib", reason="the HTML page needs the 'stats' extra")
    page = tmp_path / "report.html"
    result = runner.invoke(main, ["stats", str(log_dir), "--html", str(page)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"wrote {page}\n"
    assert "<svg" in page.read_text(encoding="utf-8")


def test_generated_decks_never_repeat_so_archetypes_rank_them(
    runner: CliRunner, log_dir: Path, corpus: list[Match]
) -> None:
    result = runner.invoke(main, ["stats", str(log_dir), "--min-n", "3"])
    assert result.exit_code == 0, result.stderr
    decks = result.stdout.split("Decks with n ≥ 3 (24 distinct decks)\n", 1)[1]
    assert decks.startswith(
        "  (none: decks are told apart by their exact cards, and none was in 3 finished "
        "matches, the most played in 1; the archetypes below group decks by faction)"
    )
    stats = CorpusStats.build(m.metrics for m in corpus[:12])
    ranked = stats.archetype_rows(3)
    assert ranked, "twelve generated duels should share some archetype three times"
    section = result.stdout.split("(the deck's two most common factions)\n", 1)[1]
    for name, w in ranked:
        assert re.search(rf"^\s+{re.escape(name)}\s+{w.n}\s+{w.wins}\s", section, re.MULTILINE)
    data = json.loads(runner.invoke(main, ["stats", str(log_dir), "--format", "json"]).stdout)
    by = {r["archetype"]: r["n"] for r in data["win_rate"]["by_archetype"]}
    assert sum(by.values()) == sum(1 for m in corpus[:12] if m.metrics.finished) * 2
    one = corpus[0].metrics.players[0]
    cards = corpus[0].metrics.cards
    factions = [cards[c].faction for c, n in one.deck.items() for _ in range(n)]
    assert deck_archetype(factions).split("+")[0] in {f for f in factions if f}


def test_repeated_decks_are_ranked(runner: CliRunner, corpus: list[Match], tmp_path: Path) -> None:
    """The same deck in many matches is one deck (the figure works; generated corpora simply
    never repeat one)."""
    m = corpus[0]
    for i in range(3):
        header = m.header.model_copy(update={"match_id": f"again-{i}"})
        write_log(tmp_path / f"again-{i}.jsonl", header, m.records)
    result = runner.invoke(main, ["stats", str(tmp_path), "--min-n", "3"])
    assert result.exit_code == 0, result.stderr
    assert "Decks with n ≥ 3 (2 distinct decks)\n  deck " in result.stdout
