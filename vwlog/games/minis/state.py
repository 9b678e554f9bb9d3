"""The miniatures board (frozen dataclasses) and its fold: what each event does, trusting it.

The board keeps the round and turn, the roles, the phase, every model's AP and states, the
Activation Sequence in progress (`Sequence`: its step, who reacted, the rolls so far) and the
geometric claims the log made (`Claim`, listed as trusted).

Steps of a Sequence: ``MOVE`` (activated, Movement not yet declared), ``MOVED`` (declared:
Attacks of Opportunity may come, then the Reaction Step), ``REACT`` (some Reactive players
declared, others still owe theirs), ``ACTION`` (the Action Step awaited), ``RESOLUTION``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from vwlog.games.minis import events as ev
from vwlog.games.minis.ruleset import MinisRuleset

STEPS = {
    "MOVE": "MOVEMENT",
    "MOVED": "MOVEMENT",
    "REACT": "REACTION",
    "ACTION": "ACTION",
    "RESOLUTION": "RESOLUTION",
}
"""A Sequence's step as a verdict names it (``MOVED``: after the Movement's declaration, where
an Attack of Opportunity may come)."""


@dataclass(frozen=True, slots=True)
class Model:
    """A model in the match: its profile, AP and states."""

    id: str
    owner: str
    stamina: int
    skills: frozenset[str] = frozenset()
    awareness: bool = False
    leader: bool = False
    abilities: frozenset[str] = frozenset()
    items: frozenset[str] = frozenset()
    stratagems: frozenset[str] = frozenset()
    ap: int = 0
    crouched: bool = False
    states: frozenset[str] = frozenset()
    wounds: int = 0


@dataclass(frozen=True, slots=True)
class Claim:
    """A geometric claim the log made (trusted, never computed: ``geometry=CLAIMED``)."""

    round: int
    turn: int
    rule: str
    model: str
    what: str
    """``los``, ``within_reach``, ``approaching``, ``shrouded`` or ``flying``."""
    value: bool


@dataclass(frozen=True, slots=True)
class Sequence:
    """The Activation Sequence in progress."""

    model: str
    step: str = "MOVE"
    declared: tuple[str, ...] = ()
    """The Reactive players who declared their Reactions."""
    reacted: Mapping[str, str] = field(default_factory=dict)
    """Model -> its Reaction's action (an AoO: ``AOO``), for the models that used theirs."""
    aoo_pending: str | None = None
    """The AoO model whose Reach check is owed."""
    ranged_aoo: bool = False
    action: str | None = None
    melee: bool = False
    fresh: bool = False
    """Just after the Action Step: a Reaction may still change (MIN-REA-7)."""
    purposes: tuple[str, ...] = ()
    wounded: bool = False
    scored: frozenset[str] = frozenset()
    """Models that scored Hits."""
    hit: frozenset[str] = frozenset()
    """Models that received Hits."""

    @property
    def involved(self) -> frozenset[str]:
        """The models that take part: the activated one, the reacting ones, the ones hit."""
        return frozenset({self.model, *self.reacted, *self.hit})


@dataclass(frozen=True, slots=True)
class Board:
    """The match as the log has built it."""

    started: bool = False
    players: tuple[str, ...] = ()
    first: str = ""
    ruleset: MinisRuleset | None = None
    models: Mapping[str, Model] = field(default_factory=dict)
    round: int = 0
    in_round: bool = False
    round_first: str = ""
    turn: int = 0
    turns: int = 0
    """Turns begun in the whole match."""
    been_active: tuple[str, ...] = ()
    """The players Active so far this round, in order."""
    in_turn: bool = False
    active: str | None = None
    reactive: tuple[str, ...] = ()
    phase: str | None = None
    allotted: bool = False
    stopped: bool = False
    activated: frozenset[str] = frozenset()
    sequence: Sequence | None = None
    end_step: int = 0
    """In the End Phase: 1 once the AP are discarded, 2 once the Roles are swapped."""
    over: bool = False
    winner: str | None = None
    claims: tuple[Claim, ...] = ()
    rolls: int = 0

    @property
    def step(self) -> str | None:
        """The Activation Sequence's step as the seed names it (``MOVEMENT``, ``REACTION``,
        ``ACTION``, ``RESOLUTION``; ``None`` outside a Sequence)."""
        q = self.sequence
        return STEPS.get(q.step) if q is not None else None

    def owner(self, model: str) -> str | None:
        """The player controlling ``model`` (``None``: no such model)."""
        m = self.models.get(model)
        return m.owner if m is not None else None

    def eligible(self, rs: MinisRuleset | None = None) -> list[str]:
        """The Active Player's models that may still be activated (MIN-PHS-5, MIN-OQ-5),
        under ``rs`` (default: the match's ruleset)."""
        rs = rs or self.ruleset
        once = rs is not None and rs.activations_per_turn == "ONCE"
        return sorted(
            m.id
            for m in self.models.values()
            if m.owner == self.active and m.ap > 0 and not (once and m.id in self.activated)
        )


def _model(d: ev.ModelDef) -> Model:
    return Model(
        d.id,
        d.owner,
        d.stamina,
        frozenset(d.skills),
        d.awareness,
        d.leader,
        frozenset(d.abilities),
        frozenset(d.items),
        frozenset(d.stratagems),
    )


def _ap(s: Board, model: str, delta: int) -> Mapping[str, Model]:
    m = s.models.get(model)
    if m is None:
        return s.models
    return {**s.models, model: replace(m, ap=max(0, m.ap + delta))}


def _seq(s: Board, **changes: Any) -> Board:
    assert s.sequence is not None
    return replace(s, sequence=replace(s.sequence, **changes))


def _claim(s: Board, rule: str, model: str, what: str, value: bool) -> Board:
    return replace(s, claims=(*s.claims, Claim(s.round, s.turn, rule, model, what, value)))


def _turn(s: Board, e: Any) -> Board:
    """The fold of the round and turn structure's events."""
    if isinstance(e, ev.RoundStarted):
        return replace(s, round=e.round, in_round=True, round_first=e.first, turn=0, been_active=())
    if isinstance(e, ev.TurnStarted):
        return replace(
            s,
            turn=e.turn,
            turns=s.turns + 1,
            in_turn=True,
            active=e.active,
            reactive=tuple(e.reactive),
            been_active=(*s.been_active, e.active),
            phase=None,
            allotted=False,
            stopped=False,
            activated=frozenset(),
            sequence=None,
            end_step=0,
        )
    if isinstance(e, ev.PhaseStarted):
        return replace(s, phase=e.phase, sequence=None if e.phase == "END" else s.sequence)
    if isinstance(e, ev.ApDiscarded):
        models = {k: replace(m, ap=0) for k, m in s.models.items()}
        return replace(s, models=models, end_step=1)
    if isinstance(e, ev.RolesSwapped):
        return replace(s, end_step=2)
    if isinstance(e, ev.TurnEnded):
        return replace(s, in_turn=False, phase=None, sequence=None)
    if isinstance(e, ev.RoundEnded):
        return replace(s, in_round=False)
    if isinstance(e, ev.MatchEnded):
        return replace(s, over=True, winner=e.winner)
    return s


def _allotted(s: Board, e: ev.ApAllotted) -> Board:
    models = dict(s.models)
    for a in e.allotments:
        m = models.get(a.model)
        if m is not None:
            models[a.model] = replace(m, ap=a.ap)
    return replace(s, models=models, allotted=True)


def _reactions(s: Board, e: ev.ReactionsDeclared) -> Board:
    q = s.sequence
    if q is None:
        return s
    reacted = dict(q.reacted)
    for r in e.reactions:
        reacted[r.model] = r.action.upper()
        s = replace(s, models=_ap(s, r.model, -1))
    declared = (*q.declared, e.player)
    step = "ACTION" if set(s.reactive) <= set(declared) else "REACT"
    return _seq(s, reacted=reacted, declared=declared, step=step)


def _in_sequence(s: Board, e: Any) -> Board:
    """The fold of an Activation Sequence's events."""
    q = s.sequence
    if q is None:
        return s
    if isinstance(e, ev.MovementDeclared):
        return _seq(s, step="MOVED")
    if isinstance(e, ev.CrouchedChanged):
        m = s.models.get(e.model)
        if m is None:
            return s
        return replace(s, models={**s.models, e.model: replace(m, crouched=e.crouched)})
    if isinstance(e, ev.AoODeclared):
        s = replace(s, models=_ap(s, e.model, -1))
        if e.ranged and e.approaching is not None:
            s = _claim(s, "MIN-REA-6", e.model, "approaching", e.approaching)
        reacted = {**q.reacted, e.model: "AOO"}
        return _seq(s, reacted=reacted, aoo_pending=e.model, ranged_aoo=q.ranged_aoo or e.ranged)
    if isinstance(e, ev.AoOChecked):
        s = _claim(s, "MIN-REA-4", e.model, "within_reach", e.within_reach)
        return _seq(s, aoo_pending=None)
    if isinstance(e, ev.ReactionsDeclared):
        for r in e.reactions:
            if not r.by_awareness:
                s = _claim(s, "MIN-REA-3", r.model, "los", r.los)
        return _reactions(s, e)
    if isinstance(e, ev.ActionDeclared):
        melee = e.melee or e.action.upper() == "MELEE ATTACK"
        return _seq(s, step="RESOLUTION", action=e.action.upper(), melee=melee, fresh=True)
    if isinstance(e, ev.ReactionChanged):
        cost = s.ruleset is not None and s.ruleset.declaration_change_cost == "ONE_AP"
        if cost:
            s = replace(s, models=_ap(s, e.model, -1))
        s = _claim(s, "MIN-REA-7", e.model, "los", e.los)
        s = _claim(s, "MIN-REA-7", q.model, e.enemy_state.lower(), True)
        return _seq(s, reacted={**q.reacted, e.model: "ATTACK"})
    if isinstance(e, ev.Roll):
        scored = q.scored | {e.model} if e.hits else q.scored
        hit = q.hit | {e.target} if e.hits and e.target else q.hit
        s = replace(s, rolls=s.rolls + 1)
        return _seq(s, purposes=(*q.purposes, e.purpose), scored=scored, hit=hit, fresh=False)
    if isinstance(e, ev.WoundsApplied):
        m = s.models.get(e.model)
        if m is not None:
            hurt = replace(m, wounds=m.wounds + e.wounds, states=m.states | set(e.states))
            s = replace(s, models={**s.models, e.model: hurt})
        return _seq(s, wounded=True, fresh=False)
    if isinstance(e, ev.ResolutionOrdered):
        return _seq(s, fresh=False)
    if isinstance(e, ev.SequenceEnded):
        return replace(s, sequence=None)
    return s


def evolve(s: Board, e: Any) -> Board:
    """The board after ``e``, as played (trusting it); never raises."""
    if isinstance(e, ev.MinisStarted):
        models = {d.id: _model(d) for d in e.models}
        return Board(True, tuple(e.players), e.first, e.ruleset, models)
    if isinstance(e, ev.ApAllotted):
        return _allotted(s, e)
    if isinstance(e, ev.ModelActivated):
        s = replace(s, models=_ap(s, e.model, -1), activated=s.activated | {e.model})
        return replace(s, sequence=Sequence(e.model))
    if isinstance(e, ev.TacticalStopped):
        return replace(s, stopped=True)
    if isinstance(e, ev.Declared):
        return s
    if s.sequence is not None and not isinstance(e, ev.PhaseStarted | ev.TurnEnded):
        return _in_sequence(s, e)
    return _turn(s, e)


__all__ = ["Board", "Claim", "Model", "Sequence", "evolve"]
