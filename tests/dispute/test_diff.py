"""``vwlog diff``: two records of one match, where they part and what it does to the board."""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

import orjson
import pytest

from vwlog.audit.diff import diff_logs, diff_matches
from vwlog.audit.sources import records_source
from vwlog.cli import main
from vwlog.events import JudgeRulingIssued, OpeningHandDrawn, PriorityPassed
from vwlog.io.logfile import read_log
from vwlog.model.types import RulingKind
from vwlog.render.text import diff_text

from .logs import alter_byte, branch, events, load, sample, write

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

    from vwlog.events import AnyEvent


# -- where the records part ------------------------------------------------------------------


def test_diverging_at_the_start_in_a_consequence(tmp_path: Path) -> None:
    # p1's opening hand recorded with the seventh card of the deck instead of the sixth
    _, records = load("full-combat.jsonl")
    evs = events(records)
    hand = evs[1]
    assert isinstance(hand, OpeningHandDrawn)
    wrong = OpeningHandDrawn(player=hand.player, cards=(*hand.cards[:-1], "p1-007"))
    other = write(tmp_path / "b.jsonl", [evs[0], wrong, *evs[2:]])

    report = diff_logs(sample("full-combat.jsonl"), other)

    assert report.outcome == "diverged"
    d = report.divergence
    assert d is not None
    assert (d.seq, report.common) == (2, 1)
    assert not d.a.decision
    assert not d.a.violations
    assert d.b.violations, "an opening hand that is not the top of the deck breaks a rule"
    text = diff_text(report)
    assert "diverge at seq 2, after 1 common event" in text
    story = next(x.text for x in d.differences if x.key == "p1-006")
    assert story.startswith("in A, ")
    assert "p1's hand" in story
    assert "p1's Fate Deck" in story


def test_diverging_in_the_middle_at_a_decision() -> None:
    report = diff_logs(sample("full-combat.jsonl"), sample("invalid/damage-over-atk.jsonl"))

    d = report.divergence
    assert d is not None
    assert d.seq == 193
    assert d.a.decision
    assert d.b.decision
    assert not d.a.violations
    assert [v.rule for v in d.b.violations] == ["R-CMB-19"]
    # the same events follow from seq 196, but the boards differ (the damage) until seq 210,
    # after step 9 destroyed the Warcamp in both (its damage result first, R-CMB-29)
    assert d.agree_again == (210, 210)
    warcamp = next(x for x in d.differences if x.key == "p2-001")
    assert "in A, Ashen Warcamp (p2-001) has 6 damage" in warcamp.text
    # B's Raze damage (3) and then step 9's (4), which results before the Warcamp goes
    assert "in B it has 7 damage" in warcamp.text
    text = diff_text(report)
    assert "R-CMB-19 The active player decides how each of their Followers' ATK damage" in text
    assert "A: legal" in text


def test_diverging_at_a_consequence_names_the_missing_death() -> None:
    report = diff_logs(sample("full-combat.jsonl"), sample("invalid/follower-death-missing.jsonl"))

    d = report.divergence
    assert d is not None
    assert d.seq == 200
    assert d.a.type == "followers_destroyed"
    assert d.b.type == "priority_passed"
    assert [v.rule for v in d.b.violations] == ["R-CMB-26"]
    # B leaves the death out and then records A's events one seq earlier: the same events, but
    # never the same board again (the Spearman stays in play in B), so no agreement
    assert d.agree_again is None
    stretch_a, stretch_b = d.stretch
    assert [e.seq for e in stretch_a][:2] == [200, 201]
    assert [e.seq for e in stretch_b][:2] == [200, 201]
    spearman = next(x.text for x in d.differences if x.key == "p2-002")
    assert spearman.startswith("in A, Militia Spearman (p2-002) has 1 damage and goes to p2's")
    assert "Graveyard at seq 200" in spearman
    assert report.a.events == 238  # the last is the seal
    assert report.b.events == 237


def test_diverging_near_the_end(tmp_path: Path) -> None:
    header, records = load("generated-military.jsonl")
    n = len(records)
    k = next(
        r.seq for r in reversed(records) if isinstance(r.event, PriorityPassed) and r.seq < n - 3
    )
    changed = [*events(records)]
    changed[k - 1] = PriorityPassed(player="nobody")
    other = write(tmp_path / "b.jsonl", changed, match_id=header.match_id)

    report = diff_logs(sample("generated-military.jsonl"), other)

    d = report.divergence
    assert d is not None
    assert d.seq == k > n * 0.9
    assert not d.a.violations
    assert d.b.violations
    assert report.common == k - 1


def test_both_decisions_legal_in_a_three_player_match(tmp_path: Path) -> None:
    _, records = load("multiplayer-3.jsonl")
    # p2 holds priority in combat step 6; the other record casts Tax Collection instead
    other = write(tmp_path / "b.jsonl", branch(records, 146, more=20))

    report = diff_logs(sample("multiplayer-3.jsonl"), other)

    d = report.divergence
    assert d is not None
    assert d.seq == 146
    assert d.a.type == "priority_passed"
    assert d.b.type == "cost_paid"
    assert not d.a.violations
    assert not d.b.violations
    keys = {x.key for x in d.differences}
    assert "p2-003" in keys
    assert "p2.gold" in keys
    tax = next(x.text for x in d.differences if x.key == "p2-003")
    assert "in A, Tax Collection (p2-003) stays in p2's hand" in tax
    assert "goes on the register at seq 147" in tax
    text = diff_text(report)
    assert "A: legal" in text
    assert "B: legal" in text
    assert "p2's hand: 5 cards in A, 4 cards in B" in text


def test_identical_records_with_different_match_ids(tmp_path: Path) -> None:
    _, records = load("full-combat.jsonl")
    other = write(tmp_path / "p2.jsonl", [r.event for r in records], match_id="p2-copy")

    report = diff_logs(sample("full-combat.jsonl"), other)

    assert report.same
    assert report.common == 238
    assert diff_text(report).endswith("identical: 238 events")


def test_one_record_a_prefix_of_the_other(tmp_path: Path) -> None:
    _, records = load("full-combat.jsonl")
    short = write(tmp_path / "short.jsonl", events(records)[:150])

    report = diff_logs(short, sample("full-combat.jsonl"))

    assert report.outcome == "prefix"
    assert report.longer == "B"
    assert report.continuation[0].seq == 151
    assert not report.continuation[0].violations
    text = diff_text(report)
    assert "A ends at seq 150; B continues with 88 more events:" in text


def test_records_in_memory() -> None:
    _, a = load("full-combat.jsonl")
    _, b = load("invalid/damage-over-atk.jsonl")
    report = diff_matches(records_source("a", a), records_source("b", b))
    assert report.divergence is not None
    assert report.divergence.seq == 193


def test_a_back_up_in_the_common_prefix_restores_the_board(tmp_path: Path) -> None:
    # judge-backup: a back-up at seq 25 voids the Militia Spearman's summon (seq 20..24); p1
    # then pays for Knight Lancer (26) and summons it as o2 (27). The other record passes
    # instead of summoning.
    _, records = load("judge-backup.jsonl")
    evs = events(records)
    b = write(tmp_path / "b.jsonl", [*evs[:26], PriorityPassed(player="p1"), *evs[27:]])

    report = diff_logs(sample("judge-backup.jsonl"), b)

    d = report.divergence
    assert d is not None
    assert d.seq == 27
    # o2 is the next object only on the restored board (the voided summon had taken o2)
    assert not d.a.violations
    assert d.b.violations
    assert "p1-002" not in {x.key for x in d.differences}
    lancer = next(x.text for x in d.differences if x.key == "p1-003")
    assert "enters play guarding Ashen Warcamp (p1-001) at seq 30" in lancer


# -- the command -----------------------------------------------------------------------------


def test_cli_exit_codes_and_json(runner: CliRunner, tmp_path: Path) -> None:
    path = str(sample("full-combat.jsonl"))
    same = runner.invoke(main, ["diff", path, path])
    assert same.exit_code == 0
    assert same.stdout.strip().endswith("identical: 238 events")

    diverged = runner.invoke(
        main,
        [
            "diff",
            "--format",
            "json",
            str(sample("full-combat.jsonl")),
            str(sample("invalid/damage-over-atk.jsonl")),
        ],
    )
    assert diverged.exit_code == 1
    data = orjson.loads(diverged.stdout)
    assert data["outcome"] == "diverged"
    assert data["divergence"]["seq"] == 193
    assert data["divergence"]["legal"] == {"a": True, "b": False}
    assert data["divergence"]["b"]["violations"][0]["rule"] == "R-CMB-19"
    assert data["divergence"]["differences"][0]["subject"] == "card"


def test_cli_refuses_records_of_different_matches(runner: CliRunner) -> None:
    result = runner.invoke(
        main, ["diff", str(sample("full-combat.jsonl")), str(sample("first-turn-supply.jsonl"))]
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("Error: ")
    assert "records of different matches" in lines[0]
    assert "match_started events differ in" in lines[0]


def test_cli_unreadable_input(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    result = runner.invoke(main, ["diff", str(bad), str(sample("full-combat.jsonl"))])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")


@pytest.mark.parametrize("tamper_seq", [120])
def test_a_record_altered_after_export(runner: CliRunner, tmp_path: Path, tamper_seq: int) -> None:
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    assert (
        runner.invoke(
            main, ["--store", store, "import", str(sample("full-combat.jsonl"))]
        ).exit_code
        == 0
    )
    exported = tmp_path / "exported.jsonl"
    result = runner.invoke(
        main, ["--store", store, "export", "sample-full-combat", "-o", str(exported)]
    )
    assert result.exit_code == 0
    _, records = read_log(exported)
    tamper_seq = next(
        r.seq for r in records if r.seq >= tamper_seq and isinstance(r.event, PriorityPassed)
    )
    event = records[tamper_seq - 1].event
    assert isinstance(event, PriorityPassed)
    other = "p2" if event.player == "p1" else "p1"
    alter_byte(
        exported,
        tamper_seq,
        f'"player":"{event.player}"'.encode(),
        f'"player":"{other}"'.encode(),
    )

    verify = runner.invoke(main, ["verify", str(exported)])
    assert verify.exit_code == 1
    assert f"BROKEN at seq {tamper_seq}" in verify.stdout

    # the stored match against the altered export: diff names the seq and the alteration
    diff = runner.invoke(main, ["--store", store, "diff", "sample-full-combat", str(exported)])
    assert diff.exit_code == 1, diff.output
    assert f"diverge at seq {tamper_seq}" in diff.stdout
    assert f"integrity: in B, the record at seq {tamper_seq} does not match its hash chain" in (
        diff.stdout
    )
    assert "  A: legal" in diff.stdout
    assert "  B: R-" in diff.stdout  # a pass by the player who does not hold priority


def test_cli_unknown_match(runner: CliRunner, tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    result = runner.invoke(
        main, ["--store", store, "diff", "no-such", str(sample("full-combat.jsonl"))]
    )
    assert result.exit_code == 2
    assert "no stored match 'no-such'" in result.stderr


def test_copy_is_identical(runner: CliRunner, tmp_path: Path) -> None:
    copy = tmp_path / "copy.jsonl"
    shutil.copy(sample("multiplayer-3.jsonl"), copy)
    result = runner.invoke(main, ["diff", str(copy), str(sample("multiplayer-3.jsonl"))])
    assert result.exit_code == 0


def test_one_event_is_counted_in_the_singular(runner: CliRunner, tmp_path: Path) -> None:
    _, records = load("full-combat.jsonl")
    one = write(tmp_path / "one.jsonl", events(records)[:1])
    two = write(tmp_path / "two.jsonl", events(records)[:2])

    same = runner.invoke(main, ["diff", str(one), str(one)])
    assert same.exit_code == 0
    assert same.stdout.splitlines() == [
        f"A: {one} · match second-record · 1 event",
        f"B: {one} · match second-record · 1 event",
        "identical: 1 event",
    ]

    longer = diff_text(diff_logs(one, two))
    assert "A ends at seq 1; B continues with 1 more event:" in longer
    assert f"B: {two} · match second-record · 2 events" in longer


# -- agreeing again means the same position --------------------------------------------------


def _warned(evs: list[AnyEvent], at: int) -> list[AnyEvent]:
    """``evs`` with a judge's warning inserted before seq ``at`` (a ruling that changes no
    board: the record goes on from the same position, one seq later)."""
    warning = JudgeRulingIssued(judge="j1", kind=RulingKind.WARNING, reason="slow play")
    return [*evs[: at - 1], warning, *evs[at - 1 :]]


def test_identical_events_from_different_boards_are_no_agreement() -> None:
    # B assigns less damage at seq 193; the same events follow from seq 196, but B's board
    # keeps the different damage until step 9 destroys the Warcamp in both: they agree only
    # from seq 210
    report = diff_logs(sample("full-combat.jsonl"), sample("invalid/damage-over-atk.jsonl"))

    d = report.divergence
    assert d is not None
    assert d.seq == 193
    assert d.agree_again == (210, 210)
    assert d.part_again is None
    stretch_a, stretch_b = d.stretch
    assert [e.seq for e in stretch_a] == list(range(193, 210))
    assert [e.seq for e in stretch_b] == list(range(193, 210))
    assert "the records agree again from seq 210; until then:" in diff_text(report)


def test_the_same_events_on_another_board_never_agree() -> None:
    report = diff_logs(sample("full-combat.jsonl"), sample("invalid/follower-death-missing.jsonl"))

    d = report.divergence
    assert d is not None
    assert d.agree_again is None
    assert "do not agree again within the window" in diff_text(report)


def test_agreeing_again_at_the_same_position(tmp_path: Path) -> None:
    _, records = load("full-combat.jsonl")
    b = write(tmp_path / "b.jsonl", _warned(events(records), 150))

    report = diff_logs(sample("full-combat.jsonl"), b)

    d = report.divergence
    assert d is not None
    assert d.seq == 150
    assert d.b.type == "judge_ruling_issued"
    assert d.agree_again == (150, 151)
    assert d.part_again is None
    text = diff_text(report)
    assert "the records agree again from seq 150 in A, seq 151 in B" in text
    assert "differ again" not in text


def test_a_later_difference_after_agreeing_again_is_reported(
    runner: CliRunner, tmp_path: Path
) -> None:
    _, records = load("full-combat.jsonl")
    evs = _warned(events(records), 150)
    # ten events after the warning, B records another pass in place of A's event
    k = next(
        i for i in range(160, len(evs)) if isinstance(evs[i], PriorityPassed)
    )  # index in B; A's seq is k (B is one later)
    evs[k] = PriorityPassed(player="nobody")
    b = write(tmp_path / "b.jsonl", evs)

    report = diff_logs(sample("full-combat.jsonl"), b)

    d = report.divergence
    assert d is not None
    assert d.agree_again == (150, 151)
    assert d.part_again == (k, k + 1)
    assert f"the records differ again from seq {k} in A, seq {k + 1} in B" in diff_text(report)
    out = runner.invoke(
        main, ["diff", "--format", "json", str(sample("full-combat.jsonl")), str(b)]
    )
    assert out.exit_code == 1
    data = orjson.loads(out.stdout)
    assert data["divergence"]["part_again"] == {"a": k, "b": k + 1}
