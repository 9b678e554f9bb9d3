"""Trusted effects are never silent: every result of a text-only skill is listed, and effects
claimed for one are R-TRUST-3 at the result itself unless the ruleset accepts them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from tests.trust.support import resealed, run
from vwlog.events import HonorChanged, MatchStarted, ObjectResulted
from vwlog.io.logfile import read_log
from vwlog.services import ValidationOptions, validate_log

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

    from vwlog.events import EventRecord


def _trusted_seqs(path: Path) -> list[int]:
    return [t.seq for t in validate_log(path).trusted]


def test_results_of_text_only_skills_are_listed(runner: CliRunner, generated: Path) -> None:
    report = validate_log(generated)
    assert report.ok
    assert len(report.trusted) == report.objects_trusted >= 2
    assert {t.card for t in report.trusted} <= {
        "oracle-of-mists",
        "glimpse-of-fate",
        "necromancer-male",
        "seers-lantern",
    }
    as_json = orjson.loads(run(runner, "validate", "--format", "json", generated).stdout)[0]
    assert [t["seq"] for t in as_json["trusted"]] == [t.seq for t in report.trusted]
    text = run(runner, "validate", generated).stdout
    assert f"trusted effects: {len(report.trusted)} results not machine-checked" in text
    for t in report.trusted:
        assert f"{t.seq:>6}  {t.card} {t.skill}" in text


def _forge(seq: int) -> Callable[[list[EventRecord]], list[EventRecord]]:
    def alter(records: list[EventRecord]) -> list[EventRecord]:
        start = records[0].event
        assert isinstance(start, MatchStarted)
        event = records[seq - 1].event
        assert isinstance(event, ObjectResulted)
        player = start.seats[0].player
        forged = event.model_copy(
            update={"effects": (*event.effects, HonorChanged(player=player, delta=3))}
        )
        records[seq - 1] = records[seq - 1].model_copy(update={"event": forged})
        return records

    return alter


def test_forged_effects_on_trusted_skills_are_reported_at_the_event(
    generated: Path, tmp_path: Path
) -> None:
    seqs = _trusted_seqs(generated)
    assert seqs
    for seq in seqs:
        forged = resealed(generated, tmp_path / f"forged-{seq}.jsonl", _forge(seq))
        report = validate_log(forged)
        assert not report.ok
        first = report.violations[0]
        assert (first.rule, first.seq, first.event_type) == ("R-TRUST-3", seq, "object_resulted")
        assert first.line == seq + 1
        assert "claims 1 effect" in first.message


def test_a_ruleset_that_accepts_trusted_effects_still_lists_them(
    runner: CliRunner, generated: Path, tmp_path: Path
) -> None:
    seq = _trusted_seqs(generated)[0]
    forged = resealed(generated, tmp_path / "forged.jsonl", _forge(seq))
    accepted = validate_log(
        forged, ValidationOptions(overrides=(("accept_trusted_effects", True),))
    )
    assert "R-TRUST-3" not in {v.rule for v in accepted.violations}
    assert seq in [t.seq for t in accepted.trusted]
    result = run(runner, "validate", "--set", "accept_trusted_effects=true", forged)
    assert "R-TRUST-3" not in result.stdout
    assert "not machine-checked" in result.stdout
    _, records = read_log(forged)
    assert isinstance(records[seq - 1].event, ObjectResulted)


if TYPE_CHECKING:
    from collections.abc import Callable


def test_the_dispute_report_shows_what_the_verdict_rests_on_at_the_top(
    runner: CliRunner, generated: Path, tmp_path: Path
) -> None:
    seq = _trusted_seqs(generated)[0]
    forged = resealed(generated, tmp_path / "forged.jsonl", _forge(seq))
    md = run(runner, "report", forged)
    assert md.exit_code == 1
    top = md.stdout.split("## Match", 1)[0]
    assert "**Verdict: illegal**" in top
    assert "## What the verdict rests on" in top
    assert "- Pool: published vw-sample-pool@1" in top
    assert "- Chain: intact; seal: sealed after" in top
    assert f"  - seq {seq}: " in top
    page = run(runner, "report", "--format", "html", generated)
    assert page.exit_code == 0, page.output
    head = page.stdout.split("<h2", 2)
    assert 'id="rests-on"' in head[0] + "<h2" + head[1]
    assert "Verdict: ok" in page.stdout


def test_the_packaged_pool_leaves_no_result_trusted(generated: Path, generated_now: Path) -> None:
    """The same duel under vw-sample-pool@2: the results that were trusted under @1 are now
    derived and checked (their skills have effects with choices), and a forged effect on one
    of them is R-REG-9 at the result."""
    before = validate_log(generated)
    now = validate_log(generated_now)
    assert now.ok, now.violations
    assert now.trusted == []
    assert now.objects_trusted == 0
    assert now.integrity is not None
    assert "vw-sample-pool@2" in now.integrity.pool
    # the same results happened, now checked
    _, records = read_log(generated_now)
    resulted = {r.seq for r in records if isinstance(r.event, ObjectResulted)}
    assert {t.seq for t in before.trusted} <= resulted
    seq = before.trusted[0].seq
    forged = resealed(generated_now, generated_now.with_name("forged-now.jsonl"), _forge(seq))
    report = validate_log(forged)
    assert [(v.rule, v.seq) for v in report.violations][:1] == [("R-REG-9", seq)]
