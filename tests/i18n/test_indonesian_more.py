"""The last English with ``--lang id``: the text board (``show``, ``replay --board``, the
stepper), ``rebase``, ``pool``/``keys``/``sign``, ``rules``, ``simulate``'s victories and the
per-log error line of a multi-file ``validate``/``stats``. Golden Indonesian outputs where the
whole text matters; the English output stays as it was (its own goldens and CLI tests)."""

from __future__ import annotations

import pytest

from vwlog.io import i18n

from .test_language import INVALID, SAMPLES, _golden, _run, plain_env

__all__ = ["plain_env"]

FULL = SAMPLES / "full-combat.jsonl"


@pytest.mark.golden
def test_golden_show_in_indonesian(plain_env: None, request: pytest.FixtureRequest) -> None:
    code, out, _err = _run(["--lang", "id", "show", str(FULL), "--at", "120", "--as", "p1"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "setelah seq 120"
    assert lines[1] == "turn 2 · aktif p2 · COMBAT/C3 · prioritas p2 (pass 0)"
    assert " p1: gold 10 honor 5 VP 0 · tangan 3 deck 10 Graveyard 0" in lines
    assert "        p2-003 Gold Prospector 1/0/2 (ter-slide, Fatigue)" in lines
    _golden("show.id.txt", out, request)
    code, english, _err = _run(["show", str(FULL), "--at", "120", "--as", "p1"])
    assert english.splitlines()[:2] == [
        "after seq 120",
        "turn 2 · active p2 · COMBAT/C3 · priority p2 (passes 0)",
    ]
    assert "        p2-003 Gold Prospector 1/0/2 (slid, fatigued)" in english


@pytest.mark.golden
def test_golden_replay_board_in_indonesian(plain_env: None, request: pytest.FixtureRequest) -> None:
    sample = str(SAMPLES / "absolute-victory.jsonl")
    code, out, _err = _run(
        ["--lang", "id", "replay", sample, "--board", "--from", "1", "--to", "6"]
    )
    assert code == 0
    assert "active" not in out and "grave " not in out
    _golden("replay-board.id.txt", out, request)
    code, out, _err = _run(["--lang", "id", "replay", sample, "--board", "--from", "30"])
    assert "turn 1 · aktif p1 · MAIN1 · DIMENANGKAN p1 (ABSOLUTE)" in out
    assert "register (teratas di akhir):" in out


def test_the_board_is_english_by_default_and_indonesian_when_asked() -> None:
    from vwlog.cli.options import LoadedMatch
    from vwlog.cli.stepper import build_stepper
    from vwlog.io.logfile import read_log
    from vwlog.render.text import board_text

    header, records = read_log(INVALID)
    match = LoadedMatch(str(INVALID), header, ((r.seq + 1, r) for r in records))
    stepper = build_stepper(match, start_seq=193, player=None)
    timeline = stepper.timeline
    for i in range(len(timeline)):
        state = timeline.step(i).after
        assert board_text(state) == str(state)
    last = timeline.step(len(timeline) - 1).after
    with i18n.using_language("id"):
        said = board_text(last)
        stepper.index = len(timeline) - 1
        body = "\n".join(stepper.body())
    assert said != str(last)
    assert said.splitlines()[0].startswith("turn ")
    assert said in body
