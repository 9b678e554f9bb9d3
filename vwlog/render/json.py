"""One JSON shape per concept, and one way to write JSON.

Every command's ``--format json`` / ``jsonl`` output, and the HTTP API, builds its documents
from these functions, so a violation, an event of a replay, a validation report, a hash-chain
check, a stored match's summary, a board and a diff read the same wherever they appear:

* `violation_json` - a broken rule, with its title and every location field;
* `step_json` - one event of a replay: where it happened, what it did, the board after it;
* `validation_json` - the outcome of validating one log;
* `verify_json` - the outcome of checking a hash chain and the deck commitments;
* `match_summary_json` - a stored match at a glance (a catalog row);
* `board_json` - the board at one position (a `vwlog.games.vw.describe.BoardView` document);
* `known_board_json` - one player's view of the board, with the hidden cards they have seen;
* `rebase_json` - a fork rebased on its parent, and the decision that stopped it;
* `priority_point_json`, `seen_card_json`, `knowledge_json`, `diff_json`, `dispute_json`.

`dumps` writes any of them: indented with sorted keys (a document), or on one line
(``compact=True``, for JSON Lines).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import orjson

from vwlog.engine.seek import position
from vwlog.games.vw.describe import state_json
from vwlog.io.i18n import say
from vwlog.render.rules import rule_title
from vwlog.render.trust import judgement

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.audit.diffreport import Difference, DiffEvent, DiffReport, RecordSide
    from vwlog.audit.knowledge import Knowledge, SeenCard
    from vwlog.audit.report import DisputeReport, EventLine, Moment
    from vwlog.engine.replay import Step, ValidationReport
    from vwlog.engine.seek import PriorityPoint
    from vwlog.io.chain import VerifyReport
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState
    from vwlog.model.text import Msg
    from vwlog.model.verdict import Integrity
    from vwlog.store.catalog import MatchMeta


__all__ = [
    "board_json",
    "diff_event_json",
    "diff_json",
    "dispute_json",
    "dumps",
    "integrity_json",
    "knowledge_json",
    "known_board_json",
    "match_summary_json",
    "priority_point_json",
    "rebase_json",
    "seen_card_json",
    "step_json",
    "trusted_json",
    "validation_json",
    "verify_json",
    "violation_json",
    "violations_json",
]


_INVISIBLE = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]"
)


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def dumps(data: Any, *, compact: bool = False) -> str:
    """``data`` as JSON text: indented with sorted keys, or one line with ``compact``.

    Besides the control characters JSON always escapes, DEL, the C1 controls and the bidi and
    invisible formatting characters are written as ``\\uXXXX`` escapes (the same strings), so
    JSON shown on a terminal cannot carry a terminal sequence or reorder a line. Integers
    beyond 64 bits are written as they are (orjson refuses them; the standard library does not).
    """
    option = orjson.OPT_SORT_KEYS if compact else orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
    try:
        text = orjson.dumps(data, option=option).decode()
    except TypeError:
        import json

        if compact:
            text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        else:
            text = json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2)
    return _INVISIBLE.sub(_escaped, text)


def violation_json(v: Violation, *, translated: bool = False) -> dict[str, Any]:
    """A violation: the rule id and its title, the message, where it happened, what was
    expected instead, and the ruleset flag that decides it (``null`` fields when unknown);
    with ``translated``, the message in the active language, else in English."""
    return {
        "rule": v.rule,
        "title": rule_title(v.rule),
        "message": _said(v.text, v.message, translated),
        "seq": v.seq,
        "line": v.line,
        "event": v.event_type,
        "turn": v.turn,
        "phase": v.phase,
        "step": v.step,
        "priority": v.priority,
        "expected": v.expected,
        "actual": v.actual,
        "flag": v.flag,
    }


def violations_json(
    violations: Sequence[Violation], *, translated: bool = False
) -> list[dict[str, Any]]:
    """Several violations, in order (see `violation_json` for ``translated``)."""
    return [violation_json(v, translated=translated) for v in violations]


def board_json(
    state: MatchState, *, player: str | None = None, seq: int | None = None
) -> dict[str, Any]:
    """The board after ``seq`` as a ``BoardView`` document (schemas/board-view.schema.json),
    optionally as ``player`` could know it.

    Raises:
        UsageError: ``player`` does not sit at this match's table.
    """
    return state_json(state, player=player, seq=seq)


def step_json(
    step: Step,
    description: str,
    *,
    board: Any = None,
    player: str | None = None,
    priority_point: bool = False,
    awaited: str | None = None,
    record: bool = False,
    translated: bool = False,
) -> dict[str, Any]:
    """One event of a replay of any game, as the text trace's JSON, the service's event pages
    and the stepper write it: where it happened, what it did, the board after it.

    ``turn``, ``phase``, ``step`` and ``priority`` are the position *after* the event
    (`vwlog.engine.seek.position`), like the board, ``null`` where the game's board has none;
    ``priority`` is the priority holder the board names, or, for a game whose board names
    none, the player whose decision the rules then await (``awaited``). ``priority_point``
    says whether a fork may start there; ``voids`` is the range of seqs a judge's back-up
    voided, or ``null``. ``board``: the board after it as data (the game's view, as ``player``
    may know it), given where it is shown. With ``record``, also ``hash`` (its chain hash) and
    ``event`` (the recorded event; ``null`` for ``player``'s view, since the record may name
    cards hidden from them). With ``translated``, the violations' messages are in the active
    language (``description`` is said by the caller).
    """
    rec = step.record
    where = position(step.after)
    data: dict[str, Any] = {
        "seq": rec.seq,
        "type": getattr(rec.event, "type", type(rec.event).__name__),
        "decision": rec.event.DECISION,
        "description": description,
        "turn": where.turn,
        "phase": where.phase,
        "step": where.step,
        "priority": where.priority if hasattr(step.after, "priority") else awaited,
        "priority_point": priority_point,
        "violations": violations_json(step.violations, translated=translated),
        "voids": list(step.voids) if step.voids is not None else None,
    }
    if board is not None:
        data["board"] = board
    if record:
        data["hash"] = rec.hash
        data["event"] = (
            None if player is not None else rec.event.model_dump(mode="json", by_alias=True)
        )
    return data


def validation_json(r: ValidationReport, *, translated: bool = False) -> dict[str, Any]:
    """The outcome of validating one log: what it holds, how it ended, every violation (its
    message in the active language with ``translated``, else in English), and the one verdict
    with its reason.

    A record that is not intact is never ``complete`` and has no ``winner`` or ``victory``
    (``null``): the winner its records name is ``claimed_winner``, beside ``intact: false``."""
    judged = judgement(r)
    return {
        "source": r.source,
        "house_rules": dict(judged.house_rules),
        "match_id": r.match_id,
        "ok": r.ok,
        "players": list(r.players),
        "ruleset": r.ruleset,
        "events": r.events,
        "decisions": r.decisions,
        "consequences": r.consequences,
        "effects_verified": r.effects_verified,
        "effects_trusted": r.effects_trusted,
        "objects_trusted": r.objects_trusted,
        "turns": r.turns,
        "winner": judged.winner,
        "victory": judged.victory,
        "complete": judged.complete,
        "intact": judged.intact,
        "claimed_winner": judged.claimed_winner,
        "stopped_at": r.stopped_at,
        "rulings": r.rulings,
        "voided": [list(v) for v in r.voided],
        "violations": violations_json(r.violations, translated=translated),
        "verdict": judged.verdict.value,
        "reason": say(judged.reason) if translated else str(judged.reason),
        "integrity": integrity_json(r.integrity),
        "trusted": trusted_json(r),
    }


def verify_json(
    report: VerifyReport, judged: ValidationReport | None = None, *, translated: bool = False
) -> dict[str, Any]:
    """The outcome of checking a hash chain: the first broken link, the deck commitments; with
    ``judged`` (the record validated and judged), the one verdict and its reason (in the
    active language with ``translated``) and where the seal is."""
    b = report.broken
    verdict: dict[str, Any] = {"verdict": None, "reason": None, "seal_seq": None, "seal_line": None}
    if judged is not None:
        j = judgement(judged)
        integrity = judged.integrity
        verdict = {
            "verdict": j.verdict.value,
            "reason": say(j.reason) if translated else str(j.reason),
            "seal_seq": integrity.seal_seq if integrity is not None else None,
            "seal_line": integrity.seal_line if integrity is not None else None,
        }
    return verdict | {
        "source": report.source,
        "match_id": report.match_id,
        "ok": report.ok,
        "sealed": report.sealed,
        "records": report.records,
        "head_hash": report.head_hash,
        "broken": None
        if b is None
        else {
            "seq": b.seq,
            "line": b.line,
            "reason": b.reason,
            "expected": b.expected,
            "found": b.found,
        },
        "commitments": [{"player": c.player, "status": c.status} for c in report.commitments],
        "seal": report.seal,
        "derived": list(report.derived),
        "repaired": list(report.repaired),
    }


def match_summary_json(m: MatchMeta) -> dict[str, Any]:
    """A stored match at a glance: players, how it ended, its violations, its chain head."""
    return {
        "match_id": m.match_id,
        "players": list(m.players),
        "created": m.created,
        **({"tags": dict(m.tags)} if m.tags else {}),
        "turns": m.turns,
        "winner": m.winner,
        "victory": m.victory,
        "violations": m.violations,
        "violation_summary": list(m.violation_summary),
        "head_hash": m.head_hash,
        "events": m.events,
        "parent": m.parent,
        "fork_at": m.fork_at,
        "flagged": m.flagged,
        "seal": m.seal,
    }


def priority_point_json(p: PriorityPoint) -> dict[str, Any]:
    """A priority point: after ``seq``, ``player`` holds priority."""
    return {
        "seq": p.seq,
        "player": p.player,
        "turn": p.turn,
        "phase": p.phase,
        "step": p.step,
        "register_depth": p.register_depth,
    }


def _said(said: Msg | None, english: str, translated: bool) -> str:
    """``english``, or with ``translated`` the same sentence in the active language."""
    return say(said) if translated and said is not None else english


def diff_event_json(e: DiffEvent, *, translated: bool = False) -> dict[str, Any]:
    """One event of a record in a diff, with the rules it breaks where it stands (its sentence
    in the active language with ``translated``, else in English)."""
    return {
        "seq": e.seq,
        "line": e.line,
        "type": e.type,
        "decision": e.decision,
        "text": _said(e.said, e.text, translated),
        "event": e.event.model_dump(mode="json") if e.event is not None else None,
        "violations": violations_json(e.violations, translated=translated),
    }


def _difference_json(x: Difference, translated: bool) -> dict[str, Any]:
    text = _said(x.said, x.text, translated)
    return {"subject": x.subject, "key": x.key, "when": x.when, "text": text, "a": x.a, "b": x.b}


def _side_json(s: RecordSide) -> dict[str, Any]:
    return {"source": s.name, "match_id": s.match_id, "events": s.events}


def diff_json(report: DiffReport, *, translated: bool = False) -> dict[str, Any]:
    """Where two records of one match part, and what follows from it; with ``translated``, its
    sentences (events, position, differences, alterations) in the active language (the
    service's answer), else in English (the command line's JSON)."""
    d = report.divergence

    def event(e: DiffEvent) -> dict[str, Any]:
        return diff_event_json(e, translated=translated)

    def altered(note: Msg | None) -> str | None:
        return None if note is None else _said(note, str(note), translated)

    return {
        "outcome": report.outcome,
        "a": _side_json(report.a),
        "b": _side_json(report.b),
        "common": report.common,
        "longer": report.longer,
        "continuation": [event(e) for e in report.continuation],
        "divergence": None
        if d is None
        else {
            "seq": d.seq,
            "position": _said(d.position_said, d.position, translated),
            "a": event(d.a),
            "b": event(d.b),
            "legal": {"a": not d.a.violations, "b": not d.b.violations},
            "altered": {"a": altered(d.altered_a), "b": altered(d.altered_b)},
            "window_end": {"a": d.window_end[0], "b": d.window_end[1]},
            "agree_again": None
            if d.agree_again is None
            else {"a": d.agree_again[0], "b": d.agree_again[1]},
            "part_again": None
            if d.part_again is None
            else {"a": d.part_again[0], "b": d.part_again[1]},
            "then_a": [event(e) for e in d.then_a],
            "then_b": [event(e) for e in d.then_b],
            "differences": [_difference_json(x, translated) for x in d.differences],
        },
    }


def dispute_json(report: DisputeReport) -> dict[str, Any]:
    """A dispute report: the match, its validation, its hash chain, every violation with the
    events around it, the judges' rulings (boards are left to ``board_json``)."""
    integrity = report.integrity
    return {
        "source": report.source,
        "match_id": report.match_id,
        "validation": validation_json(report.validation),
        "integrity": None
        if integrity is None
        else {
            "sealed": integrity.sealed,
            "intact": integrity.intact,
            "head_hash": integrity.head_hash,
            "records": integrity.records,
            "broken": None
            if integrity.broken_reason is None
            else {
                "seq": integrity.broken_seq,
                "line": integrity.broken_line,
                "reason": integrity.broken_reason,
            },
            "commitments": [{"player": p, "status": s} for p, s in integrity.commitments],
        },
        "moments": [_moment_json(m) for m in report.moments],
        "at": _moment_json(report.at) if report.at is not None else None,
        "rulings": [
            {
                "seq": r.seq,
                "judge": r.judge,
                "kind": r.kind,
                "reason": r.reason,
                "back_to": r.back_to,
                "loser": r.loser,
                "voids": list(r.voids) if r.voids is not None else None,
                "voided": [_line_json(e) for e in r.voided],
                "unlisted": r.unlisted,
            }
            for r in report.rulings
        ],
    }


def _line_json(e: EventLine) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "line": e.line,
        "type": e.type,
        "decision": e.decision,
        "text": e.text,
        "rules": list(e.rules),
    }


def _moment_json(m: Moment) -> dict[str, Any]:
    return {
        "seq": m.seq,
        "board_label": m.board_label,
        "event": _line_json(m.event),
        "before": [_line_json(e) for e in m.before],
        "after": [_line_json(e) for e in m.after],
        "violations": violations_json(m.violations),
    }


def seen_card_json(c: SeenCard) -> dict[str, Any]:
    """A card a player has seen: when and how they saw it, and where it is now."""
    return {
        "id": c.id,
        "name": c.name,
        "owner": c.owner,
        "seen_at": c.seq,
        "how": c.how,
        "now": c.now.as_json(),
        "where": c.where,
        "public": c.public,
    }


def knowledge_json(k: Knowledge) -> dict[str, Any]:
    """What one player could know at one position: their view of the board and every card they
    have seen."""
    return {
        "player": k.player,
        "seq": k.seq,
        "board": k.board.model_dump(mode="json", by_alias=True),
        "seen": [seen_card_json(c) for c in k.seen],
        "hidden_known": [c.id for c in k.hidden],
    }


def integrity_json(integrity: Integrity | None) -> dict[str, Any] | None:
    """The JSON form of an integrity result."""
    if integrity is None:
        return None
    return {
        "ok": integrity.ok,
        "chain": integrity.chain,
        "sealed": integrity.sealed,
        "seal": integrity.seal,
        "pool": integrity.pool,
        "ruleset": integrity.ruleset,
        "keyring": integrity.keyring,
        "signatures": [
            {
                "seq": s.seq,
                "signer": s.signer,
                "key_id": s.key_id,
                "status": s.status,
                "known_as": s.known_as,
            }
            for s in integrity.signatures
        ],
        "problems": list(integrity.problems),
        "warnings": list(integrity.warnings),
    }


def trusted_json(report: ValidationReport) -> list[dict[str, Any]]:
    """Every result whose effects were taken as logged."""
    return [
        {"seq": t.seq, "line": t.line, "card": t.card, "skill": t.skill, "effects": t.effects}
        for t in report.trusted
    ]


def known_board_json(k: Knowledge) -> dict[str, Any]:
    """One player's view of the board (a ``ShownBoardView`` document): the board as they could
    know it, with ``known`` naming the hidden cards they have seen and where they are now."""
    data: dict[str, Any] = k.board.model_dump(mode="json", by_alias=True)
    data["known"] = [seen_card_json(c) for c in k.hidden]
    return data


def rebase_json(result: Any) -> dict[str, Any]:
    """A rebase of a fork on its parent (a `vwlog.services.rebase.RebaseResult`, which lives
    above this layer): what was considered and re-applied, where it stopped, and the parent's
    decision that was no longer legal on the fork, with its violations."""
    broken = result.broken
    return {
        "fork": result.fork_id,
        "parent": result.parent_id,
        "fork_at": result.fork_at,
        "considered": result.considered,
        "already": result.already,
        "reapplied": result.reapplied,
        "appended": result.appended,
        "head_seq": result.head_seq,
        "stopped": result.stopped,
        "stopped_at": result.stopped_at,
        "winner": result.winner,
        "victory": result.victory,
        "dry_run": result.dry_run,
        "broken": None
        if broken is None
        else {
            "parent_seq": broken.parent_seq,
            "fork_seq": broken.fork_seq,
            "type": broken.event_type,
            "player": broken.player,
            "description": broken.description,
            "rules": list(broken.rules),
            "message": broken.message,
            "violations": violations_json(broken.violations),
            "withdrawn": list(broken.withdrawn),
        },
    }
