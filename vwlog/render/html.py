"""HTML pages through Jinja2 templates (``vwlog/render/templates/``), with autoescaping.

Both HTML documents vwlog writes, the dispute report (`report_html`) and the statistics page
(`vwlog.render.statspage.render_html`), extend one base layout (``base.html.j2``). Autoescaping
is on for every template, so whatever a log carries is escaped; before escaping, every value
goes through `vwlog.render.text.visible`, so control characters (ESC, BEL, NUL, C1) and bidi
overrides that reach a page are shown as backslash escapes rather than passed to the browser.
The pages need no script and nothing from the network.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from vwlog.audit.report import flag_rows
from vwlog.games.vw.describe import board_view
from vwlog.games.vw.spots import position_said
from vwlog.io.i18n import active_language, gettext, ngettext, say
from vwlog.model.verdict import Verdict
from vwlog.render.flagtext import flag_meaning
from vwlog.render.rules import original_beside, rule_text, rule_title
from vwlog.render.text import (
    board_label,
    counted,
    event_text,
    integrity_rows,
    ruling_title,
    seat_rows,
    validation_summary,
    violation_message,
    violation_where,
    visible,
)
from vwlog.render.trust import house_rules_note, rests_on, verdict_word
from vwlog.render.trust import verdict as verdict_of

if TYPE_CHECKING:
    from vwlog.audit.report import DisputeReport
    from vwlog.engine.replay import ValidationReport
    from vwlog.model.state import MatchState

__all__ = ["BASE_CSS", "board_html", "e", "environment", "page", "report_html"]

BASE_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;
  max-width:1240px;padding:0 16px;color:#1d2330;background:#f6f7f9}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;
  border-bottom:2px solid #d5d9e0;padding-bottom:3px}h3{font-size:16px;margin:18px 0 6px}
h4{margin:12px 0 4px}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eceff3;padding:0 3px;
  border-radius:3px}
table{border-collapse:collapse;margin:6px 0;background:#fff}
th,td{border:1px solid #d5d9e0;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eceff3}
.ok{color:#2b8a3e;font-weight:700}.bad{color:#c92a2a;font-weight:700}
.violation{border-left:4px solid #c92a2a;background:#fff;padding:6px 12px;margin:14px 0}
.ruling{border-left:4px solid #5f3dc4;background:#fff;padding:6px 12px;margin:14px 0}
.reason{font-style:italic;color:#495057}
blockquote.rule{margin:6px 0 8px;padding:2px 12px;border-left:3px solid #adb5bd;
  background:#f8f9fa;color:#343a40}blockquote.rule p{margin:4px 0}
blockquote.rule ul{margin:2px 0 4px 18px;padding:0}dd{margin:0 0 8px 16px}
tr.focus td{background:#fff3bf;font-weight:600}tr.voided td{color:#868e96;
  text-decoration:line-through}
.board{border:1px solid #c4cad4;border-radius:8px;background:#fff;padding:10px;margin:10px 0}
.board .pos{font-weight:600;margin-bottom:8px}
.players{display:flex;flex-wrap:wrap;gap:10px}
.player{flex:1 1 360px;border:2px solid #c9d1dc;border-radius:8px;padding:8px;
  background:#fbfcfd}
.player.active{border-color:#2b6cb0;box-shadow:0 0 0 2px #d0e2f5}
.player.out{opacity:.5}
.player h4{margin:0 0 4px;font-size:15px}
.res span{display:inline-block;margin-right:10px;white-space:nowrap}
.territories{display:flex;flex-wrap:wrap;gap:10px;margin-top:8px}
.territory{position:relative;border:2px solid #8a6d3b;background:#fdf6e3;border-radius:6px;
  padding:6px 8px;min-width:170px}
.territory .name{font-weight:700}.territory .stats{font-size:12px;color:#5c4a23}
.guards{display:flex;flex-wrap:wrap;gap:8px;margin-top:6px;min-height:20px}
.card{position:relative;width:104px;min-height:70px;border:1px solid #50606f;border-radius:6px;
  background:#e7eef6;padding:4px 5px;font-size:12px;box-sizing:border-box}
.card .cname{font-weight:600;line-height:1.2}.card .cid{color:#5c6b7a;font-size:11px}
.card .stats{font-weight:700;margin-top:2px}
.card.slid{transform:rotate(10deg);background:#dcdfe3;border-style:dashed}
.card.hl,.territory.hl{outline:3px solid #e8590c;outline-offset:2px}
.dmg{position:absolute;top:-9px;right:-9px;background:#c92a2a;color:#fff;border-radius:11px;
  min-width:22px;height:22px;text-align:center;font-weight:700;font-size:12px;line-height:22px}
.tag{display:inline-block;font-size:10px;border-radius:3px;padding:0 4px;margin:1px 1px 0 0;
  background:#dee2e6}.tag.atk{background:#ffd8a8}.tag.blk{background:#a5d8ff}
.zone{margin-top:8px;font-size:12px}.zone .guards{margin-top:4px}
.hand{margin-top:8px;font-size:12px;color:#343a40}
.register{margin-top:10px;font-size:13px}.register ol{margin:2px 0 0 18px;padding:0}
.knowledge{display:flex;flex-wrap:wrap;gap:12px}.knowledge>div{flex:1 1 360px;background:#fff;
  border:1px solid #d5d9e0;border-radius:6px;padding:6px 10px}
details{margin:8px 0}summary{cursor:pointer;font-weight:600}
"""
"""The dispute report's style sheet (inline in the page)."""


def _finalize(value: object) -> object:
    """Every value a template prints: control and bidi characters made visible (markup that
    the code built, already escaped, is left alone)."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return visible(value)
    return value


def _safe_variables(variables: dict[str, Any]) -> dict[str, Any]:
    return {k: _finalize(v) for k, v in variables.items()}


@pass_context
def _page_gettext(context: Context, message: str, **variables: Any) -> str:
    """``{% trans %}`` and ``_()`` in a template: the message in the active language, its
    variables escaped (and their control characters made visible) like any printed value."""
    text = gettext(message)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return text % _safe_variables(variables) if variables else text


@pass_context
def _page_ngettext(context: Context, singular: str, plural: str, n: int, **variables: Any) -> str:
    """The plural form of a template message that agrees with ``n`` (``{% pluralize %}``)."""
    text = ngettext(singular, plural, n)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return text % _safe_variables({"num": n, **variables})


def e(text: object) -> Markup:
    """``text`` escaped for HTML, its control and bidi characters made visible (for HTML
    pieces built outside a template)."""
    return escape(visible(str(text)))


_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"\*([^*]+)\*"), r"<em>\1</em>"),
)


def _html_inline(text: str) -> str:
    """A line of the digest's Markdown as HTML: escaped, then code, bold and italics."""
    out = str(e(text))
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def rule_html(rule: str) -> Markup:
    """A rule's digest text as an HTML block quote: a paragraph per line, ``- `` lines as a
    list (empty if the rule is unknown)."""
    text = rule_text(rule)
    if not text:
        return Markup("")
    parts: list[str] = []
    items: list[str] = []
    for line in text.split("\n"):
        if line.startswith("- "):
            items.append(f"<li>{_html_inline(line[2:])}</li>")
            continue
        if items:
            parts.append(f"<ul>{''.join(items)}</ul>")
            items = []
        parts.append(f"<p>{_html_inline(line)}</p>")
    if items:
        parts.append(f"<ul>{''.join(items)}</ul>")
    body = "".join(parts)
    quote = Markup(f'<blockquote class="rule" data-rule="{e(rule)}">{body}</blockquote>')
    label, original = original_beside(rule)
    if original:
        lines = "".join(f"<p>{_html_inline(line)}</p>" for line in original.split("\n"))
        quote += Markup(
            f"<p>{e(label)}</p>"
            f'<blockquote class="rule original" lang="id" data-rule="{e(rule)}">{lines}'
            "</blockquote>"
        )
    return quote


def _integrity_bad(value: str) -> bool:
    """Whether an integrity row's value reports a fault (a broken chain, a mismatch)."""
    broken = gettext("BROKEN at {where}: {reason}").split("{", 1)[0]
    return value.startswith(broken) or "mismatch" in value


@cache
def environment() -> Environment:
    """The one Jinja2 environment: the package's templates, autoescaping on, undefined names an
    error."""
    env = Environment(
        loader=PackageLoader("vwlog.render", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=_finalize,
        trim_blocks=False,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
    )
    # the catalogs of vwlog.io.i18n, looked up in the language active when a page is rendered;
    # messages name their variables as %(name)s, as {% trans %} writes them
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    env.globals.update(
        _=_page_gettext,
        gettext=_page_gettext,
        ngettext=_page_ngettext,
        lang=active_language,
        board_view=board_view,
        counted=counted,
        flag_meaning=flag_meaning,
        flag_rows=flag_rows,
        integrity_bad=_integrity_bad,
        integrity_rows=integrity_rows,
        position_text=lambda state: say(position_said(state)),
        rule_html=rule_html,
        rule_title=rule_title,
        ruling_title=ruling_title,
        seat_rows=seat_rows,
        validation_summary=validation_summary,
        violation_where=violation_where,
        violation_message=violation_message,
        event_text=event_text,
        board_label=board_label,
    )
    return env


def page(title: str, body: Markup | str, *, css: str = BASE_CSS) -> str:
    """A whole page in the base layout: ``title`` (escaped), ``css`` inline, ``body`` as it is
    (built from escaped pieces or another template)."""
    html = (
        environment()
        .get_template("base.html.j2")
        .render(title=title, css=Markup(css), body_html=Markup(body))
    )
    return html


def board_html(
    state: MatchState, *, seq: int, label: str, highlight: frozenset[str] = frozenset()
) -> str:
    """A board drawn with HTML and CSS: a box per player with resources, Territories with their
    guards (damage, slid, attacking or blocking), Return Home and Stray, the hands as the full
    record shows them, and the register. ``highlight`` marks cards (those an event names)."""
    macro: Any = environment().get_template("board.html.j2").module.board  # type: ignore[attr-defined]
    return str(macro(board_view(state, seq=seq), seq, label, say(position_said(state)), highlight))


def report_html(report: DisputeReport, verdict: ValidationReport | None = None) -> str:
    """The report as one self-contained HTML page: inline CSS, no script, nothing fetched; each
    board at a violation (and at ``--at``) is drawn as boxes per player. With ``verdict`` (the
    rules result with the integrity result), the page opens with what that verdict rests on."""
    template = environment().get_template("report.html.j2")
    judged = verdict if verdict is not None else report.validation
    return template.render(
        title=gettext("Dispute report: {match}").format(match=report.match_id),
        css=Markup(BASE_CSS),
        report=report,
        r=report.validation,
        verdict_ok=verdict_of(judged) is Verdict.OK,
        verdict_word=verdict_word(judged, "document"),
        house_rules=house_rules_note(judged),
        rests=rests_on(verdict) if verdict is not None else None,
    )
