"""The casebook: positions worked by hand from the seeds' and the digest's own examples.

Every case names its source (a seed file of ``shared/seeds/`` — S000 turn structure, S003
skills — or a rule of the digest) and the verdict that text gives, written down before the
engine was asked: the rule ids a decision breaks, or an empty set when the text allows it.
The positions are reached by legal play through the scenario builder; only the judged decision
is new. Cases where the engine and the text still disagree are marked ``xfail`` with the
reason, so the disagreement stays visible until it is fixed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.rules.harness import (
    CARDS,
    RULESET,
    Scenario,
    board,
    deck,
    fight,
    follower,
)
from vwlog.events import (
    AnyEvent,
    Attack,
    AttackDeclared,
    AttackersEnteredBattle,
    Block,
    BlockersEnteredBattle,
    BlocksAssigned,
    CostPaid,
    DeploymentFinished,
    FollowerDamageAssigned,
    ObjectResulted,
    PhaseStarted,
    PriorityPassed,
    PropertyPlaced,
    SkillRegistered,
    SupplyChosen,
)
from vwlog.events.combat import Allocation
from vwlog.model.types import Keyword, Phase, PlacementReason, Step, SupplyOption

P1, P2, P3 = "p1", "p2", "p3"
LAIR_BEAST = follower("lair-beast", atk=3, vit=3, cost=2, keywords=(Keyword.LAIR,))
POOL = (*CARDS, LAIR_BEAST)


@dataclass(frozen=True)
class Case:
    """One position: where it comes from, what is decided, and the verdict the text gives."""

    name: str
    source: str
    position: Callable[[], tuple[Scenario, AnyEvent]]
    verdict: frozenset[str]
    disagrees: str = ""
    """Why the engine still gives another verdict (the case is an expected failure)."""


CASES: list[Case] = []


def case(name: str, source: str, *rules: str, disagrees: str = "") -> Callable[..., object]:
    def register(fn: Callable[[], tuple[Scenario, AnyEvent]]) -> object:
        CASES.append(Case(name, source, fn, frozenset(rules), disagrees))
        return fn

    return register


# -- positions --------------------------------------------------------------------------------


def duel(turn: int = 1, phase: Phase = Phase.MAIN1, step: Step | None = None) -> Scenario:
    """A fresh duel (p1 first) at the first decision of ``phase``/``step`` of ``turn``."""
    decks = [deck("keep", "soldier", "lair", "pact", "lair-beast", "noble"), deck("keep")]
    return Scenario.start(decks, cards=POOL).to(phase, step, turn=turn)


def in_opponents_main(s: Scenario, me: str) -> Scenario:
    """Pass around until ``me`` holds priority in another player's Main Phase."""
    while s.holder != me:
        s.do(PriorityPassed(player=s.holder))
    return s


def three(turn: int = 1, phase: Phase = Phase.MAIN1) -> Scenario:
    """A three-player Battle Royal at ``phase`` of ``turn``."""
    return Scenario.start(players=3).to(phase, turn=turn)


def tag(turn: int = 1, phase: Phase = Phase.MAIN1) -> Scenario:
    """A Tag Team match: p1 and p3 against p2 and p4 (seats alternate teams)."""
    return Scenario.start(players=4, teams=["a", "b", "a", "b"]).to(phase, turn=turn)


# -- S000 Preparation Phase -------------------------------------------------------------------


@case("first player takes 1 gold", "S000 Supply: first turn only 1 gold or 1 card (R-SUP-3)")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P1, option=SupplyOption.FIRST_TURN_GOLD_1)


@case("first player takes 1 card", "S000 Supply: first turn only 1 gold or 1 card (R-SUP-3)")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P1, option=SupplyOption.FIRST_TURN_CARD_1)


@case("first player asks for 2 gold", "S000 Supply: first turn reduced (R-SUP-3)", "R-SUP-3")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P1, option=SupplyOption.GOLD_2)


@case("first player asks for 2 cards", "S000 Supply: first turn reduced (R-SUP-3)", "R-SUP-3")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P1, option=SupplyOption.CARDS_2)


@case("second player takes a full package", "S000 Supply: 2 cards, 2 gold or 1 of each")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(turn=2, phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P2, option=SupplyOption.CARD_1_GOLD_1)


@case("second player takes 2 gold", "S000 Supply: 2 cards, 2 gold or 1 of each")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(turn=2, phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P2, option=SupplyOption.GOLD_2)


@case(
    "second player takes the first-turn package",
    "S000: only the player who goes first is reduced (R-SET-2)",
    "R-SET-2",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(turn=2, phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P2, option=SupplyOption.FIRST_TURN_GOLD_1)


@case("the opponent chooses the supply", "S000: the active player takes supply", "R-SUP-1")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.SUPPLY)
    return s, SupplyChosen(player=P2, option=SupplyOption.FIRST_TURN_GOLD_1)


@case("a pass in the Preparation Phase", "S000: no priority in Preparation (R-REG-10)", "R-REG-10")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.UNSLIDE)
    return s, PriorityPassed(player=P1)


@case("a summon in the Unslide step", "S000: no skill or summon in Preparation", "R-PREP-2")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.UNSLIDE)
    return s, CostPaid(player=P1, card=s.inst(P1, "keep"), gold=3)


@case("the active player finishes deploying", "S000 Unslide: the active player (re)deploys")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.UNSLIDE)
    return s, DeploymentFinished(player=P1)


@case("the opponent deploys in Preparation", "S000: the active player's phase", "R-PREP-1")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(phase=Phase.PREP, step=Step.UNSLIDE)
    return s, DeploymentFinished(player=P2)


# -- S000 Main Phase and the register -----------------------------------------------------------


@case("the active player passes first", "S000: the active player gets priority first")
def _() -> tuple[Scenario, AnyEvent]:
    return duel(), PriorityPassed(player=P1)


@case("the opponent passes first", "S000: the active player gets priority first", "R-MAIN-5")
def _() -> tuple[Scenario, AnyEvent]:
    return duel(), PriorityPassed(player=P2)


@case("a Territory in the own Main Phase", "S000 Main Phase: summon Territories and Property")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel()
    return s, CostPaid(player=P1, card=s.inst(P1, "keep"), gold=3)


@case("a Territory for less than its cost", "W3 Territories cost gold (R-CARD-11)", "R-CARD-11")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel()
    return s, CostPaid(player=P1, card=s.inst(P1, "keep"), gold=2)


@case("a card from the deck, not the hand", "digest R-ZONE-1: summoned from hand", "R-ZONE-1")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel()
    return s, CostPaid(player=P1, card=s.inst(P1, "soldier", 9), gold=1)


@case(
    "a Follower with no Territory to guard",
    "S000: Property is summoned into a Territory with capacity (R-CARD-2)",
    "R-CARD-2",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = duel()
    return s, CostPaid(player=P1, card=s.inst(P1, "soldier"), gold=1)


@case("a Territory in the opponent's turn", "S000: Territories in a Main Phase", "R-MAIN-8")
def _() -> tuple[Scenario, AnyEvent]:
    s = in_opponents_main(duel(turn=2), P1)
    return s, CostPaid(player=P1, card=s.inst(P1, "keep"), gold=3)


@case("a Lair Territory in the opponent's turn", "W3 Lair: summoned at any time (R-CARD-2)")
def _() -> tuple[Scenario, AnyEvent]:
    s = in_opponents_main(duel(turn=2), P1)
    return s, CostPaid(player=P1, card=s.inst(P1, "lair"), gold=2)


@case("an Action in the opponent's turn", "S000: Actions are summoned in any window (R-CARD-8)")
def _() -> tuple[Scenario, AnyEvent]:
    s = in_opponents_main(duel(turn=2), P1)
    return s, CostPaid(player=P1, card=s.inst(P1, "pact"), gold=1)


@case("a Lair Follower in the opponent's turn", "W3 Lair: at any time, also for Followers")
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(turn=1)
    s.summon(s.inst(P1, "keep"))
    s.to(Phase.MAIN1, turn=2)
    s = in_opponents_main(s, P1)
    return s, CostPaid(player=P1, card=s.inst(P1, "lair-beast"), gold=2)


@case(
    "a plain Follower in the opponent's turn",
    "S000: Property is summoned in its controller's Main Phase (R-MAIN-4)",
    "R-MAIN-4",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = duel(turn=1)
    s.summon(s.inst(P1, "keep"))
    s.to(Phase.MAIN1, turn=2)
    s = in_opponents_main(s, P1)
    return s, CostPaid(player=P1, card=s.inst(P1, "soldier"), gold=1)


@case(
    "a card under its honor requirement",
    "W1 requirements such as honor (R-CARD-10)",
    "R-CARD-10",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = duel()
    s.summon(s.inst(P1, "keep"))
    return s, CostPaid(player=P1, card=s.inst(P1, "noble"), gold=1)


@case(
    "registering without paying first",
    "S003: costs are paid, then the skill enters the register (R-REG-3)",
    "R-REG-3",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("herald")
    herald = s.inst(P1, "herald")
    return s, SkillRegistered(player=P1, card=herald, skill="s1", object_id=s.next_object())


@case("a Property placed in a Main Phase", "S000: no Stray deployment in a Main Phase", "R-MAIN-6")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("keep", ("soldier",)), ("tower", ())))
    return s, PropertyPlaced(
        player=P1,
        card=s.inst(P1, "soldier"),
        territory=s.inst(P1, "tower"),
        reason=PlacementReason.DEPLOY_PHASE,
    )


@case("phase ends before all passed", "S000: all players pass in succession", "R-MAIN-2")
def _() -> tuple[Scenario, AnyEvent]:
    return duel(), PhaseStarted(phase=Phase.COMBAT)


def two_actions(order: str) -> Scenario:
    rs = RULESET.model_copy(update={"result_order": order})
    s = Scenario.start([deck("tax", "pact"), deck()], ruleset=rs).to(Phase.MAIN1)
    s.summon(s.inst(P1, "tax"), resolve=False).summon(s.inst(P1, "pact"), resolve=False)
    s.resolve()
    # the position just before the first result, every player having passed
    i = s.find(ObjectResulted)
    return Scenario(s.rs, s.state_at(i), s.events[:i])


@case(
    "two Actions: the first registered results first (FIFO reading)",
    "S000 result, then priority; order not stated (OQ-34 FIFO)",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = two_actions("FIFO")
    first = s.state.register[0]
    return s, ObjectResulted(object_id=first.id, effects=s.expected.consequences[0].effects)


@case(
    "two Actions: the first registered results first (default LIFO)",
    "digest R-REG-8: last in, first out",
    "R-REG-8",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = two_actions("LIFO")
    first = s.state.register[0]
    return s, ObjectResulted(object_id=first.id, effects=())


# -- S003 skills ------------------------------------------------------------------------------


def skills_board(*hand: str) -> Scenario:
    s = board(p1=(("keep", ("soldier", "brute")), ("citadel", hand)), hand1=())
    return s


@case("a static skill registered", "S003: a static skill never uses the register", "R-SKL-1")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("warden")
    return s, CostPaid(player=P1, card=s.inst(P1, "warden"), skill="s1", gold=0)


@case("an aura registered", "S003: an aura never uses the register", "R-SKL-4")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("captain")
    return s, CostPaid(player=P1, card=s.inst(P1, "captain"), skill="s1", gold=0)


@case("a triggered skill registered", "S003: a trigger is used automatically", "R-SKL-3")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("berserker")
    return s, CostPaid(player=P1, card=s.inst(P1, "berserker"), skill="s1", gold=0)


@case("a condition that does not hold", "S003: a skill may have a condition", "R-SKL-5")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("mystic")
    return s, CostPaid(player=P1, card=s.inst(P1, "mystic"), skill="s1", gold=1)


@case("an active skill with its costs", "S003: pay the costs, then register")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("drill")
    return s, CostPaid(player=P1, card=s.inst(P1, "drill"), skill="s1", gold=1)


@case("a skill paid with the wrong gold", "S003: all costs are paid (R-REG-3)", "R-REG-3")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("drill")
    return s, CostPaid(player=P1, card=s.inst(P1, "drill"), skill="s1", gold=0)


@case("a slide cost paid by a slid card", "S003: the slide cost slides the card", "R-REG-3")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("herald")
    herald = s.inst(P1, "herald")
    s.use(herald)
    return s, CostPaid(player=P1, card=herald, skill="s1", gold=0, slid=(herald,))


@case("a skill of a card not in play", "S003: skills belong to Property in play", "R-SKL-2")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(hand1=("drill",))
    return s, CostPaid(player=P1, card=s.inst(P1, "drill"), skill="s1", gold=1)


@case("once per turn, twice in a turn", "S003: used its restriction's number", "R-SKL-6")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("drill")
    drill = s.inst(P1, "drill")
    s.use(drill)
    return s, CostPaid(player=P1, card=drill, skill="s1", gold=1)


@case("once per turn, again next turn", "S003: once per turn")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("drill")
    drill = s.inst(P1, "drill")
    s.use(drill)
    s.to(Phase.MAIN1, turn=5)
    return s, CostPaid(player=P1, card=drill, skill="s1", gold=1)


@case("once per cycle, in the opponent's turn", "S003: once per cycle", "R-SKL-6")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("cycler")
    cycler = s.inst(P1, "cycler")
    s.use(cycler)
    s.to(Phase.MAIN1, turn=4)
    s = in_opponents_main(s, P1)
    return s, CostPaid(player=P1, card=cycler, skill="s1", gold=1)


@case("once per match, twice by one card", "S003: its restriction's number is used", "R-SKL-6")
def _() -> tuple[Scenario, AnyEvent]:
    s = skills_board("necromancer")
    necro = s.inst(P1, "necromancer")
    s.use(necro)
    s.to(Phase.MAIN1, turn=5)
    return s, CostPaid(player=P1, card=necro, skill="s1", gold=1)


# -- S000 combat ------------------------------------------------------------------------------


def attack_board() -> Scenario:
    return board(p2=(("keep", ("soldier", "rider")), ("harbor", ()), ("tower", ("giant",))))


@case("a fresh Follower attacks", "S000/W3: a Fatigued Follower may not attack", "R-CMB-3")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("keep", ("soldier",)),), hand1=("raider", "soldier"))
    fresh = s.inst(P1, "soldier", 1)
    s.summon(fresh, s.inst(P1, "keep"))
    s.to(Phase.COMBAT, Step.C2)
    s.do(AttackersEnteredBattle(player=P1, followers=(s.inst(P1, "soldier"), fresh)))
    s.until("declare")
    keep2 = s.inst(P2, "keep")
    return s, AttackDeclared(
        player=P1,
        attacks=(
            Attack(follower=s.inst(P1, "soldier"), target=keep2),
            Attack(follower=fresh, target=keep2),
        ),
    )


@case("attacking an opponent's Territory", "S000 step 3: declare the attacked Territory")
def _() -> tuple[Scenario, AnyEvent]:
    s = attack_board()
    soldier = s.inst(P1, "soldier")
    s.to(Phase.COMBAT, Step.C2)
    s.do(AttackersEnteredBattle(player=P1, followers=(soldier,)))
    s.until("declare")
    return s, AttackDeclared(
        player=P1, attacks=(Attack(follower=soldier, target=s.inst(P2, "keep")),)
    )


@case("attacking the own Territory", "S000: the attacked Territory is an opponent's", "R-CMB-10")
def _() -> tuple[Scenario, AnyEvent]:
    s = attack_board()
    soldier = s.inst(P1, "soldier")
    s.to(Phase.COMBAT, Step.C2)
    s.do(AttackersEnteredBattle(player=P1, followers=(soldier,)))
    s.until("declare")
    return s, AttackDeclared(
        player=P1, attacks=(Attack(follower=soldier, target=s.inst(P1, "keep")),)
    )


@case("a Naval Territory without the skill", "S003: attack Naval and Aerial skill", "R-CMB-10")
def _() -> tuple[Scenario, AnyEvent]:
    s = attack_board()
    soldier = s.inst(P1, "soldier")
    s.to(Phase.COMBAT, Step.C2)
    s.do(AttackersEnteredBattle(player=P1, followers=(soldier,)))
    s.until("declare")
    return s, AttackDeclared(
        player=P1, attacks=(Attack(follower=soldier, target=s.inst(P2, "harbor")),)
    )


@case("an attacker left undeclared", "S000 step 3: slide the attackers and declare", "R-CMB-8")
def _() -> tuple[Scenario, AnyEvent]:
    s = attack_board()
    soldier, brute = s.inst(P1, "soldier"), s.inst(P1, "brute")
    s.to(Phase.COMBAT, Step.C2)
    s.do(AttackersEnteredBattle(player=P1, followers=(soldier, brute)))
    s.until("declare")
    return s, AttackDeclared(
        player=P1, attacks=(Attack(follower=soldier, target=s.inst(P2, "keep")),)
    )


@case("the opponent chooses attackers", "S000 step 2: the active player chooses", "R-CMB-2")
def _() -> tuple[Scenario, AnyEvent]:
    s = attack_board().to(Phase.COMBAT, Step.C2)
    return s, AttackersEnteredBattle(player=P2, followers=(s.inst(P2, "soldier"),))


def blocking() -> Scenario:
    s = attack_board()
    soldier, brute = s.inst(P1, "soldier"), s.inst(P1, "brute")
    keep2 = s.inst(P2, "keep")
    fight(s, {soldier: keep2, brute: keep2})
    return s.until("blockers")


@case("the guard of the attacked Territory blocks", "S000 step 4: defenders enter battle")
def _() -> tuple[Scenario, AnyEvent]:
    s = blocking()
    return s, BlockersEnteredBattle(player=P2, followers=(s.inst(P2, "soldier"),))


@case("Cavalry blocks at another Territory", "W3 Cavalry; digest R-CMB-13")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p2=(("keep", ("soldier",)), ("tower", ("rider",))))
    soldier = s.inst(P1, "soldier")
    fight(s, {soldier: s.inst(P2, "keep")})
    s.until("blockers")
    return s, BlockersEnteredBattle(player=P2, followers=(s.inst(P2, "rider"),))


@case(
    "a guard of another Territory blocks",
    "digest R-CMB-13: block only at the guarded Territory",
    "R-CMB-13",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p2=(("keep", ("soldier",)), ("tower", ("giant",))))
    soldier = s.inst(P1, "soldier")
    fight(s, {soldier: s.inst(P2, "keep")})
    s.until("blockers")
    return s, BlockersEnteredBattle(player=P2, followers=(s.inst(P2, "giant"),))


@case("the attacker chooses blockers", "S000 step 4: the defending player chooses", "R-CMB-11")
def _() -> tuple[Scenario, AnyEvent]:
    s = blocking()
    return s, BlockersEnteredBattle(player=P1, followers=(s.inst(P1, "soldier"),))


@case("a blocker blocks an attacker", "S000 step 5: assign blockers to attackers")
def _() -> tuple[Scenario, AnyEvent]:
    s = blocking()
    guard = s.inst(P2, "soldier")
    s.do(BlockersEnteredBattle(player=P2, followers=(guard,)))
    s.until("blocks")
    return s, BlocksAssigned(
        player=P2, blocks=(Block(blocker=guard, attacker=s.inst(P1, "brute")),)
    )


@case(
    "a blocker that did not enter battle",
    "S000 step 4-5: only Followers in battle block",
    "R-ZONE-7",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = blocking()
    guard, rider = s.inst(P2, "soldier"), s.inst(P2, "rider")
    s.do(BlockersEnteredBattle(player=P2, followers=(guard,)))
    s.until("blocks")
    return s, BlocksAssigned(
        player=P2, blocks=(Block(blocker=rider, attacker=s.inst(P1, "brute")),)
    )


def damage_step() -> Scenario:
    s = attack_board()
    soldier, brute = s.inst(P1, "soldier"), s.inst(P1, "brute")
    keep2 = s.inst(P2, "keep")
    fight(s, {soldier: keep2, brute: keep2}, {s.inst(P2, "soldier"): soldier})
    return s.until("damage")


@case("blocked attacker deals its ATK to the blocker", "S000 step 6: distribute ATK damage")
def _() -> tuple[Scenario, AnyEvent]:
    s = damage_step()
    soldier, guard = s.inst(P1, "soldier"), s.inst(P2, "soldier")
    return s, FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=soldier, recipient=guard, amount=2),)
    )


@case("less damage than the ATK", "S000 step 6: the ATK damage is distributed", "R-CMB-19")
def _() -> tuple[Scenario, AnyEvent]:
    s = damage_step()
    soldier, guard = s.inst(P1, "soldier"), s.inst(P2, "soldier")
    return s, FollowerDamageAssigned(
        player=P1, allocations=(Allocation(source=soldier, recipient=guard, amount=1),)
    )


@case(
    "a blocked attacker without Raze hits the Territory",
    "S000 step 6: only Raze sends the rest to the Territory (R-CMB-38)",
    "R-CMB-38",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = damage_step()
    soldier = s.inst(P1, "soldier")
    return s, FollowerDamageAssigned(
        player=P1,
        allocations=(Allocation(source=soldier, recipient=s.inst(P2, "keep"), amount=2),),
    )


# -- S000 End Phase ---------------------------------------------------------------------------


@case("discarding too few", "S000 End Phase: discard down to seven", "R-END-3")
def _() -> tuple[Scenario, AnyEvent]:
    from vwlog.events import HandLimitDiscarded

    rs = RULESET.model_copy(update={"opening_hand": 9})
    s = Scenario.start([deck(), deck()], ruleset=rs).until("discard")
    hand = s.state.player(s.holder).hand
    return s, HandLimitDiscarded(player=s.holder, cards=hand[:0])


@case("discarding down to seven", "S000 End Phase: discard down to seven")
def _() -> tuple[Scenario, AnyEvent]:
    from vwlog.events import HandLimitDiscarded

    rs = RULESET.model_copy(update={"opening_hand": 9})
    s = Scenario.start([deck(), deck()], ruleset=rs).until("discard")
    hand = s.state.player(s.holder).hand
    return s, HandLimitDiscarded(player=s.holder, cards=hand[: len(hand) - 7])


# -- multiplayer (R-GEN-7: priority passes to the next player, all players pass) ---------------


@case("three players: the active player passes first", "S000: active player first")
def _() -> tuple[Scenario, AnyEvent]:
    return three(), PriorityPassed(player=P1)


@case("three players: the last seat passes first", "S000: active player first", "R-MAIN-5")
def _() -> tuple[Scenario, AnyEvent]:
    return three(), PriorityPassed(player=P3)


@case("three players: priority goes to the next seat", "S000: pass moves to the next player")
def _() -> tuple[Scenario, AnyEvent]:
    s = three().do(PriorityPassed(player=P1))
    return s, PriorityPassed(player=P2)


@case("three players: a seat is skipped", "S000: pass moves to the next player", "R-REG-6")
def _() -> tuple[Scenario, AnyEvent]:
    s = three().do(PriorityPassed(player=P1))
    return s, PriorityPassed(player=P3)


@case(
    "three players: two passes end the phase (two-pass reading)",
    'S000: "semua pemain pass secara berurutan, atau terjadi dua kali pass" (OQ-33 TWO_PASSES)',
)
def _() -> tuple[Scenario, AnyEvent]:
    rs = RULESET.model_copy(update={"window_closes_after": "TWO_PASSES"})
    s = Scenario.start(players=3, ruleset=rs).to(Phase.MAIN1, turn=1)
    s.do(PriorityPassed(player=P1))
    # the second pass is the last one the window needs: judge it, then the phase moves on
    return s, PriorityPassed(player=P2)


@case(
    "three players: two passes do not end the phase (default reading)",
    'S000: "semua pemain pass secara berurutan" (OQ-33 ALL_PLAYERS, R-REG-7)',
    "R-REG-7",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = three().do(PriorityPassed(player=P1), PriorityPassed(player=P2))
    return s, PhaseStarted(phase=Phase.COMBAT)


@case(
    "three players: all three pass, the phase ends",
    'S000: "semua pemain pass secara berurutan"',
)
def _() -> tuple[Scenario, AnyEvent]:
    s = three().do(PriorityPassed(player=P1), PriorityPassed(player=P2))
    return s, PriorityPassed(player=P3)


@case("three players: the second player's Territory", "S000: Territories in own Main Phase")
def _() -> tuple[Scenario, AnyEvent]:
    s = Scenario.start([deck(), deck("keep"), deck()]).to(Phase.MAIN1, turn=2)
    return s, CostPaid(player=P2, card=s.inst(P2, "keep"), gold=3)


@case("three players: a Territory out of turn", "S000: Territories in own Main Phase", "R-MAIN-8")
def _() -> tuple[Scenario, AnyEvent]:
    s = Scenario.start([deck(), deck(), deck("keep")]).to(Phase.MAIN1, turn=2)
    s = in_opponents_main(s, P3)
    return s, CostPaid(player=P3, card=s.inst(P3, "keep"), gold=3)


@case("three players: the third takes a full package", "S000 Supply: only the first is reduced")
def _() -> tuple[Scenario, AnyEvent]:
    s = Scenario.start(players=3).to(Phase.PREP, Step.SUPPLY, turn=3)
    return s, SupplyChosen(player=P3, option=SupplyOption.GOLD_2)


@case("Tag Team: the active player passes first", "S000: active player first")
def _() -> tuple[Scenario, AnyEvent]:
    return tag(), PriorityPassed(player=P1)


@case("Tag Team: the teammate passes first", "S000: active player first", "R-MAIN-5")
def _() -> tuple[Scenario, AnyEvent]:
    return tag(), PriorityPassed(player=P3)


@case("Tag Team: priority follows the seats", "S000: pass moves to the next player", "R-REG-6")
def _() -> tuple[Scenario, AnyEvent]:
    s = tag().do(PriorityPassed(player=P1))
    return s, PriorityPassed(player=P3)


@case("Tag Team: the fourth seat takes a full package", "S000 Supply: only the first is reduced")
def _() -> tuple[Scenario, AnyEvent]:
    s = Scenario.start(players=4, teams=["a", "b", "a", "b"]).to(Phase.PREP, Step.SUPPLY, turn=4)
    return s, SupplyChosen(player="p4", option=SupplyOption.CARDS_2)


# -- S003 restriction examples (Contoh 1 and 2) and "sekali tiap pertandingan" -----------------


@case(
    "a new Necromancer(Male) after the Graveyard uses its skill",
    "S003 Contoh 1: a property from the Graveyard is new (R-SKL-9)",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = board(
        p1=(("citadel", ("necromancer",)),),
        p2=(("keep", ("striker", "striker")),),
        hand1=("necromancer",),
    )
    first, again = s.inst(P1, "necromancer"), s.inst(P1, "necromancer", 1)
    s.use(first)
    s.to(Phase.MAIN1, turn=4)
    s.use(s.inst(P2, "striker"), target=first)
    s.to(Phase.MAIN1, turn=5)
    s.summon(again, s.inst(P1, "citadel"))
    return s, CostPaid(player=P1, card=again, skill="s1", gold=1)


@case(
    "a copy back from hand is recognised as having used its skill",
    "S003 Contoh 2: back to hand/Fate Deck/subdeck keeps the record (R-SKL-8)",
    "R-SKL-6",
    "R-SKL-8",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("citadel", ("cycler", "recaller")),), hand1=("cycler",))
    first, again = s.inst(P1, "cycler"), s.inst(P1, "cycler", 1)
    s.use(first)
    s.use(s.inst(P1, "recaller"), target=first)
    s.summon(again, s.inst(P1, "citadel"))
    return s, CostPaid(player=P1, card=again, skill="s1", gold=1)


@case(
    "a second copy in play that never used its once-per-match skill",
    "S003: the record belongs to the property in play (R-SKL-7)",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("citadel", ("necromancer", "necromancer")),))
    s.use(s.inst(P1, "necromancer"))
    second = s.inst(P1, "necromancer", 1)
    return s, CostPaid(player=P1, card=second, skill="s1", gold=1)


# -- S000 Preparation and the Unslide step -----------------------------------------------------


@case("a skill in the Unslide step", "S000: no skill in the Preparation Phase", "R-PREP-2")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("keep", ("herald",)),), turn=3, phase=Phase.PREP)
    s.to(Phase.PREP, Step.UNSLIDE, turn=3)
    herald = s.inst(P1, "herald")
    return s, CostPaid(player=P1, card=herald, skill="s1", slid=(herald,))


@case(
    "a Return Home Follower left out with room to place it",
    "S000 Unslide: put Return Home Followers into Territories with room (R-UNS-2)",
    "R-UNS-2",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("keep", ("raider",)),), hand1=())
    fight(s, {s.inst(P1, "raider"): s.inst(P2, "keep")}).to(Phase.PREP, Step.UNSLIDE, turn=5)
    return s, DeploymentFinished(player=P1)


@case(
    "a Return Home Follower placed into a full Territory",
    "S000 Unslide: without pushing out the guards (R-UNS-2)",
    "R-UNS-2",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("keep", ("raider", "soldier")), ("tower", ())), hand1=())
    raider = s.inst(P1, "raider")
    fight(s, {raider: s.inst(P2, "keep")}).to(Phase.MAIN2, turn=3)
    s.to(Phase.PREP, Step.UNSLIDE, turn=5)
    s.do(
        PropertyPlaced(
            player=P1,
            card=s.inst(P1, "soldier"),
            territory=s.inst(P1, "tower"),
            reason=PlacementReason.UNSLIDE_STEP,
        )
    )
    return s, PropertyPlaced(
        player=P1, card=raider, territory=s.inst(P1, "tower"), reason=PlacementReason.UNSLIDE_STEP
    )


# -- S000 Main Phase: Stray Property and the new Territory -------------------------------------


def stray_rider(*hand: str) -> Scenario:
    """Turn 2: p2's sapper destroyed p1's tower; p1's rider is Stray, p1's keep is full."""
    s = board(
        p1=(("keep", ("soldier", "brute")), ("tower", ("rider",))),
        p2=(("keep", ("sapper",)),),
        hand1=hand,
        turn=2,
    )
    s.use(s.inst(P2, "sapper"), target=s.inst(P1, "tower"))
    return s


def stray_lair_in_main() -> Scenario:
    s = stray_rider("lair")
    s = in_opponents_main(s, P1)
    s.summon(s.inst(P1, "lair"))
    return s


@case(
    "a new Territory in a Main Phase, the Stray Follower not placed",
    "S000 Main Phase: you must deploy Stray Property into the new Territory (R-MAIN-6)",
    "R-MAIN-6",
)
def _() -> tuple[Scenario, AnyEvent]:
    return stray_lair_in_main(), PriorityPassed(player=P1)


@case(
    "the Stray Follower placed into the new Territory",
    "S000 Main Phase: only into the new Territory (R-MAIN-6)",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = stray_lair_in_main()
    return s, PropertyPlaced(
        player=P1,
        card=s.inst(P1, "rider"),
        territory=s.inst(P1, "lair"),
        reason=PlacementReason.NEW_TERRITORY_STRAY,
    )


@case(
    "the Stray Follower placed into an older Territory",
    "S000 Main Phase: not into a Territory you controlled before (R-MAIN-6)",
    "R-MAIN-6",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = stray_lair_in_main()
    return s, PropertyPlaced(
        player=P1,
        card=s.inst(P1, "rider"),
        territory=s.inst(P1, "keep"),
        reason=PlacementReason.NEW_TERRITORY_STRAY,
    )


@case(
    "a new Territory in the End Phase, the Stray Follower placed at once",
    "S000: the Stray exception is a Main-Phase rule ('pada fase ini'); R-DEP-1 outside it",
    "R-DEP-1",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = stray_rider("lair")
    s.to(Phase.END, Step.END_WINDOW, turn=2)
    s = in_opponents_main(s, P1)
    s.summon(s.inst(P1, "lair"))
    return s, PropertyPlaced(
        player=P1,
        card=s.inst(P1, "rider"),
        territory=s.inst(P1, "lair"),
        reason=PlacementReason.NEW_TERRITORY_STRAY,
    )


@case(
    "an unplaced Stray Follower enters battle",
    "S000 Main Phase I: Stray Followers are placed to be ready for combat (R-CMB-5)",
    "R-CMB-5",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = stray_rider()
    s.to(Phase.COMBAT, Step.C2, turn=3)
    return s, AttackersEnteredBattle(player=P1, followers=(s.inst(P1, "rider"),))


# -- S000 Deploy Phase ("ke Territory lain Anda") ----------------------------------------------


def deploy_board() -> Scenario:
    return board(p1=(("keep", ("soldier",)), ("tower", ())), turn=3, phase=Phase.DEPLOY)


@case("a guard moved to another Territory", "S000 Deploy Phase: to another of your Territories")
def _() -> tuple[Scenario, AnyEvent]:
    s = deploy_board()
    return s, PropertyPlaced(
        player=P1,
        card=s.inst(P1, "soldier"),
        territory=s.inst(P1, "tower"),
        reason=PlacementReason.DEPLOY_PHASE,
    )


@case(
    "a guard 'moved' to the Territory it guards",
    "S000 Deploy Phase: 'ke Territory lain Anda' (R-DEP-1)",
    "R-DEP-1",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = deploy_board()
    return s, PropertyPlaced(
        player=P1,
        card=s.inst(P1, "soldier"),
        territory=s.inst(P1, "keep"),
        reason=PlacementReason.DEPLOY_PHASE,
    )


@case(
    "the opponent's Follower moved in the Deploy Phase",
    "S000 Deploy Phase: your Followers, your Territories",
    "R-CARD-9",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = deploy_board()
    return s, PropertyPlaced(
        player=P1,
        card=s.inst(P2, "soldier"),
        territory=s.inst(P1, "tower"),
        reason=PlacementReason.DEPLOY_PHASE,
    )


# -- S000 combat steps 1, 2, 4 and 6 -----------------------------------------------------------


@case("the defender passes first in step 1", "S000 step 1: the active player first", "R-CMB-0")
def _() -> tuple[Scenario, AnyEvent]:
    s = board().to(Phase.COMBAT, Step.C1)
    return s, PriorityPassed(player=P2)


@case("a slid Follower enters battle", "S000 step 2: a slid Follower may not", "R-CMB-4")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("keep", ("herald", "soldier")),))
    s.use(s.inst(P1, "herald"))
    s.to(Phase.COMBAT, Step.C2)
    return s, AttackersEnteredBattle(player=P1, followers=(s.inst(P1, "herald"),))


@case("a Fatigued Follower enters battle", "S000 step 2: a Fatigued Follower may enter battle")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p1=(("keep", ("soldier",)),), hand1=("soldier",))
    fresh = s.inst(P1, "soldier", 1)
    s.summon(fresh, s.inst(P1, "keep")).to(Phase.COMBAT, Step.C2)
    return s, AttackersEnteredBattle(player=P1, followers=(fresh,))


@case("a Fatigued Follower blocks", "S000 step 4: a Fatigued Follower may block")
def _() -> tuple[Scenario, AnyEvent]:
    s = board(p2=(("keep", ("soldier",)),), hand2=("soldier",), turn=2)
    fresh = s.inst(P2, "soldier", 1)
    s = in_opponents_main(s, P2) if s.holder != P2 else s
    s.summon(fresh, s.inst(P2, "keep")).to(Phase.MAIN1, turn=3)
    soldier = s.inst(P1, "soldier")
    fight(s, {soldier: s.inst(P2, "keep")})
    s.until("blockers")
    return s, BlockersEnteredBattle(player=P2, followers=(fresh,))


@case(
    "a Raze attacker sends the rest of its ATK to the Territory",
    "S000 step 6: Raze distributes the rest of its ATK to the attacked Territory",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = board()
    brute, guard, keep2 = s.inst(P1, "brute"), s.inst(P2, "soldier"), s.inst(P2, "keep")
    fight(s, {brute: keep2}, {guard: brute}).until("damage")
    return s, FollowerDamageAssigned(
        player=P1,
        allocations=(
            Allocation(source=brute, recipient=guard, amount=2),
            Allocation(source=brute, recipient=keep2, amount=2),
        ),
    )


# -- S000 End Phase: Actions in the End Phase window -------------------------------------------


@case("an Action in the End Phase window", "S000 End Phase: players may summon Actions")
def _() -> tuple[Scenario, AnyEvent]:
    s = Scenario.start([deck("tax"), deck()]).to(Phase.END, Step.END_WINDOW, turn=1)
    return s, CostPaid(player=P1, card=s.inst(P1, "tax"), gold=1)


@case(
    "a Territory in the End Phase window",
    "S000: Territories in a Main Phase, Actions in the End Phase (R-MAIN-8)",
    "R-MAIN-8",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = Scenario.start([deck("keep"), deck()]).to(Phase.END, Step.END_WINDOW, turn=1)
    return s, CostPaid(player=P1, card=s.inst(P1, "keep"), gold=3)


@case(
    "three players: the third seat answers a registration first",
    "S000: priority after the registrant passes goes to the next player (R-REG-6)",
    "R-REG-5",
)
def _() -> tuple[Scenario, AnyEvent]:
    s = Scenario.start([deck("tax"), deck(), deck()], players=3).to(Phase.MAIN1)
    s.summon(s.inst(P1, "tax"), resolve=False)
    return s, PriorityPassed(player=P3)


@pytest.mark.parametrize(
    "c",
    [
        pytest.param(c, id=c.name, marks=[pytest.mark.xfail(reason=c.disagrees, strict=True)])
        if c.disagrees
        else pytest.param(c, id=c.name)
        for c in CASES
    ],
)
def test_the_case(c: Case) -> None:
    s, decision = c.position()
    assert s.violations_of(decision) == set(c.verdict), c.source


def test_the_casebook_is_large_enough() -> None:
    assert len(CASES) >= 60
    from_the_seeds = [c for c in CASES if c.source.startswith(("S000", "S003"))]
    assert len(from_the_seeds) >= 60, "at least 60 positions from the seeds' own text"
    assert any(n.name.startswith(("three", "Tag")) for n in CASES)
