"""The viewer says what the service would do and what the record is worth, in a real headless
Chromium against a real ``vwlog serve``: the decision awaited at the board shown, the verdict
and the hash chain of the current head, tampered records in red with the API's reason, append
buttons only where an append would be accepted, attached Relics and Runes by name, the token
kept out of ``localStorage``, no seed on the record page, and no Content-Security-Policy
violation under a strict policy."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from tests.api.server import SAMPLES, Server
from tests.viewer.conftest import Page, _page, published_pool
from tests.viewer.test_viewer import TIMEOUT, seq_shown
from vwlog.events import MatchSealed, MatchStarted
from vwlog.io.logfile import read_log, write_log
from vwlog.model.types import CardType
from vwlog.services import sealed
from vwlog.services.trust import close_records
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from vwlog.events import EventRecord, LogHeader

pytestmark = pytest.mark.slow

DECKS = ["order-aggro", "mystic-reigner"]
STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The policy the viewer must work under: its own files only, nothing inline, no ``eval``."""
VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""
"""Collects every ``securitypolicyviolation`` event of a page from its first script on."""


# -- helpers -----------------------------------------------------------------------------------


def new_live(server: Server, match_id: str) -> dict[str, Any]:
    """A live match started by the organiser (no seed: the service shuffles)."""
    with server.client("organiser") as c:
        r = c.post("/live", json={"match_id": match_id, "decks": DECKS})
        assert r.status_code == 201, r.text
        return dict(r.json())


def append(server: Server, match_id: str, auto: int = 0, words: list[str] | None = None) -> int:
    """Append decisions as the organiser at the head; the new head's seq."""
    with server.client("organiser") as c:
        head = c.get(f"/matches/{match_id}").json()["events"]
        body: dict[str, Any] = {"decisions": words or [], "auto": auto, "expected_seq": head}
        r = c.post(f"/matches/{match_id}/decisions", json=body)
        assert r.status_code == 200, r.text
        return int(r.json()["head_seq"])


def upload(server: Server, path: Path) -> str:
    """Upload a log as the organiser; the stored match's id."""
    with server.client("organiser") as c:
        r = c.post(
            "/matches",
            content=path.read_bytes(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert r.status_code in (200, 201), r.text
        return str(r.json()["match_id"])


def forged(
    source: Path,
    out: Path,
    match_id: str,
    alter: Callable[[list[EventRecord]], list[EventRecord]],
    *,
    seal: Callable[[MatchSealed], MatchSealed] | None = None,
) -> Path:
    """``source`` under another id with its records altered, then re-sealed as a forger would
    (the chain recomputed, a new seal, signatures dropped); ``seal`` alters the new seal and
    the chain is computed again over it."""
    header, records = read_log(source)
    renamed: LogHeader = header.model_copy(update={"match_id": match_id, "hash": None})
    head, chained = close_records(renamed, alter(list(records)), published_pool(list(records)))
    if seal is not None:
        last = chained[-1]
        assert isinstance(last.event, MatchSealed)
        chained[-1] = last.model_copy(update={"event": seal(last.event)})
        head, chained = sealed(head.model_copy(update={"hash": None}), chained)
    write_log(out, head, chained)
    return out


def edited_cards(records: list[EventRecord]) -> list[EventRecord]:
    """The first Follower's ATK raised by 5 in the card definitions ``match_started`` carries."""
    first = records[0]
    assert isinstance(first.event, MatchStarted)
    cards = list(first.event.cards)
    i = next(i for i, c in enumerate(cards) if c.type == CardType.FOLLOWER)
    cards[i] = cards[i].model_copy(update={"atk": cards[i].atk + 5})
    event = first.event.model_copy(update={"cards": tuple(cards)})
    return [first.model_copy(update={"event": event}), *records[1:]]


def verdict_of(body: dict[str, Any], bad: str) -> tuple[str, str]:
    """The API's verdict and reason (from ``ok`` where the answer has no ``verdict``)."""
    if isinstance(body.get("verdict"), str):
        return body["verdict"], body.get("reason") or ""
    return ("OK" if body.get("ok") is not False else bad), ""


def css_class(verdict: str) -> str:
    return {"OK": "verdict-ok", "INCOMPLETE": "verdict-incomplete"}.get(verdict, "verdict-bad")


RANK = {"OK": 0, "INCOMPLETE": 1, "ILLEGAL": 2, "UNTRUSTED": 3}


@pytest.fixture
def page_for(browser: Any, viewer_server: Server) -> Iterator[Callable[..., Page]]:
    """Pages presenting a given token (or none), each in its own browser context."""
    contexts: list[Any] = []

    def make(token: str | None, *, csp: bool = False) -> Page:
        context = _page(browser, viewer_server, token, 1280, 800)
        contexts.append(context)
        if csp:
            strict(context, viewer_server)
        return Page(context.new_page(), viewer_server)

    try:
        yield make
    finally:
        for context in contexts:
            context.close()


def strict(context: Any, server: Server) -> None:
    """Serve every page of the viewer with `STRICT_CSP` (in place of the service's own
    policy, if it sends one) and record its violations."""

    def page_url(url: str) -> bool:
        parts = urlsplit(url)
        path = parts.path
        return url.startswith(server.url) and (
            path in ("/", "/record", "/stats-page") or path.startswith("/m/")
        )

    def serve(route: Any) -> None:
        response = route.fetch()
        headers = {
            k: v for k, v in response.headers.items() if k.lower() != "content-security-policy"
        }
        headers["Content-Security-Policy"] = STRICT_CSP
        route.fulfill(response=response, headers=headers)

    context.route(page_url, serve)
    context.add_init_script(VIOLATIONS)


# -- the decision awaited at the board shown ---------------------------------------------------


def test_the_play_panel_describes_the_decision_awaited_at_the_viewed_seq(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    match = "trust-awaited-1"
    new_live(viewer_server, match)
    head = append(viewer_server, match, auto=30)
    with viewer_server.client("organiser") as c:
        now = c.get(f"/matches/{match}/awaited", params={"limit": 0}).json()
        # an earlier position whose awaited decision reads otherwise than the head's
        earlier = None
        for seq in range(head - 1, 0, -1):
            a = c.get(f"/matches/{match}/awaited", params={"at": seq, "limit": 0}).json()
            assert a["seq"] == seq
            if a["player"] and (a["player"], a["kind"]) != (now["player"], now["kind"]):
                earlier = a
                break
    assert now["player"]
    assert earlier is not None
    p = page_for("organiser")
    page = p.open(f"/m/{match}/{earlier['seq']}")
    assert seq_shown(p) == earlier["seq"]
    page.wait_for_selector(f"#awaited[data-seq='{earlier['seq']}']", timeout=TIMEOUT)
    text = page.inner_text("#awaited")
    assert text == (
        f"After event {earlier['seq']}: {earlier['player']} to decide "
        f"({earlier['kind']}, {earlier['rule']})."
    )
    # nothing is appended at an earlier board: no buttons, and the page says why
    assert page.locator("#legal button").count() == 0
    assert f"appended at the last event ({head})" in page.inner_text("#no-append")
    p.shot("awaited-earlier-1280x800")
    # stepping moves the description with the board
    page.click("#forward")
    assert seq_shown(p) == earlier["seq"] + 1
    page.wait_for_selector(f"#awaited[data-seq='{earlier['seq'] + 1}']", timeout=TIMEOUT)
    # at the head: the head's decision, with its legal decisions as buttons
    page.click("#last")
    assert seq_shown(p) == head
    page.wait_for_selector("#legal button", timeout=TIMEOUT)
    assert page.inner_text("#awaited").startswith(
        f"After event {head}: {now['player']} to decide ({now['kind']}, {now['rule']}); "
    )
    assert page.is_hidden("#no-append")
    assert p.errors == []


def test_awaited_at_a_seq_describes_that_board_and_names_no_hidden_card(
    viewer_server: Server,
) -> None:
    with viewer_server.client("organiser") as c:
        head = c.get("/matches/live-1").json()["events"]
        now = c.get("/matches/live-1/awaited", params={"limit": 0}).json()
        assert c.get("/matches/live-1/awaited", params={"at": head, "limit": 0}).json() == now
        beyond = c.get("/matches/live-1/awaited", params={"at": head + 1})
        assert 400 <= beyond.status_code < 500, beyond.text
        assert "Traceback" not in beyond.text
        assert c.get("/matches/live-1/awaited", params={"at": -1}).status_code == 422
        # a seq after the start: each earlier position as its own board says it
        boards = {
            seq: c.get("/matches/live-1/board", params={"seq": seq}).json() for seq in (1, head)
        }
        for seq, board in boards.items():
            a = c.get("/matches/live-1/awaited", params={"at": seq, "limit": 0}).json()
            assert a["seq"] == seq
            assert a["head_hash"] == now["head_hash"]
            if a["kind"] == "priority":
                assert a["player"] == board["priority"]
    # a seat is shown the legal decisions of its own decisions only, at any seq
    for seat in ("p1", "p2"):
        with viewer_server.client(seat) as c:
            for seq in range(1, head + 1):
                a = c.get("/matches/live-1/awaited", params={"at": seq, "limit": 50}).json()
                if a["player"] != seat:
                    assert a["legal"] == []
                    assert a["options"] == []


# -- the verdict and the hash chain follow the head --------------------------------------------


def test_the_verdict_and_integrity_follow_appends_made_elsewhere(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    match = "trust-follow-1"
    new_live(viewer_server, match)
    first = append(viewer_server, match, auto=4)
    p = page_for("judge")
    page = p.open(f"/m/{match}")
    assert seq_shown(p) == first
    page.wait_for_selector(f"#integrity[data-head='{first}']", timeout=TIMEOUT)
    assert f"up to event {first})" in page.inner_text("#integrity")
    for n in range(2):
        # an append through the API, not through this page: the page follows the stream
        head = append(viewer_server, match, auto=3 + n)
        assert head > first
        page.wait_for_selector(f"#integrity[data-head='{head}']", timeout=TIMEOUT)
        page.wait_for_selector(f"#verdict[data-head='{head}']", timeout=TIMEOUT)
        with viewer_server.client("judge") as c:
            chain = c.get(f"/matches/{match}/integrity").json()
            report = c.get(f"/matches/{match}/validation").json()
        line = page.inner_text("#integrity")
        assert f"({chain['records']} records checked, up to event {head})" in line
        assert f"up to event {first})" not in line
        expected = max(
            verdict_of(report, "ILLEGAL"), verdict_of(chain, "UNTRUSTED"), key=lambda v: RANK[v[0]]
        )
        assert page.get_attribute("#verdict", "data-verdict") == expected[0]
        # the board that showed the head shows the new head, the scrubber reaches it
        assert seq_shown(p) == head
        assert page.get_attribute("#scrub", "max") == str(head)
        first = head
    assert p.errors == []


# -- tampered records are red, with the API's reason -------------------------------------------


@pytest.fixture(scope="module")
def tampered(viewer_server: Server, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A finished sample twice forged and uploaded: its card definitions edited and re-sealed;
    its seal counting one record fewer than it follows. Their ids by kind."""
    tmp = tmp_path_factory.mktemp("tampered")
    source = SAMPLES / "absolute-victory.jsonl"
    cards = forged(source, tmp / "cards.jsonl", "trust-cards-edited", edited_cards)
    count = forged(
        source,
        tmp / "count.jsonl",
        "trust-seal-count-off",
        lambda records: records,
        seal=lambda s: s.model_copy(update={"events": s.events - 1}),
    )
    return {"cards": upload(viewer_server, cards), "count": upload(viewer_server, count)}


@pytest.mark.parametrize("kind", ["cards", "count"])
def test_a_tampered_record_is_drawn_red_with_the_reason(
    page_for: Callable[..., Page], viewer_server: Server, tampered: dict[str, str], kind: str
) -> None:
    match = tampered[kind]
    with viewer_server.client("judge") as c:
        report = c.get(f"/matches/{match}/validation").json()
        chain = c.get(f"/matches/{match}/integrity").json()
    said = [verdict_of(report, "ILLEGAL"), verdict_of(chain, "UNTRUSTED")]
    verdict, reason = max(said, key=lambda v: RANK[v[0]])
    assert verdict in ("ILLEGAL", "UNTRUSTED"), (kind, report, chain)
    p = page_for("judge")
    page = p.open(f"/m/{match}")
    page.wait_for_selector("#verdict[data-verdict]", timeout=TIMEOUT)
    assert page.get_attribute("#verdict", "data-verdict") == verdict
    classes = (page.get_attribute("#verdict", "class") or "").split()
    assert "verdict-bad" in classes
    assert "verdict-ok" not in classes
    line = page.inner_text("#verdict")
    assert f"Verdict: {verdict}" in line
    if "verdict" in report or "verdict" in chain:
        assert reason
        assert reason in line
    # drawn red, not merely worded: the line's colour is not the OK line's green
    colour = page.eval_on_selector("#verdict", "(e) => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(253, 231, 233)"
    page.wait_for_selector("#integrity[data-verdict]", timeout=TIMEOUT)
    chain_classes = (page.get_attribute("#integrity", "class") or "").split()
    assert "verdict-ok" not in chain_classes
    p.shot(f"tampered-{kind}-1280x800")
    if verdict == "UNTRUSTED":
        # the seal does not match its records: the chain's line is red too, and says why
        assert "verdict-bad" in chain_classes
        chain_line = page.inner_text("#integrity")
        assert "BROKEN" in chain_line
        if reason:
            assert reason in chain_line
    assert p.errors == []


def test_an_untampered_record_is_drawn_as_the_api_judges_it(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    match = viewer_server.tokens["match:absolute-victory"]
    with viewer_server.client("judge") as c:
        report = c.get(f"/matches/{match}/validation").json()
        chain = c.get(f"/matches/{match}/integrity").json()
    verdict, reason = max(
        [verdict_of(report, "ILLEGAL"), verdict_of(chain, "UNTRUSTED")], key=lambda v: RANK[v[0]]
    )
    p = page_for("judge")
    page = p.open(f"/m/{match}")
    page.wait_for_selector("#verdict[data-verdict]", timeout=TIMEOUT)
    assert page.get_attribute("#verdict", "data-verdict") == verdict
    assert css_class(verdict) in (page.get_attribute("#verdict", "class") or "").split()
    if reason:
        assert reason in page.inner_text("#verdict")
    assert p.errors == []


# -- append buttons only where an append would be accepted ------------------------------------


def test_an_uploaded_unfinished_log_offers_no_append_buttons(
    page_for: Callable[..., Page], viewer_server: Server, tmp_path: Path
) -> None:
    # an unfinished log without hashes (sealed on import) and the unfinished sealed sample
    lines = (SAMPLES / "full-combat.jsonl").read_text(encoding="utf-8").splitlines()
    with viewer_server.client("organiser") as c:
        # a position of the sample where a decision is awaited
        cut = next(
            seq
            for seq in range(120, 1, -1)
            if c.get(
                f"/matches/{viewer_server.tokens['match:full-combat']}/awaited",
                params={"at": seq, "limit": 0},
            ).json()["player"]
        )
    header = re.sub(r',"hash":"[0-9a-f]+"', "", lines[0]).replace(
        '"sample-full-combat"', '"trust-upload-unfinished"'
    )
    body = [re.sub(r',"hash":"[0-9a-f]+"', "", line) for line in lines[1 : cut + 1]]
    path = tmp_path / "unfinished.jsonl"
    path.write_text("\n".join([header, *body]) + "\n", encoding="utf-8")
    unsealed = upload(viewer_server, path)
    for match in (unsealed, viewer_server.tokens["match:full-combat"]):
        with viewer_server.client("organiser") as c:
            meta = c.get(f"/matches/{match}").json()
            awaited = c.get(f"/matches/{match}/awaited", params={"limit": 5}).json()
        assert meta["winner"] is None
        assert meta["seal"] in ("author", "import")
        assert awaited["player"], match
        assert awaited["legal"], match
        p = page_for("organiser")
        page = p.open(f"/m/{match}")
        assert seq_shown(p) == meta["events"]
        page.wait_for_selector(f"#awaited[data-seq='{meta['events']}']", timeout=TIMEOUT)
        assert f"{awaited['player']} to decide" in page.inner_text("#awaited")
        assert page.locator("#legal button").count() == 0
        assert "uploaded" in page.inner_text("#no-append")
        assert p.errors == []


def test_a_live_match_offers_append_buttons_to_the_awaited_seat_only(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    with viewer_server.client("organiser") as c:
        awaited = c.get("/matches/live-1/awaited", params={"limit": 60}).json()
        head = c.get("/matches/live-1").json()["events"]
    seat = awaited["player"]
    assert seat in ("p1", "p2")
    other = "p2" if seat == "p1" else "p1"
    mine = page_for(seat)
    page = mine.open("/m/live-1")
    assert seq_shown(mine) == head
    page.wait_for_selector("#legal button", timeout=TIMEOUT)
    assert page.locator("#legal button").count() == min(60, len(awaited["legal"]))
    assert page.is_hidden("#no-append")
    assert mine.errors == []
    theirs = page_for(other)
    page = theirs.open("/m/live-1")
    assert seq_shown(theirs) == head
    page.wait_for_selector(f"#awaited[data-seq='{head}']", timeout=TIMEOUT)
    assert f"{seat} to decide" in page.inner_text("#awaited")
    assert page.locator("#legal button").count() == 0
    assert f"may not make {seat}'s decision" in page.inner_text("#no-append")
    # a token of another match's seat: refused the match, offered nothing
    stranger = page_for("other")
    page = stranger.open("/m/live-1")
    page.wait_for_selector("#error", timeout=TIMEOUT)
    assert page.locator("#legal button").count() == 0
    assert theirs.errors == []


def test_a_seat_is_offered_its_decision_when_the_other_seat_has_made_its_own(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    """The page of the seat that waits follows the other seat's appends (made elsewhere) and
    offers its buttons once its own decision is awaited, without a reload."""
    match = "trust-turns-1"
    new_live(viewer_server, match)
    for seat in ("p1", "p2"):
        viewer_server.token(f"{match}:{seat}", Role.PLAYER, match_id=match, seat=seat)
    with viewer_server.client("organiser") as c:
        awaited = c.get(f"/matches/{match}/awaited", params={"limit": 0}).json()
    acting = awaited["player"]
    waiting = "p2" if acting == "p1" else "p1"
    p = page_for(f"{match}:{waiting}")
    page = p.open(f"/m/{match}")
    page.wait_for_selector(f"#awaited[data-seq='{awaited['seq']}']", timeout=TIMEOUT)
    assert page.locator("#legal button").count() == 0
    assert f"may not make {acting}'s decision" in page.inner_text("#no-append")
    # the acting seat decides through the API with its own token until the other seat is awaited
    with viewer_server.client(f"{match}:{acting}") as c:
        for _ in range(50):
            a = c.get(f"/matches/{match}/awaited", params={"limit": 50}).json()
            if a["player"] != acting:
                break
            words = next((o["words"] for o in a["options"] if o["words"] == "pass"), None)
            r = c.post(
                f"/matches/{match}/decisions",
                json={"decisions": [words or a["options"][0]["words"]], "expected_seq": a["seq"]},
            )
            assert r.status_code == 200, r.text
    assert a["player"] == waiting, a
    page.wait_for_selector(f"#awaited[data-seq='{a['seq']}']", timeout=TIMEOUT)
    page.wait_for_selector("#legal button", timeout=TIMEOUT)
    assert page.inner_text("#awaited").startswith(f"After event {a['seq']}: {waiting} to decide")
    assert page.is_hidden("#no-append")
    assert p.errors == []


def test_a_finished_live_match_offers_no_append_buttons(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    match = "trust-finished-1"
    new_live(viewer_server, match)
    # played to its end by the generator's policy
    for _ in range(20):
        append(viewer_server, match, auto=1000)
        with viewer_server.client("organiser") as c:
            meta = c.get(f"/matches/{match}").json()
        if meta["winner"]:
            break
    assert meta["winner"], meta
    with viewer_server.client("organiser") as c:
        # the last position before the match was over
        before = next(
            a
            for seq in range(meta["events"], 0, -1)
            if (a := c.get(f"/matches/{match}/awaited", params={"at": seq, "limit": 0}).json())[
                "player"
            ]
            and not a["over"]
        )
    p = page_for("organiser")
    page = p.open(f"/m/{match}")
    assert seq_shown(p) == meta["events"]
    page.wait_for_function(
        "() => document.querySelector('#awaited')?.textContent === 'The match is over.'",
        timeout=TIMEOUT,
    )
    assert page.locator("#legal button").count() == 0
    page.goto(f"{viewer_server.url}/m/{match}/{before['seq']}")
    page.wait_for_selector(f"#awaited[data-seq='{before['seq']}']", timeout=TIMEOUT)
    assert f"{before['player']} to decide" in page.inner_text("#awaited")
    assert page.locator("#legal button").count() == 0
    assert "finished" in page.inner_text("#no-append")
    assert p.errors == []


# -- attached items ----------------------------------------------------------------------------


def test_attached_relics_and_runes_are_drawn_by_name(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    match = upload(viewer_server, SAMPLES / "generated-absolute.jsonl")
    found: tuple[int, dict[str, Any]] | None = None
    with viewer_server.client("judge") as c:
        head = c.get(f"/matches/{match}").json()["events"]
        for seq in range(10, head + 1, 10):
            board = c.get(f"/matches/{match}/board", params={"seq": seq}).json()
            guards = [
                g
                for player in board["players"]
                for t in player["territories"]
                for g in t["guards"]
                if g["type"] in ("RELIC", "RUNE")
            ]
            if guards:
                found = (seq, guards[0])
                break
    assert found is not None, "no Relic or Rune guards a Territory in the sample"
    seq, item = found
    p = page_for("judge")
    page = p.open(f"/m/{match}/{seq}")
    assert seq_shown(p) == seq
    node = page.locator(f".territory .card[data-id='{item['id']}']")
    assert node.count() == 1
    text = node.inner_text()
    assert item["name"] in text
    assert ("Rune" if item["type"] == "RUNE" else "Relic") in text
    assert "attached" in (node.get_attribute("class") or "")
    node.scroll_into_view_if_needed()
    p.shot("attached-1280x800")
    board_text = page.inner_text("#board")
    assert "null" not in board_text
    assert "undefined" not in board_text
    assert "[object Object]" not in board_text
    assert p.errors == []


# -- the token ---------------------------------------------------------------------------------


def test_the_token_is_kept_out_of_local_storage(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    secret = viewer_server.tokens["judge"]
    p = page_for(None)
    page = p.open("/")
    page.wait_for_selector("#who:not(:empty)", timeout=TIMEOUT)
    # what an older viewer left behind is removed as the page loads
    page.evaluate("localStorage.setItem('vwlog-token', 'left-by-an-older-viewer')")
    page.reload()
    page.wait_for_selector("#who:not(:empty)", timeout=TIMEOUT)
    assert page.evaluate("localStorage.getItem('vwlog-token')") is None
    assert page.inner_text("#who") == "anonymous"
    # signing in
    page.fill("#token", secret)
    page.locator("#token").dispatch_event("change")
    page.wait_for_function(
        "() => document.querySelector('#who').textContent.startsWith('judge')", timeout=TIMEOUT
    )
    stored = page.evaluate(
        "Object.keys(localStorage).map((k) => k + '=' + localStorage.getItem(k)).join('\\n')"
    )
    assert secret not in stored
    assert page.evaluate("localStorage.getItem('vwlog-token')") is None
    assert page.evaluate("sessionStorage.getItem('vwlog-token')") == secret
    # kept for the tab (a reload), and the page's help says where
    page.reload()
    page.wait_for_function(
        "() => document.querySelector('#who').textContent.startsWith('judge')", timeout=TIMEOUT
    )
    help_text = page.text_content("#token-help") or ""
    assert "sessionStorage" in help_text
    assert "localStorage" in help_text
    # another tab does not have it
    other = Page(page.context.new_page(), viewer_server)
    other.open("/")
    other.page.wait_for_selector("#who:not(:empty)", timeout=TIMEOUT)
    assert other.page.inner_text("#who") == "anonymous"
    # clearing the field signs out and forgets it
    page.fill("#token", "")
    page.locator("#token").dispatch_event("change")
    page.wait_for_function(
        "() => document.querySelector('#who').textContent === 'anonymous'", timeout=TIMEOUT
    )
    assert page.evaluate("sessionStorage.getItem('vwlog-token')") is None
    assert p.errors == []
    assert other.errors == []


# -- the record page ---------------------------------------------------------------------------


def test_the_record_page_has_no_seed_field(
    page_for: Callable[..., Page], viewer_server: Server
) -> None:
    p = page_for("organiser")
    page = p.open("/record")
    page.wait_for_selector("#record-form button", timeout=TIMEOUT)
    assert page.locator("input[name=seed]").count() == 0
    assert page.locator("#record-form input[type=number]").count() == 0
    assert "Seed" not in page.inner_text("#record-form")
    page.fill("#record-form input[name=match_id]", "trust-recorded-1")
    with page.expect_request(lambda r: r.url.endswith("/live") and r.method == "POST") as sent:
        page.click("#record-form button")
    body = sent.value.post_data_json
    assert body["match_id"] == "trust-recorded-1"
    assert "seed" not in body
    page.wait_for_url(re.compile(r"/m/trust-recorded-1"), timeout=TIMEOUT)
    page.wait_for_selector("#legal button", timeout=TIMEOUT)
    assert p.errors == []


# -- a strict Content-Security-Policy ----------------------------------------------------------


def test_the_viewer_works_under_a_strict_content_security_policy(
    page_for: Callable[..., Page], viewer_server: Server, tampered: dict[str, str]
) -> None:
    match = "trust-csp-1"
    new_live(viewer_server, match)
    p = page_for("organiser", csp=True)
    page = p.open("/")
    page.wait_for_selector("table tbody tr", timeout=TIMEOUT)
    # a live match: the board, the play panel's buttons, an append through them, the stream
    page = p.open(f"/m/{match}")
    seq_shown(p)
    page.wait_for_selector("#legal button", timeout=TIMEOUT)
    before = page.inner_text("#awaited")
    page.locator("#legal button").first.click()
    page.wait_for_function(
        f"() => document.querySelector('#awaited').textContent !== {before!r}", timeout=TIMEOUT
    )
    page.wait_for_selector("#consequences li", timeout=TIMEOUT)
    # a tampered record in red, the record page, the statistics
    page = p.open(f"/m/{tampered['cards']}")
    page.wait_for_selector("#verdict[data-verdict]", timeout=TIMEOUT)
    page.wait_for_selector("#verdict.verdict-bad", timeout=TIMEOUT)
    page = p.open("/record")
    page.wait_for_selector("#record-form button", timeout=TIMEOUT)
    page = p.open("/stats-page?min_n=1")
    page.wait_for_selector("#victory-chart svg", timeout=TIMEOUT)
    # nothing inline: no style or on* attributes, every script from a file
    inline = page.evaluate(
        """() => [...document.querySelectorAll('*')].filter((e) => e.hasAttribute('style')
             || [...e.attributes].some((a) => a.name.startsWith('on'))).length"""
    )
    assert inline == 0
    assert page.evaluate("() => [...document.scripts].every((s) => s.src)")
    assert page.evaluate("() => window.__csp") == []
    assert not [e for e in p.errors if "Content Security Policy" in e]
    assert p.errors == []
    # the policy was in force: an inline script is refused and reported
    page.evaluate(
        """() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';
                   document.body.append(s); }"""
    )
    page.wait_for_function("() => window.__csp.length > 0", timeout=TIMEOUT)
    assert page.evaluate("() => window.__ran") is None


def test_the_viewer_sources_hold_nothing_a_strict_policy_refuses() -> None:
    """The template and the script, read as text: every path of the script, not only those a
    browser test walks, builds the DOM without markup, inline style or code from strings."""
    from vwlog.api.routers.viewer import STATIC, TEMPLATES

    for template in TEMPLATES.glob("*.j2"):
        html = template.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), template
        assert not re.search(r"<style\b", html, re.IGNORECASE), template
        assert not re.search(r"\sstyle\s*=", html, re.IGNORECASE), template
        assert not re.search(r"\son[a-z]+\s*=", html, re.IGNORECASE), template
        assert not re.search(r"(src|href)\s*=\s*\"(data|javascript):", html), template
    script = (STATIC / "viewer.js").read_text(encoding="utf-8")
    for forbidden in (
        r"\.innerHTML\b",
        r"\.outerHTML\b",
        r"insertAdjacentHTML",
        r"document\.write",
        r"\beval\(",
        r"new Function\(",
        r"setTimeout\(\s*[\"'`]",
        r"setAttribute\(\s*[\"']style",
        r"\.style\.cssText",
        r"localStorage\.setItem",
    ):
        assert not re.search(forbidden, script), forbidden
