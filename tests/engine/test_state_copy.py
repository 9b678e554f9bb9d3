"""`replace` on a `MatchState`: compiled, the class keeps its fields in the instance and is
copied field by field (`MatchState._with`); pure, its dictionary is copied. Either way every
field must come across, and only the changed ones may differ."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

import pytest

from vwlog.engine.replay import Collect, replay
from vwlog.io.logfile import read_log
from vwlog.model.state import MatchState, replace

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
FIELDS = [f.name for f in dataclasses.fields(MatchState)]


def _states() -> list[MatchState]:
    """Every state the samples pass through (most fields take other than default values)."""
    states = []
    for path in sorted(SAMPLES.glob("*.jsonl")):
        _, records = read_log(path)
        states.extend(step.after for step in replay(records, Collect()))
    # what no sample reaches: a judge's back-up, a concession, opened commitments
    rare = {
        "commitments": {"p1": ("c0ffee", ("p1-01",))},
        "honor_due": (("p1", 1),),
        "out_by": "JUDGE",
        "revealed": frozenset({"p1"}),
        "voided_to": 3,
    }
    states.append(dataclasses.replace(states[-1], **rare))
    return states


@pytest.fixture(scope="module")
def states() -> list[MatchState]:
    return _states()


def test_every_field_takes_another_than_its_default_value(states: list[MatchState]) -> None:
    """Else a copy that skipped a field could still read its default, from the class."""
    default = MatchState()
    changed = {f for f in FIELDS for s in states if getattr(s, f) != getattr(default, f)}
    assert changed == set(FIELDS)


def test_a_field_by_field_copy_keeps_every_field(states: list[MatchState]) -> None:
    for state in states:
        copy = state._with({})
        assert type(copy) is MatchState
        assert copy is not state
        for name in FIELDS:
            assert getattr(copy, name) is getattr(state, name), name
        assert copy == state


def test_a_field_by_field_copy_changes_only_what_it_is_given(states: list[MatchState]) -> None:
    state = states[len(states) // 2]
    changes = {"turn": state.turn + 7, "active": "p9", "done": frozenset({"x"})}
    copy = state._with(changes)
    for name in FIELDS:
        expected = changes.get(name, getattr(state, name))
        assert getattr(copy, name) == expected, name
    assert state.turn != copy.turn


def test_replace_answers_as_the_field_by_field_copy(states: list[MatchState]) -> None:
    for state in states[:: max(1, len(states) // 50)]:
        changes = {"passes": state.passes + 1, "priority": None}
        assert replace(state, **changes) == state._with(changes)
        assert replace(state, **changes) == dataclasses.replace(state, **changes)


def test_a_state_pickles_and_copies(states: list[MatchState]) -> None:
    """Worker processes send states back (``simulate --jobs``)."""
    for state in (states[0], states[len(states) // 2], states[-1]):
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.copy(state) == state
        assert copy.deepcopy(state) == state
