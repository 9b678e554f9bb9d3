"""The seeded generator's records are legal, the same seed gives the same record, and the
judge cites at least 99 % of single-event mutations at the mutated event (the mutation
audit, on a sample of records; ``bench/l5r_audit.py`` runs it at scale)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.l5r_audit import BAR, audit
from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games.l5r.events import L5rRecord
from vwlog.games.l5r.generate import generate

ROOT = Path(__file__).resolve().parents[2]


def _violations(events: list[object]) -> list[object]:
    records = [L5rRecord.model_validate({"seq": i, "event": e}) for i, e in enumerate(events, 1)]
    return list(replay(records, Validator(), header=LogHeader(game="l5r", match_id="g")).violations)


def test_two_hundred_generated_records_are_legal() -> None:
    kinds: set[str] = set()
    for seed in range(200):
        events = generate(seed)
        assert _violations(events) == [], seed
        kinds |= {e.type for e in events}
    # the records reach every part of a battle
    assert {"battle_action_taken", "province_destroyed", "honor_gained", "army_destroyed",
            "defenders_sent_home", "attackers_sent_home"} <= kinds  # fmt: skip


def test_the_same_seed_gives_the_same_record() -> None:
    assert generate(7) == generate(7)
    assert generate(7) != generate(8)


def test_a_generated_record_is_legal_through_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "generated.jsonl"
    lines = [json.dumps({"format": "vwlog", "version": 1, "game": "l5r", "match_id": "g"})]
    lines += [
        json.dumps({"seq": i, "event": e.model_dump(mode="json")})
        for i, e in enumerate(generate(3), 1)
    ]
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "validate", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    (report,) = json.loads(done.stdout)
    assert report["violations"] == []


@pytest.mark.parametrize("seed", [0, 100])
def test_the_mutation_audit_cites_mutations_at_the_mutated_event(seed: int) -> None:
    total, at_event, unseen = audit(8, seed)
    assert sum(unseen.values()) == 0
    assert sum(at_event.values()) >= BAR * sum(total.values())
    assert set(total) == {"drop", "swap", "player", "value"}
