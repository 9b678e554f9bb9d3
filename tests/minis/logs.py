"""The miniatures scenarios the tests and samples/minis share: a legal one-round match (the
digest's acceptance scenarios S1-S3 inside it), its variants, and for every rule a log that
breaks it at a known event.

    python -m tests.minis.logs        # writes samples/minis/*.jsonl and expected.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games.minis import events as ev
from vwlog.games.minis.ruleset import MinisRuleset

HEADER = LogHeader(game="minis", match_id="minis-sample")
MODELS = (
    ev.ModelDef(
        id="m1",
        owner="p1",
        stamina=2,
        skills=("Dash",),
        leader=True,
        abilities=("Rally",),
        stratagems=("Ambush",),
    ),
    ev.ModelDef(id="m2", owner="p1", stamina=1),
    ev.ModelDef(id="r1", owner="p2", stamina=2, abilities=("Guard",)),
    ev.ModelDef(id="r2", owner="p2", stamina=1, skills=("Flight",), awareness=True),
)


def start(
    rs: MinisRuleset | None = None, players: tuple[str, ...] = ("p1", "p2")
) -> ev.MinisStarted:
    return ev.MinisStarted(players=players, first="p1", models=MODELS, ruleset=rs or MinisRuleset())


def phase(name: str) -> ev.PhaseStarted:
    return ev.make(ev.PhaseStarted, phase=name)


def ap(**values: int) -> ev.ApAllotted:
    return ev.ApAllotted(allotments=tuple(ev.Allotment(model=m, ap=n) for m, n in values.items()))


def act(model: str, player: str = "p1") -> ev.ModelActivated:
    return ev.ModelActivated(player=player, model=model)


def move(model: str, *skills: str, kind: str = "NORMAL", player: str = "p1") -> ev.MovementDeclared:
    return ev.make(ev.MovementDeclared, player=player, model=model, kind=kind, skills=skills)


def react(*reactions: ev.Reaction, player: str = "p2") -> ev.ReactionsDeclared:
    return ev.ReactionsDeclared(player=player, reactions=reactions)


def r(model: str, action: str, target: str | None = None, **more: Any) -> ev.Reaction:
    return ev.Reaction(model=model, action=action, target=target, **more)


def action(
    model: str, name: str, *targets: str, kind: str = "NORMAL", player: str = "p1"
) -> ev.ActionDeclared:
    return ev.make(
        ev.ActionDeclared, player=player, model=model, kind=kind, action=name, targets=targets
    )


def roll(
    player: str, model: str, purpose: str, *results: int, hits: int = 0, target: str | None = None
) -> ev.Roll:
    return ev.make(
        ev.Roll,
        player=player,
        model=model,
        purpose=purpose,
        dice=len(results),
        results=results,
        hits=hits,
        target=target,
    )


def end_turn(rnd: int, turn: int) -> list[Any]:
    return [phase("END"), ev.ApDiscarded(), ev.RolesSwapped(), ev.TurnEnded(round=rnd, turn=turn)]


ALLOT = ap(m1=2, m2=1, r1=2, r2=1)


def turn_one(rs: MinisRuleset | None = None) -> list[Any]:
    """Round 1, turn 1: p1 Active; S2 (a Reaction Attack at the activated model, with rolls),
    S3 (a failed AoO, then another model reacts) and S1 (AP pay for the activations)."""
    return [
        start(rs),
        ev.RoundStarted(round=1, first="p1"),
        ev.TurnStarted(round=1, turn=1, active="p1", reactive=("p2",)),
        phase("STRATEGIC"),
        ev.Declared(player="p1", model="m1", kind="LEADER_STRATAGEM", name="Ambush"),
        phase("UPKEEP"),
        ALLOT,
        phase("TACTICAL"),
        act("m1"),
        move("m1", "Dash"),
        react(r("r1", "Attack", "m1")),
        action("m1", "Attack", "r1"),
        roll("p1", "m1", "CONFRONTATION", 5, 2, hits=1, target="r1"),
        roll("p2", "r1", "CONFRONTATION", 3),
        roll("p1", "m1", "DAMAGE", 4),
        roll("p2", "r1", "PREVENTION", 6),
        ev.WoundsApplied(model="r1", wounds=1),
        ev.SequenceEnded(model="m1"),
        act("m1"),
        move("m1"),
        ev.AoODeclared(player="p2", model="r1", target="m1"),
        ev.AoOChecked(model="r1", within_reach=False),
        react(r("r2", "Dodge")),
        action("m1", "Perceive"),
        ev.SequenceEnded(model="m1"),
        act("m2"),
        move("m2"),
        react(),
        action("m2", "Perceive"),
        ev.SequenceEnded(model="m2"),
        *end_turn(1, 1),
    ]


def turn_two() -> list[Any]:
    """Round 1, turn 2: p2 Active, who stops at once."""
    return [
        ev.TurnStarted(round=1, turn=2, active="p2", reactive=("p1",)),
        phase("STRATEGIC"),
        phase("UPKEEP"),
        ALLOT,
        phase("TACTICAL"),
        ev.TacticalStopped(player="p2"),
        *end_turn(1, 2),
    ]


def base(rs: MinisRuleset | None = None) -> list[Any]:
    """The legal one-round match."""
    return [*turn_one(rs), *turn_two(), ev.RoundEnded(round=1), ev.MatchEnded(winner="p1")]


def at(events: list[Any], i: int, *new: Any, drop: int = 0) -> list[Any]:
    """``events`` with ``new`` at index ``i`` (0-based), ``drop`` events removed there."""
    return [*events[:i], *new, *events[i + drop :]]


B = base()
SEQ = {e: i for i, e in reversed(list(enumerate(B)))}
"""Index of the first occurrence of each event of the base log."""


def ranged_aoo() -> list[Any]:
    """A Ranged AoO while m1 approaches; m1's Melee Attack starts a Confrontation first
    (MIN-REA-6), then r2's Dodge changes to an Attack right after the Action Step (MIN-REA-7)."""
    seq = [
        act("m1"),
        move("m1"),
        ev.AoODeclared(player="p2", model="r1", target="m1", ranged=True, approaching=True),
        ev.AoOChecked(model="r1", within_reach=True),
        react(r("r2", "Dodge")),
        action("m1", "Melee Attack", "r1"),
        ev.ReactionChanged(player="p2", model="r2", enemy_state="SHROUDED"),
        roll("p1", "m1", "CONFRONTATION", 6, hits=1, target="r1"),
        roll("p2", "r1", "CONFRONTATION", 2),
        roll("p1", "m1", "DAMAGE", 5),
        ev.WoundsApplied(model="r1", wounds=1),
        ev.SequenceEnded(model="m1"),
    ]
    again = [act("m1"), move("m1"), react(), action("m1", "Perceive"), ev.SequenceEnded(model="m1")]
    return at(B, 8, *seq, *again, drop=17)


def three_players() -> list[Any]:
    """Three players: the Active Role passes in seat order, the Reactive players declare in
    seat order from the Active Player."""
    models = (*MODELS, ev.ModelDef(id="x1", owner="p3", stamina=1))
    allot = ap(m1=2, m2=1, r1=2, r2=1, x1=1)
    events: list[Any] = [
        ev.MinisStarted(players=("p1", "p2", "p3"), first="p1", models=models),
        ev.RoundStarted(round=1, first="p1"),
    ]
    for n, (active, reactive) in enumerate(
        (("p1", ("p2", "p3")), ("p2", ("p1", "p3")), ("p3", ("p1", "p2"))), 1
    ):
        events += [
            ev.TurnStarted(round=1, turn=n, active=active, reactive=reactive),
            phase("STRATEGIC"),
            phase("UPKEEP"),
            allot,
            phase("TACTICAL"),
        ]
        if active == "p1":
            events += [
                act("m2"),
                move("m2"),
                react(player="p2"),
                react(r("x1", "Dodge"), player="p3"),
                action("m2", "Perceive"),
                ev.SequenceEnded(model="m2"),
            ]
        events += [ev.TacticalStopped(player=active), *end_turn(1, n)]
    return [*events, ev.RoundEnded(round=1), ev.MatchEnded()]


def two_rounds() -> list[Any]:
    """Two rounds; the 1st Player is p1 in each (``first_player_each_round=FIXED``)."""
    return [
        *turn_one(),
        *turn_two(),
        ev.RoundEnded(round=1),
        ev.RoundStarted(round=2, first="p1"),
        *[e.model_copy(update={"round": 2}) if hasattr(e, "round") else e for e in turn_one()[2:]],
        *[e.model_copy(update={"round": 2}) if hasattr(e, "round") else e for e in turn_two()],
        ev.RoundEnded(round=2),
        ev.MatchEnded(winner="p2"),
    ]


C13 = SEQ[B[12]]  # the first roll
# each non-geometric enforceable rule: (the breaking log, index of the breaking event)
BREAKS: dict[str, tuple[list[Any], int]] = {
    "MIN-RND-1": (
        at(B, 2, ev.TurnStarted(round=1, turn=2, active="p1", reactive=("p2",)), drop=1),
        2,
    ),
    "MIN-RND-2": (at(B, 34, ev.RoundEnded(round=1)), 34),
    "MIN-RND-3": (
        at(B, 34, ev.TurnStarted(round=1, turn=2, active="p1", reactive=("p2",)), drop=1),
        34,
    ),
    "MIN-RND-4": (at(B, 5, phase("TACTICAL"), drop=3), 5),
    "MIN-PHS-1": (
        at(B, 4, ev.Declared(player="p1", model="m1", kind="ABILITY", name="Fireball"), drop=1),
        4,
    ),
    "MIN-PHS-2": (
        at(B, 8, ev.Declared(player="p1", model="m1", kind="LEADER_STRATAGEM", name="Ambush")),
        8,
    ),
    "MIN-PHS-3": (at(B, 6, ap(m1=3, m2=1, r1=2, r2=1), drop=1), 6),
    "MIN-PHS-4": (at(B, 8, act("r1")), 8),
    "MIN-PHS-5": ([*B[:18], *end_turn(1, 1), *B[34:]], 18),
    "MIN-PHS-6": (at(B, 31, ev.RolesSwapped(), ev.ApDiscarded(), drop=2), 31),
    "MIN-ACT-1": (at(B, 10, B[11], B[10], drop=2), 10),
    "MIN-ACT-2": (at(B, 30, act("m1")), 30),
    "MIN-ACT-3": (at(B, 9, move("m1", "Flight"), drop=1), 9),
    "MIN-ACT-4": (at(B, 11, ev.CrouchedChanged(player="p1", model="m1", crouched=True)), 11),
    "MIN-ACT-5": (at(B, 10, react(r("m2", "Dodge"), player="p1"), drop=1), 10),
    "MIN-ACT-6": (at(B, 10, react(r("r1", "Attack", "m2")), drop=1), 10),
    "MIN-ACT-7": (at(B, 11, action("m2", "Attack", "r1"), drop=1), 11),
    "MIN-ACT-8": (at(B, 11, roll("p1", "m1", "OTHER", 3)), 11),
    "MIN-REA-1": (at(B, 27, react(r("r2", "Dodge")), drop=1), 27),
    "MIN-REA-2": (at(B, 10, react(r("r1", "Attack", "m1", kind="SPECIAL")), drop=1), 10),
    "MIN-REA-5": (at(B, 22, react(r("r1", "Dodge")), drop=1), 22),
    "MIN-RES-1": (at(B, 12, B[14], B[13], B[12], drop=3), 12),
    "MIN-RES-2": (at(B, 16, ev.ResolutionOrdered(player="p2", order=("r1", "m1"))), 16),
}
"""Each rule -> the log that breaks it and the index of the event cited."""
TWINS: dict[str, list[Any]] = {
    "MIN-RND-2": B,
    "MIN-PHS-1": at(
        B, 4, ev.Declared(player="p1", model="m1", kind="ABILITY", name="Rally"), drop=1
    ),
    "MIN-PHS-5": [*B[:18], ev.TacticalStopped(player="p1"), *end_turn(1, 1), *B[34:]],
    "MIN-ACT-4": at(B, 10, ev.CrouchedChanged(player="p1", model="m1", crouched=True)),
    "MIN-ACT-6": at(B, 10, react(r("r1", "Attack", "m1")), drop=1),
    "MIN-ACT-8": at(B, 13, roll("p1", "m1", "OTHER", 3)),
    "MIN-RES-2": at(B, 16, ev.ResolutionOrdered(player="p1", order=("r1", "m1"))),
}
"""A legal twin where the base log is not the obvious one."""
GEOMETRIC: dict[str, tuple[list[Any], int]] = {
    "MIN-REA-3": (at(B, 22, react(r("r2", "Dodge", los=False)), drop=1), 22),
    "MIN-REA-4": (at(B, 23, ev.AoODeclared(player="p2", model="r2", target="m1")), 23),
    "MIN-REA-6": (at(ranged_aoo(), 15, drop=2), 15),
    "MIN-REA-7": (at(B, 17, ev.ReactionChanged(player="p2", model="r1", enemy_state="FLYING")), 17),
}
"""The rules that rest on geometry: their sequencing broken (the geometry itself is a claim)."""

SAMPLES: dict[str, list[Any]] = {
    "legal_one_round": B,
    "legal_two_rounds": two_rounds(),
    "legal_ranged_aoo_confrontation": ranged_aoo(),
    "legal_three_players": three_players(),
    "legal_crouched_and_order": TWINS["MIN-ACT-4"],
    "illegal_activation_without_ap": BREAKS["MIN-ACT-2"][0],
    "illegal_reaction_attack_other_model": BREAKS["MIN-ACT-6"][0],
    "illegal_second_reaction_after_aoo": BREAKS["MIN-REA-5"][0],
    "illegal_tactical_phase_ends_early": BREAKS["MIN-PHS-5"][0],
    "illegal_wrong_active_player": BREAKS["MIN-RND-3"][0],
    "illegal_upkeep_ap": BREAKS["MIN-PHS-3"][0],
    "illegal_damage_before_confrontation": BREAKS["MIN-RES-1"][0],
    "illegal_leader_stratagem_in_tactical": BREAKS["MIN-PHS-2"][0],
    "illegal_special_reaction": BREAKS["MIN-REA-2"][0],
    "illegal_no_line_of_sight": GEOMETRIC["MIN-REA-3"][0],
}
"""The sample logs of samples/minis, by file name without ``.jsonl``."""


def records(events: list[Any]) -> list[ev.MinisRecord]:
    return [ev.MinisRecord(seq=i, event=e) for i, e in enumerate(events, 1)]


def judged(events: list[Any]) -> list[Any]:
    """The violations of ``events`` (first seq 1)."""
    return replay(records(events), Validator(), header=HEADER).violations


def cited(events: list[Any]) -> list[tuple[str, int]]:
    return [(v.rule, v.seq) for v in judged(events)]


def write(folder: Path) -> None:
    from vwlog.io.logfile import write_log

    expected = {}
    for name, events in SAMPLES.items():
        header = HEADER.model_copy(update={"match_id": f"minis-{name.replace('_', '-')}"})
        write_log(folder / f"{name}.jsonl", header, records(events))
        expected[f"{name}.jsonl"] = [list(c) for c in cited(events)]
    (folder / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    write(
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parents[2] / "samples" / "minis"
    )
