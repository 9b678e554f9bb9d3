"""The short fuzz run: a bounded number of damaged logs through every command that reads a
record (`tests.fuzz.mutator`), in seconds; ``bench/fuzz_bench.py`` runs the long one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.fuzz.mutator import KINDS, ROTATION, Mutator, fuzz

if TYPE_CHECKING:
    from pathlib import Path

ROUNDS = 3
"""Each entry of the rotation runs on this many inputs (a few hundred inputs in all)."""


def test_every_command_on_damaged_logs_ends_cleanly(tmp_path: Path) -> None:
    tally = fuzz(len(ROTATION) * ROUNDS, tmp_path, seed=20261206, limit=60.0)
    assert tally.inputs == len(ROTATION) * ROUNDS
    assert set(tally.by_kind) == set(KINDS)
    assert len(tally.by_command) == len(ROTATION)
    # the damage is judged, not only refused: some inputs reach the rules (exit 1)
    assert tally.exits.get("1", 0) > 0
    assert tally.exits.get("2", 0) > 0
    assert not tally.findings, "\n".join(tally.findings[:10])
    assert (tally.tracebacks, tally.hangs) == (0, 0)


def test_the_mutator_is_reproducible() -> None:
    first, second = Mutator(5), Mutator(5)
    assert [first.make() for _ in range(20)] == [second.make() for _ in range(20)]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_damage_changes_the_log(kind: str) -> None:
    mutator = Mutator(11)
    made = set()
    for _ in range(400):
        found, content = mutator.make()
        if found == kind:
            made.add(content)
    originals = {raw for raw, _ in mutator.sources}
    assert made - originals, kind
