"""The application: `create_app(settings)` opens the store, the tokens and the signing key,
mounts the routers, the error handlers, the access log and the guards every answer passes.

Three pure ASGI middlewares wrap the routes (outermost first):

- `AccessLog` — one JSON line per request on stderr (``--no-access-log`` leaves it out);
- `Guard` — every answer carries the security headers (`SECURITY_HEADERS`, a
  Content-Security-Policy without inline script: ``default-src 'self'``, ``frame-ancestors
  'none'``), and an unexpected failure becomes a 500 in the one error shape
  (`vwlog.api.errors`), logged, never a traceback to the client;
- `BodyLimit` — a request body larger than its route's limit is refused with 413 before any
  route, token check or body parsing runs: at once from ``Content-Length``, or while a body
  without one streams in, as soon as the bytes counted pass the limit (the log upload,
  ``POST /matches``, has ``--max-upload``; every other route `JSON_BODY_LIMIT`).

The API's pages (``/docs``) use Swagger UI as the ``swagger-ui-bundle-v2`` package ships it,
served from ``/static/swagger-ui``: nothing is loaded from another site.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from vwlog import __version__
from vwlog.api import errors
from vwlog.api.cache import HeadCache
from vwlog.api.dependencies import principal
from vwlog.api.routers import catalog, matches, play, viewer
from vwlog.api.schemas import ErrorOut
from vwlog.api.settings import ApiSettings
from vwlog.api.signing import Signer
from vwlog.io.i18n import using_language
from vwlog.model.text import msg
from vwlog.store import MatchStore
from vwlog.store.tokens import TokenStore

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

ACCESS_LOG = "vwlog.access"
"""The logger of the access log: one JSON object per request."""
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

_log = logging.getLogger(__name__)


def _access_logger() -> logging.Logger:
    log = logging.getLogger(ACCESS_LOG)
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    return log


def create_app(settings: ApiSettings | None = None) -> FastAPI:
    """The vwlog service over the store ``settings.store``.

    The store, its tokens and the signing key are opened when the server starts (the
    lifespan) and the store is closed when it stops, after in-flight requests finished.
    """
    settings = settings or ApiSettings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = MatchStore.open(settings.store)
        try:
            app.state.store = store
            app.state.tokens = TokenStore.open(settings.store)
            app.state.signer = Signer.load_or_create(settings.signing_key)
            yield
        finally:
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
    errors.install(app)
    app.include_router(catalog.router)
    app.include_router(matches.router)
    app.include_router(matches.diff_router)
    app.include_router(play.router)
    app.include_router(viewer.router)
    docs_csp = _mount_docs(app)
    app.mount("/static", StaticFiles(directory=viewer.STATIC), name="static")

    # added innermost first: the access log sees every answer, the guard's included
    app.add_middleware(BodyLimit, json_limit=JSON_BODY_LIMIT, upload_limit=settings.max_upload)
    app.add_middleware(Guard, csp_for={"/docs": docs_csp})
    if settings.access_log:
        app.add_middleware(AccessLog, log=_access_logger())
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


class AccessLog:
    """One JSON line per request: when, method, path, status, milliseconds, client, role."""

    def __init__(self, app: ASGIApp, *, log: logging.Logger) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def noted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noted)
        finally:
            client = scope.get("client")
            entry = {
                "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "method": scope.get("method"),
                "path": scope.get("path"),
                "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 2),
                "client": client[0] if client else None,
                "role": (scope.get("state") or {}).get("role"),
            }
            self.log.info(orjson.dumps(entry).decode())


def app_from_env() -> FastAPI:
    """The app configured by ``VWLOG_*`` environment variables (uvicorn's factory for several
    workers: ``uvicorn --factory vwlog.api.app:app_from_env``)."""
    return create_app(ApiSettings.from_env())


__all__ = [
    "ACCESS_LOG",
    "CSP",
    "JSON_BODY_LIMIT",
    "SECURITY_HEADERS",
    "SWAGGER_UI",
    "AccessLog",
    "BodyLimit",
    "Guard",
    "app_from_env",
    "create_app",
]
