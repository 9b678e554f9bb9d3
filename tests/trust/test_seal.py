"""Sealed records: a cut record is never legal; a seal that does not fit is reported."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.trust.support import SAMPLES, resealed, run
from vwlog.events import EventRecord, MatchSealed, PriorityPassed
from vwlog.io.logfile import read_log, write_log
from vwlog.services import sealed, validate_log
from vwlog.services.trust import check_integrity

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


SAMPLE = SAMPLES / "absolute-victory.jsonl"


def test_the_samples_are_sealed() -> None:
    for path in sorted(SAMPLES.glob("*.jsonl")):
        _, records = read_log(path)
        assert isinstance(records[-1].event, MatchSealed), path.name
        integrity = check_integrity(path).integrity
        assert integrity.sealed, path.name
        assert integrity.ok, (path.name, integrity.problems)


@pytest.mark.parametrize("sample", ["absolute-victory.jsonl", "hand-limit.jsonl"])
def test_truncation_at_every_position_is_reported(sample: str, tmp_path: Path) -> None:
    """Cut after every line (header kept): never legal, always incomplete."""
    lines = (SAMPLES / sample).read_bytes().splitlines(keepends=True)
    assert validate_log(SAMPLES / sample).ok
    legal = []
    for keep in range(2, len(lines)):  # the header and 1 .. n-1 records
        cut = tmp_path / f"cut-{keep}.jsonl"
        cut.write_bytes(b"".join(lines[:keep]))
        report = validate_log(cut)
        assert report.integrity is not None
        if report.ok or report.integrity.sealed:
            legal.append(keep)
        assert any(p.startswith("unsealed") for p in report.integrity.problems), keep
    assert legal == []


def test_a_cut_record_is_incomplete_in_text_json_and_exit_status(
    runner: CliRunner, tmp_path: Path
) -> None:
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:-2]))  # without match_won and the seal
    text = run(runner, "validate", cut)
    assert text.exit_code == 1
    assert " INCOMPLETE · " in text.stdout
    assert " OK · " not in text.stdout
    assert "1 log: 0 legal, 0 illegal, 1 incomplete, 0 unreadable" in text.stdout
    as_json = run(runner, "validate", "--format", "json", cut)
    assert as_json.exit_code == 1
    assert '"verdict": "INCOMPLETE"' in as_json.stdout
    markdown = run(runner, "validate", "--format", "markdown", cut)
    assert "**incomplete (unsealed)**" in markdown.stdout
    verified = run(runner, "verify", cut)
    assert verified.exit_code == 1
    assert "seal: unsealed" in verified.stdout


def test_a_seal_that_does_not_fit_the_record_is_untrusted(
    runner: CliRunner, tmp_path: Path
) -> None:
    header, records = read_log(SAMPLE)
    body = records[:-2]
    stale = records[-1].model_copy(update={"seq": len(body) + 1, "hash": None})
    head, chained = sealed(header.model_copy(update={"hash": None}), [*body, stale])
    out = tmp_path / "stale-seal.jsonl"
    write_log(out, head, chained)
    integrity = check_integrity(out).integrity
    assert not integrity.sealed
    assert any("does not match the record" in p for p in integrity.problems)
    result = run(runner, "validate", out)
    assert result.exit_code == 1
    assert " UNTRUSTED · " in result.stdout


def test_a_game_event_after_the_seal_is_reported(runner: CliRunner, tmp_path: Path) -> None:
    header, records = read_log(SAMPLES / "hand-limit.jsonl")

    extra = EventRecord(seq=len(records) + 1, event=PriorityPassed(player="p1"))
    head, chained = sealed(header.model_copy(update={"hash": None}), [*records, extra])
    out = tmp_path / "after-seal.jsonl"
    write_log(out, head, chained)
    integrity = check_integrity(out).integrity
    assert any("follows the seal" in p for p in integrity.problems)
    assert run(runner, "verify", out).exit_code == 1


def test_re_sealing_an_altered_record_keeps_the_chain_but_not_the_rules(
    tmp_path: Path,
) -> None:
    """Without signatures a forger can re-seal; the rules still judge the content."""

    def no_win(records: list[EventRecord]) -> list[EventRecord]:
        return records[:-2]  # cut the match_won and the old seal, then re-seal

    out = resealed(SAMPLE, tmp_path / "resealed.jsonl", no_win)
    report = validate_log(out)
    assert report.integrity is not None
    assert report.integrity.chain == "intact"
    assert not report.ok
    assert report.integrity.problems == (
        "the seal closes the record while the rules still demand match_won",
    )
