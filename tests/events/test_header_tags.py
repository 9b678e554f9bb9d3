"""Tournament tags in the log header (event, round, table, date, like PGN headers): validated on
read, kept byte for byte through import and export, shown by ``vwlog list`` and chosen by
``vwlog stats --event``; a log without them keeps its bytes and hashes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main
from vwlog.events import LogHeader
from vwlog.games.vw.simulate import simulate
from vwlog.io import codec
from vwlog.io.chain import sealed
from vwlog.io.logfile import write_log
from vwlog.io.pools import load_pool
from vwlog.model.cards import Ruleset

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

QUICK = Ruleset(id="quick", version=2, victory_vp=1, victory_honor=25, victory_territories=4)
TAGS = {"event": "Bandung Open 2026", "round": "3", "table": "12", "date": "2026-11-02"}


def _log(path: Path, index: int, **tags: str) -> Path:
    """A generated match with these tags, hash-chained, written to ``path``."""
    m = simulate(load_pool(None), seed=38, index=index, ruleset=QUICK, max_turns=24)
    header, records = sealed(m.header.model_copy(update=tags), m.records)
    write_log(path, header, records)
    return path


def test_a_log_without_tags_keeps_its_header_bytes_and_hash() -> None:
    header = LogHeader(match_id="m", created="2026-01-01T00:00:00Z")
    assert codec.header_bytes(header) == (
        b'{"created":"2026-01-01T00:00:00Z","format":"vwlog","match_id":"m","version":1}'
    )
    tagged = header.model_copy(update={"event": "Open"})
    assert codec.header_hash(tagged) != codec.header_hash(header)


def test_tags_are_kept_byte_for_byte_through_import_and_export(
    runner: CliRunner, tmp_path: Path
) -> None:
    log = _log(tmp_path / "tagged.jsonl", 0, **TAGS)
    first = log.read_bytes().split(b"\n", 1)[0]
    assert json.loads(first) | TAGS == json.loads(first)
    store = str(tmp_path / "vwlog.db")
    imported = runner.invoke(main, ["--store", store, "import", str(log)])
    assert imported.exit_code == 0, imported.stderr
    out = tmp_path / "back.jsonl"
    exported = runner.invoke(main, ["--store", store, "export", "sim-38-00000", "-o", str(out)])
    assert exported.exit_code == 0, exported.stderr
    assert out.read_bytes() == log.read_bytes()


def test_list_shows_the_tags_and_filters_by_event(runner: CliRunner, tmp_path: Path) -> None:
    store = str(tmp_path / "vwlog.db")
    logs = [
        _log(tmp_path / "a.jsonl", 0, **TAGS),
        _log(tmp_path / "b.jsonl", 1, event="Jakarta Cup"),
        _log(tmp_path / "c.jsonl", 2),
    ]
    assert runner.invoke(main, ["--store", store, "import", *map(str, logs)]).exit_code == 0
    listed = runner.invoke(main, ["--store", store, "list"])
    assert listed.exit_code == 0, listed.stderr
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert listed.stdout.splitlines()[0].split()[-1] == "event"
    assert lines["sim-38-00000"].endswith("Bandung Open 2026 · round 3 · table 12 · 2026-11-02")
    assert lines["sim-38-00001"].endswith("Jakarta Cup")
    assert lines["sim-38-00002"].endswith(" -")
    chosen = runner.invoke(
        main, ["--store", store, "list", "--event", "Jakarta Cup", "--format", "json"]
    )
    data = json.loads(chosen.stdout)
    assert [(m["match_id"], m["tags"]) for m in data] == [
        ("sim-38-00001", {"event": "Jakarta Cup"})
    ]


def test_list_without_tags_has_no_event_column(runner: CliRunner, tmp_path: Path) -> None:
    store = str(tmp_path / "vwlog.db")
    log = _log(tmp_path / "plain.jsonl", 3)
    assert runner.invoke(main, ["--store", store, "import", str(log)]).exit_code == 0
    listed = runner.invoke(main, ["--store", store, "list"])
    assert "event" not in listed.stdout.splitlines()[0]
    data = json.loads(runner.invoke(main, ["--store", store, "list", "--format", "json"]).stdout)
    assert "tags" not in data[0]


def test_stats_counts_one_event(runner: CliRunner, tmp_path: Path) -> None:
    logs = [
        _log(tmp_path / "a.jsonl", 0, **TAGS),
        _log(tmp_path / "b.jsonl", 1, event="Bandung Open 2026", round="4"),
        _log(tmp_path / "c.jsonl", 2, event="Jakarta Cup"),
        _log(tmp_path / "d.jsonl", 3),
    ]
    args = ["stats", "--event", "Bandung Open 2026", "--format", "json"]
    on_files = runner.invoke(main, [*args[:3], *map(str, logs), *args[3:]])
    assert on_files.exit_code == 0, on_files.stderr
    data = json.loads(on_files.stdout)
    assert data["corpus"]["matches"] == 2
    assert data["corpus"]["skipped"] == {"another event": 1, "no event tag": 1}
    assert data["filters"]["event"] == "Bandung Open 2026"
    store = str(tmp_path / "vwlog.db")
    assert runner.invoke(main, ["--store", store, "import", *map(str, logs)]).exit_code == 0
    stored = runner.invoke(main, ["--store", store, *args])
    assert stored.exit_code == 0, stored.stderr
    assert json.loads(stored.stdout)["corpus"] == data["corpus"]
    text = runner.invoke(main, ["--store", store, "stats", "--event", "Bandung Open 2026"])
    assert "filters: event Bandung Open 2026" in text.stdout


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("date", "2026-02-30", 'a date is a day written YYYY-MM-DD, found "2026-02-30"'),
        ("date", "2.11.2026", "a date is a day written YYYY-MM-DD"),
        ("event", "Open\nround 2", "a tag is text on one line, without control characters"),
        ("event", "   ", "not blank"),
        ("event", "x" * 201, "string should have at most 200 characters"),
        ("round", "r" * 33, "string should have at most 32 characters"),
        ("table", 12, "input should be a valid string, found 12"),
    ],
)
def test_a_bad_tag_is_one_line_naming_line_1_and_the_field(
    runner: CliRunner, tmp_path: Path, field: str, value: object, says: str
) -> None:
    log = _log(tmp_path / "ok.jsonl", 4)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0]) | {field: value}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    for command in (["validate"], ["--store", str(tmp_path / "s.db"), "import"]):
        result = runner.invoke(main, [*command, str(bad)])
        assert result.exit_code == 2, result.output
        errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
        assert len(errors) == 1, result.stderr
        assert errors[0].startswith(f"Error: {bad}, line 1, field '{field}': ")
        assert says in errors[0]
