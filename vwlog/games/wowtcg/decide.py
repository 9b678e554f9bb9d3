"""Judging a player's decision: passing and adding links in a window (WOW-PRI-*), the main
actions of the non-combat action phase (WOW-ACT-2..4), Inspire (WOW-STA-2) and the hand-limit
discard (WOW-END-3/4)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.ruleset import WowRuleset
from vwlog.games.wowtcg.script import Owed
from vwlog.games.wowtcg.words import wrong
from vwlog.model.violation import Violation

__all__ = ["judge_decision"]

_MAIN_RULE: dict[type, str] = {
    ev.LinkAdded: "WOW-ACT-2",
    ev.ResourcePlaced: "WOW-ACT-3",
    ev.CombatDeclared: "WOW-ACT-4",
}
_CHARACTERS = frozenset({"hero", "ally"})


def _is_main(e: Any) -> bool:
    if isinstance(e, ev.LinkAdded):
        return e.kind == "CARD" and not e.instant
    return isinstance(e, ev.ResourcePlaced | ev.CombatDeclared)


def _main(rs: WowRuleset, s: Board, e: Any) -> tuple[Violation, ...]:
    """WOW-ACT-2..4: only the current player, in his non-combat action phase, with the chain
    empty (and holding priority: ``main_actions_need_priority``)."""
    rule = _MAIN_RULE[type(e)]
    if e.player != s.current:
        return (wrong(rule, "{player} acts in another player's action phase", player=e.player),)
    if s.phase != "ACTION" or s.step == "COMBAT":
        return (wrong(rule, "{type} outside the non-combat action phase", type=e.type),)
    if s.chain:
        return (wrong(rule, "{type} while the chain is not empty", type=e.type),)
    if e.player != s.holder and rs.main_actions_need_priority == "YES":
        v = wrong(rule, "{player} does not hold priority", player=e.player)
        return (v.located(flag="main_actions_need_priority"),)
    limit = rs.resources_per_turn
    if isinstance(e, ev.ResourcePlaced) and limit is not None and s.resources >= limit:
        v = wrong(
            rule,
            "{player} already placed {count} resource(s) this turn",
            player=e.player,
            count=s.resources,
        )
        return (v.located(flag="resources_per_turn"),)
    return ()


def _in_window(rs: WowRuleset, s: Board, o: Owed, e: Any) -> tuple[Violation, ...]:
    if s.holder is not None and s.pending:
        return (
            wrong("WOW-TRG-2", "triggered effects go onto the chain before priority passes on"),
        )
    if s.holder is None and s.pending:
        if any(t.when == "FINAL" for t in s.pending):
            return (
                wrong(
                    "WOW-TRG-4", "effects that triggered in the final step go onto the chain first"
                ),
            )
        return (
            wrong(
                "WOW-PRI-3",
                "pending triggered effects go onto the chain before anyone has priority",
            ),
        )
    if s.resolving and s.chain:
        v = wrong(
            "WOW-PRI-5", "all players passed: link {link} resolves first", link=s.chain[-1].id
        )
        return (v.located(flag="chain_resolution"),)
    if s.passes >= len(s.players) and not s.chain:
        rule = "WOW-ACT-5" if s.phase == "ACTION" and s.step != "COMBAT" else "WOW-PRI-5"
        return (wrong(rule, "all players passed in succession: the window closes"),)
    if _is_main(e):
        return _main(rs, s, e)
    if isinstance(e, ev.ResourcePlaced | ev.CombatDeclared):
        return ()
    if e.player != s.holder:
        v = wrong(
            "WOW-PRI-4",
            "{player} does not hold priority ({holder} does)",
            player=e.player,
            holder=s.holder,
        )
        return (v.located(flag=s.holder_by),)
    return ()


def _inspire(rs: WowRuleset, s: Board, e: ev.InspireReadied) -> tuple[Violation, ...]:
    if s.at not in ("READY", "READIED"):
        return (wrong("WOW-STA-2", "Inspire readies only as the ready step begins"),)
    if e.player == s.current:
        return (
            wrong("WOW-STA-2", "Inspire readies another player's cards, not the current player's"),
        )
    if len(set(e.sources)) != len(e.sources):
        return (wrong("WOW-STA-2", "an Inspire source is named twice"),)
    kinds: Counter[str] = Counter()
    for sid in e.sources:
        fault = _source_fault(rs, s, e.player, sid)
        if fault:
            return fault
        if sid in s.inspired:
            return (wrong("WOW-STA-2", "Inspire source {card} was used this ready step", card=sid),)
        kinds[_inspire_kind(s, sid)] += 1
    if len(e.cards) > len(e.sources):
        return (
            wrong(
                "WOW-STA-2",
                "{count} cards readied by {sources} Inspire source(s)",
                count=len(e.cards),
                sources=len(e.sources),
            ),
        )
    return _inspired_cards(s, e, kinds)


def _inspire_kind(s: Board, sid: str) -> str:
    card = s.card(sid)
    return (card.inspire or "") if card is not None else ""


def _source_fault(rs: WowRuleset, s: Board, player: str, sid: str) -> tuple[Violation, ...]:
    card = s.card(sid)
    if card is None or card.controller != player or card.inspire is None:
        return (
            wrong("WOW-STA-2", "{card} is no Inspire source of {player}", card=sid, player=player),
        )
    if card.kind not in _CHARACTERS:
        return (wrong("WOW-STA-2", "{card} is not a character", card=sid),)
    if rs.inspire_source == "ALLY_ONLY" and card.kind != "ally":
        v = wrong("WOW-STA-2", "{card} is not an ally", card=sid)
        return (v.located(flag="inspire_source"),)
    return ()


def _inspired_cards(s: Board, e: ev.InspireReadied, kinds: Counter[str]) -> tuple[Violation, ...]:
    if len(set(e.cards)) != len(e.cards):
        return (wrong("WOW-STA-2", "a card is readied twice"),)
    for cid in e.cards:
        card = s.card(cid)
        if card is None or card.controller != e.player:
            return (
                wrong(
                    "WOW-STA-2",
                    "{card} is not in play under {player}'s control",
                    card=cid,
                    player=e.player,
                ),
            )
        if not card.exhausted:
            return (wrong("WOW-STA-2", "{card} is not exhausted", card=cid),)
        if kinds[card.kind] <= 0:
            return (
                wrong(
                    "WOW-STA-2",
                    "no Inspire source left for {card} ({kind})",
                    card=cid,
                    kind=card.kind,
                ),
            )
        kinds[card.kind] -= 1
    return ()


def _discard(rs: WowRuleset, s: Board, e: ev.HandLimitDiscarded) -> tuple[Violation, ...]:
    if s.at != "FINAL":
        return (wrong("WOW-END-3", "the hand-limit discard happens in the final step"),)
    if e.player != s.current:
        return (wrong("WOW-END-4", "only the current player discards to his hand size"),)
    if s.discarded:
        return (wrong("WOW-END-4", "{player} already discarded this final step", player=e.player),)
    hand, most = s.hand(e.player), s.max_hand(e.player)
    if len(set(e.cards)) != len(e.cards) or hand - len(e.cards) != most:
        return (
            wrong(
                "WOW-END-4",
                "{player} holds {hand} cards: discarding {count} does not leave {most}",
                player=e.player,
                hand=hand,
                count=len(e.cards),
                most=most,
            ),
        )
    return ()


def judge_decision(rs: WowRuleset, s: Board, o: Owed, e: Any, gap: str) -> tuple[Violation, ...]:
    """The rules decision ``e`` breaks; ``gap`` is the rule saying no window is open here."""
    if isinstance(e, ev.InspireReadied):
        return _inspire(rs, s, e)
    if isinstance(e, ev.HandLimitDiscarded):
        return _discard(rs, s, e)
    if s.at == "FINAL":
        return (wrong("WOW-END-2", "no priority window in the final step: {type}", type=e.type),)
    if s.at in ("COMBAT", "COMBAT_DECLARED") and rs.combat_model == "OPAQUE":
        v = wrong(
            "WOW-TRN-4", "{type} inside a combat step, which the log does not detail", type=e.type
        )
        return (v.located(flag="combat_model"),)
    if s.at != "WINDOW":
        rule = "WOW-PRI-2" if isinstance(e, ev.LinkAdded) else gap
        if _is_main(e) and s.at == "ACTION":
            rule = "WOW-ACT-1"
        return (wrong(rule, "{type} while no priority window is open", type=e.type),)
    return _in_window(rs, s, o, e)
