"""Is this event legal here? ``check(ruleset, state, event) -> tuple[Violation, ...]``.

A consequence is legal when it is one the rules demand now (`flow.expect`); a missing, extra or
different consequence cites the rule that demands it. A decision is legal when it is the awaited
kind of decision, by the awaited player, and passes the checks of its rules. Every violation
cites a rule id of the catalog; rules that hold only by inference or default say so.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from vwlog.events import (
    AnyEvent,
    AttackDeclared,
    AttackersEnteredBattle,
    BaseEvent,
    BlockersEnteredBattle,
    BlocksAssigned,
    CardMoved,
    CardsDrawn,
    CardSummoned,
    Conceded,
    CostPaid,
    DamageDealt,
    DeckRevealed,
    DeploymentFinished,
    Effect,
    FollowerDamageAssigned,
    GoldChanged,
    GoldProduced,
    HandLimitDiscarded,
    HonorChanged,
    JudgeRulingIssued,
    MatchForked,
    MatchStarted,
    MatchWon,
    ObjectResulted,
    PriorityPassed,
    PropertyPlaced,
    SkillRegistered,
    SkillTriggered,
    StatChanged,
    StatusChanged,
    SupplyChosen,
    VictoryPointGained,
    event_type,
)
from vwlog.model.cards import Target
from vwlog.model.state import condition_holds
from vwlog.model.types import (
    CardType,
    Keyword,
    Phase,
    PlacementReason,
    Restriction,
    RulingKind,
    SkillKind,
    Stat,
    Step,
    TriggerWhen,
    Zone,
)
from vwlog.rules.common import (
    attack_candidates,
    attackable,
    block_candidates,
    blockers_of,
    can_attack,
    card_name,
    is_follower,
    live_attackers,
    may_block_at,
    needs_naval_aerial,
    room,
    uses_capacity,
    violation,
)
from vwlog.rules.effects import is_trusted
from vwlog.rules.flow import Expect, expect, has_raze

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState

Violations = tuple["Violation", ...]

ACCEPTS: dict[str, tuple[type[BaseEvent], ...]] = {
    "setup": (MatchStarted,),
    "supply": (SupplyChosen,),
    "deploy": (PropertyPlaced, DeploymentFinished),
    "stray": (PropertyPlaced,),
    "registration": (CardSummoned, SkillRegistered),
    "attackers": (AttackersEnteredBattle,),
    "declare": (AttackDeclared,),
    "blockers": (BlockersEnteredBattle,),
    "blocks": (BlocksAssigned,),
    "damage": (FollowerDamageAssigned,),
    "discard": (HandLimitDiscarded,),
    "priority": (PriorityPassed, CostPaid),
}
"""Which decision events answer which kind of awaited decision."""

WHAT: dict[str, str] = {
    "setup": "start the match",
    "supply": "choose a supply package",
    "deploy": "place Property or finish deploying",
    "stray": "deploy Stray Property into the new Territory",
    "registration": "register what was just paid for",
    "attackers": "choose attacking Followers",
    "declare": "declare the attack",
    "blockers": "choose blocking Followers",
    "blocks": "assign blocks",
    "damage": "distribute Follower damage",
    "discard": "discard down to the hand limit",
    "priority": "pass or register (holds priority)",
}

_ALWAYS = (Conceded, DeckRevealed, JudgeRulingIssued)


def check(ruleset: Ruleset, state: MatchState, event: AnyEvent) -> Violations:
    """The rules ``event`` breaks if it happens now; empty when it is legal."""
    return check_against(ruleset, state, expect(ruleset, state), event)


def check_against(ruleset: Ruleset, state: MatchState, exp: Expect, event: AnyEvent) -> Violations:
    """Like `check`, with the expectation already computed (the replay loop computes it once)."""
    if not state.started:
        if isinstance(event, MatchStarted):
            return _match_started(ruleset, event)
        return (
            violation(
                "R-SET-1",
                f"the first event must be match_started, not {_t(event)}; without it no event "
                "can be judged",
            ),
        )
    if isinstance(event, MatchStarted):
        return (violation("R-SET-1", "the match has already started"),)
    if state.winner is not None and not isinstance(event, (DeckRevealed, JudgeRulingIssued)):
        return (
            violation(
                "R-VIC-4",
                f"the match is already won by {state.winner} ({state.victory}); "
                f"nothing may follow but reveals and rulings, got {_t(event)}",
            ),
        )
    if isinstance(event, _ALWAYS):
        return _always(state, event)
    if isinstance(event, MatchForked):
        if not exp.is_priority:
            return (violation("R-REG-5", "a fork may start only where a player holds priority"),)
        return ()
    if exp.consequences:
        return _consequence(ruleset, state, exp, event)
    if not event.DECISION:
        return _extra(state, exp, event)
    return _decision(ruleset, state, exp, event)


# -- consequences ----------------------------------------------------------------------------


def summary(event: BaseEvent) -> str:
    """A compact text of an event for expected/actual fields."""
    data = event.model_dump(mode="json", exclude={"type"}, exclude_defaults=True)
    inner = " ".join(f"{k}={v}" for k, v in data.items())
    return f"{_t(event)}({inner})" if inner else _t(event)


def _t(event: BaseEvent) -> str:
    return event_type(event)


def _consequence(ruleset: Ruleset, state: MatchState, exp: Expect, event: AnyEvent) -> Violations:
    if event in exp.consequences:
        return ()
    first = exp.consequences[0]
    if isinstance(event, ObjectResulted) and isinstance(first, ObjectResulted):
        obj = next((o for o in state.register if o.id == first.object_id), None)
        if event.object_id == first.object_id and obj is not None and is_trusted(state, obj):
            return _trusted_effects(state, event.effects)
        if event.object_id != first.object_id:
            return (
                violation(
                    "R-REG-8",
                    f"object {event.object_id!r} resulted, but the top of the register is "
                    f"{first.object_id!r} (last in, first out)",
                    expected=summary(first),
                    actual=summary(event),
                ),
            )
        rule = "R-CMB-25" if obj is not None and obj.kind.startswith("COMBAT") else "R-REG-9"
        return (
            violation(
                rule,
                f"object {event.object_id!r} resulted with effects other than the rules derive",
                expected=summary(first),
                actual=summary(event),
            ),
        )
    if isinstance(event, SkillTriggered) and any(
        t.player == event.player and t.card == event.card and t.skill == event.skill
        for t in state.triggers
    ):
        return (
            violation(
                "R-REG-12",
                f"{event.player}'s trigger goes on the register after "
                f"{getattr(first, 'player', '?')}'s (active player first, then turn order)",
                flag="triggers_active_first",
                expected=summary(first),
                actual=summary(event),
            ),
        )
    if isinstance(event, GoldProduced) and isinstance(first, GoldProduced):
        if event.player != first.player:
            return (
                violation(
                    "R-GOLD-1",
                    "only the active player produces gold",
                    expected=summary(first),
                    actual=summary(event),
                ),
            )
    if type(event) is type(first) or any(type(event) is type(c) for c in exp.consequences):
        return (
            violation(
                exp.rule,
                f"{_t(event)} differs from what the rules demand",
                expected=summary(first),
                actual=summary(event),
            ),
        )
    return (
        violation(
            exp.rule,
            f"missing {_t(first)}: the rules demand it before {_t(event)}",
            expected=summary(first),
            actual=summary(event),
        ),
    )


_CONSEQUENCE_RULE: dict[str, str] = {
    "opening_hand_drawn": "R-SET-4",
    "turn_started": "R-END-5",
    "phase_started": "R-GEN-10",
    "step_started": "R-GEN-10",
    "turn_ended": "R-END-6",
    "gold_produced": "R-PRO-1",
    "supply_taken": "R-SUP-2",
    "unslid": "R-UNS-1",
    "skill_triggered": "R-REG-4",
    "object_resulted": "R-REG-8",
    "combat_damage_registered": "R-CMB-21",
    "followers_destroyed": "R-CMB-26",
    "territories_destroyed": "R-CMB-30",
    "victory_point_gained": "R-VP-1",
    "became_return_home": "R-CMB-34",
    "became_stray": "R-CMB-35",
    "turn_cleaned_up": "R-END-4",
    "match_won": "R-VIC-4",
}


WINDOW_CLOSE_RULES: dict[str, str] = {
    "MAIN1": "R-MAIN-2",
    "MAIN2": "R-MAIN-9",
    "DEPLOY": "R-DEP-2",
    "END_WINDOW": "R-END-2",
    "C7": "R-CMB-27",
    "C9": "R-CMB-32",
    "C10": "R-CMB-36",
}
"""The rule that ends each window only when all players pass with an empty register."""

_VICTORY_RULES = {"MILITARY": "R-VIC-1", "POLITICAL": "R-HON-1", "ABSOLUTE": "R-VIC-3"}


def window_rule(state: MatchState) -> str:
    """The rule closing the current priority window (R-REG-7 and its per-step statements)."""
    if state.passes > 0:
        return "R-REG-7"
    where = str(state.step) if state.step else str(state.phase)
    return WINDOW_CLOSE_RULES.get(where, "R-CMB-0" if state.phase == Phase.COMBAT else "R-REG-7")


def _extra(state: MatchState, exp: Expect, event: AnyEvent) -> Violations:
    """A consequence the rules do not demand now."""
    tag = _t(event)
    rule = _CONSEQUENCE_RULE.get(tag, "R-GEN-10")
    if tag in ("phase_started", "step_started", "turn_ended", "turn_started"):
        if exp.kind == "priority":
            return (
                violation(
                    window_rule(state),
                    f"{tag} before all players passed in succession with an empty register",
                    actual=summary(event),
                ),
            )
        if exp.kind is not None and exp.player is not None:
            # leaving a step while a decision is owed: cite the rule that demands the decision
            return (
                violation(
                    exp.rule,
                    f"{tag} while {exp.player} must still {WHAT.get(exp.kind, exp.kind)}",
                    actual=summary(event),
                ),
            )
    if isinstance(event, ObjectResulted):
        return (
            violation(
                rule,
                "an object results only when all players passed in succession",
                actual=summary(event),
            ),
        )
    if isinstance(event, MatchWon):
        rule = _VICTORY_RULES.get(str(event.victory), "R-VIC-4")
        return (
            violation(
                rule,
                f"{event.winner} does not meet the {event.victory} condition",
                actual=summary(event),
            ),
        )
    if isinstance(event, VictoryPointGained):
        return (
            violation(
                "R-VP-2",
                f"{event.opponent} was not left without Territories by {event.player}",
                actual=summary(event),
            ),
        )
    if isinstance(event, SkillTriggered) and state.phase == Phase.MAIN2:
        skill = state.defn(event.card).skill(event.skill) if event.card in state.instances else None
        if skill is not None and skill.trigger == TriggerWhen.FIRST_MAIN_START:
            return (
                violation(
                    "R-MAIN-9",
                    "first-Main-Phase triggers do not fire in Main Phase II",
                    actual=summary(event),
                ),
            )
    who = f"; {exp.player} must {WHAT.get(exp.kind or '', exp.kind)}" if exp.player else ""
    return (
        violation(rule, f"{tag} is not demanded by the rules here{who}", actual=summary(event)),
    )


def _trusted_effects(state: MatchState, effects: tuple[Effect, ...]) -> Violations:
    """Structural checks of trusted effects: the cards and players they name exist and the
    zones are possible (DESIGN §2: a text-only skill is trusted, checked structurally)."""
    out: list[Violation] = []
    for e in effects:
        if isinstance(e, (GoldChanged, HonorChanged, CardsDrawn)) and not state.has_player(
            e.player
        ):
            out.append(violation("R-GEN-7", f"effect names unknown player {e.player!r}"))
        elif isinstance(e, CardsDrawn):
            deck = state.player(e.player).deck
            if tuple(e.cards) != deck[: len(e.cards)]:
                out.append(
                    violation("R-ZONE-2", f"{e.player} did not draw the top of their Fate Deck")
                )
        elif isinstance(e, (StatChanged, StatusChanged, CardMoved)):
            if e.card not in state.permanents:
                out.append(violation("R-ZONE-5", f"effect names {e.card!r}, which is not in play"))
            elif isinstance(e, CardMoved) and e.to_zone in (Zone.PLAY, Zone.REGISTER):
                out.append(
                    violation("R-ZONE-5", f"card moved to {e.to_zone}, not a zone to move to")
                )
        elif isinstance(e, DamageDealt) and e.recipient not in state.permanents:
            out.append(
                violation("R-ZONE-5", f"damage dealt to {e.recipient!r}, which is not in play")
            )
    return tuple(out)


def _match_started(ruleset: Ruleset, event: MatchStarted) -> Violations:
    out: list[Violation] = []
    ids = [s.player for s in event.seats]
    if len(set(ids)) != len(ids):
        out.append(violation("R-GEN-7", "two seats have the same player id"))
    if event.first_player not in ids:
        out.append(violation("R-SET-1", f"first player {event.first_player!r} has no seat"))
    defs = {c.id for c in event.cards}
    seen: set[str] = set()
    for s in event.seats:
        for inst in (*s.deck, *s.subdeck):
            if inst.id in seen:
                out.append(violation("R-SET-4", f"card instance {inst.id!r} appears twice"))
            seen.add(inst.id)
            if inst.card not in defs:
                out.append(violation("R-SET-4", f"card {inst.card!r} is not in the card pool"))
    rs = ruleset
    for s in event.seats:
        if rs.min_deck_size is not None and len(s.deck) < rs.min_deck_size:
            out.append(
                violation(
                    "R-SET-4",
                    f"{s.player}'s Fate Deck has {len(s.deck)} cards, under {rs.min_deck_size}",
                    flag="min_deck_size",
                )
            )
        if rs.max_copies is not None:
            counts = Counter(c.card for c in s.deck)
            for card, n in counts.items():
                if n > rs.max_copies:
                    out.append(
                        violation(
                            "R-SET-4",
                            f"{s.player}'s deck has {n} copies of {card!r}, over {rs.max_copies}",
                            flag="max_copies",
                        )
                    )
    return tuple(out)


def _always(state: MatchState, event: Conceded | DeckRevealed | JudgeRulingIssued) -> Violations:
    if isinstance(event, (Conceded, DeckRevealed)) and not state.has_player(event.player):
        return (violation("R-GEN-7", f"unknown player {event.player!r}"),)
    if isinstance(event, Conceded) and state.player(event.player).out:
        return (violation("R-GEN-7", f"{event.player} is no longer in the match"),)
    if isinstance(event, JudgeRulingIssued):
        return _ruling(state, event)
    return ()


def _ruling(state: MatchState, event: JudgeRulingIssued) -> Violations:
    """A ruling carries what its kind needs, and a partial fix's corrections name real cards
    and players (checked structurally, like trusted effects)."""
    kind, corrections = event.kind, event.corrections or ()
    if corrections and kind != RulingKind.PARTIAL_FIX:
        return (
            violation(
                "R-GEN-8",
                f"a {kind.lower().replace('_', ' ')} ruling carries corrections; only a partial "
                "fix does",
            ),
        )
    if kind == RulingKind.PARTIAL_FIX and not corrections:
        return (violation("R-GEN-8", "a partial fix names no correction"),)
    if kind == RulingKind.PARTIAL_FIX:
        return _trusted_effects(state, corrections)
    return ()


# -- decisions -------------------------------------------------------------------------------


def _decision(ruleset: Ruleset, state: MatchState, exp: Expect, event: AnyEvent) -> Violations:
    kind = exp.kind
    player = getattr(event, "player", None)
    if kind is None:
        return (violation("R-VIC-4", f"{_t(event)}: nothing may happen now"),)
    if not isinstance(event, ACCEPTS[kind]):
        return (_out_of_turn(ruleset, state, exp, event),)
    if player != exp.player:
        rule = exp.rule
        if kind == "priority":
            rule = _priority_rule(state)
        elif kind == "deploy" and state.phase == Phase.PREP:
            rule = "R-PREP-1"
        return (
            violation(
                rule,
                f"{player} may not act now: {exp.player} must {WHAT[kind]}",
                expected=exp.player,
                actual=str(player),
            ),
        )
    match event:
        case PriorityPassed():
            return ()
        case CostPaid():
            return _cost(ruleset, state, event)
        case SupplyChosen():
            return _supply(ruleset, state, event)
        case PropertyPlaced():
            return _placement(ruleset, state, exp, event)
        case DeploymentFinished():
            return _deployment_finished(ruleset, state, event)
        case CardSummoned():
            return _summon(ruleset, state, event)
        case SkillRegistered():
            return _register_skill(state, event)
        case AttackersEnteredBattle():
            return _attackers(state, event)
        case AttackDeclared():
            return _declare(ruleset, state, event)
        case BlockersEnteredBattle():
            return _blockers(ruleset, state, event)
        case BlocksAssigned():
            return _blocks(ruleset, state, event)
        case FollowerDamageAssigned():
            return _damage(ruleset, state, event)
        case HandLimitDiscarded():
            return _discard(ruleset, state, event)
    return ()


def _priority_rule(state: MatchState) -> str:
    """Who holds priority: the active player first (R-MAIN-5 in a Main Phase, R-CMB-0 in a
    combat step, R-REG-5 after triggers and results), then in turn order (R-REG-6)."""
    if state.passes > 0:
        return "R-REG-6"
    if state.phase in (Phase.MAIN1, Phase.MAIN2) and not state.register:
        return "R-MAIN-5"
    if state.phase == Phase.COMBAT and not state.register:
        return "R-CMB-0"
    return "R-REG-5"


def _out_of_turn(ruleset: Ruleset, state: MatchState, exp: Expect, event: AnyEvent) -> Violation:
    """A decision that does not answer what is awaited: cite the rule that forbids it here."""
    tag = _t(event)
    kind = exp.kind or ""
    owed = f"{exp.player} must {WHAT.get(kind, kind)}"
    if isinstance(event, (CostPaid, CardSummoned, SkillRegistered)) and state.phase == Phase.PREP:
        return violation("R-PREP-2", f"{tag}: no skill or summon in the Preparation Phase")
    if isinstance(event, (CardSummoned, SkillRegistered)):
        return violation("R-REG-3", f"{tag} without its costs paid first ({owed})")
    if isinstance(event, PropertyPlaced):
        if state.phase in (Phase.MAIN1, Phase.MAIN2):
            return violation(
                "R-MAIN-6",
                "Property may not be deployed in a Main Phase except Stray into a new Territory",
            )
        return violation(
            "R-DEP-1",
            f"Property may be moved only in the Unslide step and the Deploy Phase ({owed})",
        )
    if isinstance(event, AttackDeclared) and state.step == Step.C3:
        # no attacker here may attack: say why, by the rule the declaration breaks
        found = _declare(ruleset, state, event)
        if found:
            return found[0]
    if isinstance(event, AttackersEnteredBattle) and state.step not in (None, Step.C1, Step.C2):
        return violation("R-CMB-7", "attackers may enter battle only up to step 2")
    if isinstance(event, BlockersEnteredBattle) and state.step not in (
        None,
        Step.C1,
        Step.C2,
        Step.C3,
        Step.C4,
    ):
        return violation("R-CMB-15", "blockers may enter battle only up to step 4")
    if isinstance(event, SupplyChosen):
        return violation("R-SUP-1", f"a supply package is chosen once, in the Supply step ({owed})")
    if isinstance(event, HandLimitDiscarded):
        return violation("R-END-3", f"no hand-limit discard is due now ({owed})")
    if isinstance(event, PriorityPassed) and state.phase == Phase.PREP:
        return violation("R-REG-10", "there is no priority in the Preparation Phase")
    if isinstance(event, PriorityPassed) and exp.kind != "priority":
        return violation(exp.rule, f"{tag} while {owed}: no priority window is open")
    return violation(exp.rule, f"{tag} is not allowed now: {owed}")


def is_first_supply(ruleset: Ruleset, state: MatchState, player: str) -> bool:
    """Whether this Supply step is reduced: the match's first turn, and by the ruleset also the
    other players' first turns (R-SUP-3, OQ-11)."""
    if state.turn == 1:
        return True
    return ruleset.second_player_first_supply_reduced and state.turn <= len(state.players)


def _deployment_finished(
    ruleset: Ruleset, state: MatchState, event: DeploymentFinished
) -> Violations:
    """In the Unslide step, Return Home and Stray cards are put into Territories with remaining
    capacity before deploying ends; only those that cannot be placed stay (R-UNS-2, R-UNS-4)."""
    if state.phase != Phase.PREP:
        return ()
    rooms = {t.id: room(ruleset, state, t.id) for t in state.territories(event.player)}
    for c in state.permanents.values():
        if c.controller != event.player or c.where not in ("RETURN_HOME", "STRAY"):
            continue
        if not uses_capacity(ruleset, state, c.id) or any(n > 0 for n in rooms.values()):
            return (
                violation(
                    "R-UNS-2",
                    f"{card_name(state, c.id)} ({c.where.lower().replace('_', ' ')}) must be put "
                    "into a Territory with remaining capacity before deploying ends",
                ),
            )
    return ()


def _supply(ruleset: Ruleset, state: MatchState, event: SupplyChosen) -> Violations:
    first = is_first_supply(ruleset, state, event.player)
    if first and not event.option.is_first_turn:
        return (
            violation(
                "R-SUP-3",
                f"on the match's first turn the supply is 1 gold or 1 card, not {event.option}",
                flag="second_player_first_supply_reduced" if state.turn > 1 else None,
            ),
        )
    if not first and event.option.is_first_turn and state.turn <= len(state.players):
        return (
            violation(
                "R-SET-2",
                "only the player taking the match's first turn gets a reduced "
                f"Supply; {event.player} takes a full package",
            ),
        )
    if not first and event.option.is_first_turn:
        return (
            violation(
                "R-SUP-1",
                f"{event.option} is a first-turn package; take 2 cards, 2 gold or 1 of each",
            ),
        )
    return ()


def _placement(
    ruleset: Ruleset, state: MatchState, exp: Expect, event: PropertyPlaced
) -> Violations:
    card = state.permanents.get(event.card)
    terr = state.permanents.get(event.territory)
    if card is None or card.controller != event.player or card.where == "TERRITORY":
        return (
            violation(
                "R-CARD-9",
                f"{card_name(state, event.card)} is not Property of {event.player} in play",
            ),
        )
    if terr is None or terr.where != "TERRITORY" or terr.controller != event.player:
        return (
            violation(
                "R-DEP-1",
                f"{card_name(state, event.territory)} is not a Territory of {event.player}",
            ),
        )
    if exp.kind == "stray":
        if card.where != "STRAY":
            return (
                violation(
                    "R-MAIN-6",
                    "only Stray Property may be deployed into the new "
                    "Territory, and it must be first",
                ),
            )
        if event.territory != state.stray_territory:
            return (
                violation(
                    "R-MAIN-6", "Stray Property must go into the newly arrived Territory only"
                ),
            )
        if event.reason != PlacementReason.NEW_TERRITORY_STRAY:
            return (violation("R-MAIN-6", "the placement reason must be NEW_TERRITORY_STRAY"),)
    elif state.phase == Phase.PREP:
        if event.reason != PlacementReason.UNSLIDE_STEP:
            return (
                violation("R-UNS-3", "placements in the Unslide step have reason UNSLIDE_STEP"),
            )
        if card.where == "GUARD" and card.territory == event.territory:
            return (violation("R-UNS-3", f"{card_name(state, card.id)} already guards there"),)
    else:
        if event.reason != PlacementReason.DEPLOY_PHASE:
            return (
                violation("R-DEP-1", "placements in the Deploy Phase have reason DEPLOY_PHASE"),
            )
        if card.where != "GUARD":
            return (
                violation(
                    "R-DEP-1",
                    "the Deploy Phase moves Property between Territories; "
                    f"{card_name(state, card.id)} guards none",
                ),
            )
        if card.territory == event.territory:
            return (violation("R-DEP-1", f"{card_name(state, card.id)} already guards there"),)
    if uses_capacity(ruleset, state, card.id) and room(ruleset, state, event.territory) <= 0:
        rule = "R-DEP-2" if state.phase == Phase.DEPLOY else "R-UNS-2"
        return (
            violation(
                rule,
                f"{card_name(state, event.territory)} has no remaining capacity",
                flag="relics_use_capacity" if not is_follower(state, card.id) else None,
            ),
        )
    return ()


def _cost(ruleset: Ruleset, state: MatchState, event: CostPaid) -> Violations:
    if event.card not in state.instances:
        return (violation("R-ZONE-5", f"unknown card {event.card!r}"),)
    d = state.defn(event.card)
    p = state.player(event.player)
    out: list[Violation] = []
    if event.gold > p.gold:
        out.append(violation("R-GOLD-3", f"{event.player} pays {event.gold} gold but has {p.gold}"))
    if event.skill is None:
        # a summon from hand (R-CARD-11); the subdeck only where the ruleset allows (OQ-4)
        in_sub = event.card in p.subdeck and ruleset.summon_from_subdeck
        if event.card not in p.hand and not in_sub:
            where = "the subdeck" if event.card in p.subdeck else "their hand"
            flag = "summon_from_subdeck" if event.card in p.subdeck else None
            return (
                violation(
                    "R-ZONE-3" if flag else "R-ZONE-1",
                    f"{card_name(state, event.card)} is not in {where}",
                    flag=flag,
                ),
            )
        if event.gold != d.cost:
            out.append(
                violation(
                    "R-CARD-11",
                    f"{d.name} costs {d.cost} gold, {event.gold} paid",
                    expected=str(d.cost),
                    actual=str(event.gold),
                )
            )
        if event.slid:
            out.append(violation("R-REG-3", "a summon has no slide cost"))
        if p.honor < d.honor_req:
            out.append(
                violation(
                    "R-CARD-10",
                    f"{d.name} needs {d.honor_req} honor, {event.player} has {p.honor}",
                )
            )
        out.extend(_summon_timing(ruleset, state, event.player, d.type, d.keywords))
        if d.type.is_property and not any(
            not uses_capacity(ruleset, state, event.card) or room(ruleset, state, t.id) > 0
            for t in state.territories(event.player)
        ):
            out.append(
                violation(
                    "R-CARD-2",
                    f"{event.player} has no Territory with remaining capacity for {d.name}",
                )
            )
        return tuple(out)
    # an active skill
    perm = state.permanents.get(event.card)
    if perm is None or perm.controller != event.player:
        return (
            violation(
                "R-SKL-2", f"{card_name(state, event.card)} is not in play under {event.player}"
            ),
        )
    skill = d.skill(event.skill)
    if skill is None:
        return (violation("R-SKL-2", f"{d.name} has no skill {event.skill!r}"),)
    if skill.kind == SkillKind.STATIC:
        return (violation("R-SKL-1", f"{d.name}'s static skill never uses the register"),)
    if skill.kind == SkillKind.AURA:
        return (violation("R-SKL-4", f"{d.name}'s aura never uses the register"),)
    if skill.kind == SkillKind.TRIGGER:
        return (
            violation(
                "R-SKL-3",
                f"{d.name}'s triggered skill is used automatically, not registered by a player",
            ),
        )
    if state.phase == Phase.PREP:
        out.append(violation("R-PREP-2", "no skill may be used in the Preparation Phase"))
    if event.gold != skill.cost_gold:
        out.append(
            violation(
                "R-REG-3",
                f"the skill costs {skill.cost_gold} gold, {event.gold} paid",
                expected=str(skill.cost_gold),
                actual=str(event.gold),
            )
        )
    wanted = (event.card,) if skill.cost_slide else ()
    if tuple(event.slid) != wanted:
        out.append(
            violation(
                "R-SKL-2",
                "the slide cost is sliding the card itself"
                if skill.cost_slide
                else "this skill has no slide cost",
                expected=str(wanted),
                actual=str(tuple(event.slid)),
            )
        )
    elif skill.cost_slide and perm.slid:
        out.append(violation("R-REG-3", f"{d.name} is already slid and cannot pay a slide cost"))
    if skill.target is not None and not valid_targets(state, event.player, skill.target):
        out.append(violation("R-GEN-4", f"{d.name}'s skill has no valid target ({skill.target})"))
    if not condition_holds(state, event.player, skill.condition):
        out.append(violation("R-SKL-5", f"the condition of {d.name}'s skill does not hold"))
    if skill.restriction != Restriction.NONE:
        key = event.card if ruleset.restriction_key == "CARD" else d.name
        used = state.records.get((event.player, key, skill.id, str(skill.restriction)))
        if used is not None:
            user, serial = used
            if user != event.card:
                rule, why = "R-SKL-10", f"a {d.name} of {event.player} already used it"
            elif perm.entered_at > serial:
                rule, why = "R-SKL-8", "the record survived its return to hand or deck"
            elif skill.restriction == Restriction.ONCE_PER_MATCH:
                rule, why = "R-SKL-7", "the record stays while it is in play"
            else:
                rule, why = "R-SKL-6", "its allowance is used up"
            out.append(
                violation(
                    rule,
                    f"{d.name}'s skill is restricted {skill.restriction}: {why}",
                    flag="restriction_key" if rule == "R-SKL-10" else None,
                )
            )
    if ruleset.requirements_continuous and p.honor < d.honor_req:
        out.append(
            violation(
                "R-GEN-6",
                f"{d.name} needs {d.honor_req} honor, re-checked on use",
                flag="requirements_continuous",
            )
        )
    return tuple(out)


def _summon_timing(
    ruleset: Ruleset,
    state: MatchState,
    player: str,
    card_type: CardType,
    keywords: tuple[Keyword, ...],
) -> list[Violation]:
    """Territories and Property: the active player's own Main Phase with an empty register
    (R-MAIN-4, R-MAIN-8, OQ-6); Actions and Lair Territories: whenever holding priority outside
    the Preparation Phase (R-CARD-8, R-CARD-2)."""
    if state.phase == Phase.PREP:
        return [violation("R-PREP-2", "nothing may be summoned in the Preparation Phase")]
    if card_type == CardType.ACTION or (
        card_type == CardType.TERRITORY and Keyword.LAIR in keywords
    ):
        return []
    out = []
    main = state.phase in (Phase.MAIN1, Phase.MAIN2)
    if not main or state.active != player:
        rule = "R-MAIN-8" if card_type == CardType.TERRITORY else "R-MAIN-4"
        out.append(
            violation(
                rule, f"a {card_type.lower()} is summoned only in its controller's own Main Phase"
            )
        )
    elif state.register and ruleset.summon_needs_empty_register:
        out.append(
            violation(
                "R-MAIN-4",
                "a Territory or Property is summoned only with an empty register",
                flag="summon_needs_empty_register",
            )
        )
    return out


def _object_id(state: MatchState, object_id: str) -> Violations:
    wanted = f"o{state.objects + 1}"
    if object_id != wanted:
        return (
            violation(
                "R-REG-1",
                f"register objects are numbered in order: expected {wanted!r}",
                expected=wanted,
                actual=object_id,
            ),
        )
    return ()


def _paid_for(state: MatchState, player: str, card: str, skill: str | None) -> Violations:
    paid = state.pending_cost
    if paid is None or paid.player != player or paid.card != card or paid.skill != skill:
        what = f"{card}/{skill}" if skill else card
        return (violation("R-REG-3", f"costs for {what!r} were not paid just before"),)
    return ()


def _summon(ruleset: Ruleset, state: MatchState, event: CardSummoned) -> Violations:
    out = list(_paid_for(state, event.player, event.card, None))
    out.extend(_object_id(state, event.object_id))
    if out:
        return tuple(out)
    d = state.defn(event.card)
    if d.type.is_property:
        terr = state.permanents.get(event.territory or "")
        if terr is None or terr.where != "TERRITORY" or terr.controller != event.player:
            out.append(
                violation(
                    "R-CARD-9", f"Property is summoned into one of {event.player}'s Territories"
                )
            )
        elif uses_capacity(ruleset, state, event.card) and room(ruleset, state, terr.id) <= 0:
            out.append(
                violation("R-CARD-2", f"{card_name(state, terr.id)} has no remaining capacity")
            )
    elif event.territory is not None:
        rule = "R-CARD-8" if d.type == CardType.ACTION else "R-CARD-9"
        out.append(violation(rule, f"a {d.type.lower()} does not go into a Territory"))
    return tuple(out)


def _register_skill(state: MatchState, event: SkillRegistered) -> Violations:
    out = list(_paid_for(state, event.player, event.card, event.skill))
    out.extend(_object_id(state, event.object_id))
    if out:
        return tuple(out)
    skill = state.defn(event.card).skill(event.skill)
    wanted = skill.target if skill is not None else None
    if wanted is None:
        if event.target is not None:
            out.append(violation("R-GEN-4", "this skill takes no target"))
        return tuple(out)
    target = state.permanents.get(event.target or "")
    if target is None:
        return (violation("R-GEN-4", f"the skill needs a target in play ({wanted})"),)
    if target.id not in valid_targets(state, event.player, wanted):
        out.append(
            violation("R-GEN-4", f"{card_name(state, target.id)} is not a valid target ({wanted})")
        )
    return tuple(out)


def valid_targets(state: MatchState, player: str, wanted: Target) -> list[str]:
    """Cards in play that fit a skill's target kind for ``player`` (R-GEN-4: the card says)."""
    opponents = set(state.opponents(player))
    out = []
    for perm in state.permanents.values():
        own = perm.controller == player
        is_territory = perm.where == "TERRITORY"
        fits = {
            Target.OWN_FOLLOWER: own and not is_territory and is_follower(state, perm.id),
            Target.OPPOSING_FOLLOWER: perm.controller in opponents
            and not is_territory
            and is_follower(state, perm.id),
            Target.OWN_TERRITORY: own and is_territory,
            Target.OPPOSING_TERRITORY: perm.controller in opponents and is_territory,
        }.get(wanted, False)
        if fits:
            out.append(perm.id)
    return out


def _attackers(state: MatchState, event: AttackersEnteredBattle) -> Violations:
    out: list[Violation] = []
    if len(set(event.followers)) != len(event.followers):
        out.append(violation("R-CMB-2", "a Follower enters battle once"))
    allowed = set(attack_candidates(state, event.player))
    for f in event.followers:
        if f in allowed:
            continue
        perm = state.permanents.get(f)
        if perm is None or perm.controller != event.player or not is_follower(state, f):
            out.append(
                violation(
                    "R-CMB-2", f"{card_name(state, f)} is not a Follower of {event.player} in play"
                )
            )
        elif perm.slid:
            out.append(
                violation("R-CMB-4", f"{card_name(state, f)} is slid and may not enter battle")
            )
        else:
            out.append(
                violation(
                    "R-CMB-5", f"{card_name(state, f)} guards no Territory ({perm.where.lower()})"
                )
            )
    return tuple(out)


def _declare(ruleset: Ruleset, state: MatchState, event: AttackDeclared) -> Violations:
    out: list[Violation] = []
    in_battle = [a for a in state.combat.attackers if a in state.permanents]
    declared = [a.follower for a in event.attacks]
    if len(set(declared)) != len(declared):
        out.append(violation("R-CMB-8", "each attacker is declared once"))
    for a in event.attacks:
        if a.follower not in in_battle:
            out.append(
                violation(
                    "R-CMB-8", f"{card_name(state, a.follower)} did not enter battle as an attacker"
                )
            )
            continue
        if not can_attack(state, a.follower):
            out.append(
                violation(
                    "R-CMB-3", f"{card_name(state, a.follower)} is Fatigued and may not attack"
                )
            )
        terr = state.permanents.get(a.target)
        if (
            terr is None
            or terr.where != "TERRITORY"
            or terr.controller not in state.opponents(event.player)
        ):
            out.append(
                violation(
                    "R-CMB-10", f"{card_name(state, a.target)} is not an opponent's Territory"
                )
            )
        elif (
            ruleset.naval_aerial_need_skill
            and needs_naval_aerial(state, a.target)
            and not state.has_keyword(a.follower, Keyword.NAVAL_AERIAL_ATTACK)
        ):
            out.append(
                violation(
                    "R-CMB-10",
                    f"{card_name(state, a.follower)} cannot attack a "
                    f"{state.defn(a.target).terrain} Territory",
                    flag="naval_aerial_need_skill",
                )
            )
    missing = [a for a in in_battle if attackable(ruleset, state, a) and a not in declared]
    if missing:
        out.append(
            violation(
                "R-CMB-8",
                "every attacking Follower able to attack is slid and "
                f"declared; missing {', '.join(missing)}",
            )
        )
    if ruleset.attack_target_mode == "SINGLE" and len({a.target for a in event.attacks}) > 1:
        out.append(
            violation(
                "R-CMB-8", "one Territory is attacked per Combat Phase", flag="attack_target_mode"
            )
        )
    return tuple(out)


def _blockers(ruleset: Ruleset, state: MatchState, event: BlockersEnteredBattle) -> Violations:
    out: list[Violation] = []
    allowed = set(block_candidates(ruleset, state, event.player))
    if len(set(event.followers)) != len(event.followers):
        out.append(violation("R-CMB-11", "a Follower enters battle once"))
    for f in event.followers:
        if f in allowed:
            continue
        perm = state.permanents.get(f)
        if perm is None or perm.controller != event.player or not is_follower(state, f):
            out.append(
                violation(
                    "R-CMB-11", f"{card_name(state, f)} is not a Follower of {event.player} in play"
                )
            )
        elif perm.slid:
            out.append(
                violation("R-CMB-12", f"{card_name(state, f)} is slid and may not enter battle")
            )
        elif perm.where != "GUARD":
            out.append(violation("R-CMB-5", f"{card_name(state, f)} guards no Territory"))
        else:
            out.append(
                violation(
                    "R-CMB-13",
                    f"{card_name(state, f)} guards no attacked Territory and has no Cavalry",
                    flag="cavalry_only_blocks_elsewhere",
                )
            )
    return tuple(out)


def _blocks(ruleset: Ruleset, state: MatchState, event: BlocksAssigned) -> Violations:
    out: list[Violation] = []
    attacks = state.combat.attacks
    seen: set[str] = set()
    per_attacker: Counter[str] = Counter()
    for b in event.blocks:
        perm = state.permanents.get(b.blocker)
        if perm is None or perm.controller != event.player:
            out.append(
                violation(
                    "R-CMB-16", f"{card_name(state, b.blocker)} is not {event.player}'s Follower"
                )
            )
            continue
        if b.blocker not in state.combat.blockers:
            out.append(
                violation(
                    "R-ZONE-7",
                    f"{card_name(state, b.blocker)} did not enter battle as a blocker",
                )
            )
            continue
        if b.blocker in seen or b.blocker in state.combat.blocks:
            out.append(
                violation(
                    "R-CMB-16",
                    f"{card_name(state, b.blocker)} blocks one attacker",
                    flag="many_blockers_per_attacker",
                )
            )
            continue
        seen.add(b.blocker)
        target = attacks.get(b.attacker)
        if target is None or b.attacker not in state.permanents:
            out.append(
                violation(
                    "R-CMB-16", f"{card_name(state, b.attacker)} is not an attacking Follower"
                )
            )
            continue
        if state.owners.get(target) != event.player and (
            target not in state.permanents or state.permanents[target].controller != event.player
        ):
            out.append(
                violation(
                    "R-CMB-16", f"{card_name(state, b.attacker)} does not attack {event.player}"
                )
            )
            continue
        if not may_block_at(ruleset, state, perm, target):
            out.append(
                violation(
                    "R-CMB-13",
                    f"{card_name(state, b.blocker)} cannot block at "
                    f"{card_name(state, target)} without Cavalry",
                    flag="cavalry_only_blocks_elsewhere",
                )
            )
        per_attacker[b.attacker] += 1
    if not ruleset.many_blockers_per_attacker:
        for attacker, n in per_attacker.items():
            if n + len(blockers_of(state, attacker)) > 1:
                out.append(
                    violation(
                        "R-CMB-16",
                        f"{card_name(state, attacker)} may be blocked by one Follower only",
                        flag="many_blockers_per_attacker",
                    )
                )
    return tuple(out)


def _damage(ruleset: Ruleset, state: MatchState, event: FollowerDamageAssigned) -> Violations:
    out: list[Violation] = []
    active = event.player == state.active
    by_source: dict[str, list[tuple[str, int]]] = {}
    for a in event.allocations:
        by_source.setdefault(a.source, []).append((a.recipient, a.amount))
    if active:
        sources = {a: blockers_of(state, a) for a in live_attackers(state) if blockers_of(state, a)}
    else:
        sources = {
            b: [a]
            for b, a in state.combat.blocks.items()
            if b in state.permanents
            and a in state.permanents
            and state.permanents[b].controller == event.player
        }
    for src in by_source:
        if src not in sources:
            out.append(
                violation(
                    "R-CMB-19",
                    f"{card_name(state, src)} does not distribute "
                    f"damage for {event.player} in this battle",
                )
            )
    for src, blockers in sources.items():
        allocs = by_source.get(src, [])
        atk = state.stat(src, Stat.ATK)
        total = sum(n for _, n in allocs)
        if total != atk:
            out.append(
                violation(
                    "R-CMB-19",
                    f"{card_name(state, src)} distributes {total} damage; its ATK is {atk}",
                    expected=str(atk),
                    actual=str(total),
                )
            )
        territory = state.combat.attacks.get(src) if active else None
        raze = active and has_raze(state, src)
        for recipient, _amount in allocs:
            if recipient in blockers:
                continue
            if raze and recipient == territory:
                continue
            if not active:
                out.append(
                    violation(
                        "R-CMB-39",
                        f"{card_name(state, src)} may damage only the attacker it blocks",
                    )
                )
            elif recipient == territory:
                out.append(
                    violation(
                        "R-CMB-38",
                        f"{card_name(state, src)} is blocked and has no "
                        "Raze: no damage to the Territory",
                    )
                )
            else:
                out.append(
                    violation(
                        "R-CMB-19",
                        f"{card_name(state, src)} may damage only the Followers blocking it",
                    )
                )
        if raze and ruleset.raze_lethal_first and territory is not None:
            to_territory = sum(n for r, n in allocs if r == territory)
            if to_territory > 0:
                got = Counter[str]()
                for r, n in allocs:
                    got[r] += n
                for b in blockers:
                    need = max(0, state.stat(b, Stat.VIT) - state.permanents[b].damage)
                    if got[b] < need:
                        out.append(
                            violation(
                                "R-CMB-20",
                                f"Raze sends damage to the Territory "
                                f"only after {card_name(state, b)} "
                                f"gets its remaining VIT ({need})",
                                flag="raze_lethal_first",
                            )
                        )
    return tuple(out)


def _discard(ruleset: Ruleset, state: MatchState, event: HandLimitDiscarded) -> Violations:
    hand = state.player(event.player).hand
    need = len(hand) - ruleset.hand_limit
    out: list[Violation] = []
    if len(set(event.cards)) != len(event.cards) or any(c not in hand for c in event.cards):
        out.append(violation("R-END-3", "discarded cards must be distinct cards in hand"))
    if len(event.cards) != need:
        out.append(
            violation(
                "R-END-3",
                f"discard down to {ruleset.hand_limit}: {need} cards, not {len(event.cards)}",
                expected=str(need),
                actual=str(len(event.cards)),
            )
        )
    return tuple(out)
