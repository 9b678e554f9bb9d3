"""Provenance: ``--version`` and every report say which vwlog, rules revision, ruleset and card
pool judged, on which engine, and (reports) when."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from vwlog import __version__
from vwlog.cli import main
from vwlog.events import MatchStarted
from vwlog.io.logfile import read_log, write_log
from vwlog.render.provenance import engine_name
from vwlog.rules.catalog_data import RULES_TABLE
from vwlog.services import sealed

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLES = Path(__file__).parents[2] / "samples"
LEGAL = SAMPLES / "full-combat.jsonl"


def _expected_revision() -> str:
    text = orjson.dumps([list(r) for r in RULES_TABLE], option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(text).hexdigest()[:16]


def _provenance_line(text: str) -> str:
    return next(x for x in text.splitlines() if "Provenance:" in x)


def test_version_names_the_version_rules_revision_ruleset_pool_and_engine(
    runner: CliRunner,
) -> None:
    result = runner.invoke(main, ["--version"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"vwlog {__version__}"
    assert lines[1] == f"rules revision: {_expected_revision()}"
    assert re.fullmatch(r"ruleset: vw-default@\d+ \([0-9a-f]{16}\)", lines[2])
    assert re.fullmatch(r"card pool: [0-9a-f]{16}", lines[3])
    assert lines[4] == f"engine: {engine_name()}"


def test_validate_json_carries_provenance_of_what_judged_each_log(runner: CliRunner) -> None:
    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    plain = runner.invoke(main, ["validate", "--format", "json", str(LEGAL)])
    reread = runner.invoke(
        main,
        ["validate", "--format", "json", "--set", "attack_target_mode=SINGLE", str(LEGAL)],
    )
    assert plain.exit_code == 0, plain.output
    first = orjson.loads(plain.stdout)[0]["provenance"]
    other = orjson.loads(reread.stdout)[0]["provenance"]
    assert first["vwlog"] == __version__
    assert first["rules_revision"] == _expected_revision()
    assert first["ruleset"] == "vw-samples@1"  # the ruleset the log names, not the default
    assert re.fullmatch(r"[0-9a-f]{16}", first["pool_hash"])
    generated = dt.datetime.fromisoformat(first["generated"])
    assert before <= generated <= dt.datetime.now(dt.UTC)
    # another reading is another ruleset hash; the same cards, the same pool hash
    assert other["ruleset_hash"] != first["ruleset_hash"]
    assert other["pool_hash"] == first["pool_hash"]


def test_validate_markdown_ends_with_provenance(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", "--format", "markdown", str(LEGAL)])
    assert result.exit_code == 0
    line = _provenance_line(result.stdout)
    assert f"vwlog {__version__} · rules revision {_expected_revision()}" in line
    assert "ruleset vw-samples@1 (" in line
    assert "generated 20" in line


def test_the_dispute_report_carries_provenance_escaped(runner: CliRunner, tmp_path: Path) -> None:
    header, records = read_log(LEGAL)
    start = records[0].event
    assert isinstance(start, MatchStarted)
    hostile = start.model_copy(
        update={"ruleset": start.ruleset.model_copy(update={"id": "<b>x</b>`*"})}
    )
    head, resealed = sealed(header, [records[0].model_copy(update={"event": hostile})])
    path = tmp_path / "hostile.jsonl"
    write_log(path, head, resealed)

    page = runner.invoke(main, ["report", str(path), "--format", "html"])
    assert page.exit_code in (0, 1), page.output
    footer = page.stdout[page.stdout.index('<footer class="provenance">') :]
    assert "<b>x</b>" not in footer
    assert "&lt;b&gt;x&lt;/b&gt;" in footer
    assert _expected_revision() in footer

    md = runner.invoke(main, ["report", str(LEGAL)])
    line = _provenance_line(md.stdout)
    assert f"rules revision {_expected_revision()}" in line
    assert "ruleset vw-samples@1 (" in line
