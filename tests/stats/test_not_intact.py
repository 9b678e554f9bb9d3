"""Statistics over log files count what every door counts: a record that is not intact (a
line altered after it was hashed) is left out, as the store's statistics leave out such a
stored match, with the same reason (`vwlog.services.verdict.counts_as_valid`)."""

from __future__ import annotations

from pathlib import Path

import orjson
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.services.stats import NOT_INTACT

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _altered(tmp_path: Path) -> Path:
    """absolute-victory.jsonl with one record's hash replaced: its chain is broken there."""
    lines = (SAMPLES / "absolute-victory.jsonl").read_bytes().splitlines()
    record = orjson.loads(lines[5])
    record["hash"] = "0" * 64
    lines[5] = orjson.dumps(record, option=orjson.OPT_SORT_KEYS)
    out = tmp_path / "altered.jsonl"
    out.write_bytes(b"\n".join(lines) + b"\n")
    return out


def _corpus(*paths: Path) -> dict[str, object]:
    result = CliRunner().invoke(main, ["stats", "--format", "json", *map(str, paths)])
    assert result.exit_code == 0, result.output
    corpus: dict[str, object] = orjson.loads(result.stdout)["corpus"]
    return corpus


def test_a_record_that_is_not_intact_is_left_out_saying_why(tmp_path: Path) -> None:
    intact = SAMPLES / "absolute-victory.jsonl"
    both = _corpus(intact, _altered(tmp_path))
    alone = _corpus(intact)
    assert both["skipped"] == {NOT_INTACT: 1}
    assert alone["skipped"] == {}
    assert both["matches"] == alone["matches"] == 1
    assert both["finished"] == alone["finished"]


def test_the_verdict_calls_the_same_record_untrusted(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(_altered(tmp_path))])
    (report,) = orjson.loads(result.stdout)
    assert report["verdict"] == "UNTRUSTED"
    assert report["intact"] is False
