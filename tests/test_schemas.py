"""The committed schemas are current, well formed, and accept exactly what the writer writes."""

from __future__ import annotations

import inspect
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import orjson
import pytest
from hypothesis import given

from tests.strategies import events, logs, records_of
from vwlog.cli import main
from vwlog.events import EVENT_TYPES
from vwlog.games import rules_for
from vwlog.io import codec
from vwlog.io.schemas import DIALECT, OTHER_GAMES, build_schemas, export_schemas, stale_schemas

if TYPE_CHECKING:
    from click.testing import CliRunner

    from vwlog.events import EventRecord, LogHeader

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
SAMPLES = sorted((ROOT / "samples").glob("*.jsonl"))


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def test_committed_schemas_are_current() -> None:
    assert stale_schemas(SCHEMAS) == [], "run 'vwlog schema export' and commit schemas/"


def test_there_is_one_schema_per_event_type() -> None:
    names = {path.name for path in (SCHEMAS / "events").iterdir()}
    assert names == {f"{tag}.schema.json" for tag in EVENT_TYPES}


@pytest.mark.parametrize("relative", sorted(build_schemas()))
def test_every_schema_is_valid_draft_2020_12(relative: str) -> None:
    schema = json.loads((SCHEMAS / relative).read_text(encoding="utf-8"))
    assert schema["$schema"] == DIALECT
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("relative", sorted(build_schemas()))
def test_schema_files_are_sorted_indented_and_end_in_a_newline(relative: str) -> None:
    text = (SCHEMAS / relative).read_text(encoding="utf-8")
    expected = json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert text == expected


@pytest.mark.parametrize("tag", sorted(EVENT_TYPES))
def test_field_docstrings_become_descriptions(tag: str) -> None:
    schema = json.loads((SCHEMAS / "events" / f"{tag}.schema.json").read_text(encoding="utf-8"))
    cls = EVENT_TYPES[tag]
    assert schema["description"] == inspect.cleandoc(cls.__doc__ or "")
    for name, info in cls.model_fields.items():
        if info.description:
            assert schema["properties"][name]["description"] == info.description
    assert schema["required"][0] == "type"


@given(record=records_of(events))
def test_every_written_record_matches_the_record_schema(record: EventRecord) -> None:
    line = orjson.loads(codec.record_bytes(record))
    validator("event-record.schema.json").validate(line)
    tag = line["event"]["type"]
    validator(f"events/{tag}.schema.json").validate(line["event"])
    validator("game-event.schema.json").validate(line["event"])


@given(log=logs(max_records=0))
def test_every_written_header_matches_the_header_schema(
    log: tuple[LogHeader, list[EventRecord]],
) -> None:
    validator("log-header.schema.json").validate(orjson.loads(codec.header_bytes(log[0])))


@pytest.mark.parametrize(
    "record",
    [
        {"seq": 1, "event": {"type": "priority_pass", "player": "p1"}},
        {"seq": 1, "event": {"player": "p1"}},
        {"seq": 1, "event": {"type": "priority_passed", "player": "p1", "card": "c1"}},
        {"seq": 0, "event": {"type": "priority_passed", "player": "p1"}},
        {"seq": 1, "event": {"type": "priority_passed", "player": 7}},
        {"event": {"type": "priority_passed", "player": "p1"}},
    ],
    ids=["unknown type", "no type", "extra field", "seq 0", "wrong type", "no seq"],
)
def test_the_record_schema_rejects_what_the_reader_rejects(record: dict[str, Any]) -> None:
    assert not validator("event-record.schema.json").is_valid(record)


@pytest.mark.skipif(not SAMPLES, reason="no samples/*.jsonl yet")
@pytest.mark.parametrize("sample", SAMPLES, ids=[path.name for path in SAMPLES])
def test_sample_lines_match_the_schemas(sample: Path) -> None:
    header, *records = sample.read_bytes().splitlines()
    validator("log-header.schema.json").validate(orjson.loads(header))
    for line in records:
        validator("event-record.schema.json").validate(orjson.loads(line))


def test_export_writes_what_check_listed_and_then_nothing(tmp_path: Path) -> None:
    stale = stale_schemas(tmp_path)
    assert len(stale) == len(build_schemas())
    assert export_schemas(tmp_path) == [tmp_path / relative for relative in stale]
    assert stale_schemas(tmp_path) == []
    assert export_schemas(tmp_path) == []


def test_export_rewrites_changed_files_and_removes_obsolete_ones(tmp_path: Path) -> None:
    export_schemas(tmp_path)
    changed = tmp_path / "events" / "unslid.schema.json"
    changed.write_text("{}\n", encoding="utf-8")
    obsolete = tmp_path / "events" / "card_drawn.schema.json"
    obsolete.write_text("{}\n", encoding="utf-8")
    unrelated = tmp_path / "README.md"
    unrelated.write_text("kept\n", encoding="utf-8")
    assert stale_schemas(tmp_path) == ["events/card_drawn.schema.json", "events/unslid.schema.json"]
    assert export_schemas(tmp_path) == [obsolete, changed]
    assert not obsolete.exists()
    assert unrelated.read_text(encoding="utf-8") == "kept\n"
    assert stale_schemas(tmp_path) == []


def test_cli_check_lists_stale_files_and_exits_1(runner: CliRunner, tmp_path: Path) -> None:
    export_schemas(tmp_path)
    (tmp_path / "ruleset.schema.json").unlink()
    result = runner.invoke(main, ["schema", "export", "--out", str(tmp_path), "--check"])
    assert result.exit_code == 1
    assert result.stdout == f"{tmp_path.as_posix()}/ruleset.schema.json\n"
    assert result.stderr == (
        f"1 schema file stale; run 'vwlog schema export --out {tmp_path.as_posix()}'\n"
    )
    assert not (tmp_path / "ruleset.schema.json").exists()


def test_cli_check_is_clean_after_export(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "schemas"
    result = runner.invoke(main, ["schema", "export", "--out", str(out)])
    assert result.exit_code == 0
    assert result.stderr == f"updated {len(build_schemas())} schema files in {out.as_posix()}\n"
    result = runner.invoke(main, ["schema", "export", "--out", str(out), "--check"])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == f"schemas in {out.as_posix()} are current\n"


def test_cli_export_to_an_unwritable_place_is_a_clean_error(
    runner: CliRunner, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n", encoding="utf-8")
    result = runner.invoke(main, ["schema", "export", "--out", str(blocker / "schemas")])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: cannot write '{blocker}/schemas/")
    assert result.stderr.endswith(": not a directory\n")
    assert result.stdout == ""


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_each_other_game_has_its_record_and_one_schema_per_event_type(game: str) -> None:
    names = {path.name for path in (SCHEMAS / game / "events").iterdir()}
    assert names == {f"{tag}.schema.json" for tag in rules_for(game).event_types}
    assert (SCHEMAS / game / "event-record.schema.json").is_file()


OTHER_SAMPLES = sorted(
    path for game in OTHER_GAMES for path in (ROOT / "samples" / game).glob("*.jsonl")
)


@pytest.mark.parametrize(
    "sample", OTHER_SAMPLES, ids=[f"{p.parent.name}/{p.name}" for p in OTHER_SAMPLES]
)
def test_other_games_sample_lines_match_their_schemas(sample: Path) -> None:
    """Every line of every WoW TCG, L5R and miniatures sample, legal or not (an illegal record
    breaks a rule, not the format), matches its game's schemas."""
    game = sample.parent.name
    header, *records = sample.read_bytes().splitlines()
    assert orjson.loads(header)["game"] == game
    validator("log-header.schema.json").validate(orjson.loads(header))
    for line in records:
        record = orjson.loads(line)
        validator(f"{game}/event-record.schema.json").validate(record)
        validator(f"{game}/events/{record['event']['type']}.schema.json").validate(record["event"])


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_another_games_record_schema_rejects_other_games_events(game: str) -> None:
    schema = validator(f"{game}/event-record.schema.json")
    vw_only = {"seq": 2, "event": {"type": "supply_chosen", "player": "p1", "choice": "DRAW"}}
    assert not schema.is_valid(vw_only)
    assert not schema.is_valid({"seq": 2, "event": {"type": "no_such_event"}})
