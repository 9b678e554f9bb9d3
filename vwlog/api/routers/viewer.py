"""The web viewer: static files (HTML, CSS, ES modules, no build step) served at ``/``.

The viewer speaks only the public API; every page of it is the one ``index.html``, which reads
its place (match list, ``/m/ID``, ``/m/ID/SEQ``, ``/record``, ``/stats-page``) from the URL.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The folder of the viewer's files."""

router = APIRouter(tags=["viewer"], include_in_schema=False)


def _index() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


@router.get("/")
def home() -> FileResponse:
    """The viewer's match list."""
    return _index()


@router.get("/m/{match_id}")
def match_page(match_id: str) -> FileResponse:
    """A match in the viewer, at its last event."""
    return _index()


@router.get("/m/{match_id}/{seq}")
def match_page_at(match_id: str, seq: str) -> FileResponse:
    """A match in the viewer, after event ``seq``."""
    return _index()


@router.get("/record")
def record_page() -> FileResponse:
    """The viewer's screen to start recording a live match."""
    return _index()


@router.get("/stats-page")
def stats_page() -> FileResponse:
    """The viewer's corpus statistics."""
    return _index()


__all__ = ["STATIC", "router"]
