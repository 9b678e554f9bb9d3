"""Windows line endings are not tampering: a log whose lines end in CR LF (Notepad, an email,
git's ``autocrlf``) or whose last line has no newline is read as the same records, its chain
holds, and ``verify`` and ``validate`` say once that the line endings were converted. Only a
change of a record's content breaks the chain."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from vwlog.cli import main
from vwlog.io.integritypass import ENDINGS_CONVERTED
from vwlog.io.logfile import open_log

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLES = Path(__file__).parents[2] / "samples"
SAMPLE = SAMPLES / "full-combat.jsonl"
NOTE = "line endings converted"


def _crlf(tmp_path: Path, data: bytes | None = None, name: str = "crlf.jsonl") -> Path:
    """``sed 's/$/\\r/' samples/full-combat.jsonl > crlf.jsonl`` (or of ``data``)."""
    text = SAMPLE.read_bytes() if data is None else data
    out = tmp_path / name
    out.write_bytes(text.replace(b"\n", b"\r\n"))
    return out


def test_verify_of_a_crlf_log_holds_and_says_the_endings_were_converted(
    runner: CliRunner, tmp_path: Path
) -> None:
    result = runner.invoke(main, ["verify", str(_crlf(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "chain intact · 238 records" in result.stdout
    assert "BROKEN" not in result.stdout
    assert result.stdout.count(NOTE) == 1
    assert "verdict: OK" in result.stdout


def test_validate_of_a_crlf_log_is_ok_with_one_note_in_text_and_json(
    runner: CliRunner, tmp_path: Path
) -> None:
    log = _crlf(tmp_path)
    text = runner.invoke(main, ["validate", str(log)])
    assert text.exit_code == 0, text.output
    assert "OK · 237 events" in text.stdout
    assert "UNTRUSTED" not in text.stdout
    assert text.stdout.count(NOTE) == 1
    as_json = runner.invoke(main, ["validate", "--format", "json", str(log)])
    assert as_json.exit_code == 0, as_json.output
    (report,) = json.loads(as_json.stdout)
    assert report["verdict"] == "OK"
    assert report["integrity"]["warnings"] == [ENDINGS_CONVERTED]


def test_a_plain_lf_log_gets_no_note(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", "--format", "json", str(SAMPLE)])
    (report,) = json.loads(result.stdout)
    assert report["integrity"]["warnings"] == []


def test_a_missing_final_newline_reads_the_same_records(runner: CliRunner, tmp_path: Path) -> None:
    lf = tmp_path / "lf.jsonl"
    lf.write_bytes(SAMPLE.read_bytes().rstrip(b"\n"))
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(SAMPLE.read_bytes().replace(b"\n", b"\r\n").rstrip(b"\r\n"))
    for log in (lf, crlf):
        result = runner.invoke(main, ["verify", str(log)])
        assert result.exit_code == 0, result.output
    assert NOTE not in runner.invoke(main, ["verify", str(lf)]).stdout


def test_every_reader_path_yields_the_same_lines_and_records(tmp_path: Path) -> None:
    # the usual-line fast path (compiled) and the whole way (pure) alike: the test suite runs
    # on both engines
    with open_log(SAMPLE) as reader:
        want = list(reader.lines())
        want_header = reader.header_raw
    lines = SAMPLE.read_bytes().split(b"\n")
    mixed = b"".join(
        line + (b"\r\n" if i % 2 else b"\n") for i, line in enumerate(lines[:-1])
    )  # every other line CR LF
    twice = SAMPLE.read_bytes().replace(b"\n", b"\r\r\n")  # CR LF converted once more
    for data, converted in ((mixed, len(lines[:-1]) // 2), (twice, len(lines) - 1)):
        log = tmp_path / "log.jsonl"
        log.write_bytes(data)
        with open_log(log) as reader:
            got = list(reader.lines())
            assert reader.header_raw == want_header
            assert reader.crlf_lines == converted
        assert [(n, raw) for n, raw, _ in got] == [(n, raw) for n, raw, _ in want]
        assert [r for _, _, r in got] == [r for _, _, r in want]


def test_mixed_endings_verify_with_one_note(runner: CliRunner, tmp_path: Path) -> None:
    lines = SAMPLE.read_bytes().split(b"\n")[:-1]
    log = tmp_path / "mixed.jsonl"
    log.write_bytes(b"".join(line + (b"\r\n" if i < 10 else b"\n") for i, line in enumerate(lines)))
    result = runner.invoke(main, ["verify", str(log)])
    assert result.exit_code == 0, result.output
    assert result.stdout.count(NOTE) == 1


def test_a_carriage_return_inside_a_record_is_an_alteration(
    runner: CliRunner, tmp_path: Path
) -> None:
    lines = SAMPLE.read_bytes().split(b"\n")
    # JSON reads the CR as white space: the same values, but not the canonical line
    lines[4] = lines[4].replace(b'{"event":', b'{"event":\r', 1)
    log = _crlf(tmp_path, b"\n".join(lines))
    result = runner.invoke(main, ["verify", str(log)])
    assert result.exit_code == 1
    assert "BROKEN at seq 4, line 5: line altered: not in canonical form" in result.stdout
    validated = runner.invoke(main, ["validate", str(log)])
    assert validated.exit_code == 1
    assert "UNTRUSTED" in validated.stdout


def test_a_changed_record_in_a_crlf_log_is_still_tampering(
    runner: CliRunner, tmp_path: Path
) -> None:
    lines = SAMPLE.read_bytes().split(b"\n")
    assert b'"seq":10}' in lines[10]
    lines[10] = lines[10].replace(b'"gold":1', b'"gold":2', 1)  # canonical, another record
    log = _crlf(tmp_path, b"\n".join(lines))
    result = runner.invoke(main, ["verify", str(log)])
    assert result.exit_code == 1
    assert "BROKEN at seq 10, line 11" in result.stdout


def test_lone_cr_line_endings_are_one_clean_error(runner: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "mac.jsonl"
    log.write_bytes(SAMPLE.read_bytes().replace(b"\n", b"\r"))
    result = runner.invoke(main, ["validate", str(log)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: ")
    assert "mac.jsonl" in line
    assert "lone carriage return" in line


def test_import_of_a_crlf_log_stores_the_same_match(runner: CliRunner, tmp_path: Path) -> None:
    store = str(tmp_path / "vwlog.db")
    result = runner.invoke(main, ["--store", store, "import", str(_crlf(tmp_path))])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("stored")
    assert "FLAGGED" not in result.stdout
    out = tmp_path / "back.jsonl"
    exported = runner.invoke(
        main, ["--store", store, "export", "sample-full-combat", "-o", str(out)]
    )
    assert exported.exit_code == 0, exported.output
    assert out.read_bytes() == SAMPLE.read_bytes()
