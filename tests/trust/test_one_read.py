"""Validation reads a log once: the chain, seal and signatures are checked on the lines the
replay reads, so a log read from a pipe gets the whole verdict too."""

from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING

import pytest

from tests.trust.support import SAMPLES
from vwlog.engine.replay import ViolationPolicy
from vwlog.render.trust import verdict
from vwlog.services import ValidationOptions, validate_log

if TYPE_CHECKING:
    from pathlib import Path

SAMPLE = SAMPLES / "absolute-victory.jsonl"


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_a_log_on_standard_input_is_checked_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, SAMPLE.read_bytes())
    report = validate_log("-")
    assert report.integrity is not None
    assert report.integrity.ok, report.integrity.problems
    assert report.integrity.chain == "intact"
    assert report.integrity.seal.startswith("sealed after ")
    assert verdict(report) == "OK"


def test_a_cut_log_on_standard_input_is_incomplete(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    _stdin(monkeypatch, b"".join(lines[:-3]))
    report = validate_log("-")
    assert report.integrity is not None
    assert not report.integrity.sealed
    assert verdict(report) == "INCOMPLETE"


def test_stopping_at_the_first_violation_still_checks_the_rest_of_the_chain(
    tmp_path: Path,
) -> None:
    """The replay stops at the first illegal event; the lines after it are still read for the
    chain and the seal, so an alteration past that point is found."""
    illegal = SAMPLES / "invalid" / "damage-over-atk.jsonl"
    lines = illegal.read_bytes().splitlines(keepends=True)
    stop = validate_log(illegal, ValidationOptions(policy=ViolationPolicy.STOP_AT_FIRST))
    assert stop.stopped_at is not None
    assert stop.integrity is not None
    assert stop.integrity.chain == "intact"
    # alter the gold of the last record but one (still a valid record), far past the violation
    at = len(lines) - 3
    assert stop.stopped_at + 1 < at
    assert b'"amount":0,' in lines[at]
    lines[at] = lines[at].replace(b'"amount":0,', b'"amount":1,', 1)
    altered = tmp_path / "altered.jsonl"
    altered.write_bytes(b"".join(lines))
    report = validate_log(altered, ValidationOptions(policy=ViolationPolicy.STOP_AT_FIRST))
    assert report.integrity is not None
    assert report.integrity.chain.startswith(f"broken at seq {at}, line {at + 1}")
