"""What comes next: the consequences the rules demand now, or whose decision is awaited.

The turn structure is data (`PHASE_ORDER`, `STEPS`, `PRIORITY_STEPS`); `expect` reads the state
and answers with either the consequence events the rules demand as the next event, or the player
whose decision is awaited and what kind of decision it is. `next_consequences`,
`legal_decisions` and `check` all stand on it, so validation, play mode and the generator agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from vwlog import events as ev
from vwlog.model.bounds import INT_MAX, INT_MIN
from vwlog.model.state import Marker
from vwlog.model.types import ObjectKind, Phase, Stat, Step, SupplyOption, TriggerWhen, Victory
from vwlog.rules.common import (
    attack_candidates,
    attackable,
    block_candidates,
    defenders,
    distributes_in_step6,
    live_attackers,
    next_object_id,
    room,
    was_blocked,
)
from vwlog.rules.effects import derive_effects
from vwlog.rules.expectation import DecisionKind, Expect

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.model.cards import Ruleset
    from vwlog.model.state import MatchState, RegisterObject

PHASE_ORDER: Final[tuple[Phase, ...]] = (
    Phase.PREP,
    Phase.MAIN1,
    Phase.COMBAT,
    Phase.MAIN2,
    Phase.DEPLOY,
    Phase.END,
)
"""The phases of a turn in order (RULES.md §6, R-GEN-10)."""

STEPS: Final[dict[Phase, tuple[Step, ...]]] = {
    Phase.PREP: (Step.PRODUCE, Step.SUPPLY, Step.UNSLIDE),
    Phase.COMBAT: (
        Step.C1,
        Step.C2,
        Step.C3,
        Step.C4,
        Step.C5,
        Step.C6,
        Step.C7,
        Step.C8,
        Step.C9,
        Step.C10,
    ),
    Phase.END: (Step.END_WINDOW, Step.END_DISCARD, Step.END_CLEANUP),
}
"""The steps of the phases that have steps, in order."""

PRIORITY_STEPS: Final = frozenset(
    {Step.C1, Step.C2, Step.C3, Step.C4, Step.C5, Step.C6, Step.C7, Step.C8, Step.C9, Step.C10}
    | {Step.END_WINDOW}
)
"""Steps with a priority window (R-CMB-0, R-REG-11); Preparation steps have none (R-PREP-2,
R-REG-10), nor do the hand-limit discard and the cleanup (R-REG-2, R-END-6)."""

_COMBAT_DAMAGE: Final = (ObjectKind.COMBAT_DAMAGE_FOLLOWERS, ObjectKind.COMBAT_DAMAGE_TERRITORY)


NOTHING: Final = Expect(rule="R-GEN-10")

_PHASE_STARTED: Final = {p: ev.PhaseStarted(phase=p) for p in Phase}
_STEP_STARTED: Final = {s: ev.StepStarted(step=s) for s in Step}
"""Immutable events reused on the hot path instead of being rebuilt for every expectation."""


def next_consequences(ruleset: Ruleset, state: MatchState) -> tuple[ev.AnyEvent, ...]:
    """The consequence events the rules demand as the next event, if any.

    Usually one; several only when the rules leave their order to the players (simultaneous
    triggers, OQ-16), in which case any of them may come next. Empty when a decision is awaited
    or the match is over.
    """
    return expect(ruleset, state).consequences


def awaiting(ruleset: Ruleset, state: MatchState) -> str | None:
    """The player whose decision is awaited now, or ``None`` if a consequence is due."""
    return expect(ruleset, state).player


def is_priority_point(ruleset: Ruleset, state: MatchState) -> bool:
    """Whether the next event is the decision of a player holding priority."""
    return expect(ruleset, state).is_priority


def _one(event: ev.AnyEvent, rule: str) -> Expect:
    return Expect(consequences=(event,), rule=rule)


def _decide(player: str | None, kind: DecisionKind, rule: str) -> Expect:
    return Expect(player=player, kind=kind, rule=rule)


def expect(ruleset: Ruleset, state: MatchState) -> Expect:
    """What comes next in ``state`` under ``ruleset`` (see `Expect`)."""
    if not state.started:
        return _decide(None, DecisionKind.SETUP, "R-SET-1")
    if state.winner is not None:
        return NOTHING
    if not state.opening_done:
        for p in state.players:
            if Marker.OPENING.of(p.id) not in state.done:
                hand = p.deck[: ruleset.opening_hand]
                return _one(ev.OpeningHandDrawn(player=p.id, cards=hand), "R-SET-4")
    if state.turn == 0:
        return _one(ev.TurnStarted(turn=1, player=state.first_player or ""), "R-SET-1")
    # state-based consequences, in order: deaths, destruction, points, victory, triggers
    if state.fatal and _followers_checked_now(ruleset, state):
        return _one(ev.FollowersDestroyed(cards=tuple(sorted(state.fatal))), "R-CMB-26")
    if state.doomed:
        due = _territories_due(ruleset, state)
        if due:
            return _one(ev.TerritoriesDestroyed(cards=due), "R-CMB-30")
    if state.vp_due:
        scorer, victim = state.vp_due[0]
        rule = "R-CMB-31" if state.phase == Phase.COMBAT else "R-VP-1"
        return _one(ev.VictoryPointGained(player=scorer, opponent=victim), rule)
    won = _victory(ruleset, state)
    if won is not None:
        return won
    if state.triggers:
        group = _trigger_group(ruleset, state)
        return Expect(consequences=group, rule=_trigger_rule(state, group[0]))
    if state.pending_cost is not None:
        return _decide(state.pending_cost.player, DecisionKind.REGISTRATION, "R-REG-3")
    if state.stray_territory is not None and state.phase in (Phase.MAIN1, Phase.MAIN2):
        perm = state.permanents.get(state.stray_territory)
        if perm is not None and _stray_to_place(ruleset, state, perm.controller):
            return _decide(perm.controller, DecisionKind.STRAY, "R-MAIN-6")
    return _turn_flow(ruleset, state)


def _followers_checked_now(ruleset: Ruleset, state: MatchState) -> bool:
    """Followers with fatal damage go to the Graveyard at once, whatever dealt it (R-CMB-26), or
    in the Combat Phase only in step 7, where the seed describes it (OQ-36); outside the Combat
    Phase always at once."""
    if ruleset.fatal_damage_at != "COMBAT_STEPS" or state.phase != Phase.COMBAT:
        return True
    if state.step != Step.C7:
        return False
    # together with the combat damage, once it has resulted ("secara bersamaan")
    return Marker.RESULTED in state.done or not any(
        o.kind == ObjectKind.COMBAT_DAMAGE_FOLLOWERS for o in state.register
    )


def _territories_due(ruleset: Ruleset, state: MatchState) -> tuple[str, ...]:
    """The Territories with fatal damage that go to the Graveyard now (R-CMB-30): outside the
    Combat Phase at once; in it, in step 9 once the step's ATK damage has resulted, all of
    them together («Register yang berisi obyek ATK damage, result.» then «Territory yang
    ter-didistibusi damage fatal … masuk Graveyard. Proses ini terjadi secara bersamaan.»),
    or in step 7 where the ruleset says so (OQ-30); a Territory a skill left with fatal
    damage goes at once where the ruleset reads it so (OQ-39)."""
    doomed = state.doomed
    if state.phase != Phase.COMBAT:
        return tuple(sorted(doomed))
    if state.step == Step.C9:
        if Marker.RESULTED in state.done or not any(
            o.kind == ObjectKind.COMBAT_DAMAGE_TERRITORY for o in state.register
        ):
            return tuple(sorted(doomed))
    elif state.step == Step.C7 and ruleset.raze_destroys_in_step7:
        return tuple(sorted(doomed))
    if ruleset.territory_fatal_damage_at == "AT_ONCE":
        done = state.done
        return tuple(sorted(t for t in doomed if Marker.STRUCK.of(t) in done))
    return ()


def _orphans(state: MatchState) -> tuple[str, ...]:
    return tuple(sorted(c.id for c in state.permanents.values() if c.where == "ORPHAN"))


def _stray_to_place(ruleset: Ruleset, state: MatchState, player: str) -> bool:
    territory = state.stray_territory
    if territory is None or room(ruleset, state, territory) <= 0:
        return False
    return any(c.where == "STRAY" and c.controller == player for c in state.permanents.values())


def _trigger_group(ruleset: Ruleset, state: MatchState) -> tuple[ev.AnyEvent, ...]:
    """Pending triggers of the first player in turn order from the active player who has any;
    their order among themselves is that player's choice (OQ-16)."""
    order = state.seat_order_from(state.active) if state.active else state.live_players()
    if not ruleset.triggers_active_first:
        order = list(reversed(order))
    first = next((p for p in order if any(t.player == p for t in state.triggers)), None)
    group = [t for t in state.triggers if t.player == first] if first else list(state.triggers)
    next_id = next_object_id(state)
    return tuple(
        ev.SkillTriggered(player=t.player, card=t.card, skill=t.skill, object_id=next_id)
        for t in group
    )


TRIGGER_RULES: Final[dict[TriggerWhen, str]] = {
    TriggerWhen.FIRST_MAIN_START: "R-MAIN-3",
    TriggerWhen.COMBAT_START: "R-CMB-1",
    TriggerWhen.ATTACKS: "R-CMB-9",
    TriggerWhen.BLOCKS: "R-CMB-17",
    TriggerWhen.COMBAT_END: "R-CMB-33",
    TriggerWhen.TURN_END: "R-END-1",
    TriggerWhen.ENTERS_PLAY: "R-REG-4",
}
"""The rule that makes a skill trigger at each moment."""


def _trigger_rule(state: MatchState, event: ev.AnyEvent) -> str:
    assert isinstance(event, ev.SkillTriggered)
    skill = state.defn(event.card).skill(event.skill)
    if skill is None or skill.trigger is None:
        return "R-REG-4"
    return TRIGGER_RULES.get(skill.trigger, "R-REG-4")


def _victory(ruleset: Ruleset, state: MatchState) -> Expect | None:
    """A player meets a victory condition (R-VIC-1..4); ties go to the active player's team,
    then in turn order (OQ-24)."""
    if not state.victory_check:
        return None
    vp, honor, lands = ruleset.victory_vp, ruleset.victory_honor, ruleset.victory_territories
    counts = state.territory_counts
    players = state.players
    if not any(
        p.out or p.vp >= vp or p.honor >= honor or counts.get(p.id, 0) >= lands for p in players
    ):
        return None
    start = state.active if state.active else state.live_players()[0]
    order = state.seat_order_from(start)
    if not ruleset.simultaneous_victory_active_first and state.first_player:
        order = state.seat_order_from(state.first_player)
    for pid in order:
        p = state.player(pid)
        victory: Victory | None = None
        rule = ""
        if p.vp >= vp:
            victory, rule = Victory.MILITARY, "R-VIC-1"
        elif p.honor >= honor:
            victory, rule = Victory.POLITICAL, "R-VIC-2"
        elif counts.get(pid, 0) >= lands:
            victory, rule = Victory.ABSOLUTE, "R-VIC-3"
        if victory is not None:
            team = p.team if ruleset.team_wins_together else None
            return _one(ev.MatchWon(winner=pid, team=team, victory=victory), rule)
    live = state.live_players()
    how = Victory.JUDGE if state.out_by == "JUDGE" else Victory.CONCESSION
    if len(live) == 1 and len(players) > 1:
        p = state.player(live[0])
        return _one(ev.MatchWon(winner=p.id, team=p.team, victory=how), "R-VIC-4")
    teams = {state.player(pid).team for pid in live}
    if len(live) > 1 and len(teams) == 1 and None not in teams:
        p = state.player(live[0])
        return _one(ev.MatchWon(winner=p.id, team=p.team, victory=how), "R-VIC-6")
    return None


_PRIORITY: Final[dict[str | None, Expect]] = {}


def _priority(player: str | None) -> Expect:
    """The (shared, immutable) expectation that ``player`` decides with priority."""
    exp = _PRIORITY.get(player)
    if exp is None:
        exp = _PRIORITY[player] = Expect(player=player, kind=DecisionKind.PRIORITY, rule="R-REG-6")
    return exp


def passes_to_close(ruleset: Ruleset, state: MatchState) -> int:
    """How many passes in succession close a window (R-REG-7): one per live player, or two
    where the ruleset reads the seed's "atau terjadi dua kali pass" on its own (OQ-33)."""
    if ruleset.window_closes_after == "TWO_PASSES":
        return min(2, state.live)
    return state.live


def next_to_result(ruleset: Ruleset, state: MatchState) -> RegisterObject | None:
    """The object that results when all players have passed (R-REG-8): the last registered
    (LIFO, the default) or the first (FIFO, OQ-34); a combat-damage object waits through steps
    6 and 8 (R-CMB-23)."""
    waiting = state.step in (Step.C6, Step.C8)
    order = reversed(state.register) if ruleset.result_order == "LIFO" else state.register
    return next((o for o in order if not (waiting and o.kind in _COMBAT_DAMAGE)), None)


def _window(ruleset: Ruleset, state: MatchState, after: Callable[[MatchState], Expect]) -> Expect:
    """A priority window: the holder decides until all players pass in succession; then the top
    object results (R-REG-8) or, with an empty register, the step ends (R-REG-7). In steps 6 and
    8 the combat-damage object waits for the next step (R-CMB-23)."""
    if state.passes < passes_to_close(ruleset, state):
        return _priority(state.priority)
    reg = state.register
    top = next_to_result(ruleset, state)
    if top is not None:
        damage_below = state.step in (Step.C6, Step.C8) and reg[0].kind in _COMBAT_DAMAGE
        return _one(
            ev.ObjectResulted(object_id=top.id, effects=derive_effects(ruleset, state, top)),
            "R-CMB-23" if damage_below else "R-REG-8",
        )
    return after(state)


def _next_phase(state: MatchState) -> Expect:
    i = PHASE_ORDER.index(state.phase) if state.phase in PHASE_ORDER else -1
    if i + 1 >= len(PHASE_ORDER):
        return _one(ev.TurnEnded(turn=state.turn), "R-END-6")
    return _one(_PHASE_STARTED[PHASE_ORDER[i + 1]], "R-GEN-10")


def _next_step(state: MatchState) -> Expect:
    steps = STEPS.get(state.phase, ()) if state.phase is not None else ()
    if not steps:
        return _next_phase(state)
    if state.step is None or state.step not in steps:
        # a step recorded in the wrong phase (played as logged): the phase's steps start over
        return _one(_STEP_STARTED[steps[0]], "R-GEN-10")
    i = steps.index(state.step)
    if i + 1 < len(steps):
        return _one(_STEP_STARTED[steps[i + 1]], "R-GEN-10")
    return _next_phase(state)


def _logged(n: int) -> int:
    """``n`` within what a log can write (`vwlog.model.bounds`): a board built from values
    at the bound (a turn 2**64 - 1, produce summed past it) demands an event no log can hold;
    the nearest one it can is demanded instead, and the record, which cannot match the true
    value either, breaks the rule, rather than the expectation failing to be built."""
    return INT_MAX if n > INT_MAX else INT_MIN if n < INT_MIN else n


def _turn_flow(ruleset: Ruleset, state: MatchState) -> Expect:
    active = state.active
    assert active is not None
    done = state.done
    if Marker.TURN_ENDED in done:
        turn = _logged(state.turn + 1)
        return _one(ev.TurnStarted(turn=turn, player=state.next_player(active)), "R-END-5")
    if state.phase is None:
        return _one(_PHASE_STARTED[Phase.PREP], "R-GEN-10")
    phase, step = state.phase, state.step
    if phase in (Phase.MAIN1, Phase.MAIN2):
        return _window(ruleset, state, _next_phase)
    if phase == Phase.COMBAT:
        return _combat_flow(ruleset, state)
    if phase == Phase.PREP:
        if step is None:
            return _next_step(state)
        if step == Step.PRODUCE:
            if Marker.PRODUCED not in done:
                total = sum(state.stat(t.id, Stat.GOLD_PRODUCE) for t in state.territories(active))
                total = _logged(total)
                return _one(ev.GoldProduced(player=active, amount=total), "R-PRO-1")
            return _next_step(state)
        if step == Step.SUPPLY:
            chosen = Marker.SUPPLY.choice(done)
            if chosen is None:
                return _decide(active, DecisionKind.SUPPLY, "R-SUP-1")
            if Marker.SUPPLY_TAKEN not in done:
                option = SupplyOption(chosen)
                deck = state.player(active).deck
                return _one(
                    ev.SupplyTaken(player=active, cards=deck[: option.cards], gold=option.gold),
                    "R-SUP-2",
                )
            return _next_step(state)
        # UNSLIDE
        if Marker.UNSLID not in done:
            slid = tuple(
                sorted(c.id for c in state.permanents.values() if c.controller == active and c.slid)
            )
            return _one(ev.Unslid(player=active, cards=slid), "R-UNS-1")
        if Marker.DEPLOYED not in done:
            return _decide(active, DecisionKind.DEPLOY, "R-UNS-3")
        if ruleset.preparation_window:
            # OQ-37: "Semua pemain dapat merespon pergantian fase ini" read as a window
            return _window(ruleset, state, _next_phase)
        return _next_phase(state)
    if phase == Phase.DEPLOY:
        if Marker.DEPLOYED not in done:
            return _decide(active, DecisionKind.DEPLOY, "R-DEP-1")
        if not ruleset.deploy_phase_window:
            return _next_phase(state)
        return _window(ruleset, state, _next_phase)
    if phase == Phase.END:
        if step is None or step == Step.END_WINDOW:
            if step is None:
                return _next_step(state)
            return _window(ruleset, state, _next_step)
        if step == Step.END_DISCARD:
            order = state.seat_order_from(active) if ruleset.hand_limit_all_players else [active]
            for pid in order:
                if (
                    len(state.player(pid).hand) > ruleset.hand_limit
                    and Marker.DISCARDED.of(pid) not in done
                ):
                    return _decide(pid, DecisionKind.DISCARD, "R-END-3")
            return _next_step(state)
        if Marker.CLEANED not in done:
            return _one(ev.TurnCleanedUp(), "R-END-4")
        return _one(ev.TurnEnded(turn=state.turn), "R-END-6")
    raise AssertionError(f"unknown phase {phase!r}")  # pragma: no cover


def _combat_flow(ruleset: Ruleset, state: MatchState) -> Expect:
    active = state.active
    assert active is not None
    step, done = state.step, state.done
    action_open = Marker.WINDOW not in done
    if step is None:
        return _next_step(state)
    if step == Step.C2 and action_open and Marker.ATTACKERS not in done:
        if attack_candidates(ruleset, state, active):
            return _decide(active, DecisionKind.ATTACKERS, "R-CMB-2")
    elif step == Step.C3 and action_open and Marker.DECLARED not in done:
        if any(attackable(ruleset, state, a) for a in state.combat.attackers):
            return _decide(active, DecisionKind.DECLARE, "R-CMB-8")
    elif step == Step.C4 and action_open:
        for d in defenders(state):
            if Marker.BLOCKERS.of(d) not in done and block_candidates(ruleset, state, d):
                return _decide(d, DecisionKind.BLOCKERS, "R-CMB-11")
    elif step == Step.C5 and action_open:
        for d in defenders(state):
            mine = [
                b
                for b in state.combat.blockers
                if b in state.permanents and state.permanents[b].controller == d
            ]
            if Marker.BLOCKS.of(d) not in done and mine and live_attackers(state):
                return _decide(d, DecisionKind.BLOCKS, "R-CMB-16")
    elif step == Step.C6 and action_open and Marker.REGISTERED not in done:
        damage = _damage_step(state, active)
        if damage is not None:
            return damage
    elif step in (Step.C7, Step.C9) and action_open:
        reg = state.register
        if reg and reg[-1].kind in _COMBAT_DAMAGE and Marker.RESULTED not in done:
            top = reg[-1]
            return _one(
                ev.ObjectResulted(object_id=top.id, effects=derive_effects(ruleset, state, top)),
                "R-CMB-24" if step == Step.C7 else "R-CMB-29",
            )
    elif step == Step.C8 and action_open and Marker.REGISTERED not in done:
        damage = _territory_damage(state)
        if damage is not None:
            return damage
    elif step == Step.C10 and action_open:
        if Marker.RETURNED not in done:
            home = _returning(ruleset, state)
            if home:
                return _one(ev.BecameReturnHome(cards=home), "R-CMB-34")
        orphans = _orphans(state)
        if orphans:
            return _one(ev.BecameStray(cards=orphans), "R-CMB-35")
    return _window(ruleset, state, _next_step)


def _damage_step(state: MatchState, active: str) -> Expect | None:
    """Combat step 6: who distributes damage next (the active player, then each defender
    with blockers), then the registration of the damage distributed; ``None``: all done."""
    if Marker.DAMAGE.of(active) not in state.done and any(
        distributes_in_step6(state, a) for a in live_attackers(state)
    ):
        return _decide(active, DecisionKind.DAMAGE, "R-CMB-19")
    for d in defenders(state):
        blocking = [
            b
            for b, a in state.combat.blocks.items()
            if b in state.permanents
            and a in state.permanents
            and state.permanents[b].controller == d
        ]
        if blocking and Marker.DAMAGE.of(d) not in state.done:
            return _decide(d, DecisionKind.DAMAGE, "R-CMB-19")
    if state.combat.allocations:
        return _one(
            ev.CombatDamageRegistered(
                object_id=next_object_id(state),
                kind=ObjectKind.COMBAT_DAMAGE_FOLLOWERS,
                allocations=tuple(
                    ev.Allocation(source=a.source, recipient=a.recipient, amount=a.amount)
                    for a in state.combat.allocations
                ),
            ),
            "R-CMB-21",
        )
    return None


def _territory_damage(state: MatchState) -> Expect | None:
    """Combat step 8: the unblocked attackers' damage to the attacked Territories, to be
    registered; ``None`` when there is none."""
    allocations = tuple(
        ev.Allocation(source=a, recipient=t, amount=state.stat(a, Stat.ATK))
        for a, t in state.combat.attacks.items()
        if a in state.permanents
        and t in state.permanents
        and not was_blocked(state, a)
        and state.stat(a, Stat.ATK) > 0
    )
    if allocations:
        return _one(
            ev.CombatDamageRegistered(
                object_id=next_object_id(state),
                kind=ObjectKind.COMBAT_DAMAGE_TERRITORY,
                allocations=allocations,
            ),
            "R-CMB-28",
        )
    return None


def _returning(ruleset: Ruleset, state: MatchState) -> tuple[str, ...]:
    """Surviving attackers that become Return Home (R-CMB-34); Fatigued Followers that entered
    battle but did not attack stay unless the ruleset says otherwise (OQ-29)."""
    cards = set(live_attackers(state))
    if ruleset.fatigued_attacker_returns_home:
        cards |= {a for a in state.combat.attackers if a in state.permanents}
    return tuple(
        sorted(c for c in cards if state.permanents[c].where in ("GUARD", "ORPHAN", "STRAY"))
    )


__all__ = [
    "NOTHING",
    "PHASE_ORDER",
    "PRIORITY_STEPS",
    "STEPS",
    "TRIGGER_RULES",
    "DecisionKind",
    "Expect",
    "awaiting",
    "expect",
    "is_priority_point",
    "next_consequences",
    "next_to_result",
    "passes_to_close",
]
