"""The decision word syntax of ``vwlog play``: each word gives the event a player would log.

Every decision of two generated matches is written back as words, parsed in the state before
it, and compared with what the generator logged.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import pytest

from vwlog.events import (
    AttackDeclared,
    AttackersEnteredBattle,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardSummoned,
    Conceded,
    CostPaid,
    DeploymentFinished,
    FollowerDamageAssigned,
    HandLimitDiscarded,
    PriorityPassed,
    PropertyPlaced,
    SkillRegistered,
    SupplyChosen,
)
from vwlog.games.vw.notation import parse_decision
from vwlog.model.errors import UsageError
from vwlog.rules import check, expect
from vwlog.services import SimulationSpec, simulate_to

from .support import pool, states

if TYPE_CHECKING:
    from vwlog.events import AnyEvent, EventRecord
    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState

WORDS = {
    *("pass", "supply", "summon", "skill", "place", "done"),
    *("attackers", "declare", "blockers", "blocks", "damage", "discard"),
}


def as_words(first: AnyEvent, second: AnyEvent | None) -> str | None:
    """The words a player would type for a logged decision (and the event after it)."""
    match first:
        case PriorityPassed():
            return "pass"
        case SupplyChosen(option=option):
            return f"supply {option.lower()}"
        case CostPaid(card=card, skill=None) if isinstance(second, CardSummoned):
            return f"summon {card} {second.territory or ''}".strip()
        case CostPaid(card=card, skill=skill) if isinstance(second, SkillRegistered):
            return f"skill {card} {skill} {second.target or ''}".strip()
        case PropertyPlaced(card=card, territory=territory):
            return f"place {card} {territory}"
        case DeploymentFinished():
            return "done"
        case AttackersEnteredBattle(followers=followers):
            return " ".join(("attackers", *followers))
        case AttackDeclared(attacks=attacks):
            return " ".join(("declare", *(f"{a.follower}:{a.target}" for a in attacks)))
        case BlockersEnteredBattle(followers=followers):
            return " ".join(("blockers", *followers))
        case BlocksAssigned(blocks=blocks):
            return " ".join(("blocks", *(f"{b.blocker}:{b.attacker}" for b in blocks)))
        case FollowerDamageAssigned():
            return "damage"
        case HandLimitDiscarded(cards=cards):
            return " ".join(("discard", *cards))
    return None


def decisions(
    records: list[EventRecord],
) -> list[tuple[str, MatchState, list[AnyEvent]]]:
    """``(words, state before, logged events)`` for every decision of a match."""
    folded = states(records)
    out = []
    for i, record in enumerate(records):
        if not record.is_decision or i == 0:
            continue
        second = records[i + 1].event if i + 1 < len(records) else None
        words = as_words(record.event, second)
        if words is None:
            continue
        logged = [record.event] if record.event.type != "cost_paid" else [record.event, second]
        out.append((words, folded[i], [e for e in logged if e is not None]))
    return out


@pytest.fixture(scope="module")
def played() -> list[tuple[Ruleset, list[tuple[str, MatchState, list[AnyEvent]]]]]:
    """The decisions of two whole generated matches (one of them discards to the hand limit)."""
    out = []
    for seed in (2, 7):
        [match] = simulate_to(pool(), SimulationSpec(seed=seed, max_turns=60), None)
        records = list(match.records)
        ruleset = states(records[:1])[1].ruleset
        assert ruleset is not None
        out.append((ruleset, decisions(records)))
    return out


def test_every_word_gives_the_logged_decision(
    played: list[tuple[Ruleset, list[tuple[str, MatchState, list[AnyEvent]]]]],
) -> None:
    seen: Counter[str] = Counter()
    for ruleset, cases in played:
        for words, state, logged in cases:
            parsed = parse_decision(words, ruleset, state)
            verb = words.split()[0]
            seen[verb] += 1
            if verb == "damage":  # the first legal distribution, not necessarily the logged one
                assert [type(e) for e in parsed] == [FollowerDamageAssigned], words
                assert check(ruleset, state, parsed[0]) == (), words
            else:
                assert parsed == logged, f"{words!r} at turn {state.turn}"
    assert set(seen) == WORDS, seen


def test_concede_and_json_give_the_awaited_players_decision(
    played: list[tuple[Ruleset, list[tuple[str, MatchState, list[AnyEvent]]]]],
) -> None:
    ruleset, cases = played[0]
    _, state, _ = next(case for case in cases if case[0] == "pass")
    player = expect(ruleset, state).player
    assert player is not None

    assert parse_decision("  concede ", ruleset, state) == [Conceded(player=player)]
    assert parse_decision("PASS", ruleset, state) == [PriorityPassed(player=player)]
    text = f'{{"type":"priority_passed","player":"{player}"}}'
    assert parse_decision(text, ruleset, state) == [PriorityPassed(player=player)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty decision"),
        ("fly away", "unknown decision 'fly'"),
        ("supply", r"decision 'supply': missing words; the syntax is 'supply CARDS_2\|"),
        ("supply NINE_GOLD", r"'NINE_GOLD' is not a valid SupplyOption \(the syntax is 'supply "),
        ("summon", r"missing words; the syntax is 'summon CARD \[TERRITORY\]'$"),
        ("summon no-such-card", "unknown card 'no-such-card'"),
        (
            "place p1-001",
            "decision 'place p1-001': missing words; the syntax is 'place CARD TERRITORY'",
        ),
        ("declare p1-001", r"the syntax is 'declare CARD:TERRITORY\.\.\.'"),
        ("blocks p1-001", r"the syntax is 'blocks BLOCKER:ATTACKER\.\.\.'"),
        ('{"type":"priority_passed"}', "field 'priority_passed.player': field required"),
        ('{"type":"priority_passed"', r"invalid json: eof while parsing an object"),
        ('{"type":"no_such_event","player":"p1"}', "decision"),
        pytest.param(
            "skill no-such-card s1",
            "unknown card 'no-such-card'",
        ),
        pytest.param(
            "damage",
            "no damage distribution is open now",
        ),
    ],
)
def test_a_decision_that_cannot_be_parsed_is_a_usage_error(
    played: list[tuple[Ruleset, list[tuple[str, MatchState, list[AnyEvent]]]]],
    text: str,
    message: str,
) -> None:
    ruleset, cases = played[0]
    _, state, _ = next(case for case in cases if case[0] == "pass")

    with pytest.raises(UsageError, match=message):
        parse_decision(text, ruleset, state)
