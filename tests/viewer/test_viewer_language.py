"""The web viewer's event sentences come from the service in the negotiated language: the
page's ``?lang=id``, or the browser's own language (``Accept-Language``); inserted as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.viewer.conftest import Page
from tests.viewer.test_viewer import TIMEOUT, seq_shown

if TYPE_CHECKING:
    from tests.api.server import Server

pytestmark = pytest.mark.slow


def _events_at(p: Page) -> tuple[str, str | None]:
    p.page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    p.page.wait_for_function(
        "() => document.querySelector('#events li.current').textContent.trim() !== '…'",
        timeout=TIMEOUT,
    )
    return (
        p.page.inner_text("#events li.current").strip(),
        p.page.get_attribute("#events", "lang"),
    )


def test_lang_in_the_page_address_gives_indonesian_events(
    judge_page: Page, viewer_server: Server
) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    judge_page.open(f"/m/{combat}/10?lang=id")
    assert seq_shown(judge_page) == 10
    assert _events_at(judge_page) == ("p1 mengambil 1 gold", "id")
    judge_page.page.click("#forward")
    assert seq_shown(judge_page) == 11
    assert _events_at(judge_page)[0] == "Tahap Unslide dimulai"
    assert judge_page.errors == []


def test_the_browsers_language_is_negotiated(browser: Any, viewer_server: Server) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    secret = viewer_server.tokens["judge"]
    for locale, said, lang in (
        ("id-ID", "p1 mengambil 1 gold", "id"),
        ("en-US", "p1 takes 1 gold", "en"),
    ):
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
        context.add_init_script(f"sessionStorage.setItem('vwlog-token', {secret!r});")
        try:
            page = Page(context.new_page(), viewer_server)
            page.open(f"/m/{combat}/10")
            assert seq_shown(page) == 10
            assert _events_at(page) == (said, lang)
            assert page.errors == []
        finally:
            context.close()


def test_the_validation_panel_says_the_violation_in_indonesian(
    judge_page: Page, viewer_server: Server
) -> None:
    flagged = viewer_server.tokens["match:flagged"]
    with viewer_server.client("judge") as c:
        english = c.get(f"/matches/{flagged}/validation").json()
        indonesian = c.get(f"/matches/{flagged}/validation", params={"lang": "id"}).json()
        again = c.get(f"/matches/{flagged}/validation").json()  # the kept report, in English
    assert english["violations"][0]["message"] == (
        "p1-004 Militia Spearman is Fatigued and may not attack"
    )
    assert indonesian["violations"][0]["message"] == (
        "p1-004 Militia Spearman Fatigue dan tidak boleh menyerang"
    )
    assert again == english
    page = judge_page.open(f"/m/{flagged}?lang=id")
    page.wait_for_selector("#violations button", timeout=TIMEOUT)
    shown = page.inner_text("#violations button")
    assert "p1-004 Militia Spearman Fatigue dan tidak boleh menyerang" in shown
    assert judge_page.errors == []


def test_the_indonesian_page_shows_indonesian_labels(
    judge_page: Page, viewer_server: Server
) -> None:
    """The viewer's own words (navigation, buttons, headings, the board's and the judge
    panel's labels) in the page's language; the English page keeps its words."""
    combat = viewer_server.tokens["match:full-combat"]
    page = judge_page.open(f"/m/{combat}/10?lang=id")
    assert seq_shown(judge_page) == 10
    page.wait_for_selector("#integrity:not(:empty)", timeout=TIMEOUT)
    page.wait_for_function(
        "() => !document.querySelector('#integrity').textContent.includes('memeriksa')",
        timeout=TIMEOUT,
    )
    assert page.get_attribute("html", "lang") == "id"
    assert page.inner_text("header nav") == "Pertandingan Rekam Statistik"
    assert page.inner_text("#first") == "Pertama"
    assert page.inner_text("#next-violation") == "Pelanggaran berikutnya"
    assert page.get_attribute("#back", "title") == "mundur satu langkah (←)"
    status = page.inner_text("#status")
    assert "Seq 10" in status
    assert "Aktif p1" in status
    assert "Fase " in status
    assert page.inner_text("#judge h2") == "Validasi"
    assert page.inner_text("#integrity").startswith("Integritas: ")
    assert "catatan diperiksa, sampai event" in page.inner_text("#integrity")
    assert "Tangan (" in page.inner_text("#board")
    assert page.get_attribute("#scrub", "aria-label") == "linimasa"
    assert judge_page.errors == []
    page = judge_page.open(f"/m/{combat}/10")
    assert seq_shown(judge_page) == 10
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#first") == "First"
    assert "Active p1" in page.inner_text("#status")
    assert judge_page.errors == []


def test_the_indonesian_statistics_and_record_pages(judge_page: Page, organiser_page: Page) -> None:
    page = judge_page.open("/stats-page?min_n=1&lang=id")
    page.wait_for_selector("#cards-chart svg", timeout=TIMEOUT)
    assert page.inner_text("main h1") == "Statistik"
    assert "pertandingan (" in page.inner_text("#corpus-summary")
    assert page.inner_text("#stats-form button") == "Tampilkan"
    assert judge_page.errors == []
    page = organiser_page.open("/record?lang=id")
    page.wait_for_selector("#record-form button", timeout=TIMEOUT)
    assert page.inner_text("main h1") == "Rekam pertandingan langsung"
    assert page.inner_text("#record-form button") == "Mulai"
    assert organiser_page.errors == []
