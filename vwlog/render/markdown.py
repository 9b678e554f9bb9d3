"""Markdown documents: a validation, the events a back-up voided, a dispute report.

Whatever a log carries (a match id, a player or card name, a judge's note, a message naming
them) is escaped with `md` before it enters Markdown: the characters that Markdown or the HTML
a Markdown viewer renders would read as syntax (``<``, ``>``, ``&``, ``*``, ``_``, backticks,
brackets, ``|``, ...) are escaped, line breaks become spaces, and control and bidi characters are
made visible (`vwlog.render.text.term`); `md_code` puts a value in a code span that it cannot
leave. A crafted name therefore shows as the text it is: no ``<script>``, ``<img onerror>`` or
``<svg onload>`` reaches a viewer, no link or emphasis is forged.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from vwlog.audit.report import flag_rows
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import ngettext
from vwlog.model.types import RulingKind
from vwlog.model.verdict import Verdict
from vwlog.render.flagtext import flag_meaning
from vwlog.render.rules import original_beside, rule_text, rule_title
from vwlog.render.text import (
    board_label,
    board_text,
    counted,
    event_text,
    hidden_lines,
    integrity_rows,
    ruling_title,
    seat_rows,
    term,
    validation_summary,
    violation_message,
    violation_where,
    visible,
)
from vwlog.render.trust import (
    house_rules_note,
    reason_line,
    rests_on,
    verdict,
    verdict_line,
    verdict_word,
)

if TYPE_CHECKING:
    from vwlog.audit.knowledge import Knowledge
    from vwlog.audit.report import DisputeReport, FlagRow, Integrity, Moment
    from vwlog.engine.replay import ValidationReport
    from vwlog.events import MatchStarted


__all__ = [
    "md",
    "md_code",
    "md_integrity_and_validation",
    "report_markdown",
    "rests_on_markdown",
    "validation_markdown",
    "voided_markdown",
    "with_rests_on",
]

_META = re.compile(r"([\\`*_\[\]|~])")
_LEADING = re.compile(r"^(\s*|\s*\d+)([#+\-=]|(?<=\d)[.)])")
_BACKTICKS = re.compile(r"`+")
_UNSAFE_IN_CODE = re.compile(r"[<>&`]")


def md(text: object) -> str:
    """``text`` as literal Markdown inline text, safe in a paragraph, a list or a table cell."""
    out = term(text).replace("\\x0a", " ").replace("\\x0d", " ")
    out = out.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = _META.sub(r"\\\1", out)
    return _LEADING.sub(r"\1\\\2", out)


def md_code(text: object, *, in_table: bool = False) -> str:
    """``text`` as a Markdown code span (shown verbatim, never read as Markdown); a value that
    holds ``<``, ``>``, ``&`` or a backtick is written as escaped text instead (`md`), so that
    no raw HTML reaches a viewer that does not follow CommonMark. ``in_table`` escapes ``|``,
    which would end a table cell even in a code span."""
    value = term(text)
    if _UNSAFE_IN_CODE.search(value):
        return md(text)
    if in_table:
        value = value.replace("|", "\\|")
    return f"`{value}`"


def _md_block(text: str, info: str = "text") -> list[str]:
    """``text`` as a fenced code block, with a fence it cannot close (its lines made already,
    each value in them through `term`, so that none starts a line of the document)."""
    shown = visible(text)
    runs = [len(r) for r in _BACKTICKS.findall(shown)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return [f"{fence}{info}", shown, fence]


def validation_markdown(r: ValidationReport) -> str:
    """One validation as a Markdown section: the match, the verdict, a table of violations."""
    word = verdict_word(r, "document")
    note = house_rules_note(r)
    lines = [
        _("## Match {match}").format(match=md_code(r.match_id))
        + (f" — {md(note)}" if note else ""),
        "",
        _("- Source: {source}").format(source=md_code(r.source)),
        _("- Players: {players}").format(players=", ".join(md(p) for p in r.players)),
        _("- Ruleset: {ruleset}").format(ruleset=md_code(r.ruleset)),
        _("- Verdict: **{verdict}**").format(verdict=md(word)),
        *([] if verdict(r) is Verdict.OK else [f"- {md(reason_line(r))}"]),
        _("- Summary: {summary}").format(summary=md(validation_summary(r))),
        "",
        *rests_on_markdown(r),
    ]
    if r.violations:
        lines += [
            _("| Rule | Title | Seq | Line | Turn | Phase/step | Priority | Message |"),
            "|---|---|---|---|---|---|---|---|",
        ]
        for v in r.violations:
            pos = f"{v.phase or ''}{'/' + v.step if v.step else ''}"
            msg = md(violation_message(v))
            if v.expected is not None:
                msg += " " + _("(expected {expected}, actual {actual})").format(
                    expected=md_code(v.expected, in_table=True),
                    actual=md_code(v.actual, in_table=True),
                )
            lines.append(
                f"| {v.rule} | {md(rule_title(v.rule))} | {v.seq} | {v.line} | {v.turn} | "
                f"{md(pos)} | {md(v.priority or '')} | {msg} |"
            )
        lines.append("")
    voided = voided_markdown(r)
    if voided:
        lines += [voided, ""]
    return "\n".join(lines)


def voided_markdown(report: ValidationReport) -> str:
    """The events a judge's back-up voided, as a Markdown list (empty when none): for
    ``vwlog validate --format markdown``, beside its violation table."""
    if not report.voided:
        return ""
    lines = [
        _(
            "Voided by judges' back-ups (the events stay in the log; play went on from the "
            "restored board):"
        ),
        "",
    ]
    for start, end in report.voided:
        lines.append(
            _("- seq {start}..{end} ({events})").format(
                start=start, end=end, events=counted(end - start + 1, "event")
            )
        )
    return "\n".join(lines) + "\n"


def _md_rule_text(rule: str) -> list[str]:
    """A rule's digest text as a Markdown block quote and a blank line (nothing if unknown)."""
    text = rule_text(rule)
    if not text:
        return []
    out = [*(f"> {line}" for line in text.split("\n")), ""]
    label, original = original_beside(rule)
    if original:
        out += [label, "", *(f"> {line}" for line in original.split("\n")), ""]
    return out


def _md_events(report: DisputeReport, m: Moment) -> list[str]:
    lines = [_("| Seq | | Event |"), "|---:|---|---|"]
    for e in [*m.before, m.event, *m.after]:
        marks = []
        if e.rules:
            marks.append("⚠ " + ", ".join(e.rules))
        voided = report.voided_by(e.seq)
        if voided is not None:
            marks.append(_("voided (seq {seq})").format(seq=voided))
        seq = f"**{e.seq}**" if e.seq == m.seq else str(e.seq)
        text = f"**{md(event_text(e))}**" if e.seq == m.seq else md(event_text(e))
        lines.append(f"| {seq} | {md(' · '.join(marks))} | {text} |")
    return lines


def _md_knowledge(k: Knowledge) -> list[str]:
    me = next((p for p in k.board.players if p.id == k.player), None)
    hand = ", ".join(f"{md(c.name)} ({md(c.id)})" for c in (me.hand or [])) if me else ""
    lines = [
        _("#### What {player} could know").format(player=md(k.player)),
        "",
        _("- Own hand ({count}): {cards}").format(
            count=me.hand_size if me else 0, cards=hand or _("empty")
        ),
    ]
    seen = _("seen, now in a deck: ")
    capital = seen[:1].upper() + seen[1:]
    lines += [f"- {md(line.replace(seen, capital, 1))}" for line in hidden_lines(k)]
    own = sum(1 for c in k.seen if not c.public)
    lines.append(
        _(
            "- Cards seen so far: {seen} ({own} only in their own hand, {public} in public zones)"
        ).format(seen=len(k.seen), own=own, public=len(k.seen) - own)
    )
    lines.append("")
    return lines


def _flag_row(f: FlagRow, *, meaning: bool = False) -> str:
    """A flag as a table row: name, question, value, default (and meaning)."""
    cells = [
        md_code(f.name, in_table=True),
        f.question,
        md_code(f.value, in_table=True),
        md_code(f.default, in_table=True),
    ]
    if meaning:
        cells.append(md(flag_meaning(f.meaning)))
    return f"| {' | '.join(cells)} |"


def _md_ruleset(started: MatchStarted) -> list[str]:
    """The ruleset: the flags that differ from the defaults, and every flag, folded."""
    out: list[str] = []
    rows = flag_rows(started.ruleset)
    changed = [f for f in rows if f.changed]
    rs = started.ruleset
    out += [_("## Ruleset"), "", f"{md_code(f'{rs.id}@{rs.version}')}: "]
    if changed:
        out[-1] += ngettext(
            "{flags} differs from the defaults.", "{flags} differ from the defaults.", len(changed)
        ).format(flags=counted(len(changed), "flag"))
        out += ["", _("| Flag | Question | Value | Default |"), "|---|---|---|---|"]
        out += [_flag_row(f) for f in changed]
    else:
        out[-1] += _("every flag at its default.")
    out += ["", "<details><summary>" + _("All flags") + "</summary>", ""]
    out += [_("| Flag | Question | Value | Default | Meaning |"), "|---|---|---|---|---|"]
    out += [_flag_row(f, meaning=True) for f in rows]
    out += ["", "</details>", ""]
    return out


def _md_violations(report: DisputeReport) -> list[str]:
    """Every violation: rule text, where, the board and the events around it; the ones past
    `DETAILED_VIOLATIONS` in a table."""
    r = report.validation
    out: list[str] = []
    if not r.violations:
        return out
    out += [_("## Violations ({count})").format(count=len(r.violations)), ""]
    for i, m in enumerate(report.moments, 1):
        for v in m.violations:
            out.append(f"### {i}. {v.rule}: {md(rule_title(v.rule))}")
            out += [
                "",
                *_md_rule_text(v.rule),
                f"- {md(violation_where(v))}",
                f"- {md(violation_message(v))}",
            ]
            if v.expected is not None:
                out.append(
                    _("- Expected {expected}, found {actual}").format(
                        expected=md_code(v.expected), actual=md_code(v.actual)
                    )
                )
            if v.flag:
                out.append(_("- Decided by the ruleset flag {flag}").format(flag=md_code(v.flag)))
            voided = report.voided_by(m.seq)
            if voided is not None:
                out.append(_("- Voided by the judge's back-up at seq {seq}").format(seq=voided))
            out.append("")
        out += [
            _("Board {label}:").format(label=board_label(m)),
            "",
            *_md_block(board_text(m.board)),
            "",
        ]
        out += [_("Events around seq {seq}:").format(seq=m.seq), ""]
        out += [*_md_events(report, m), ""]
    rest = [v for v in r.violations if v.seq not in {m.seq for m in report.moments}]
    if rest:
        out += [
            _("{violations} (without boards):").format(
                violations=counted(len(rest), "more violation")
            ),
            "",
        ]
        out += [_("| Rule | Title | Seq | Message |"), "|---|---|---:|---|"]
        out += [
            f"| {v.rule} | {md(rule_title(v.rule))} | {v.seq} | {md(violation_message(v))} |"
            for v in rest
        ]
        out += ["", _("The rules they break:"), ""]
        for rid in dict.fromkeys(v.rule for v in rest):
            head, *more = rule_text(rid).split("\n")
            out.append(f"- **{rid}** ({md(rule_title(rid))}): {head}")
            out += [f"  {line}" for line in more]
        out.append("")
    return out


def _md_rulings(report: DisputeReport) -> list[str]:
    """The judges' rulings, with the events a back-up voided."""
    out: list[str] = []
    if not report.rulings:
        out += [_("None."), ""]
    for ruling in report.rulings:
        out += [f"### {md(ruling_title(ruling))}", "", f"> {md(ruling.reason)}", ""]
        if ruling.voids is not None:
            start, end = ruling.voids
            out += [
                _("Voided seq {start}..{end}; play goes on from the board after seq {seq}:").format(
                    start=start, end=end, seq=ruling.back_to
                ),
                "",
            ]
            out += [_("| Seq | Voided event |"), "|---:|---|"]
            out += [f"| {e.seq} | ~~{md(event_text(e))}~~ |" for e in ruling.voided]
            if ruling.unlisted:
                unlisted = _("{events} not listed").format(
                    events=counted(ruling.unlisted, "earlier event")
                )
                out.append(f"| … | {unlisted} |")
            out.append("")
        elif ruling.kind == RulingKind.BACK_UP:
            out += [_("The back-up names no recent priority point: nothing was voided."), ""]
    return out


def md_integrity_and_validation(integrity: Integrity | None, r: ValidationReport) -> list[str]:
    """A report's sections on its hash chain and its verdict (up to the ruleset judged under)."""
    head_hash = _("Head hash")
    out = [_("## Integrity"), ""]
    out += [
        f"- {k}: {md(v) if k != head_hash else md_code(v)}" for k, v in integrity_rows(integrity)
    ]
    out += ["", _("## Validation"), ""]
    out.append(_("- Verdict: **{verdict}**").format(verdict=md(verdict_word(r, "document"))))
    out.append(f"- {md(validation_summary(r))}")
    out.append(_("- Ruleset judged under: {ruleset}").format(ruleset=md_code(r.ruleset)))
    return out


def report_markdown(report: DisputeReport) -> str:
    """The report as one Markdown document (boards as text)."""
    r = report.validation
    out: list[str] = [
        _("# Dispute report: match {match}").format(match=md_code(report.match_id)),
        "",
    ]
    out += [_("Source: {source}").format(source=md_code(report.source)), ""]
    out += [_("## Match"), "", "| | |", "|---|---|"]
    header = report.header
    out.append(_("| Match id | {match} |").format(match=md_code(report.match_id, in_table=True)))
    if header is not None and header.created:
        out.append(_("| Created | {created} |").format(created=md(header.created)))
    if header is not None and header.generator:
        out.append(_("| Written by | {generator} |").format(generator=md(header.generator)))
    started = report.started
    if started is not None:
        fmt = started.format.value.replace("_", " ").title()
        out.append(_("| Format | {format} |").format(format=fmt))
        out.append(_("| First player | {player} |").format(player=md(started.first_player)))
        out.append(_("| Card pool | {count} definitions |").format(count=len(started.cards)))
    judged = r.judgement
    if judged is not None and not judged.intact and judged.claimed_winner:
        won = _("no winner: the record is not intact (it names {winner})").format(
            winner=md(judged.claimed_winner)
        )
    elif r.winner:
        won = _("won by {winner} ({victory})").format(winner=md(r.winner), victory=r.victory)
    else:
        won = _("no winner")
    result = _("{result} after {turns}").format(result=won, turns=counted(r.turns, "turn"))
    out += [_("| Result | {result} |").format(result=result), ""]
    if started is not None:
        out += [_("| Seat | Player | Name | Team | Deck |"), "|---:|---|---|---|---|"]
        out += [f"| {' | '.join(md(x) for x in row)} |" for row in seat_rows(started)]
        out.append("")
        out += _md_ruleset(started)
    out += md_integrity_and_validation(report.integrity, r)
    for start, end in r.voided:
        out.append(
            _("- Voided by a judge's back-up: seq {start}..{end}").format(start=start, end=end)
        )
    out.append("")
    out += _md_violations(report)
    out += [_("## Judge rulings"), "", *_md_rulings(report)]
    if report.at is not None:
        m = report.at
        out += [_("## Position at seq {seq}").format(seq=m.seq), ""]
        out += [_("Board {label}:").format(label=board_label(m)), ""]
        out += [*_md_block(board_text(m.board)), ""]
        out += [_("Events around seq {seq}:").format(seq=m.seq), "", *_md_events(report, m), ""]
        for k in report.knowledge.values():
            out += _md_knowledge(k)
    return "\n".join(out).rstrip() + "\n"


def rests_on_markdown(report: ValidationReport, *, level: str = "###") -> list[str]:
    """Markdown lines: what the verdict rests on, in the active language."""
    rests = rests_on(report)
    if rests is None:
        return []
    lines = [f"{level} {rests.title}", ""]
    for label, value in rests.rows[:2]:
        lines.append(f"- {label}: {md(value)}")
    (chain, chained), (seal, sealed) = rests.rows[2:4]
    lines.append(f"- {chain}: {md(chained)}; {seal.lower()}: {md(sealed)}")
    for label, value in rests.rows[4:]:
        lines.append(f"- {label}: {md(value)}")
    lines += [f"  - {md(item)}" for item in rests.trusted]
    lines += [f"- **{label}:** {md(value)}" for label, value in rests.notes]
    return [*lines, ""]


def with_rests_on(document: str, report: ValidationReport) -> str:
    """A Markdown dispute report with the verdict and what it rests on at the top (after its
    title)."""
    title, sep, rest = document.partition("\n\n")
    note = house_rules_note(report)
    if note:
        title = f"{title} — {md(note)}"
    top = [
        f"**{md(verdict_line(report))}**",
        "",
        md(reason_line(report)),
        "",
        *rests_on_markdown(report, level="##"),
    ]
    section = "\n".join(top)
    return f"{title}{sep}{section}\n{rest}" if sep else document + "\n" + section
