"""The application: `create_app(settings)` opens the store, the tokens and the signing key,
mounts the routers, the error handlers and the access log."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import orjson
from fastapi import Depends, FastAPI, Request, Response
from fastapi.staticfiles import StaticFiles

from vwlog import __version__
from vwlog.api import errors
from vwlog.api.cache import HeadCache
from vwlog.api.dependencies import principal
from vwlog.api.routers import catalog, matches, play, viewer
from vwlog.api.settings import ApiSettings
from vwlog.api.signing import Signer
from vwlog.store import MatchStore
from vwlog.store.tokens import TokenStore

ACCESS_LOG = "vwlog.access"
"""The logger of the access log: one JSON object per request."""


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
    app.mount("/static", StaticFiles(directory=viewer.STATIC), name="static")

    if settings.access_log:
        log = _access_logger()

        @app.middleware("http")
        async def access(
            request: Request, call_next: Callable[[Request], Awaitable[Response]]
        ) -> Response:
            started = time.perf_counter()
            status = 500
            try:
                response = await call_next(request)
                status = response.status_code
                return response
            finally:
                entry = {
                    "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "method": request.method,
                    "path": request.url.path,
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 2),
                    "client": request.client.host if request.client else None,
                    "role": getattr(request.state, "role", None),
                }
                log.info(orjson.dumps(entry).decode())

    return app


def app_from_env() -> FastAPI:
    """The app configured by ``VWLOG_*`` environment variables (uvicorn's factory for several
    workers: ``uvicorn --factory vwlog.api.app:app_from_env``)."""
    return create_app(ApiSettings.from_env())


__all__ = ["ACCESS_LOG", "app_from_env", "create_app"]
