"""Loose ends, tried over real HTTP: match ids that a URL, a file name or a header would read
otherwise; what ``/health`` tells anyone; the headers of every answer; ``/docs`` without a
network; one error shape for every status; refused input never echoed back whole."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from typing import TYPE_CHECKING, Any

import pytest

from tests.api.server import SAMPLES
from tests.security.conftest import new_live
from vwlog.api.routers.reports import attachment
from vwlog.api.schemas import ErrorOut

if TYPE_CHECKING:
    import httpx

    from tests.api.server import Server

ERROR_FIELDS = set(ErrorOut.model_fields)
BAD_IDS = ["a/b", "a\r\nX-Evil: 1", "line\nbreak", "carriage\rreturn", "a b", "../up", "x" * 201]
SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def assert_error(r: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    """The one error shape: JSON with every `ErrorOut` field, a code and a message."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json"), r.headers
    data: dict[str, Any] = r.json()
    assert set(data) == ERROR_FIELDS, data
    assert isinstance(data["error"], str)
    assert isinstance(data["message"], str)
    assert data["message"]
    assert isinstance(data["rules"], list)
    if code is not None:
        assert data["error"] == code, data
    return data


def assert_guarded(r: httpx.Response) -> None:
    """The security headers, and a policy without inline script, framing or other sites."""
    for name, value in SECURITY_HEADERS.items():
        assert r.headers.get(name) == value, (r.request.url, name, r.headers)
    csp = r.headers["content-security-policy"]
    directives = {}
    for directive in csp.split(";"):
        name, _, value = directive.strip().partition(" ")
        directives[name] = value
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "'unsafe-inline'" not in csp
    assert "'unsafe-eval'" not in csp
    assert "http" not in csp  # no other site
    assert directives["script-src"].startswith("'self'")


def unsealed_log(match_id: str) -> bytes:
    """A sample log under another id, without hashes or seal (sealed on import), so that
    only its id can make it unacceptable."""
    lines = (SAMPLES / "register-lifo.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header.pop("hash", None)
    header["match_id"] = match_id
    out = [json.dumps(header)]
    for line in lines[1:]:
        record = json.loads(line)
        if record["event"]["type"] in ("match_sealed", "record_signed"):
            continue
        record.pop("hash", None)
        out.append(json.dumps(record))
    return ("\n".join(out) + "\n").encode()


def upload(c: httpx.Client, body: bytes) -> httpx.Response:
    return c.post("/matches", content=body, headers={"Content-Type": "application/x-ndjson"})


# -- match ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_IDS)
def test_an_unsafe_match_id_is_refused_at_upload(server: Server, bad: str) -> None:
    with server.client("organiser") as c:
        r = upload(c, unsealed_log(bad))
        data = assert_error(r, 422, "invalid_log")
        assert data["field"] == "match_id"
        listed = c.get("/matches", params={"limit": 1000}).json()["matches"]
    assert bad not in {m["match_id"] for m in listed}
    assert bad not in r.text  # not even echoed back


def test_the_same_log_with_a_safe_id_is_stored(server: Server) -> None:
    good = f"sec-ok-{secrets.token_hex(4)}~x:1.y_z"
    with server.client("organiser") as c:
        r = upload(c, unsealed_log(good))
        assert r.status_code == 201, r.text
        assert r.json()["match_id"] == good
        exported = c.get(f"/matches/{good}/export")
    assert exported.status_code == 200
    assert exported.headers["content-disposition"] == attachment(good)


@pytest.mark.parametrize("bad", [*BAD_IDS, "", "-leading-dash", "."])
def test_an_unsafe_match_id_is_refused_at_live_creation(server: Server, bad: str) -> None:
    with server.client("organiser") as c:
        r = c.post("/live", json={"match_id": bad, "decks": ["order-aggro", "mystic-reigner"]})
        data = assert_error(r, 422, "invalid_request")
        assert data["field"] == "match_id"
        if bad:
            assert c.get("/matches", params={"limit": 1000}).status_code == 200
            assert bad not in {m["match_id"] for m in c.get("/matches").json()["matches"]}


def test_the_export_header_is_one_safe_line_for_any_stored_id() -> None:
    # ids stored before the rule may hold anything; the header never breaks its line
    for stored in [*BAD_IDS, 'quote"d', "t\u00e9st", "\x00nul"]:
        value = attachment(stored)
        assert value.isascii()
        assert not any(ch in value for ch in "\r\n\x00")
        plain = re.fullmatch(r'attachment; filename="([^"]*)"; filename\*=UTF-8\'\'(\S+)', value)
        assert plain is not None, value


# -- /health -----------------------------------------------------------------------------------


def test_health_names_no_path_or_url(server: Server) -> None:
    with server.client() as c:
        r = c.get("/health")
    assert r.status_code == 200
    data = r.json()
    assert set(data) == {"status", "position"}, data
    assert data["status"] == "ok"
    text = r.text
    for secret in (server.store, str(server.log.parent), "postgresql", "sqlite", "/tmp", ".db"):
        assert secret not in text, secret
    assert_guarded(r)


# -- headers -----------------------------------------------------------------------------------


def test_every_kind_of_answer_carries_the_security_headers(server: Server) -> None:
    with server.client() as c:
        answers = [
            c.get("/"),  # the viewer's page
            c.get("/static/viewer.js"),
            c.get("/pools/decks"),  # JSON
            c.get("/openapi.json"),
            c.get("/docs"),
            c.get("/nowhere"),  # 404
            c.get("/whoami"),  # 401
            c.delete("/health"),  # 405
            c.get("/stats/report", params={"min_n": 0}),  # 401 before 422
            c.post("/live", content=b"x" * (2 * 1024 * 1024)),  # 413
        ]
    with server.client("judge") as c:
        answers.append(c.get("/stats/report", params={"min_n": 0}))  # 422
    with server.client("p1") as c:
        answers.append(c.get("/matches/live-2"))  # 403
    assert [r.status_code for r in answers] == [
        200, 200, 200, 200, 200, 404, 401, 405, 401, 413, 422, 403
    ]  # fmt: skip
    for r in answers:
        assert_guarded(r)
    assert answers[0].headers["content-type"].startswith("text/html")


def test_the_viewer_page_has_nothing_inline(server: Server) -> None:
    with server.client() as c:
        page = c.get("/").text
    assert "<style" not in page
    assert not re.search(r"\sstyle=", page)
    assert not re.search(r"\son[a-z]+=", page)
    for script in re.findall(r"<script([^>]*)>(.*?)</script>", page, flags=re.S):
        attributes, body = script
        assert "src=" in attributes, script
        assert not body.strip(), script


# -- /docs -------------------------------------------------------------------------------------


def test_docs_come_from_the_server_itself(server: Server) -> None:
    with server.client() as c:
        docs = c.get("/docs")
        assert docs.status_code == 200
        page = docs.text
        assert "SwaggerUIBundle" in page
        assets = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert len(assets) >= 3, assets  # the script, the style sheet, the icon
        for url in assets:
            assert url.startswith("/"), url
            assert not url.startswith("//"), url
            r = c.get(url)
            assert r.status_code == 200, url
            assert r.content, url
            assert_guarded(r)
        assert "cdn" not in page.lower()
        assert "http://" not in page
        assert "https://" not in page
        # the page's one inline script runs by its hash, and nothing else inline would
        csp = docs.headers["content-security-policy"]
        inline = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
        assert len(inline) == 1
        digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp
        assert c.get("/openapi.json").json()["info"]["title"] == "vwlog"
        # only the page that needs it allows that script
        assert digest not in c.get("/").headers["content-security-policy"]


CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (as the viewer's tests use it; never a downloaded browser)."""
VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


def test_docs_render_in_a_browser_without_a_network(server: Server) -> None:
    """Swagger UI renders the service's OpenAPI document under the service's own policy,
    every request other than to the service itself refused."""
    import os

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (.ci/run installs it with apt-get)")
    elsewhere: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        try:
            context = browser.new_context()
            context.add_init_script(VIOLATIONS)

            def offline(route: Any) -> None:
                url = route.request.url
                if url.startswith((server.url, "data:")):
                    route.continue_()
                else:
                    elsewhere.append(url)
                    route.abort()

            context.route("**/*", offline)
            page = context.new_page()
            failures: list[str] = []
            page.on("pageerror", lambda e: failures.append(str(e)))
            page.goto(f"{server.url}/docs")
            page.wait_for_selector(".opblock", timeout=30_000)
            title = page.inner_text(".swagger-ui .info .title")
            operations = page.locator(".opblock").count()
            violations = page.evaluate("window.__csp")
        finally:
            browser.close()
    assert title.startswith("vwlog")
    assert operations >= 20
    assert violations == []
    assert failures == []
    assert elsewhere == []


# -- one error shape ---------------------------------------------------------------------------


def test_every_error_status_has_one_shape(server: Server) -> None:
    match_id, seats = new_live(server)
    with server.client() as c:
        assert_error(c.get("/nowhere/at/all"), 404, "not_found")
        assert_error(c.get("/matches/no-such-match"), 404, "not_found")
        assert_error(c.get("/static/no-such-file.js"), 404, "not_found")
        assert_error(c.delete("/health"), 405, "method_not_allowed")
        assert_error(c.put("/matches"), 405, "method_not_allowed")
        assert_error(c.get("/whoami"), 401, "unauthorized")
        assert_error(c.get("/stats"), 401, "unauthorized")
        assert_error(c.post("/live", content=b"{" * (2 * 1024 * 1024)), 413, "too_large")
    with server.client("not-a-token") as c:
        assert_error(c.get("/pools"), 401, "unauthorized")
    with server.client(seats["p1"]) as c:
        assert_error(c.get("/matches/live-2"), 403, "forbidden")
        assert_error(c.get("/stats"), 403, "forbidden")
    with server.client("organiser") as c:
        assert_error(upload(c, b""), 400, "bad_request")
        invalid = c.post("/live", json={"match_id": "x", "decks": "not a list"})
        assert_error(invalid, 422, "invalid_request")
        assert_error(c.post("/live", content=b"{not json"), 422, "invalid_request")
        assert_error(c.get("/matches", params={"limit": -1}), 422, "invalid_request")
        assert_error(upload(c, b"not a log\n"), 422, "invalid_log")
        path = f"/matches/{match_id}/decisions"
        done = c.post(path, json={"decisions": [], "auto": 1})
        assert done.status_code == 200, done.text
        stale = c.post(path, json={"decisions": ["pass"], "expected_seq": 1})
        data = assert_error(stale, 409, "conflict")
        assert data["head_seq"] is not None
        syntax = c.post(path, json={"decisions": ["fly to the moon"]})
        assert_error(syntax, 400, "bad_request")


# -- refused input is not echoed ---------------------------------------------------------------


def _short(r: httpx.Response, filler: str) -> None:
    assert len(r.content) < 4096, (r.status_code, len(r.content))
    assert filler * 200 not in r.text


def test_a_huge_bad_decision_is_quoted_not_echoed(server: Server) -> None:
    match_id, _ = new_live(server)
    size = 1024 * 1024 - 4096  # just under the JSON limit: it reaches the decision parser
    path = f"/matches/{match_id}/decisions"
    with server.client("organiser") as c:
        for decision in (
            "q" * size,  # an unknown verb, the whole text one word
            "summon " + "q" * size,  # an unknown card
            "pass " + "q" * size,  # words after a complete decision
            json.dumps({"type": "card_summoned", "card": "q" * size}),
            json.dumps({"type": "q" * size}),
        ):
            r = c.post(path, json={"decisions": [decision]})
            assert 400 <= r.status_code < 500, r.text[:300]
            assert_error(r, r.status_code)
            _short(r, "q")
        # the request's own fields, badly formed, are quoted as briefly
        r = c.post("/live", json={"match_id": "q" * size, "decks": ["order-aggro", "x"]})
        assert_error(r, 422, "invalid_request")
        _short(r, "q")
        r = c.post(path, json={"q" * size: 1})
        assert_error(r, 422, "invalid_request")
        _short(r, "q")
        r = c.post(path, json={"decisions": [], "choices": {"q" * size: ["a"]}})
        assert 400 <= r.status_code < 500
        assert_error(r, r.status_code)
        _short(r, "q")


def test_an_unexpected_failure_has_the_one_shape_and_tells_nothing(tmp_path: Any) -> None:
    """The one status no request to the real service provokes (500): a route that fails,
    added to the service's own app, answered in the one shape, with the headers, without
    the exception's text."""
    import asyncio

    import httpx

    from vwlog.api.app import create_app
    from vwlog.api.settings import ApiSettings

    app = create_app(
        ApiSettings(
            store=str(tmp_path / "vwlog.db"),
            signing_key=str(tmp_path / "key.pem"),
            access_log=False,
        )
    )

    @app.get("/fails")
    def fails() -> None:
        raise RuntimeError("a secret of the server")

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://service") as client:
            return await client.get("/fails")

    r = asyncio.run(ask())
    assert_error(r, 500, "internal_error")
    assert "secret" not in r.text
    assert_guarded(r)
