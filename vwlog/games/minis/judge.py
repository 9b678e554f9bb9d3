"""Judging miniatures events: the match start, the consequences the rules demand (rounds,
turns, phases, the Upkeep's AP, the End Phase) and, through `vwlog.games.minis.checks`, the
players' decisions and the rolls.

A consequence the log records where the rules demand another is cited by the rule that
demands it; where another reading of a ruleset flag would have demanded the logged one, the
verdict names that flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from vwlog.events.core import MatchForked
from vwlog.games import event_text
from vwlog.games.minis import checks
from vwlog.games.minis import events as ev
from vwlog.games.minis.checks import V, violation
from vwlog.games.minis.expect import RULE_OF, allotment, expect
from vwlog.games.minis.ruleset import ALTERNATIVES, MinisRuleset
from vwlog.games.minis.state import Board
from vwlog.model.expect import Expect

if TYPE_CHECKING:
    from collections.abc import Callable

FORK_KINDS = frozenset({"activation"})
"""Where a match may be forked: the Tactical Phase between Activation Sequences."""


def judge(rs: MinisRuleset, s: Board, exp: Expect, e: Any) -> V:
    """The rules ``e`` breaks, most specific first; never raises."""
    t = type(e)
    if not s.started:
        if t is ev.MinisStarted:
            return _start(e)
        return (violation("CORE-LOG-1", "a match begins with match_started"),)
    if t is ev.MinisStarted:
        return (violation("CORE-LOG-1", "the match has already started"),)
    if s.over:
        return (violation("CORE-LOG-2", "the match is over"),)
    if t is MatchForked:
        if exp.kind in FORK_KINDS:
            return ()
        return (violation("CORE-FORK-1", "a match is forked only between Activation Sequences"),)
    if exp.demands(e):
        return ()
    unknown = _unknown(s, e)
    if unknown:
        return unknown
    if t in ev.DECISION_TYPES or t is ev.Roll:
        found = _decision(rs, s, e)
        if found or exp.kind is not None or not exp.consequences:
            return found
        return (_missing(rs, s, exp, e),)
    return _consequence(rs, s, exp, e)


def _start(e: ev.MinisStarted) -> V:
    found: list[Any] = []
    if len(set(e.players)) != len(e.players):
        found.append(violation("CORE-ID-1", "a player sits at the match twice"))
    if e.first not in e.players:
        found.append(violation("CORE-ID-1", "unknown player {player}", player=e.first))
    ids = [m.id for m in e.models]
    for name in sorted({i for i in ids if ids.count(i) > 1}):
        found.append(violation("CORE-ID-2", "model {model} is listed twice", model=name))
    for owner in sorted({m.owner for m in e.models} - set(e.players)):
        found.append(violation("CORE-ID-1", "unknown player {player}", player=owner))
    return tuple(found)


def _named(e: Any) -> list[str]:
    """The models ``e`` names."""
    names = [getattr(e, f) for f in ("model", "target") if getattr(e, f, None)]
    if isinstance(e, ev.ReactionsDeclared):
        names += [r.model for r in e.reactions] + [r.target for r in e.reactions if r.target]
    elif isinstance(e, ev.ApAllotted):
        names += [a.model for a in e.allotments]
    elif isinstance(e, ev.ActionDeclared):
        names += list(e.targets)
    return names


def _unknown(s: Board, e: Any) -> V:
    players = [getattr(e, "player", None), getattr(e, "winner", None)]
    players += [getattr(e, "active", None), getattr(e, "first", None)]
    players += list(getattr(e, "reactive", ()))
    for p in players:
        if p is not None and p not in s.players:
            return (violation("CORE-ID-1", "unknown player {player}", player=p),)
    if isinstance(e, ev.SequenceEnded):
        return ()
    for m in _named(e):
        if m not in s.models:
            return (violation("CORE-ID-2", "unknown model {model}", model=m),)
    return ()


_RULED: Final[dict[type, Callable[[MinisRuleset, Board, Any], V]]] = {
    ev.Declared: checks.declared,
    ev.ModelActivated: checks.activated,
    ev.MovementDeclared: checks.movement,
    ev.ReactionsDeclared: checks.reactions,
    ev.ReactionChanged: checks.changed,
}
"""The checks of a decision that depend on the ruleset, by the decision's type."""
_PLAIN: Final[dict[type, Callable[[Board, Any], V]]] = {
    ev.TacticalStopped: checks.stopped,
    ev.CrouchedChanged: checks.crouched,
    ev.AoODeclared: checks.aoo,
    ev.ActionDeclared: checks.action,
    ev.Roll: checks.roll,
    ev.ResolutionOrdered: checks.ordered,
}
"""The checks of a decision or a roll that do not, by its type."""


def _decision(rs: MinisRuleset, s: Board, e: Any) -> V:
    t = type(e)
    if t in _RULED:
        return _RULED[t](rs, s, e)
    if t in _PLAIN:
        return _PLAIN[t](s, e)
    return ()


def deciding_flag(rs: MinisRuleset, s: Board, e: Any) -> str | None:
    """The flag under another reading of which the rules would demand ``e`` here (``None``:
    no reading does)."""
    for name, values in ALTERNATIVES:
        for value in values:
            if value == getattr(rs, name):
                continue
            other = rs.model_copy(update={name: value})
            alt = expect(other, s)
            if alt.demands(e) or (isinstance(e, ev.ApAllotted) and not _allotted(other, s, e)):
                return name
            if isinstance(e, ev.MatchEnded) and alt.kind in ("round", "result"):
                return name
    return None


def _missing(rs: MinisRuleset, s: Board, exp: Expect, e: Any) -> Any:
    """``exp``'s first consequence was owed before ``e``."""
    c = exp.consequences[0]
    return violation(
        exp.rule or RULE_OF.get(type(c), "MIN-RND-1"),
        "{expected} is owed before {actual}",
        flag=deciding_flag(rs, s, e),
        want=c,
        got=e,
        expected=event_text(c),
        actual=str(getattr(e, "type", "")),
    )


def _allotted(rs: MinisRuleset, s: Board, e: ev.ApAllotted) -> V:
    """MIN-PHS-3: each eligible model's AP equal its Stamina (``ADD``: added to its AP)."""
    want = {a.model: a.ap for a in allotment(rs, s).allotments}
    got: dict[str, int] = {}
    for a in e.allotments:
        if a.model in got:
            return (violation("MIN-PHS-3", "{model} is allotted AP twice", model=a.model),)
        got[a.model] = a.ap
        if got[a.model] != want.get(a.model):
            return (
                violation(
                    "MIN-PHS-3",
                    "{model} gets {owed} Activation Points (its Stamina), not {given}",
                    model=a.model,
                    owed=want.get(a.model),
                    given=a.ap,
                ),
            )
    left = sorted(set(want) - set(got))
    if left and rs.eligible_for_upkeep == "IN_PLAY":
        return (violation("MIN-PHS-3", "{model} gets no Activation Points", model=left[0]),)
    return ()


def _consequence(rs: MinisRuleset, s: Board, exp: Expect, e: Any) -> V:
    t = type(e)
    if t is ev.MatchEnded:
        return _ended(rs, s, exp, e)
    if t is ev.ApAllotted and any(type(c) is ev.ApAllotted for c in exp.consequences):
        found = _allotted(rs, s, e)
        if found:
            return tuple(f.located(flag=deciding_flag(rs, s, e)) for f in found)
        return ()
    if t is ev.PhaseStarted and e.phase == "END" and s.phase == "TACTICAL" and s.sequence is None:
        return (
            violation(
                "MIN-PHS-5",
                "the Tactical Phase goes on: {models} can be activated and {player} did not stop",
                flag=deciding_flag(rs, s, e),
                models=", ".join(s.eligible(rs)),
                player=s.active,
            ),
        )
    if t is ev.SequenceEnded and s.sequence is not None and s.sequence.step == "RESOLUTION":
        q = s.sequence
        if e.model != q.model:
            return (
                violation("MIN-ACT-1", "the Sequence of {model} is the one open", model=q.model),
            )
        return (
            violation(
                "MIN-REA-6",
                "a Melee Attack against a Ranged Attack of Opportunity starts a Confrontation",
            ),
        )
    if t is ev.WoundsApplied:
        return _wounds(s, e)
    if t is ev.RoundEnded and s.in_round and not s.in_turn:
        waiting = [p for p in s.players if p not in s.been_active]
        if waiting:
            return (
                violation("MIN-RND-2", "{player} has not had a turn this round", player=waiting[0]),
            )
    if t is ev.AoOChecked:
        return (violation("MIN-REA-4", "no Attack of Opportunity awaits its Reach check"),)
    same = [c for c in exp.consequences if type(c) is t]
    rule = exp.rule if exp.consequences else RULE_OF.get(t, "MIN-RND-1")
    if same:
        rule = "MIN-RND-3" if t in (ev.TurnStarted, ev.RoundStarted) else rule
        if (t is ev.RoundStarted and same[0].round != e.round) or (
            t is ev.TurnStarted and same[0].turn != e.turn
        ):
            rule = "MIN-RND-1"
        return (_wrong(rs, s, rule, same[0], e),)
    if exp.consequences:
        return (_missing(rs, s, exp, e),)
    return (
        violation(
            RULE_OF.get(t, rule),
            "{actual} is not due: the rules await a decision ({kind})",
            flag=deciding_flag(rs, s, e),
            got=e,
            actual=str(e.type),
            kind=exp.kind or "",
        ),
    )


def _wrong(rs: MinisRuleset, s: Board, rule: str, want: Any, e: Any) -> Any:
    return violation(
        rule,
        "the rules demand {expected}, not {actual}",
        flag=deciding_flag(rs, s, e),
        want=want,
        got=e,
        expected=event_text(want),
        actual=event_text(e),
    )


def _wounds(s: Board, e: ev.WoundsApplied) -> V:
    q = s.sequence
    if q is None or q.step != "RESOLUTION":
        return (
            violation("MIN-RES-1", "Wounds are applied in the Resolution Step, after its rolls"),
        )
    if e.model not in q.hit:
        return (violation("MIN-RES-1", "{model} received no Hits to be wounded by", model=e.model),)
    return ()


def _ended(rs: MinisRuleset, s: Board, exp: Expect, e: ev.MatchEnded) -> V:
    if exp.kind == "result" or (exp.kind == "round" and rs.match_end == "RECORDED"):
        return ()
    if exp.kind == "round":
        return (
            violation(
                "MIN-RND-2",
                "the match ends after round {rounds}: round {round} starts",
                flag="match_end",
                rounds=rs.rounds,
                round=s.round + 1,
            ),
        )
    return (
        violation(
            "MIN-RND-2",
            "the match ends between rounds: round {round} is not over",
            flag=deciding_flag(rs, s, e),
            round=s.round,
        ),
    )


__all__ = ["FORK_KINDS", "deciding_flag", "judge"]
