"""The web viewer in a real headless Chromium against a real ``vwlog serve``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx
import orjson
import pytest

from tests.api.server import SAMPLES, Server, vwlog
from tests.render.test_injection import PLAYER
from tests.viewer.conftest import Page, reseal_file

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.slow

TIMEOUT = 30_000


def seq_shown(p: Page) -> int:
    """The seq of the board now drawn."""
    p.page.wait_for_selector("#board[data-seq]", timeout=TIMEOUT)
    # the board and the event list around it are both drawn for the seq the scrubber is at
    p.page.wait_for_function(
        """() => {
          const at = document.querySelector('#scrub').value;
          return document.querySelector('#board').dataset.seq === at
            && document.querySelector('#events').dataset.seq === at;
        }""",
        timeout=TIMEOUT,
    )
    return int(p.page.get_attribute("#board", "data-seq") or -1)


def test_list_shows_matches_and_links_to_them(judge_page: Page, viewer_server: Server) -> None:
    page = judge_page.open("/")
    page.wait_for_selector("table tbody tr", timeout=TIMEOUT)
    combat = viewer_server.tokens["match:full-combat"]
    assert page.locator(f"a[href='/m/{combat}']").count() == 1
    lifo = viewer_server.tokens["match:register-lifo"]
    page.fill("input[name=search]", "lifo")
    page.press("input[name=search]", "Enter")
    page.wait_for_url(re.compile(r"search=lifo"), timeout=TIMEOUT)
    page.wait_for_selector(f"a[href='/m/{lifo}']", timeout=TIMEOUT)
    rows = page.locator("table tbody tr")
    assert rows.count() == 1
    # the filter is a deep link: reopening the URL gives the same list
    page.goto(page.url)
    page.wait_for_selector(f"a[href='/m/{lifo}']", timeout=TIMEOUT)
    assert page.locator("table tbody tr").count() == 1
    assert judge_page.errors == []


def test_open_step_forward_and_back(judge_page: Page, viewer_server: Server) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    page = judge_page.open(f"/m/{combat}/10")
    assert seq_shown(judge_page) == 10
    page.click("#forward")
    assert seq_shown(judge_page) == 11
    page.click("#back")
    page.click("#back")
    assert seq_shown(judge_page) == 9
    assert page.url.endswith(f"/m/{combat}/9")
    # the board drawn is the API's board at that seq
    with viewer_server.client("judge") as c:
        board = c.get(f"/matches/{combat}/board", params={"seq": 9}).json()
    status = page.inner_text("#status")
    assert f"Turn {board['turn']}" in status
    assert f"Priority {board['priority'] or '-'}" in status
    page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    assert page.inner_text("#events li.current").strip() != "…"
    judge_page.shot("replay-1280x800")
    assert judge_page.errors == []


def test_keyboard_only(judge_page: Page, viewer_server: Server) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    page = judge_page.open(f"/m/{combat}/20")
    page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert seq_shown(judge_page) == 22
    page.keyboard.press("ArrowLeft")
    assert seq_shown(judge_page) == 21
    page.keyboard.press("t")
    turn_start = seq_shown(judge_page)
    assert turn_start > 21
    page.keyboard.press("End")
    with viewer_server.client("judge") as c:
        head = c.get(f"/matches/{combat}").json()["events"]
    assert seq_shown(judge_page) == head
    page.keyboard.press("Home")
    assert seq_shown(judge_page) == 0
    # the controls are reachable with Tab and act on Enter
    page.focus("#forward")
    page.keyboard.press("Enter")
    assert seq_shown(judge_page) == 1
    assert judge_page.errors == []


def test_scrub_to_violation_and_jump_from_report(judge_page: Page, viewer_server: Server) -> None:
    flagged = viewer_server.tokens["match:flagged"]
    page = judge_page.open(f"/m/{flagged}/1")
    page.wait_for_selector("#violations button", timeout=TIMEOUT)
    button = page.locator("#violations button").first
    text = button.inner_text()
    assert "R-CMB-3" in text
    assert "Fatigued" in text
    # the rule's full text from the catalog, not only its id
    assert "may enter battle, but a Fatigued Follower may not attack" in text
    page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    page.keyboard.press("v")
    assert seq_shown(judge_page) == int(button.get_attribute("data-seq") or 0)
    # scrub back then to the violation with the slider
    page.locator("#scrub").fill("5")
    assert seq_shown(judge_page) == 5
    button.click()
    shown = seq_shown(judge_page)
    assert shown == int(button.get_attribute("data-seq") or 0)
    assert "R-CMB-3" in page.inner_text("#events li.current")
    assert judge_page.errors == []


def test_viewpoint_hides_the_opponents_hand(judge_page: Page, viewer_server: Server) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    page = judge_page.open(f"/m/{combat}/120")
    seq_shown(judge_page)
    assert page.locator("[data-hand=p2] .card").count() > 0
    p2_cards = page.inner_text("[data-hand=p2]")
    page.select_option("#viewpoint", "p1")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('Viewing as p1')",
        timeout=TIMEOUT,
    )
    assert page.locator("[data-hand=p1] .card").count() > 0
    assert page.locator("[data-hand=p2] .card").count() == 0
    assert "hidden" in page.inner_text("[data-hand=p2]")
    assert page.inner_text("[data-hand=p2]") != p2_cards
    assert "player=p1" in page.url
    assert judge_page.errors == []


def _play_three(p: Page, match_id: str) -> None:
    page = p.page
    for n in range(3):
        page.wait_for_selector("#legal button", timeout=TIMEOUT)
        before = page.inner_text("#awaited")
        with p.server.client("organiser") as c:
            awaited = c.get(f"/matches/{match_id}/awaited", params={"limit": 60}).json()
        shown = page.locator("#legal button")
        assert shown.count() == min(60, len(awaited["legal"])), f"decision {n}"
        # each decision reads as a sentence with the words `vwlog play` takes, never as data
        for i in range(shown.count()):
            text = shown.nth(i).inner_text()
            option = awaited["options"][i]
            assert option["text"] in text
            assert option["words"] in text
            assert "{" not in text
            assert "=" not in text
        assert f"{awaited['player']} to decide" in before
        chosen = shown.count() - 1
        shown.nth(chosen).click()
        page.wait_for_function(
            f"() => document.querySelector('#awaited').textContent !== {before!r}",
            timeout=TIMEOUT,
        )
        page.wait_for_selector("#consequences li", timeout=TIMEOUT)
        # the consequences are the event list's sentences for what was appended
        with p.server.client("organiser") as c:
            appended = c.get(
                f"/matches/{match_id}/events", params={"after": awaited["seq"], "limit": 1000}
            ).json()["events"]
        assert appended[0]["description"] == awaited["options"][chosen]["text"]
        items = page.locator("#consequences li")
        first = int(items.first.get_attribute("data-seq") or 0)
        assert first == awaited["seq"] + 1
        assert appended[0]["description"] in items.first.inner_text()


def test_fork_at_a_priority_point_and_play_three(
    organiser_page: Page, viewer_server: Server
) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    with viewer_server.client("organiser") as c:
        events = c.get(f"/matches/{combat}/events", params={"after": 100, "limit": 50}).json()
    point = next(e["seq"] for e in events["events"] if e["priority_point"])
    page = organiser_page.open(f"/m/{combat}/{point}")
    page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    seq_shown(organiser_page)
    assert not page.is_disabled("#fork")
    page.click("#fork")
    page.wait_for_url(re.compile(r"/m/(?!" + re.escape(combat) + r"/)"), timeout=TIMEOUT)
    fork_id = page.url.rstrip("/").split("/m/")[1].split("/")[0]
    assert fork_id != combat
    with viewer_server.client("organiser") as c:
        meta = c.get(f"/matches/{fork_id}").json()
    assert meta["parent"] == combat
    assert meta["fork_at"] == point
    _play_three(organiser_page, fork_id)
    with viewer_server.client("organiser") as c:
        after = c.get(f"/matches/{fork_id}").json()
    assert after["events"] >= point + 3
    organiser_page.shot("fork-768")
    assert organiser_page.errors == []


def test_record_a_match_from_its_start(organiser_page: Page, viewer_server: Server) -> None:
    page = organiser_page.open("/record")
    page.fill("#record-form input[name=match_id]", "table-7")
    page.click("#record-form button")
    page.wait_for_url(re.compile(r"/m/table-7"), timeout=TIMEOUT)
    _play_three(organiser_page, "table-7")
    with viewer_server.client("organiser") as c:
        r = c.get("/matches/table-7/events", params={"limit": 1000})
    assert r.status_code == 200
    assert sum(1 for e in r.json()["events"] if e["decision"]) >= 3
    assert organiser_page.errors == []


def test_log_text_is_inserted_as_text(judge_page: Page, viewer_server: Server) -> None:
    """A match id with markup characters is shown as text, never parsed as HTML."""
    page = judge_page.open("/?search=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    page.wait_for_selector("table", timeout=TIMEOUT)
    assert page.locator("img").count() == 0
    assert page.input_value("input[name=search]") == "<img src=x onerror=alert(1)>"
    assert judge_page.errors == []


def test_static_files_are_served(viewer_server: Server) -> None:
    for path in ("/", "/m/x/3", "/static/viewer.js", "/static/viewer.css"):
        r = httpx.get(viewer_server.url + path, timeout=30)
        assert r.status_code == 200, path
    assert "cdn" not in httpx.get(viewer_server.url + "/", timeout=30).text.lower()


def test_rule_endpoint_gives_the_full_text(viewer_server: Server) -> None:
    with viewer_server.client() as c:
        r = c.get("/rules/R-CMB-3")
        assert r.status_code == 200
        body = r.json()
        assert body["id"] == "R-CMB-3"
        assert "Fatigued Follower may not attack" in body["text"]
        assert c.get("/rules/R-NOPE-1").status_code == 404


def test_diff_side_by_side_from_the_first_divergence(
    judge_page: Page, viewer_server: Server
) -> None:
    combat = viewer_server.tokens["match:full-combat"]
    with viewer_server.client("judge") as c:
        events = c.get(f"/matches/{combat}/events", params={"after": 60, "limit": 60}).json()
        point = next(e["seq"] for e in events["events"] if e["priority_point"])
        r = c.post(f"/matches/{combat}/forks", json={"at": point, "name": "diffed"})
        assert r.status_code == 201, r.text
        fork_id = r.json()["match_id"]
    page = judge_page.open(f"/m/{combat}/1")
    page.wait_for_selector("body[data-events-loaded=true]", timeout=TIMEOUT)
    page.fill("#diff-other", fork_id)
    page.press("#diff-other", "Enter")
    page.wait_for_selector("#diff-summary", timeout=TIMEOUT)
    assert f"first divergence at {point + 1}" in page.inner_text("#diff-summary")
    columns = page.locator(".diff > div")
    assert columns.count() == 2
    assert "Forked from match" in columns.nth(1).inner_text()
    assert seq_shown(judge_page) == point + 1
    assert judge_page.errors == []


def test_a_judge_writes_a_ruling(judge_page: Page, viewer_server: Server) -> None:
    with viewer_server.client("organiser") as c:
        r = c.post(
            "/live", json={"match_id": "ruled-1", "decks": ["order-aggro", "vermont-dragons"]}
        )
        assert r.status_code == 201, r.text
    page = judge_page.open("/m/ruled-1")
    page.wait_for_selector("#ruling-form textarea", timeout=TIMEOUT)
    page.select_option("#ruling-form select", "WARNING")
    page.fill("#ruling-form textarea", "slow play <b>warned</b>")
    page.click("#ruling-form button")
    page.wait_for_selector("#rulings li", timeout=TIMEOUT)
    assert "slow play <b>warned</b>" in page.inner_text("#rulings")
    assert page.locator("#rulings b").count() == 0
    with viewer_server.client("judge") as c:
        rulings = c.get("/matches/ruled-1/rulings").json()
    assert any("slow play" in str(x) for x in rulings)
    assert judge_page.errors == []


def test_a_players_token_sees_only_its_seat(browser: object, viewer_server: Server) -> None:
    from tests.viewer.conftest import _page

    context = _page(browser, viewer_server, "p1", 1280, 800)
    try:
        p = Page(context.new_page(), viewer_server)
        page = p.open("/m/live-1")
        seq_shown(p)
        assert "Viewing as p1" in page.inner_text("#status")
        assert page.locator("[data-hand=p1] .card").count() > 0
        assert page.locator("[data-hand=p2] .card").count() == 0
        # the judge's report is refused to a player on a match in progress, and said so
        page.wait_for_selector("#judge p", timeout=TIMEOUT)
        assert "Not available" in page.inner_text("#judge")
        assert page.is_disabled("#viewpoint")
        assert p.errors == []
    finally:
        context.close()


def js_uri(text: str) -> str:
    """``encodeURIComponent(text)``."""
    return quote(text, safe="!'()*")


def _evil_log(tmp: Path) -> tuple[Path, str]:
    """A finished sample with a crafted string (markup that runs script, control and bidi
    characters) as its winner's player id, under an id of its own (a new match's id is
    refused such characters), sealed again: a legal, intact record the statistics count."""
    player = orjson.dumps(PLAYER).decode()
    lines = []
    for raw in (SAMPLES / "generated-military.jsonl").read_text(encoding="utf-8").splitlines():
        data = orjson.loads(raw)
        data.pop("hash", None)
        text = orjson.dumps(data).decode()
        text = text.replace('"sim-3-00000"', '"sim-3-00000-crafted"')
        text = text.replace('"p1"', player)
        lines.append(text)
    path = tmp / "evil-unsealed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return reseal_file(path, tmp / "evil.jsonl"), "sim-3-00000-crafted"


@pytest.fixture(scope="module")
def corpus(viewer_server: Server, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Finished matches in the store (the statistics count those), one of them won by a player
    with the crafted id; the id of that one."""
    tmp = tmp_path_factory.mktemp("corpus")
    log, evil_id = _evil_log(tmp)
    for path in (SAMPLES / "generated-political.jsonl", log):
        out = vwlog(viewer_server.store, "import", str(path))
        assert "stored" in out or "unchanged" in out, out
    return evil_id


def _chart_links(page: Any, figure: str) -> list[str]:
    hrefs: list[str] = page.eval_on_selector_all(
        f"#{figure} svg a", "els => els.map((a) => a.getAttribute('href'))"
    )
    return hrefs


def _chart_texts(page: Any, figure: str) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        f"#{figure} svg text", "els => els.map((t) => t.textContent)"
    )
    return texts


def test_statistics_charts_show_the_report_and_link_to_matches(
    judge_page: Page, viewer_server: Server, corpus: str
) -> None:
    with viewer_server.client("judge") as c:
        report = c.get("/stats/report", params={"min_n": 1}).json()
    page = judge_page.open("/stats-page?min_n=1")
    page.wait_for_selector("#chart svg a", timeout=TIMEOUT)
    for figure in (
        "victory-chart", "seat-chart", "order-chart", "faction-chart", "length-chart",
        "tempo-chart", "cards-chart", "chart",
    ):  # fmt: skip
        assert page.locator(f"#{figure} svg").count() >= 1, figure
        assert page.is_visible(f"#{figure} svg"), figure
    # one bar per victory type, each linking to its matches
    victories = _chart_links(page, "victory-chart")
    assert victories == [f"/?victory={v['victory']}" for v in report["victory_types"]]
    assert page.locator("#seat-chart svg circle").count() == sum(
        1 for w in report["win_rate"]["by_seat"] if w["n"]
    )
    assert page.locator("#cards-chart svg circle").count() == len(report["top_cards"]) > 0
    buckets = report["length"]["turns"]["histogram"]
    assert len(_chart_links(page, "length-chart")) == len(buckets) > 0
    judge_page.shot("statistics-1280x800")
    # every stored match is a bar that opens it (the corpus here is under the 60 shown)
    with viewer_server.client("judge") as c:
        listed = c.get("/matches", params={"limit": 1000}).json()
    bars = _chart_links(page, "chart")
    assert len(listed["matches"]) <= 60
    assert sorted(bars) == sorted(f"/m/{js_uri(m['match_id'])}" for m in listed["matches"])

    # a victory bar lists exactly the matches it counts
    military = next(v for v in report["victory_types"] if v["victory"] == "MILITARY")
    page.click("#victory-chart a[href='/?victory=MILITARY']")
    page.wait_for_url(re.compile(r"victory=MILITARY"), timeout=TIMEOUT)
    page.wait_for_selector("table tbody tr", timeout=TIMEOUT)
    assert page.locator("table tbody tr").count() == military["matches"]
    # a bar of the length histogram lists the finished matches of that length
    page.go_back()
    page.wait_for_selector("#length-chart svg a", timeout=TIMEOUT)
    first = buckets[0]
    page.locator("#length-chart svg a").first.click()
    page.wait_for_url(re.compile(r"min_turns="), timeout=TIMEOUT)
    page.wait_for_selector("#more-filters", timeout=TIMEOUT)
    page.wait_for_function(
        "() => document.querySelectorAll('table tbody tr').length > 0", timeout=TIMEOUT
    )
    assert page.locator("table tbody tr").count() == first["matches"]
    # a bar opens its match
    page.go_back()
    combat = viewer_server.tokens["match:full-combat"]
    page.wait_for_selector(f"#chart a[href='/m/{combat}']", timeout=TIMEOUT)
    page.click(f"#chart a[href='/m/{combat}']")
    page.wait_for_url(re.compile(rf"/m/{re.escape(combat)}"), timeout=TIMEOUT)
    seq_shown(judge_page)
    assert judge_page.errors == []


def test_statistics_page_shows_names_from_logs_as_text(
    judge_page: Page, viewer_server: Server, corpus: str
) -> None:
    dialogs: list[str] = []
    judge_page.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page = judge_page.open("/stats-page?min_n=1")
    page.wait_for_selector("#cards-chart svg circle", timeout=TIMEOUT)
    page.wait_for_selector("#chart svg a", timeout=TIMEOUT)
    # the crafted winner is said by its match's bar, as text
    texts = _chart_texts(page, "chart")
    assert any(t.endswith(f"won by {PLAYER}") for t in texts), texts
    titles = page.eval_on_selector_all("#chart svg title", "els => els.map((t) => t.textContent)")
    assert any("<svg onload=alert(5)>" in t for t in titles)
    assert page.locator("img").count() == 0
    assert page.locator("script").count() == 1  # the viewer's own module
    handlers = page.evaluate(
        """[...document.querySelectorAll('*')]
             .filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length"""
    )
    assert handlers == 0
    links = _chart_links(page, "chart")
    assert f"/m/{js_uri(corpus)}" in links
    page.wait_for_timeout(300)
    assert dialogs == []
    assert judge_page.errors == []


def test_statistics_charts_are_reached_with_the_keyboard(
    judge_page: Page, viewer_server: Server, corpus: str
) -> None:
    page = judge_page.open("/stats-page?min_n=1")
    page.wait_for_selector("#victory-chart svg a", timeout=TIMEOUT)
    page.focus("#stats-form button")
    for _ in range(5):
        page.keyboard.press("Tab")
        inside = page.evaluate("!!document.activeElement.closest('#victory-chart')")
        if inside:
            break
    assert inside, "Tab never reached the victory chart"
    href = page.evaluate("document.activeElement.getAttribute('href')")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(href).replace("\\?", "\\?")), timeout=TIMEOUT)
    page.wait_for_selector("table tbody tr", timeout=TIMEOUT)
    assert judge_page.errors == []
