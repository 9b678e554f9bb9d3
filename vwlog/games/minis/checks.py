"""The players' decisions and the rolls, judged: the Strategic Phase's declarations, the
Activation Sequence's steps (activation, movement, Attacks of Opportunity, Reactions, the
action, a changed Reaction), the rolls of the Resolution Step and the order of conflicts.

Each function returns the rules the event breaks, most specific first; an empty tuple when the
event is legal where it stands. A geometric condition is judged on the claim the log makes
(``geometry=CLAIMED``): a Reaction whose log says it had no line of sight breaks MIN-REA-3, one
whose log says it had is trusted and listed.
"""

from __future__ import annotations

from vwlog.games.common import violation, wrong
from vwlog.games.minis import events as ev
from vwlog.games.minis.expect import reactor
from vwlog.games.minis.ruleset import MinisRuleset
from vwlog.games.minis.state import Board, Sequence
from vwlog.model.violation import Violation

V = tuple[Violation, ...]


_KINDS = {"ABILITY": "abilities", "ITEM": "items", "STRATAGEM": "stratagems"}


def declared(rs: MinisRuleset, s: Board, e: ev.Declared) -> V:
    """MIN-PHS-1, -2: a declaration of the Strategic Phase, by a model that has what it declares."""
    leader = e.kind == "LEADER_STRATAGEM"
    rule = "MIN-PHS-2" if leader else "MIN-PHS-1"
    if s.phase != "STRATEGIC":
        if leader:
            return wrong(rule, "a Leader's Stratagems are declared only in the Strategic Phase")
        return wrong(rule, "{model} declares in the Strategic Phase only", model=e.model)
    m = s.models[e.model]
    if m.owner != e.player:
        return wrong(
            rule,
            "{model} is {owner}'s, not {player}'s",
            model=e.model,
            owner=m.owner,
            player=e.player,
        )
    if rs.strategic_declarers == "ACTIVE_PLAYER_MODELS" and m.owner != s.active:
        return wrong(
            "MIN-PHS-1",
            "only the Active Player {active}'s models declare in his Strategic Phase",
            flag="strategic_declarers",
            active=s.active,
        )
    if leader:
        if not m.leader or e.name not in m.stratagems:
            return wrong(
                rule, "{model} is no Leader with the Stratagem {name}", model=e.model, name=e.name
            )
        if rs.leader_stratagem_phase == "OWN" and m.owner != s.active:
            return wrong(
                rule,
                "{model}'s Stratagems are declared in {owner}'s own Strategic Phase",
                flag="leader_stratagem_phase",
                model=e.model,
                owner=m.owner,
            )
        return ()
    if e.name not in getattr(m, _KINDS[e.kind]):
        return wrong(rule, "{model} has no {name} to declare", model=e.model, name=e.name)
    return ()


def activated(rs: MinisRuleset, s: Board, e: ev.ModelActivated) -> V:
    """MIN-PHS-4, -5, MIN-ACT-1, -2: the Active Player activates one of his models with AP."""
    if s.phase != "TACTICAL":
        return wrong("MIN-PHS-4", "models are activated in the Tactical Phase")
    if s.sequence is not None:
        return wrong(
            "MIN-ACT-1", "the Activation Sequence of {model} has not ended", model=s.sequence.model
        )
    if e.player != s.active:
        return wrong(
            "MIN-PHS-4", "only the Active Player {active} activates models", active=s.active
        )
    m = s.models[e.model]
    if m.owner != e.player:
        return wrong("MIN-PHS-4", "{model} is {owner}'s model", model=e.model, owner=m.owner)
    if s.stopped:
        return wrong("MIN-PHS-5", "{player} stopped: the Tactical Phase is over", player=e.player)
    if m.ap < 1:
        return wrong("MIN-ACT-2", "{model} has no Activation Point left", model=e.model)
    if rs.activations_per_turn == "ONCE" and e.model in s.activated:
        return wrong(
            "MIN-PHS-5",
            "{model} was activated this turn: it is not eligible again",
            flag="activations_per_turn",
            model=e.model,
        )
    return ()


def stopped(s: Board, e: ev.TacticalStopped) -> V:
    """MIN-PHS-5: the Active Player stops in the Tactical Phase, between Sequences."""
    if s.phase != "TACTICAL" or s.stopped:
        return wrong("MIN-PHS-5", "only the Tactical Phase is stopped, once")
    if s.sequence is not None:
        return wrong(
            "MIN-ACT-1", "the Activation Sequence of {model} has not ended", model=s.sequence.model
        )
    if e.player != s.active:
        return wrong("MIN-PHS-5", "only the Active Player {active} stops", active=s.active)
    return ()


def _no_sequence(rule: str) -> V:
    return wrong(rule, "no model is activated")


def movement(rs: MinisRuleset, s: Board, e: ev.MovementDeclared) -> V:
    """MIN-ACT-1, -3: the activated model declares its Movement once, with Skills it has."""
    q = s.sequence
    if q is None:
        return _no_sequence("MIN-ACT-1")
    if q.step != "MOVE":
        return wrong("MIN-ACT-1", "the Movement Step of {model} is over", model=q.model)
    if e.player != s.active or e.model != q.model:
        return wrong("MIN-ACT-3", "only the activated model {model} moves", model=q.model)
    if e.kind == "NONE" and rs.movement_required == "MUST_DECLARE":
        return wrong(
            "MIN-ACT-3",
            "{model} declares Normal or Special Movement",
            flag="movement_required",
            model=e.model,
        )
    skills = s.models[e.model].skills
    for skill in e.skills:
        if skill not in skills:
            return wrong("MIN-ACT-3", "{model} has no Skill {skill}", model=e.model, skill=skill)
    return ()


def crouched(s: Board, e: ev.CrouchedChanged) -> V:
    """MIN-ACT-4: Crouched is entered or left at the start or end of the activated model's
    Movement only."""
    q = s.sequence
    if q is None or q.step not in ("MOVE", "MOVED") or e.model != q.model or q.reacted:
        return wrong(
            "MIN-ACT-4",
            "{model} enters or leaves Crouched only at the start or end of its Movement",
            model=e.model,
        )
    if s.models[e.model].owner != e.player:
        return wrong("MIN-ACT-4", "{model} is not {player}'s", model=e.model, player=e.player)
    return ()


def _reacting(s: Board, q: Sequence, player: str, model: str) -> V:
    """What every Reaction needs: a Reactive player's own model with an AP, not yet reacted."""
    m = s.models[model]
    if player not in s.reactive:
        return wrong("MIN-ACT-5", "{player} is not a Reactive Player", player=player)
    if m.owner != player:
        return wrong("MIN-ACT-5", "{model} is not {player}'s", model=model, player=player)
    if model in q.reacted:
        return wrong("MIN-REA-5", "{model} has declared its Reaction in this Sequence", model=model)
    if m.ap < 1:
        return wrong("MIN-REA-1", "{model} has no Activation Point to react with", model=model)
    return ()


def aoo(s: Board, e: ev.AoODeclared) -> V:
    """MIN-REA-1, -4, -5, -6: an Attack of Opportunity during the Movement, at the activated
    model, by a model that has not reacted and has an AP."""
    q = s.sequence
    if q is None or q.step != "MOVED":
        return wrong(
            "MIN-REA-4",
            "an Attack of Opportunity is declared during the activated model's Movement",
        )
    found = _reacting(s, q, e.player, e.model)
    if found:
        return found
    if e.target != q.model:
        return wrong(
            "MIN-REA-4",
            "an Attack of Opportunity attacks the activated model {model}",
            model=q.model,
        )
    if e.ranged and e.approaching is False:
        return wrong(
            "MIN-REA-6",
            "a Ranged Attack of Opportunity is declared while {model} still approaches",
            model=q.model,
        )
    return ()


def reactions(rs: MinisRuleset, s: Board, e: ev.ReactionsDeclared) -> V:
    """MIN-ACT-5, -6, MIN-REA-1, -2, -3, -5: a Reactive Player's Reactions, in the Reaction Step."""
    q = s.sequence
    if q is None or q.step not in ("MOVED", "REACT"):
        return wrong(
            "MIN-ACT-1", "Reactions are declared in the Reaction Step, after the Movement Step"
        )
    if e.player not in s.reactive:
        return wrong("MIN-ACT-5", "{player} is not a Reactive Player", player=e.player)
    if e.player in q.declared:
        return wrong(
            "MIN-ACT-5", "{player} has declared his Reactions in this Sequence", player=e.player
        )
    nxt = reactor(rs, s, q)
    if rs.reaction_declaration_order == "SEAT_ORDER_FROM_ACTIVE" and nxt != e.player:
        return wrong(
            "MIN-ACT-5",
            "{player} declares after {before}",
            flag="reaction_declaration_order",
            player=e.player,
            before=nxt,
        )
    seen: set[str] = set()
    for r in e.reactions:
        found = _reacting(s, q, e.player, r.model)
        if not found and r.model in seen:
            found = wrong("MIN-REA-5", "{model} reacts once in a Sequence", model=r.model)
        seen.add(r.model)
        if not found:
            found = _reaction(s, q, r)
        if found:
            return found
    return ()


def _reaction(s: Board, q: Sequence, r: ev.Reaction) -> V:
    action = r.action.upper()
    if r.kind != "NORMAL":
        return wrong("MIN-REA-2", "a Reaction is a Normal Action, not {action}", action=r.action)
    if ev.is_attack(action) and r.target not in (None, q.model):
        return wrong(
            "MIN-ACT-6", "a Reaction Attack targets only the activated model {model}", model=q.model
        )
    if r.by_awareness:
        if action != "DODGE":
            return wrong("MIN-REA-3", "only a Dodge reacts by Awareness without line of sight")
        if not s.models[r.model].awareness:
            return wrong("MIN-REA-3", "{model} has no Awareness", model=r.model)
        return ()
    if not r.los:
        return wrong(
            "MIN-REA-3",
            "{model} has no line of sight to {target} (as the log claims)",
            model=r.model,
            target=q.model,
        )
    return ()


def action(s: Board, e: ev.ActionDeclared) -> V:
    """MIN-ACT-1, -7: the activated model declares its Action after the Reaction Step."""
    q = s.sequence
    if q is None:
        return _no_sequence("MIN-ACT-1")
    if q.step != "ACTION":
        if q.step == "RESOLUTION":
            return wrong("MIN-ACT-7", "{model} has declared its Action", model=q.model)
        return wrong("MIN-ACT-1", "the Reaction Step comes before the Action Step")
    if e.player != s.active or e.model != q.model:
        return wrong(
            "MIN-ACT-7", "only the activated model {model} declares the Action", model=q.model
        )
    return ()


def changed(rs: MinisRuleset, s: Board, e: ev.ReactionChanged) -> V:
    """MIN-REA-7: a Dodge or Perceive becomes an Attack right after the enemy's Action Step,
    when the enemy attacks Shrouded or Flying and the reacting model has line of sight."""
    q = s.sequence
    rule = "MIN-REA-7"
    if q is None or q.step != "RESOLUTION" or not q.fresh:
        return wrong(rule, "a Reaction changes only right after the Action Step")
    if e.player not in s.reactive or s.models[e.model].owner != e.player:
        return wrong(
            rule,
            "{model} is not a Reactive Player's model of {player}",
            model=e.model,
            player=e.player,
        )
    if q.reacted.get(e.model) not in ("DODGE", "PERCEIVE"):
        return wrong(rule, "{model} did not react with Dodge or Perceive", model=e.model)
    if not ev.is_attack(q.action or ""):
        return wrong(rule, "{model} does not attack", model=q.model)
    if not e.los:
        return wrong(
            rule,
            "{model} has no line of sight to {target} (as the log claims)",
            model=e.model,
            target=q.model,
        )
    if rs.declaration_change_cost == "ONE_AP" and s.models[e.model].ap < 1:
        return wrong(
            rule,
            "{model} has no Activation Point to change its Reaction",
            flag="declaration_change_cost",
            model=e.model,
        )
    return ()


def _dice(e: ev.Roll) -> V:
    if len(e.results) != e.dice or any(not 1 <= r <= e.sides for r in e.results):
        return wrong(
            "MIN-ACT-8",
            "{dice} dice of {sides} sides do not show {results}",
            dice=e.dice,
            sides=e.sides,
            results=" ".join(map(str, e.results)),
        )
    return ()


def roll(s: Board, e: ev.Roll) -> V:
    """MIN-ACT-8, MIN-RES-1, MIN-REA-6: a roll of the Resolution Step, by a model taking part,
    in the order of the Resolution."""
    q = s.sequence
    if q is None or q.step != "RESOLUTION":
        return wrong("MIN-ACT-8", "rolls are made in the Resolution Step")
    if s.models[e.model].owner != e.player:
        return wrong(
            "MIN-ACT-8", "{model} is not {player}'s to roll for", model=e.model, player=e.player
        )
    if e.model not in q.involved:
        return wrong("MIN-ACT-8", "{model} takes no part in this Sequence", model=e.model)
    found = _dice(e)
    if found:
        return found
    if q.wounded:
        return wrong("MIN-RES-1", "Wounds are applied last: no roll follows them")
    later = {"DAMAGE", "PREVENTION"} & set(q.purposes)
    confronted = "CONFRONTATION" in q.purposes
    if q.ranged_aoo and q.melee and not confronted and e.purpose in ("DAMAGE", "PREVENTION"):
        return wrong(
            "MIN-REA-6",
            "a Melee Attack against a Ranged Attack of Opportunity starts a Confrontation: "
            "its rolls come first",
        )
    if e.purpose == "CONFRONTATION" and later:
        return wrong("MIN-RES-1", "Confrontation rolls come before Damage and prevention rolls")
    if e.purpose == "DAMAGE" and e.model not in q.scored:
        return wrong("MIN-RES-1", "{model} scored no Hits: it makes no Damage roll", model=e.model)
    if e.purpose == "PREVENTION" and e.model not in q.hit:
        return wrong(
            "MIN-RES-1", "{model} received no Hits: it makes no prevention roll", model=e.model
        )
    return ()


def ordered(s: Board, e: ev.ResolutionOrdered) -> V:
    """MIN-RES-2: the Active Player orders simultaneous conflicts, in the Resolution Step."""
    q = s.sequence
    if q is None or q.step != "RESOLUTION":
        return wrong("MIN-RES-2", "conflicts are ordered in the Resolution Step")
    if e.player != s.active:
        return wrong(
            "MIN-RES-2",
            "the Active Player {active} orders the conflicts, not {player}",
            active=s.active,
            player=e.player,
        )
    return ()


__all__ = [
    "action",
    "activated",
    "aoo",
    "changed",
    "crouched",
    "declared",
    "movement",
    "ordered",
    "reactions",
    "roll",
    "stopped",
    "violation",
]
