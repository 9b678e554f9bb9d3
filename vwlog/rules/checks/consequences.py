"""Consequences: an event the rules demand now, or one they do not demand (missing, extra or
different consequences), and the structural check of trusted effects."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from vwlog import events as ev
from vwlog.model.state import HELD_ZONES
from vwlog.model.types import CardType, Expiry, Phase, TriggerWhen, Victory, Zone
from vwlog.rules.checks.base import Violations, event_tag, summary, what
from vwlog.rules.common import violation
from vwlog.rules.effects import chooses, chosen_effects_problem, is_trusted
from vwlog.rules.flow import DecisionKind, Expect

if TYPE_CHECKING:
    from vwlog.model.cards import Ruleset
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState, RegisterObject


def check_consequence(
    ruleset: Ruleset, state: MatchState, exp: Expect, event: ev.AnyEvent
) -> Violations:
    if exp.demands(event):
        return ()
    if type(event) is ev.PriorityPassed and state.phase == Phase.PREP:
        return (no_preparation_priority(),)
    first = exp.consequences[0]
    if type(event) is ev.TurnCleanedUp and type(first) is ev.TurnCleanedUp:
        return cleanup_lists(state, event)
    if isinstance(event, ev.ObjectResulted) and isinstance(first, ev.ObjectResulted):
        return _other_result(ruleset, state, event, first)
    if isinstance(event, ev.SkillTriggered) and any(
        t.player == event.player and t.card == event.card and t.skill == event.skill
        for t in state.triggers
    ):
        return (
            violation(
                "R-REG-12",
                "{player}'s trigger goes on the register after {other}'s (active player first, "
                "then turn order)",
                player=event.player,
                other=ev.acting_player(first) or "?",
                flag="triggers_active_first",
                expected=summary(first),
                actual=summary(event),
            ),
        )
    if isinstance(event, ev.GoldProduced) and isinstance(first, ev.GoldProduced):
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
                "{event_tag} differs from what the rules demand",
                event_tag=event_tag(event),
                flag=_folded_flag(state, first),
                expected=summary(first),
                actual=summary(event),
            ),
        )
    return (
        violation(
            exp.rule,
            "missing {missing}: the rules demand it before {event_tag}",
            missing=event_tag(first),
            event_tag=event_tag(event),
            flag=_folded_flag(state, first),
            expected=summary(first),
            actual=summary(event),
        ),
    )


def _folded_flag(state: MatchState, demanded: ev.AnyEvent) -> str | None:
    """The ruleset flag a demanded consequence rests on where the fold read it before this
    event, so that judging this event again under another reading cannot show it
    (`vwlog.rules.readings`): the opening hand's size (OQ-1), a Victory Point scored outside
    the Combat Phase (OQ-9), what becomes Stray of a destroyed Territory (OQ-21, OQ-32), an
    honor victory whose total holds honor for destroyed Territories (OQ-7)."""
    kind = type(demanded)
    if kind is ev.OpeningHandDrawn:
        return "opening_hand"
    if (
        isinstance(demanded, ev.MatchWon)
        and demanded.victory == Victory.POLITICAL
        and demanded.winner in state.seats
        and state.player(demanded.winner).taken
    ):
        return "honor_per_territory_destroyed"
    if kind is ev.VictoryPointGained and state.phase != Phase.COMBAT:
        return "vp_outside_combat"
    if isinstance(demanded, ev.BecameStray):
        return _stray_flags(state, demanded.cards)
    return None


def _stray_flags(state: MatchState, cards: tuple[str, ...]) -> str | None:
    """The flags that decide whether these cards of a destroyed Territory become Stray: Followers
    by OQ-32, Relics and Runes by OQ-21."""
    kinds = {state.defn(c).type for c in cards if c in state.instances}
    flags = []
    if CardType.FOLLOWER in kinds:
        flags.append("destroyed_guards_become_stray")
    if kinds - {CardType.FOLLOWER}:
        flags.append("relics_become_stray")
    return ", ".join(flags) or None


def _other_result(
    ruleset: Ruleset, state: MatchState, event: ev.ObjectResulted, first: ev.ObjectResulted
) -> Violations:
    """A result where the rules demand ``first``: of another object than the top of the
    register (R-REG-8), or with other effects than the rules derive (R-REG-9, R-CMB-25); a
    trusted skill's effects are taken as logged."""
    obj = next((o for o in state.register if o.id == first.object_id), None)
    if event.object_id == first.object_id and obj is not None and is_trusted(state, obj):
        return trusted_effects(state, event.effects)
    if event.object_id == first.object_id and obj is not None and chooses(state, obj):
        return _chosen(ruleset, state, obj, event, first)
    if event.object_id != first.object_id:
        return (
            violation(
                "R-REG-8",
                "object {object_id} resulted, but the top of the register is {top} (last in, "
                "first out)",
                object_id=repr(event.object_id),
                top=repr(first.object_id),
                expected=summary(first),
                actual=summary(event),
            ),
        )
    rule = "R-CMB-25" if obj is not None and obj.kind.startswith("COMBAT") else "R-REG-9"
    return (
        violation(
            rule,
            "object {object_id} resulted with effects other than the rules derive",
            object_id=repr(event.object_id),
            expected=summary(first),
            actual=summary(event),
        ),
    )


def _chosen(
    ruleset: Ruleset,
    state: MatchState,
    obj: RegisterObject,
    event: ev.ObjectResulted,
    first: ev.ObjectResulted,
) -> Violations:
    """A result of a skill that leaves its controller a choice (`vwlog.rules.effects.
    CHOICE_KINDS`): R-REG-9 unless the effects are one of the results the choice allows."""
    problem = chosen_effects_problem(ruleset, state, obj, event.effects)
    if problem is None:
        return ()
    part, cards = problem
    shown = {
        "object_id": repr(event.object_id),
        "cards": ", ".join(cards) or "-",
        "expected": summary(first),
        "actual": summary(event),
    }
    if part == "return":
        v = violation(
            "R-REG-9",
            "object {object_id} returns no card its skill allows (one of: {cards})",
            **shown,
        )
    elif part == "bottom":
        v = violation(
            "R-REG-9",
            "object {object_id} puts on the bottom a card that is not among the top cards of "
            "the Fate Deck, or one twice (the top: {cards})",
            **shown,
        )
    elif part == "reorder":
        v = violation(
            "R-REG-9",
            "object {object_id} reorders other cards than the top of its controller's Fate "
            "Deck (the top: {cards})",
            **shown,
        )
    elif part == "extra":
        v = violation(
            "R-REG-9", "object {object_id} resulted with more effects than its skill has", **shown
        )
    else:
        v = violation(
            "R-REG-9",
            "object {object_id} resulted with effects other than the rules derive",
            **shown,
        )
    return (v,)


def cleanup_lists(state: MatchState, event: ev.TurnCleanedUp) -> Violations:
    """What a cleanup lists, when it lists it, is what it clears: every card in play with damage,
    every card in play with an until-end-of-turn effect (R-END-4)."""
    out: list[Violation] = []
    damaged = sorted(c.id for c in state.permanents.values() if c.damage)
    if event.damage_removed is not None and sorted(event.damage_removed) != damaged:
        out.append(
            violation(
                "R-END-4",
                "the cleanup removes the damage of exactly the cards in play with damage",
                expected=str(tuple(damaged)),
                actual=str(tuple(sorted(event.damage_removed))),
            )
        )
    ending = sorted(
        {
            m.card
            for m in state.modifiers
            if m.expires == Expiry.END_OF_TURN and m.card in state.permanents
        }
    )
    if event.effects_ended is not None and sorted(set(event.effects_ended)) != ending:
        out.append(
            violation(
                "R-END-4",
                "the cleanup ends the until-end-of-turn effects of exactly these cards",
                expected=str(tuple(ending)),
                actual=str(tuple(sorted(set(event.effects_ended)))),
            )
        )
    return tuple(out)


def no_preparation_priority() -> Violation:
    """A pass in the Preparation Phase, which has no window unless the ruleset gives it one."""
    return violation(
        "R-REG-10", "there is no priority in the Preparation Phase", flag="preparation_window"
    )


_CONSEQUENCE_RULE: Final[dict[str, str]] = {
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


WINDOW_CLOSE_RULES: Final[dict[str, str]] = {
    "MAIN1": "R-MAIN-2",
    "MAIN2": "R-MAIN-9",
    "DEPLOY": "R-DEP-2",
    "END_WINDOW": "R-END-2",
    "C7": "R-CMB-27",
    "C9": "R-CMB-32",
    "C10": "R-CMB-36",
    "UNSLIDE": "R-REG-10",
}
"""The rule that ends each window only when all players pass with an empty register."""


_VICTORY_RULES: Final = {"MILITARY": "R-VIC-1", "POLITICAL": "R-HON-1", "ABSOLUTE": "R-VIC-3"}


def window_rule(state: MatchState) -> str:
    """The rule closing the current priority window (R-REG-7 and its per-step statements)."""
    if state.passes > 0:
        return "R-REG-7"
    where = str(state.step) if state.step else str(state.phase)
    return WINDOW_CLOSE_RULES.get(where, "R-CMB-0" if state.phase == Phase.COMBAT else "R-REG-7")


def _extra_of_the_fold(
    state: MatchState, event: ev.VictoryPointGained | ev.BecameStray, rule: str
) -> Violation | None:
    """A Victory Point or a Stray the rules do not demand, naming the flag the fold read when
    it decided them: a VP outside the Combat Phase (OQ-9), cards sent to the Graveyard with
    their Territory (OQ-21, OQ-32)."""
    if isinstance(event, ev.VictoryPointGained):
        bare = state.has_player(event.opponent) and not state.territory_count(event.opponent)
        return violation(
            "R-VP-2",
            "{opponent} was not left without Territories by {player}",
            opponent=event.opponent,
            player=event.player,
            flag="vp_outside_combat" if bare and state.phase != Phase.COMBAT else None,
            actual=summary(event),
        )
    gone = tuple(
        c for c in event.cards if c in state.owners and c in state.player(state.owners[c]).graveyard
    )
    if not gone:
        return None
    return violation(
        rule,
        "{tag} is not demanded by the rules here",
        tag=event_tag(event),
        flag=_stray_flags(state, gone),
        actual=summary(event),
    )


def check_extra(state: MatchState, exp: Expect, event: ev.AnyEvent) -> Violations:
    """A consequence the rules do not demand now."""
    tag = event_tag(event)
    rule = _CONSEQUENCE_RULE.get(tag, "R-GEN-10")
    if tag in ("phase_started", "step_started", "turn_ended", "turn_started"):
        if exp.kind == DecisionKind.PRIORITY:
            return (
                violation(
                    window_rule(state),
                    "{tag} before all players passed in succession with an empty register",
                    tag=tag,
                    actual=summary(event),
                ),
            )
        if exp.kind is not None and exp.player is not None:
            # leaving a step while a decision is owed: cite the rule that demands the decision
            return (
                violation(
                    exp.rule,
                    "{tag} while {player} must still {what}",
                    tag=tag,
                    player=exp.player,
                    what=what(exp.kind),
                    actual=summary(event),
                ),
            )
    if isinstance(event, ev.ObjectResulted):
        return (
            violation(
                rule,
                "an object results only when all players passed in succession",
                actual=summary(event),
            ),
        )
    if isinstance(event, ev.MatchWon):
        rule = _VICTORY_RULES.get(str(event.victory), "R-VIC-4")
        return (
            violation(
                rule,
                "{winner} does not meet the {victory} condition",
                winner=event.winner,
                victory=event.victory,
                actual=summary(event),
            ),
        )
    if isinstance(event, (ev.VictoryPointGained, ev.BecameStray)):
        folded = _extra_of_the_fold(state, event, rule)
        if folded is not None:
            return (folded,)
    if isinstance(event, ev.SkillTriggered) and state.phase == Phase.MAIN2:
        skill = state.defn(event.card).skill(event.skill) if event.card in state.instances else None
        if skill is not None and skill.trigger == TriggerWhen.FIRST_MAIN_START:
            return (
                violation(
                    "R-MAIN-9",
                    "first-Main-Phase triggers do not fire in Main Phase II",
                    actual=summary(event),
                ),
            )
    if exp.player:
        return (
            violation(
                rule,
                "{tag} is not demanded by the rules here; {player} must {what}",
                tag=tag,
                player=exp.player,
                what=what(exp.kind),
                actual=summary(event),
            ),
        )
    return (
        violation(rule, "{tag} is not demanded by the rules here", tag=tag, actual=summary(event)),
    )


def _reorder(state: MatchState, e: ev.DeckReordered) -> list[Violation]:
    """A reorder puts back the very cards that lay on top of the Fate Deck (R-ZONE-2)."""
    if not state.has_player(e.player):
        return [violation("R-GEN-7", "effect names unknown player {player}", player=repr(e.player))]
    top = state.player(e.player).deck[: len(e.cards)]
    if len(set(e.cards)) != len(e.cards) or sorted(top) != sorted(e.cards):
        return [
            violation(
                "R-ZONE-2",
                "a reorder of {player}'s Fate Deck puts back the top {n} cards, each once",
                player=e.player,
                n=len(e.cards),
                expected=str(tuple(top)),
                actual=str(tuple(e.cards)),
            )
        ]
    return []


def _moved_out_of_play(state: MatchState, e: ev.CardMoved) -> list[Violation]:
    """A move between two zones out of play: the card is in the zone it leaves, of its owner,
    and goes to another zone out of play (the Fate Deck to itself only to its bottom)."""
    owner = state.owners.get(e.card)
    if owner is None or e.from_zone is None or e.card not in state.player(owner).held(e.from_zone):
        rule = "R-ZONE-2" if e.from_zone == Zone.FATE_DECK else "R-ZONE-5"
        return [
            violation(
                rule,
                "effect moves {card} from {zone}, where it is not",
                card=repr(e.card),
                zone=str(e.from_zone),
            )
        ]
    if e.to_zone not in HELD_ZONES or (e.to_zone == e.from_zone and not e.bottom):
        return [
            violation(
                "R-ZONE-5", "card moved to {to_zone}, not a zone to move to", to_zone=str(e.to_zone)
            )
        ]
    return []


def trusted_effects(state: MatchState, effects: tuple[ev.Effect, ...]) -> Violations:
    """Structural checks of trusted effects: the cards and players they name exist and the
    zones are possible (DESIGN §2: a text-only skill is trusted, checked structurally)."""
    out: list[Violation] = []
    for e in effects:
        if isinstance(e, (ev.GoldChanged, ev.HonorChanged, ev.CardsDrawn)) and not state.has_player(
            e.player
        ):
            out.append(
                violation("R-GEN-7", "effect names unknown player {player}", player=repr(e.player))
            )
        elif isinstance(e, ev.CardsDrawn):
            deck = state.player(e.player).deck
            if tuple(e.cards) != deck[: len(e.cards)]:
                out.append(
                    violation(
                        "R-ZONE-2",
                        "{player} did not draw the top of their Fate Deck",
                        player=e.player,
                    )
                )
        elif isinstance(e, ev.DeckReordered):
            out.extend(_reorder(state, e))
        elif isinstance(e, ev.CardMoved) and e.from_zone not in (None, Zone.PLAY):
            out.extend(_moved_out_of_play(state, e))
        elif isinstance(e, (ev.StatChanged, ev.StatusChanged, ev.CardMoved)):
            if e.card not in state.permanents:
                out.append(
                    violation(
                        "R-ZONE-5", "effect names {card}, which is not in play", card=repr(e.card)
                    )
                )
            elif isinstance(e, ev.CardMoved) and e.to_zone in (Zone.PLAY, Zone.REGISTER):
                out.append(
                    violation(
                        "R-ZONE-5",
                        "card moved to {to_zone}, not a zone to move to",
                        to_zone=e.to_zone,
                    )
                )
        elif isinstance(e, ev.DamageDealt) and e.recipient not in state.permanents:
            out.append(
                violation(
                    "R-ZONE-5",
                    "damage dealt to {recipient}, which is not in play",
                    recipient=repr(e.recipient),
                )
            )
    return tuple(out)


__all__ = [
    "WINDOW_CLOSE_RULES",
    "check_consequence",
    "check_extra",
    "cleanup_lists",
    "no_preparation_priority",
    "trusted_effects",
    "window_rule",
]
