"""``vwlog serve``: run the HTTP service (the ``api`` extra) on uvicorn.

The command line and the service do not import each other: uvicorn loads the app by name
(``vwlog.api.app:app_from_env``) from the ``VWLOG_*`` environment this command sets.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import click

from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.options import Decorator
from vwlog.model.errors import UsageError
from vwlog.model.text import msg
from vwlog.store.settings import settings_from_url

APP = "vwlog.api.app:app_from_env"
"""The app factory uvicorn imports in each worker."""


def _setting(flag: str, default: object, help: str, **kwargs: Any) -> Decorator:
    """An option of the service that the environment may set too (``--max-upload`` reads
    ``VWLOG_MAX_UPLOAD``); its default and its variable are shown in ``--help``."""
    envvar = "VWLOG_" + flag.lstrip("-").replace("-", "_").upper()
    return click.option(
        flag,
        default=default,
        show_default=True,
        envvar=envvar,
        show_envvar=True,
        help=help,
        **kwargs,
    )


@main.command()
@_setting("--host", "127.0.0.1", help="Interface to listen on.")
@_setting("--port", 8000, type=click.IntRange(0, 65535), help="Port to listen on.")
@_setting(
    "--workers",
    1,
    type=click.IntRange(1, 64),
    help="Worker processes (more than one needs a PostgreSQL store).",
)
@_setting(
    "--signing-key",
    "vwlog-service.key",
    metavar="PEM",
    help="Ed25519 key that signs append receipts; created if missing.",
)
@_setting(
    "--max-upload",
    64 * 1024 * 1024,
    type=click.IntRange(1),
    help="Largest log upload, in bytes.",
)
@click.option(
    "--access-log/--no-access-log",
    default=True,
    show_default=True,
    help="Log every request as one JSON line on stderr.",
)
@pass_cli_context
def serve(
    cli: CliContext,
    host: str,
    port: int,
    workers: int,
    signing_key: str,
    max_upload: int,
    *,
    access_log: bool,
) -> None:
    """Serve the store over HTTP: upload, replay, audit, fork and record matches live.

    The OpenAPI document is at /openapi.json and its pages at /docs. SIGTERM or Ctrl-C
    stops accepting requests and finishes those in flight (appends included).

    Example:

    \b
        vwlog serve --port 8000
        VWLOG_STORE=postgresql://vw@127.0.0.1/vwlog vwlog serve --workers 4
    """
    if importlib.util.find_spec("fastapi") is None or importlib.util.find_spec("uvicorn") is None:
        raise UsageError(msg("'vwlog serve' needs the api extra: pip install 'vwlog[api]'"))
    backend = settings_from_url(cli.store).get("PERSISTENCE_MODULE")
    if workers > 1 and backend != "eventsourcing.postgres":
        raise UsageError(
            msg(
                "--workers {workers} needs a PostgreSQL store; an SQLite or memory store is "
                "served by one worker",
                workers=workers,
            )
        )
    os.environ.update(
        {
            "VWLOG_STORE": cli.store,
            "VWLOG_SIGNING_KEY": os.path.abspath(signing_key),
            "VWLOG_MAX_UPLOAD": str(max_upload),
            "VWLOG_ACCESS_LOG": "1" if access_log else "0",
        }
    )
    import uvicorn

    uvicorn.run(
        APP,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=False,
        timeout_graceful_shutdown=30,
        # a worker imports the whole service before it answers its supervisor's first ping; on
        # a busy machine that takes longer than uvicorn's 5 s, and the worker would be killed
        timeout_worker_healthcheck=120,
        log_level="info",
    )


__all__ = ["APP", "serve"]
