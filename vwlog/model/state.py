"""What the board *is* at one moment: frozen values, no rules and no events.

States are immutable; `vwlog.projections.board.evolve` builds the next one with `replace`
(`vwlog.model.copying`), sharing everything that did not change. Collections are tuples or
mappings that are never mutated after construction (a changed mapping is a new dict).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from mypy_extensions import mypyc_attr

# the classes' annotations are evaluated when the module is compiled: their names are imported
from vwlog.model.cards import CardDef, Condition, Ruleset
from vwlog.model.causes import caused
from vwlog.model.copying import copier, replace
from vwlog.model.markers import Marker
from vwlog.model.types import CardType, Expiry, Keyword, Phase, SkillKind, Stat, Step, Zone


@mypyc_attr(native_class=False)
class UnknownIdError(KeyError):
    """A record names a card instance or a player the match does not have.

    A ``KeyError`` (callers that ask "is it there?" with ``except KeyError`` keep working),
    carrying what the replay loop needs to report it as a violation instead of a crash: the
    rule a record breaks by naming it (R-ZONE-5 for a card, R-GEN-7 for a player).
    """

    def __init__(self, kind: Literal["card", "player"], ident: str) -> None:
        super().__init__(kind, ident)
        self.kind = kind
        """``card`` or ``player``."""
        self.ident = ident
        """The id the record gave."""
        self.rule = "R-ZONE-5" if kind == "card" else "R-GEN-7"
        """The rule id the record breaks."""

    def __str__(self) -> str:
        return f"unknown {self.kind} {self.ident!r}"


Where = Literal["TERRITORY", "GUARD", "RETURN_HOME", "STRAY", "ORPHAN"]
"""Where a card in play is: a Territory itself, guarding one, Return Home, Stray, or the guard
of a Territory destroyed in this combat that becomes Stray in step 10 (R-CMB-35)."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Permanent:
    """A card in play: a Territory, or Property guarding one, Return Home or Stray."""

    id: str
    """Instance id."""
    card: str
    """Definition id."""
    controller: str
    """Controlling player."""
    where: Where
    """Position in play."""
    territory: str | None = None
    """For a guard: the Territory it guards."""
    slid: bool = False
    """Slid (tapped) or not."""
    fatigued: bool = False
    """Fatigued since entering play (OQ-28)."""
    damage: int = 0
    """Damage marked this turn (R-GEN-5)."""
    entered_turn: int = 0
    """The turn it entered play."""
    entered_at: int = 0
    """The register-object count when it entered play (orders entries within a turn)."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Modifier:
    """A stat change from a resulted effect, until it expires (R-SKL-11)."""

    card: str
    """The card changed."""
    stat: Stat
    """The stat."""
    delta: int
    """The change."""
    expires: Expiry
    """When it ends."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Allot:
    """One locked combat-damage allocation inside a register object (R-CMB-25)."""

    source: str
    recipient: str
    amount: int


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class RegisterObject:
    """An object waiting on the register (R-ZONE-6)."""

    id: str
    """Object id."""
    kind: str
    """An `ObjectKind` value."""
    controller: str
    """Who registered it (for combat damage: the active player)."""
    card: str | None = None
    """The source card (summoned card, or card with the skill)."""
    skill: str | None = None
    """The skill id, for skill objects (``"play"`` for an Action)."""
    target: str | None = None
    """The target chosen at registration, locked (OQ-15)."""
    territory: str | None = None
    """For a Property summon: the Territory it will guard."""
    allocations: tuple[Allot, ...] = ()
    """For combat damage: the locked allocations."""
    unpaid: bool = False
    """Registered without its costs paid just before (R-REG-3); a cost paid right after it pays
    for it, so one mistake leaves no pending cost behind."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PlayerState:
    """One player's resources and hidden zones."""

    id: str
    seat: int
    team: str | None
    gold: int = 0
    honor: int = 0
    vp: int = 0
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    subdeck: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    out: bool = False
    """Lost (deck-out, game loss) and skipped in turn order."""
    taken: int = 0
    """Other players' Territories destroyed with this player as the one who scores them, each
    worth ``honor_per_territory_destroyed`` honor (OQ-7): an honor total that falls short of a
    requirement rests on that flag once this is not 0."""

    def held(self, zone: Zone) -> tuple[str, ...]:
        """The cards in one of this player's zones out of play (`HELD_ZONES`); none for
        another zone."""
        name = HELD_ZONES.get(zone)
        return () if name is None else tuple(getattr(self, name))


HELD_ZONES: Final = {
    Zone.HAND: "hand",
    Zone.FATE_DECK: "deck",
    Zone.SUBDECK: "subdeck",
    Zone.GRAVEYARD: "graveyard",
}
"""The `PlayerState` field holding each zone out of play."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class PendingCost:
    """A cost paid and not yet followed by its registration (R-REG-3)."""

    player: str
    card: str
    skill: str | None
    gold: int
    slid: tuple[str, ...]


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered skill waiting to go onto the register (R-REG-4)."""

    player: str
    card: str
    skill: str


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Combat:
    """Battle membership and declarations of the current Combat Phase (R-ZONE-7)."""

    attackers: tuple[str, ...] = ()
    """Followers that entered battle as attackers (step 2)."""
    attacks: Mapping[str, str] = field(default_factory=dict)
    """Declared attacker → attacked Territory (step 3)."""
    blockers: tuple[str, ...] = ()
    """Followers that entered battle as blockers (step 4)."""
    blocks: Mapping[str, str] = field(default_factory=dict)
    """Blocker → the attacker it blocks (step 5)."""
    allocations: tuple[Allot, ...] = ()
    """Follower damage distributed so far in step 6, not yet registered."""
    destroyed: tuple[str, ...] = ()
    """Territories destroyed in this combat (for Stray, R-CMB-35)."""


NO_COMBAT: Final = Combat()


def record_key(controller: str, card: str, skill: str, scope: str) -> tuple[str, str, str, str]:
    """The restriction record of a property in play (R-SKL-6)."""
    return (controller, card, skill, scope)


def carried_key(controller: str, name: str, skill: str, scope: str) -> tuple[str, str, str, str]:
    """A record carried by card name after its property went back to hand, Fate Deck or
    subdeck (R-SKL-8); the name is marked so it never equals an instance id."""
    return (controller, f"name:{name}", skill, scope)


@dataclass(frozen=True)
class MatchState:
    """The whole board at one moment.

    ``done`` lists what already happened in the current phase or step, as `Marker` values
    (``Marker.PRODUCED``, ``Marker.BLOCKERS.of("p2")``, …); the rules read it to know what
    comes next.
    """

    ruleset: Ruleset | None = None
    """The ruleset named by `MatchStarted` (``None`` before it)."""
    cards: Mapping[str, CardDef] = field(default_factory=dict)
    """Card definitions by definition id."""
    instances: Mapping[str, str] = field(default_factory=dict)
    """Definition id by instance id, for every card of the match."""
    owners: Mapping[str, str] = field(default_factory=dict)
    """Owner by instance id."""
    players: tuple[PlayerState, ...] = ()
    """Players in seat order."""
    seats: Mapping[str, int] = field(default_factory=dict)
    """Seat index by player id."""
    live: int = 0
    """How many players are still in the match."""
    out_by: str | None = None
    """How the last player to leave the match left it: ``CONCESSION`` or ``JUDGE``."""
    territory_counts: Mapping[str, int] = field(default_factory=dict)
    """Territories in play by controller (kept by the fold for the victory check)."""
    victory_check: bool = False
    """Whether the last event could have changed a victory condition (R-VIC-4)."""
    first_player: str | None = None
    started: bool = False
    opening_done: bool = False
    turn: int = 0
    active: str | None = None
    phase: Phase | None = None
    step: Step | None = None
    done: frozenset[str] = frozenset()
    priority: str | None = None
    """Who holds priority, when a window is open."""
    passes: int = 0
    """Consecutive passes since the last registration or result (R-REG-7)."""
    permanents: Mapping[str, Permanent] = field(default_factory=dict)
    """Cards in play, in order of entering play."""
    modifiers: tuple[Modifier, ...] = ()
    register: tuple[RegisterObject, ...] = ()
    """The register, bottom first; the last is the top (R-REG-8)."""
    objects: int = 0
    """Objects registered so far (object ids are ``o<N>``)."""
    pending_cost: PendingCost | None = None
    triggers: tuple[Trigger, ...] = ()
    """Triggered skills waiting to be registered (R-REG-4, OQ-16)."""
    combat: Combat = NO_COMBAT
    stray_territory: str | None = None
    """A Territory that just entered play while its controller has Stray Property (R-MAIN-6)."""
    fatal: tuple[str, ...] = ()
    """Followers with fatal damage, waiting for their batch (R-CMB-26)."""
    doomed: tuple[str, ...] = ()
    """Territories with fatal damage, waiting for their batch (R-CMB-30)."""
    destroyer: str | None = None
    """Whose effect or combat marked the latest damage (R-VP-2, OQ-9)."""
    vp_due: tuple[tuple[str, str], ...] = ()
    """(scorer, opponent) Victory Points owed (R-VP-1)."""
    honor_due: tuple[tuple[str, int], ...] = ()
    """(player, amount) honor owed for destroyed Territories (OQ-7 parameter)."""
    records: Mapping[tuple[str, str, str, str], tuple[str, int]] = field(default_factory=dict)
    """Restriction records (R-SKL-6..10), as the seed keeps them: per property in play
    (`record_key`: controller, instance, skill id, scope) → (the instance that used the skill,
    uses so far); a property gone back to hand, Fate Deck or subdeck leaves its record under
    its name (`carried_key`) for the next copy its controller brings into play."""
    winner: str | None = None
    victory: str | None = None
    revealed: frozenset[str] = frozenset()
    """Players whose deck commitment was opened."""
    commitments: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    """Player → (commitment, deck order at match start)."""
    voided_to: int | None = None
    """Set by a judge's back-up ruling: the seq the game returned to."""

    def __reduce__(self) -> tuple[type[MatchState], tuple[Any, ...]]:
        """Pickled and copied by its field values: compiled, the class keeps no instance
        dictionary, and its frozen fields refuse the default way of restoring one."""
        return (MatchState, tuple(getattr(self, name) for name in _FIELD_NAMES))

    def _with(self, changes: dict[str, Any]) -> MatchState:
        """A copy with ``changes``: what `replace` does for the compiled class, which keeps its
        fields in the instance itself (no dictionary to copy) and reads them directly."""
        new = self._copy()
        for name, value in changes.items():
            object.__setattr__(new, name, value)
        return new

    def with_priority(self, priority: str | None, passes: int, done: frozenset[str]) -> MatchState:
        """A copy with who holds priority, how many passed in a row and what is done in the
        step: ``replace(self, priority=…, passes=…, done=…)`` without the keyword dictionary
        (the fold's most frequent copy: every pass, every action that resets priority)."""
        if not _NATIVE:  # interpreted: copying the instance dictionary is faster
            return replace(self, priority=priority, passes=passes, done=done)
        new = self._copy()
        object.__setattr__(new, "priority", priority)
        object.__setattr__(new, "passes", passes)
        object.__setattr__(new, "done", done)
        return new

    def at_step(
        self, phase: Phase | None, step: Step | None, stray_territory: str | None
    ) -> MatchState:
        """A copy as a phase or a step begins: ``phase`` and ``step`` set, nothing done in it
        yet, priority with the active player and no passes; ``stray_territory`` as given.
        ``replace`` with those six fields, without the keyword dictionary (every phase and
        step that starts)."""
        if not _NATIVE:  # interpreted: copying the instance dictionary is faster
            return replace(
                self,
                phase=phase,
                step=step,
                done=_NOTHING_DONE,
                priority=self.active,
                passes=0,
                stray_territory=stray_territory,
            )
        new = self._copy()
        object.__setattr__(new, "phase", phase)
        object.__setattr__(new, "step", step)
        object.__setattr__(new, "done", _NOTHING_DONE)
        object.__setattr__(new, "priority", self.active)
        object.__setattr__(new, "passes", 0)
        object.__setattr__(new, "stray_territory", stray_territory)
        return new

    def _copy(self) -> MatchState:
        new: MatchState = _new_state(MatchState)
        object.__setattr__(new, "ruleset", self.ruleset)
        object.__setattr__(new, "cards", self.cards)
        object.__setattr__(new, "instances", self.instances)
        object.__setattr__(new, "owners", self.owners)
        object.__setattr__(new, "players", self.players)
        object.__setattr__(new, "seats", self.seats)
        object.__setattr__(new, "live", self.live)
        object.__setattr__(new, "out_by", self.out_by)
        object.__setattr__(new, "territory_counts", self.territory_counts)
        object.__setattr__(new, "victory_check", self.victory_check)
        object.__setattr__(new, "first_player", self.first_player)
        object.__setattr__(new, "started", self.started)
        object.__setattr__(new, "opening_done", self.opening_done)
        object.__setattr__(new, "turn", self.turn)
        object.__setattr__(new, "active", self.active)
        object.__setattr__(new, "phase", self.phase)
        object.__setattr__(new, "step", self.step)
        object.__setattr__(new, "done", self.done)
        object.__setattr__(new, "priority", self.priority)
        object.__setattr__(new, "passes", self.passes)
        object.__setattr__(new, "permanents", self.permanents)
        object.__setattr__(new, "modifiers", self.modifiers)
        object.__setattr__(new, "register", self.register)
        object.__setattr__(new, "objects", self.objects)
        object.__setattr__(new, "pending_cost", self.pending_cost)
        object.__setattr__(new, "triggers", self.triggers)
        object.__setattr__(new, "combat", self.combat)
        object.__setattr__(new, "stray_territory", self.stray_territory)
        object.__setattr__(new, "fatal", self.fatal)
        object.__setattr__(new, "doomed", self.doomed)
        object.__setattr__(new, "destroyer", self.destroyer)
        object.__setattr__(new, "vp_due", self.vp_due)
        object.__setattr__(new, "honor_due", self.honor_due)
        object.__setattr__(new, "records", self.records)
        object.__setattr__(new, "winner", self.winner)
        object.__setattr__(new, "victory", self.victory)
        object.__setattr__(new, "revealed", self.revealed)
        object.__setattr__(new, "commitments", self.commitments)
        object.__setattr__(new, "voided_to", self.voided_to)
        return new

    # -- lookups -----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the match has a winner."""
        return self.winner is not None

    def player(self, player_id: str) -> PlayerState:
        """The player with this id (raises `UnknownIdError`, a ``KeyError``, if unknown)."""
        try:
            return self.players[self.seats[player_id]]
        except (KeyError, IndexError):
            raise caused(UnknownIdError("player", player_id), None) from None

    def has_player(self, player_id: str) -> bool:
        """Whether a player with this id sits at the table."""
        return player_id in self.seats

    def territory_count(self, player_id: str) -> int:
        """How many Territories a player controls."""
        return self.territory_counts.get(player_id, 0)

    def defn(self, instance: str) -> CardDef:
        """The definition of a card instance (raises `UnknownIdError`, a ``KeyError``, if
        unknown)."""
        try:
            return self.cards[self.instances[instance]]
        except KeyError:
            raise caused(UnknownIdError("card", instance), None) from None

    def territories(self, player_id: str) -> list[Permanent]:
        """The Territories a player controls, in order of entering play."""
        return [
            c
            for c in self.permanents.values()
            if c.where == "TERRITORY" and c.controller == player_id
        ]

    def guards(self, territory: str) -> list[Permanent]:
        """The Property guarding a Territory."""
        return [c for c in self.permanents.values() if c.territory == territory]

    def seat_order_from(self, player_id: str) -> list[str]:
        """Players still in the match in turn order, starting with ``player_id``."""
        i = self.seats[player_id]
        ps = self.players
        return [p.id for p in ps[i:] + ps[:i] if not p.out]

    def next_player(self, player_id: str) -> str:
        """The next player in turn order after ``player_id`` (R-REG-6)."""
        ps = self.players
        n = len(ps)
        i = self.seats[player_id]
        for k in range(1, n + 1):
            p = ps[(i + k) % n]
            if not p.out:
                return p.id
        return player_id

    def live_players(self) -> list[str]:
        """Players still in the match, in seat order."""
        return [p.id for p in self.players if not p.out]

    def opponents(self, player_id: str) -> list[str]:
        """Players still in the match who are not on ``player_id``'s team."""
        me = self.player(player_id)
        return [
            p.id
            for p in self.players
            if p.id != player_id and not p.out and (me.team is None or p.team != me.team)
        ]

    def stat(self, instance: str, stat: Stat) -> int:
        """The current value of a card's stat: base, modifiers and auras (never below 0)."""
        return current_stat(self, instance, stat)

    def has_keyword(self, instance: str, keyword: Keyword) -> bool:
        """Whether a card in play has a keyword now (printed, or granted by a static skill)."""
        return has_keyword(self, instance, keyword)

    def __str__(self) -> str:
        return render(self)


_BASE: Final = {
    Stat.ATK: "atk",
    Stat.DEF: "def_",
    Stat.VIT: "vit",
    Stat.DEFENSE: "defense",
    Stat.GOLD_PRODUCE: "produce",
    Stat.CAPACITY: "capacity",
}

_FIELD_NAMES: Final = tuple(f.name for f in fields(MatchState))
_new_state: Final = MatchState.__new__
"""``MatchState.__new__``, looked up once (compiled, a copy then skips the type's lookup)."""
_NOTHING_DONE: Final[frozenset[str]] = frozenset()
"""What is done in a phase or step that has just begun."""

_NATIVE: Final = MatchState.__dictoffset__ == 0
"""Compiled: a native class, without an instance dictionary."""

if _NATIVE:
    copier(MatchState, MatchState._with)


def condition_holds(state: MatchState, controller: str, condition: Condition | None) -> bool:
    """Whether a skill's condition holds for its controller now (R-SKL-5)."""
    if condition is None:
        return True
    if condition.controls_territory_faction:
        factions = set(condition.controls_territory_faction)
        if not any(state.defn(t.id).faction in factions for t in state.territories(controller)):
            return False
    return condition.min_honor is None or state.player(controller).honor >= condition.min_honor


def has_keyword(state: MatchState, instance: str, keyword: Keyword) -> bool:
    """Whether a card has a keyword now: printed, or granted by one of its static skills whose
    condition holds (R-SKL-1, R-SKL-5). Force counts as Raze only where the ruleset says so
    (OQ-26)."""
    d = state.defn(instance)
    if keyword in d.keywords:
        return True
    perm = state.permanents.get(instance)
    controller = perm.controller if perm else state.owners.get(instance, "")
    for s in d.skills:
        if s.kind == SkillKind.STATIC and keyword in s.keywords:
            if perm is None or condition_holds(state, controller, s.condition):
                return True
    if keyword == Keyword.RAZE and state.ruleset is not None and state.ruleset.force_is_raze:
        return has_keyword(state, instance, Keyword.FORCE)
    return False


def _aura_bonus(state: MatchState, instance: str, stat: Stat) -> int:
    """The sum of aura changes on a Follower from other cards in play (R-SKL-4)."""
    me = state.permanents.get(instance)
    if me is None:
        return 0
    total = 0
    my_def = state.defn(instance)
    for other in state.permanents.values():
        if other.id == instance or other.where == "TERRITORY":
            continue
        for s in state.defn(other.id).skills:
            aura = s.aura
            if s.kind != SkillKind.AURA or aura is None or aura.stat != stat:
                continue
            if other.controller != me.controller:
                continue
            if aura.side is not None and my_def.side != aura.side:
                continue
            if not condition_holds(state, other.controller, s.condition):
                continue
            if aura.scope == "ATTACKING_TOGETHER":
                attacks = state.combat.attacks
                if instance not in attacks or other.id not in attacks:
                    continue
            elif aura.scope == "SAME_TERRITORY":
                if me.territory is None or me.territory != other.territory:
                    continue
            total += aura.amount
    return total


def current_stat(state: MatchState, instance: str, stat: Stat) -> int:
    """A card's stat now: printed value, plus resulted modifiers, plus auras; never below 0
    (R-CARD-3, R-SKL-4, R-SKL-11)."""
    value: int = getattr(state.defn(instance), _BASE[stat])
    for m in state.modifiers:
        if m.card == instance and m.stat == stat:
            value += m.delta
    if state.cards[state.instances[instance]].type == CardType.FOLLOWER:
        value += _aura_bonus(state, instance, stat)
    return max(value, 0)


def render(state: MatchState) -> str:
    """A compact text board: per player resources and zones, Territories with guards, the
    register, and where the turn stands (English; `vwlog.model.board.board_said` gives its lines
    as templates, which the render layer says in another language)."""
    from vwlog.model.board import board_said  # it reads this module's states

    return "\n".join(str(line) for line in board_said(state))


__all__ = [
    "HELD_ZONES",
    "NO_COMBAT",
    "Allot",
    "Combat",
    "Marker",
    "MatchState",
    "Modifier",
    "PendingCost",
    "Permanent",
    "PlayerState",
    "RegisterObject",
    "Trigger",
    "Where",
    "condition_holds",
    "current_stat",
    "has_keyword",
    "render",
    "replace",
]
