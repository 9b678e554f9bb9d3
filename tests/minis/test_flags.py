"""The ruleset flags change verdicts: the same log is legal under one reading and breaks a rule
under the other, and the violation names the flag it rests on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.minis.logs import B, at, ev, judged, move, start
from vwlog.games.minis.ruleset import MinisRuleset


def _under(events: list[Any], **flags: Any) -> list[Any]:
    return [start(MinisRuleset(**flags)), *events[1:]]


CASES = [
    # flag, the other reading, the log, the rule the default cites
    ("movement_required", "MAY_SKIP", at(B, 9, move("m1", kind="NONE"), drop=1), "MIN-ACT-3"),
    (
        "strategic_declarers",
        "ALL_MODELS",
        at(B, 4, ev.Declared(player="p2", model="r1", kind="ABILITY", name="Guard")),
        "MIN-PHS-1",
    ),
    ("match_end", "AFTER_ROUNDS", [*B[:-1], ev.RoundStarted(round=2, first="p1")], None),
]


@pytest.mark.parametrize(("flag", "other", "events", "rule"), [c for c in CASES if c[3]])
def test_a_flag_decides_the_verdict(flag: str, other: str, events: list[Any], rule: str) -> None:
    found = judged(events)
    assert found[0].rule == rule
    assert found[0].flag == flag
    assert judged(_under(events, **{flag: other})) == []


def test_activating_a_model_twice_rests_on_activations_per_turn() -> None:
    assert judged(B) == []
    found = judged(_under(B, activations_per_turn="ONCE"))
    assert (found[0].rule, found[0].seq, found[0].flag) == ("MIN-PHS-5", 19, "activations_per_turn")


def test_the_match_ends_after_its_rounds() -> None:
    assert judged(_under(B, match_end="AFTER_ROUNDS", rounds=1)) == []
    early = judged(_under(B, match_end="AFTER_ROUNDS", rounds=2))
    assert (early[0].rule, early[0].seq, early[0].flag) == ("MIN-RND-2", len(B), "match_end")


def test_a_redetermined_first_player() -> None:
    nxt = [*B[:-1], ev.RoundStarted(round=2, first="p2")]
    found = judged(nxt)
    assert (found[0].rule, found[0].flag) == ("MIN-RND-3", "first_player_each_round")
    assert judged(_under(nxt, first_player_each_round="REDETERMINED")) == []


def test_a_changed_reaction_costs_an_ap_under_one_ap() -> None:
    from tests.minis.logs import SAMPLES

    events = SAMPLES["legal_ranged_aoo_confrontation"]
    assert judged(events) == []
    found = judged(_under(events, declaration_change_cost="ONE_AP"))
    assert (found[0].rule, found[0].flag) == ("MIN-REA-7", "declaration_change_cost")


def test_several_reactive_players_declare_in_seat_order() -> None:
    from tests.minis.logs import SAMPLES

    events = SAMPLES["legal_three_players"]
    i = next(n for n, e in enumerate(events) if isinstance(e, ev.ReactionsDeclared))
    swapped = [*events[:i], events[i + 1], events[i], *events[i + 2 :]]
    found = judged(swapped)
    assert (found[0].rule, found[0].seq, found[0].flag) == (
        "MIN-ACT-5",
        i + 1,
        "reaction_declaration_order",
    )
    ruled = [
        events[0].model_copy(
            update={"ruleset": MinisRuleset(reaction_declaration_order="SIMULTANEOUS")}
        ),
        *swapped[1:],
    ]
    assert judged(ruled) == []


def test_upkeep_gives_ap_to_every_model_in_play_unless_as_logged() -> None:
    i = next(n for n, e in enumerate(B) if n > 34 and isinstance(e, ev.ApAllotted))
    fewer = ev.ApAllotted(allotments=tuple(a for a in B[i].allotments if a.model != "m2"))
    events = [*B[:i], fewer, *B[i + 1 :]]
    found = judged(events)
    assert (found[0].rule, found[0].seq, found[0].flag) == (
        "MIN-PHS-3",
        i + 1,
        "eligible_for_upkeep",
    )
    assert judged(_under(events, eligible_for_upkeep="AS_LOGGED")) == []


def test_with_three_players_the_active_role_passes_in_seat_order() -> None:
    from tests.minis.logs import SAMPLES

    events = SAMPLES["legal_three_players"]
    swap = {"p2": "p3", "p3": "p2"}

    def other(e: Any) -> Any:
        if isinstance(e, ev.TurnStarted) and e.turn > 1:
            active = swap[e.active]
            return e.model_copy(
                update={
                    "active": active,
                    "reactive": tuple(p for p in ("p1", "p2", "p3") if p != active),
                }
            )
        if isinstance(e, ev.TacticalStopped) and e.player != "p1":
            return e.model_copy(update={"player": swap[e.player]})
        return e

    changed = [other(e) for e in events]
    i = next(n for n, e in enumerate(changed) if isinstance(e, ev.TurnStarted) and e.turn == 2)
    found = judged(changed)
    assert (found[0].rule, found[0].seq, found[0].flag) == ("MIN-RND-3", i + 1, "active_rotation")
    ruled = [
        changed[0].model_copy(update={"ruleset": MinisRuleset(active_rotation="AS_LOGGED")}),
        *changed[1:],
    ]
    assert judged(ruled) == []
