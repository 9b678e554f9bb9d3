"""The dispute report of a match of any game (`vwlog.audit.gamereport.GameReport`), as
Markdown and as one self-contained HTML page.

Everything comes from the game's rules (`vwlog.games.GameRules`): a rule's title from its
``catalog``, the seed's original sentences and section from its ``entries``, the events in its
``views``' sentences, the board through its ``views`` (the text board, `board_text`). Whatever
a log carries (a match id, a player or card name, a value of the ruleset) is escaped: `md` and
`md_code` in Markdown, where a board goes into a fenced block it cannot close; `e` in HTML.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from vwlog.audit.gamereport import flag_table
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import ngettext, say
from vwlog.render.html import BASE_CSS, e, page
from vwlog.render.markdown import _md_block, md, md_code, md_integrity_and_validation
from vwlog.render.text import (
    board_text,
    counted,
    integrity_rows,
    validation_summary,
    violation_message,
    violation_where,
)
from vwlog.render.trust import rests_on, verdict_word

if TYPE_CHECKING:
    from vwlog.audit.gamereport import GameFlag, GameLine, GameMoment, GameReport
    from vwlog.engine.replay import ValidationReport
    from vwlog.games import GameRules, RuleEntry
    from vwlog.model.violation import Violation

__all__ = ["game_report_html", "game_report_markdown", "game_rule_title"]


def game_rule_title(game: GameRules, rule: str) -> str:
    """The title ``game``'s catalog gives ``rule``, in the active language (empty if its
    catalog has none)."""
    entry = game.entries.get(rule)
    title = entry.title if entry is not None else game.catalog.get(rule, "")
    return _(title) if title else ""


def _original(game: GameRules, rule: str) -> tuple[RuleEntry | None, str]:
    """The catalog entry of ``rule`` and the label of its original sentences (``""``: the
    catalog quotes none)."""
    entry = game.entries.get(rule)
    if entry is None or not entry.original:
        return entry, ""
    if entry.section:
        return entry, _("The seed's original words ({section}):").format(section=entry.section)
    return entry, _("The seed's original words:")


def _said(line: GameLine) -> str:
    return say(line.said) if not isinstance(line.said, str) else line.said


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _result(report: GameReport) -> str:
    r = report.validation
    judged = r.judgement
    if judged is not None and not judged.intact and judged.claimed_winner:
        won = _("no winner: the record is not intact (it names {winner})").format(
            winner=judged.claimed_winner
        )
    elif r.winner:
        won = _("won by {winner} ({victory})").format(winner=r.winner, victory=r.victory)
    else:
        won = _("no winner")
    return _("{result} after {turns}").format(result=won, turns=counted(r.turns, "turn"))


def _flag_note(report: GameReport, v: Violation) -> str:
    """What the verdict rests on among the ruleset's flags: ``flag = value (default …)``."""
    if v.flag is None:
        return ""
    row = next((f for f in flag_table(report.game, report.ruleset) if f.name == v.flag), None)
    if row is None:
        return _("rests on the flag {flag}").format(flag=v.flag)
    how = _("set so") if row.changed else _("by default")
    return _("rests on the flag {flag} = {value} ({how})").format(
        flag=v.flag, value=_value(row.value), how=how
    )


# -- Markdown -----------------------------------------------------------------------------------


def _md_flag(f: GameFlag, *, meaning: bool = False) -> str:
    cells = [
        md_code(f.name, in_table=True),
        md_code(_value(f.value), in_table=True),
        md_code(_value(f.default), in_table=True),
    ]
    if meaning:
        cells.append(md(f.meaning))
    return f"| {' | '.join(cells)} |"


def _md_ruleset(report: GameReport) -> list[str]:
    rs = report.ruleset
    rows = flag_table(report.game, rs)
    changed = [f for f in rows if f.changed]
    out = [_("## Ruleset"), "", f"{md_code(f'{rs.id}@{rs.version}')}: "]
    if changed:
        out[-1] += ngettext(
            "{flags} differs from the defaults.", "{flags} differ from the defaults.", len(changed)
        ).format(flags=counted(len(changed), "flag"))
        out += ["", _("| Flag | Value | Default |"), "|---|---|---|", *map(_md_flag, changed)]
    else:
        out[-1] += _("every flag at its default.")
    if rows:
        out += ["", "<details><summary>" + _("All flags") + "</summary>", ""]
        out += [_("| Flag | Value | Default | Meaning |"), "|---|---|---|---|"]
        out += [_md_flag(f, meaning=True) for f in rows]
        out += ["", "</details>"]
    return [*out, ""]


def _md_events(m: GameMoment) -> list[str]:
    lines = [_("| Seq | | Event |"), "|---:|---|---|"]
    for x in [*m.before, m.event, *m.after]:
        mark = md("⚠ " + ", ".join(x.rules)) if x.rules else ""
        text = md(_said(x))
        if x.seq == m.seq:
            lines.append(f"| **{x.seq}** | {mark} | **{text}** |")
        else:
            lines.append(f"| {x.seq} | {mark} | {text} |")
    return lines


def _md_rule(report: GameReport, rule: str) -> list[str]:
    entry, label = _original(report.game, rule)
    if entry is None or not label:
        return []
    return [label, "", *(f"> {md(o)}" for o in entry.original), ""]


def _md_violations(report: GameReport) -> list[str]:
    r = report.validation
    if not r.violations:
        return []
    out = [_("## Violations ({count})").format(count=len(r.violations)), ""]
    for i, m in enumerate(report.moments, 1):
        for v in m.violations:
            out += [f"### {i}. {md(v.rule)}: {md(game_rule_title(report.game, v.rule))}", ""]
            out += _md_rule(report, v.rule)
            out.append(f"- {md(violation_where(v))}")
            out.append(f"- {md(violation_message(v))}")
            if v.expected is not None:
                out.append(
                    _("- Expected {expected}, the log has {actual}").format(
                        expected=md_code(v.expected), actual=md_code(v.actual)
                    )
                )
            note = _flag_note(report, v)
            if note:
                out.append(f"- {md(note)}")
            out.append("")
        out += [_("Board {label}:").format(label=md(say(m.label))), ""]
        out += [*_md_block(board_text(m.board)), ""]
        out += [*_md_events(m), ""]
    shown = sum(len(m.violations) for m in report.moments)
    if shown < len(r.violations):
        out += [_("| Rule | Title | Where | Message |"), "|---|---|---|---|"]
        for v in r.violations[shown:]:
            out.append(
                f"| {md(v.rule)} | {md(game_rule_title(report.game, v.rule))} | "
                f"{md(violation_where(v))} | {md(violation_message(v))} |"
            )
        out.append("")
    return out


def game_report_markdown(report: GameReport) -> str:
    """The report as one Markdown document (boards as text)."""
    r, header, game = report.validation, report.header, report.game
    out = [_("# Dispute report: match {match}").format(match=md_code(report.match_id)), ""]
    out += [_("Source: {source}").format(source=md_code(report.source)), ""]
    out += [_("## Match"), "", "| | |", "|---|---|"]
    out.append(_("| Game | {name} ({game}) |").format(name=md(game.name), game=md_code(game.id)))
    out.append(_("| Match id | {match} |").format(match=md_code(report.match_id, in_table=True)))
    if header is not None and header.created:
        out.append(_("| Created | {created} |").format(created=md(header.created)))
    if header is not None and header.generator:
        out.append(_("| Written by | {generator} |").format(generator=md(header.generator)))
    players = ", ".join(md(p) for p in game.summary(report.final).players)
    out.append(_("| Players | {players} |").format(players=players))
    out += [_("| Result | {result} |").format(result=md(_result(report))), ""]
    out += _md_ruleset(report)
    out += md_integrity_and_validation(report.integrity, r)
    out.append("")
    out += _md_violations(report)
    if report.at is not None:
        m = report.at
        out += [_("## Position at seq {seq}").format(seq=m.seq), ""]
        out += [_("Board {label}:").format(label=md(say(m.label))), ""]
        out += [*_md_block(board_text(m.board)), ""]
        out += [_("Events around seq {seq}:").format(seq=m.seq), "", *_md_events(m), ""]
    return "\n".join(out).rstrip() + "\n"


# -- HTML ---------------------------------------------------------------------------------------


def _html_table(head: list[str], rows: list[list[Markup]]) -> str:
    th = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _html_events(m: GameMoment) -> str:
    rows = []
    for x in [*m.before, m.event, *m.after]:
        mark = e("⚠ " + ", ".join(x.rules)) if x.rules else Markup("")
        text = e(_said(x))
        if x.seq == m.seq:
            text = Markup(f"<strong>{text}</strong>")
        rows.append([e(x.seq), mark, text])
    return _html_table([_("Seq"), "", _("Event")], rows)


def _html_board(m: GameMoment) -> str:
    label = _("Board {label}:").format(label=say(m.label))
    return f'<p>{e(label)}</p><pre class="board">{e(board_text(m.board))}</pre>'


def _html_violation(report: GameReport, i: int, v: Violation) -> str:
    title = f"{i}. {v.rule}: {game_rule_title(report.game, v.rule)}"
    parts = [f'<h3 data-rule="{e(v.rule)}">{e(title)}</h3>']
    entry, label = _original(report.game, v.rule)
    if entry is not None and label:
        said = "".join(f"<p>{e(o)}</p>" for o in entry.original)
        parts.append(f'<p>{e(label)}</p><blockquote class="rule original">{said}</blockquote>')
    items = [violation_where(v), violation_message(v)]
    if v.expected is not None:
        items.append(
            _("Expected {expected}, the log has {actual}").format(
                expected=v.expected, actual=v.actual
            )
        )
    note = _flag_note(report, v)
    if note:
        items.append(note)
    parts.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in items) + "</ul>")
    return "".join(parts)


def _html_ruleset(report: GameReport) -> str:
    rs = report.ruleset
    rows = flag_table(report.game, rs)
    changed = [f for f in rows if f.changed]
    label = e(f"{rs.id}@{rs.version}")
    if changed:
        said = ngettext(
            "{flags} differs from the defaults.", "{flags} differ from the defaults.", len(changed)
        ).format(flags=counted(len(changed), "flag"))
    else:
        said = _("every flag at its default.")
    out = f"<h2>{e(_('Ruleset'))}</h2><p><code>{label}</code>: {e(said)}</p>"
    cells = [[e(f.name), e(_value(f.value)), e(_value(f.default)), e(f.meaning)] for f in rows]
    if rows:
        out += f"<details><summary>{e(_('All flags'))}</summary>"
        out += (
            _html_table([_("Flag"), _("Value"), _("Default"), _("Meaning")], cells) + "</details>"
        )
    return out


def _html_rests(verdict: ValidationReport) -> str:
    rests = rests_on(verdict)
    if rests is None:
        return ""
    items = [f"<li>{e(label)}: {e(value)}</li>" for label, value in rests.rows]
    items += [f"<li>{e(item)}</li>" for item in rests.trusted]
    items += [f"<li><strong>{e(label)}:</strong> {e(value)}</li>" for label, value in rests.notes]
    return f"<h2>{e(rests.title)}</h2><ul>{''.join(items)}</ul>"


def game_report_html(report: GameReport, verdict: ValidationReport | None = None) -> str:
    """The report as one self-contained HTML page (inline CSS, no script, nothing fetched);
    boards are the game's text boards. With ``verdict``, the page opens with what that verdict
    rests on."""
    r, game = report.validation, report.game
    judged = verdict if verdict is not None else r
    title = _("Dispute report: {match}").format(match=report.match_id)
    parts = [
        f"<h1>{e(title)}</h1>",
        f"<p>{e(_('Source: {source}').format(source=report.source))}</p>",
    ]
    parts.append(f'<p class="verdict"><strong>{e(verdict_word(judged, "document"))}</strong></p>')
    if verdict is not None:
        parts.append(_html_rests(verdict))
    rows = [[e(_("Game")), e(f"{game.name} ({game.id})")], [e(_("Match id")), e(report.match_id)]]
    header = report.header
    if header is not None and header.created:
        rows.append([e(_("Created")), e(header.created)])
    if header is not None and header.generator:
        rows.append([e(_("Written by")), e(header.generator)])
    rows.append([e(_("Players")), e(", ".join(game.summary(report.final).players))])
    rows.append([e(_("Result")), e(_result(report))])
    parts += [f"<h2>{e(_('Match'))}</h2>", _html_table(["", ""], rows), _html_ruleset(report)]
    integrity = [[e(k), e(v)] for k, v in integrity_rows(report.integrity)]
    parts += [f"<h2>{e(_('Integrity'))}</h2>", _html_table(["", ""], integrity)]
    parts += [f"<h2>{e(_('Validation'))}</h2>", f"<p>{e(validation_summary(r))}</p>"]
    if r.violations:
        parts.append(f"<h2>{e(_('Violations ({count})').format(count=len(r.violations)))}</h2>")
        for i, m in enumerate(report.moments, 1):
            parts += [_html_violation(report, i, v) for v in m.violations]
            parts += [_html_board(m), _html_events(m)]
    if report.at is not None:
        m = report.at
        parts += [f"<h2>{e(_('Position at seq {seq}').format(seq=m.seq))}</h2>"]
        parts += [_html_board(m), _html_events(m)]
    css = BASE_CSS + "pre.board{background:#fff;border:1px solid #d5d9e0;padding:6px}\n"
    return page(title, Markup("\n".join(parts)), css=css)
