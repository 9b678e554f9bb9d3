"""``vwlog stats`` on the miniatures samples, through the real command line: each match's
figures are what its record holds, and the corpus sums them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from vwlog.cli import main

FOLDER = Path(__file__).resolve().parents[2] / "samples" / "minis"


def _counts(path: Path) -> dict[str, Any]:
    events = [json.loads(line)["event"] for line in path.read_text().splitlines()[1:]]
    kinds = Counter(e["type"] for e in events)
    rolls = [e for e in events if e["type"] == "roll"]
    ended = [e for e in events if e["type"] == "match_ended"]
    return {
        "rounds": kinds["round_started"],
        "turns": kinds["turn_started"],
        "activations": kinds["model_activated"],
        "aoo": kinds["aoo_declared"],
        "reactions": sum(len(e["reactions"]) for e in events if e["type"] == "reactions_declared"),
        "rolls": len(rolls),
        "dice": sum(e["dice"] for e in rolls),
        "hits": sum(e["hits"] for e in rolls),
        "wounds": sum(e["wounds"] for e in events if e["type"] == "wounds_applied"),
        "winner": ended[0].get("winner") if ended else None,
    }


def test_each_match_and_the_corpus_against_the_records() -> None:
    done = CliRunner().invoke(
        main, ["--lang", "en", "stats", "--per-match", "--format", "json", str(FOLDER)]
    )
    assert done.exit_code == 0, done.stderr
    data = json.loads(done.stdout)
    logs = sorted(FOLDER.glob("*.jsonl"))
    assert data["matches"] == len(logs)
    by_source = {Path(m["source"]).name: m["figures"] for m in data["per_match"]}
    expected = {p.name: _counts(p) for p in logs}
    for name, want in expected.items():
        assert {k: by_source[name][k] for k in want} == want, name
    assert data["figures"]["rolls"]["total"] == sum(w["rolls"] for w in expected.values())
    # r2 in line of sight; r1 approaching and within Reach; r2 in line of sight and m1 Shrouded
    assert by_source["legal_ranged_aoo_confrontation.jsonl"]["claims"] == 5
