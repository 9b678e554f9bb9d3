"""The miniatures decisions capability (`vwlog.games.GameRules.decisions`, as
`vwlog.services.decisions.Decisions` reads it): the legal decisions at every position the
rules await one of (`vwlog.games.minis.expect`), in a notation of one verb a line; the rules a
decision breaks (`check`, the game's judge); a decision played with the consequences the rules
then owe (`play`); a decision chosen by a policy (`choose`).

The notation (`syntax`)::

    upkeep                          end the Strategic Phase
    declare MODEL KIND NAME         KIND: ability, item, stratagem, leader_stratagem
    activate MODEL | stop
    move MODEL normal|special|none [SKILL ...]
    crouch MODEL | stand MODEL
    aoo MODEL [ranged] reach|noreach          an AoO and its Reach claim
    react [MODEL:ACTION[>TARGET][:aware|:nolos] ...]
    act MODEL normal|special ACTION [on TARGET ...]     ACTION: attack, melee-attack, ...
    change MODEL shrouded|flying
    roll MODEL PURPOSE R R R [hits N on TARGET]         PURPOSE: confrontation, damage, ...
    order NAME ...  |  wounds MODEL N  |  end

What ``legal`` lists, per kind: every declaration and ``upkeep`` (exact); every eligible model
and ``stop`` (exact); each Movement with no Skill or one Skill, and Crouched changes (a lower
bound: any subset of Skills); ``react`` with no model or one model and one Reaction, and each
AoO (a lower bound: any subset of models); each Normal Action of the table at each enemy (a
lower bound); at the Resolution Step ``end`` where the rules allow it (a lower bound: rolls are
chance, recorded with their outcome, not listed).

Play mode applies after a decision every consequence the rules compute (phases, the Upkeep's
AP, the End Phase, a turn's and a round's end) up to the next decision. Pure.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from vwlog.games.minis import events as ev
from vwlog.games.minis.expect import expect, reactor
from vwlog.games.minis.generate import decide
from vwlog.games.minis.judge import judge
from vwlog.games.minis.ruleset import MinisRuleset
from vwlog.games.minis.state import Board, evolve
from vwlog.model.errors import IllegalEventError, UsageError
from vwlog.model.text import msg
from vwlog.model.violation import Violation

if TYPE_CHECKING:
    from pydantic import BaseModel

LISTED = 48
"""Most decisions `legal` lists at one position."""
CONSEQUENCE_LIMIT = 256
"""Most consequences one decision brings."""
VERBS = (
    "upkeep",
    "declare",
    "activate",
    "stop",
    "move",
    "crouch",
    "stand",
    "aoo",
    "react",
    "act",
    "change",
    "roll",
    "order",
    "wounds",
    "end",
)
"""The notation's verbs."""
SYNTAX = (__doc__ or "").split("::")[1].split("What ``legal``")[0].strip("\n")


def syntax() -> str:
    """The notation, one verb a line."""
    return SYNTAX


def names(decisions: Iterable[str], state: Board) -> dict[str, str]:
    """What each model the decisions name is: its controller, by id."""
    words = {w.split(":")[0].split(">")[0] for d in decisions for w in d.split()}
    return {
        m: str(msg("{owner}'s model", owner=state.models[m].owner))
        for m in sorted(words)
        if m in state.models
    }


def named(decision: str, known: Mapping[str, str]) -> str:
    """``decision`` followed by what the models it names are."""
    said = [f"{w} = {known[w]}" for w in decision.split() if w in known]
    return f"{decision}  ({'; '.join(said)})" if said else decision


def _fail(text: str) -> UsageError:
    """The line cannot be read: say how its verb is written (or which verbs there are)."""
    verb = text.split()[0] if text.split() else ""
    usage = [line.strip() for line in SYNTAX.splitlines() if f" {verb} " in f" {line} "]
    if not verb or not usage:
        return UsageError(
            msg("cannot read {line!r}: the verbs are {verbs}", line=text, verbs=", ".join(VERBS))
        )
    return UsageError(
        msg("cannot read {line!r}: it is written {usage}", line=text, usage=usage[0].split("  ")[0])
    )


def _reaction(word: str, target: str) -> ev.Reaction:
    parts = word.split(":")
    if len(parts) < 2:
        raise ValueError(word)
    action, _, aim = parts[1].partition(">")
    flags = set(parts[2:])
    return ev.Reaction(
        model=parts[0],
        action=action.replace("-", " ").title(),
        target=aim or (target if "attack" in action else None),
        los="nolos" not in flags and "aware" not in flags,
        by_awareness="aware" in flags,
    )


def _roll(s: Board, w: list[str]) -> ev.Roll:
    model, purpose, rest = w[1], w[2].upper(), w[3:]
    hits, target = 0, None
    if "hits" in rest:
        i = rest.index("hits")
        hits, target = int(rest[i + 1]), (rest[i + 3] if len(rest) > i + 3 else None)
        rest = rest[:i]
    results = tuple(int(r) for r in rest)
    owner = s.owner(model) or ""
    return ev.make(
        ev.Roll,
        player=owner,
        model=model,
        purpose=purpose,
        dice=len(results),
        results=results,
        hits=hits,
        target=target,
    )


def _kinded(cls: type[BaseModel], player: str, w: list[str], **fields: object) -> list[Any]:
    """``<verb> <model> <kind> …`` as the one event of ``cls`` it writes, by ``player``."""
    return [ev.make(cls, player=player, model=w[1], kind=w[2].upper(), **fields)]


def _parse(rs: MinisRuleset, s: Board, w: list[str]) -> list[Any]:
    q, active = s.sequence, s.active or ""
    verb = w[0]
    if verb == "upkeep":
        return [ev.PhaseStarted(phase="UPKEEP")]
    if verb == "declare":
        return _kinded(ev.Declared, s.owner(w[1]) or "", w, name=" ".join(w[3:]))
    if verb == "activate":
        return [ev.ModelActivated(player=active, model=w[1])]
    if verb == "stop":
        return [ev.TacticalStopped(player=active)]
    if verb in ("crouch", "stand"):
        return [
            ev.CrouchedChanged(player=s.owner(w[1]) or "", model=w[1], crouched=verb == "crouch")
        ]
    if verb == "move":
        return _kinded(ev.MovementDeclared, active, w, skills=tuple(w[3:]))
    target = q.model if q is not None else ""
    if verb == "aoo":
        ranged, player = "ranged" in w, s.owner(w[1]) or ""
        aoo = ev.AoODeclared(
            player=player,
            model=w[1],
            target=target,
            ranged=ranged,
            approaching=True if ranged else None,
        )
        return [aoo, ev.AoOChecked(model=w[1], within_reach=w[-1] == "reach")]
    if verb == "react":
        player = (reactor(rs, s, q) if q is not None else None) or ""
        return [
            ev.ReactionsDeclared(
                player=player, reactions=tuple(_reaction(x, target) for x in w[1:])
            )
        ]
    if verb == "act":
        on = w.index("on") if "on" in w else len(w)
        action = " ".join(w[3:on]).replace("-", " ").title()
        return _kinded(ev.ActionDeclared, active, w, action=action, targets=tuple(w[on + 1 :]))
    if verb == "change":
        return [
            ev.make(
                ev.ReactionChanged, player=s.owner(w[1]) or "", model=w[1], enemy_state=w[2].upper()
            )
        ]
    if verb == "roll":
        return [_roll(s, w)]
    if verb == "order":
        return [ev.ResolutionOrdered(player=active, order=tuple(w[1:]))]
    if verb == "wounds":
        return [ev.WoundsApplied(model=w[1], wounds=int(w[2]), states=tuple(w[3:]))]
    if verb == "end":
        return [ev.SequenceEnded(model=target)]
    raise ValueError(verb)


def parse(ruleset: MinisRuleset, state: Board, text: str) -> list[Any]:
    """The event(s) a line of the notation names at ``state``.

    Raises:
        UsageError: the line cannot be read (one line saying what is wrong).
    """
    words = text.split()
    if not words:
        raise _fail(text)
    try:
        return _parse(ruleset, state, words)
    except (ValueError, IndexError, TypeError) as err:
        raise _fail(text) from err


def check(ruleset: MinisRuleset, state: Board, decision: Any) -> tuple[Violation, ...]:
    """The rules ``decision`` breaks at ``state`` (none: it is legal), as the judge says."""
    return judge(ruleset, state, expect(ruleset, state), decision)


def advance(ruleset: MinisRuleset, state: Board) -> tuple[Board, list[Any]]:
    """The board after every consequence the rules compute now, up to the next decision."""
    events: list[Any] = []
    for _ in range(CONSEQUENCE_LIMIT):
        exp = expect(ruleset, state)
        if exp.kind is not None or len(exp.consequences) != 1:
            break
        state = evolve(state, exp.consequences[0])
        events.append(exp.consequences[0])
    return state, events


def play(ruleset: MinisRuleset, state: Board, decision: Any) -> tuple[Board, list[Any]]:
    """Apply the consequences the rules owe first (a record that stops before them), then
    check and apply ``decision``, then every consequence it brings (`advance`).

    Returns:
        The board at the next decision and the events applied, in order.

    Raises:
        IllegalEventError: the decision breaks rules here (its violations, MIN-* ids;
            ``after``: the owed consequences that would have come before it).
    """
    state, owed = advance(ruleset, state)
    found = check(ruleset, state, decision)
    if found:
        raise IllegalEventError(None, str(decision.type), found, after=len(owed))
    state, events = advance(ruleset, evolve(state, decision))
    return state, [*owed, decision, *events]


def whole(ruleset: MinisRuleset, state: Board) -> bool:
    """Whether the decisions played up to ``state`` are whole: no Reach check is owed."""
    q = state.sequence
    return q is None or q.aoo_pending is None


def _words(e: Any) -> str:
    match e:
        case ev.PhaseStarted():
            return "upkeep"
        case ev.Declared():
            return f"declare {e.model} {e.kind.lower()} {e.name}"
        case ev.ModelActivated():
            return f"activate {e.model}"
        case ev.TacticalStopped():
            return "stop"
        case ev.CrouchedChanged():
            return f"{'crouch' if e.crouched else 'stand'} {e.model}"
        case ev.MovementDeclared():
            return " ".join(["move", e.model, e.kind.lower(), *e.skills])
        case ev.ReactionsDeclared():
            return " ".join(
                ["react", *(f"{r.model}:{r.action.lower().replace(' ', '-')}" for r in e.reactions)]
            )
        case ev.ActionDeclared():
            on = ["on", *e.targets] if e.targets else []
            return " ".join(
                ["act", e.model, e.kind.lower(), e.action.lower().replace(" ", "-"), *on]
            )
        case ev.SequenceEnded():
            return "end"
    return str(getattr(e, "type", e))


def _options(rs: MinisRuleset, s: Board, kind: str | None) -> tuple[list[str], bool]:
    q = s.sequence
    mine = [m for m in s.models.values() if m.owner == s.active]
    if kind == "strategic":
        said = ["upkeep"]
        for m in mine:
            said += [f"declare {m.id} ability {n}" for n in sorted(m.abilities)]
            said += [f"declare {m.id} item {n}" for n in sorted(m.items)]
            said += [f"declare {m.id} stratagem {n}" for n in sorted(m.stratagems)]
            said += [
                f"declare {m.id} leader_stratagem {n}" for n in sorted(m.stratagems) if m.leader
            ]
        return said, True
    if kind == "activation":
        return [f"activate {m}" for m in s.eligible(rs)] + ["stop"], True
    if q is None:
        return [], True
    if kind == "movement":
        skills = sorted(s.models[q.model].skills)
        said = [f"move {q.model} normal"] + [f"move {q.model} special {k}" for k in skills]
        said += [f"move {q.model} none"] if rs.movement_required == "MAY_SKIP" else []
        return [*said, f"{'stand' if s.models[q.model].crouched else 'crouch'} {q.model}"], False
    if kind == "reaction":
        player = reactor(rs, s, q) or ""
        free = [
            m.id
            for m in s.models.values()
            if m.owner == player and m.ap > 0 and m.id not in q.reacted
        ]
        said = ["react"] + [f"react {m}:{a}" for m in free for a in ("attack", "dodge", "perceive")]
        if q.step == "MOVED":
            said += [f"aoo {m} reach" for m in free] + [f"aoo {m} ranged noreach" for m in free]
        return said, False
    if kind == "action":
        enemies = [m.id for m in s.models.values() if m.owner in s.reactive]
        said = [
            f"act {q.model} normal {a} on {t}"
            for a in ("attack", "melee-attack", "ranged-attack")
            for t in enemies
        ]
        return [*said, f"act {q.model} normal perceive"], False
    end = [] if expect(rs, s).rule == "MIN-REA-6" else ["end"]
    return end, False


def legal(
    ruleset: MinisRuleset, state: Board, player: str, kind: str | None
) -> tuple[tuple[str, ...], int, bool]:
    """``player``'s legal decisions at ``state`` in the notation (at most `LISTED`), how many
    are legal, and whether that count is exact (the module's docstring says what each kind
    lists)."""
    if expect(ruleset, state).player != player:
        return (), 0, True
    said, exact = _options(ruleset, state, kind)
    ok = [d for d in said if not _illegal(ruleset, state, d)]
    return tuple(ok[:LISTED]), len(ok), exact


def _illegal(rs: MinisRuleset, s: Board, line: str) -> bool:
    events = parse(rs, s, line)
    for e in events:
        if judge(rs, s, expect(rs, s), e):
            return True
        s = evolve(s, e)
    return False


def choose(
    ruleset: MinisRuleset, state: Board, player: str, rng: random.Random, policy: str
) -> Any | None:
    """A legal decision for ``player`` chosen by ``policy`` (``greedy``: the first legal one;
    ``random``: drawn from ``rng``), or ``None`` where none of ``player``'s is awaited. At the
    Resolution Step the policy ends the Sequence, rolling first the Confrontation a Ranged AoO
    owes (a chance event drawn from ``rng``)."""
    exp = expect(ruleset, state)
    if exp.player != player or exp.kind is None:
        return None
    if exp.kind == "resolution":
        q = state.sequence
        assert q is not None
        if exp.rule == "MIN-REA-6":
            return ev.make(
                ev.Roll,
                player=player,
                model=q.model,
                purpose="CONFRONTATION",
                dice=1,
                results=(rng.randint(1, 6),),
            )
        return ev.SequenceEnded(model=q.model)
    if policy == "random" and exp.kind != "reaction":
        return decide(rng, ruleset, state, exp.kind)[0]
    said, _ = _options(ruleset, state, exp.kind)
    ok = [d for d in said if not d.startswith("aoo") and not _illegal(ruleset, state, d)]
    if not ok:
        return None
    return parse(ruleset, state, rng.choice(ok) if policy == "random" else ok[0])[0]


format_decision = _words
"""``format_decision(event)``: a decision in the notation."""

__all__ = [
    "advance",
    "check",
    "choose",
    "format_decision",
    "legal",
    "named",
    "names",
    "parse",
    "play",
    "syntax",
    "whole",
]
