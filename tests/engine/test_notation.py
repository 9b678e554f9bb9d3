"""The decision notation reads back every decision it writes, on real matches."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from vwlog.engine.replay import Step, replay
from vwlog.events import (
    AnyEvent,
    CardSummoned,
    Conceded,
    CostPaid,
    EventRecord,
    JudgeRulingIssued,
    MatchForked,
    MatchStarted,
    SkillRegistered,
)
from vwlog.games.vw.notation import (
    VERBS,
    DecisionSyntaxError,
    decision_syntax,
    format_decision,
    parse_decision,
)
from vwlog.games.vw.simulate import simulate
from vwlog.io.logfile import open_log
from vwlog.io.pools import load_pool
from vwlog.model.cards import Ruleset
from vwlog.model.state import MatchState
from vwlog.rules import expect

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
LEGAL = sorted(SAMPLES.glob("*.jsonl"))
NOT_WORDS = (JudgeRulingIssued, MatchForked)
"""Decisions that are never typed in play: they keep their JSON form."""


class _Boards:
    """Every event with the board before it, as the replay loop sees it (a judge's back-up
    restores an earlier board)."""

    def __init__(self) -> None:
        self.steps: list[tuple[AnyEvent, MatchState]] = []

    def begin_match(self, header: object) -> None:
        """Nothing to do."""

    def visit(self, step: Step) -> None:
        self.steps.append((step.record.event, step.before))

    def end_match(self, final: MatchState) -> None:
        """Nothing to do."""

    def result(self) -> list[tuple[AnyEvent, MatchState]]:
        return self.steps


def _round_trip(records: Iterable[EventRecord]) -> tuple[int, int]:
    """Format and parse back every decision; returns (decisions, compound summons/skills)."""
    ruleset: Ruleset | None = None
    decisions = compounds = 0
    previous: tuple[CostPaid, MatchState] | None = None
    for event, state in replay(records, _Boards()):
        if isinstance(event, MatchStarted):
            ruleset = event.ruleset
        if event.DECISION and ruleset is not None:
            text = format_decision(event, ruleset, state)
            if isinstance(event, NOT_WORDS):
                assert text.startswith("{"), text
            else:
                assert not text.startswith("{"), f"no words for {event!r}"
            assert parse_decision(text, ruleset, state) == [event], text
            decisions += 1
            if isinstance(event, (CardSummoned, SkillRegistered)) and previous is not None:
                cost, before = previous
                # the compound verb pays and registers in one go from the priority point
                words = text.split(": ", 1)[-1]
                assert parse_decision(words, ruleset, before) == [cost, event], words
                compounds += 1
        previous = (event, state) if isinstance(event, CostPaid) else None
    return decisions, compounds


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: p.stem)
def test_every_sample_decision_round_trips(path: Path) -> None:
    with open_log(path) as reader:
        records = [line.record for line in reader]
    decisions, _ = _round_trip(records)
    assert decisions > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_match_decisions_round_trip(seed: int) -> None:
    match = simulate(load_pool(), seed=seed, players=2 + seed % 3, max_turns=12)
    decisions, compounds = _round_trip(match.records)
    assert decisions > 20
    assert compounds > 0


def _first_decision_point() -> tuple[Ruleset, MatchState]:
    with open_log(SAMPLES / "first-turn-supply.jsonl") as reader:
        records = [line.record for line in reader]
    start = records[0].event
    assert isinstance(start, MatchStarted)
    for event, state in replay(records, _Boards()):
        if not isinstance(event, MatchStarted) and expect(start.ruleset, state).player:
            return start.ruleset, state
    raise AssertionError("no decision point")


def test_words_name_the_player_only_when_it_is_not_the_awaited_one() -> None:
    ruleset, state = _first_decision_point()
    awaited = expect(ruleset, state).player
    assert awaited is not None
    other = next(p.id for p in state.players if p.id != awaited)
    assert format_decision(Conceded(player=awaited), ruleset, state) == "concede"
    assert format_decision(Conceded(player=other), ruleset, state) == f"{other}: concede"
    assert parse_decision(f"{other}: concede", ruleset, state) == [Conceded(player=other)]
    assert parse_decision("concede", ruleset, state) == [Conceded(player=awaited)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty decision"),
        ("fly p1-001", "unknown decision 'fly'"),
        ("supply LOTS", "'LOTS' is not a valid SupplyOption"),
        ("blocks p2-007", "is not BLOCKER:ATTACKER"),
        ("damage a:b:x", "is not SOURCE:RECIPIENT:AMOUNT"),
        ("place p1-001", "missing words; the syntax is 'place CARD TERRITORY'"),
        ("pass now", "unexpected words 'now'"),
        ('{"type":"nothing"}', 'decision \'{"type":"nothing"}\''),
    ],
)
def test_bad_words_are_refused_with_the_syntax(text: str, message: str) -> None:
    ruleset, state = _first_decision_point()
    with pytest.raises(DecisionSyntaxError, match=message.replace("(", r"\(")):
        parse_decision(text, ruleset, state)


def test_the_syntax_lists_every_verb_once() -> None:
    text = decision_syntax()
    for name in VERBS:
        assert sum(line.split()[0] == name for line in text.splitlines()[2:]) == 1
