"""A small scenario builder for rule tests.

`Scenario.start` records a `MatchStarted` with hand-picked cards and decks in a known order
(instance ids ``p1-001``, ``p1-002``, … top of the Fate Deck first), folds it and lets play mode
apply the consequences up to the first decision. From there a test drives the match with
decisions: `Scenario.do` goes through `vwlog.games.vw.play.play`, so an illegal decision raises
`IllegalEventError` and a scenario can only ever reach positions legal play reaches.

Questions a test asks:

* `Scenario.violations_of` — which rule ids `check` reports for an event *now* (the scenario
  always stands at a decision point);
* `Scenario.check_at` — the same at an earlier position of the log (for consequences, which
  play mode applies by itself);
* `Scenario.validate_with` — the violations `validate_records` reports for an altered event list
  (renumbered from seq 1).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from vwlog.engine.replay import validate_records
from vwlog.events import (
    AnyEvent,
    CardInstance,
    EventRecord,
    MatchStarted,
    Seat,
)
from vwlog.games.vw.notation import parse_decision
from vwlog.games.vw.play import advance, play
from vwlog.model.cards import (
    AuraSpec,
    CardDef,
    Condition,
    EffectSpec,
    Ruleset,
    SkillDef,
    Target,
)
from vwlog.model.errors import Violation
from vwlog.model.state import MatchState
from vwlog.model.types import (
    CardType,
    Faction,
    Keyword,
    MatchFormat,
    Phase,
    Restriction,
    SkillKind,
    Stat,
    Step,
    SupplyOption,
    Terrain,
    TriggerWhen,
    Zone,
)
from vwlog.projections import INITIAL, evolve
from vwlog.rules import Expect, check, expect, legal_decisions

E = TypeVar("E", bound=AnyEvent)

RULESET = Ruleset(id="vw-test", starting_gold=30, opening_hand=7)
"""The digest's defaults, with enough gold and cards to build a board in one turn."""


# -- cards ---------------------------------------------------------------------------------


def territory(
    card_id: str, *, cost: int = 2, capacity: int = 2, defense: int = 5, **kw: object
) -> CardDef:
    """A Territory producing 1 gold (overridable)."""
    fields: dict[str, object] = {"produce": 1, "terrain": Terrain.LAND, **kw}
    return CardDef.model_validate(
        {
            "id": card_id,
            "name": card_id.replace("-", " ").title(),
            "type": CardType.TERRITORY,
            "cost": cost,
            "capacity": capacity,
            "defense": defense,
            **fields,
        }
    )


def follower(card_id: str, *, atk: int = 2, vit: int = 2, cost: int = 1, **kw: object) -> CardDef:
    """A Follower (name from the id unless given)."""
    name = kw.pop("name", card_id.replace("-", " ").title())
    return CardDef.model_validate(
        {
            "id": card_id,
            "name": name,
            "type": CardType.FOLLOWER,
            "cost": cost,
            "atk": atk,
            "vit": vit,
            **kw,
        }
    )


def active(
    effects: Sequence[EffectSpec] | None,
    *,
    gold: int = 0,
    slide: bool = False,
    restriction: Restriction = Restriction.NONE,
    condition: Condition | None = None,
) -> SkillDef:
    """An active skill (``cost : effect``)."""
    return SkillDef(
        id="s1",
        kind=SkillKind.ACTIVE,
        text="active",
        cost_gold=gold,
        cost_slide=slide,
        restriction=restriction,
        condition=condition,
        effects=tuple(effects) if effects is not None else None,
    )


def action(card_id: str, text: str, *effects: EffectSpec) -> CardDef:
    """An Action costing 1 gold whose ``play`` skill has ``effects``."""
    skill = SkillDef(id="play", kind=SkillKind.ACTIVE, text=text, effects=effects)
    return CardDef(id=card_id, name=card_id.title(), type=CardType.ACTION, cost=1, skills=(skill,))


def trigger(when: TriggerWhen, *effects: EffectSpec) -> SkillDef:
    """A triggered skill with machine-readable effects."""
    return SkillDef(
        id="s1", kind=SkillKind.TRIGGER, text=f"trigger {when}", trigger=when, effects=effects
    )


def honor(amount: int, target: Target = Target.CONTROLLER) -> EffectSpec:
    return EffectSpec(kind="honor", target=target, amount=amount)


def gold(amount: int) -> EffectSpec:
    return EffectSpec(kind="gold", target=Target.CONTROLLER, amount=amount)


def stat(s: Stat, amount: int, target: Target = Target.SELF) -> EffectSpec:
    return EffectSpec(kind="stat", target=target, stat=s, amount=amount)


def damage(amount: int, target: Target) -> EffectSpec:
    return EffectSpec(kind="damage", target=target, amount=amount)


CARDS: tuple[CardDef, ...] = (
    # Territories
    territory("keep", cost=3, capacity=2, defense=6),
    territory("tower", cost=2, capacity=1, defense=3),
    territory("harbor", terrain=Terrain.NAVAL, defense=4),
    territory("lair", keywords=(Keyword.LAIR,), defense=4),
    territory("shrine", skills=(trigger(TriggerWhen.FIRST_MAIN_START, honor(1)),)),
    territory("sanctum", faction=Faction.MYSTIC),
    territory("fort", skills=(trigger(TriggerWhen.ENTERS_PLAY, gold(1)),)),
    territory("bastion", skills=(trigger(TriggerWhen.COMBAT_START, stat(Stat.DEFENSE, 1)),)),
    territory("citadel", capacity=6, defense=20),
    # Followers
    follower("soldier"),
    follower("brute", atk=4, vit=3, cost=2, keywords=(Keyword.RAZE,)),
    follower("rider", keywords=(Keyword.CAVALRY,)),
    follower("raider", vit=1, keywords=(Keyword.RUSH,)),
    follower("flyer", keywords=(Keyword.NAVAL_AERIAL_ATTACK,)),
    follower("giant", atk=1, vit=9),
    follower("herald", atk=1, skills=(active([honor(3)], slide=True),)),
    follower("berserker", skills=(trigger(TriggerWhen.ATTACKS, stat(Stat.ATK, 1)),)),
    follower("guardian", skills=(trigger(TriggerWhen.BLOCKS, stat(Stat.VIT, 1)),)),
    follower("duelist", skills=(trigger(TriggerWhen.COMBAT_END, honor(1)),)),
    follower("chronicler", skills=(trigger(TriggerWhen.TURN_END, honor(1)),)),
    follower(
        "warden",
        skills=(
            SkillDef(id="s1", kind=SkillKind.STATIC, text="Cavalry", keywords=(Keyword.CAVALRY,)),
        ),
    ),
    follower(
        "captain",
        skills=(
            SkillDef(
                id="s1",
                kind=SkillKind.AURA,
                text="own Followers +1 ATK",
                aura=AuraSpec(scope="OWN_FOLLOWERS", stat=Stat.ATK, amount=1),
            ),
        ),
    ),
    follower(
        "mystic",
        skills=(
            active(
                [honor(1)],
                gold=1,
                condition=Condition(controls_territory_faction=(Faction.MYSTIC,)),
            ),
        ),
    ),
    follower("striker", skills=(active([damage(2, Target.OPPOSING_FOLLOWER)], gold=1),)),
    follower("sapper", skills=(active([damage(10, Target.OPPOSING_TERRITORY)], gold=1),)),
    follower(
        "necromancer",
        name="Necromancer(Male)",
        skills=(active([gold(1)], gold=1, restriction=Restriction.ONCE_PER_MATCH),),
    ),
    follower("drill", skills=(active([honor(1)], gold=1, restriction=Restriction.ONCE_PER_TURN),)),
    follower(
        "cycler", skills=(active([honor(1)], gold=1, restriction=Restriction.ONCE_PER_CYCLE),)
    ),
    follower(
        "recaller",
        skills=(
            active(
                [EffectSpec(kind="move", target=Target.OWN_FOLLOWER, to_zone=Zone.HAND)], gold=1
            ),
        ),
    ),
    follower("scribe", skills=(active(None, gold=1),)),
    # effects that leave the controller a choice when they result
    follower(
        "gravedigger",
        skills=(
            active(
                [
                    EffectSpec(
                        kind="return",
                        target=Target.CONTROLLER,
                        from_zone=Zone.GRAVEYARD,
                        to_zone=Zone.HAND,
                        card_type=CardType.FOLLOWER,
                    )
                ],
                gold=1,
            ),
        ),
    ),
    follower(
        "diviner",
        skills=(
            active(
                [
                    damage(1, Target.OPPOSING_FOLLOWER),
                    EffectSpec(kind="bottom", target=Target.CONTROLLER, amount=1),
                ],
                gold=1,
            ),
        ),
    ),
    follower(
        "oracle",
        skills=(
            trigger(
                TriggerWhen.ENTERS_PLAY,
                EffectSpec(kind="look", target=Target.AN_OPPONENT, from_zone=Zone.HAND),
            ),
        ),
    ),
    follower("noble", honor_req=5, skills=(active([honor(-3)]),)),
    follower("armored", atk=2, vit=2, **{"def": 2}),
    follower("fiend", atk=4, vit=3, cost=2, keywords=(Keyword.FORCE,)),
    follower(
        "zealot",
        skills=(active([damage(2, Target.OPPOSING_FOLLOWER), honor(1)], gold=1),),
    ),
    # Relic and Actions
    CardDef(id="banner", name="Banner", type=CardType.RELIC, cost=1),
    CardDef(
        id="lantern",
        name="Lantern",
        type=CardType.RELIC,
        cost=1,
        skills=(
            active([EffectSpec(kind="bottom", target=Target.CONTROLLER, amount=1)], slide=True),
        ),
    ),
    action(
        "glimpse",
        "Look at the top three cards of your Fate Deck, put them back in any order.",
        EffectSpec(kind="reorder", target=Target.CONTROLLER, amount=3),
    ),
    action("pact", "You and each opponent gain 5 honor.", honor(5), honor(5, Target.EACH_OPPONENT)),
    action("tax", "Gain 2 gold.", gold(2)),
)
"""The test card pool (ids double as short names)."""

FILLER = "soldier"
"""Card that pads every deck, so nobody draws out."""


def deck(*cards: str, size: int = 20) -> list[str]:
    """A Fate Deck: ``cards`` on top, padded with `FILLER` to ``size``."""
    return [*cards, *[FILLER] * max(0, size - len(cards))]


# -- the scenario --------------------------------------------------------------------------


@dataclass
class Scenario:
    """A match under construction: the ruleset, the board at a decision point, the log so far."""

    rs: Ruleset
    state: MatchState
    events: list[AnyEvent] = field(default_factory=list)

    # building -------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        decks: Sequence[Sequence[str]] | None = None,
        *,
        players: int = 2,
        ruleset: Ruleset = RULESET,
        teams: Sequence[str | None] | None = None,
        first: str = "p1",
        subdecks: Sequence[Sequence[str]] | None = None,
        cards: Sequence[CardDef] = CARDS,
        match_format: MatchFormat | None = None,
    ) -> Scenario:
        """Start a match: seat ``p1``… in order with these decks (top first) and advance to the
        first decision."""
        chosen = [list(d) for d in decks] if decks is not None else [deck()] * players
        seats = []
        for i, cards_of in enumerate(chosen):
            pid = f"p{i + 1}"
            sub = subdecks[i] if subdecks is not None else ()
            seats.append(
                Seat(
                    player=pid,
                    team=teams[i] if teams is not None else None,
                    deck=tuple(
                        CardInstance(id=f"{pid}-{n + 1:03d}", card=c)
                        for n, c in enumerate(cards_of)
                    ),
                    subdeck=tuple(
                        CardInstance(id=f"{pid}-s{n + 1:02d}", card=c) for n, c in enumerate(sub)
                    ),
                )
            )
        fmt = match_format or (
            MatchFormat.DUEL if len(seats) == 2 and not teams else MatchFormat.BATTLE_ROYAL
        )
        if teams is not None and match_format is None:
            fmt = MatchFormat.TAG
        start = MatchStarted(
            format=fmt, seats=tuple(seats), first_player=first, ruleset=ruleset, cards=tuple(cards)
        )
        state = evolve(INITIAL, start)
        state, more = advance(ruleset, state)
        return cls(ruleset, state, [start, *more])

    def fork(self) -> Scenario:
        """An independent copy (states are immutable; only the event list is copied)."""
        return Scenario(self.rs, self.state, list(self.events))

    # looking -------------------------------------------------------------------------------

    @property
    def start_event(self) -> MatchStarted:
        first = self.events[0]
        assert isinstance(first, MatchStarted)
        return first

    def inst(self, player: str, card: str, nth: int = 0) -> str:
        """Instance id of the ``nth`` copy of ``card`` in ``player``'s deck or subdeck."""
        seat = next(s for s in self.start_event.seats if s.player == player)
        ids = [c.id for c in (*seat.deck, *seat.subdeck) if c.card == card]
        return ids[nth]

    @property
    def expected(self) -> Expect:
        """What the rules expect next."""
        return expect(self.rs, self.state)

    @property
    def holder(self) -> str:
        """Whose decision is awaited."""
        player = self.expected.player
        assert player is not None, f"no decision awaited: {self.expected}"
        return player

    def legal(self) -> list[AnyEvent]:
        """The legal decisions of the player whose decision is awaited."""
        return list(legal_decisions(self.rs, self.state, self.holder))

    def next_object(self) -> str:
        """The id the next register object gets."""
        return f"o{self.state.objects + 1}"

    def find(self, kind: type[E], where: Callable[[E], bool] | None = None, start: int = 0) -> int:
        """Index in `events` of the first event of this type (and predicate) at or after
        ``start``."""
        for i in range(start, len(self.events)):
            e = self.events[i]
            if isinstance(e, kind) and (where is None or where(e)):
                return i
        raise LookupError(f"no {kind.__name__} in the log")

    def find_all(self, kind: type[E]) -> list[int]:
        """Indexes of every event of this type."""
        return [i for i, e in enumerate(self.events) if isinstance(e, kind)]

    # deciding ------------------------------------------------------------------------------

    def do(self, *decisions: AnyEvent) -> Scenario:
        """Play decisions in play mode (raises `IllegalEventError` on an illegal one)."""
        for d in decisions:
            self.state, applied = play(self.rs, self.state, d)
            self.events.extend(applied)
        return self

    def say(self, words: str, *, player: str | None = None) -> Scenario:
        """Play a decision written in the decision notation (`vwlog.games.vw.notation`), as
        ``vwlog play`` takes it; by ``player`` when given, else by the awaited player."""
        return self.do(*self.parse(words, player=player))

    def parse(self, words: str, *, player: str | None = None) -> list[AnyEvent]:
        """The events a decision in the notation stands for here (by ``player`` if given)."""
        if player is not None and player != self.expected.player:
            words = f"{player}: {words}"
        return parse_decision(words, self.rs, self.state)

    def default_decision(self) -> AnyEvent:
        """The quiet choice: pass, finish deploying, take gold, attack and block with nobody;
        otherwise the first legal decision."""
        exp = self.expected
        quiet = {
            "priority": "pass",
            "deploy": "done",
            "attackers": "attackers",
            "blockers": "blockers",
            "blocks": "blocks",
        }
        if (words := quiet.get(str(exp.kind))) is not None:
            return self.parse(words)[0]
        if exp.kind == "supply":
            for o in (SupplyOption.FIRST_TURN_GOLD_1, SupplyOption.GOLD_2):
                [option] = self.parse(f"supply {o.value}")
                if not check(self.rs, self.state, option):
                    return option
        options = self.legal()
        assert options, f"no legal decision for {self.holder}: {exp}"
        return options[0]

    def pass_until(self, predicate: Callable[[MatchState], bool], limit: int = 3000) -> Scenario:
        """Take the quiet decision until ``predicate`` holds at a decision point."""
        for _ in range(limit):
            if predicate(self.state):
                return self
            assert not self.state.over, "the match ended before the predicate held"
            self.do(self.default_decision())
        raise AssertionError("predicate never held")

    def to(self, phase: Phase, step: Step | None = None, *, turn: int | None = None) -> Scenario:
        """Advance quietly to the first decision in ``phase``/``step`` (of ``turn``)."""
        return self.pass_until(
            lambda s: (
                s.phase == phase
                and (step is None or s.step == step)
                and (turn is None or s.turn == turn)
            )
        )

    def until(self, kind: str) -> Scenario:
        """Advance quietly to the next decision of this kind (``"blockers"``, ``"damage"``…)."""
        return self.pass_until(lambda s: expect(self.rs, s).kind == kind)

    def resolve(self, down_to: int = 0) -> Scenario:
        """Everybody passes until the register holds at most ``down_to`` objects."""
        return self.pass_until(lambda s: len(s.register) <= down_to)

    def summon(self, card: str, territory: str | None = None, *, resolve: bool = True) -> Scenario:
        """Pay for and summon ``card`` (by its owner), then let it result."""
        base = len(self.state.register)
        self.say(f"summon {card} {territory or ''}", player=self.state.owners[card])
        return self.resolve(base) if resolve else self

    def use(
        self, card: str, skill: str = "s1", target: str | None = None, *, resolve: bool = True
    ) -> Scenario:
        """Pay for and register an active skill of a card in play, then let it result."""
        assert self.state.defn(card).skill(skill) is not None
        base = len(self.state.register)
        controller = self.state.permanents[card].controller
        self.say(f"skill {card} {skill} {target or ''}", player=controller)
        return self.resolve(base) if resolve else self

    # judging -------------------------------------------------------------------------------

    def violations(self, event: AnyEvent) -> tuple[Violation, ...]:
        """What `check` says about ``event`` now."""
        return check(self.rs, self.state, event)

    def violations_of(self, event: AnyEvent) -> set[str]:
        """The rule ids `check` reports for ``event`` now."""
        return {v.rule for v in self.violations(event)}

    def state_at(self, n: int) -> MatchState:
        """The board after the first ``n`` events of the log."""
        return _fold(tuple(self.events[:n]))

    def check_at(self, n: int, event: AnyEvent, ruleset: Ruleset | None = None) -> set[str]:
        """The rule ids `check` reports for ``event`` in place of the log's event ``n``."""
        return {v.rule for v in check(ruleset or self.rs, self.state_at(n), event)}

    def records(self, events: Iterable[AnyEvent] | None = None) -> tuple[EventRecord, ...]:
        """Records numbered from 1 of ``events`` (the log so far by default)."""
        return records(self.events if events is None else events)

    def validate_with(
        self, events: Iterable[AnyEvent] | None = None, ruleset: Ruleset | None = None
    ) -> list[Violation]:
        """Violations `validate_records` reports for ``events`` (the log so far by default)."""
        return validate_records(self.records(events), ruleset=ruleset).violations


@functools.lru_cache(maxsize=256)
def _fold(events: tuple[AnyEvent, ...]) -> MatchState:
    state = INITIAL
    for e in events:
        state = evolve(state, e)
    return state


def records(events: Iterable[AnyEvent]) -> tuple[EventRecord, ...]:
    """Records numbered from 1."""
    return tuple(EventRecord(seq=i + 1, event=e) for i, e in enumerate(events))


# -- altering a log ------------------------------------------------------------------------


def dropped(events: Sequence[AnyEvent], i: int) -> list[AnyEvent]:
    """The log without event ``i``."""
    return [*events[:i], *events[i + 1 :]]


def replaced(events: Sequence[AnyEvent], i: int, new: AnyEvent) -> list[AnyEvent]:
    """The log with event ``i`` replaced."""
    return [*events[:i], new, *events[i + 1 :]]


def inserted(events: Sequence[AnyEvent], i: int, new: AnyEvent) -> list[AnyEvent]:
    """The log with ``new`` inserted before event ``i``."""
    return [*events[:i], new, *events[i:]]


def rule_ids(violations: Iterable[Violation]) -> set[str]:
    """The rule ids of some violations."""
    return {v.rule for v in violations}


def rules_at(violations: Iterable[Violation], seq: int) -> set[str]:
    """The rule ids reported at one seq."""
    return {v.rule for v in violations if v.seq == seq}


# -- ready-made boards ---------------------------------------------------------------------

Layout = Sequence[tuple[str, Sequence[str]]]
"""Territories a player summons in their first turn, each with the Property put into it."""


def board(
    p1: Layout = (("keep", ("soldier", "brute")),),
    p2: Layout = (("keep", ("soldier", "rider")),),
    *,
    hand1: Sequence[str] = (),
    hand2: Sequence[str] = (),
    ruleset: Ruleset = RULESET,
    turn: int = 3,
    phase: Phase = Phase.MAIN1,
) -> Scenario:
    """A duel where each player builds their layout in their first turn (``p1`` in turn 1, ``p2``
    in turn 2), advanced quietly to ``phase`` of ``turn``. Each player's deck holds the layout's
    cards then the ``hand`` cards, all in the opening hand; a card's first copy in the layout is
    its first copy in the deck, so `Scenario.inst` finds it."""
    layouts = (p1, p2)
    hands = (hand1, hand2)
    decks = [
        [c for t, guards in lay for c in (t, *guards)] + list(h)
        for lay, h in zip(layouts, hands, strict=True)
    ]
    opening = max(ruleset.opening_hand, *(len(d) for d in decks))
    rs = ruleset.model_copy(update={"opening_hand": opening})
    sc = Scenario.start([deck(*d) for d in decks], ruleset=rs)
    for n, (pid, lay) in enumerate(zip(("p1", "p2"), layouts, strict=True), start=1):
        sc.to(Phase.MAIN1, turn=n)
        used: Counter[str] = Counter()

        def take(card: str, pid: str = pid, used: Counter[str] = used) -> str:
            used[card] += 1
            return sc.inst(pid, card, used[card] - 1)

        for t, guards in lay:
            tid = take(t)
            sc.summon(tid)
            for g in guards:
                sc.summon(take(g), tid)
    return sc.to(phase, turn=turn)


def fight(
    sc: Scenario, attacks: Mapping[str, str], blocks: Mapping[str, str] | None = None
) -> Scenario:
    """Combat from wherever the turn stands: ``attacks`` (attacker → Territory) enter battle and
    attack; ``blocks`` (blocker → attacker) enter battle and block. Stops at the first decision
    after the blocks are assigned (or after the declaration when nobody blocks)."""
    sc.to(Phase.COMBAT, Step.C2)
    active = sc.holder
    sc.say(" ".join(["attackers", *attacks]))
    sc.until("declare")
    sc.say(" ".join(["declare", *(f"{f}:{t}" for f, t in attacks.items())]), player=active)
    if not blocks:
        return sc
    sc.until("blockers")
    defender = sc.holder
    sc.say(" ".join(["blockers", *blocks]))
    sc.until("blocks")
    sc.say(" ".join(["blocks", *(f"{b}:{a}" for b, a in blocks.items())]), player=defender)
    return sc


# -- which rule ids the tests break --------------------------------------------------------

BROKEN: set[str] = set()
"""Every rule id some test declares with `breaks`."""
_asserted: list[set[str]] = []

F = TypeVar("F", bound=Callable[..., None])


def breaks(*rule_ids: str) -> Callable[[F], F]:
    """Declare that a test breaks these rules; the test fails unless it asserts one of them with
    `assert_breaks` (and asserts no undeclared one)."""

    def decorate(test: F) -> F:
        BROKEN.update(rule_ids)

        @functools.wraps(test)
        def wrapper(*args: object, **kwargs: object) -> None:
            seen: set[str] = set()
            _asserted.append(seen)
            try:
                test(*args, **kwargs)
            finally:
                _asserted.pop()
            assert seen, f"{test.__name__} asserted none of {rule_ids}"
            assert seen <= set(rule_ids), (
                f"{test.__name__} asserted undeclared {seen - set(rule_ids)}"
            )

        return wrapper  # type: ignore[return-value]

    return decorate


def assert_breaks(
    rule: str, found: Iterable[str] | Iterable[Violation], *, only: bool = True
) -> None:
    """Assert ``rule`` is among the rule ids found (the only one, unless ``only=False``)."""
    ids = {f if isinstance(f, str) else f.rule for f in found}
    assert rule in ids, f"expected {rule}, got {sorted(ids) or 'no violation'}"
    if only:
        assert ids == {rule}, f"expected only {rule}, got {sorted(ids)}"
    if _asserted:
        _asserted[-1].add(rule)
