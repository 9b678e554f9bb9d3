"""What a player could know at a position: their view of the board and the cards they had seen."""

from __future__ import annotations

import pytest

from vwlog.audit.knowledge import knowledge
from vwlog.model.errors import UsageError
from vwlog.render.json import knowledge_json

from .logs import load


def test_a_card_seen_on_the_register_stays_known_after_a_back_up() -> None:
    # judge-backup: p1 summons Militia Spearman (p1-002) at seq 21; the back-up at seq 25 voids
    # it and the card goes back to p1's hand, but p2 has seen it
    _, records = load("judge-backup.jsonl")

    k = knowledge(records, 30, "p2")

    assert k.seq == 30
    hidden = {c.id: c for c in k.hidden}
    spearman = hidden["p1-002"]
    assert (spearman.seq, spearman.how) == (21, "on the register")
    assert (spearman.now.zone, spearman.now.player) == ("HAND", "p1")
    assert spearman.where == "in p1's hand"
    assert spearman.public
    p1 = next(p for p in k.board.players if p.id == "p1")
    assert p1.hand is None  # p2 does not see p1's hand on the board
    assert k.unknown_in_hand("p1") == p1.hand_size - 1


def test_a_player_knows_their_own_hand_and_not_the_others() -> None:
    _, records = load("judge-backup.jsonl")

    k = knowledge(records, 30, "p1")

    me = next(p for p in k.board.players if p.id == "p1")
    assert me.hand is not None
    hand = {c.id for c in me.hand}
    seen = {c.id: c for c in k.seen}
    assert hand <= set(seen)
    assert all(not seen[c].public for c in hand - {"p1-002"})
    # p1 never saw p2's hand: only p2's cards that reached a public zone
    assert all(c.public for c in k.seen if c.owner == "p2")
    assert not [c for c in k.hidden if c.owner == "p2"]
    assert knowledge_json(k)["player"] == "p1"


def test_draws_are_shown_only_to_their_owner() -> None:
    _, records = load("hand-limit.jsonl")
    last = records[-1].seq
    mine = knowledge(records, last, "p1")
    theirs = knowledge(records, last, "p2")
    own_private = {c.id for c in mine.seen if not c.public and c.owner == "p1"}
    assert own_private
    assert not own_private & {c.id for c in theirs.seen}


def test_errors_name_the_problem() -> None:
    _, records = load("judge-backup.jsonl")
    with pytest.raises(UsageError, match="no player 'p9'"):
        knowledge(records, 30, "p9")
    with pytest.raises(UsageError, match=r"no event with seq 999 .*1\.\.85"):
        knowledge(records, 999, "p1")
