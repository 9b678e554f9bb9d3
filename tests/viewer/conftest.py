"""A real ``vwlog serve`` with the samples and a real headless Chromium driven by Playwright."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.api.server import SAMPLES, Server, populate, start
from vwlog.events import MatchStarted
from vwlog.io.logfile import read_log, write_log
from vwlog.io.trust import builtin_registry
from vwlog.services.trust import close_records, packaged_pool

if TYPE_CHECKING:
    from collections.abc import Iterator

    from vwlog.events import EventRecord, LogHeader
    from vwlog.io.trust import PublishedPool

pytest.importorskip("fastapi", reason="the api extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "viewer"
"""Where the screenshots are saved (gitignored)."""


def published_pool(records: list[EventRecord]) -> PublishedPool:
    """The published pool a log's ``match_started`` names (else the packaged one)."""
    start = records[0].event if records else None
    if isinstance(start, MatchStarted) and start.pool is not None:
        found = builtin_registry().pools.get(start.pool.id)
        if found is not None:
            return found
    return packaged_pool()


def resealed(header: LogHeader, records: list[EventRecord], out: Path) -> Path:
    """Write ``records`` under ``header`` to ``out``, chained and sealed again as their
    recorder would (any old seal and signatures dropped)."""
    head, chained = close_records(header, records, published_pool(records))
    write_log(out, head, chained)
    return out


def reseal_file(path: Path, out: Path) -> Path:
    """`resealed` for a log file whose content was changed (its hashes removed)."""
    header, records = read_log(path)
    return resealed(header, list(records), out)


@pytest.fixture(scope="session")
def viewer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The service on SQLite with the samples, a flagged match and tokens of every role."""
    work = tmp_path_factory.mktemp("viewer")
    server = start(str(work / "vwlog.db"), work)
    try:
        populate(server)
        with server.client("organiser") as c:
            r = c.post(
                "/matches",
                content=(SAMPLES / "invalid" / "fatigued-follower-attacks.jsonl").read_bytes(),
                headers={"Content-Type": "application/x-ndjson"},
            )
            assert r.status_code in (200, 201), r.text
            server.tokens["match:flagged"] = r.json()["match_id"]
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless (never a downloaded browser)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (.ci/run installs it with apt-get)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class Page:
    """A browser page on the viewer that collects console errors and page errors."""

    def __init__(self, page: Any, server: Server) -> None:
        self.page = page
        self.server = server
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: str) -> Any:
        self.page.goto(self.server.url + path)
        return self.page

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        out = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(out), full_page=False)
        return out


def _page(browser: Any, server: Server, token: str | None, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    if token is not None:
        secret = server.tokens[token]
        context.add_init_script(f"sessionStorage.setItem('vwlog-token', {secret!r});")
    return context


@pytest.fixture
def judge_page(browser: Any, viewer_server: Server) -> Iterator[Page]:
    """A 1280x800 page presenting a judge's token."""
    context = _page(browser, viewer_server, "judge", 1280, 800)
    page = Page(context.new_page(), viewer_server)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def organiser_page(browser: Any, viewer_server: Server) -> Iterator[Page]:
    """A 768x1024 (tablet) page presenting an organiser's token."""
    context = _page(browser, viewer_server, "organiser", 768, 1024)
    page = Page(context.new_page(), viewer_server)
    try:
        yield page
    finally:
        context.close()
