"""What the miniatures rules expect next: the consequence they demand (a round's or a turn's
start, a phase, the AP of the Upkeep, the End Phase's discarding and swapping, a turn's or a
round's end), or whose decision of which kind.

Decision kinds: ``strategic`` (the Active Player's declarations, or the next phase),
``activation`` (the Tactical Phase between Sequences: a model activated, or a stop; the fork
points), ``movement``, ``reaction`` (the Reactive Player whose Reactions are awaited; an
Attack of Opportunity may come first), ``action``, ``resolution`` (rolls, the order of
conflicts, Wounds, then the Sequence's end), ``round`` (between rounds: the next round, or the
recorded end of the match) and ``result`` (the match's last round is over).
"""

from __future__ import annotations

from vwlog.games.minis import events as ev
from vwlog.games.minis.ruleset import MinisRuleset
from vwlog.games.minis.state import Board, Sequence
from vwlog.model.expect import Expect

RULE_OF: dict[type, str] = {
    ev.RoundStarted: "MIN-RND-2",
    ev.TurnStarted: "MIN-RND-3",
    ev.PhaseStarted: "MIN-RND-4",
    ev.ApAllotted: "MIN-PHS-3",
    ev.ApDiscarded: "MIN-PHS-6",
    ev.RolesSwapped: "MIN-PHS-6",
    ev.TurnEnded: "MIN-RND-1",
    ev.RoundEnded: "MIN-RND-2",
    ev.SequenceEnded: "MIN-ACT-1",
    ev.AoOChecked: "MIN-REA-4",
    ev.MatchEnded: "MIN-RND-2",
}
"""The rule that demands each consequence."""


def seat_order(s: Board, first: str) -> tuple[str, ...]:
    """The players in seat order from ``first``."""
    if first not in s.players:
        return s.players
    i = s.players.index(first)
    return s.players[i:] + s.players[:i]


def next_active(rs: MinisRuleset, s: Board) -> tuple[str, ...]:
    """Who may be Active in the round's next turn (MIN-RND-3, MIN-OQ-1)."""
    order = seat_order(s, s.round_first)
    if not s.been_active:
        return order[:1]
    left = tuple(p for p in order if p not in s.been_active)
    return left if rs.active_rotation == "AS_LOGGED" else left[:1]


def turn_start(s: Board, active: str) -> ev.TurnStarted:
    """The turn ``active`` begins: every other player Reactive (MIN-RND-3)."""
    others = tuple(p for p in s.players if p != active)
    return ev.TurnStarted(round=s.round, turn=s.turn + 1, active=active, reactive=others)


def allotment(rs: MinisRuleset, s: Board) -> ev.ApAllotted:
    """The Upkeep's AP: every model in play gets its Stamina (MIN-PHS-3; ``ADD`` adds it)."""
    add = rs.ap_allotment == "ADD"
    return ev.ApAllotted(
        allotments=tuple(
            ev.Allotment(model=m.id, ap=m.stamina + (m.ap if add else 0)) for m in s.models.values()
        )
    )


def reactor(rs: MinisRuleset, s: Board, q: Sequence) -> str | None:
    """The Reactive Player whose Reactions are awaited next (MIN-ACT-5, MIN-OQ-13)."""
    order = seat_order(s, s.active or "")
    left = [p for p in order if p in s.reactive and p not in q.declared]
    return left[0] if left else None


def _sequence(rs: MinisRuleset, s: Board, q: Sequence) -> Expect:
    if q.step == "MOVE":
        return Expect(player=s.active, kind="movement", rule="MIN-ACT-3")
    if q.step in ("MOVED", "REACT"):
        if q.aoo_pending is not None:
            m = q.aoo_pending
            checks = (
                ev.AoOChecked(model=m, within_reach=True),
                ev.AoOChecked(model=m, within_reach=False),
            )
            return Expect(checks, rule="MIN-REA-4")
        return Expect(player=reactor(rs, s, q), kind="reaction", rule="MIN-ACT-5")
    if q.step == "ACTION":
        return Expect(player=s.active, kind="action", rule="MIN-ACT-7")
    if q.ranged_aoo and q.melee and "CONFRONTATION" not in q.purposes:
        return Expect(player=s.active, kind="resolution", rule="MIN-REA-6")
    return Expect(
        (ev.SequenceEnded(model=q.model),), player=s.active, kind="resolution", rule="MIN-ACT-8"
    )


def _tactical(rs: MinisRuleset, s: Board) -> Expect:
    if s.sequence is not None:
        return _sequence(rs, s, s.sequence)
    if s.stopped or not s.eligible(rs):
        return Expect((ev.PhaseStarted(phase="END"),), rule="MIN-PHS-5")
    return Expect(player=s.active, kind="activation", rule="MIN-PHS-4")


def _in_turn(rs: MinisRuleset, s: Board) -> Expect:
    if s.phase is None:
        return Expect((ev.PhaseStarted(phase="STRATEGIC"),), rule="MIN-RND-4")
    if s.phase == "STRATEGIC":
        return Expect(
            (ev.PhaseStarted(phase="UPKEEP"),), player=s.active, kind="strategic", rule="MIN-RND-4"
        )
    if s.phase == "UPKEEP":
        if not s.allotted:
            return Expect((allotment(rs, s),), rule="MIN-PHS-3")
        return Expect((ev.PhaseStarted(phase="TACTICAL"),), rule="MIN-RND-4")
    if s.phase == "TACTICAL":
        return _tactical(rs, s)
    ends = (ev.ApDiscarded(), ev.RolesSwapped(), ev.TurnEnded(round=s.round, turn=s.turn or 1))
    return Expect(
        ends[s.end_step : s.end_step + 1], rule="MIN-PHS-6" if s.end_step < 2 else "MIN-RND-1"
    )


def expect(rs: MinisRuleset, s: Board) -> Expect:
    """What the rules await now."""
    if not s.started:
        return Expect(kind="start", rule="CORE-LOG-1")
    if s.over:
        return Expect(rule="CORE-LOG-2")
    if not s.in_round:
        if rs.match_end == "AFTER_ROUNDS" and s.round >= rs.rounds:
            return Expect(kind="result", rule="MIN-RND-2")
        firsts = s.players if rs.first_player_each_round == "REDETERMINED" else (s.first,)
        starts = tuple(ev.RoundStarted(round=s.round + 1, first=p) for p in firsts)
        return Expect(starts, kind="round", rule="MIN-RND-2")
    if s.in_turn:
        return _in_turn(rs, s)
    if set(s.players) <= set(s.been_active):
        return Expect((ev.RoundEnded(round=s.round),), rule="MIN-RND-2")
    return Expect(tuple(turn_start(s, p) for p in next_active(rs, s)), rule="MIN-RND-3")


def owed(s: Board) -> tuple[str, ...]:
    """The type tags of the consequences a record that ends here still owes (nothing between
    rounds, nor where a decision is awaited)."""
    if not s.started or s.over or not s.in_round:
        return ()
    exp = expect(s.ruleset or MinisRuleset(), s)
    if exp.kind is not None:
        return ()
    return tuple(str(c.type) for c in exp.consequences[:1])


__all__ = [
    "RULE_OF",
    "allotment",
    "expect",
    "next_active",
    "owed",
    "reactor",
    "seat_order",
    "turn_start",
]
