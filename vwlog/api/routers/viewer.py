"""The web viewer: static files (CSS, ES modules, no build step) and one page served at ``/``.

The viewer speaks only the public API; every page of it is the one ``index.html``, which reads
its place (match list, ``/m/ID``, ``/m/ID/SEQ``, ``/record``, ``/stats-page``) from the URL.
The page is said in the negotiated language (``?lang=``, else ``Accept-Language``): its own
words, and the script's (`vwlog.api.viewerwords`), handed over as JSON in the content of
``<meta name="vwlog-words">`` (escaped as an attribute's value).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, Template

from vwlog.api.errors import request_language
from vwlog.api.viewerwords import viewer_words
from vwlog.io.i18n import gettext, ngettext, using_language

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The folder of the viewer's files."""

router = APIRouter(tags=["viewer"], include_in_schema=False)


TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
"""The folder of the page's template."""


@cache
def _page() -> Template:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES), autoescape=True, extensions=["jinja2.ext.i18n"]
    )
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    return env.get_template("index.html.j2")


def _index(request: Request) -> HTMLResponse:
    lang = request_language(request)
    with using_language(lang):
        words = json.dumps(viewer_words(), ensure_ascii=False, sort_keys=True)
        html = _page().render(lang=lang, words=words)  # escaped as an attribute's value
    return HTMLResponse(html, headers={"Content-Language": lang, "Vary": "Accept-Language"})


@router.get("/")
def home(request: Request) -> HTMLResponse:
    """The viewer's match list."""
    return _index(request)


@router.get("/m/{match_id}")
def match_page(request: Request, match_id: str) -> HTMLResponse:
    """A match in the viewer, at its last event."""
    return _index(request)


@router.get("/m/{match_id}/{seq}")
def match_page_at(request: Request, match_id: str, seq: str) -> HTMLResponse:
    """A match in the viewer, after event ``seq``."""
    return _index(request)


@router.get("/record")
def record_page(request: Request) -> HTMLResponse:
    """The viewer's screen to start recording a live match."""
    return _index(request)


@router.get("/stats-page")
def stats_page(request: Request) -> HTMLResponse:
    """The viewer's corpus statistics."""
    return _index(request)


__all__ = ["STATIC", "TEMPLATES", "router"]
