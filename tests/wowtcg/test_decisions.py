"""WoW TCG's decisions capability against generated matches: every decision a generated match
holds is among the legal ones at its position (the ids a player gives to what comes from his
hidden hand, and the attacker and target combat names, are his to choose, so they are compared
as the ones ``next`` offers), its line reads back as the same decision, and the capability judges
it legal; play mode's own matches (automatic play, greedy and random) break no rule."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tests.wowtcg.logs import judged
from tests.wowtcg.test_generate import READINGS
from vwlog.games import rules_for
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.fold import evolve
from vwlog.games.wowtcg.generate import Writer, generate
from vwlog.games.wowtcg.notation import fresh, line
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.games.wowtcg.script import owed
from vwlog.model.errors import UsageError
from vwlog.services.decisions import Decisions, deciding, decisions_of

GAME = rules_for("wowtcg")
CARDS = (
    ev.CardSpec(id="thrall", controller="ana", kind="hero"),
    ev.CardSpec(id="jaina", controller="budi", kind="hero"),
    ev.CardSpec(id="kaldel", controller="ana", kind="ally", exhausted=True, inspire="ally"),
    ev.CardSpec(id="footman", controller="ana", kind="ally", exhausted=True),
)
"""Heroes, and an Inspire source of ana's with an exhausted ally to ready in budi's turn."""
DECISIONS: Decisions = decisions_of(GAME, "play")


def _as_offered(s: Board, d: Any) -> Any:
    """``d`` with the names that are the player's to give replaced by the ones offered."""
    new = fresh(s)
    if isinstance(d, ev.LinkAdded) and d.kind == "CARD":
        return d.model_copy(update={"card": new.card, "link": new.link})
    if isinstance(d, ev.ResourcePlaced):
        return d.model_copy(update={"card": new.resource})
    if isinstance(d, ev.HandLimitDiscarded):
        return d.model_copy(update={"cards": new.discards})
    return d


def _kind(rs: WowRuleset, s: Board, d: Any) -> str | None:
    return "inspire" if isinstance(d, ev.InspireReadied) else owed(rs, s).kind


def _decisions_at_their_positions(events: list[Any]) -> list[tuple[Board, Any]]:
    board, found = Board(), []
    for e in events:
        if e.DECISION:
            found.append((board, e))
        board = evolve(board, e)
    return found


def test_every_generated_decision_is_legal_listed_and_reads_back() -> None:
    seen: Counter[str] = Counter()
    for seed in range(80):
        rs = WowRuleset(**READINGS[seed % len(READINGS)])
        for board, d in _decisions_at_their_positions(generate(seed, turns=8, ruleset=rs)):
            written = line(board, d)
            assert DECISIONS.parse(rs, board, written) == [d], (seed, written)
            assert DECISIONS.check(rs, board, d) == (), (seed, written)
            offered = line(board, _as_offered(board, d))
            listed, total, exact = DECISIONS.legal(rs, board, d.player, _kind(rs, board, d))
            if not isinstance(d, ev.CombatDeclared):  # attacker and target: the log's claim
                assert offered in listed, (seed, offered, listed)
            assert (total, exact) == (len(listed), True)
            seen[d.type] += 1
    for kind in (
        "priority_passed",
        "link_added",
        "resource_placed",
        "hand_limit_discarded",
        "inspire_readied",
        "combat_declared",
    ):
        assert seen[kind] > 0, kind


def test_inspire_is_offered_where_the_ready_step_begins_and_nowhere_else() -> None:
    offered = 0
    for seed in range(40):
        rs = WowRuleset()
        for board, d in _decisions_at_their_positions(generate(seed, turns=8, ruleset=rs)):
            inspires = DECISIONS.legal(rs, board, d.player, "inspire")[0]
            if isinstance(d, ev.InspireReadied):
                offered += 1
                assert deciding(GAME, DECISIONS, rs, board)[1] == "inspire"
            else:
                assert all(not i.startswith("inspire") for i in inspires) or board.at in (
                    "READY",
                    "READIED",
                )
    assert offered > 0


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_automatic_play_from_every_reading_breaks_no_rule(policy: str) -> None:
    seen: Counter[str] = Counter()
    for n, flags in enumerate(READINGS):
        w = Writer(ev.MatchStarted(players=("budi", "ana"), hands=(9, 6), decks=(3, 9),
                                   cards=CARDS, ruleset=WowRuleset(**flags)))  # fmt: skip
        rs = w.rs
        w.auto(stop=lambda b, rs=rs: deciding(GAME, DECISIONS, rs, b)[0] is not None)
        board, events = w.board, w.events
        rng = random.Random(n)
        for _ in range(300):
            player = deciding(GAME, DECISIONS, rs, board)[0]
            if player is None:
                break
            d = DECISIONS.choose(rs, board, player, rng, policy)
            if d is None:
                break
            board, played = DECISIONS.play(rs, board, d)
            events.extend(played)
            seen.update(e.type for e in played)
        assert judged(events) == [], (policy, flags)
    assert seen["turn_ended"] > len(READINGS)
    assert seen["priority_passed"] > 0
    assert seen["inspire_readied"] > 0
    # the greedy policy plays cards while its hand is above the hand size: it never discards
    assert (seen["hand_limit_discarded"] > 0) == (policy == "random")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "no decision"),
        ("fly away", "unknown verb 'fly'"),
        ("play", "write 'play CARD', one card"),
        ("play a b", "write 'play CARD', one card"),
        ("play a as", "'as' is followed by one link id"),
        ("play a ->", "'->' is followed by the targets"),
        ("attack thrall", "write 'attack ATTACKER TARGET'"),
        ("inspire a,b", "write 'inspire CARD[,CARD] by SOURCE[,SOURCE]'"),
        ("pass now", "pass takes nothing after it"),
        ("play 'open", "a quotation is not closed"),
    ],
)
def test_a_line_that_cannot_be_read_says_why_in_one_line(text: str, says: str) -> None:
    events = generate(1, turns=1)
    board = Board()
    for e in events:
        board = evolve(board, e)
    with pytest.raises(UsageError) as raised:
        DECISIONS.parse(events[0].ruleset, board, text)
    said = str(raised.value)
    assert says in said
    assert "\n" not in said


def test_ids_with_spaces_and_a_named_player_read_back() -> None:
    events = generate(3, turns=1)
    board = Board()
    for e in events:
        board = evolve(board, e)
    board = Writer(board=board).auto().board  # to the next decision the script awaits
    rs = events[0].ruleset
    other = next(p for p in board.players if p != board.holder)
    for d in (
        ev.LinkAdded(player=board.holder or "p1", link="my link", card="Fire Ball", targets=("a",)),
        ev.LinkAdded(player=other, link="x", kind="POWER", card="c", ability="deal 2: now"),
        ev.LinkAdded(player=other, link="y", kind="POWER", card="c", instant=False),
        ev.Conceded(player=other),
    ):
        assert DECISIONS.parse(rs, board, line(board, d)) == [d], line(board, d)


def test_where_consequences_are_owed_the_rules_act_before_the_decision() -> None:
    events = generate(3, turns=1)  # ends between turns
    board = Board()
    for e in events:
        board = evolve(board, e)
    rs = events[0].ruleset
    assert owed(rs, board).player is None
    (passed,) = DECISIONS.parse(rs, board, "pass")
    ahead = Writer(board=board).auto()
    assert ahead.board.holder is not None
    assert passed == ev.PriorityPassed(player=ahead.board.holder)
    assert DECISIONS.check(rs, board, passed) == ()
    _, played = DECISIONS.play(rs, board, passed)
    assert played[: len(ahead.events)] == ahead.events
    assert played[len(ahead.events)] == passed
    assert judged([*events, *played]) == []
