"""The viewer on a 768-px-wide tablet (touch) in a real headless Chromium: no page is wider than
the screen, every control is on screen, large enough to touch and receives the touch, and what
a replay, the judge's report, play and the statistics show is visible."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.viewer.conftest import Page
from tests.viewer.test_viewer import TIMEOUT, seq_shown

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.api.server import Server

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 768, 1024
TOUCH = 44
"""Smallest height of a control, in CSS pixels (WCAG 2.5.5's target size)."""

OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) {
    out.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  }
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (!r.width || (r.right <= width + 0.5 && r.left >= -0.5)) continue;
    let p = e.parentElement, scrolled = false;
    for (; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible") { scrolled = true; break; }
    }
    const name = `${e.tagName}#${e.id}.${e.getAttribute("class")}`;
    if (!scrolled) out.push(`${name} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return out.slice(0, 8);
}"""


@pytest.fixture
def tablet(browser: Any, viewer_server: Server) -> Iterator[Page]:
    """A 768x1024 touch screen presenting an organiser's token (the scorekeeper's tablet)."""
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True, is_mobile=False
    )
    secret = viewer_server.tokens["organiser"]
    context.add_init_script(f"sessionStorage.setItem('vwlog-token', {secret!r});")
    page = Page(context.new_page(), viewer_server)
    try:
        yield page
    finally:
        context.close()


def assert_fits(p: Page, where: str) -> None:
    """Nothing on the page reaches past the screen's width."""
    over = p.page.evaluate(OVERFLOW)
    assert over == [], f"{where}: {over}"


def assert_touchable(p: Page, *selectors: str) -> None:
    """Each control is visible, inside the screen's width, at least TOUCH px high, and a tap
    on it would reach it (Playwright's actionability checks: visible, stable, enabled, not
    covered)."""
    for sel in selectors:
        control = p.page.locator(sel).first
        assert control.is_visible(), sel
        box = control.bounding_box()
        assert box is not None, sel
        assert box["x"] >= 0, sel
        assert box["x"] + box["width"] <= WIDTH, (sel, box)
        assert box["height"] >= TOUCH, (sel, box)
        control.tap(trial=True, timeout=TIMEOUT)


def test_a_replay_on_a_tablet(tablet: Page, viewer_server: Server) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    with viewer_server.client("organiser") as c:
        events = c.get(f"/matches/{combat}/events", params={"after": 100, "limit": 50}).json()
    point = next(e["seq"] for e in events["events"] if e["priority_point"])
    page = tablet.open(f"/m/{combat}/{point}")
    page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    page.wait_for_selector("#play #awaited:not(:empty)", timeout=TIMEOUT)
    assert seq_shown(tablet) == point
    assert_fits(tablet, "replay")
    assert_touchable(
        tablet,
        "#first", "#back", "#forward", "#last", "#next-violation", "#next-combat",
        "#next-turn", "#viewpoint", "#fork", "#scrub", "#diff-other",
        "#ruling-form select", "#ruling-form button", "#events li a",
    )  # fmt: skip
    # what the replay shows is on the page: position, register, each player's counts, the
    # Territories with their guards, the timeline and the event list
    status = page.inner_text("#status")
    for word in ("Turn", "Phase", "Step", "Priority"):
        assert word in status
    assert page.is_visible("#register")
    for player in ("p1", "p2"):
        section = page.locator(f"section.player[data-player={player}]")
        assert section.is_visible()
        text = section.inner_text()
        for word in ("Gold", "Honor", "VP", "Deck", "Hand"):
            assert word in text, (player, word)
    assert page.locator(".territory").first.is_visible()
    assert page.locator(".territory .card").count() > 0
    assert page.is_visible("#marks")
    assert page.locator("#events li").count() > 10
    assert page.is_visible("#verdict")
    # used by touch: a tap steps forward, another jumps to the next turn
    page.locator("#forward").tap()
    assert seq_shown(tablet) == point + 1
    page.locator("#next-turn").tap()
    assert seq_shown(tablet) > point + 1
    assert_fits(tablet, "replay after stepping")
    tablet.shot("replay-768x1024")
    assert tablet.errors == []


def test_the_judges_report_on_a_tablet(tablet: Page, viewer_server: Server) -> None:
    flagged = viewer_server.tokens["match:flagged"]
    page = tablet.open(f"/m/{flagged}/1")
    page.wait_for_selector("#violations button", timeout=TIMEOUT)
    page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    assert_fits(tablet, "judge's report")
    assert_touchable(tablet, "#violations button")
    violation = page.locator("#violations button").first
    assert "R-CMB-3" in violation.inner_text()
    violation.tap()
    assert seq_shown(tablet) == int(violation.get_attribute("data-seq") or 0)
    assert tablet.errors == []


def test_recording_at_the_table_on_a_tablet(tablet: Page, viewer_server: Server) -> None:
    page = tablet.open("/record")
    page.wait_for_selector("#record-form", timeout=TIMEOUT)
    assert_fits(tablet, "record form")
    assert_touchable(
        tablet, "#record-form input[name=match_id]", "#record-form select", "#record-form button"
    )
    page.fill("#record-form input[name=match_id]", "tablet-table-3")
    page.locator("#record-form button").tap()
    page.wait_for_selector("#legal button", timeout=TIMEOUT)
    for n in range(3):
        page.wait_for_selector("#legal button", timeout=TIMEOUT)
        before = page.inner_text("#awaited")
        assert "to decide" in before
        assert_fits(tablet, f"recording, decision {n}")
        assert_touchable(tablet, "#legal button")
        page.locator("#legal button").first.tap()
        page.wait_for_function(
            f"() => document.querySelector('#awaited').textContent !== {before!r}",
            timeout=TIMEOUT,
        )
    assert page.locator("#consequences li").count() >= 1
    tablet.shot("record-768x1024")
    with viewer_server.client("organiser") as c:
        r = c.get("/matches/tablet-table-3/events", params={"limit": 1000})
    assert sum(1 for e in r.json()["events"] if e["decision"]) >= 3
    assert tablet.errors == []


def test_the_list_and_the_statistics_on_a_tablet(tablet: Page, viewer_server: Server) -> None:
    page = tablet.open("/")
    page.wait_for_selector("table tbody tr", timeout=TIMEOUT)
    assert_fits(tablet, "match list")
    assert_touchable(tablet, "input[name=player]", "input[name=search]", ".filters button")
    page = tablet.open("/stats-page?min_n=1")
    page.wait_for_selector("#chart svg a", timeout=TIMEOUT)
    assert_fits(tablet, "statistics")
    for figure in ("victory-chart", "seat-chart", "length-chart", "tempo-chart", "chart"):
        assert page.is_visible(f"#{figure} svg"), figure
    assert_touchable(tablet, "#stats-form input", "#stats-form button")
    tablet.shot("statistics-768x1024")
    assert tablet.errors == []


def test_the_checks_see_a_page_too_wide_and_a_control_too_small(tablet: Page) -> None:
    """The two checks above fail where they should."""
    tablet.page.set_content(
        '<body style="margin:0"><div id="wide" style="width:900px">x</div>'
        '<button id="small" style="height:20px">b</button></body>'
    )
    with pytest.raises(AssertionError, match="wide"):
        assert_fits(tablet, "a wide page")
    with pytest.raises(AssertionError, match="small"):
        assert_touchable(tablet, "#small")
