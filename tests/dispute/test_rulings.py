"""Judges' rulings end to end: a warning, a back-up (voided events, play going on from the
restored board), a game loss (the loser out, the other player winning by JUDGE) and a partial
fix (its corrections applied, the game as played kept)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main
from vwlog.engine.replay import Collect, FinalState, replay
from vwlog.engine.seek import state_at
from vwlog.events import CardMoved, EventRecord, GoldChanged, JudgeRulingIssued, MatchWon
from vwlog.games.vw.play import play
from vwlog.io.logfile import read_log
from vwlog.model.types import RulingKind, Victory, Zone
from vwlog.render.markdown import report_markdown, voided_markdown
from vwlog.services import validate_log

from .logs import events, judged_report, load, sample, write

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

    from vwlog.events import AnyEvent

WARNING = JudgeRulingIssued(
    judge="Floor Judge", kind=RulingKind.WARNING, reason="p2 took too long to pass"
)
GAME_LOSS = JudgeRulingIssued(
    judge="Head Judge",
    kind=RulingKind.GAME_LOSS,
    reason="marked sleeves found in p2's deck",
    loser="p2",
)


def ruled_match() -> list[AnyEvent]:
    """judge-backup (a back-up at seq 25 voiding seq 20..24), a warning at seq 33, and a game
    loss for p2 at the end, followed by the win the rules demand."""
    _, records = load("judge-backup.jsonl")
    evs = events(records)
    with_warning = [*evs[:32], WARNING, *evs[32:]]
    recs = [EventRecord(seq=i + 1, event=e) for i, e in enumerate(with_warning)]
    final = replay(recs, FinalState())
    assert final.ruleset is not None
    _, tail = play(final.ruleset, final, GAME_LOSS)
    return [*with_warning, *tail]


@pytest.fixture
def ruled(tmp_path: Path) -> Path:
    return write(tmp_path / "ruled.jsonl", ruled_match(), match_id="ruled", close=True)


def test_the_game_loss_wins_by_judge() -> None:
    evs = ruled_match()
    assert evs[-2] == GAME_LOSS
    assert evs[-1] == MatchWon(winner="p1", victory=Victory.JUDGE)


def test_validation_understands_every_ruling(ruled: Path) -> None:
    report = validate_log(ruled)
    assert report.ok, report.violations
    assert report.rulings == 3
    assert report.voided == [(20, 24)]
    assert (report.winner, report.victory) == ("p1", "JUDGE")
    assert report.complete


def test_play_goes_on_from_the_restored_board(ruled: Path) -> None:
    _, records = read_log(ruled)
    steps = {s.record.seq: s for s in replay(records, Collect())}
    backup = steps[25]
    assert backup.voids == (20, 24)
    restored = state_at(records, 19)
    assert backup.after == restored
    # the voided summon's card is back in p1's hand and Knight Lancer takes its object id
    assert "p1-002" in backup.after.player("p1").hand
    assert not steps[27].violations
    assert steps[27].before.objects == 1
    # the warning changes nothing on the board
    assert str(steps[33].after) == str(steps[33].before)
    assert steps[33].after.players == steps[33].before.players
    # the game loss puts p2 out
    loss = next(s for s in steps.values() if s.record.event == GAME_LOSS)
    assert loss.after.player("p2").out


def test_a_game_loss_recorded_as_a_concession_is_flagged(tmp_path: Path) -> None:
    evs = ruled_match()
    wrong = [*evs[:-1], MatchWon(winner="p1", victory=Victory.CONCESSION)]
    report = validate_log(write(tmp_path / "wrong.jsonl", wrong, close=True))
    assert [v.seq for v in report.violations] == [len(evs)]
    assert report.violations[0].rule == "R-VIC-4"


def test_validate_shows_the_voided_events(runner: CliRunner, ruled: Path) -> None:
    result = runner.invoke(main, ["validate", str(ruled)])
    assert result.exit_code == 0
    assert "voided by a judge's back-up: seq 20..24" in result.stdout
    assert "won by p1 (JUDGE)" in result.stdout
    markdown = voided_markdown(validate_log(ruled))
    assert "- seq 20..24 (5 events)" in markdown


def test_no_voided_events_renders_nothing() -> None:
    assert voided_markdown(validate_log(sample("full-combat.jsonl"))) == ""


def test_the_report_lists_every_ruling(ruled: Path) -> None:
    text = report_markdown(judged_report(ruled))
    assert "### seq 25: back up to seq 19, by Head Judge" in text
    assert "| 21 | ~~p1 summons Militia Spearman (p1-002) for 1 gold into Ashen Warcamp" in text
    assert "### seq 33: warning, by Floor Judge" in text
    assert "> p2 took too long to pass" in text
    assert "game loss for p2, by Head Judge" in text
    assert "won by p1 (JUDGE)" in text
    assert "- Voided by a judge's back-up: seq 20..24" in text


# -- partial fix: corrections applied, the game as played kept ------------------------------------

SHORTED = JudgeRulingIssued(
    judge="Head Judge",
    kind=RulingKind.PARTIAL_FIX,
    reason="p1 was given 3 gold too little at seq 10",
    corrections=(GoldChanged(player="p1", delta=3),),
)


def with_ruling(ruling: JudgeRulingIssued, after_seq: int = 14) -> list[AnyEvent]:
    """full-combat with ``ruling`` right after seq ``after_seq`` (a priority point)."""
    _, records = load("full-combat.jsonl")
    evs = events(records)
    return [*evs[:after_seq], ruling, *evs[after_seq:]]


def test_a_partial_fix_applies_its_corrections_and_the_game_goes_on(tmp_path: Path) -> None:
    log = write(tmp_path / "fixed.jsonl", with_ruling(SHORTED), match_id="fixed", close=True)
    report = validate_log(log)
    assert report.ok, report.violations
    assert report.rulings == 1
    _, records = read_log(log)
    before, after = state_at(records, 14), state_at(records, 15)
    assert after.player("p1").gold == before.player("p1").gold + 3
    # the game as played: the same log without the ruling is the original record
    assert [e for e in events(records) if e != SHORTED] == events(load("full-combat.jsonl")[1])


@pytest.mark.parametrize(
    ("ruling", "message"),
    [
        (
            JudgeRulingIssued(judge="J", kind=RulingKind.PARTIAL_FIX, reason="nothing"),
            "a partial fix names no correction",
        ),
        (
            WARNING.model_copy(update={"corrections": (GoldChanged(player="p1", delta=1),)}),
            "a warning ruling carries corrections; only a partial fix does",
        ),
        (
            SHORTED.model_copy(update={"corrections": (GoldChanged(player="p9", delta=1),)}),
            "p9",
        ),
        (
            SHORTED.model_copy(
                update={"corrections": (CardMoved(card="no-such-card", to_zone=Zone.GRAVEYARD),)}
            ),
            "no-such-card",
        ),
    ],
)
def test_a_ruling_that_cannot_be_carried_out_is_a_violation(
    tmp_path: Path, ruling: JudgeRulingIssued, message: str
) -> None:
    report = validate_log(
        write(tmp_path / "bad.jsonl", with_ruling(ruling), match_id="bad", close=True)
    )
    assert [v.seq for v in report.violations] == [15]
    assert message in report.violations[0].message


def test_a_partial_fix_is_described_with_its_corrections(runner: CliRunner, tmp_path: Path) -> None:
    log = write(tmp_path / "fixed.jsonl", with_ruling(SHORTED), match_id="fixed", close=True)
    result = runner.invoke(main, ["replay", str(log), "--from", "15", "--to", "15"])
    assert result.exit_code == 0, result.output
    assert "Ruling by Head Judge: partial fix (p1 gains 3 gold)" in result.stdout
