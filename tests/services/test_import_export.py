"""Import and export on every backend: byte for byte, idempotent, flagged or refused, sealed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from vwlog.model.errors import LogFormatError, MatchExistsError
from vwlog.services import validate_log, verify_log
from vwlog.services.importing import import_log, import_logs
from vwlog.services.matches import export_match, list_matches

from .support import (
    edited_record,
    generated_log,
    illegal_copy,
    lines_of,
    records_of,
    unsealed,
    write_lines,
)

if TYPE_CHECKING:
    from pathlib import Path

    from vwlog.store import MatchStore


@pytest.mark.parametrize(
    ("seed", "max_turns", "players", "teams"),
    [(1, 1, 2, None), (2, 3, 2, None), (3, 2, 3, None), (4, 2, 4, 2)],
    ids=["duel-1-turn", "duel-3-turns", "three-players", "tag-team"],
)
def test_an_imported_match_exports_byte_for_byte(
    store: MatchStore,
    tmp_path: Path,
    seed: int,
    max_turns: int,
    players: int,
    teams: int | None,
) -> None:
    path = generated_log(tmp_path, seed, max_turns, players=players, teams=teams)
    header, records = records_of(path)

    result = import_log(store, path)

    assert (result.outcome, result.events, result.violations) == ("stored", len(records), 0)
    out = tmp_path / "exported.jsonl"
    assert export_match(store, header.match_id, out) == len(records)
    assert out.read_bytes() == path.read_bytes()
    meta = store.meta(header.match_id)
    assert meta.events == store.head(header.match_id).seq == len(records)
    assert meta.head_hash == records[-1].hash
    assert len(meta.players) == players
    assert not meta.flagged
    assert meta.violation_summary == []


def test_importing_the_same_log_twice_stores_it_once(store: MatchStore, tmp_path: Path) -> None:
    path = generated_log(tmp_path, 5, 2)
    header, records = records_of(path)

    results = import_logs(store, [path, path])
    again = import_log(store, path)

    assert [r.outcome for r in [*results, again]] == ["stored", "unchanged", "unchanged"]
    assert store.match_ids() == [header.match_id]
    assert len(list(store.raw_lines(header.match_id))) == len(records)
    assert [m.match_id for m in list_matches(store)] == [header.match_id]


def test_another_match_under_a_stored_id_is_refused_and_the_first_kept(
    store: MatchStore, tmp_path: Path
) -> None:
    first = generated_log(tmp_path, 6, 2)
    longer = generated_log(tmp_path, 6, 3)  # the same match id, more turns
    match_id = records_of(first)[0].match_id
    assert records_of(longer)[0].match_id == match_id

    results = import_logs(store, [first, longer])

    assert [r.outcome for r in results] == ["stored", "error"]
    assert match_id in results[1].detail
    with pytest.raises(MatchExistsError):
        import_log(store, longer)
    out = tmp_path / "exported.jsonl"
    export_match(store, match_id, out)
    assert out.read_bytes() == first.read_bytes()


def test_a_log_that_breaks_rules_is_stored_flagged_with_its_violations(
    store: MatchStore, tmp_path: Path
) -> None:
    path = illegal_copy(generated_log(tmp_path, 7, 2), tmp_path / "illegal.jsonl")
    report = validate_log(path)
    assert report.violations, "the copy must break a rule"

    result = import_log(store, path)

    assert (result.outcome, result.violations) == ("stored", len(report.violations))
    meta = store.meta(report.match_id or "")
    assert meta.flagged
    assert meta.violations == len(report.violations)
    assert meta.violation_summary == [f"{v.rule}@{v.seq}" for v in report.violations]
    assert [m.match_id for m in list_matches(store, flagged=True)] == [meta.match_id]
    assert list_matches(store, flagged=False) == []
    out = tmp_path / "exported.jsonl"
    export_match(store, meta.match_id, out)
    assert out.read_bytes() == path.read_bytes()


def test_reject_illegal_refuses_a_log_that_breaks_rules_and_stores_nothing(
    store: MatchStore, tmp_path: Path
) -> None:
    legal = generated_log(tmp_path, 8, 1)
    path = illegal_copy(generated_log(tmp_path, 9, 2), tmp_path / "illegal.jsonl")
    first = validate_log(path).violations[0]

    results = import_logs(store, [path, legal], reject_illegal=True)

    assert [r.outcome for r in results] == ["rejected", "stored"]
    assert first.rule in results[0].detail
    assert store.match_ids() == [records_of(legal)[0].match_id]
    assert records_of(path)[0].match_id not in store


def _set_time(record: dict[str, object]) -> None:
    record["at"] = "2025-05-05T10:00:00Z"


def _more_gold(record: dict[str, object]) -> None:
    event = record["event"]
    assert isinstance(event, dict)
    event["amount"] = int(event["amount"]) + 1


def _first_player(record: dict[str, object]) -> None:
    event = record["event"]
    assert isinstance(event, dict)
    event["first_player"] = "p2" if event["first_player"] == "p1" else "p1"


@pytest.mark.parametrize(
    ("where", "edit"),
    [
        ("first", _first_player),
        ("gold", _more_gold),
        ("middle", _set_time),
        ("last", _set_time),
    ],
)
def test_a_log_whose_chain_is_broken_is_refused_naming_the_seq(
    store: MatchStore, tmp_path: Path, where: str, edit: object
) -> None:
    path = generated_log(tmp_path, 10, 2)
    header, records = records_of(path)
    seq = {
        "first": 1,
        "middle": len(records) // 2,
        "last": len(records),
        "gold": next(r.seq for r in records if r.event.type == "gold_produced"),
    }[where]
    assert callable(edit)
    broken = edited_record(path, tmp_path / "broken.jsonl", seq, edit)

    with pytest.raises(LogFormatError) as caught:
        import_log(store, broken)

    message = str(caught.value)
    assert "\n" not in message
    assert f"line {seq + 1}" in message
    assert f"hash chain broken at seq {seq} " in message
    assert header.match_id not in store
    assert store.match_ids() == []
    [result] = import_logs(store, [broken])
    assert (result.outcome, result.detail) == ("error", message)


def test_a_line_not_in_canonical_form_is_refused(store: MatchStore, tmp_path: Path) -> None:
    path = generated_log(tmp_path, 10, 1)
    lines = lines_of(path)
    lines[5] = lines[5].replace(b'":', b'": ', 1)  # same record, other bytes
    broken = write_lines(tmp_path / "spaced.jsonl", lines)

    with pytest.raises(LogFormatError, match=r"line 6: hash chain broken at seq 5 \(line altered"):
        import_log(store, broken)
    assert store.match_ids() == []


def test_an_unsealed_log_is_sealed_on_import_and_verifies_after_export(
    store: MatchStore, tmp_path: Path
) -> None:
    original = generated_log(tmp_path, 11, 2)
    path = unsealed(original, tmp_path / "unsealed.jsonl")
    assert not verify_log(path).sealed
    header, records = records_of(path)

    assert import_log(store, path).outcome == "stored"
    assert import_log(store, path).outcome == "unchanged"  # sealing is deterministic

    out = tmp_path / "exported.jsonl"
    export_match(store, header.match_id, out)
    report = verify_log(out)
    assert report.ok
    assert (report.sealed, report.broken, report.records) == (True, None, len(records))
    assert report.head_hash == store.meta(header.match_id).head_hash
    exported_header, exported = records_of(out)
    assert exported_header.hash is not None
    assert [r.event for r in exported] == [r.event for r in records]
    assert validate_log(out).ok


def _strip_record_hash(path: Path, out: Path, seq: int) -> Path:
    def alter(record: dict[str, object]) -> None:
        _set_time(record)
        del record["hash"]

    return edited_record(path, out, seq, alter)


def _strip_header_hash(path: Path, out: Path, seq: int) -> Path:
    lines = lines_of(path)
    header, _ = records_of(path)
    changed = header.model_copy(update={"generator": "someone else", "hash": None})
    lines[0] = changed.model_dump_json(exclude_none=True).encode()
    return write_lines(out, lines)


@pytest.mark.parametrize(
    "strip", [_strip_record_hash, _strip_header_hash], ids=["record-hash", "header-hash"]
)
def test_a_sealed_log_altered_and_stripped_of_one_hash_is_refused(
    store: MatchStore, tmp_path: Path, strip: object
) -> None:
    path = generated_log(tmp_path, 12, 2)
    header, records = records_of(path)
    assert callable(strip)
    altered = strip(path, tmp_path / "altered.jsonl", len(records) // 2)
    assert not verify_log(altered).ok  # `vwlog verify` does not accept it

    with pytest.raises(LogFormatError, match=r"has no hash \(removed after sealing"):
        import_log(store, altered)
    assert header.match_id not in store
