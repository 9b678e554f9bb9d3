"""What the service is configured with: flags of ``vwlog serve`` or environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Self

from vwlog.store.location import store_location

DEFAULT_MAX_UPLOAD = 64 * 1024 * 1024
"""Largest log accepted by an upload, in bytes (64 MiB)."""
DEFAULT_KEY_FILE = "vwlog-service.key"
"""Where the service's Ed25519 signing key is kept unless told otherwise."""


@dataclass(frozen=True, slots=True)
class ApiSettings:
    """The service's configuration."""

    store: str = field(default_factory=lambda: store_location(None).url)
    """The match store URL (``VWLOG_STORE``; default: the per-user store of
    `vwlog.store.location`)."""
    signing_key: str = DEFAULT_KEY_FILE
    """The PEM file of the Ed25519 key that signs receipts (``VWLOG_SIGNING_KEY``); created
    when missing."""
    max_upload: int = DEFAULT_MAX_UPLOAD
    """Largest upload in bytes (``VWLOG_MAX_UPLOAD``)."""
    access_log: bool = True
    """Whether every request is logged as one JSON line on stderr (``VWLOG_ACCESS_LOG``)."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Self:
        """Settings from ``VWLOG_*`` environment variables (defaults where unset).

        Raises:
            ValueError: ``VWLOG_MAX_UPLOAD`` is not a whole number.
        """
        e = dict(os.environ if env is None else env)
        return cls(
            store=store_location(None, e).url,
            signing_key=e.get("VWLOG_SIGNING_KEY", DEFAULT_KEY_FILE),
            max_upload=int(e.get("VWLOG_MAX_UPLOAD", str(DEFAULT_MAX_UPLOAD))),
            access_log=e.get("VWLOG_ACCESS_LOG", "1") not in ("0", "false", "no"),
        )


__all__ = ["DEFAULT_KEY_FILE", "DEFAULT_MAX_UPLOAD", "ApiSettings"]
