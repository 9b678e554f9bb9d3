"""Seeded legal miniatures records: two (or three) players, a few models each, a number of
rounds, every turn's phases and Activation Sequences with Reactions, Attacks of Opportunity,
rolls and Wounds drawn from the seed. Every record it writes is legal under the ruleset it
names (`tests/minis/test_generate.py` judges 200 of them).

    generate(7) -> [MinisStarted, RoundStarted, TurnStarted, PhaseStarted, ...]

The consequences come from the rules (`vwlog.games.minis.expect`); the decisions and the
rolls from the seed. Pure.
"""

from __future__ import annotations

import random
from typing import Any

from vwlog.games.minis import events as ev
from vwlog.games.minis.expect import expect, reactor
from vwlog.games.minis.ruleset import MinisRuleset
from vwlog.games.minis.state import Board, Sequence, evolve

STEP_LIMIT = 5000
"""Most events one record holds (a guard: a record of 2 rounds has a few hundred)."""
REACTIONS = ("ATTACK", "DODGE", "PERCEIVE")
ACTIONS = (
    ("NORMAL", "Attack"),
    ("NORMAL", "Melee Attack"),
    ("NORMAL", "Ranged Attack"),
    ("SPECIAL", "Cast"),
    ("NORMAL", "Perceive"),
)


def table(players: tuple[str, ...] = ("p1", "p2")) -> tuple[ev.ModelDef, ...]:
    """The models of a generated match: two per player, one a Leader."""
    models: list[ev.ModelDef] = []
    for i, p in enumerate(players):
        models.append(
            ev.ModelDef(
                id=f"{p}a",
                owner=p,
                stamina=2,
                skills=("Dash", "Climbing"),
                leader=True,
                abilities=("Rally",),
                items=("Potion",),
                stratagems=("Ambush",),
            )
        )
        models.append(
            ev.ModelDef(
                id=f"{p}b", owner=p, stamina=1 + i % 2, skills=("Flight", "Leap"), awareness=True
            )
        )
    return tuple(models)


def started(
    players: tuple[str, ...] = ("p1", "p2"), rs: MinisRuleset | None = None
) -> ev.MinisStarted:
    """The start of a generated match."""
    return ev.MinisStarted(
        players=players, first=players[0], models=table(players), ruleset=rs or MinisRuleset()
    )


def _mine(s: Board, player: str, ap: bool = True) -> list[str]:
    return sorted(m.id for m in s.models.values() if m.owner == player and (m.ap > 0 or not ap))


def _strategic(rng: random.Random, s: Board) -> Any:
    if rng.random() < 0.6:
        return ev.PhaseStarted(phase="UPKEEP")
    m = s.models[rng.choice(_mine(s, s.active or "", ap=False))]
    if m.leader and rng.random() < 0.5:
        return ev.make(
            ev.Declared,
            player=m.owner,
            model=m.id,
            kind="LEADER_STRATAGEM",
            name=sorted(m.stratagems)[0],
        )
    kinds = [
        (k, n) for k, names in (("ABILITY", m.abilities), ("ITEM", m.items)) for n in sorted(names)
    ]
    if not kinds:
        return ev.PhaseStarted(phase="UPKEEP")
    kind, name = rng.choice(kinds)
    return ev.make(ev.Declared, player=m.owner, model=m.id, kind=kind, name=name)


def _movement(rng: random.Random, s: Board, q: Sequence) -> list[Any]:
    m = s.models[q.model]
    out: list[Any] = []
    if rng.random() < 0.2:
        out.append(ev.CrouchedChanged(player=m.owner, model=m.id, crouched=not m.crouched))
    skills = tuple(sorted(rng.sample(sorted(m.skills), rng.randint(0, len(m.skills)))))
    kind = "SPECIAL" if skills and rng.random() < 0.5 else "NORMAL"
    out.append(ev.make(ev.MovementDeclared, player=m.owner, model=m.id, kind=kind, skills=skills))
    return out


def _reaction(rng: random.Random, rs: MinisRuleset, s: Board, q: Sequence) -> list[Any]:
    player = reactor(rs, s, q)
    assert player is not None
    free = [m for m in _mine(s, player) if m not in q.reacted]
    if q.step == "MOVED" and free and not q.ranged_aoo and rng.random() < 0.25:
        ranged = rng.random() < 0.5
        model = rng.choice(free)
        aoo = ev.AoODeclared(
            player=player,
            model=model,
            target=q.model,
            ranged=ranged,
            approaching=True if ranged else None,
        )
        return [aoo, ev.AoOChecked(model=model, within_reach=rng.random() < 0.6)]
    reactions = []
    for model in free:
        if rng.random() < 0.5:
            action = rng.choice(REACTIONS)
            aware = action == "DODGE" and s.models[model].awareness and rng.random() < 0.3
            target = q.model if action == "ATTACK" else None
            reactions.append(
                ev.Reaction(
                    model=model,
                    action=action.title(),
                    target=target,
                    los=not aware,
                    by_awareness=aware,
                )
            )
    return [ev.ReactionsDeclared(player=player, reactions=tuple(reactions))]


def _roll(rng: random.Random, s: Board, model: str, purpose: str, target: str | None) -> ev.Roll:
    dice = rng.randint(1, 3)
    results = tuple(rng.randint(1, 6) for _ in range(dice))
    hits = sum(1 for r in results if r >= 5) if purpose in ("CONFRONTATION", "OTHER") else 0
    return ev.make(
        ev.Roll,
        player=s.models[model].owner,
        model=model,
        purpose=purpose,
        dice=dice,
        results=results,
        hits=hits,
        target=target if hits else None,
    )


def _action(rng: random.Random, s: Board, q: Sequence) -> list[Any]:
    kind, action = rng.choice(ACTIONS)
    enemies = sorted(q.reacted) or [m for p in s.reactive for m in _mine(s, p, ap=False)]
    targets = (rng.choice(enemies),) if ev.is_attack(action) and enemies else ()
    return [
        ev.make(
            ev.ActionDeclared,
            player=s.active or "",
            model=q.model,
            kind=kind,
            action=action,
            targets=targets,
        )
    ]


def resolution(rng: random.Random, rs: MinisRuleset, s: Board, q: Sequence) -> list[Any]:
    """The Resolution Step: a changed Reaction, rolls in order, Wounds, the Sequence's end."""
    out: list[Any] = []
    changing = [m for m, a in sorted(q.reacted.items()) if a in ("DODGE", "PERCEIVE")]
    attack = ev.is_attack(q.action or "")
    if changing and attack and rng.random() < 0.3:
        m = rng.choice(changing)
        if rs.declaration_change_cost == "FREE" or s.models[m].ap > 0:
            out.append(
                ev.make(
                    ev.ReactionChanged,
                    player=s.models[m].owner,
                    model=m,
                    enemy_state=rng.choice(("SHROUDED", "FLYING")),
                )
            )
    fighters = [m for m, a in sorted(q.reacted.items()) if a in ("ATTACK", "AOO")]
    first: list[ev.Roll] = []
    if attack and q.melee and q.ranged_aoo:
        first.append(_roll(rng, s, q.model, "CONFRONTATION", fighters[0] if fighters else None))
    elif attack:
        enemy = fighters[0] if fighters else None
        first.append(_roll(rng, s, q.model, "OTHER" if enemy is None else "CONFRONTATION", enemy))
    for m in fighters[1:] if q.melee and q.ranged_aoo else fighters:
        first.append(_roll(rng, s, m, "CONFRONTATION", q.model))
    out += first
    scored = [r for r in first if r.hits and r.target]
    out += [_roll(rng, s, r.model, "DAMAGE", None) for r in scored]
    out += [
        _roll(rng, s, r.target, "PREVENTION", None)
        for r in scored
        if r.target and rng.random() < 0.7
    ]
    if len(scored) > 1:
        out.append(
            ev.ResolutionOrdered(player=s.active or "", order=tuple(r.model for r in scored))
        )
    out += [ev.WoundsApplied(model=r.target, wounds=1, states=()) for r in scored if r.target]
    out.append(ev.SequenceEnded(model=q.model))
    return out


def decide(rng: random.Random, rs: MinisRuleset, s: Board, kind: str | None) -> list[Any]:
    """The next events of a decision of ``kind`` at ``s`` (with the chance events and
    claims that follow it up to the next decision)."""
    q = s.sequence
    if kind == "strategic":
        return [_strategic(rng, s)]
    if kind == "activation":
        if rng.random() < 0.1:
            return [ev.TacticalStopped(player=s.active or "")]
        return [ev.ModelActivated(player=s.active or "", model=rng.choice(s.eligible(rs)))]
    assert q is not None
    if kind == "movement":
        return _movement(rng, s, q)
    if kind == "reaction":
        return _reaction(rng, rs, s, q)
    if kind == "action":
        return _action(rng, s, q)
    return resolution(rng, rs, s, q)


def generate(
    seed: int, *, rounds: int = 2, players: int = 2, ruleset: MinisRuleset | None = None
) -> list[Any]:
    """A legal record of ``rounds`` rounds drawn from ``seed``."""
    rng = random.Random(seed)
    rs = ruleset or MinisRuleset()
    names = tuple(f"p{i}" for i in range(1, players + 1))
    events: list[Any] = [started(names, rs)]
    s = evolve(Board(), events[0])
    while len(events) < STEP_LIMIT and not s.over:
        exp = expect(rs, s)
        if exp.kind in ("round", "result"):
            nxt: list[Any] = (
                [ev.MatchEnded(winner=rng.choice(names))]
                if s.round >= rounds
                else [exp.consequences[0]]
            )
        elif exp.kind is None:
            nxt = [exp.consequences[0]]
        else:
            nxt = decide(rng, rs, s, exp.kind)
        for e in nxt:
            s = evolve(s, e)
            events.append(e)
    return events


__all__ = ["decide", "generate", "resolution", "started", "table"]
