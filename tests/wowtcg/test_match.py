"""A WoW TCG match beyond single rules: three seats, omissions reported once, concession and
the end of the match, forks, the log rules, and where a violation is located."""

from __future__ import annotations

from tests.wowtcg.logs import GAME, end_turn, judged, to_action, to_end, writer
from vwlog.engine.replay import Validator, replay
from vwlog.events.core import MatchForked
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.generate import Writer
from vwlog.games.wowtcg.ruleset import WowRuleset


def test_three_players_take_turns_clockwise_and_all_pass_in_succession() -> None:
    w = writer(players=("p1", "p2", "p3"), hands=(3, 3, 3))
    for player in ("p1", "p2", "p3", "p1"):
        end_turn(to_end(to_action(w)))
        assert w.board.current == player
    assert judged(w.events) == []
    early = to_action(writer(players=("p1", "p2", "p3"))).passes(2)
    early.add(ev.PriorityWindowClosed())
    assert judged(early.events) == [("WOW-ACT-5", len(early.events), None)]


def test_an_omitted_phase_start_is_reported_once() -> None:
    w = writer().add(ev.TurnStarted(turn=1, player="p1"), ev.StepStarted(step="READY"))
    w.auto().passes().auto()
    assert judged(w.events) == [("WOW-TRN-2", 3, None)]


def test_an_omitted_window_is_reported_once() -> None:
    w = writer().auto().passes().auto(2)
    w.add(ev.ResourcePlaced(player="p1", card="r1"), ev.PriorityPassed(player="p1"))
    w.add(ev.PriorityPassed(player="p2"), ev.PriorityWindowClosed())
    assert judged(w.events) == [("WOW-ACT-1", 11, None)]


def test_a_concession_ends_the_match_and_nothing_may_follow() -> None:
    w = to_action(writer()).add(ev.Conceded(player="p2"))
    assert judged(w.events) == []
    assert w.board.winner == "p1"
    w.add(ev.PriorityPassed(player="p1"))
    assert judged(w.events) == [("CORE-LOG-2", len(w.events), None)]


def test_the_log_rules_are_cited_by_their_core_ids() -> None:
    assert judged([ev.TurnStarted(turn=1, player="p1")]) == [("CORE-LOG-1", 1, None)]
    w = to_action(writer()).add(ev.PriorityPassed(player="zed"))
    assert judged(w.events) == [("CORE-ID-1", len(w.events), None)]
    w = writer().add(ev.TurnStarted(turn=1, player="p1"), ev.CardsExhausted(cards=("ghost",)))
    assert judged(w.events)[0] == ("CORE-ID-2", 3, None)


def test_a_fork_leaves_only_where_a_player_holds_priority() -> None:
    fork = MatchForked(parent="m0", at=9)
    assert judged(to_action(writer()).add(fork).events) == []
    w = writer().add(ev.TurnStarted(turn=1, player="p1"), fork)
    assert judged(w.events) == [("CORE-FORK-1", 3, None)]


def test_a_violation_says_turn_phase_step_priority_and_the_seed_section() -> None:
    w = to_action(writer()).add(ev.PriorityPassed(player="p2"))
    records = [ev.WowRecord(seq=i, event=e) for i, e in enumerate(w.events, 1)]
    (v,) = replay(records, Validator(), game=GAME).violations
    assert (v.turn, v.phase, v.step, v.priority) == (1, "ACTION", None, "p1")
    assert v.message == "p2 does not hold priority (p1 does) (502.2)"
    assert str(v).startswith("WOW-PRI-4  p2 does not hold priority")


def test_what_is_owed_when_a_record_ends() -> None:
    w = to_end(to_action(writer(hands=(9, 7)))).passes().auto()
    assert GAME.owed(w.board) == ()  # a discard is owed: a decision, not a consequence
    w.add(ev.HandLimitDiscarded(player="p1", cards=("a", "b")))
    assert GAME.owed(w.board) == ("turn_ended",)
    assert GAME.owed(Board()) == ()


def test_the_summary_names_players_turn_and_ruleset() -> None:
    w = end_turn(to_end(to_action(writer())))
    s = GAME.summary(w.board)
    assert (s.players, s.turn, s.ruleset, s.winner) == (("p1", "p2"), 1, "wowtcg@1", None)
    assert GAME.start_ruleset(w.events[0]) == WowRuleset()


def test_a_hand_size_modifier_moves_the_limit_and_no_discard_is_owed_below_it() -> None:
    big = to_action(writer(hands=(9, 7)))
    big.add(ev.ModifierCreated(id="m1", kind="MAX_HAND_SIZE", player="p1", amount=9))
    to_end(big).passes().auto(2).add(ev.TurnEnded(turn=1))
    assert judged(big.events) == []
    small = to_end(to_action(writer())).passes().auto(2)
    small.add(ev.HandLimitDiscarded(player="p1", cards=("a",)))
    assert judged(small.events) == [("WOW-END-4", len(small.events), None)]


def test_an_effect_triggered_in_a_window_goes_onto_the_chain_before_priority_passes_on() -> None:
    def resolved() -> Writer:
        w = to_action(writer()).add(ev.LinkAdded(player="p1", link="l1", card="c1"))
        w.passes().add(ev.LinkResolved(link="l1"))
        return w.add(ev.AbilityTriggered(trigger="t1", player="p2", when="OTHER"))

    good = resolved()
    good.add(ev.TriggerAdded(trigger="t1"), ev.PriorityPassed(player="p1"))
    assert judged(good.events) == []
    bad = resolved()
    bad.add(ev.PriorityPassed(player="p1"))
    assert judged(bad.events) == [("WOW-TRG-2", len(bad.events), None)]
