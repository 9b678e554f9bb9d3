"""`ChainCheck.take` (the usual line, read as a record already) agrees with `ChainCheck.feed`.

A check that offers every line to ``take`` first and feeds it only when ``take`` declines must
report exactly what a check that feeds every line reports, for intact logs and for lines
damaged, forged with a true hash, or written in another form. The lines come from
`tests.services.test_chain_fast_path`; no call is patched, so this runs on either engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
import pytest
from pydantic import ValidationError

from vwlog.io import codec
from vwlog.io.chain import ChainCheck, VerifyReport
from vwlog.io.integritypass import IntegrityPass
from vwlog.io.logfile import open_log

from .support import generated_log, lines_of
from .test_chain_fast_path import DAMAGE, MISWRITTEN, _hash_in_place, forged
from .test_commitments import SALTS, committed_log

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines of a generated, hashed match with deck commitments (the header first)."""
    return lines_of(generated_log(tmp_path_factory.mktemp("usual"), 31, 2))


def _record(raw: bytes) -> Any:
    try:
        return codec.parse_record(raw, strict=True)
    except ValidationError:
        return None


def _both(path: Path, lines: list[bytes]) -> tuple[VerifyReport, VerifyReport, int]:
    """The report of a check that takes what it can, of one that feeds everything, and how
    many lines were taken."""
    path.write_bytes(b"\n".join(lines) + b"\n")
    with open_log(path) as reader:
        taking, feeding = ChainCheck(str(path), reader.header), ChainCheck(str(path), reader.header)
    taken = 0
    for line_no, raw in enumerate(lines[1:], start=2):
        record = _record(raw)
        if record is not None and taking.take(raw, record):
            taken += 1
        else:
            taking.feed(line_no, raw, record)
        feeding.feed(line_no, raw, record)
    return taking.report(), feeding.report(), taken


def test_every_line_of_an_intact_log_is_taken(log_lines: list[bytes], tmp_path: Path) -> None:
    taking, feeding, taken = _both(tmp_path / "intact.jsonl", log_lines)
    assert taking == feeding
    assert taking.broken is None
    assert taken == len(log_lines) - 1


@pytest.mark.parametrize("reveals", [SALTS, {"p1": SALTS["p1"], "p2": "not-the-salt"}])
def test_deck_commitments_and_reveals_are_read_from_the_taken_lines(
    reveals: dict[str, str], tmp_path: Path
) -> None:
    lines = lines_of(committed_log(tmp_path / "committed.jsonl", reveals))
    taking, feeding, taken = _both(tmp_path / "again.jsonl", lines)
    assert taking == feeding
    assert taken == len(lines) - 1
    assert {c.player: c.status for c in taking.commitments} == {
        "p1": "verified",
        "p2": "verified" if reveals == SALTS else "mismatch",
    }


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_damaged_line_is_not_taken_and_reported_alike(
    kind: str, log_lines: list[bytes], tmp_path: Path
) -> None:
    for where in (1, 2, len(log_lines) // 2, len(log_lines) - 1):
        lines = list(log_lines)
        lines[where] = DAMAGE[kind](orjson.loads(lines[where]))
        taking, feeding, taken = _both(tmp_path / "damaged.jsonl", lines)
        assert taking == feeding, kind
        assert taken <= where - 1  # nothing from the damaged line on (the chain broke there)


def _event_keys_reversed(data: dict[str, Any]) -> dict[str, Any]:
    data["event"] = dict(reversed(data["event"].items()))
    return data


def _event_spaced(data: dict[str, Any]) -> dict[str, Any]:
    data["event"] = orjson.Fragment(orjson.dumps(data["event"]).replace(b'":', b'": '))
    return data


@pytest.mark.parametrize("kind", ["event keys reversed", "event spaced"])
def test_an_event_not_in_canonical_form_with_a_true_hash_is_not_taken(
    kind: str, log_lines: list[bytes], tmp_path: Path
) -> None:
    """A forger's line in the usual shape whose event JSON is not canonical: its hash holds
    (over the bytes as written), its line does not."""
    change = _event_keys_reversed if kind == "event keys reversed" else _event_spaced
    for where in (1, 2, len(log_lines) // 2):
        lines = list(log_lines)
        data = change(orjson.loads(lines[where]))
        data.pop("hash")
        body = orjson.dumps(data)  # as written: the event's keys in the forger's order
        claimed = codec.chain_hash(orjson.loads(lines[where - 1])["hash"], body)
        lines[where] = body[: -len(f',"seq":{data["seq"]}}}')] + (
            f',"hash":"{claimed}","seq":{data["seq"]}}}'.encode()
        )
        assert codec.usual_start(lines[where]) > 0
        taking, feeding, _taken = _both(tmp_path / "forged.jsonl", lines)
        assert taking == feeding
        assert taking.broken is not None
        assert taking.broken.seq == where


@pytest.mark.parametrize("kind", ["seq moved", "a seq inside the event", "the event type a list"])
def test_a_forged_line_with_a_true_hash_is_reported_alike(
    kind: str, log_lines: list[bytes], tmp_path: Path
) -> None:
    for where in (1, 2, len(log_lines) // 2):
        taking, feeding, _taken = _both(tmp_path / "forged.jsonl", forged(log_lines, where, kind))
        assert taking == feeding


@pytest.mark.parametrize("kind", sorted(MISWRITTEN))
def test_a_line_miswritten_with_a_true_hash_is_reported_alike(
    kind: str, log_lines: list[bytes], tmp_path: Path
) -> None:
    for where in (1, len(log_lines) // 2):
        lines = list(log_lines)
        data = orjson.loads(lines[where])
        data.pop("hash")
        if kind == "hash after a key that sorts after it":
            data["id"] = 1  # a line in the usual shape, but for a member the event's JSON holds
        claimed = _hash_in_place(lines, where, data)
        lines[where] = MISWRITTEN[kind](data, claimed)
        taking, feeding, _taken = _both(tmp_path / "miswritten.jsonl", lines)
        assert taking == feeding
        assert taking.broken is not None


def test_the_integrity_pass_keeps_the_same_lines_either_way(
    log_lines: list[bytes], tmp_path: Path
) -> None:
    """Fed with records (the usual lines are taken) or without (every line decoded), the
    integrity pass keeps the same records for the seal and signature checks."""
    path = tmp_path / "intact.jsonl"
    path.write_bytes(b"\n".join(log_lines) + b"\n")
    with open_log(path) as reader:
        with_records = IntegrityPass(reader.name, reader.header)
        without = IntegrityPass(reader.name, reader.header)
        for line_no, raw, record in reader.lines():
            with_records.feed(line_no, raw, record)
            without.feed(line_no, raw)
    assert with_records.lines == without.lines
    assert with_records.chain.report() == without.chain.report()
    assert with_records.lines[0][0] == 2
