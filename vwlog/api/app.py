"""The application: `create_app(settings)` opens the store, the tokens and the signing key,
mounts the routers, the error handlers, the access log and the guards every answer passes.

Four pure ASGI middlewares wrap the routes (outermost first):

- `AccessLog` — one JSON line per request on stderr, each written whole by one ``write``
  (several workers share stderr), however the request ends (``--no-access-log`` leaves it
  out);
- `Guard` — every answer carries the security headers (`SECURITY_HEADERS`, a
  Content-Security-Policy without inline script: ``default-src 'self'``, ``frame-ancestors
  'none'``), and an unexpected failure becomes a 500 in the one error shape
  (`vwlog.api.errors`), logged, never a traceback to the client;
- `BodyLimit` — a request body larger than its route's limit is refused with 413 before any
  route, token check or body parsing runs: at once from ``Content-Length``, or while a body
  without one streams in, as soon as the bytes counted pass the limit (the log upload,
  ``POST /matches``, has ``--max-upload``; every other route `JSON_BODY_LIMIT`);
- `vwlog.api.fastboard.BoardFastPath` — a board the worker already rendered is answered
  without the framework's routing, by the same access checks and key as the board route.

The API's pages (``/docs``) use Swagger UI as the ``swagger-ui-bundle-v2`` package ships it,
served from ``/static/swagger-ui``: nothing is loaded from another site.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import re
import select
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from vwlog import __version__
from vwlog.api import errors
from vwlog.api.cache import BoardCache, HeadCache
from vwlog.api.dependencies import principal
from vwlog.api.fastboard import BoardFastPath
from vwlog.api.routers import catalog, matches, play, reports, viewer
from vwlog.api.routers.catalog import CLIENT_GONE
from vwlog.api.schemas import ErrorOut
from vwlog.api.settings import ApiSettings
from vwlog.api.signing import Signer
from vwlog.api.writers import Writers
from vwlog.io.i18n import using_language
from vwlog.model.text import msg
from vwlog.services.headstate import HeadStates
from vwlog.store import MatchStore
from vwlog.store.tokens import TokenStore

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

JSON_BODY_LIMIT = 1024 * 1024
"""Largest request body of every route but the log upload, in bytes (1 MiB)."""
UPLOAD_PATH = "/matches"
"""The route whose ``POST`` body is a log, limited by ``--max-upload`` instead."""
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every answer: the service's own files only, no inline
script or style, never framed."""
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
"""The headers every answer carries."""
SWAGGER_UI = "/static/swagger-ui"
"""Where the Swagger UI files of the ``swagger-ui-bundle-v2`` package are served."""
ACCESS_PATH_LIMIT = 160
"""Most characters of a request's path an access-log entry keeps (an ellipsis marks a cut)."""
ACCESS_LINE_LIMIT = 4000
"""Most bytes of one access-log entry, its line feed included (each field is bounded: see
`access_line`): under Linux's ``PIPE_BUF`` (4096), so one write of an entry to a pipe is
never mixed with another process's."""
REQUEST_ID_HEADER = "x-request-id"
"""A request's own id, logged as ``request_id`` when it is 1 to 40 letters, digits and
``. _ : ~ -`` (anything else is logged as ``null``): a client matches its requests to the log."""
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:~-]{1,40}")
STDERR = 2
"""The file descriptor the access log writes to."""

_log = logging.getLogger(__name__)


def create_app(settings: ApiSettings | None = None) -> FastAPI:
    """The vwlog service over the store ``settings.store``.

    The store, its tokens and the signing key are opened when the server starts (the
    lifespan) and the store is closed when it stops, after in-flight requests finished.
    """
    settings = settings or ApiSettings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = MatchStore.open(settings.store)
        tokens = None
        try:
            app.state.store = store
            app.state.tokens = tokens = TokenStore.open(settings.store)
            app.state.signer = Signer.load_or_create(settings.signing_key)
            yield
        finally:
            for table in (tokens, getattr(app.state, "idempotency", None)):
                if table is not None:
                    table.close()
            store.close()

    app = FastAPI(
        title="vwlog",
        version=__version__,
        summary="Replay and audit service for Vandaria Wars matches",
        lifespan=lifespan,
        # a token presented anywhere is checked: a revoked or unknown one is always 401
        dependencies=[Depends(principal)],
        # the pages of the API are served below from the package's own files, never a CDN
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    # answers that replay a whole match, kept while its head does not move
    app.state.timelines = HeadCache(16)
    app.state.reports = HeadCache(16)
    app.state.rulings = HeadCache(16)
    # rendered boards at any seq, keyed by the head and the seat of the view
    app.state.boards = BoardCache()
    # the state at the head of the matches last read or appended to
    app.state.heads = HeadStates()
    # writes take turns: a few run at a time, the others wait on the event loop
    app.state.writers = Writers()
    errors.install(app)
    app.include_router(catalog.router)
    app.include_router(matches.router)
    app.include_router(reports.router)
    app.include_router(reports.diff_router)
    app.include_router(play.router)
    app.include_router(viewer.router)
    docs_csp = _mount_docs(app)
    app.mount("/static", StaticFiles(directory=viewer.STATIC), name="static")

    # added innermost first: the access log sees every answer, the guard's included
    app.add_middleware(BoardFastPath)
    app.add_middleware(BodyLimit, json_limit=JSON_BODY_LIMIT, upload_limit=settings.max_upload)
    app.add_middleware(Guard, csp_for={"/docs": docs_csp})
    if settings.access_log:
        app.add_middleware(AccessLog, fd=STDERR)
    return app


def _mount_docs(app: FastAPI) -> str:
    """Serve ``/docs`` (Swagger UI from the ``swagger-ui-bundle-v2`` package, under
    `SWAGGER_UI`); the Content-Security-Policy of that page, which lets its one inline
    script run (by its hash) and nothing else inline.

    Without the package, ``/docs`` is not served (404): the OpenAPI document stays at
    ``/openapi.json``."""
    try:
        from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]
    except ImportError:
        return CSP
    app.mount(SWAGGER_UI, StaticFiles(directory=Path(str(swagger_ui_path))), name="swagger-ui")
    page = get_swagger_ui_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title=f"{app.title} API",
        swagger_js_url=f"{SWAGGER_UI}/swagger-ui-bundle.js",
        swagger_css_url=f"{SWAGGER_UI}/swagger-ui.css",
        swagger_favicon_url=f"{SWAGGER_UI}/favicon-32x32.png",
        # no badge fetched from the validator's site
        swagger_ui_parameters={"validatorUrl": None},
    )
    body = bytes(page.body)
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
        for script in re.findall(rb"<script>(.*?)</script>", body, flags=re.S)
    )

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(body)

    # its one inline script by its hash; the icons its style sheet draws from data: URLs
    return CSP.replace("script-src 'self'", f"script-src 'self' {hashes}").replace(
        "img-src 'self'", "img-src 'self' data:"
    )


def _content_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The ``Content-Length`` a request announces (``None`` without one: a chunked body)."""
    for name, value in headers:
        if name == b"content-length" and value.strip().isdigit():
            return int(value)
    return None


class _BodyTooLarge(HTTPException):
    """A request body passed its route's limit while it was read."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            413, msg("the request body is larger than the limit of {limit} bytes", limit=limit)
        )
        self.limit = limit


class BodyLimit:
    """Refuse a request body larger than its route's limit with 413, before reading it.

    ``Content-Length`` over the limit: answered at once, nothing read. A body without one
    (chunked): its bytes are counted as the route reads them, and the read that passes the
    limit raises a 413 (`_BodyTooLarge`, an ``HTTPException``: FastAPI's body parsing lets it
    through, the error handlers answer it) — no route ever holds more than the limit.
    """

    def __init__(self, app: ASGIApp, *, json_limit: int, upload_limit: int) -> None:
        self.app = app
        self.json_limit = json_limit
        self.upload_limit = upload_limit

    def limit(self, scope: Scope) -> int:
        """The body limit of a request's route."""
        upload = scope["method"] == "POST" and scope["path"].rstrip("/") == UPLOAD_PATH
        return self.upload_limit if upload else self.json_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(scope)
        length = _content_length(scope["headers"])
        if length is not None and length > limit:
            await _send_error(scope, send, 413, lambda: errors.too_large_body(limit))
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            if received > limit:
                raise _BodyTooLarge(limit)
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge(limit)
            return message

        await self.app(scope, counted, send)


class Guard:
    """Add `SECURITY_HEADERS` to every answer (``csp_for`` names the pages with another
    Content-Security-Policy) and answer an unexpected failure with a 500 in the one error
    shape, logging it."""

    def __init__(self, app: ASGIApp, *, csp_for: dict[str, str] | None = None) -> None:
        self.app = app
        self.csp_for = {path: value.encode() for path, value in (csp_for or {}).items()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = self.csp_for.get(scope["path"])
        started = False

        async def guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                for name, value in SECURITY_HEADERS:
                    ours = csp if csp is not None and name == b"content-security-policy" else None
                    headers.append((name, ours or value))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, guarded)
        except Exception:
            _log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:
                raise
            await _send_error(scope, guarded, 500, errors.internal_error_body)


_OURS = frozenset(name for name, _ in SECURITY_HEADERS)


async def _send_error(scope: Scope, send: Send, status: int, body: Callable[[], ErrorOut]) -> None:
    """Answer a request from a middleware with an error in the one shape, in the language it
    asks for."""
    request = Request(scope)
    lang = errors.request_language(request)
    with using_language(lang):
        answer = errors.error_answer(status, body(), lang)
    await answer(scope, _no_body, send)


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


_METHOD_LIMIT = 16
_SHORT_LIMIT = 40


def access_line(
    *,
    method: object,
    path: object,
    status: int,
    ms: float,
    client: object,
    role: object,
    request_id: object,
    at: float | None = None,
) -> bytes:
    """One access-log entry: a JSON object on one line, ASCII only, ended by a line feed.

    Every text is bounded before it is encoded (the path to `ACCESS_PATH_LIMIT` characters,
    the method to 16, the client, role and request id to 40) and each character escapes to at
    most 12 bytes (``\\ud83d\\ude00``): at most about 3.8 KB, under `ACCESS_LINE_LIMIT`. Every
    non-ASCII or control character is escaped (``\\u2028``, a C1 control, ESC, a line feed
    from ``%0a``): a path can neither break the line nor reach a terminal that shows the log.

    >>> line = access_line(method="GET", path="/x\\n" + "\\u2028" * 5000, status=404, ms=1.5,
    ...                    client="127.0.0.1", role=None, request_id=None, at=0)
    >>> line.count(b"\\n"), len(line) < ACCESS_LINE_LIMIT, line.isascii()
    (1, True, True)
    """
    entry = {
        "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at)),
        "method": _cut(method, _METHOD_LIMIT),
        "path": _cut(path, ACCESS_PATH_LIMIT),
        "status": status,
        "ms": round(ms, 2),
        "client": _cut(client, _SHORT_LIMIT),
        "role": _cut(role, _SHORT_LIMIT),
        "request_id": _cut(request_id, _SHORT_LIMIT),
    }
    return json.dumps(entry, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"


def _cut(value: object, limit: int) -> str | None:
    if value is None:
        return None
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "\u2026"


def write_line(fd: int, line: bytes) -> None:
    """Write ``line`` to ``fd`` with one ``write``: one whole line, never mixed with another
    process's on the same pipe or file (see `ACCESS_LINE_LIMIT`).

    A descriptor another process left non-blocking and a full pipe: wait until it takes the
    line (as a blocking write would), never drop or cut it. A descriptor nobody reads any more
    (``EPIPE``) or that is closed: the entry has nowhere to go.
    """
    view = memoryview(line)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [])
            continue
        except OSError:
            return
        view = view[written:]


class AccessLog:
    """One access-log entry per request, written when the request ends, however it ends:
    answered (by a route, an error handler, or a middleware before any route: the body
    limit's 413), failed (the status the guard answered), or given up (its client left before
    the answer began, as the app heard: `CLIENT_GONE`, 499; cancelled otherwise: 500).

    An entry is one JSON line: ``at`` (UTC, seconds), ``method``, ``path`` (without the query,
    which may carry what a client typed), ``status``, ``ms``, ``client`` (its address),
    ``role`` (of its token, when one was accepted) and ``request_id`` (the ``X-Request-ID``
    header, see `REQUEST_ID_HEADER`). It is written to ``fd`` (stderr) by one ``write`` of the
    whole line (`write_line`): several workers share stderr, and a line buffered and flushed
    in pieces could be cut by another worker's.
    """

    def __init__(self, app: ASGIApp, *, fd: int = STDERR) -> None:
        self.app = app
        self.fd = fd

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: int | None = None
        gone = False

        async def noted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                # an answer to a client that already left reaches nobody
                status = CLIENT_GONE if gone else message["status"]
            await send(message)

        async def heard() -> Message:
            nonlocal gone
            message = await receive()
            if message["type"] == "http.disconnect":
                gone = True
            return message

        try:
            await self.app(scope, heard, noted)
        finally:
            if status is None:
                status = CLIENT_GONE if gone else 500
            line = access_line(
                method=scope.get("method"),
                path=scope.get("path"),
                status=status,
                ms=(time.perf_counter() - started) * 1000,
                client=(scope.get("client") or (None,))[0],
                role=(scope.get("state") or {}).get("role"),
                request_id=_request_id(scope),
            )
            write_line(self.fd, line)


def _request_id(scope: Scope) -> str | None:
    """The request's ``X-Request-ID``, when it is one `REQUEST_ID_HEADER` accepts."""
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER.encode():
            text = value.decode("latin-1")
            return text if _REQUEST_ID.fullmatch(text) else None
    return None


def app_from_env() -> FastAPI:
    """The app configured by ``VWLOG_*`` environment variables (uvicorn's factory for several
    workers: ``uvicorn --factory vwlog.api.app:app_from_env``)."""
    return create_app(ApiSettings.from_env())


__all__ = [
    "ACCESS_LINE_LIMIT",
    "ACCESS_PATH_LIMIT",
    "CSP",
    "JSON_BODY_LIMIT",
    "REQUEST_ID_HEADER",
    "SECURITY_HEADERS",
    "STDERR",
    "SWAGGER_UI",
    "AccessLog",
    "BodyLimit",
    "Guard",
    "access_line",
    "app_from_env",
    "create_app",
    "write_line",
]
