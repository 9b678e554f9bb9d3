"""Text for a terminal: one plural, one summary line, one table renderer, and escaping.

Whatever a log carries (a match id, a player or card name, a judge's note, a file name) can hold
control characters: a line feed that forges a line, an ESC sequence that moves the cursor or
rewrites a line, a BEL, an OSC title, a NUL, a C1 control, or a bidi override that reverses what
follows. Printed raw, they let a crafted log forge a verdict on a judge's screen. Every value is
formatted into a line through `term` (`vwlog.model.text.term`, the one escape), which shows each
of them as a backslash escape (``\\x0a``, ``\\x1b``, ``\\u202e``); `visible` guards a block of
lines once more on its way out. Nothing else is changed: a trace without such characters keeps
its exact bytes.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from vwlog.games import board_data, game_of_state
from vwlog.io.i18n import N_, fmt_fixed, fmt_number, ngettext, say
from vwlog.io.i18n import gettext as _
from vwlog.model.text import term, visible
from vwlog.model.types import RulingKind
from vwlog.model.verdict import Verdict
from vwlog.render.rules import rule_title
from vwlog.render.trust import (
    COMMITMENT_STATUS,
    house_rules_note,
    reason_line,
    signatures_text,
    trusted_summary,
    verdict,
    verdict_word,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from vwlog.audit.diffreport import Difference, DiffEvent, DiffReport, Divergence, RecordSide
    from vwlog.audit.knowledge import Knowledge
    from vwlog.audit.report import EventLine, Integrity, Moment, RulingEntry
    from vwlog.engine.replay import ValidationReport
    from vwlog.events import MatchStarted
    from vwlog.model.errors import Violation
    from vwlog.model.state import MatchState


__all__ = [
    "DECISION_KIND_NAMES",
    "VICTORY_NAMES",
    "board_label",
    "board_text",
    "cell_text",
    "counted",
    "decision_kind_name",
    "diff_text",
    "difference_text",
    "event_text",
    "hidden_lines",
    "integrity_rows",
    "plural",
    "rests_on_lines",
    "ruling_title",
    "seat_rows",
    "table",
    "term",
    "validation_summary",
    "validation_text",
    "victory_name",
    "violation_lines",
    "violation_message",
    "violation_place",
    "violation_where",
    "visible",
]


def plural(n: int, word: str, many: str | None = None) -> str:
    """The noun that agrees with ``n``: ``event`` for 1, ``events`` (or ``many``) otherwise,
    in the active language (the pair is looked up in the catalogs: `vwlog.io.i18n.NOUNS`)."""
    return ngettext(word, many or word + "s", n)


def counted(n: int, word: str, many: str | None = None) -> str:
    """``n`` (with thousands separators) and the noun that agrees with it: ``1 event``,
    ``1,204 events``, ``2 matches`` (with ``many="matches"``)."""
    return f"{fmt_number(n)} {plural(n, word, many)}"


def cell_text(value: object) -> str:
    """A table cell's text: empty for ``None``, two decimals for a float (not escaped)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return fmt_fixed(value, 2)
    return str(value)


_NUMBER = re.compile(r"[-+]?[\d,]*\.?\d+%?")


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    align: str | None = None,
    gap: str = "  ",
) -> str:
    """Rows in columns as wide as their widest cell, each cell through `term` (``None`` shown
    empty, a float with two decimals).

    ``align`` has one letter per column, ``<`` (left) or ``>`` (right); without it, columns
    whose cells are all numbers are right-aligned and the others left-aligned.
    """
    body = [[term(cell_text(c)) for c in row] for row in rows]
    head = [term(h) for h in headers]
    n = len(headers)
    if align is None:
        align = "".join(
            ">"
            if any(r[i] for r in body) and all(_NUMBER.fullmatch(r[i]) for r in body if r[i])
            else "<"
            for i in range(n)
        )
    widths = [max([len(head[i])] + [len(r[i]) for r in body]) for i in range(n)]
    lines = []
    for row in (head, *body):
        parts = [
            cell.rjust(widths[i]) if align[i] == ">" else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append(gap.join(parts).rstrip())
    return "\n".join(lines)


def validation_summary(r: ValidationReport) -> str:
    """The one line that sums up a validation: events, turns, how it ended, effects, violations.

    ``1,204 events (602 decisions, 602 consequences) · 12 turns · won by p1 (MILITARY) ·
    effects 3 verified, 0 trusted · 0 violations``
    """
    n = len(r.violations)
    judged = r.judgement
    if judged is not None and not judged.intact and judged.claimed_winner:
        # a record that is not intact is never reported won
        ending = _("no winner: the record is not intact (it names {winner})").format(
            winner=term(judged.claimed_winner)
        )
    elif r.winner:
        ending = _("won by {winner} ({victory})").format(
            winner=term(r.winner), victory=term(r.victory)
        )
    else:
        ending = _("no winner yet")
    if r.stopped_at is not None:
        ending = _("stopped at seq {seq}, at the first violation").format(seq=r.stopped_at)
    effects = _("effects {verified} verified, {trusted} trusted").format(
        verified=fmt_number(r.effects_verified), trusted=fmt_number(r.effects_trusted)
    )
    return (
        f"{counted(r.events, 'event')} ({counted(r.decisions, 'decision')}, "
        f"{counted(r.consequences, 'consequence')}) · {counted(r.turns, 'turn')} · {ending} · "
        f"{effects} · {counted(n, 'violation')}"
    )


def violation_message(v: Violation) -> str:
    """What a violation says, in the active language (its template translated, the same names
    and numbers filled in); a violation built with a plain message says that message."""
    return say(v.text) if v.text is not None else v.message


def difference_text(x: Difference) -> str:
    """What differs on two records' boards, in the active language."""
    return say(x.said) if x.said is not None else x.text


def event_text(e: EventLine | DiffEvent) -> str:
    """An event's one-line description in the active language."""
    return say(e.said) if e.said is not None else e.text


def board_label(m: Moment) -> str:
    """What a report's board is (``before seq 193``), in the active language."""
    return say(m.board_said) if m.board_said is not None else m.board_label


def board_text(state: MatchState, *, translated: bool = True) -> str:
    """The text board (`vwlog.model.state.render`) in the active language: ``str(state)``
    in English, each line looked up in the catalogs otherwise (in English whatever the
    language without ``translated``). Each line goes through `term`, so a name or id on the
    board that carries a line break or an escape sequence stays on its own line, shown. The
    board of a game without views (`vwlog.games.GameRules.views`) is its fields, one
    ``name: JSON value`` line each (`vwlog.games.board_data`)."""
    load = game_of_state(state).views
    views = load() if load is not None else None
    lines = getattr(views, "board_lines", None)
    if lines is None:  # a text board of the game's views' board, or of the board's fields
        data = views.board(state) if views is not None else board_data(state)
        fields = data.items() if isinstance(data, dict) else [("board", data)]
        return "\n".join(term(f"{k}: {json.dumps(v, ensure_ascii=False)}") for k, v in fields)
    return "\n".join(term(say(line) if translated else str(line)) for line in lines(state))


VICTORY_NAMES: dict[str, str] = {
    "MILITARY": N_("military"),
    "POLITICAL": N_("political"),
    "ABSOLUTE": N_("absolute"),
    "CONCESSION": N_("concession"),
    "UNFINISHED": N_("unfinished"),
}
"""How a match ended, as a summary line names it (``victory.lower()`` in English)."""


DECISION_KIND_NAMES: dict[str, str] = {
    "setup": N_("setup"),
    "supply": N_("supply"),
    "deploy": N_("deploy"),
    "stray": N_("Stray"),
    "registration": N_("registration"),
    "attackers": N_("attackers"),
    "declare": N_("declare"),
    "blockers": N_("blockers"),
    "blocks": N_("blocks"),
    "damage": N_("damage"),
    "discard": N_("discard"),
    "priority": N_("priority"),
}
"""The kinds of an awaited decision (``vwlog.rules.expectation.DecisionKind``), as ``next``
names them: the kind itself in English."""


def decision_kind_name(kind: str | None) -> str:
    """The kind of an awaited decision (``priority``) in the active language; an unknown one
    as it is."""
    if kind is None:
        return ""
    name = DECISION_KIND_NAMES.get(kind)
    return _(name) if name is not None else kind


def victory_name(victory: str | None) -> str:
    """A victory type (``MILITARY``) in the active language, lower case in English; an unknown
    one as it is, lower case."""
    if victory is None:
        return ""
    name = VICTORY_NAMES.get(victory)
    return _(name) if name is not None else victory.lower()


def _place_parts(v: Violation, before_phase: str) -> list[str]:
    """The parts of a violation's place: seq, line, turn with ``before_phase`` and the
    phase/step, who held priority (each only where known)."""
    parts: list[str] = []
    if v.seq is not None:
        parts.append(_("seq {seq}").format(seq=v.seq))
    if v.line is not None:
        parts.append(_("line {line}").format(line=v.line))
    if v.turn is not None:
        pos = _("turn {turn}").format(turn=v.turn)
        if v.phase:
            pos += f"{before_phase}{v.phase}" + (f"/{v.step}" if v.step else "")
        parts.append(pos)
    if v.priority:
        parts.append(_("priority {player}").format(player=v.priority))
    return parts


def violation_place(v: Violation) -> str:
    """`Violation.where` in the active language: ``seq 57, line 58, turn 3 COMBAT/C5``."""
    return ", ".join(_place_parts(v, " "))


def violation_lines(v: Violation, indent: str = "  ") -> list[str]:
    """A violation for a terminal: rule id and title, the message, where, expected/actual."""
    deeper = indent + "    "
    lines = [f"{indent}{v.rule}  {rule_title(v.rule)}", f"{deeper}{term(violation_message(v))}"]
    if v.seq is not None or v.line is not None:
        where = _("at {where} ({event})").format(
            where=term(violation_place(v)), event=term(v.event_type)
        )
        lines.append(f"{deeper}{where}")
    if v.expected is not None:
        lines.append(f"{deeper}" + _("expected: {value}").format(value=term(v.expected)))
    if v.actual is not None:
        lines.append(f"{deeper}" + _("actual:   {value}").format(value=term(v.actual)))
    return lines


def validation_text(r: ValidationReport) -> str:
    """A validation for a terminal: the match, every violation, voided stretches, the verdict."""
    players = ", ".join(term(p) for p in r.players) or _("unknown")
    head = _("match {match} · players {players} · ruleset {ruleset}").format(
        match=term(r.match_id), players=players, ruleset=term(r.ruleset or _("unknown"))
    )
    note = house_rules_note(r)
    lines = [f"{term(r.source)}: {head}" + (f" · {note}" if note else "")]
    for v in r.violations:
        lines.extend(violation_lines(v))
    lines.extend(
        "  " + _("voided by a judge's back-up: seq {start}..{end}").format(start=a, end=b)
        for a, b in r.voided
    )
    lines.extend(rests_on_lines(r))
    if verdict(r) is not Verdict.OK and verdict(r) is not Verdict.ILLEGAL:
        # a violation above says why a record is illegal; nothing above says this so plainly
        lines.append("  " + term(reason_line(r)))
    lines.append(f"  {verdict_word(r, 'terminal')} · {validation_summary(r)}")
    return "\n".join(lines)


# -- pieces of a dispute report (plain text: each format escapes them) --------------------


def seat_rows(started: MatchStarted) -> list[tuple[str, str, str, str, str]]:
    """(seat, player, name, team, deck) per seat, as plain text (escape for the format)."""
    return [
        (
            str(i + 1),
            s.player,
            s.name,
            s.team or "",
            counted(len(s.deck), "card")
            + (" + " + _("{count} subdeck").format(count=len(s.subdeck)) if s.subdeck else ""),
        )
        for i, s in enumerate(started.seats)
    ]


def integrity_rows(integrity: Integrity | None) -> list[tuple[str, str]]:
    """What the hash-chain check found, as (label, value) rows."""
    chain = _("Hash chain")
    if integrity is None:
        return [(chain, _("not checked"))]
    if not integrity.sealed:
        return [(chain, _("the record carries no hashes: nothing to verify"))]
    rows = [(_("Head hash"), integrity.head_hash or "")]
    if integrity.broken_reason is None:
        rows.append(
            (chain, _("intact ({records})").format(records=counted(integrity.records, "record")))
        )
    else:
        where = (
            _("seq {seq}, line {line}").format(seq=integrity.broken_seq, line=integrity.broken_line)
            if integrity.broken_seq is not None
            else _("line {line}").format(line=integrity.broken_line)
        )
        rows.append(
            (
                chain,
                _("BROKEN at {where}: {reason}").format(
                    where=where, reason=say(integrity.broken_reason)
                ),
            )
        )
    if integrity.commitments:
        rows.append(
            (
                _("Deck commitments"),
                "; ".join(
                    f"{player}: {_(COMMITMENT_STATUS.get(status, status))}"
                    for player, status in integrity.commitments
                ),
            )
        )
    else:
        rows.append((_("Deck commitments"), _("none committed")))
    return rows


def ruling_title(r: RulingEntry) -> str:
    """A ruling in a few words: ``seq 57: back up to seq 50, by judge-1``."""
    what = r.kind.replace("_", " ").lower()
    if r.kind == RulingKind.BACK_UP:
        what = _("back up to seq {seq}").format(seq=r.back_to)
    if r.kind == RulingKind.GAME_LOSS and r.loser:
        what = _("game loss for {player}").format(player=r.loser)
    return _("seq {seq}: {what}, by {judge}").format(seq=r.seq, what=what, judge=r.judge)


def violation_where(v: Violation) -> str:
    """Where a violation happened, for a report: ``seq 57 · line 58 · turn 3, COMBAT/C5``."""
    parts = _place_parts(v, ", ")
    if v.event_type:
        parts.append(v.event_type)
    return " · ".join(parts)


# -- what a player knows, a diff -------------------------------------------------------------


def hidden_lines(k: Knowledge, *, none_known: bool = False) -> list[str]:
    """What the viewer knows of hidden cards, one line each: every other hand with the cards
    of it they have seen (``, none known`` after a hand of which they know nothing, with
    ``none_known``), then the seen cards that are in a deck now."""
    lines = []
    for p in k.board.players:
        if p.id == k.player:
            continue
        known = [c for c in k.hidden if c.now.zone == "HAND" and c.now.player == p.id]
        text = _("{player}'s hand: {cards}").format(
            player=term(p.id), cards=counted(p.hand_size, "card")
        )
        if known:
            text += _(", known: ") + ", ".join(
                _("{card} ({id}, seen {how} at seq {seq})").format(
                    card=term(c.name), id=term(c.id), how=term(c.how), seq=c.seq
                )
                for c in known
            )
        elif none_known and p.hand_size:
            text += _(", none known")
        lines.append(text)
    decks = [c for c in k.hidden if c.now.zone != "HAND"]
    if decks:
        lines.append(
            _("seen, now in a deck: ")
            + ", ".join(
                _("{card} ({id}) {where}, seen {how} at seq {seq}").format(
                    card=term(c.name),
                    id=term(c.id),
                    where=term(c.where),
                    how=term(c.how),
                    seq=c.seq,
                )
                for c in decks
            )
        )
    return lines


def _side_line(label: str, side: RecordSide) -> str:
    match = " · " + _("match {match}").format(match=term(side.match_id)) if side.match_id else ""
    return f"{label}: {term(side.name)}{match} · {counted(side.events, 'event')}"


def _legality(label: str, event: DiffEvent) -> list[str]:
    if not event.violations:
        return [f"  {label}: " + _("legal")]
    lines = []
    for v in event.violations:
        lines.append(f"  {label}: {v.rule} {rule_title(v.rule)}: {term(violation_message(v))}")
        if v.expected is not None:
            lines.append(
                "     "
                + _("expected {expected}; got {actual}").format(
                    expected=term(v.expected), actual=term(v.actual)
                )
            )
    return lines


def _seqs(a: int, b: int) -> str:
    """``seq 12`` where both records are at one seq, else ``seq 12 in A, seq 14 in B``."""
    if a == b:
        return _("seq {seq}").format(seq=a)
    return _("seq {a} in A, seq {b} in B").format(a=a, b=b)


def diff_text(report: DiffReport, *, then: int = 5) -> str:
    """The diff for people, in the active language: where the records part, which event is
    legal, what differs."""
    lines = [_side_line("A", report.a), _side_line("B", report.b)]
    if report.outcome == "identical":
        lines.append(_("identical: {events}").format(events=counted(report.common, "event")))
    elif report.outcome == "prefix":
        lines += _prefix_lines(report, then)
    else:
        lines += _divergence_lines(report, then)
    return "\n".join(lines)


def _prefix_lines(report: DiffReport, then: int) -> list[str]:
    """How the longer record goes on past the shorter one's end."""
    short, long_ = ("A", "B") if report.longer == "B" else ("B", "A")
    longer = report.b if long_ == "B" else report.a
    more = longer.events - report.common
    lines = [
        _("{short} ends at seq {seq}; {long} continues with {events}:").format(
            short=short, seq=report.common, long=long_, events=counted(more, "more event")
        )
    ]
    for e in report.continuation[:then]:
        flag = "" if not e.violations else f"  [{', '.join(v.rule for v in e.violations)}]"
        lines.append(f"  {e.seq:>6}  {term(event_text(e))}{flag}")
    if more > then:
        lines.append("  …")
    return lines


def _divergence_lines(report: DiffReport, then: int) -> list[str]:
    """Where the records part, each event judged, and where they agree again."""
    d = report.divergence
    assert d is not None
    position = term(say(d.position_said) if d.position_said is not None else d.position)
    lines = [
        _("diverge at seq {seq}, after {events} ({position})").format(
            seq=d.seq, events=counted(report.common, "common event"), position=position
        ),
        f"  A {d.a.seq}: {term(event_text(d.a))}",
        f"  B {d.b.seq}: {term(event_text(d.b))}",
        _("legality from the common prefix:"),
        *_legality("A", d.a),
        *_legality("B", d.b),
    ]
    for label, note in (("A", d.altered_a), ("B", d.altered_b)):
        if note:
            lines.append(
                _("integrity: in {label}, {note}").format(label=label, note=term(say(note)))
            )
    if d.agree_again is not None:
        lines.append(
            _("the records agree again from {where}; until then:").format(
                where=_seqs(*d.agree_again)
            )
        )
        if d.part_again is not None:
            lines.append(
                _("the records differ again from {where} (compare them from there)").format(
                    where=_seqs(*d.part_again)
                )
            )
    else:
        lines.append(_("the records do not agree again within the window; from the divergence:"))
    stretch_a, stretch_b = d.stretch
    for label, events in (("A", stretch_a), ("B", stretch_b)):
        if not events:
            lines.append(f"  {label}: " + _("nothing (the other record's events are missing here)"))
        for k, e in enumerate(events[:then]):
            lead = f"  {label}:" if k == 0 else "    "
            lines.append(f"{lead} {e.seq:>5}  {term(event_text(e))}")
        if len(events) > then:
            lines.append(
                "     "
                + _("… {count} more to seq {seq}").format(
                    count=len(events) - then, seq=events[-1].seq
                )
            )
    return lines + _board_lines(d)


def _board_lines(d: Divergence) -> list[str]:
    """What differs on the two boards, each difference with when it holds."""
    span = _seqs(*d.window_end)
    lines = [_("what differs on the board (followed to {span}):").format(span=span)]
    if not d.differences:
        lines.append("  " + _("nothing"))
    settle = (
        _("when the records agree again")
        if d.agree_again is not None
        else _("right after seq {seq}").format(seq=d.seq)
    )
    for diff in d.differences:
        tail = ""
        if diff.subject != "card":
            tail = (
                f" ({settle})"
                if diff.when == "after"
                else " (" + _("at {span}").format(span=span) + ")"
            )
        lines.append(f"  - {term(difference_text(diff))}{tail}")
    return lines


def rests_on_lines(report: ValidationReport) -> list[str]:
    """Text lines: what the verdict rests on (indented, for a judge), in the active language."""
    i = report.integrity
    if i is None:
        return []
    head = _("rests on:")
    pad = " " * len(head)
    lines = [
        f"  {head} " + _("pool {pool}").format(pool=term(say(i.pool))),
        f"  {pad} " + _("ruleset {ruleset}").format(ruleset=term(say(i.ruleset))),
        f"  {pad} "
        + _("chain {chain} · {seal}").format(chain=term(say(i.chain)), seal=term(say(i.seal))),
        f"  {pad} " + _("signatures {signatures}").format(signatures=term(signatures_text(i))),
        f"  {pad} "
        + _("trusted effects: {summary}").format(summary=trusted_summary(report.trusted)),
    ]
    lines += [
        f"      {t.seq:>6}  {term(t.card or '?')} {term(t.skill or '?')} "
        + ngettext("({count} effect)", "({count} effects)", t.effects).format(count=t.effects)
        for t in report.trusted[:20]
    ]
    if len(report.trusted) > 20:
        lines.append(
            "      "
            + _("… and {count} more (all of them in the JSON output)").format(
                count=len(report.trusted) - 20
            )
        )
    lines += [
        "  " + _("WARNING: {text}").format(text=term(say(w)))
        for w in i.warnings
        if not w[0].isdigit()
    ]
    lines += ["  " + _("INTEGRITY: {text}").format(text=term(say(p))) for p in i.problems]
    return lines
