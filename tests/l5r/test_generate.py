"""The seeded generator's records are legal, the same seed gives the same record, and the
judge cites at least 99 % of single-event mutations at the mutated event (the mutation
audit, on a sample of records; ``bench/l5r_audit.py`` runs it at scale)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench.l5r_audit import BAR, audit
from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games.l5r.events import L5rRecord
from vwlog.games.l5r.generate import generate
from vwlog.games.l5r.ruleset import L5rRuleset

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


FLAG_READINGS = {
    name: ((True, False) if field.annotation is bool else field.annotation.__args__)
    for name, field in L5rRuleset.model_fields.items()
    if name not in ("id", "version")
}


def test_generated_records_are_legal_under_any_reading_of_the_flags() -> None:
    rng = random.Random(5)
    for seed in range(60):
        rs = L5rRuleset(**{name: rng.choice(values) for name, values in FLAG_READINGS.items()})
        assert _violations(generate(seed, ruleset=rs)) == [], (seed, rs)


def test_the_judge_never_raises_on_scrambled_records() -> None:
    for seed in range(120):
        events = generate(seed)
        rng = random.Random(seed)
        for _ in range(rng.randint(1, 6)):
            i, j = rng.randrange(1, len(events)), rng.randrange(1, len(events))
            if rng.random() < 0.4:
                del events[i]
            elif rng.random() < 0.5:
                events.insert(j, events[i])
            else:
                events[i], events[j] = events[j], events[i]
        _violations(events)  # raises on a crash of the judge or the fold


@pytest.mark.parametrize("seed", [0, 100])
def test_the_mutation_audit_cites_mutations_at_the_mutated_event(seed: int) -> None:
    total, at_event, unseen = audit(8, seed)
    assert sum(unseen.values()) == 0
    assert sum(at_event.values()) >= BAR * sum(total.values())
    assert set(total) == {"drop", "swap", "player", "value"}
